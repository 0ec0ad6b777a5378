"""Pig's rules in Numba: the start, the rolls up to a decision point (``advance``), the options and their
effect (``apply``), the §6 record; the same game as ``reference.py``, draw for draw (its docstring has the
draw order).

Over ``layout.py`` only (layout <- mechanics <- heuristics, invariants <- kernel).
"""

from __future__ import annotations

from toolkit.core import rng
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.games.pig.layout import (
    COLUMNS, C_DECISIONS, C_DECISIVE_TURN, C_LEAD_CHANGES, C_OPTIONS, C_PLIES, C_SCORE, C_START, C_TALLY, C_TURNS,
    C_WIN, C_WINNER, HOLD, P_BONUS, P_RANDOM_START, P_SIDES, P_TARGET, ROLL, SEAT_FIELDS, STATE_SIZE, S_BAD_ROLL,
    S_HELD, S_LEAD, S_PLIES, S_ROLLING, S_SCORE, S_SEAT, S_START, S_TALLY, S_TOTAL, S_TURNS, S_WINNER, T_BUSTS,
    T_HOLDS, T_ROLLS,
)


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
