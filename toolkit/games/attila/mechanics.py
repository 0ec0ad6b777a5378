"""Attila's mechanics in Numba: the rules the kernel's steps apply; part of the state machine of ``kernel.py``.

The deck and the draw (A-1, A-3), where a figure may go (A-2) and its placing, the tiles (A-6), a war
after its support (A-4), a scoring (A-5; :func:`tribe_gain` is also what ``greedy`` reads) and the end of
a turn (A-3, A-7): the functions ``kernel._run`` and ``kernel.apply`` call, and the rollouts' turns of
``heuristics.py`` too.  §7.8's bound stays beside the scoring that tests it (``bad_scoring``).  This
module reads the kernel's layouts; ``kernel.py`` imports it at its end.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.bits import lowest_bit_index, popcount
from toolkit.core.cards import deck_from_counts, draw_into, split_evenly
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.games.attila.kernel import (  # the layouts (kernel.py imports this module at its end)
    N_TRIBES, P_ADJ, P_END_ON_MAX, P_FIGURES, P_FINISH_ROUND, P_GAP, P_HAND, P_MAX_TURNS, P_PLAYERS, P_ROUND_UP,
    P_SINGLE_REMOVES, P_SKIP_REFILL, P_START_MASK, P_SUPPORT_ANY, P_THRESHOLD, P_TIE_REMOVES, P_TRACK_MAX,
    S_BAD_SCORING, S_CENTURY_END, S_DECK, S_DECK_HEAD, S_DECK_N, S_DISCARD, S_END_REASON, S_END_TRIGGERED, S_FIG,
    S_HAND, S_INF, S_OVER, S_PACIFIED, S_PEACE, S_PENDING, S_PENDING_N, S_PLACED, S_PRESENCE, S_REMOVED, S_SCORINGS,
    S_START, S_SUPPLY, S_TILES, S_TILES_USED, S_TOTAL, S_TOTAL_MASK, S_TRIGGERED, S_TURNS, S_VP, S_WARS, TILE_DOUBLE,
    TILE_EXCHANGE, TILE_PLUS_TWO,
)


# ------------------------------------------------------------------------ cards (A-1's deck, the draw)


@njit_inline
def shuffle_into_deck(ip, st, rs, counts_base):
    """Build the deck in canonical order from counts at ``st[counts_base + t]`` and shuffle it."""
    st[S_DECK_N] = deck_from_counts(st, S_DECK, counts_base, N_TRIBES, rs)
    st[S_DECK_HEAD] = 0


@njit_inline
def draw(ip, st, rs, seat):
    """A-3.5: the deck's top card into the seat's hand, the discards shuffled into a new deck when it is
    empty (``core.cards.draw_into``); False with both empty."""
    return draw_into(st, rs, S_DECK, S_DECK_HEAD, S_DECK_N, S_DISCARD, S_HAND + N_TRIBES * seat, N_TRIBES)


@njit_inline
def hand_total(st, seat):
    total = 0
    for t in range(N_TRIBES):
        total += st[S_HAND + N_TRIBES * seat + t]
    return total


# ------------------------------------------------------------------------ A-2 placement


@njit_inline
def legal_mask(ip, st, t):
    """The provinces where a figure of ``t`` may go (A-2), as bits."""
    if st[S_SUPPLY + t] <= 0:
        return np.int64(0)
    presence = st[S_PRESENCE + t]
    reach = ip[P_START_MASK] | presence
    bits = presence
    while bits != 0:
        y = lowest_bit_index(bits)
        bits &= bits - 1
        reach |= ip[P_ADJ + y]
    return reach & ~st[S_PACIFIED] & ~st[S_TOTAL_MASK]


@njit_inline
def century(st):
    for c in range(4):
        if st[S_PEACE + c] > 0:
            return c
    return 3


@njit_inline
def gain_influence(ip, st, seat, t, amount):
    k = S_INF + N_TRIBES * seat + t
    st[k] = min(ip[P_TRACK_MAX], st[k] + amount)
    if ip[P_END_ON_MAX] == 1 and st[k] >= ip[P_TRACK_MAX]:
        st[S_END_TRIGGERED] = 1


@njit_inline
def place(ip, st, seat, t, x):
    st[S_FIG + N_TRIBES * x + t] += 1
    st[S_TOTAL + x] += 1
    st[S_PRESENCE + t] |= np.int64(1) << x
    st[S_SUPPLY + t] -= 1
    st[S_PLACED + seat] += 1
    if st[S_TOTAL + x] >= ip[P_THRESHOLD]:
        st[S_TOTAL_MASK] |= np.int64(1) << x
    if st[S_TOTAL + x] == ip[P_THRESHOLD]:
        st[S_PENDING + st[S_PENDING_N]] = x
        st[S_PENDING_N] += 1


# ------------------------------------------------------------------------ A-5 scoring


@njit_inline
def share(ip, total, k):
    return split_evenly(total, k, ip[P_ROUND_UP] == 1)


@njit_no_nrt
def scoring(ip, st):
    """A-5: every player gains what :func:`gain_for` says (it reads only tracks and the board).  §7.8
    on the way: a tribe awarding more than its bound (:func:`scoring_bound`) sets ``bad_scoring``."""
    for t in range(N_TRIBES):
        total = 0
        for p in range(ip[P_PLAYERS]):
            g = tribe_gain(ip, st, p, t)
            st[S_VP + p] += g
            total += g
        if total > scoring_bound(ip, st, t):
            st[S_BAD_SCORING] = 1
    st[S_SCORINGS] += 1


@njit_inline
def scoring_bound(ip, st, t):
    """§7.8: tribe ``t`` awards at most N_fig + N_prov (+ k - 1 rounding up, k = players for the largest
    possible tied group)."""
    bound = ip[P_FIGURES] - st[S_SUPPLY + t] + popcount(st[S_PRESENCE + t])
    if ip[P_ROUND_UP] == 1:
        bound += ip[P_PLAYERS] - 1
    return bound


@njit_no_nrt
def tribe_gain(ip, st, me, t):
    """A-5 for tribe ``t``: what ``me`` gets from it in a scoring now."""
    n = ip[P_PLAYERS]
    n_fig = ip[P_FIGURES] - st[S_SUPPLY + t]
    n_prov = popcount(st[S_PRESENCE + t])
    top = 0
    n_top = 0
    for p in range(n):
        v = st[S_INF + N_TRIBES * p + t]
        if v > top:
            top, n_top = v, 1
        elif v == top and v > 0:
            n_top += 1
    if top == 0:
        return 0
    mine = st[S_INF + N_TRIBES * me + t]
    if n_top >= 2:
        return share(ip, n_fig + n_prov, n_top) if mine == top else 0
    if mine == top:
        return n_fig
    second = 0
    n_second = 0
    for p in range(n):
        v = st[S_INF + N_TRIBES * p + t]
        if v == top:
            continue
        if v > second:
            second, n_second = v, 1
        elif v == second and v > 0:
            n_second += 1
    if second == 0 or mine != second:
        return 0
    if n == 2 and ip[P_GAP] >= 0 and top - second > ip[P_GAP]:
        return 0
    return share(ip, n_prov, n_second)


# ------------------------------------------------------------------------ the turn


@njit_inline
def n_vectors(limits, skip_zero):
    """The number of count vectors ``0 <= k_t <= limits[t]`` (less the all-zero one if ``skip_zero``)."""
    total = 1
    for t in range(N_TRIBES):
        total *= limits[t] + 1
    return total - 1 if skip_zero else total


@njit_inline
def usable_tiles(st, seat):
    """DP-1's tiles as bits: Double turn and +2 if unused, Exchange if unused and the hand is not empty."""
    tiles = st[S_TILES + seat]
    usable = tiles & (TILE_DOUBLE | TILE_PLUS_TWO)
    if tiles & TILE_EXCHANGE and hand_total(st, seat) > 0:
        usable |= TILE_EXCHANGE
    return usable


