"""Walhalla's end of a raid (W-7 .. W-11), in Numba: part of the state machine of ``mechanics.py``.

The raid's end (W-7.1); the card phase's and the sale's options (DP-8, DP-9); the cards revealed
(W-7.2); the peninsula scoring and the final scoring with their majorities (W-8, W-9); the preparation
and reinforcement (W-10); the heroes leaving Walhalla (W-11).  The checks of §7.6-7.8 that run inside
the preparation stay beside the steps they check and record through ``layout.violation``.  Over
``layout.py`` only (layout <- deal <- turn <- raid_end <- mechanics).

DP-8's and DP-9's options are count vectors of cards, their codes in ``layout.py``'s docstring
("Decision points and option codes").  :func:`vector_options` lists at most ``MAX_OPTIONS`` (4096): with
more (only for hands of dozens of cards; a vector count is a product of hand sizes and reaches millions
under extreme ``action_deck`` values) it lists the first ``MAX_OPTIONS - 3`` and then those of greedy's
candidates that come later, still in order -- every option ``greedy`` and ``lookahead`` can take, not
every option.
"""

from __future__ import annotations

from toolkit.core import rng
from toolkit.core.cards import split_evenly
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.games.walhalla.layout import (
    DP_8, HORN, INV_CLEANUP, INV_HEROES, INV_REINFORCEMENT, MAX_FIELDS, MAX_OPTIONS, MAX_SEATS, N_CARDS, N_DRAGONS,
    PLUNDER, P_ELIGIBLE_MIN, P_FIELD_VP, P_HORN, P_PLAYERS, P_PLUNDER, P_REINFORCE, P_ROUND_UP, P_VILLAGE_BONUS,
    P_WALHALLA_VP, P_WCARD_BONUS, S_ASGARD, S_CHECK, S_DISCARD, S_DRAGONS, S_DRAGON_HEAD, S_FTYPE, S_FVALUE, S_HAND,
    S_HEROES, S_HORNS, S_INNER, S_LAID, S_LAST, S_MIDGARD, S_MOORED, S_N, S_OCC, S_OUTER, S_PHASE, S_SEAT, S_START,
    S_TMP, S_VP, S_VP_FROM, S_WALHALLA, S_WCARDS, VEC_BITS, VILLAGE, WCARD, WHEAT, field_count, violation)


@njit_inline
def raid_over(ip, st):
    if st[S_DRAGON_HEAD] >= N_DRAGONS:
        return True
    for p in range(ip[P_PLAYERS]):
        if st[S_MIDGARD + p] > 0:
            return False
    return True


# ------------------------------------------------------------------------ count vectors (DP-8, DP-9)


@njit_inline
def _allowed(v, group_end, group_cap, total_cap):
    """Whether the count vector ``v`` keeps ``sum(v[:group_end]) <= group_cap`` and ``sum(v) <= total_cap``."""
    group = 0
    total = 0
    for i in range(N_CARDS):
        total += v[i]
        if i < group_end:
            group += v[i]
    return group <= group_cap and total <= total_cap


@njit_inline
def _next_vector(v, limits):
    """The odometer (the last entry turns fastest, each up to ``limits``): ``v`` becomes the next vector in
    the spec's order; False after the last one."""
    i = N_CARDS - 1
    while i >= 0 and v[i] == limits[i]:
        v[i] = 0
        i -= 1
    if i < 0:
        return False
    v[i] += 1
    return True


@njit_no_nrt
def nth_vector(limits, group_end, group_cap, total_cap, index, out):
    """The ``index``-th count vector (lexicographic, entry 0 first) with ``0 <= out[i] <= limits[i]``,
    ``sum(out[:group_end]) <= group_cap`` and ``sum(out) <= total_cap``; with ``index < 0`` it
    only counts them.  Returns the count (or ``index``)."""
    for i in range(N_CARDS):
        out[i] = 0
    count = 0
    while True:
        if _allowed(out, group_end, group_cap, total_cap):
            if count == index:
                return index
            count += 1
        if not _next_vector(out, limits):
            return count


