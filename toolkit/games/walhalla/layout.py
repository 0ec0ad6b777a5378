"""Walhalla's layouts: the rule vector (``P_*``), the state of one game (``STATE``), the policies' scratch
(``SCRATCH``), the §6 record (``COLUMNS``), the phases and option codes of the decision points, the §7
codes (``INV_*``) and the kernel's sizes; last the two readings of the state every rule module shares
(:func:`field_count`, :func:`violation`).

The bottom of the game's chain (layout <- deal <- turn <- raid_end <- mechanics <- heuristics, invariants
<- kernel): it imports only ``toolkit.core``.

State
-----
One ``int64`` vector ``st``, laid out by ``STATE`` (``core.layout.Layout``; ``S_<FIELD>`` is field
``<field>``'s offset, its meaning written beside it): the §4 components and the §6 tallies (the hands
``hand[5 p + card]``; field j of peninsula k is entry ``16 k + j`` of ``ftype``, ``fvalue`` and ``occ``),
the §7 check state, then where the game stands between decision points: ``phase`` (a decision point's
§5 number 1..9, ``PH_OVER``, or an automatic step ``PH_*``), the seat to decide, its options, and what
the turn, the combat, the card phase or the sale has settled so far.

Decision points and option codes
--------------------------------
The spec's §5 decision points, each one decision point of the protocol (``kind`` is its number), options
in the spec's order, codes as ``apply`` takes them:

- DP-1 board: the boardable seat sets, ascending by bitmask; code = the bitmask (bit j: dragon seat j,
  0 bow).
- DP-2 colour seat: 0 board, 1 decline.
- DP-3 fjord: the legal fjords ascending; code = the fjord 0..3.
- DP-4 landing: the left candidate, the right one, then stay (if ``landing_mandatory`` is off); code =
  the peninsula 0..2, ``STAY`` = 3.
- DP-5 axe: 0 play, 1 decline.  DP-6 shield: 0 play, 1 decline.
- DP-7 fight: 0 defender wins, 1 attacker wins.
- DP-8 raid cards (h0, h1, h2, w, pl) and DP-9 sale (axe, shield, horn, walhalla, plunder): the count
  vectors in lexicographic order; code = the vector packed, entry c in bits ``8 c .. 8 c + 7`` (entries
  <= 40).  Their number is counted when the decision point is presented (``n``), and ``nth`` walks to
  the i-th as the old kernel's random choice did, so ``random`` never lists them.  ``options`` lists at
  most ``MAX_OPTIONS`` (4096) of them, with more every one ``greedy`` and ``lookahead`` can take
  (``raid_end.py``).
"""

from __future__ import annotations

from toolkit.core.jit import njit_inline
from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS

MAX_SEATS = 4
MAX_RAIDS = 5
MAX_FIELDS = 16  # per peninsula
N_CARDS = 5  # card types: axe, shield, horn, walhalla, plunder
AXE, SHIELD, HORN, WCARD, PLUNDER = range(5)
VILLAGE, FOREST, CULT, WHEAT = range(4)
N_TILES = 18
N_DRAGONS = 12
MAX_DECK = N_CARDS * 40
VP_SOURCES = ("peninsula", "wheat", "forest", "fields", "walhalla", "plunder")  # the record's vp_<source>
N_SOURCES = len(VP_SOURCES)

# -- rule vector layout -----------------------------------------------------------------
(P_PLAYERS, P_RAIDS, P_VIKINGS, P_START_MIDGARD, P_FROM_MIDGARD, P_INITIAL_CARDS, P_FOREST_VP, P_CULT_CARDS,
 P_VILLAGE_BONUS, P_LANDING_MANDATORY, P_LOSES_HERO, P_HORN, P_PLUNDER, P_WCARD_BONUS, P_SELL, P_FIELD_VP,
 P_ROUND_UP, P_ELIGIBLE_MIN, P_START_RANDOM, P_TIEBREAK, P_DRAW18) = range(21)
