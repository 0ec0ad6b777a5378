"""Pig's layouts: the rules as values (``PARAMS``), the §6 record (``COLUMNS``), the state of one game
(``STATE``), the option codes and the kernel's sizes.

The bottom of the game's chain (layout <- mechanics <- heuristics, invariants <- kernel): it imports only
``toolkit.core``.
"""

from __future__ import annotations

from toolkit.core.layout import Layout, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS

SEAT_FIELDS = ("rolls", "busts", "holds")  # the §6 counts per seat

# -- the rules as values (kernel.to_kernel) and the players as codes (kernel.policy_ids)
PARAMS = Layout(("target", 1), ("sides", 1), ("random_start", 1), ("bonus", 1))
P_TARGET, P_SIDES, P_RANDOM_START, P_BONUS = PARAMS.target, PARAMS.sides, PARAMS.random_start, PARAMS.bonus
SAMPLES_SHIFT = 8  # a policy code: its index in POLICIES, and above it lookahead's samples

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