@njit_inline
def use_tile(st, seat, tile):
    """DP-1's choice of ``tile`` (a bit): it is used, in this turn."""
    st[S_TILES + seat] &= ~tile
    st[S_TILES_USED + 3 * seat + lowest_bit_index(tile)] = st[S_TURNS] + 1


@njit_inline
def apply_split(ip, st, seat, j):
    """DP-2's option ``j``: +2 on tribe j (j < 6), else the (j - 6)-th pair t < u, +1 on each."""
    if j < 6:
        gain_influence(ip, st, seat, j, 2)
    else:
        j -= 6
        for a in range(N_TRIBES):
            if j < 5 - a:
                gain_influence(ip, st, seat, a, 1)
                gain_influence(ip, st, seat, a + 1 + j, 1)
                break
            j -= 5 - a


@njit_inline
def distinct_tribes(st, seat):
    """DP-5's number of options: the distinct tribes in the seat's hand."""
    distinct = 0
    for t in range(N_TRIBES):
        if st[S_HAND + N_TRIBES * seat + t] > 0:
            distinct += 1
    return distinct


@njit_inline
def nth_tribe_in_hand(st, seat, i):
    """DP-5's option ``i``: the ``i``-th tribe in the seat's hand, ascending."""
    for t in range(N_TRIBES):
        if st[S_HAND + N_TRIBES * seat + t] > 0:
            if i == 0:
                return t
            i -= 1
    return -1