P_LENGTHS = 21  # [3]
P_DECK = 24  # [5] card counts
P_REINFORCE = 29  # [4]
P_WALHALLA_VP = 33  # [2]
P_TILE_TYPE = 35  # [18 * 2]
P_TILE_VALUE = P_TILE_TYPE + 2 * N_TILES  # [18 * 2]
P_DRAGON_COLOUR = P_TILE_VALUE + 2 * N_TILES  # [12]
P_DRAGON_SEAT = P_DRAGON_COLOUR + N_DRAGONS  # [12]
N_PARAMS = P_DRAGON_SEAT + N_DRAGONS
POLICY_ID = {"random": 0, "greedy": 1, "lookahead": 2}

# -- state layout (toolkit.core.layout: named fields, offsets computed) --------------------
STATE = Layout(
    # the game: the §4 components and the §6 tallies
    ("vp", MAX_SEATS), ("midgard", MAX_SEATS), ("asgard", MAX_SEATS), ("walhalla", MAX_SEATS),
    ("hand", N_CARDS * MAX_SEATS), ("discard", N_CARDS), ("len", 3), ("inner", 3), ("outer", 3),
    ("moored", 4), ("aboard", 3), ("deck_head", 1), ("deck_n", 1), ("dragon_head", 1), ("start", 1), ("first", 1),
    ("raid", 1), ("turns", 1), ("plies", 1), ("raids", 1), ("combats", 1), ("att_wins", 1), ("def_choices", 1),
    ("def_win", 1), ("turns_raid", MAX_RAIDS), ("combats_raid", MAX_RAIDS), ("axes", MAX_SEATS),
    ("shields", MAX_SEATS), ("to_walhalla", MAX_SEATS), ("heroes", MAX_SEATS), ("landings", MAX_SEATS),
    ("sold", MAX_SEATS),
    ("vp_from", N_SOURCES * MAX_SEATS),  # per source, then seat
    ("horns", 3 * MAX_SEATS),  # card phase: horn strength per seat and peninsula
    ("wcards", MAX_SEATS),  # card phase: Walhalla cards per seat
    ("check", 1), ("violation", 1),  # the game's own §7 checks are on; the first violation seen
    ("prev_vp", MAX_SEATS),  # checks: VP at the previous check
    ("options", 1),  # options offered, summed over the decision points presented (plies counts those)
    # where the game stands between decision points (the protocol)
    ("phase", 1),  # a decision point (its §5 number DP_1 .. DP_9), PH_OVER, or an automatic step PH_*
    ("seat", 1),  # the seat to decide
    ("n", 1),  # the current decision point's number of options
    ("active", 1),  # the active player of the turn
    ("colour", 1), ("cseat", 1),  # the turn's dragon: its colour and coloured seat
    ("legal", 1),  # the legal fjords as bits (DP-3)
    ("base", 1),  # 3 x the boats moored in the chosen fjord before this one (W-4.4)
    ("fjord", 1),  # the chosen fjord
    ("j", 1),  # the dragon seat disembarking (0 bow, 1 middle, 2 stern)
    ("cand", 2), ("n_cand", 1),  # DP-4's candidate peninsulas, left first
    ("field", 2),  # the combat's field (peninsula, index)
    ("axe", 1), ("axes_played", 1), ("shields_played", 1),  # the combat's cards
    ("i", 1),  # DP-8 / DP-9: the player's place from the start player
    ("last", 1),  # the raid being scored is the last
    ("rollout", 1),  # 1 in the lookahead's imagined worlds: stop after the raid's scoring, no lead tracking
    ("laid", N_CARDS * MAX_SEATS),  # DP-8: (h0, h1, h2, w, pl) laid per seat, revealed together
    ("tmp", 32),  # scratch of the rules' steps
    ("lead", LEAD_FIELDS), ("lead_values", MAX_SEATS),  # the lead tracking (toolkit.core.lead)
    ("dragons", N_DRAGONS),  # the dragon deck
    ("ftype", 3 * MAX_FIELDS), ("fvalue", 3 * MAX_FIELDS), ("occ", 3 * MAX_FIELDS),  # fields; occupant or -1
    ("deck", MAX_DECK))
