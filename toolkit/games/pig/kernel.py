"""Pig, the Numba fast path: the same game as ``reference.py``, draw for draw (its docstring has the draw
order), over the decision-point protocol of ``docs/architecture.md`` ("The game protocol").

A game's state is one ``int64`` array laid out by ``layout.STATE``; the rules arrive as values
(:func:`to_kernel`), so a rule change never recompiles.  The kernel is the top of the game's chain
(layout <- mechanics <- heuristics, invariants <- kernel): it imports the protocol from ``mechanics.py``
(the rules), ``heuristics.py`` (the policies: ``choose``, ``evaluate``, ``determinize``) and
``invariants.py`` (the §7 checks), and ``finish_kernel`` at its end makes the game loop, the parallel
driver and the tree search from them.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.wiring import finish_kernel
from toolkit.games.pig.heuristics import SCRATCH_SIZE, choose, determinize, evaluate
from toolkit.games.pig.invariants import check_end, check_step
from toolkit.games.pig.layout import (  # what the kernel needs, and the layout the tests read as kernel.X
    ACTION_BOUND, COLUMNS, C_DECISIONS, C_DECISIVE_TURN, C_LEAD_CHANGES, C_OPTIONS, C_START, C_TURNS, C_WIN,
    C_WINNER, HOLD, MAX_OPTIONS, PARAMS, P_BONUS, P_RANDOM_START, P_SIDES, P_TARGET, ROLL, RS_SIZE, SAMPLES_SHIFT,
    SEAT_FIELDS, STATE, STATE_SIZE, S_BAD_ROLL, S_HELD, S_LEAD, S_PLIES, S_ROLLING, S_SCORE, S_SEAT, S_START,
    S_TALLY, S_TOTAL, S_TURNS, S_WINNER, T_BUSTS, T_HOLDS, T_ROLLS,
)
from toolkit.games.pig.mechanics import advance, apply, count, kind, nth, options, record, start
from toolkit.games.pig.policies import POLICIES, parse_policy


def to_kernel(rules) -> np.ndarray:
    params = np.zeros(PARAMS.size, np.int64)
    params[P_TARGET], params[P_SIDES] = rules.target, rules.die_sides
    params[P_RANDOM_START], params[P_BONUS] = rules.start_player == "random", rules.second_player_bonus
    return params


def policy_ids(policies) -> np.ndarray:
    codes = [parse_policy(name) for name in policies]
    return np.array([POLICIES.index(base) + (samples << SAMPLES_SHIFT) for base, samples in codes], np.int64)


finish_kernel(globals())
