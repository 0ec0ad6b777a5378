"""Walhalla's §7 invariants (spec ``docs/rules/walhalla.md``), checked by the kernel's game itself.

With ``check=True`` the §7 invariants are tested after setup, after every turn and every raid
(:func:`check_between_turns`), at every landing (7.2, ``kernel.occupy``) and inside the preparation
(7.6-7.8, ``raid_end.preparation`` and ``raid_end.heroes``); ``play_game`` returns the first violated
invariant's number (``kernel.INV_*``).  The game runs these checks itself once ``st[S_CHECK]`` is set,
which :func:`check_step` does at its first call (the driver calls it only with ``check``), running the
set-up's checks then.  §7.7's "every count dropped by the same m" is true by
construction of ``raid_end.heroes``; the check tests the minimum.  The checks inside the steps stay
beside the steps they check and record through ``kernel.violation``.  This module reads the kernel's
layouts; ``kernel.py`` imports it at its end.
"""

from __future__ import annotations

from toolkit.core.jit import njit, njit_no_nrt
from toolkit.games.walhalla.kernel import (
    INV_CARDS, INV_FIELDS, INV_FJORDS, INV_LENGTHS, INV_VIKINGS, INV_VP, MAX_FIELDS, MAX_RAIDS, N_CARDS, N_DRAGONS,
    N_TILES, P_DECK, P_DRAW18, P_PLAYERS, P_VIKINGS, S_ASGARD, S_CHECK, S_DECK_N, S_DISCARD, S_HAND, S_LEN, S_MIDGARD,
    S_MOORED, S_OCC, S_PREV_VP, S_TURNS_RAID, S_VIOLATION, S_VP, S_WALHALLA, field_count, violation)
from toolkit.games.walhalla.raid_end import fields_of


@njit_no_nrt
def check_between_turns(ip, st):
    """§7.1, 7.3, 7.4, 7.5 between two turns (nothing aboard, no card in play); returns a code or 0."""
    n = ip[P_PLAYERS]
    for p in range(n):  # §7.1 Vikings
        total = st[S_MIDGARD + p] + st[S_ASGARD + p] + st[S_WALHALLA + p] + fields_of(st, p)
        if total != ip[P_VIKINGS] or min(st[S_MIDGARD + p], st[S_ASGARD + p], st[S_WALHALLA + p]) < 0:
            return INV_VIKINGS
    for k in range(3):  # §7.2 no colour outside the game on a field
        for j in range(MAX_FIELDS):
            o = st[S_OCC + MAX_FIELDS * k + j]
            if o >= n or o < -1 or (o >= 0 and j >= field_count(st, k)):
                return INV_FIELDS
    for f in range(4):  # §7.3 fjord capacity and turns per raid
        reach = 0
        for k in (f - 1, f):
            if 0 <= k <= 2:
                reach = max(reach, field_count(st, k))
        if st[S_MOORED + f] > (reach + 2) // 3:
            return INV_FJORDS
    for r in range(MAX_RAIDS):
        if st[S_TURNS_RAID + r] > N_DRAGONS:
            return INV_FJORDS
    cards = st[S_DECK_N]  # §7.4 cards
    total = 0
    for c in range(N_CARDS):
        cards += st[S_DISCARD + c]
        total += ip[P_DECK + c]
        for p in range(n):
            cards += st[S_HAND + N_CARDS * p + c]
            if st[S_HAND + N_CARDS * p + c] < 0:
                return INV_CARDS
    if cards != total:
        return INV_CARDS
    for p in range(n):  # §7.5 VP never decreases
        if st[S_VP + p] < st[S_PREV_VP + p]:
            return INV_VP
        st[S_PREV_VP + p] = st[S_VP + p]
    return 0


@njit_no_nrt
def check_lengths(st, draw18):
    """§7.9: lengths in 5..8, summing to <= 18 (exactly 18 under draw_18)."""
    total = 0
    for k in range(3):
        if not 5 <= st[S_LEN + k] <= 8:
            return INV_LENGTHS
        total += st[S_LEN + k]
    if total > N_TILES or (draw18 == 1 and total != N_TILES):
        return INV_LENGTHS
    return 0


@njit
def check_step(params, before, st, option):
    """§7 after a step.  The game checks itself (§7.1-7.5 between turns and after each raid, 7.2 at each
    landing, 7.6-7.8 in the preparation) once ``S_CHECK`` is set: the first call sets it and runs the
    set-up's checks (7.9, and 7.1-7.5 on ``before``, the state at the first decision point, where
    nothing has happened since the set-up but the first dragon's draw).  Returns the first violation."""
    if st[S_CHECK] == 0:
        st[S_CHECK] = 1
        violation(st, check_lengths(st, params[P_DRAW18]))
        violation(st, check_between_turns(params, before))
    return st[S_VIOLATION]


@njit
def check_end(params, st):
    """§7.3 at the end (the first raid's turns), then the first violation of the game (0: none)."""
    if st[S_TURNS_RAID] > N_DRAGONS:
        violation(st, INV_FJORDS)
    return st[S_VIOLATION]
