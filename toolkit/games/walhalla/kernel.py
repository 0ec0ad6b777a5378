"""Walhalla, the Numba fast path: the game's state machine.

Same rules, same random draws and same option order as ``reference.py``; the tests check both produce
identical games.  Rules, tiles and dragons arrive as one integer vector (:func:`to_kernel`).  The kernel
runs on the decision-point protocol (``docs/architecture.md``, "The game protocol"): ``core/driver``
builds ``play_game`` from :func:`start`, :func:`advance`, :func:`count`, :func:`nth`, :func:`options`,
:func:`apply`, :func:`choose`, :func:`check_step`, :func:`check_end` and :func:`record`, and plays
``random`` (one ``below(n)`` from the seat's decision stream at a decision point with n >= 2 options,
nothing with one) itself.

Where things are
----------------
Here: the layouts of the rule vector (``P_*``), the state (``STATE``), the policies' scratch
(``SCRATCH``) and the result (``COLUMNS``); the protocol's functions, whose :func:`advance` and
:func:`apply` step through the game (W-3 .. W-12); :func:`choose`, by policy id; last the wiring
(``finish_kernel``).  Beside it, each reading this module's layouts and imported at its end:

- ``deal.py``: the set-up (W-2) and the action deck (W-5.6);
- ``turn.py``: a turn's rules (W-4 .. W-6): boarding, the fjords, disembarking, combat;
- ``raid_end.py``: the end of a raid (W-7 .. W-11), DP-8's and DP-9's count vectors among it;
- ``heuristics.py``: ``greedy`` and ``lookahead`` (``policies.py``'s, in Numba), ``evaluate``, ``determinize``;
- ``invariants.py``: the §7 checks;
- ``benchmarks/notes/walhalla.md``: the measurements behind this module's settings.

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

The automatic steps between them (``advance``): a turn's dragon (W-4.1), the Vikings disembarking
without a candidate, an uncancelled Axe's fight, the card reveal and the raid's scoring (W-7.2 .. W-9),
the preparation (W-10) and the heroes; ``apply`` may draw chance (a cult place's cards, W-5.4).

Design metrics
--------------
Four columns follow ``plies``, counted as in ``reference.py`` (whose docstring gives the reasons):

- ``decisions``: the §5 decision points presented, every one of DP-1..DP-9 when its trigger holds, a
  single option included; it equals ``plies``.  :func:`present` counts each one when ``advance`` reaches
  it, for every policy.  The lookahead's rollouts play in their own world (``scratch[W_WORLD:]``), so
  their decision points never reach the real game's counters.
- ``options``: the options of those decision points, summed (the random policy's list, §5's canonical
  order); DP-8 and DP-9 count their count vectors with ``raid_end.nth_vector``.
- ``lead_changes`` and ``decisive_turn`` (``toolkit.core.lead``): after each turn of §6 (one dragon drawn,
  the rollouts' turns excluded) the lead measure :func:`lead_measure`, each seat's VP so far, goes to
  ``lead_update`` once everything the turn triggered is resolved, i.e. just before the next turn begins,
  or at the end of the game: the turn that ends a raid is measured after the raid's scoring (W-8, or W-9
  after the last raid) and the preparation (W-7.3), so the final scoring is seen.  Still exactly one
  update per turn of ``turns``.  The tracker lives in ``st`` (``S_LEAD``, ``S_LEAD_VALUES``).
"""

from __future__ import annotations

import numpy as np

from toolkit.core.driver import index_of, make_calls
from toolkit.core.jit import njit, njit_inline, njit_no_nrt
from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.core.wiring import finish_kernel, state_entry

