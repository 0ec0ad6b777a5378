"""Tiny, the Numba fast path: the same game as ``reference.py``, draw for draw (its docstring has the draw
order), over the decision-point protocol of ``docs/architecture.md`` ("The game protocol").

A game's state is one ``int64`` array laid out by ``layout.STATE``; the rules arrive as values
(:func:`to_kernel`), so a rule change never recompiles.  The kernel is the top of the game's chain
(layout <- mechanics <- heuristics, invariants <- kernel); ``finish_kernel`` at its end makes the game loop,
the parallel driver and the tree search.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.wiring import finish_kernel

from tiny.heuristics import SCRATCH_SIZE, choose, determinize, evaluate
from tiny.invariants import check_end, check_step
from tiny.layout import (  # the layouts; read by the tests and the OpenSpiel bridge as kernel.X
    ACTION_BOUND, COLUMNS, MAX_OPTIONS, P_MARGIN, P_RANDOM_START, P_ROUNDS, P_SIDES, P_TRACK, PARAMS, RESULT_CODES,
    RS_SIZE, SAMPLES_SHIFT, STATE, STATE_SIZE,
)
from tiny.mechanics import advance, apply, count, kind, nth, options, record, start
from tiny.policies import POLICIES, parse_policy


def to_kernel(rules) -> np.ndarray:
    params = np.zeros(PARAMS.size, np.int64)
    params[P_TRACK], params[P_SIDES], params[P_ROUNDS] = rules.track, rules.die_sides, rules.rounds
    params[P_MARGIN], params[P_RANDOM_START] = rules.draw_margin, rules.start_player == "random"
    return params


def policy_ids(policies) -> np.ndarray:
    codes = [parse_policy(name) for name in policies]
    return np.array([POLICIES.index(base) + (samples << SAMPLES_SHIFT) for base, samples in codes], np.int64)


finish_kernel(globals())