@njit_inline
def pack_vector(v):
    """A count vector's option code: entry c in bits ``VEC_BITS * c`` on."""
    code = 0
    for c in range(N_CARDS):
        code |= v[c] << (VEC_BITS * c)
    return code


@njit_inline
def vector_entry(code, c):
    return (code >> (VEC_BITS * c)) & ((1 << VEC_BITS) - 1)


@njit_inline
def vector_rule(ip, st, limits):
    """The current DP-8 or DP-9's count vectors: their limits into ``limits``; returns
    ``(group_end, group_cap, total_cap)`` for :func:`nth_vector`."""
    p = st[S_SEAT]
    h = S_HAND + N_CARDS * p
    if st[S_PHASE] == DP_8:
        horns = st[h + HORN]
        limits[0], limits[1], limits[2] = horns, horns, horns
        limits[3] = 0 if st[S_LAST] == 1 else st[h + WCARD]
        limits[4] = st[h + PLUNDER]
        return 3, horns, 1 << 30
    for c in range(N_CARDS):
        limits[c] = st[h + c]
    return 0, 0, st[S_ASGARD + p]


@njit_no_nrt
def list_vectors(limits, v, group_end, group_cap, total_cap, out, most):
    """The codes of :func:`nth_vector`'s vectors in its order into ``out``, at most ``most``; returns how
    many (``v``: scratch for the vector)."""
    for i in range(N_CARDS):
        v[i] = 0
    m = 0
    while m < most:
        if _allowed(v, group_end, group_cap, total_cap):
            out[m] = pack_vector(v)
            m += 1
        if not _next_vector(v, limits):
            break
    return m


@njit_inline
def canonical_key(code):
    """A count vector's place in the spec's order (entry 0 first) as a number."""
    key = 0
    for c in range(N_CARDS):
        key = (key << VEC_BITS) | vector_entry(code, c)
    return key


@njit_no_nrt
def vector_options(params, st, out):
    """DP-8 / DP-9's options into ``out``.  More than ``MAX_OPTIONS`` vectors (only with hands of dozens of
    cards) do not fit: then the first ``MAX_OPTIONS - 3`` are listed, followed by those of the vectors
    greedy can choose that come later, still in the spec's order (module docstring)."""
    n = st[S_N]
    limits = st[S_TMP:S_TMP + N_CARDS]
    v = st[S_TMP + 8:S_TMP + 8 + N_CARDS]
    group_end, group_cap, total_cap = vector_rule(params, st, limits)
    if n <= MAX_OPTIONS:
        return list_vectors(limits, v, group_end, group_cap, total_cap, out, n)
    m = list_vectors(limits, v, group_end, group_cap, total_cap, out, MAX_OPTIONS - 3)
    if st[S_PHASE] == DP_8:  # every Walhalla card and Plunder, the Horns on none or on one peninsula
        rest = (limits[3] << (VEC_BITS * 3)) | (limits[4] << (VEC_BITS * 4))
        for at in range(-1, 3):  # (0, 0, 0, w, pl) < (0, 0, h, w, pl) < (0, h, 0, w, pl) < (h, 0, 0, w, pl)
            code = rest if at < 0 else rest | (limits[0] << (VEC_BITS * (2 - at)))
            if canonical_key(code) > canonical_key(out[m - 1]):
                out[m] = code
                m += 1
    return m


# ------------------------------------------------------------------------ W-7 .. W-11


@njit_no_nrt
def reveal_cards(ip, st):
    """W-7.2 after every DP-8: the cards laid (``S_LAID``) revealed together."""
    for p in range(ip[P_PLAYERS]):
        v = st[S_LAID + N_CARDS * p:S_LAID + N_CARDS * (p + 1)]
        gain = ip[P_PLUNDER] * v[4]
        st[S_VP + p] += gain
        st[S_VP_FROM + 5 * MAX_SEATS + p] += gain
        for k in range(3):
            st[S_HORNS + 3 * p + k] = ip[P_HORN] * v[k]
        st[S_WCARDS + p] = v[3]
        st[S_DISCARD + HORN] += v[0] + v[1] + v[2]
        st[S_DISCARD + WCARD] += v[3]
        st[S_DISCARD + PLUNDER] += v[4]


