"""Halali, the Numba fast path.

Same rules, same random draws and same option order as ``reference.py``
(whose docstring lists the draw order, the action codes and the spec
choices); the tests check both produce identical games.  Rules arrive as
values (:func:`to_kernel`), so changing a rule never recompiles.

The kernel runs on the decision-point protocol (``docs/architecture.md``,
"The game protocol"), the top of the game's chain (layout <- mechanics <- heuristics, invariants <-
kernel): the state and its offsets are ``layout.py``; :func:`start`, :func:`advance`, :func:`kind`,
:func:`count` / :func:`nth` / :func:`options`, :func:`apply` and :func:`record` are ``mechanics.py``;
:func:`choose` (greedy, lookahead), ``evaluate`` and ``determinize`` are ``heuristics.py`` (they change a
square in place to evaluate a hypothetical and restore it); :func:`check_step` / :func:`check_end` (§7) are
``invariants.py``.  From them ``core.wiring.finish_kernel`` builds :func:`play_game` (and ``random``, one
``below(n)`` from the seat's stream for n >= 2).  The measurements behind the kernel's settings are in
``benchmarks/notes/halali.md``.

The capture heat map (:func:`capture_heat`) runs its own small loop over the
same protocol functions, :func:`_heat_game`, adding each capture's square; it is made after
``finish_kernel``, from the game loop it makes.
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.driver import BLOCKS, logged_variants
from toolkit.core.wiring import finish_kernel
from toolkit.games.halali.heuristics import (
    SCRATCH_SIZE, choose, determinize, evaluate, greedy_choice, greedy_index, lookahead_choice, lookahead_index,
    move_value, threat,
)
from toolkit.games.halali.invariants import check_end, check_state, check_step, move_violation
from toolkit.games.halali.layout import (  # also read by the tests and the OpenSpiel bridge as kernel.X
    ACTION_BOUND, CATEGORIES, CENTRE, COLUMNS, C_DECISIONS, C_DECISIVE_TURN, C_LEAD_CHANGES, C_OPTIONS, C_SEAT,
    C_TURNS, C_WIN, C_WINNER, DP_ACTION, END_REASONS, FIRST, INV_COLOUR, INV_FACE_DOWN, INV_FACE_DOWN_PASSED,
    INV_SCORE, INV_TILES, KINDS, LOCK_MODE, MAX_OPTIONS, N_COLUMNS, N_PARAMS, POLICY_ID, P_CAPMASK, P_COUNT,
    P_EARLY_END, P_END_MOVES, P_EXITS_END_ONLY, P_EXIT_MASK, P_FIRST, P_FORCED_CAPTURE, P_HUNTER_FREE,
    P_HUNTER_RESTRICTED, P_LOCKED_CAPTURABLE, P_LOCK_MODE, P_MATCH_GAMES, P_NO_RETURN, P_NO_RETURN_NEUTRALS,
    P_POINTS, P_PROGRESS_LIMIT, P_RANGE, P_RESCUE_NEUTRALS, P_TIEBREAK_DRAW, RESULT_CODES, RS_SIZE, SEAT_FIELDS,
    STATE, STATE_SIZE, S_COLOUR, S_DECK, S_DIR, S_DOWN_BITS, S_END_REASON, S_FACE_DOWN, S_FD_COUNT, S_ID, S_KIND,
    S_LAST, S_LEAD, S_LEAD_VALUES, S_LOCK, S_OCC_BITS, S_OVER, S_PHASE, S_PLIES, S_SCORE, S_TILES, S_TO_MOVE,
    S_TURNS, S_UP, S_UP_BITS,
)
from toolkit.games.halali.mechanics import (
    advance, apply, apply_action, apply_pass, capture_square, count, decode, kind, lead_measure, legal_actions, nth,
    options, owner, owner_class, record, setup, start, step,
)
from toolkit.games.halali.reference import parse_square
from toolkit.games.halali.rules import DIRECTIONS


def to_kernel(rules):
    ip = np.zeros(N_PARAMS, np.int64)
    for k, kind in enumerate(KINDS):
        ip[P_COUNT + k] = rules.tile_counts[kind]
        ip[P_POINTS + k] = rules.points[kind]
        ip[P_RANGE + k] = rules.ranges[kind]
        ip[P_CAPMASK + k] = sum(1 << KINDS.index(v) for v in rules.capture_matrix[kind])
    ip[P_HUNTER_RESTRICTED] = rules.hunter_direction_restricted_capture
    ip[P_HUNTER_FREE] = rules.hunter_free_movement_direction
    ip[P_FIRST] = FIRST[rules.first_player]
    ip[P_NO_RETURN] = rules.no_return_rule
    ip[P_NO_RETURN_NEUTRALS] = rules.no_return_applies_to_neutrals
    ip[P_LOCK_MODE] = LOCK_MODE[rules.neutral_lock]
    ip[P_LOCKED_CAPTURABLE] = rules.locked_neutral_capturable
    ip[P_FORCED_CAPTURE] = rules.forced_capture
    ip[P_END_MOVES] = rules.end_phase_moves
    ip[P_EXITS_END_ONLY] = rules.exits_only_in_end_phase
    ip[P_RESCUE_NEUTRALS] = rules.rescue_neutrals
    ip[P_EARLY_END] = rules.early_end_no_own_tiles
    ip[P_TIEBREAK_DRAW] = rules.tiebreak == "draw"
    ip[P_MATCH_GAMES] = rules.match_games
    ip[P_PROGRESS_LIMIT] = rules.progress_limit
    for text in rules.exit_squares:
        name, _, d = text.partition(":")
        ip[P_EXIT_MASK + DIRECTIONS.index(d)] |= 1 << parse_square(name)
    return ip


def policy_ids(policies) -> np.ndarray:
    return np.array([POLICY_ID[p] for p in policies], np.int64)


# The mcts policy's default search (core.mcts.game_defaults): greedy rollouts cut off after 16 plies, won by
# the seat evaluate puts ahead; the strongest measured against lookahead (benchmarks/notes/halali.md)
MCTS_ROLLOUT, MCTS_CUTOFF = "greedy", 16
# the plain and random copies inline advance and apply (core.driver.make_play_game): faster at no cost in
# cold compile (benchmarks/notes/halali.md)
INLINE_STEPS = True

# returns, advance_called, apply_called, mcts, play_game, WORK_SIZE and play_many (core.wiring)
finish_kernel(globals())


# ------------------------------------------------------------------------ the capture heat map

# the game below is a template: core.driver.logged_variants gives it the plain or the searching loop's
decide = work_entries = None


def _heat_game(ip, policies, seed, game, row, rs, work, heat):
    """``play_game`` (unchecked) on the protocol, adding each capture to ``heat`` at its square."""
    rng.seed_streams(rs, seed, game)
    st = work[:STATE_SIZE]
    opts = work[STATE_SIZE:STATE_SIZE + MAX_OPTIONS]
    scratch = work[STATE_SIZE + MAX_OPTIONS:STATE_SIZE + MAX_OPTIONS + SCRATCH_SIZE]
    start(ip, st, rs)
    while True:
        seat = advance(ip, st, rs)
        if seat < 0:
            break
        option = decide(ip, policies, st, rs, seat, opts, scratch, work[WORK_SIZE:])
        t = capture_square(st, option)
        apply(ip, st, rs, option)
        if t >= 0:
            heat[t] += 1
    record(ip, st, row)


def capture_heat(ip, policies, seed, first_game, n_games):
    """Captures per square (a 7x7 array, row 0 = rank 1) over games ``first_game ..``, and their rows."""
    out = np.zeros((n_games, N_COLUMNS), np.int32)
    heat = np.zeros((BLOCKS, 49), np.int64)
    play_heat(ip, policies, seed, first_game, out, heat)
    return heat.sum(axis=0).reshape(7, 7), out


# the heat map's loops, in a plain copy and one that can search (core.driver.logged_variants): a tally a block
heat_game, play_heat = logged_variants(_heat_game, globals(), play_game, per_block=True)

