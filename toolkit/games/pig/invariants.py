"""Pig's §7 invariants, checked in the kernel after every option when a run asks (``check=True``):
:func:`check_step` after each applied option, :func:`check_end` at the end; each returns the number of
the invariant broken, 0 when all hold.

Over ``layout.py`` only; ``kernel.py`` imports this module.
"""

from __future__ import annotations

from toolkit.core.jit import njit
from toolkit.games.pig.layout import (
    HOLD, P_BONUS, P_TARGET, S_BAD_ROLL, S_HELD, S_PLIES, S_ROLLING, S_SCORE, S_SEAT, S_START, S_TOTAL, S_TURNS,
    S_WINNER, T_BUSTS, T_HOLDS, T_ROLLS,
)


@njit
def check_step(params, before, st, option):
    """§7.1 (banked scores change only by a hold, never down), §7.3 (every banked point was held: rolls and
    busts, which ``advance`` makes between two checks, change no score), §7.2 (a turn starts at 0, a decision
    point has had a roll of at least 2) and §7.5 (defensive: a face is ``below(sides) + 1``)."""
    if st[S_BAD_ROLL]:
        return 5
    for s in range(2):
        gain = st[S_SCORE + s] - before[S_SCORE + s]
        held = option == HOLD and s == before[S_SEAT]
        if gain < 0 or (gain != 0 and not held) or (held and gain != before[S_TOTAL]):
            return 1
    for s in range(2):  # the rolls and busts since the last check (advance's) changed no banked score
        if st[S_SCORE + s] != (params[P_BONUS] if s != st[S_START] else 0) + st[S_HELD + s]:
            return 3
    # the state is checked after the option and (in the OpenSpiel bridge) the rolls up to the next decision
    total = st[S_TOTAL]
    if total < 0 or (st[S_ROLLING] == 0 and total < 2) or (st[S_WINNER] >= 0 and total != 0):
        return 2
    if st[S_ROLLING] == 1 and option == HOLD and total != 0:
        return 2
    return 0


@njit
def check_end(params, st):
    """§7.4 (the winner at the target, the other below it), §7.5 and §7.6 (the counts add up)."""
    if st[S_BAD_ROLL]:
        return 5
    w = st[S_WINNER]
    if w < 0 or st[S_SCORE + w] < params[P_TARGET] or st[S_SCORE + 1 - w] >= params[P_TARGET]:
        return 4
    busts, holds, rolls = st[T_BUSTS] + st[T_BUSTS + 1], st[T_HOLDS] + st[T_HOLDS + 1], st[T_ROLLS] + st[T_ROLLS + 1]
    if st[S_TURNS] != busts + holds or st[S_PLIES] != rolls - busts:
        return 6
    return 0