MAX_SEATS = 4
MAX_RAIDS = 5
MAX_FIELDS = 16  # per peninsula
N_CARDS = 5  # card types: axe, shield, horn, walhalla, plunder
AXE, SHIELD, HORN, WCARD, PLUNDER = range(5)
VILLAGE, FOREST, CULT, WHEAT = range(4)
N_TILES = 18
N_DRAGONS = 12
MAX_DECK = N_CARDS * 40
N_SOURCES = 6  # VP sources, reference.VP_SOURCES

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
LOOKAHEAD = 2  # policy id of lookahead (its sample count above POLICY_BITS)
POLICY_BITS = 8

# -- result columns ------------------------------------------------------------------------
SEAT_FIELDS = ("score", "win", "axes", "shields", "to_walhalla", "heroes_lost", "landings", "cards_sold",
               "vp_peninsula", "vp_wheat", "vp_forest", "vp_fields", "vp_walhalla", "vp_plunder",
               "walhalla_end", "fields_end")
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


def to_kernel(rules):
    from toolkit.games.walhalla.data import CARD_TYPES
    from toolkit.games.walhalla.rules import DRAW_18

    tiles, dragons = rules.tiles, rules.dragons
    ip = np.zeros(N_PARAMS, np.int64)
    ip[P_PLAYERS], ip[P_RAIDS], ip[P_VIKINGS] = rules.num_players, rules.raids, rules.vikings_per_colour
    ip[P_START_MIDGARD], ip[P_FROM_MIDGARD] = rules.start_midgard, rules.initial_walhalla_source == "midgard"
    ip[P_INITIAL_CARDS], ip[P_FOREST_VP], ip[P_CULT_CARDS] = rules.initial_action_cards, rules.forest_vp, \
        rules.cult_cards
    ip[P_VILLAGE_BONUS], ip[P_LANDING_MANDATORY] = rules.village_bonus, rules.landing_mandatory
    ip[P_LOSES_HERO], ip[P_HORN], ip[P_PLUNDER] = rules.winner_loses_hero, rules.horn_strength, rules.plunder_vp
    ip[P_WCARD_BONUS], ip[P_SELL] = rules.walhalla_card_bonus, rules.sell_cards_for_vikings
    ip[P_FIELD_VP], ip[P_ROUND_UP] = rules.final_vp_per_occupied_field, rules.tie_rounding == "up"
    ip[P_ELIGIBLE_MIN], ip[P_START_RANDOM] = rules.peninsula_eligibility_min_vikings, rules.start_player == "random"
    ip[P_TIEBREAK] = rules.tiebreak == "walhalla_then_fields"
    ip[P_DRAW18] = rules.peninsula_tiles == DRAW_18
    if rules.peninsula_tiles != DRAW_18:
        ip[P_LENGTHS:P_LENGTHS + 3] = rules.peninsula_tiles
    ip[P_DECK:P_DECK + N_CARDS] = [rules.action_deck[name] for name in CARD_TYPES]
    ip[P_REINFORCE:P_REINFORCE + rules.num_players] = rules.reinforcement_table
    ip[P_WALHALLA_VP:P_WALHALLA_VP + 2] = rules.walhalla_final_vp
    ip[P_TILE_TYPE:P_TILE_TYPE + 2 * N_TILES] = tiles.tile_types.ravel()
    ip[P_TILE_VALUE:P_TILE_VALUE + 2 * N_TILES] = tiles.tile_values.ravel()
    ip[P_DRAGON_COLOUR:P_DRAGON_COLOUR + N_DRAGONS] = dragons.dragon_colour
    ip[P_DRAGON_SEAT:P_DRAGON_SEAT + N_DRAGONS] = dragons.dragon_seat
    return ip



def policy_ids(policies) -> np.ndarray:
    """Policy names -> ``[ids of seats 0..3, their sample counts]``; a ``lookahead`` id carries its sample
    count too (``2 + (samples << POLICY_BITS)``), since ``choose`` sees only the seat's id."""
    from toolkit.games.walhalla.policies import parse_policy

    out = np.zeros(2 * MAX_SEATS, np.int64)
    for seat, name in enumerate(policies):
        base, samples = parse_policy(name)
        out[seat], out[MAX_SEATS + seat] = POLICY_ID[base] + (samples << POLICY_BITS), samples
    return out


