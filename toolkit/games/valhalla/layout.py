"""Valhalla's layouts: the rules as values (``P_*``, filled by ``kernel.to_kernel``), the board and the state
of one game (``STATE``), the move and option codes, the §6 record (``COLUMNS``) and the §7 violation codes.

State of one game: a bitboard, one ``int64`` array ``st`` whose first ``BOARD`` entries are the board
(copied whole by the lookahead).  Ships are interchangeable, so a ship is its square; single occupancy of
1..35 (V-1.3) makes a set of squares enough.

- ``st[seat]``  bit ``q`` set iff ``seat`` has a ship on square ``q`` (1..35);
- ``st[HOME_N + seat]``, ``st[VAL_N + seat]``, ``st[OFF + seat]``  ships at
  home (0), in Valhalla (36) and borne off (37);
- ``st[REP]``  the seat whose ship on ``dock_square`` is repairing, or -1.

The bottom of the game's chain (layout <- mechanics <- heuristics, invariants <- kernel): it imports only
``toolkit.core``.
"""

from __future__ import annotations

from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS

SEAT_FIELDS = ("throws", "captures", "rock_hits", "dock_releases", "extra_throws", "backward_moves", "forfeits")  # §6

# -- rule vector layout (to_kernel) -------------------------------------------------
P_SHIPS, P_SETUP, P_START, P_ROCK, P_DOCK, P_DOCK_ANY_ONE, P_REP_PROTECTED = 0, 1, 2, 3, 4, 5, 6
P_ZONE_LO, P_ZONE_HI, P_PASSAGE, P_BACKWARD, P_BACK_ATTACK, P_BLOCKED_FORFEIT = 7, 8, 9, 10, 11, 12
P_VENTRY, P_GATE, P_UNENTERED, P_EXTRA, P_EXTRA_MASK, P_EXTRA_OPTIONAL = 13, 14, 15, 16, 17, 18
P_MAX_TURNS, P_SAFE_MASK, P_RUN_MASK, P_ZONE_MASK, P_ZONE_WIDTH = 19, 20, 21, 22, 23
P_VALUE_MASK = 24  # bit v + 1 set iff throw value v is in the range of the throw mode (§3, for §7.8)
P_HOME_MONOTONE = 25  # 1 if §7.6 applies: squares 1..5 safe and no throw above 5
P_GUIDE = 26  # ip[P_GUIDE + j]: bits 0-3 the first outcome k with cdf[k] > j / 64 (where a throw's search
# starts), bit 4 (GUIDE_CERTAIN) set when every draw of the bin ends there
GUIDE_BITS = 6
GUIDE_CERTAIN = 16  # flag in a guide entry: the bin lies inside one outcome
P_RUN_TABLE = P_GUIDE + (1 << GUIDE_BITS)  # ip[P_RUN_TABLE + pattern]: protected squares of a zone occupancy pattern
RUN_TABLE_WIDTH = 11  # zones up to 11 squares (the default 25..35) use the table
N_PARAMS = P_RUN_TABLE + (1 << RUN_TABLE_WIDTH)

SETUP = {"empty_board": 0, "alternating_blocks": 1}
START = {"first_natural_one": 0, "random": 1, "seat0": 2}
BACKWARD = {"full_throw": 0, "one_square": 1, "none": 2}
VENTRY = {"exact_or_over": 0, "exact": 1, "direct_off": 2}
GATE = {"every_bear_off": 0, "first_only": 1, "none": 2}
# throw class codes: the value itself, except 1 -> 1 (natural one) or 7 (unnatural one)
CLASS_CODE = {"natural_one": 1, "unnatural_one": 7, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}
POLICY_ID = {"random": 0, "greedy": 1, "lookahead": 2}

# -- the board's entries, its squares off the track, the move flags and apply_move's events ------
HOME_N, VAL_N, OFF, REP = 2, 4, 6, 8  # the board's entries (STATE, below, lays out the rest)
TRACK_MASK = ((1 << 36) - 1) & ~1  # squares 1..35
ROW1_MASK = ((1 << 13) - 1) & ~1  # squares 1..12
HOME, VALHALLA, OFF_SQ = 0, 36, 37
HOME_BIT = 37  # in an option set, home is bit 37, after Valhalla (36): canonical order is ascending bits
ATTACK, BACKWARD_FLAG = 1, 2  # move flags (mo[2])
EV_ATTACK, EV_ROCK, EV_RELEASE = 1, 2, 4  # apply_move events
EV_LANDING_SHIFT = 3  # after a rock hit, the square the ship was moved to is in the event bits from here