STATE_SIZE = STATE.size
(S_VP, S_MIDGARD, S_ASGARD, S_WALHALLA, S_HAND, S_DISCARD, S_LEN, S_INNER, S_OUTER, S_MOORED, S_ABOARD,
 S_DECK_HEAD, S_DECK_N, S_DRAGON_HEAD, S_START, S_FIRST, S_RAID, S_TURNS, S_PLIES, S_RAIDS, S_COMBATS,
 S_ATT_WINS, S_DEF_CHOICES, S_DEF_WIN, S_TURNS_RAID, S_COMBATS_RAID, S_AXES, S_SHIELDS, S_TO_WALHALLA,
 S_HEROES, S_LANDINGS, S_SOLD, S_VP_FROM, S_HORNS, S_WCARDS, S_CHECK, S_VIOLATION, S_PREV_VP, S_OPTIONS,
 S_PHASE, S_SEAT, S_N, S_ACTIVE, S_COLOUR, S_CSEAT, S_LEGAL, S_BASE, S_FJORD, S_J, S_CAND, S_N_CAND, S_FIELD,
 S_AXE, S_AXES_PLAYED, S_SHIELDS_PLAYED, S_I, S_LAST, S_ROLLOUT, S_LAID, S_TMP, S_LEAD, S_LEAD_VALUES,
 S_DRAGONS, S_FTYPE, S_FVALUE, S_OCC, S_DECK) = (getattr(STATE, name) for name in STATE.names())
# the phases: a decision point is its §5 number; the automatic steps follow
DP_1, DP_2, DP_3, DP_4, DP_5, DP_6, DP_7, DP_8, DP_9 = range(1, 10)
PH_OVER = 10  # the game is over
PH_TURN = 11  # a turn is due, unless the raid is over (W-3)
PH_COLOUR = 12  # after boarding: DP-2's trigger
PH_FJORD = 13  # after DP-2: the legal fjords, DP-3
PH_LAND = 14  # W-5: the Vikings aboard disembark, bow first
PH_COMBAT = 15  # W-6 starts on S_FIELD: DP-5's trigger
PH_SHIELD = 16  # after DP-5: DP-6's trigger
PH_FIGHT = 17  # after DP-6: an uncancelled Axe wins, else DP-7
PH_TURN_END = 18  # the turn is over: the between-turn checks, the next player
PH_CARDS = 19  # W-7.2: DP-8 for the player at S_I, then the cards revealed and the raid scored
PH_SCORED = 20  # the raid is scored: the preparation (W-10), or the end (the rollouts stop here)
PH_SELL = 21  # W-10.4: DP-9 for the player at S_I, then the heroes
PH_RAID_END = 22  # after the raid (and its preparation): the checks, the next raid or the game's end
STAY = 3  # DP-4's option "stay" (the others are the candidate's peninsula 0..2)
MAX_OPTIONS = 4096  # options() lists at most this many (module docstring: DP-8 and DP-9 can have more)
VEC_BITS = 8  # a count vector's option code: entry c in bits 8c .. 8c + 7 (entries <= 40)
# The OpenSpiel bridge's actions: an option code is a count vector of 8 bits an entry (up to 2**40), which
# OpenSpiel's int cannot hold, so it is renumbered in base 41 above its first entry (entries 1.. are <= 40)
VECTOR_BASE = 41
ACTION_BOUND = 256 * VECTOR_BASE ** 4
# the policies' scratch
SCRATCH = Layout(("g", 16),  # greedy's worth
                 ("net", 12),  # greedy's landing values per fjord and dragon seat
                 ("base", STATE_SIZE),  # the lookahead's determinized world
                 ("world", STATE_SIZE),  # its rollout world
                 ("pool", MAX_DECK),  # its unseen cards
                 ("drag", N_DRAGONS),  # its dragons to come
                 ("cands", 4),  # its fjords
                 ("totals", 4))  # its value per fjord
SCRATCH_SIZE = SCRATCH.size
W_G, W_NET, W_BASE, W_WORLD, W_POOL, W_DRAG, W_CANDS, W_TOTALS = (
    SCRATCH.g, SCRATCH.net, SCRATCH.base, SCRATCH.world, SCRATCH.pool, SCRATCH.drag, SCRATCH.cands,
    SCRATCH.totals)
N_STREAMS = 1 + MAX_SEATS  # chance, then one decision stream per seat; rollouts use a second set
RS_SIZE = 2 * N_STREAMS  # the streams: chance and one per seat, then a second set for the rollouts
LOOKAHEAD = 2  # policy id of lookahead (its sample count above POLICY_BITS)
POLICY_BITS = 8