# ------------------------------------------------------------------------ geometry (§3)


@njit_inline
def field_count(st, k):
    return 2 * st[S_LEN + k]


# ------------------------------------------------------------------------ design metrics


@njit_inline
def lead_measure(ip, st, values):
    """The lead measure after a turn (module docstring, "Design metrics"): each seat's VP so far."""
    for p in range(ip[P_PLAYERS]):
        values[p] = st[S_VP + p]


@njit_inline
def lead_step(ip, st):
    """The lead after the previous turn, everything it triggered resolved (module docstring)."""
    values = st[S_LEAD_VALUES:S_LEAD_VALUES + MAX_SEATS]
    lead_measure(ip, st, values)
    lead_update(st[S_LEAD:S_LEAD + LEAD_FIELDS], values, ip[P_PLAYERS], st[S_TURNS])


# ------------------------------------------------------------------------ §7 checks
#
# The checks are invariants.py's; the steps that check themselves record through violation.


@njit_inline
def violation(st, code):
    """Record the first §7 violation of the game."""
    if st[S_VIOLATION] == 0:
        st[S_VIOLATION] = code


# ------------------------------------------------------------------------ the protocol (one game)
#
# The decision-point protocol of docs/architecture.md: start, advance (the automatic steps and chance up to
# the next decision point), count / nth / options, apply, choose (greedy and lookahead, heuristics.py;
# random is the driver's), check_step / check_end (§7, invariants.py) and record.  ``st`` (STATE) holds the
# game and where it stands.


@njit_inline
def present(st, n_options):
    """A decision point of §5 is presented with ``n_options`` options: one ply (the ``plies`` and
    ``decisions`` columns) and its options (the ``options`` column)."""
    st[S_N] = n_options
    st[S_PLIES] += 1
    st[S_OPTIONS] += n_options


@njit_inline
def decide_at(st, seat, dp, n_options):
    """The decision point ``dp`` (DP-1 .. DP-7) of ``seat`` with ``n_options`` options (:func:`present`);
    returns the seat, for ``advance``."""
    present(st, n_options)
    st[S_SEAT] = seat
    st[S_PHASE] = dp
    return seat


@njit_no_nrt
def start(params, st, rs):
    """W-2: the set-up (chance from stream 0); then the first raid's first turn is due."""
    for q in range(STATE_SIZE):
        st[q] = 0
    lead_reset(st[S_LEAD:S_LEAD + LEAD_FIELDS])
    setup(params, st, rs)
    st[S_ACTIVE] = st[S_START]
    st[S_PHASE] = PH_TURN


@njit_inline
def _offer_vectors(ip, st, i, p, dp):
    """DP-8 or DP-9 (``dp``) to seat ``p``, the ``i``-th from the start player: its count vectors are
    counted (:func:`present`)."""
    st[S_I] = i
    st[S_SEAT] = p
    st[S_PHASE] = dp
    limits = st[S_TMP:S_TMP + N_CARDS]
    group_end, group_cap, total_cap = vector_rule(ip, st, limits)
    present(st, nth_vector(limits, group_end, group_cap, total_cap, -1, st[S_TMP + 8:S_TMP + 16]))


