"""Valhalla, the Numba fast path.

Same rules, same random draws and same option order as ``reference.py``
(whose docstring lists the draw order and the spec choices); the tests check
both produce identical games.  Rules arrive as values (:func:`to_kernel`), so
changing any rule never recompiles.

The kernel is the top of the game's chain (layout <- mechanics <- heuristics, invariants <- kernel): the
state and its offsets are ``layout.py``, the rules over them (the throw, the moves, the protocol's
``start``, ``advance``, ``options``, ``apply``, ``record``) ``mechanics.py``, the policies (``choose``,
``greedy``, ``lookahead``, ``evaluate``, ``determinize``) ``heuristics.py``, the §7 checks
``invariants.py``.  Here: the rules as values, the players as codes, the tree search's settings, and
``finish_kernel`` at the end.  Why the kernel is shaped so (a bitboard, branch-free move generation, a guide
table for the throw, the lead kept incrementally, the protocol's cost): the measurements are in
``benchmarks/notes/valhalla.md``.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.wiring import finish_kernel
from toolkit.games.valhalla.heuristics import (
    SCRATCH_SIZE, choose, determinize, evaluate, greedy_choice, lookahead_choice, lookahead_extra,
)
from toolkit.games.valhalla.invariants import check_end, check_state, check_step
from toolkit.games.valhalla.layout import (  # also read by the tests and the OpenSpiel bridge as kernel.X
    ACTION_BOUND, BACKWARD, BOARD, CLASS_CODE, COLUMNS, C_DECISIONS, C_DECISIVE_TURN, C_LEAD_CHANGES, C_OPTIONS,
    C_TURNS, C_WIN, C_WINNER, DECLINE, GATE, GUIDE_BITS, GUIDE_CERTAIN, HOME, HOME_N, INV_GATE, INV_HOME_INCREASED,
    INV_OCCUPANCY, INV_OFF_DECREASED, INV_OK, INV_REPAIRING, INV_ROCK, INV_SHIPS, INV_THROWS, MAX_OPTIONS,
    N_COLUMNS, N_PARAMS, OFF, PH_MOVE, POLICY_ID, P_BACKWARD, P_BACK_ATTACK, P_BLOCKED_FORFEIT, P_DOCK,
    P_DOCK_ANY_ONE, P_EXTRA, P_EXTRA_MASK, P_EXTRA_OPTIONAL, P_GATE, P_GUIDE, P_HOME_MONOTONE, P_MAX_TURNS,
    P_PASSAGE, P_REP_PROTECTED, P_ROCK, P_RUN_MASK, P_RUN_TABLE, P_SAFE_MASK, P_SETUP, P_SHIPS, P_START,
    P_UNENTERED, P_VALUE_MASK, P_VENTRY, P_ZONE_HI, P_ZONE_LO, P_ZONE_MASK, P_ZONE_WIDTH, REP, RESULT_CODES,
    RS_SIZE, RUN_TABLE_WIDTH, SEAT_FIELDS, SETUP, START, STATE, STATE_SIZE, S_DISTANCE, S_LEAD, S_LEAD_VALUES,
    S_MOVES, S_NATURAL, S_PHASE, S_PLIES, S_SEAT, S_START, S_TALLY, S_TURNS, S_VALUE, S_WINNER, VALHALLA, VAL_N,
    VENTRY,
)
from toolkit.games.valhalla.mechanics import (
    advance, apply, count, kind, lead_measure, legal_moves, nth, option_set, options, record, start, throw_index,
)
from toolkit.games.valhalla.policies import EXPOSED, throw_groups


def to_kernel(rules):
    """Rules -> (int64 parameter vector, throw table arrays, lookahead groups).

    The throw table lists the 16 stick outcomes in order k (stick i rune-up iff
    bit i of k), with cumulative float probabilities summed in that order,
    exactly as ``reference.Sticks`` does.
    """
    from toolkit.games.valhalla import odds

    ip = np.zeros(N_PARAMS, np.int64)
    ip[P_SHIPS] = rules.ships_per_player
    ip[P_SETUP] = SETUP[rules.setup]
    ip[P_START] = START[rules.start_player_rule]
    ip[P_ROCK] = rules.rock_square
    ip[P_DOCK] = rules.dock_square
    ip[P_DOCK_ANY_ONE] = rules.dock_release == "any_one"
    ip[P_REP_PROTECTED] = rules.repairing_ship_protected
    ip[P_ZONE_LO], ip[P_ZONE_HI] = rules.blockade_zone[0], min(rules.blockade_zone[1], 35)
    ip[P_PASSAGE] = rules.blockade_blocks_passage
    ip[P_BACKWARD] = BACKWARD[rules.backward_rule]
    ip[P_BACK_ATTACK] = rules.backward_attacks_allowed
    ip[P_BLOCKED_FORFEIT] = rules.blocked_entry_forfeits_turn
    ip[P_VENTRY] = VENTRY[rules.valhalla_entry]
    ip[P_GATE] = GATE[rules.bear_off_gate]
    ip[P_UNENTERED] = rules.unentered_count_as_row1
    ip[P_EXTRA] = rules.extra_throw_enabled
    ip[P_EXTRA_MASK] = sum(1 << CLASS_CODE[c] for c in rules.extra_throw_values)
    ip[P_EXTRA_OPTIONAL] = rules.extra_throw_optional
    ip[P_MAX_TURNS] = rules.max_turns
    ip[P_SAFE_MASK] = sum(1 << s for s in rules.safe_squares)
    ip[P_RUN_MASK] = sum(1 << n for n in rules.protected_run_lengths if n < 63)
    # §3: runes values are S + T + G +/- H (0..4, Hagalaz alone -> hagalaz_alone_value), simplified 1..4
    values = {1, 2, 3, 4, rules.zero_runes_value}
    if rules.throw_mode == "runes":
        values |= {0, rules.hagalaz_alone_value}
    ip[P_VALUE_MASK] = sum(1 << (v + 1) for v in values)
    ip[P_HOME_MONOTONE] = {1, 2, 3, 4, 5} <= rules.safe_squares and rules.zero_runes_value <= 5
    ip[P_ZONE_MASK] = sum(1 << q for q in range(rules.blockade_zone[0], min(rules.blockade_zone[1], 35) + 1))
    width = min(rules.blockade_zone[1], 35) - rules.blockade_zone[0] + 1
    ip[P_ZONE_WIDTH] = width
    if width <= RUN_TABLE_WIDTH:
        for pattern in range(1 << width):
            protected, q = 0, 0
            while q < width:
                if pattern >> q & 1:
                    length = 0
                    while q + length < width and pattern >> (q + length) & 1:
                        length += 1
                    if length in rules.protected_run_lengths:
                        protected |= ((1 << length) - 1) << q
                    q += length
                else:
                    q += 1
            ip[P_RUN_TABLE + pattern] = protected

    cdf = np.zeros(16)
    tvalue = np.zeros(16, np.int64)
    tnat = np.zeros(16, np.int64)
    cumulative = 0.0
    for k, (prob, _, value, natural_one) in enumerate(odds.float_outcomes(rules)):
        cumulative += prob
        cdf[k], tvalue[k], tnat[k] = cumulative, value, natural_one
    for j in range(1 << GUIDE_BITS):
        start = 0
        while start < 15 and cdf[start] <= j / (1 << GUIDE_BITS):
            start += 1
        # every u of the bin stops the search at ``start``: no comparison needed.  A draw is
        # u = m * 2**-53 (m < 2**53), so the bin's largest u is (j+1)/64 - 2**-53 (an exact double)
        certain = start == 15 or cdf[start] > (j + 1) / (1 << GUIDE_BITS) - 2.0 ** -53
        ip[P_GUIDE + j] = start | (GUIDE_CERTAIN if certain else 0)
    # the lookahead's throw distribution is a policy parameter: the same list as the reference policy's
    groups = throw_groups(rules)
    gprob = np.array([prob for prob, _ in groups])
    gvalue = np.array([throw.value for _, throw in groups], np.int64)
    gnat = np.array([int(throw.natural_one) for _, throw in groups], np.int64)
    return ip, cdf, tvalue, tnat, gprob, gvalue, gnat


def policy_ids(policies) -> np.ndarray:
    """Policy names (checked by ``GameSpec.check_policies``) -> kernel ids."""
    return np.array([POLICY_ID[p] for p in policies], np.int64)


# The mcts policy's default search (core.mcts.game_defaults): greedy rollouts cut off after 48 plies, then at
# the searching seat's next turn, a graded reward against zero, the root swept over shared throws; how each
# setting was chosen, with the games it won: benchmarks/notes/valhalla.md
MCTS_ROLLOUT, MCTS_CUTOFF, MCTS_AGAINST_ROOT = "greedy", 48, False
MCTS_CUTOFF_AT_TURN, MCTS_REWARD_SCALE = True, 30.0
MCTS_ROOT_SWEEP, MCTS_EXPAND_AFTER = True, 1000
# the rollouts inline advance and apply (core.mcts.make_mcts): 81,000 random-rollout iterations/s against
# 40,000 with them called (benchmarks/mcts.py), for about 20 s more of the search's compile
MCTS_INLINE_ROLLOUT = True
# the plain copy inlines advance and apply (core.driver.make_play_game): called, it measured 30% slower
# with random seats (21,089 games/s against 30,378 inlined, one thread) and 11% with greedy ones
INLINE_STEPS = True

# returns, advance_called, apply_called, mcts, play_game, WORK_SIZE and play_many (core.wiring)
finish_kernel(globals())

