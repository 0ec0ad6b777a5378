"""Walhalla's policies in Numba: ``greedy`` and ``lookahead`` (``policies.py``'s, decision for decision),
with the protocol's ``evaluate`` and ``determinize``.

``greedy`` and ``lookahead`` are ``kernel.choose``: :func:`greedy_option` gives greedy's option code at
any decision point (its ties broken from the seat's decision stream, as before), and a lookahead seat's
DP-3 is :func:`lookahead_fjord`, whose rollouts play the rest of the raid in their own world
(``rollout`` set: the protocol's steps stop after the raid's scoring) with :func:`greedy_option` at
every decision point.  A lookahead's sample count travels in its policy id (``kernel.policy_ids``).

The rollouts call ``mechanics.advance_called`` and ``mechanics.apply_called`` (``core.driver.make_calls``,
filed beside ``mechanics.py``; the kernel's wiring keeps the same pair); ``pimc``
(``core.lookahead.make_lookahead``) is filed beside this module for Numba's cache.  Over ``layout.py`` (the
state ``STATE``, the policies' scratch ``SCRATCH``) and the rules of ``mechanics.py``, ``turn.py`` and
``raid_end.py`` (layout <- mechanics <- heuristics <- kernel).
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.jit import njit_no_nrt
from toolkit.core.lookahead import deal_unseen, make_lookahead
from toolkit.games.walhalla.layout import (
    AXE, CULT, DP_1, DP_2, DP_3, DP_4, DP_5, DP_6, DP_7, DP_8, FOREST, HORN, MAX_DECK, MAX_FIELDS, MAX_SEATS,
    N_CARDS, N_DRAGONS, N_STREAMS, PLUNDER, P_CULT_CARDS, P_DECK, P_FIELD_VP, P_FOREST_VP, P_HORN, P_PLAYERS,
    P_RAIDS, STATE_SIZE, STAY, S_ABOARD, S_ACTIVE, S_BASE, S_CAND, S_CHECK, S_COLOUR, S_CSEAT, S_DECK, S_DECK_HEAD,
    S_DECK_N, S_DISCARD, S_DRAGONS, S_DRAGON_HEAD, S_FIELD, S_FTYPE, S_HAND, S_INNER, S_J, S_LAST, S_LEGAL,
    S_MIDGARD, S_MOORED, S_N, S_N_CAND, S_OCC, S_OUTER, S_PHASE, S_RAID, S_ROLLOUT, S_VP, VEC_BITS, WCARD, W_BASE,
    W_CANDS, W_DRAG, W_G, W_NET, W_POOL, W_TOTALS, W_WORLD, field_count)
from toolkit.games.walhalla.mechanics import advance_called, apply_called
from toolkit.games.walhalla.raid_end import majority_gain, tally_peninsula
from toolkit.games.walhalla.turn import boardable, legal_mask


# ------------------------------------------------------------------------ greedy (policies.py)


@njit_no_nrt
def worth(ip, st, p, horn_k, horn_amount, scratch):
    """policies.worth: majorities (``horn_amount`` added to p's strength on peninsula ``horn_k``),
    wheat, and the final field points in the last raid."""
    n = ip[P_PLAYERS]
    g = scratch[W_G:W_G + 16]
    strength = g[0:MAX_SEATS]
    eligible = g[4:4 + MAX_SEATS]
    vikings = g[8:8 + MAX_SEATS]
    total = 0
    fields = 0
    mine = g[12:14]  # p's fields and wheat (tally_peninsula)
    mine[0] = mine[1] = 0
    for k in range(3):
        for q in range(n):
            strength[q] = 0
        tally_peninsula(ip, st, k, strength, vikings, eligible, p, mine)
        if k == horn_k:
            strength[p] += horn_amount
        total += majority_gain(ip, strength, eligible, st[S_OUTER + k], st[S_INNER + k], p)
    total += mine[1]
    fields = mine[0]
    if st[S_RAID] == ip[P_RAIDS] - 1:
        total += ip[P_FIELD_VP] * fields
    return total


@njit_no_nrt
def land_gain(ip, st, p, k, j, scratch):
    """policies.land_gain: the change in worth of p taking (k, j), plus the immediate effect."""
    before = worth(ip, st, p, -1, 0, scratch)
    f = S_OCC + MAX_FIELDS * k + j
    old = st[f]
    st[f] = p
    after = worth(ip, st, p, -1, 0, scratch)
    st[f] = old
    kind = st[S_FTYPE + MAX_FIELDS * k + j]
    gain = after - before
    if kind == FOREST:
        gain += ip[P_FOREST_VP]
    elif kind == CULT:
        gain += ip[P_CULT_CARDS]
    return gain


@njit_no_nrt
def option_value(ip, st, p, k, j, scratch):
    """policies.option_value: a defended field is worth 0 without an Axe in hand."""
    if st[S_OCC + MAX_FIELDS * k + j] >= 0 and st[S_HAND + N_CARDS * p + AXE] == 0:
        return 0
    return land_gain(ip, st, p, k, j, scratch)


@njit_no_nrt
def seat_net(ip, st, p, f, j, scratch):
    """policies.seat_net: best landing value - 1 at seat j of a dragon into fjord f (0: no field)."""
    q = 3 * st[S_MOORED + f] + 1 + j
    found = False
    top = 0
    for k in (f - 1, f):
        if 0 <= k <= 2 and q <= field_count(st, k) and st[S_OCC + MAX_FIELDS * k + q - 1] != p:
            v = option_value(ip, st, p, k, q - 1, scratch)
            if not found or v > top:
                top = v
            found = True
    return top - 1 if found else 0


@njit_no_nrt
def stake(ip, st, defender, k, j, scratch):
    """policies.stake: what the defender's worth loses without field (k, j)."""
    f = S_OCC + MAX_FIELDS * k + j
    with_it = worth(ip, st, defender, -1, 0, scratch)
    st[f] = -1
    without = worth(ip, st, defender, -1, 0, scratch)
    st[f] = defender
    return with_it - without


@njit_no_nrt
def greedy_nets(ip, st, p, scratch):
    """seat_net for every legal fjord and dragon seat, into ``scratch[W_NET + 3 f + j]``."""
    legal = legal_mask(st)
    for f in range(4):
        if (legal >> f) & 1 == 1:
            for j in range(3):
                scratch[W_NET + 3 * f + j] = seat_net(ip, st, p, f, j, scratch)
    return legal


@njit_no_nrt
def greedy_option(ip, st, rs, seat, scratch):
    """The option code ``greedy`` (policies.py) takes at the current decision point (its ties broken
    with ``seat``'s decision stream); ``lookahead`` takes it too, but at DP-3."""
    phase = st[S_PHASE]
    if phase == DP_1:  # the set with the largest best-fjord total of seat values
        active = st[S_ACTIVE]
        cseat, colour, midgard = st[S_CSEAT], st[S_COLOUR], st[S_MIDGARD + active]
        legal = greedy_nets(ip, st, active, scratch)
        best, top, ties, idx = 0, 0, 1, 0
        for mask in range(8):
            if not boardable(mask, cseat, colour, active, midgard):
                continue
            value = -(1 << 40)
            for f in range(4):
                if (legal >> f) & 1 == 1:
                    total = 0
                    for j in range(3):
                        if (mask >> j) & 1 == 1:
                            total += scratch[W_NET + 3 * f + j]
                    value = max(value, total)
            take, ties = rng.best_of(rs, 1 + active, value, top, ties, idx == 0)
            if take:
                best, top = mask, value
            idx += 1
        return best
    if phase == DP_2:  # board if the coloured seat's landing values sum above 0
        colour = st[S_COLOUR]
        legal = greedy_nets(ip, st, colour, scratch)
        total = 0
        for f in range(4):
            if (legal >> f) & 1 == 1:
                total += scratch[W_NET + 3 * f + st[S_CSEAT]]
        return 0 if total > 0 else 1
    if phase == DP_3:  # the largest total landing value of its Vikings aboard
        active = st[S_ACTIVE]
        legal = st[S_LEGAL]
        greedy_nets(ip, st, active, scratch)
        best, top, ties, idx = 0, 0, 1, 0
        for f in range(4):
            if (legal >> f) & 1 == 1:
                value = 0
                for j in range(3):
                    if st[S_ABOARD + j] == active:
                        value += scratch[W_NET + 3 * f + j] + 1
                take, ties = rng.best_of(rs, 1 + active, value, top, ties, idx == 0)
                if take:
                    best, top = f, value
                idx += 1
        return best
    if phase == DP_4:  # the candidate of largest value; stay only if every candidate is below 0
        p = seat
        j = st[S_BASE] + st[S_J]
        n_cand = st[S_N_CAND]
        k0, k1 = st[S_CAND], st[S_CAND + 1]
        v0 = option_value(ip, st, p, k0, j, scratch)
        v1 = option_value(ip, st, p, k1, j, scratch) if n_cand == 2 else -(1 << 40)
        stays = st[S_N] > n_cand
        stay = -1
        if stays and max(v0, v1, stay) >= 0:
            stay = -2
        best, top, ties = k0, v0, 1
        if n_cand == 2:
            take, ties = rng.best_of(rs, 1 + p, v1, top, ties, False)
            if take:
                best, top = k1, v1
        if stays:
            take, ties = rng.best_of(rs, 1 + p, stay, top, ties, n_cand == 0)
            if take:
                best, top = STAY, stay
        return best
    if phase == DP_5:  # an Axe when the field is worth 2 or more
        return 0 if land_gain(ip, st, seat, st[S_FIELD], st[S_FIELD + 1], scratch) >= 2 else 1
    if phase == DP_6:  # a Shield when the field is worth 2 or more to keep
        return 0 if stake(ip, st, seat, st[S_FIELD], st[S_FIELD + 1], scratch) >= 2 else 1
    if phase == DP_7:  # the defender wins when the field is worth 2 or more to keep
        return 1 if stake(ip, st, seat, st[S_FIELD], st[S_FIELD + 1], scratch) < 2 else 0
    if phase == DP_8:  # every Plunder and Walhalla card; the Horns where they raise its worth most
        p = seat
        horns = st[S_HAND + N_CARDS * p + HORN]
        walhalla = 0 if st[S_LAST] == 1 else st[S_HAND + N_CARDS * p + WCARD]
        code = (walhalla << (VEC_BITS * 3)) | (st[S_HAND + N_CARDS * p + PLUNDER] << (VEC_BITS * 4))
        base = worth(ip, st, p, -1, 0, scratch)
        gain0 = worth(ip, st, p, 0, ip[P_HORN] * horns, scratch) - base
        gain1 = worth(ip, st, p, 1, ip[P_HORN] * horns, scratch) - base
        gain2 = worth(ip, st, p, 2, ip[P_HORN] * horns, scratch) - base
        if horns > 0 and max(gain0, gain1, gain2) > 0:
            at, top, ties = 0, gain0, 1
            take, ties = rng.best_of(rs, 1 + p, gain1, top, ties, False)
            if take:
                at, top = 1, gain1
            take, ties = rng.best_of(rs, 1 + p, gain2, top, ties, False)
            if take:
                at, top = 2, gain2
            code |= horns << (VEC_BITS * at)
        return code
    return 0  # DP-9: greedy sells nothing (the all-zero vector)


# ------------------------------------------------------------------------ lookahead (policies.py)


@njit_no_nrt
def evaluate(params, st, seat):
    """The protocol's evaluation: ``seat``'s VP minus the best other seat's (the lookahead's rollout
    value)."""
    best = -(1 << 40)
    for p in range(params[P_PLAYERS]):
        if p != seat:
            best = max(best, st[S_VP + p])
    return st[S_VP + seat] - best


@njit_no_nrt
def determinize(params, st, rs, me, base, scratch):
    """The protocol's determinization (policies.determinize): ``base`` (``STATE_SIZE``) becomes a world
    consistent with what ``me`` knows, drawn from ``me``'s decision stream: the action cards ``me`` has
    not seen (neither in its hand nor discarded), in canonical order and shuffled, dealt to the other
    seats (each as many as it holds, in seat order) and the rest as the draw pile (the slots past it
    cleared); then the dragons still to come, in canonical order and shuffled."""
    ip = params
    n = ip[P_PLAYERS]
    k = 1 + me
    pool = scratch[W_POOL:W_POOL + MAX_DECK]
    dragons = scratch[W_DRAG:W_DRAG + N_DRAGONS]
    head = st[S_DRAGON_HEAD]
    m = 0  # the unseen cards, canonical order, shuffled
    for c in range(N_CARDS):
        for _ in range(ip[P_DECK + c] - st[S_HAND + N_CARDS * me + c] - st[S_DISCARD + c]):
            pool[m] = c
            m += 1
    rng.shuffle(pool, 0, m, rs, k)
    nd = 0  # the dragons to come, canonical order, shuffled
    for d in range(N_DRAGONS):
        for i in range(head, N_DRAGONS):
            if st[S_DRAGONS + i] == d:
                dragons[nd] = d
                nd += 1
    rng.shuffle(dragons, 0, nd, rs, k)
    for i in range(STATE_SIZE):
        base[i] = st[i]
    base[S_DECK_N] = deal_unseen(st, base, pool, m, me, n, S_HAND, N_CARDS, S_DECK, MAX_DECK)
    base[S_DECK_HEAD] = 0
    for i in range(nd):
        base[S_DRAGONS + head + i] = dragons[i]


@njit_no_nrt
def rollout_value(params, world, rs, me, cands, i, scratch):
    """The lookahead's value of the fjord ``cands[i]`` in the determinized ``world``: chosen (DP-3), then
    the raid played to its scoring with greedy seats (:func:`greedy_option`), as ``me``'s VP minus the
    best other seat's.  The rollout's streams (``rs``'s second set) start from ``me``'s decision stream as
    it stands after the determinization, the same for every fjord."""
    ip = params
    n = ip[P_PLAYERS]
    rs2 = rs[N_STREAMS:]
    chance = rs[1 + me]
    rs2[0] = chance
    for p in range(n):
        rs2[1 + p] = rng.mix64_nb(chance + np.uint64(1 + p))
    world[S_ROLLOUT] = 1
    world[S_CHECK] = 0
    apply_called(ip, world, rs2, cands[i])  # DP-3, then the raid to its scoring with greedy seats
    while True:
        seat = advance_called(ip, world, rs2)
        if seat < 0:
            break
        apply_called(ip, world, rs2, greedy_option(ip, world, rs2, seat, scratch))
    return evaluate(ip, world, me)


pimc = make_lookahead(determinize, rollout_value, STATE_SIZE, random_ties=True)


@njit_no_nrt
def lookahead_fjord(ip, st, rs, me, legal, samples, scratch):
    """policies.lookahead_fjord: the index, among the legal fjords, of the best rollout total
    (``toolkit.core.lookahead``: :func:`determinize`, :func:`rollout_value`, ties at random)."""
    cands = scratch[W_CANDS:W_CANDS + 4]
    nc = 0
    for f in range(4):
        if (legal >> f) & 1 == 1:
            cands[nc] = f
            nc += 1
    return pimc(ip, st, rs, me, cands, nc, samples, scratch[W_BASE:W_BASE + STATE_SIZE],
                scratch[W_WORLD:W_WORLD + STATE_SIZE], scratch[W_TOTALS:W_TOTALS + 4], scratch)