@njit_inline
def advance(params, st, rs):
    """The automatic steps and chance (W-3 .. W-10) up to the next decision point: returns the seat to
    decide, or -1 at the end of the game (in a lookahead's world: at the end of the raid's scoring)."""
    ip = params
    n = ip[P_PLAYERS]
    while True:
        phase = st[S_PHASE]
        if phase <= DP_9:
            return st[S_SEAT]
        if phase == PH_LAND:  # W-5: the next Viking aboard, bow first
            j = st[S_J]
            if j == 3:
                st[S_PHASE] = PH_TURN_END
                continue
            p = st[S_ABOARD + j]
            if p < 0:
                st[S_J] = j + 1
                continue
            q = st[S_BASE] + 1 + j
            f = st[S_FJORD]
            n_cand = 0
            for k in (f - 1, f):  # the left peninsula first
                if 0 <= k <= 2 and q <= field_count(st, k) and st[S_OCC + MAX_FIELDS * k + q - 1] != p:
                    st[S_CAND + n_cand] = k
                    n_cand += 1
            if n_cand == 0:
                st[S_MIDGARD + p] += 1
                st[S_ABOARD + j] = -1
                st[S_J] = j + 1
                continue
            st[S_N_CAND] = n_cand
            return decide_at(st, p, DP_4, n_cand + (0 if ip[P_LANDING_MANDATORY] == 1 else 1))
        if phase == PH_TURN:
            if raid_over(ip, st):  # W-7: the raid's scoring begins with the card phase
                st[S_LAST] = 1 if st[S_RAID] == ip[P_RAIDS] - 1 else 0
                st[S_RAIDS] += 1
                for i in range(N_CARDS * MAX_SEATS):
                    st[S_LAID + i] = 0
                st[S_I] = 0
                st[S_PHASE] = PH_CARDS
                continue
            if st[S_TURNS] > 0 and st[S_ROLLOUT] == 0:  # the lead after the previous turn
                lead_step(ip, st)
            active = st[S_ACTIVE]  # W-4.1: the dragon
            st[S_TURNS] += 1
            st[S_TURNS_RAID + st[S_RAID]] += 1
            d = st[S_DRAGONS + st[S_DRAGON_HEAD]]
            st[S_DRAGON_HEAD] += 1
            colour, cseat = ip[P_DRAGON_COLOUR + d], ip[P_DRAGON_SEAT + d]
            st[S_COLOUR] = colour
            st[S_CSEAT] = cseat
            for j in range(3):
                st[S_ABOARD + j] = -1
            midgard = st[S_MIDGARD + active]
            if midgard >= 1:  # DP-1: the seat sets by bitmask, ascending
                n_opts = 0
                for mask in range(8):
                    if boardable(mask, cseat, colour, active, midgard):
                        n_opts += 1
                return decide_at(st, active, DP_1, n_opts)
            st[S_PHASE] = PH_COLOUR
            continue
        if phase == PH_COLOUR:  # W-4.3: DP-2
            colour = st[S_COLOUR]
            if colour != st[S_ACTIVE] and colour < n and st[S_MIDGARD + colour] >= 1:
                return decide_at(st, colour, DP_2, 2)
            st[S_PHASE] = PH_FJORD
            continue
        if phase == PH_FJORD:  # DP-3
            legal = legal_mask(st)
            if legal == 0:  # cannot happen with lengths 5..8
                for j in range(3):
                    if st[S_ABOARD + j] >= 0:
                        st[S_MIDGARD + st[S_ABOARD + j]] += 1
                        st[S_ABOARD + j] = -1
                st[S_PHASE] = PH_TURN_END
                continue
            st[S_LEGAL] = legal
            return decide_at(st, st[S_ACTIVE], DP_3,
                             (legal & 1) + ((legal >> 1) & 1) + ((legal >> 2) & 1) + ((legal >> 3) & 1))
        if phase == PH_TURN_END:
            if st[S_CHECK] == 1:
                violation(st, check_between_turns(ip, st))
            st[S_ACTIVE] = (st[S_ACTIVE] + 1) % n
            st[S_PHASE] = PH_TURN
            continue
        if phase == PH_COMBAT:  # W-6 on S_FIELD: DP-5
            attacker = st[S_ABOARD + st[S_J]]
            if st[S_CHECK] == 1 and st[S_OCC + MAX_FIELDS * st[S_FIELD] + st[S_FIELD + 1]] == attacker:
                violation(st, INV_FIELDS)
            st[S_AXE] = 0
            st[S_AXES_PLAYED] = 0
            st[S_SHIELDS_PLAYED] = 0
            if st[S_HAND + N_CARDS * attacker + AXE] >= 1:
                return decide_at(st, attacker, DP_5, 2)
            st[S_PHASE] = PH_FIGHT
            continue
        if phase == PH_SHIELD:  # DP-6
            defender = st[S_OCC + MAX_FIELDS * st[S_FIELD] + st[S_FIELD + 1]]
            if st[S_AXE] == 1 and st[S_HAND + N_CARDS * defender + SHIELD] >= 1:
                return decide_at(st, defender, DP_6, 2)
            st[S_PHASE] = PH_FIGHT
            continue
        if phase == PH_FIGHT:  # an uncancelled Axe wins; else DP-7
            if st[S_AXE] == 1:
                resolve_combat(ip, st, rs, True)
                continue
            st[S_DEF_CHOICES] += 1
            return decide_at(st, st[S_OCC + MAX_FIELDS * st[S_FIELD] + st[S_FIELD + 1]], DP_7, 2)
        if phase == PH_CARDS:  # W-7.2: DP-8 from the start player clockwise, then everything revealed
            i = st[S_I]
            while i < n:
                p = (st[S_START] + i) % n
                h = S_HAND + N_CARDS * p
                if st[h + HORN] + (0 if st[S_LAST] == 1 else st[h + WCARD]) + st[h + PLUNDER] > 0:
                    break
                i += 1
            if i < n:
                _offer_vectors(ip, st, i, p, DP_8)
                return p
            reveal_cards(ip, st)
            if st[S_LAST] == 1:
                final_scoring(ip, st)
            else:
                peninsula_scoring(ip, st)
            st[S_PHASE] = PH_SCORED
            continue
        if phase == PH_SCORED:
            if st[S_ROLLOUT] == 1:
                return -1
            if st[S_LAST] == 1:
                st[S_PHASE] = PH_RAID_END
            else:
                preparation(ip, st, rs)
                st[S_I] = 0
                st[S_PHASE] = PH_SELL
            continue
        if phase == PH_SELL:  # W-10.4: DP-9 from the new start player clockwise, then the heroes
            i = st[S_I]
            if ip[P_SELL] == 1:
                while i < n:
                    p = (st[S_START] + i) % n
                    held = 0
                    for c in range(N_CARDS):
                        held += st[S_HAND + N_CARDS * p + c]
                    if held > 0 and st[S_ASGARD + p] > 0:
                        break
                    i += 1
            else:
                i = n
            if i < n:
                _offer_vectors(ip, st, i, p, DP_9)
                return p
            heroes(ip, st)
            st[S_PHASE] = PH_RAID_END
            continue
        if phase == PH_RAID_END:
            if st[S_CHECK] == 1:
                violation(st, check_between_turns(ip, st))
            if st[S_LAST] == 1:
                if st[S_TURNS] > 0:  # the last turn's lead, after the final scoring (W-9)
                    lead_step(ip, st)
                st[S_PHASE] = PH_OVER
                return -1
            st[S_RAID] += 1
            st[S_ACTIVE] = st[S_START]
            st[S_PHASE] = PH_TURN
            continue
        return -1  # PH_OVER