@njit_inline
def play_card(ip, st, seat, t, x):
    """A-3.2 after the DP-4 choice (t, x): the card to the discard pile and its figure into x."""
    st[S_HAND + N_TRIBES * seat + t] -= 1
    st[S_DISCARD + t] += 1
    place(ip, st, seat, t, x)


@njit_inline
def support_limits(ip, st, seat, x, limits):
    """DP-7: the seat's layable cards per tribe into ``limits``; returns their number."""
    any_card = 0
    for t in range(N_TRIBES):
        layable = ip[P_SUPPORT_ANY] == 1 or st[S_FIG + N_TRIBES * x + t] > 0
        limits[t] = st[S_HAND + N_TRIBES * seat + t] if layable else 0
        any_card += limits[t]
    return any_card


@njit_no_nrt
def resolve_war(ip, st, x, strength_laid):
    """A-4 after the support (``strength_laid``: the cards laid per tribe): the weakest removed, the
    peace tile, the cards discarded; returns 1 if the century's stack ran out (and it was scored)."""
    weakest = -1
    involved = 0
    for t in range(N_TRIBES):
        f = st[S_FIG + N_TRIBES * x + t]
        if f > 0:
            involved += 1
            s = f + strength_laid[t]
            if weakest < 0 or s < weakest:
                weakest = s
    losers = 0
    for t in range(N_TRIBES):
        f = st[S_FIG + N_TRIBES * x + t]
        if f > 0 and f + strength_laid[t] == weakest:
            losers += 1
    remove = True
    if involved == 1 and ip[P_SINGLE_REMOVES] == 0:
        remove = False
    if losers >= 2 and ip[P_TIE_REMOVES] == 0:
        remove = False
    if remove:
        for t in range(N_TRIBES):
            f = st[S_FIG + N_TRIBES * x + t]
            if f > 0 and f + strength_laid[t] == weakest:
                st[S_SUPPLY + t] += f
                st[S_REMOVED] += f
                st[S_TOTAL + x] -= f
                st[S_FIG + N_TRIBES * x + t] = 0
                st[S_PRESENCE + t] &= ~(np.int64(1) << x)
    c = century(st)
    st[S_PEACE + c] -= 1
    st[S_PACIFIED] |= np.int64(1) << x
    for t in range(N_TRIBES):
        st[S_DISCARD + t] += strength_laid[t]
    st[S_WARS] += 1
    if st[S_PEACE + c] == 0:
        st[S_CENTURY_END + c] = st[S_TURNS] + 1
        if peace_left(st) == 0 and ip[P_FINISH_ROUND] == 1:
            return 0  # the last century is scored at the end of the round (end_of_turn)
        scoring(ip, st)
        if peace_left(st) == 0:
            st[S_OVER] = 1
            st[S_END_REASON] = 0
        return 1
    return 0


@njit_inline
def peace_left(st):
    left = 0
    for k in range(4):
        left += st[S_PEACE + k]
    return left


@njit_inline
def any_placement_possible(ip, st):
    for t in range(N_TRIBES):
        if legal_mask(ip, st, t) != 0:
            return True
    return False


@njit_inline
def end_of_turn(ip, st, rs, seat, scored):
    """A-3 after the wars (``scored``: one of them ended a century): a track-end scoring, the refill
    (unless ``triggered`` and the rules skip it), the turn count, the stall and the cap.  With
    ``finish_round``, the end (the track's, or the last peace tile's with its scoring) waits for the
    last turn of the round, the turn of the seat before the start player."""
    if ip[P_FINISH_ROUND] == 1:
        out = peace_left(st) == 0
        if (out or st[S_END_TRIGGERED] == 1) and st[S_OVER] == 0 and (seat + 1) % ip[P_PLAYERS] == st[S_START]:
            if out or scored == 0:
                scoring(ip, st)
            st[S_OVER] = 1
            st[S_END_REASON] = 0 if out else 1
    elif st[S_END_TRIGGERED] == 1 and st[S_OVER] == 0:
        if scored == 0:
            scoring(ip, st)
        st[S_OVER] = 1
        st[S_END_REASON] = 1
    if not (ip[P_SKIP_REFILL] == 1 and st[S_TRIGGERED] == 1):
        while hand_total(st, seat) < ip[P_HAND]:
            if not draw(ip, st, rs, seat):
                break
    st[S_TURNS] += 1
    if st[S_OVER] == 0 and not any_placement_possible(ip, st):
        scoring(ip, st)
        st[S_OVER] = 1
        st[S_END_REASON] = 2
    if st[S_OVER] == 0 and st[S_TURNS] >= ip[P_MAX_TURNS]:
        st[S_OVER] = 1
        st[S_END_REASON] = 3
