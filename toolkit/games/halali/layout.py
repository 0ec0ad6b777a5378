"""Halali's layouts: the rules as values (``P_*``, filled by ``kernel.to_kernel``), the tile kinds, the
state of one match (``STATE``), the §6 record (``COLUMNS``) and the §7 violation codes.

State (``STATE``, a ``core.layout.Layout`` over one ``int64`` array ``st``):

- one game (``GAME_SIZE`` entries, zeroed by ``mechanics.setup`` at each game of a
  match): the board as four runs of 49 squares (kind, -1 empty; face up; gun
  direction; tile id), colours, seat to move, lock, phase, end-phase actions
  left, progress counter, the game's tallies, the last move per seat, the
  face-down counts by kind, the §7.4 reference (gun and home square by tile
  id) and bit sets of squares kept in step with the board;
- the match: the game being played, the sums of the finished games' tallies
  (``m_*``, summed by ``advance`` as each game ends), each game's winner,
  the lead tracker and the seats' lead measures, setup's deck scratch, and
  the current decision point's options (``n_options``, ``options``).

Option codes are the action codes (``mechanics.decode``): a reveal is its square ``0..48``, a move
``49 + 28 * origin + 7 * direction + distance - 1`` (an exit's distance is the one that leaves the board).

The bottom of the game's chain (layout <- mechanics <- heuristics, invariants <- kernel): it imports only
``toolkit.core`` and NumPy; ``rules.py`` and ``reference.py`` take the names they share with it from here.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS

KINDS = ("bear", "fox", "lumberjack", "hunter", "pheasant", "duck", "tree")
SEAT_FIELDS = ("score", "tiles", "reveals", "passes")  # the §6 counts per seat
RESULT_CODES = ("win", "draw", "aborted")
END_REASONS = ("end_phase_complete", "early_end", "aborted")

# -- rule vector layout (to_kernel) --------------------------------------------------
P_COUNT, P_POINTS, P_RANGE, P_CAPMASK = 0, 7, 14, 21  # [7] each, by kind
P_HUNTER_RESTRICTED, P_HUNTER_FREE, P_FIRST, P_NO_RETURN, P_NO_RETURN_NEUTRALS = 28, 29, 30, 31, 32
P_LOCK_MODE, P_LOCKED_CAPTURABLE, P_FORCED_CAPTURE, P_END_MOVES, P_EXITS_END_ONLY = 33, 34, 35, 36, 37
P_RESCUE_NEUTRALS, P_EARLY_END, P_TIEBREAK_DRAW, P_MATCH_GAMES, P_PROGRESS_LIMIT = 38, 39, 40, 41, 42
P_EXIT_MASK = 44  # [4] by direction: bit s set iff square s is an exit with that outward direction
N_PARAMS = 48
FIRST = {"blue": 0, "brown": 1, "random": 2}
LOCK_MODE = {"reveal_or_move": 0, "reveal_only": 1, "off": 2}
POLICY_ID = {"random": 0, "greedy": 1, "lookahead": 2}
BEAR, FOX, LUMBERJACK, HUNTER, PHEASANT, DUCK, TREE = range(7)
OWNER = np.array([0, 0, 1, 1, -1, -1, -2], np.int64)  # COLOUR_OF_KIND
NEUTRAL_CLASS, TREE_CLASS = 2, 3
CENTRE = 24
ACTION_CAP = 10_000
# At most 4 * 49 options: a plain move to an empty square t in direction d comes from the first tile
# behind t (at most 4 empty squares' worth per square), a capture or an exit is the end of one tile's
# walk in one direction (at most 4 per face-up tile), and a reveal is one per face-down tile.
MAX_OPTIONS = 4 * 49

# -- state layout ------------------------------------------------------------------------
# One game of a match (zeroed by setup at each game's start), then the match: what the record sums
# over its games, the lead tracker, setup's scratch and the current decision point's options.
STATE = Layout(("kind", 49), ("up", 49), ("dir", 49), ("id", 49),  # the board; kind -1 = empty square
               ("colour", 2), ("to_move", 1), ("lock", 1), ("phase", 1), ("end_left", 2), ("since", 1),
               ("face_down", 1), ("over", 1), ("end_reason", 1), ("first_player", 1),
               ("last", 2 * 3),  # per seat: tile id (-1 none), from, to
               ("turns", 1), ("main_turns", 1), ("end_turns", 1), ("plies", 1), ("forced", 1),
               ("reveals", 2), ("passes", 2), ("score", 2), ("tiles", 2), ("on_board", 2),  # on board by colour
               ("captures", 2 * 7), ("rescues", 2 * 7),  # (seat, kind)
               ("fd_count", 7),  # face-down tiles per kind (public)
               ("gun_of_id", 48), ("home_of_id", 48),  # for the §7.4 check
               # bit sets of squares (bit s = square s), kept in step with the board: face-down tiles,
               # occupied squares, and face-up tiles by owner class (blue, brown, neutral, tree = CLASS_OF_KIND)
               ("down_bits", 1), ("occ_bits", 1), ("up_bits", 4),
               # -- the match (start zeroes it; setup leaves it)
               ("game", 1), ("match_over", 1),  # the game of the match being played; 1 once the match is over
               ("m_colour0", 1), ("m_first", 1),  # game 1's colour of seat 0 and first player
               ("m_turns", 1), ("m_main_turns", 1), ("m_end_turns", 1), ("m_plies", 1), ("m_forced", 1),
               ("m_end_reason", 1), ("aborted", 1), ("offered", 1),  # offered: options summed over the DPs
               ("m_seat", len(SEAT_FIELDS) * 2),  # the games' sums, SEAT_FIELDS x seat as the columns
               ("m_captures", 7 * 2), ("m_rescues", 7 * 2),  # the games' sums, (kind, seat) as the columns
               ("game_winner", 2),
               ("lead", LEAD_FIELDS), ("lead_values", 2),  # core.lead's tracker and the seats' measures
               ("deck", 48), ("deck_kinds", 48),  # setup's scratch
               ("n_options", 1), ("options", MAX_OPTIONS))  # the current DP-1's options (advance lists them)
S_KIND, S_UP, S_DIR, S_ID = STATE.kind, STATE.up, STATE.dir, STATE.id
S_COLOUR, S_TO_MOVE, S_LOCK, S_PHASE, S_END_LEFT = STATE.colour, STATE.to_move, STATE.lock, STATE.phase, STATE.end_left
S_SINCE, S_FACE_DOWN, S_OVER, S_END_REASON, S_FIRST_PLAYER = (STATE.since, STATE.face_down, STATE.over,
                                                              STATE.end_reason, STATE.first_player)
S_LAST, S_TURNS, S_MAIN_TURNS, S_END_TURNS, S_PLIES, S_FORCED = (STATE.last, STATE.turns, STATE.main_turns,
                                                                 STATE.end_turns, STATE.plies, STATE.forced)
S_REVEALS, S_PASSES, S_SCORE, S_TILES, S_ON_BOARD = (STATE.reveals, STATE.passes, STATE.score, STATE.tiles,
                                                     STATE.on_board)
S_CAPTURES, S_RESCUES, S_FD_COUNT, S_GUN_OF_ID, S_HOME_OF_ID = (STATE.captures, STATE.rescues, STATE.fd_count,
                                                                STATE.gun_of_id, STATE.home_of_id)
S_DOWN_BITS, S_OCC_BITS, S_UP_BITS = STATE.down_bits, STATE.occ_bits, STATE.up_bits
GAME_SIZE = STATE.game  # the entries setup zeroes: one game's
S_GAME, S_MATCH_OVER, S_M_COLOUR0, S_M_FIRST = STATE.game, STATE.match_over, STATE.m_colour0, STATE.m_first
S_M_TURNS, S_M_MAIN_TURNS, S_M_END_TURNS, S_M_PLIES, S_M_FORCED = (STATE.m_turns, STATE.m_main_turns,
                                                                   STATE.m_end_turns, STATE.m_plies, STATE.m_forced)
S_M_END_REASON, S_ABORTED, S_OFFERED = STATE.m_end_reason, STATE.aborted, STATE.offered
S_M_SEAT, S_M_CAPTURES, S_M_RESCUES, S_GAME_WINNER = (STATE.m_seat, STATE.m_captures, STATE.m_rescues,
                                                      STATE.game_winner)
S_LEAD, S_LEAD_VALUES, S_DECK, S_DECK_KINDS = STATE.lead, STATE.lead_values, STATE.deck, STATE.deck_kinds
S_N_OPTIONS, S_OPTIONS = STATE.n_options, STATE.options
STATE_SIZE = STATE.size
DP_ACTION = 1  # the only decision kind (§5 DP-1); an automatic pass is not a DP

# -- result columns ----------------------------------------------------------------------
COLUMNS = (("winner", "win_0", "win_1", "result", "colour_0", "first_player", "turns", "main_turns", "end_turns",
            "plies", "decisions", "options", "lead_changes", "decisive_turn", "forced_reveal_turns", "end_reason")
           + tuple(f"{name}_{seat}" for name in SEAT_FIELDS for seat in (0, 1))
           + tuple(f"{table}_{kind}_{seat}" for table in ("captures", "rescues") for kind in KINDS for seat in (0, 1))
           + ("game1_winner", "game2_winner"))
# offsets from the names (toolkit.core.layout): a run written as offset + i is checked at import
(C_WINNER, C_RESULT, C_COLOUR0, C_FIRST, C_TURNS, C_MAIN, C_END, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES,
 C_DECISIVE_TURN, C_FORCED, C_END_REASON) = (
    offset(COLUMNS, c) for c in ("winner", "result", "colour_0", "first_player", "turns", "main_turns",
                                 "end_turns", "plies", "decisions", "options", "lead_changes", "decisive_turn",
                                 "forced_reveal_turns", "end_reason"))
C_WIN = seat_run(COLUMNS, "win", 2)
C_SEAT = block(COLUMNS, SEAT_FIELDS, 2)  # SEAT_FIELDS (score, tiles, reveals, passes), two columns each
C_CAPTURES = block(COLUMNS, [f"captures_{kind}" for kind in KINDS], 2)  # (kind, seat) pairs, then rescues
C_RESCUES = block(COLUMNS, [f"rescues_{kind}" for kind in KINDS], 2)
C_GAME_WINNER = offset(COLUMNS, "game1_winner", "game2_winner")
N_COLUMNS = len(COLUMNS)
CATEGORIES = {"result": RESULT_CODES, "end_reason": END_REASONS}

# invariant violation codes (check=True): the number of the §7 invariant
INV_TILES, INV_SQUARES, INV_FACE_DOWN, INV_FIXED, INV_CAPTURE_LIST, INV_SCORE, INV_COLOUR = 1, 2, 3, 4, 5, 6, 7
INV_FACE_DOWN_PASSED, INV_END_ACTIONS, INV_PROGRESS = 8, 9, 10

RS_SIZE = 3  # the streams: chance, then one per seat
# every option code is below this (the OpenSpiel bridge's number of actions): a reveal 0..48, a move
# 49 + 28 * origin + 7 * direction + distance - 1
ACTION_BOUND = 49 + 28 * 49
