"""Attila's §7 invariants, checked in the kernel when a run asks (``check=True``): :func:`check_step` after each
applied option (:func:`check_turn`, :func:`check_monotone`), :func:`check_end` at the game's end; each returns a
violation code (0 when every invariant holds).  It imports the layouts (``layout.py``) and the rules'
helpers (``mechanics.py``); ``kernel.py`` imports it.

``check=True``: :func:`check_step` sees each step whole (the state at the
decision point and after the option and its automatic steps): §7.9 for a
DP-4 placement, §7.8 (tested in ``mechanics.scoring`` itself, which sets
``bad_scoring``), all of :func:`check_turn` (§7.1-7.7, 7.10 and the state's
own bit sets, code 11) when a turn ended in the step, compared with the state
at the step's decision point, else the comparisons of §7.3, 7.5 and 7.7
(:func:`check_monotone`); :func:`check_end` checks the final state.  A step
holds more than one turn end only when a turn offers no decision at all (an
empty hand with no tile to use): then only the last turn end of the step is
checked whole.  §7.8's bound with ``tie_rounding = up`` uses k - 1 = players
- 1, the largest tied group.  The first violated invariant's number is the
game's code (0 = none).
"""

from __future__ import annotations

import numpy as np

from toolkit.core.bits import lowest_bit_index, popcount
from toolkit.core.jit import njit, njit_no_nrt
from toolkit.games.attila.layout import (
    DP_PLAY, INV_BOOKKEEPING, INV_CARDS, INV_FIGURES, INV_HANDS, INV_PEACE, INV_PLACEMENT, INV_PROVINCE_CAP,
    INV_SCORING, INV_SCORINGS, INV_TILES, INV_TRACKS, N_TRIBES, PAIR_SHIFT, P_CARDS, P_FIGURES, P_FINISH_ROUND, P_HAND,
    P_PEACE, P_PLAYERS, P_PROVINCES, P_SKIP_REFILL, P_THRESHOLD, P_TRACK_MAX, S_BAD_SCORING, S_DECK_HEAD, S_DECK_N,
    S_DISCARD, S_FIG, S_HAND, S_INF, S_LAST_ACTIVE, S_OVER, S_PACIFIED, S_PEACE, S_PHASE, S_PRESENCE, S_SCORINGS,
    S_SEAT, S_SUPPLY, S_TILES, S_TILES_USED, S_TOTAL, S_TOTAL_MASK, S_TRIGGERED, S_TURNS, S_VP, S_WARS,
)
from toolkit.games.attila.mechanics import hand_total, legal_mask, peace_left


