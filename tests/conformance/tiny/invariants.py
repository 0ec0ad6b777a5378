"""Tiny's §7 invariants, checked in the kernel after every option when a run asks (``check=True``):
:func:`check_step` after each applied option, :func:`check_end` at the end; each returns the number of the
invariant broken, 0 when all hold.

Over ``layout.py`` only; ``kernel.py`` imports this module.
"""

from __future__ import annotations

from toolkit.core.jit import njit

from tiny.layout import (
    P_MARGIN, P_ROUNDS, P_TRACK, S_BAD_ROLL, S_CAPTURES, S_OVER, S_PLIES, S_ROLL, S_SEAT, S_SQUARE, S_TURNS,
    S_WINNER,
)


@njit
def check_step(params, before, st, option):
    """§7.1 (the mover went forward by the option, one of ``0..min(roll, track - square)``, 0 not on the
    start), §7.2 (the other
    pawn stayed, or went back to the start by a capture the captures count) and §7.3."""
    if st[S_BAD_ROLL]:
        return 3
    seat = before[S_SEAT]
    other = 1 - seat
    here = before[S_SQUARE + seat]
    least = 1 if here == 0 else 0
    if option < least or option > min(before[S_ROLL], params[P_TRACK] - here) or st[S_SQUARE + seat] != here + option:
        return 1
    captured = st[S_CAPTURES + seat] - before[S_CAPTURES + seat]
    them = before[S_SQUARE + other]
    passed = 0 < them < params[P_TRACK] and here < them <= here + option
    if captured != (1 if passed else 0) or st[S_SQUARE + other] != (0 if passed else them):
        return 2
    return 0


@njit
def check_end(params, st):
    """§7.3 and §7.4 (the winner home or ahead by more than the margin, a draw within it; at most
    ``2 * rounds`` turns, one decision each)."""
    if st[S_BAD_ROLL]:
        return 3
    w = st[S_WINNER]
    lead = st[S_SQUARE] - st[S_SQUARE + 1]
    home = st[S_SQUARE] >= params[P_TRACK] or st[S_SQUARE + 1] >= params[P_TRACK]
    if not st[S_OVER] or st[S_TURNS] > 2 * params[P_ROUNDS] or st[S_PLIES] != st[S_TURNS]:
        return 4
    if w >= 0:
        mine = lead if w == 0 else -lead
        if not (st[S_SQUARE + w] >= params[P_TRACK] or mine > params[P_MARGIN]):
            return 4
    elif home or abs(lead) > params[P_MARGIN]:
        return 4
    return 0
