"""Herrlof's §7 invariants, checked in the kernel when a run asks (``check=True``): :func:`check_step` at each
round's end (:func:`check_round`), :func:`check_end` at the game's; each returns a violation code (0 when
every invariant holds).  It imports the layouts (``layout.py``), the cards and tricks (``tricks.py``) and
R-5's points (``mechanics.py``); ``kernel.py`` imports it.
"""

from __future__ import annotations

from toolkit.core.jit import njit, njit_inline, njit_no_nrt
from toolkit.games.herrlof.layout import (
    DP_CARD, INV_BOUNDS, INV_CARDS, INV_FOLLOW, INV_HAND_SIZES, INV_ROUNDS, INV_ROUND_POINTS, INV_SCORES, INV_STOCK,
    INV_TRICKS, INV_TRUMP, MAX_FACES, MAX_TRICKS, PH_FOLLOW, PH_LEAD, PH_ROUND_END, P_DECK, P_HAND, P_MAX_ROUNDS, P_NN,
    P_NV, P_POINTS_HI, P_POINTS_LO, P_SCORES_MONOTONE, P_SUITED, S_BID, S_COUNTS, S_DESTROYED, S_DESTROYED_AT_START,
    S_DISC, S_DKIND, S_DSEAT, S_HN, S_IND, S_LEAD, S_PHASE, S_ROUND, S_STOCK, S_STOCK_HEAD, S_STOCK_LAST, S_STOCK_TAIL,
    S_TRICKS_PLAYED, S_TRUMP, S_WON, S_WON_N,
)
from toolkit.games.herrlof.mechanics import round_points
from toolkit.games.herrlof.tricks import hand_count, legal_mask


@njit_inline
def check_cards(ip, st, counts):
    """§7.1: hands + stock + indicator + trick + discard + won tricks hold the deck exactly."""
    v = ip[P_SUITED]
    for f in range(v + 2):
        counts[f] = st[S_DISC + f] + hand_count(ip, st, 0, f) + hand_count(ip, st, 1, f)
    counts[st[S_IND]] += 1
    for i in range(st[S_STOCK_HEAD], st[S_STOCK_TAIL]):
        counts[st[S_STOCK + i]] += 1
    if st[S_PHASE] == PH_FOLLOW:
        counts[st[S_LEAD]] += 1
    for seat in range(2):
        for j in range(st[S_WON_N + seat]):
            counts[st[S_WON + (seat * MAX_TRICKS + j) * 2]] += 1
            counts[st[S_WON + (seat * MAX_TRICKS + j) * 2 + 1]] += 1
    total = 0
    for f in range(v + 2):
        want = 1 if f < v else (ip[P_NV] if f == v else ip[P_NN])
        if counts[f] != want:
            return False
        total += counts[f]
    return total == ip[P_DECK]


@njit_no_nrt
def check_state(ip, st, counts, follow_ok):
    """Between two decisions (after the automatic steps): §7.1, §7.8 (``follow_ok``: the last card played
    was legal), §7.2, §7.7 and §7.9; it writes the stock's size for the next call.  0 when all hold."""
    if not check_cards(ip, st, counts):
        return INV_CARDS
    if not follow_ok:
        return INV_FOLLOW
    phase = st[S_PHASE]
    if phase == PH_LEAD or phase == PH_ROUND_END:  # after the k-th trick and its effects
        left = ip[P_HAND] - st[S_TRICKS_PLAYED]
        if st[S_HN] != left or st[S_HN + 1] != left:
            return INV_HAND_SIZES
    if (st[S_TRUMP] < 0) != (st[S_IND] >= ip[P_SUITED]):
        return INV_TRUMP
    size = st[S_STOCK_TAIL] - st[S_STOCK_HEAD]
    if size > st[S_STOCK_LAST]:
        return INV_STOCK
    st[S_STOCK_LAST] = size
    return 0


@njit_inline
def check_round(ip, st):
    """§7.3-7.6 and the bounds (INV_BOUNDS) at a round's end, before it is scored."""
    h = ip[P_HAND]
    for seat in range(2):
        won = st[S_WON_N + seat]
        bid = st[S_BID + seat]
        pts = round_points(ip, won, bid)
        if not (ip[P_POINTS_LO] <= pts <= ip[P_POINTS_HI]):
            return INV_ROUND_POINTS
        if pts < 0 and ip[P_SCORES_MONOTONE] == 1:
            return INV_SCORES
        if bid < 0 or bid > h or won > h:
            return INV_BOUNDS
    if st[S_WON_N] + st[S_WON_N + 1] + st[S_DESTROYED] - st[S_DESTROYED_AT_START] != h:
        return INV_TRICKS
    if st[S_ROUND] > ip[P_MAX_ROUNDS]:
        return INV_ROUNDS
    return 0


@njit
def check_step(params, before, st, option):
    """§7 after a decision and the automatic steps after it (``before``: the state at the decision):
    :func:`check_state`, with §7.8 for a card played, and at a round's end :func:`check_round`."""
    ip = params
    follow_ok = True
    if before[S_DKIND] == DP_CARD:
        follow_ok = (legal_mask(ip, before, before[S_DSEAT]) >> option) & 1 == 1
    violation = check_state(ip, st, st[S_COUNTS:S_COUNTS + MAX_FACES], follow_ok)
    if violation == 0 and st[S_PHASE] == PH_ROUND_END:
        violation = check_round(ip, st)
    return violation


@njit
def check_end(params, st):
    """Nothing left to check: every round's end was checked by :func:`check_step`."""
    return 0
