"""Tiny's layouts: the rules as values (``PARAMS``), the §6 record (``COLUMNS``), the state of one game
(``STATE``), the result codes and the kernel's sizes.

The bottom of the game's chain (layout <- mechanics <- heuristics, invariants <- kernel): it imports only
``toolkit.core``.
"""

from __future__ import annotations

from toolkit.core.layout import Layout, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS

MAX_TRACK, MAX_SIDES = 12, 6  # the rules' bounds (rules.py): the options and codes they allow
RESULT_CODES = ("win", "draw")  # the ``result`` column's labels (T-4), the SPEC's ``results``

# -- the rules as values (kernel.to_kernel) and the players as codes (kernel.policy_ids)
PARAMS = Layout(("track", 1), ("sides", 1), ("rounds", 1), ("margin", 1), ("random_start", 1))
P_TRACK, P_SIDES, P_ROUNDS, P_MARGIN, P_RANDOM_START = (PARAMS.track, PARAMS.sides, PARAMS.rounds, PARAMS.margin,
                                                        PARAMS.random_start)
SAMPLES_SHIFT = 8  # a policy code: its index in POLICIES, and above it lookahead's samples

# -- the §6 record: the columns every game has, then Tiny's; offsets from the names (core.layout)
COLUMNS = ("winner", "win_0", "win_1", "score_0", "score_1", "turns", "plies", "decisions", "options",
           "lead_changes", "decisive_turn", "start_seat", "result", "captures_0", "captures_1")
C_WINNER, C_TURNS, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES, C_DECISIVE_TURN, C_START, C_RESULT = (
    offset(COLUMNS, name) for name in ("winner", "turns", "plies", "decisions", "options", "lead_changes",
                                       "decisive_turn", "start_seat", "result"))
C_WIN, C_SCORE, C_CAPTURES = (seat_run(COLUMNS, field, 2) for field in ("win", "score", "captures"))

# -- the state of one game
STATE = Layout(("square", 2),  # each seat's pawn: 0 the start .. track home
               ("seat", 1),  # the seat whose turn it is
               ("roll", 1),  # the turn's roll, 0 before it is rolled (a decision point has one)
               ("over", 1), ("winner", 1),  # the game is over; its winner, -1 for none (a draw, or not over)
               ("turns", 1), ("plies", 1), ("offered", 1),  # turns begun, options applied, options offered
               ("start", 1), ("captures", 2), ("lead", LEAD_FIELDS),
               ("bad_roll", 1))  # §7.3, defensive: a roll outside 1..sides was seen
S_SQUARE, S_SEAT, S_ROLL, S_OVER, S_WINNER = STATE.square, STATE.seat, STATE.roll, STATE.over, STATE.winner
S_TURNS, S_PLIES, S_OFFERED, S_START, S_CAPTURES = STATE.turns, STATE.plies, STATE.offered, STATE.start, STATE.captures
S_LEAD, S_BAD_ROLL = STATE.lead, STATE.bad_roll
STATE_SIZE = STATE.size
DP_MOVE = 1  # the only decision point (§5)
MAX_OPTIONS = MAX_SIDES + 1  # 0 (wait) .. sides squares
RS_SIZE = 3  # the streams: chance, then one per seat
ACTION_BOUND = MAX_SIDES + 1  # every option code (the squares moved, 0..sides) is below it