# -- result columns ------------------------------------------------------------------------
SEAT_FIELDS = (("score", "win", "axes", "shields", "to_walhalla", "heroes_lost", "landings", "cards_sold")
               + tuple(f"vp_{source}" for source in VP_SOURCES) + ("walhalla_end", "fields_end"))
COLUMNS = (("winner", "n_winners", "result", "start_player", "turns", "plies", "decisions", "options", "lead_changes",
            "decisive_turn", "raids", "combats", "attacker_wins", "defender_choices", "defender_chose_win",
            "length_0", "length_1", "length_2")
           + tuple(f"turns_raid_{r}" for r in range(MAX_RAIDS))
           + tuple(f"combats_raid_{r}" for r in range(MAX_RAIDS))
           + tuple(f"{name}_{s}" for name in SEAT_FIELDS for s in range(MAX_SEATS)))
# offsets from the names (toolkit.core.layout): a run written as offset + i is checked at import
(C_WINNER, C_N_WINNERS, C_RESULT, C_START, C_TURNS, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES,
 C_DECISIVE_TURN, C_RAIDS, C_COMBATS, C_ATT_WINS, C_DEF_CHOICES, C_DEF_WIN) = (
    offset(COLUMNS, c) for c in ("winner", "n_winners", "result", "start_player", "turns", "plies", "decisions",
                                 "options", "lead_changes", "decisive_turn", "raids", "combats", "attacker_wins",
                                 "defender_choices", "defender_chose_win"))
C_LENGTHS = seat_run(COLUMNS, "length", 3)
C_TURNS_RAID = seat_run(COLUMNS, "turns_raid", MAX_RAIDS)
C_COMBATS_RAID = seat_run(COLUMNS, "combats_raid", MAX_RAIDS)
C_SEAT = block(COLUMNS, SEAT_FIELDS, MAX_SEATS)  # SEAT_FIELDS in order, MAX_SEATS columns each
N_COLUMNS = len(COLUMNS)
RESULT_CODES = ("win", "shared")
CATEGORIES = {"result": RESULT_CODES}
# check=True: the number of the §7 invariant violated (0 = none)
(INV_VIKINGS, INV_FIELDS, INV_FJORDS, INV_CARDS, INV_VP, INV_CLEANUP, INV_HEROES, INV_REINFORCEMENT,
 INV_LENGTHS) = range(1, 10)


def columns_for(rules) -> tuple:
    """The columns of a game under ``rules``: absent seats and raids are left out."""
    absent = {f"{name}_{s}" for name in SEAT_FIELDS for s in range(rules.num_players, MAX_SEATS)}
    absent |= {f"{name}_{r}" for name in ("turns_raid", "combats_raid") for r in range(rules.raids, MAX_RAIDS)}
    return tuple(c for c in COLUMNS if c not in absent)


def action_of(code: int) -> int:
    """The bridge's action number of option ``code`` (a ValueError for an entry above 40)."""
    entries = [(code >> (8 * c)) & 255 for c in range(5)]
    if code >> 40 or max(entries[1:]) >= VECTOR_BASE:
        raise ValueError(f"walhalla's option code {code:#x} has a count vector entry above 40")
    return entries[0] + 256 * (entries[1] + VECTOR_BASE * (entries[2] + VECTOR_BASE * (entries[3] + VECTOR_BASE
                                                                                        * entries[4])))


def code_of(action: int) -> int:
    """The option code of the bridge's ``action`` (the inverse of :func:`action_of`)."""
    code, rest = action % 256, action // 256
    for c in range(1, 5):
        code |= (rest % VECTOR_BASE) << (8 * c)
        rest //= VECTOR_BASE
    return code


# -- the state read by every rule module ----------------------------------------------------


@njit_inline
def field_count(st, k):
    """The fields of peninsula ``k``: two a tile (§3)."""
    return 2 * st[S_LEN + k]


@njit_inline
def violation(st, code):
    """Record the first §7 violation of the game."""
    if st[S_VIOLATION] == 0:
        st[S_VIOLATION] = code
