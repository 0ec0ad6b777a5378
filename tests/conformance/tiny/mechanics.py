"""Tiny's rules in Numba: the start, the roll up to a decision point (``advance``), the options and their
effect (``apply``), the §6 record; the same game as ``reference.py``, draw for draw (its docstring has the
draw order).

Over ``layout.py`` only (layout <- mechanics <- heuristics, invariants <- kernel).
"""

from __future__ import annotations

from toolkit.core import rng
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update

from tiny.layout import (
    C_CAPTURES, C_DECISIONS, C_DECISIVE_TURN, C_LEAD_CHANGES, C_OPTIONS, C_PLIES, C_RESULT, C_SCORE, C_START,
    C_TURNS, C_WIN, C_WINNER, COLUMNS, DP_MOVE, P_MARGIN, P_RANDOM_START, P_ROUNDS, P_SIDES, P_TRACK, S_BAD_ROLL,
    S_CAPTURES, S_LEAD, S_OFFERED, S_OVER, S_PLIES, S_ROLL, S_SEAT, S_SQUARE, S_START, S_TURNS, S_WINNER,
    STATE_SIZE,
)


@njit_no_nrt
def start(params, st, rs):
    """T-1: both pawns on the start; the first player (the chance stream's first draw, when random)."""
    for i in range(STATE_SIZE):
        st[i] = 0
    lead_reset(st[S_LEAD:S_LEAD + LEAD_FIELDS])
    first = rng.below(rs, 0, 2) if params[P_RANDOM_START] else 0
    st[S_START] = st[S_SEAT] = first
    st[S_WINNER] = -1


@njit_inline
def count(params, st):
    """DP-1's options: ``0..min(roll, track - square)`` squares, 0 (wait) off the start only (T-2.2)."""
    here = st[S_SQUARE + st[S_SEAT]]
    return min(st[S_ROLL], params[P_TRACK] - here) + (1 if here > 0 else 0)


@njit_inline
def first_option(params, st):
    """The squares of DP-1's first option: 0 (wait) off the start, 1 on it (T-2.2)."""
    return 0 if st[S_SQUARE + st[S_SEAT]] > 0 else 1


@njit_inline
def roll_die(params, st, rs, k):
    """T-2.1: the turn begins with a roll from stream ``k`` (the chance stream; a seat's own in a
    lookahead's imagined game)."""
    st[S_TURNS] += 1
    face = rng.below(rs, k, params[P_SIDES]) + 1
    if face < 1 or face > params[P_SIDES]:  # §7.3
        st[S_BAD_ROLL] = 1
    st[S_ROLL] = face
    st[S_OFFERED] += count(params, st)


@njit_inline
def advance(params, st, rs):
    """T-2: roll, which makes a decision point; returns the seat to decide, or -1 when the game is over."""
    if st[S_OVER]:
        return -1
    if st[S_ROLL] == 0:
        roll_die(params, st, rs, 0)
    return st[S_SEAT]


@njit_inline
def apply(params, st, rs, option):
    """DP-1: move ``option`` squares, 0 to wait (T-2.2), overtaking (T-3); then the end (T-4) or the other
    seat's turn."""
    seat = st[S_SEAT]
    other = 1 - seat
    here = st[S_SQUARE + seat]
    there = here + option
    them = st[S_SQUARE + other]
    if 0 < them < params[P_TRACK] and here < them <= there:  # T-3.1; never a pawn on the start (T-3.2)
        st[S_SQUARE + other] = 0
        st[S_CAPTURES + seat] += 1
    st[S_SQUARE + seat] = there
    st[S_PLIES] += 1
    st[S_ROLL] = 0
    lead_update(st[S_LEAD:S_LEAD + LEAD_FIELDS], st[S_SQUARE:S_SQUARE + 2], 2, st[S_TURNS])
    if there >= params[P_TRACK]:  # T-4.1
        st[S_WINNER] = seat
        st[S_OVER] = 1
    elif st[S_TURNS] >= 2 * params[P_ROUNDS]:  # T-4.2
        lead = st[S_SQUARE] - st[S_SQUARE + 1]
        st[S_WINNER] = 0 if lead > params[P_MARGIN] else 1 if -lead > params[P_MARGIN] else -1
        st[S_OVER] = 1
    else:
        st[S_SEAT] = other  # T-4.3


@njit_inline
def kind(params, st):
    return DP_MOVE


@njit_inline
def nth(params, st, i):
    return first_option(params, st) + i  # an option's code is its squares


@njit_inline
def options(params, st, out):
    n = count(params, st)
    first = first_option(params, st)
    for i in range(n):
        out[i] = first + i
    return n


@njit_no_nrt
def record(params, st, row):
    """The §6 record into ``row`` (COLUMNS); a game not over records its result so far as a draw."""
    winner = st[S_WINNER]
    for c in range(len(COLUMNS)):
        row[c] = 0
    row[C_WINNER] = winner
    if winner >= 0:
        row[C_WIN + winner] = 1
    row[C_SCORE], row[C_SCORE + 1] = st[S_SQUARE], st[S_SQUARE + 1]
    row[C_TURNS], row[C_PLIES] = st[S_TURNS], st[S_PLIES]
    row[C_DECISIONS], row[C_OPTIONS] = st[S_PLIES], st[S_OFFERED]
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(st[S_LEAD:S_LEAD + LEAD_FIELDS], winner, st[S_TURNS])
    row[C_START] = st[S_START]
    row[C_RESULT] = 0 if winner >= 0 else 1
    row[C_CAPTURES], row[C_CAPTURES + 1] = st[S_CAPTURES], st[S_CAPTURES + 1]