# -- result columns (one row per game) --------------------------------------------------
COLUMNS = (("winner", "win_0", "win_1", "score_0", "score_1", "turns", "plies",
            "decisions", "options", "lead_changes", "decisive_turn", "result", "start_seat", "start_throws")
           + tuple(f"{name}_{seat}" for name in SEAT_FIELDS for seat in (0, 1)))
# offsets from the names (toolkit.core.layout): a run written as offset + seat is checked at import
(C_WINNER, C_TURNS, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES, C_DECISIVE_TURN, C_RESULT, C_START_SEAT,
 C_START_THROWS) = (offset(COLUMNS, c) for c in ("winner", "turns", "plies", "decisions", "options", "lead_changes",
                                                 "decisive_turn", "result", "start_seat", "start_throws"))
C_WIN, C_SCORE = seat_run(COLUMNS, "win", 2), seat_run(COLUMNS, "score", 2)
C_THROWS, C_CAPTURES, C_ROCK_HITS, C_RELEASES, C_EXTRA, C_BACKWARD, C_FORFEITS = (
    seat_run(COLUMNS, field, 2) for field in SEAT_FIELDS)
C_TALLY = block(COLUMNS, SEAT_FIELDS, 2)  # SEAT_FIELDS x seat, as STATE's tally
N_COLUMNS = len(COLUMNS)
RESULT_CODES = ("win", "aborted")

# invariant violation codes (check=True): the number of the §7 invariant
INV_OK, INV_SHIPS, INV_OCCUPANCY, INV_ROCK, INV_REPAIRING, INV_OFF_DECREASED = 0, 1, 2, 3, 4, 5
INV_HOME_INCREASED, INV_GATE, INV_THROWS = 6, 7, 8

# -- the state of one game: the board above, then where the game stands
STATE = Layout(("ships", 2), ("home", 2), ("valhalla", 2), ("off", 2), ("repairing", 1),  # the board: BOARD
               ("seat", 1),  # the seat whose turn it is
               ("phase", 1),  # PH_THROW: a throw is due; PH_MOVE: DP-1; PH_EXTRA: DP-2; PH_OVER
               ("value", 1), ("natural", 1), ("distance", 1), ("moves", 1),  # the last throw and its option set
               ("turns", 1), ("turn_throws", 1), ("plies", 1), ("offered", 1), ("winner", 1), ("aborted", 1),
               ("start", 1), ("start_throws", 1), ("bad_throw", 1),  # bad_throw: §7.8, a value outside the mode
               ("tally", len(SEAT_FIELDS) * 2),  # SEAT_FIELDS x seat, as the result columns
               ("moves_made", 2), ("lead", LEAD_FIELDS), ("lead_values", 2))
BOARD = STATE.seat  # the board's entries (all the lookahead copies)
assert (STATE.home, STATE.valhalla, STATE.off, STATE.repairing) == (HOME_N, VAL_N, OFF, REP)
STATE_SIZE = STATE.size
S_SEAT, S_PHASE, S_VALUE, S_NATURAL, S_DISTANCE, S_MOVES = (STATE.seat, STATE.phase, STATE.value, STATE.natural,
                                                             STATE.distance, STATE.moves)
S_TURNS, S_TURN_THROWS, S_PLIES, S_OFFERED, S_WINNER, S_ABORTED = (STATE.turns, STATE.turn_throws, STATE.plies,
                                                                   STATE.offered, STATE.winner, STATE.aborted)
S_START, S_START_THROWS, S_BAD_THROW, S_TALLY, S_MOVES_MADE = (STATE.start, STATE.start_throws, STATE.bad_throw,
                                                               STATE.tally, STATE.moves_made)
S_LEAD, S_LEAD_VALUES = STATE.lead, STATE.lead_values
T_THROWS, T_CAPTURES, T_ROCK_HITS, T_RELEASES, T_EXTRA, T_BACKWARD, T_FORFEITS = (
    S_TALLY + 2 * k for k in range(len(SEAT_FIELDS)))
PH_THROW, PH_MOVE, PH_EXTRA, PH_OVER = 0, 1, 2, 3  # PH_MOVE and PH_EXTRA are the §5 numbers DP-1, DP-2
THROW_AGAIN, DECLINE = 0, 1  # DP-2's options, in the spec's order
MAX_OPTIONS = 8  # one per origin: at most 6 ships, Valhalla, home

RS_SIZE = 3  # the streams: chance, then one per seat
# every option code is below this (the OpenSpiel bridge's number of actions): DP-1 an origin's bit 1..37,
# DP-2 THROW_AGAIN / DECLINE
ACTION_BOUND = 38
