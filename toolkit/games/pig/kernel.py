"""Pig, the Numba fast path: the same game as ``reference.py``, draw for draw (its docstring has the draw
order), over the decision-point protocol of ``docs/architecture.md`` ("The game protocol").

A game's state is one ``int64`` array laid out by :data:`STATE`; the rules arrive as values
(:func:`to_kernel`), so a rule change never recompiles.  The policies (``choose``, ``evaluate``,
``determinize``) are ``heuristics.py``, the §7 checks ``invariants.py``; ``finish_kernel`` at the end
makes the game loop, the parallel driver and the tree search from the protocol.
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.layout import Layout, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.core.wiring import finish_kernel
from toolkit.games.pig.policies import POLICIES, parse_policy
from toolkit.games.pig.reference import SEAT_FIELDS

# -- the rules as values (to_kernel) and the players as codes (policy_ids)
PARAMS = Layout(("target", 1), ("sides", 1), ("random_start", 1), ("bonus", 1))
P_TARGET, P_SIDES, P_RANDOM_START, P_BONUS = PARAMS.target, PARAMS.sides, PARAMS.random_start, PARAMS.bonus
SAMPLES_SHIFT = 8  # a policy code: its index in POLICIES, and above it lookahead's samples


def to_kernel(rules) -> np.ndarray:
    params = np.zeros(PARAMS.size, np.int64)
    params[P_TARGET], params[P_SIDES] = rules.target, rules.die_sides
    params[P_RANDOM_START], params[P_BONUS] = rules.start_player == "random", rules.second_player_bonus
    return params


def policy_ids(policies) -> np.ndarray:
    codes = [parse_policy(name) for name in policies]
    return np.array([POLICIES.index(base) + (samples << SAMPLES_SHIFT) for base, samples in codes], np.int64)


# -- the §6 record: the columns every game has, then Pig's; offsets from the names (core.layout)
COLUMNS = (("winner", "win_0", "win_1", "score_0", "score_1", "turns", "plies", "decisions", "options",
            "lead_changes", "decisive_turn", "start_seat")
           + tuple(f"{field}_{seat}" for field in SEAT_FIELDS for seat in (0, 1)))
C_WINNER, C_TURNS, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES, C_DECISIVE_TURN, C_START = (
    offset(COLUMNS, name) for name in ("winner", "turns", "plies", "decisions", "options", "lead_changes",
                                       "decisive_turn", "start_seat"))
C_WIN, C_SCORE, C_TALLY = seat_run(COLUMNS, "win", 2), seat_run(COLUMNS, "score", 2), seat_run(COLUMNS, "rolls", 2)

# -- the state of one game
STATE = Layout(("score", 2), ("turn_total", 1), ("seat", 1), ("rolling", 1), ("winner", 1), ("turns", 1),
               ("plies", 1), ("start", 1), ("bad_roll", 1), ("tally", 2 * len(SEAT_FIELDS)), ("lead", LEAD_FIELDS),
               ("held", 2))  # held: the points each seat's holds banked (§7.1 and §7.3: the score is these + bonus)
S_SCORE, S_TOTAL, S_SEAT, S_ROLLING, S_WINNER = STATE.score, STATE.turn_total, STATE.seat, STATE.rolling, STATE.winner
S_TURNS, S_PLIES, S_START, S_BAD_ROLL, S_LEAD = STATE.turns, STATE.plies, STATE.start, STATE.bad_roll, STATE.lead
S_TALLY, S_HELD = STATE.tally, STATE.held  # SEAT_FIELDS x seat, as the result columns
T_ROLLS, T_BUSTS, T_HOLDS = (S_TALLY + 2 * k for k in range(len(SEAT_FIELDS)))
STATE_SIZE = STATE.size
ROLL, HOLD = 0, 1  # DP-1's options, in §5's order
MAX_OPTIONS = 2
RS_SIZE = 3  # the streams: chance, then one per seat
ACTION_BOUND = 2  # every option code is below it (the OpenSpiel bridge's number of actions)


@njit_no_nrt
def start(params, st, rs):
    """P-1, P-2: the start player (chance stream) and the second seat's bonus; the first turn begins."""
    for i in range(STATE_SIZE):
        st[i] = 0
    lead_reset(st[S_LEAD:S_LEAD + LEAD_FIELDS])
    first = rng.below(rs, 0, 2) if params[P_RANDOM_START] else 0
    st[S_START] = st[S_SEAT] = first
    st[S_SCORE + 1 - first] = params[P_BONUS]
    st[S_WINNER] = -1
    st[S_ROLLING] = 1
    st[S_TURNS] = 1