kind = state_entry("kind", S_PHASE, "The §5 kind of the current decision point: 1 .. 9 (DP-1 .. DP-9).")
count = state_entry("count", S_N, "The number of options of the current decision point (counted when presented).")


@njit_inline
def nth(params, st, i):
    """The ``i``-th option's code, in the spec's order (module docstring, "Decision points")."""
    phase = st[S_PHASE]
    if phase == DP_4:
        return st[S_CAND + i] if i < st[S_N_CAND] else STAY
    if phase == DP_3:
        return nth_fjord(st[S_LEGAL], i)
    if phase == DP_1:
        active = st[S_ACTIVE]
        cseat, colour, midgard = st[S_CSEAT], st[S_COLOUR], st[S_MIDGARD + active]
        for mask in range(8):
            if boardable(mask, cseat, colour, active, midgard):
                if i == 0:
                    return mask
                i -= 1
        return -1
    if phase <= DP_7:  # DP-2, DP-5, DP-6, DP-7: the first or the second of two
        return i
    limits = st[S_TMP:S_TMP + N_CARDS]
    v = st[S_TMP + 8:S_TMP + 8 + N_CARDS]
    group_end, group_cap, total_cap = vector_rule(params, st, limits)
    nth_vector(limits, group_end, group_cap, total_cap, i, v)
    return pack_vector(v)