@njit_inline
def share(ip, total, k):
    return split_evenly(total, k, ip[P_ROUND_UP] == 1)


@njit_no_nrt
def majority_gain(ip, strength, eligible, first, second, p):
    """reference.majority_gains for player ``p``."""
    if eligible[p] == 0:
        return 0
    n = ip[P_PLAYERS]
    top = -1
    for q in range(n):
        if eligible[q] == 1 and strength[q] > top:
            top = strength[q]
    n_top = 0
    for q in range(n):
        if eligible[q] == 1 and strength[q] == top:
            n_top += 1
    if strength[p] == top:
        return share(ip, first + second, n_top) if n_top >= 2 else first
    if n_top >= 2:
        return 0
    runner = -1
    for q in range(n):
        if eligible[q] == 1 and strength[q] != top and strength[q] > runner:
            runner = strength[q]
    if strength[p] != runner:
        return 0
    n_runner = 0
    for q in range(n):
        if eligible[q] == 1 and strength[q] == runner:
            n_runner += 1
    return share(ip, second, n_runner)


@njit_no_nrt
def majority(ip, st, strength, eligible, first, second, source):
    """W-8.3 / W-9.3: every player's :func:`majority_gain`, added to VP and to the VP of ``source``."""
    for p in range(ip[P_PLAYERS]):
        g = majority_gain(ip, strength, eligible, first, second, p)
        st[S_VP + p] += g
        st[S_VP_FROM + source * MAX_SEATS + p] += g


@njit_inline
def tally_peninsula(ip, st, k, strength, vikings, eligible, p, mine):
    """W-8.1 on peninsula ``k``: each seat's vikings there into ``vikings``, their strength added to
    ``strength`` (one a viking, the village bonus on a village) and ``eligible[q]`` 1 where q has the
    vikings a majority needs; seat ``p``'s fields there added to ``mine[0]`` and its wheat's value to
    ``mine[1]`` (``p = -1``: none).  One pass over the fields: greedy's ``worth`` calls it for every option."""
    n = ip[P_PLAYERS]
    for q in range(n):
        vikings[q] = 0
    for j in range(field_count(st, k)):
        o = st[S_OCC + MAX_FIELDS * k + j]
        if o >= 0:
            vikings[o] += 1
            strength[o] += 1
            kind = st[S_FTYPE + MAX_FIELDS * k + j]
            if kind == VILLAGE:
                strength[o] += ip[P_VILLAGE_BONUS]
            if o == p:
                mine[0] += 1
                if kind == WHEAT:
                    mine[1] += st[S_FVALUE + MAX_FIELDS * k + j]
    for q in range(n):
        eligible[q] = 1 if vikings[q] >= ip[P_ELIGIBLE_MIN] else 0


@njit_no_nrt
def peninsula_scoring(ip, st):
    """W-8: majorities, then wheat."""
    n = ip[P_PLAYERS]
    tmp = st[S_TMP:S_TMP + 32]
    strength = tmp[0:MAX_SEATS]
    eligible = tmp[4:4 + MAX_SEATS]
    vikings = tmp[8:8 + MAX_SEATS]
    for k in range(3):
        for p in range(n):
            strength[p] = st[S_HORNS + 3 * p + k]
        tally_peninsula(ip, st, k, strength, vikings, eligible, -1, tmp[12:14])
        majority(ip, st, strength, eligible, st[S_OUTER + k], st[S_INNER + k], 0)
    for k in range(3):
        for j in range(field_count(st, k)):
            o = st[S_OCC + MAX_FIELDS * k + j]
            if o >= 0 and st[S_FTYPE + MAX_FIELDS * k + j] == WHEAT:
                st[S_VP + o] += st[S_FVALUE + MAX_FIELDS * k + j]
                st[S_VP_FROM + MAX_SEATS + o] += st[S_FVALUE + MAX_FIELDS * k + j]