@njit_inline
def end_turn(st):
    """The turn is over (P-3.2, P-3.4): the lead is reported; the other seat's turn begins (P-4)."""
    lead_update(st[S_LEAD:S_LEAD + LEAD_FIELDS], st[S_SCORE:S_SCORE + 2], 2, st[S_TURNS])
    st[S_TOTAL] = 0
    st[S_ROLLING] = 1
    if st[S_WINNER] < 0:
        st[S_SEAT] = 1 - st[S_SEAT]
        st[S_TURNS] += 1


@njit_inline
def roll_once(params, st, rs, k):
    """One roll (§3) from stream ``k`` (the chance stream; a seat's own in a lookahead's imagined turn):
    a bust ends the turn (P-3.2), any other face makes a decision point (P-3.3)."""
    seat = st[S_SEAT]
    face = rng.below(rs, k, params[P_SIDES]) + 1
    if face < 1 or face > params[P_SIDES]:  # §7.5
        st[S_BAD_ROLL] = 1
    st[T_ROLLS + seat] += 1
    if face == 1:
        st[T_BUSTS + seat] += 1
        end_turn(st)
    else:
        st[S_TOTAL] += face
        st[S_ROLLING] = 0
        st[S_PLIES] += 1


@njit_inline
def advance(params, st, rs):
    """P-3: roll until a decision point; returns the seat to decide, or -1 when the game is over."""
    while st[S_WINNER] < 0:
        if st[S_ROLLING] == 0:
            return st[S_SEAT]
        roll_once(params, st, rs, 0)
    return -1


@njit_inline
def apply(params, st, rs, option):
    """DP-1: roll again (the roll is ``advance``'s) or hold (P-3.4, P-5.1)."""
    if option == ROLL:
        st[S_ROLLING] = 1
        return
    seat = st[S_SEAT]
    st[S_SCORE + seat] += st[S_TOTAL]
    st[S_HELD + seat] += st[S_TOTAL]
    st[T_HOLDS + seat] += 1
    if st[S_SCORE + seat] >= params[P_TARGET]:
        st[S_WINNER] = seat
    end_turn(st)


@njit_inline
def kind(params, st):
    return 1  # DP-1, the only decision point


@njit_inline
def count(params, st):
    return 2


@njit_inline
def nth(params, st, i):
    return i  # ROLL, HOLD


@njit_inline
def options(params, st, out):
    out[0], out[1] = ROLL, HOLD
    return 2


@njit_no_nrt
def record(params, st, row):
    """The §6 record of a finished game into ``row`` (COLUMNS)."""
    winner = st[S_WINNER]
    for c in range(len(COLUMNS)):
        row[c] = 0
    row[C_WINNER] = winner
    row[C_WIN + winner] = 1
    row[C_SCORE], row[C_SCORE + 1] = st[S_SCORE], st[S_SCORE + 1]
    row[C_TURNS], row[C_PLIES] = st[S_TURNS], st[S_PLIES]
    row[C_DECISIONS], row[C_OPTIONS] = st[S_PLIES], 2 * st[S_PLIES]  # every decision point is a ply, of 2 options
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(st[S_LEAD:S_LEAD + LEAD_FIELDS], winner, st[S_TURNS])
    row[C_START] = st[S_START]
    for k in range(2 * len(SEAT_FIELDS)):
        row[C_TALLY + k] = st[S_TALLY + k]


# the policies and the §7 checks, in modules of their own over the names above
from toolkit.games.pig.heuristics import SCRATCH_SIZE, choose, determinize, evaluate  # noqa: E402
from toolkit.games.pig.invariants import check_end, check_step  # noqa: E402

finish_kernel(globals())