@njit_inline
def options(params, st, out):
    """The current decision point's option codes in the spec's order into ``out``; returns their number."""
    phase = st[S_PHASE]
    if phase >= DP_8:
        return vector_options(params, st, out)
    n = st[S_N]
    for i in range(n):
        out[i] = nth(params, st, i)
    return n


@njit_inline
def _play_card(st, seat, card, played, tally):
    """DP-5 / DP-6: the seat plays an Axe or a Shield (``card``) from its hand into this combat
    (``st[played]``), counted in its tally at ``st[tally + seat]``."""
    st[played] = 1
    st[S_HAND + N_CARDS * seat + card] -= 1
    st[tally + seat] += 1


@njit_inline
def apply(params, st, rs, option):
    """Carry out ``option`` (a code of :func:`nth`) at the current decision point (a landing may draw
    cards: chance)."""
    ip = params
    phase = st[S_PHASE]
    seat = st[S_SEAT]
    if phase == DP_4:  # a peninsula, or STAY
        if option == STAY:
            st[S_MIDGARD + seat] += 1
            landed(st)
            return
        j = st[S_BASE] + st[S_J]
        if st[S_OCC + MAX_FIELDS * option + j] < 0:
            occupy(ip, st, rs, seat, option, j)
            landed(st)
        else:
            st[S_FIELD] = option
            st[S_FIELD + 1] = j
            st[S_PHASE] = PH_COMBAT
    elif phase == DP_3:  # W-4.4: moor in fjord ``option``
        st[S_BASE] = 3 * st[S_MOORED + option]
        st[S_MOORED + option] += 1
        st[S_FJORD] = option
        st[S_J] = 0
        st[S_PHASE] = PH_LAND
    elif phase == DP_1:  # the seats of the bitmask ``option``
        for j in range(3):
            if (option >> j) & 1 == 1:
                st[S_ABOARD + j] = seat
                st[S_MIDGARD + seat] -= 1
        st[S_PHASE] = PH_COLOUR
    elif phase == DP_2:  # 0 board, 1 decline
        if option == 0:
            st[S_ABOARD + st[S_CSEAT]] = seat
            st[S_MIDGARD + seat] -= 1
        st[S_PHASE] = PH_FJORD
    elif phase == DP_5:  # 0 play an Axe, 1 decline
        if option == 0:
            st[S_AXE] = 1
            _play_card(st, seat, AXE, S_AXES_PLAYED, S_AXES)
        st[S_PHASE] = PH_SHIELD
    elif phase == DP_6:  # 0 play a Shield, 1 decline
        if option == 0:
            st[S_AXE] = 0
            _play_card(st, seat, SHIELD, S_SHIELDS_PLAYED, S_SHIELDS)
        st[S_PHASE] = PH_FIGHT
    elif phase == DP_7:  # 0 the defender wins, 1 the attacker wins
        if option == 0:
            st[S_DEF_WIN] += 1
        resolve_combat(ip, st, rs, option == 1)
    elif phase == DP_8:  # the vector (h0, h1, h2, w, pl) laid, face down
        h = S_HAND + N_CARDS * seat
        for c in range(N_CARDS):
            st[S_LAID + N_CARDS * seat + c] = vector_entry(option, c)
        st[h + HORN] -= vector_entry(option, 0) + vector_entry(option, 1) + vector_entry(option, 2)
        st[h + WCARD] -= vector_entry(option, 3)
        st[h + PLUNDER] -= vector_entry(option, 4)
        st[S_I] += 1
        st[S_PHASE] = PH_CARDS
    else:  # DP-9: the vector (axe, shield, horn, walhalla, plunder) sold
        sold = 0
        for c in range(N_CARDS):
            v = vector_entry(option, c)
            st[S_HAND + N_CARDS * seat + c] -= v
            st[S_DISCARD + c] += v
            sold += v
        st[S_ASGARD + seat] -= sold
        st[S_MIDGARD + seat] += sold
        st[S_SOLD + seat] += sold
        if st[S_CHECK] == 1 and st[S_ASGARD + seat] < 0:
            violation(st, INV_REINFORCEMENT)
        st[S_I] += 1
        st[S_PHASE] = PH_SELL