@njit_no_nrt
def fields_of(st, p):
    count = 0
    for k in range(3):
        for j in range(field_count(st, k)):
            if st[S_OCC + MAX_FIELDS * k + j] == p:
                count += 1
    return count


@njit_no_nrt
def final_scoring(ip, st):
    """W-9: peninsulas, occupied fields, the Walhalla majority."""
    n = ip[P_PLAYERS]
    peninsula_scoring(ip, st)
    for p in range(n):
        g = ip[P_FIELD_VP] * fields_of(st, p)
        st[S_VP + p] += g
        st[S_VP_FROM + 3 * MAX_SEATS + p] += g
    tmp = st[S_TMP:S_TMP + 32]
    strength = tmp[16:16 + MAX_SEATS]
    eligible = tmp[20:20 + MAX_SEATS]
    for p in range(n):
        strength[p] = st[S_WALHALLA + p]
        eligible[p] = 1 if st[S_WALHALLA + p] >= 1 else 0
    majority(ip, st, strength, eligible, ip[P_WALHALLA_VP], ip[P_WALHALLA_VP + 1], 4)


@njit_no_nrt
def preparation(ip, st, rs):
    """W-10 up to the selling: cleanup, dragons, start player, reinforcement (W-10.1-10.3)."""
    n = ip[P_PLAYERS]
    for k in range(3):
        for j in range(field_count(st, k)):
            o = st[S_OCC + MAX_FIELDS * k + j]
            if o >= 0 and st[S_FTYPE + MAX_FIELDS * k + j] != WHEAT:
                st[S_ASGARD + o] += 1
                st[S_OCC + MAX_FIELDS * k + j] = -1
    if st[S_CHECK] == 1:  # §7.6: right after the cleanup only wheat fields are occupied
        for k in range(3):
            for j in range(field_count(st, k)):
                if st[S_OCC + MAX_FIELDS * k + j] >= 0 and st[S_FTYPE + MAX_FIELDS * k + j] != WHEAT:
                    violation(st, INV_CLEANUP)
    for i in range(N_DRAGONS):
        st[S_DRAGONS + i] = i
    rng.shuffle(st, S_DRAGONS, N_DRAGONS, rs, 0)
    st[S_DRAGON_HEAD] = 0
    for f in range(4):
        st[S_MOORED + f] = 0
    st[S_START] = (st[S_START] + 1) % n
    tmp = st[S_TMP:S_TMP + 32]
    w = tmp[24:24 + MAX_SEATS]
    for p in range(n):
        w[p] = st[S_WALHALLA + p] + ip[P_WCARD_BONUS] * st[S_WCARDS + p]
    for p in range(n):
        rank = 0
        for q in range(n):
            if w[q] > w[p]:
                rank += 1
        moved = min(ip[P_REINFORCE + rank], st[S_ASGARD + p])
        st[S_ASGARD + p] -= moved
        st[S_MIDGARD + p] += moved
        if st[S_CHECK] == 1 and (moved > ip[P_REINFORCE + rank] or st[S_ASGARD + p] < 0):
            violation(st, INV_REINFORCEMENT)  # §7.8


@njit_no_nrt
def heroes(ip, st):
    """W-11, after the selling (W-10.4): every Walhalla count drops by the least one, those Vikings to Asgard."""
    n = ip[P_PLAYERS]
    m = st[S_WALHALLA]
    for p in range(1, n):
        m = min(m, st[S_WALHALLA + p])
    for p in range(n):
        st[S_WALHALLA + p] -= m
        st[S_ASGARD + p] += m
        st[S_HEROES + p] += m
    if st[S_CHECK] == 1:  # §7.7: afterwards the least Walhalla count is 0
        least = st[S_WALHALLA]
        for p in range(1, n):
            least = min(least, st[S_WALHALLA + p])
        if least != 0:
            violation(st, INV_HEROES)
