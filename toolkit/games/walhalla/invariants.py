"""Walhalla's §7 invariants (spec ``docs/rules/walhalla.md``): the protocol's :func:`check_step` and
:func:`check_end`, over the checks the game runs itself.

With ``check=True`` the §7 invariants are tested after setup, after every turn and every raid
(``mechanics.check_between_turns``, which ``mechanics.advance`` runs), at every landing (7.2,
``turn.occupy``) and inside the preparation (7.6-7.8, ``raid_end.preparation`` and ``raid_end.heroes``);
``play_game`` returns the first violated invariant's number (``layout.INV_*``).  The game runs these checks
itself once ``st[S_CHECK]`` is set, which :func:`check_step` does at its first call (the driver calls it
only with ``check``), running the set-up's checks then (:func:`check_lengths` among them).  §7.7's "every
count dropped by the same m" is true by construction of ``raid_end.heroes``; the check tests the minimum.
The checks inside the steps stay beside the steps they check and record through ``layout.violation``.
Over ``layout.py`` and ``mechanics.py`` (layout <- mechanics <- invariants <- kernel).
"""

from __future__ import annotations

from toolkit.core.jit import njit, njit_no_nrt
from toolkit.games.walhalla.layout import (
    INV_FJORDS, INV_LENGTHS, N_DRAGONS, N_TILES, P_DRAW18, S_CHECK, S_LEN, S_TURNS_RAID, S_VIOLATION, violation)
from toolkit.games.walhalla.mechanics import check_between_turns


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