# one compiled call of each (core.driver.make_calls), made here for the lookahead's rollouts (heuristics.py)
# and kept by finish_kernel: one pair for the game, not two (benchmarks/notes/walhalla.md)
advance_called, apply_called = make_calls(advance, apply)


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (policy 1) or ``lookahead`` (2 + samples << POLICY_BITS; greedy but at DP-3): the index
    of the chosen option (``random`` is the driver's)."""
    if st[S_PHASE] == DP_3 and (policy & ((1 << POLICY_BITS) - 1)) == LOOKAHEAD:
        return lookahead_fjord(params, st, rs, seat, st[S_LEGAL], policy >> POLICY_BITS, scratch)
    return choose_plain(params, policy, st, rs, seat, opts, n, scratch)


@njit
def choose_plain(params, policy, st, rs, seat, opts, n, scratch):
    """:func:`choose` without the ``lookahead`` (``core.driver.make_play_game``): ``greedy``, the plain
    copy's; a line-up with a ``lookahead`` seat runs the whole copy (:func:`lookahead_in`)."""
    return index_of(opts, n, greedy_option(params, st, rs, seat, scratch))  # greedy's option is listed


def lookahead_in(policies) -> bool:
    """Whether a line-up (:func:`policy_ids`) has a ``lookahead`` seat, which only the whole copy of the
    driver plays (:func:`choose_plain`, ``core.driver.copy_for``)."""
    codes = policies[:MAX_SEATS]
    return bool(((codes > 0) & (codes & ((1 << POLICY_BITS) - 1) == LOOKAHEAD)).any())  # mcts: negative


@njit_no_nrt
def record(params, st, row):
    """The §6 record of a finished game into ``row`` (COLUMNS): W-9.4 the winners, the tallies."""
    ip = params
    n = ip[P_PLAYERS]
    for i in range(row.shape[0]):
        row[i] = 0
    best = st[S_VP]
    for p in range(1, n):
        best = max(best, st[S_VP + p])
    top = 0
    for p in range(n):
        if st[S_VP + p] == best:
            top |= 1 << p
    if ip[P_TIEBREAK] == 1 and top & (top - 1) != 0:
        for key in range(2):
            most = -1
            for p in range(n):
                if (top >> p) & 1 == 1:
                    v = st[S_WALHALLA + p] if key == 0 else fields_of(st, p)
                    most = max(most, v)
            for p in range(n):
                if (top >> p) & 1 == 1:
                    v = st[S_WALHALLA + p] if key == 0 else fields_of(st, p)
                    if v != most:
                        top &= ~(1 << p)
    winners = 0
    winner = -1
    for p in range(n):
        if (top >> p) & 1 == 1:
            winners += 1
            winner = p
    row[C_WINNER] = winner if winners == 1 else -1
    row[C_N_WINNERS] = winners
    row[C_RESULT] = 0 if winners == 1 else 1
    row[C_START] = st[S_FIRST]
    row[C_TURNS] = st[S_TURNS]
    row[C_PLIES] = st[S_PLIES]
    row[C_DECISIONS] = st[S_PLIES]  # every ply is a §5 decision point presented
    row[C_OPTIONS] = st[S_OPTIONS]
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(st[S_LEAD:S_LEAD + LEAD_FIELDS], row[C_WINNER],
                                                            st[S_TURNS])
    row[C_RAIDS] = st[S_RAIDS]
    row[C_COMBATS] = st[S_COMBATS]
    row[C_ATT_WINS] = st[S_ATT_WINS]
    row[C_DEF_CHOICES] = st[S_DEF_CHOICES]
    row[C_DEF_WIN] = st[S_DEF_WIN]
    for k in range(3):
        row[C_LENGTHS + k] = st[S_LEN + k]
    for r in range(MAX_RAIDS):
        row[C_TURNS_RAID + r] = st[S_TURNS_RAID + r]
        row[C_COMBATS_RAID + r] = st[S_COMBATS_RAID + r]
    for p in range(n):
        seat_values = (st[S_VP + p], (top >> p) & 1, st[S_AXES + p], st[S_SHIELDS + p], st[S_TO_WALHALLA + p],
                       st[S_HEROES + p], st[S_LANDINGS + p], st[S_SOLD + p])
        for i in range(8):
            row[C_SEAT + MAX_SEATS * i + p] = seat_values[i]
        for s in range(N_SOURCES):
            row[C_SEAT + MAX_SEATS * (8 + s) + p] = st[S_VP_FROM + MAX_SEATS * s + p]
        row[C_SEAT + MAX_SEATS * 14 + p] = st[S_WALHALLA + p]
        row[C_SEAT + MAX_SEATS * 15 + p] = fields_of(st, p)


# ------------------------------------------------------------------------ the state machine's other modules
#
# Imported last: each reads the layouts and helpers above, and the functions here find what they call of
# them as globals when Numba compiles them (module docstring, "Where things are").
from toolkit.games.walhalla.deal import setup  # noqa: E402
from toolkit.games.walhalla.turn import boardable, landed, legal_mask, nth_fjord, occupy, resolve_combat  # noqa: E402
from toolkit.games.walhalla.raid_end import (  # noqa: E402
    fields_of, final_scoring, heroes, nth_vector, pack_vector, peninsula_scoring, preparation, raid_over, reveal_cards,
    vector_entry, vector_options, vector_rule)
from toolkit.games.walhalla.invariants import check_between_turns  # noqa: E402
from toolkit.games.walhalla.heuristics import greedy_option, lookahead_fjord  # noqa: E402
# the protocol's evaluation, determinization and §7 checks, for finish_kernel (core.wiring.PROTOCOL)
from toolkit.games.walhalla.heuristics import determinize, evaluate  # noqa: E402,F401
from toolkit.games.walhalla.invariants import check_end, check_step  # noqa: E402,F401

RS_SIZE = 2 * N_STREAMS  # the streams: chance and one per seat, then a second set for the rollouts
# the plain and random copies inline advance and apply (core.driver.make_play_game): faster random seats at no
# cost in cold compile (benchmarks/notes/walhalla.md, "The plain and random copies inline advance and apply")
INLINE_STEPS = True
# returns, advance_called, apply_called, mcts, play_game, WORK_SIZE and play_many (core.wiring)
# The OpenSpiel bridge's actions: an option code is a count vector of 8 bits an entry (up to 2**40), which
# OpenSpiel's int cannot hold, so it is renumbered in base 41 above its first entry (entries 1.. are <= 40)
VECTOR_BASE = 41
ACTION_BOUND = 256 * VECTOR_BASE ** 4


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
finish_kernel(globals())