@njit_no_nrt
def check_turn(ip, st, prev, active):
    """§7 at the end of a turn (``prev``: the state at the end of the previous one).  Returns
    the first code found, 0 if none."""
    n = ip[P_PLAYERS]
    # §7.1 figures; and the bookkeeping: totals, presence bits, the full-province mask
    for t in range(N_TRIBES):
        on_board = 0
        presence = 0
        for x in range(ip[P_PROVINCES]):
            f = st[S_FIG + N_TRIBES * x + t]
            on_board += f
            if f > 0:
                presence |= np.int64(1) << x
        if on_board + st[S_SUPPLY + t] != ip[P_FIGURES] or st[S_SUPPLY + t] < 0:
            return INV_FIGURES
        if presence != st[S_PRESENCE + t]:
            return INV_BOOKKEEPING
    full = 0
    for x in range(ip[P_PROVINCES]):
        total = 0
        for t in range(N_TRIBES):
            total += st[S_FIG + N_TRIBES * x + t]
            if st[S_FIG + N_TRIBES * x + t] < 0:
                return INV_FIGURES
        if total != st[S_TOTAL + x]:
            return INV_BOOKKEEPING
        if total >= ip[P_THRESHOLD]:
            full |= np.int64(1) << x
    if (full ^ st[S_TOTAL_MASK]) & ~st[S_PACIFIED] != 0:  # after a war the mask keeps the bit
        return INV_BOOKKEEPING
    # §7.2 cards (no war is unresolved at the end of a turn)
    cards = st[S_DECK_N]
    for t in range(N_TRIBES):
        if st[S_DISCARD + t] < 0:
            return INV_CARDS
        cards += st[S_DISCARD + t]
        for p in range(n):
            if st[S_HAND + N_TRIBES * p + t] < 0:
                return INV_CARDS
            cards += st[S_HAND + N_TRIBES * p + t]
    if cards != N_TRIBES * ip[P_CARDS] or st[S_DECK_HEAD] + st[S_DECK_N] > N_TRIBES * ip[P_CARDS]:
        return INV_CARDS
    # §7.3 full provinces are at war (or dropped at the end); pacified provinces never gain
    for x in range(ip[P_PROVINCES]):
        bit = np.int64(1) << x
        if st[S_PACIFIED] & bit == 0:
            # (with finish_round, a war dropped for want of a peace tile leaves its province full)
            if st[S_OVER] == 0 and st[S_TOTAL + x] >= ip[P_THRESHOLD] and (
                    ip[P_FINISH_ROUND] == 0 or peace_left(st) > 0):
                return INV_PROVINCE_CAP
        elif prev[S_PACIFIED] & bit != 0:
            for t in range(N_TRIBES):
                if st[S_FIG + N_TRIBES * x + t] > prev[S_FIG + N_TRIBES * x + t]:
                    return INV_PROVINCE_CAP
    # §7.4 pacified provinces = wars = peace tiles used
    tiles_left = 0
    tiles_all = 0
    for c in range(4):
        tiles_left += st[S_PEACE + c]
        tiles_all += ip[P_PEACE + c]
        if st[S_PEACE + c] < 0:
            return INV_PEACE
    if popcount(st[S_PACIFIED]) != st[S_WARS] or st[S_WARS] != tiles_all - tiles_left:
        return INV_PEACE
    # §7.5 tracks within 0..max and never decreasing; VP never decreasing
    for p in range(n):
        if st[S_VP + p] < prev[S_VP + p]:
            return INV_TRACKS
        for t in range(N_TRIBES):
            v = st[S_INF + N_TRIBES * p + t]
            if v < prev[S_INF + N_TRIBES * p + t] or v < 0 or v > ip[P_TRACK_MAX]:
                return INV_TRACKS
    # §7.6 hands
    for p in range(n):
        if hand_total(st, p) > ip[P_HAND]:
            return INV_HANDS
    exhausted = st[S_DECK_N] == 0
    for t in range(N_TRIBES):
        if st[S_DISCARD + t] > 0:
            exhausted = False
    skipped = ip[P_SKIP_REFILL] == 1 and st[S_TRIGGERED] == 1
    if hand_total(st, active) != ip[P_HAND] and not exhausted and not skipped:
        return INV_HANDS
    # §7.7 each tile at most once: unused <=> no turn recorded, and a recorded turn never changes
    for p in range(n):
        for k in range(3):
            used = st[S_TILES_USED + 3 * p + k]
            if (st[S_TILES + p] >> k) & 1 == (1 if used > 0 else 0):
                return INV_TILES
            if prev[S_TILES_USED + 3 * p + k] > 0 and used != prev[S_TILES_USED + 3 * p + k]:
                return INV_TILES
    # §7.10
    if st[S_SCORINGS] > 4:
        return INV_SCORINGS
    return 0


@njit_no_nrt
def check_monotone(ip, st, prev):
    """The parts of :func:`check_turn` that compare with an earlier state, for any two states of a game
    (``prev`` the earlier): §7.3 pacified provinces never gain, §7.5 tracks and VP never fall, §7.7 a
    tile's recorded turn never changes.  Returns the first code found, 0 if none."""
    n = ip[P_PLAYERS]
    both = st[S_PACIFIED] & prev[S_PACIFIED]
    while both != 0:
        x = lowest_bit_index(both)
        both &= both - 1
        for t in range(N_TRIBES):
            if st[S_FIG + N_TRIBES * x + t] > prev[S_FIG + N_TRIBES * x + t]:
                return INV_PROVINCE_CAP
    for p in range(n):
        if st[S_VP + p] < prev[S_VP + p]:
            return INV_TRACKS
        for t in range(N_TRIBES):
            if st[S_INF + N_TRIBES * p + t] < prev[S_INF + N_TRIBES * p + t]:
                return INV_TRACKS
    for p in range(n):
        for k in range(3):
            if prev[S_TILES_USED + 3 * p + k] > 0 and st[S_TILES_USED + 3 * p + k] != prev[S_TILES_USED + 3 * p + k]:
                return INV_TILES
    return 0


@njit
def check_step(params, before, st, option):
    """§7 over one step (``before``: the state at the decision point, ``st`` after ``option`` and the
    automatic steps up to the next one): §7.9 a DP-4 placement, §7.8 the step's scorings, and §7.3,
    7.5 and 7.7's comparisons with ``before``; when a turn ended in the step, all of :func:`check_turn`."""
    ip = params
    if before[S_PHASE] == DP_PLAY:
        t = option >> PAIR_SHIFT
        x = option & ((1 << PAIR_SHIFT) - 1)
        if before[S_HAND + N_TRIBES * before[S_SEAT] + t] == 0 or (legal_mask(ip, before, t) >> x) & 1 == 0:
            return INV_PLACEMENT
    if st[S_BAD_SCORING] != 0:
        return INV_SCORING
    if st[S_TURNS] != before[S_TURNS]:
        return check_turn(ip, st, before, st[S_LAST_ACTIVE])
    return check_monotone(ip, st, before)


@njit
def check_end(params, st):
    """§7 on the final state (every step was checked by :func:`check_step`)."""
    if st[S_BAD_SCORING] != 0:
        return INV_SCORING
    return check_turn(params, st, st, st[S_LAST_ACTIVE])
