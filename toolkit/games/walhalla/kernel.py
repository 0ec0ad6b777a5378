"""Walhalla, the Numba fast path.

Same rules, same random draws and same option order as ``reference.py``; the
tests check both produce identical games.  Rules, tiles and dragons arrive as
one integer vector (:func:`to_kernel`).  The kernel runs on the decision-point
protocol (``docs/architecture.md``, "The game protocol"): ``core/driver``
builds ``play_game`` from :func:`start`, :func:`advance`, :func:`count`,
:func:`nth`, :func:`options`, :func:`apply`, :func:`choose`,
:func:`check_step`, :func:`check_end` and :func:`record`, and plays
``random`` (one ``below(n)`` from the seat's decision stream at a decision
point with n >= 2 options, nothing with one) itself.

State
-----
One ``int64`` vector ``st``, laid out by ``STATE`` (``core.layout.Layout``;
``S_<FIELD>`` is field ``<field>``'s offset): the components and tallies
(VP, Midgard, Asgard, Walhalla per seat, the hands ``hand[5 p + card]``, the
discard pile, peninsula lengths and tips, moored boats, the dragon seats
``aboard``, the deck and dragon heads, the start player, the raid, the
``turns`` / ``plies`` / ``options`` counters and the §6 tallies, the card
phase's horns and Walhalla cards), the §7 check state (``check``,
``violation``, ``prev_vp``), then where the game stands between decision
points: ``phase`` (a decision point's §5 number 1..9, ``PH_OVER``, or an
automatic step ``PH_*``), ``seat`` to decide, ``n`` its options, the turn's
``active`` player and dragon (``colour``, ``cseat``), the ``legal`` fjords,
the chosen ``fjord`` and its ``base`` position, the disembarking dragon
seat ``j``, DP-4's candidates (``cand``, ``n_cand``), the combat's ``field``
and cards (``axe``, ``axes_played``, ``shields_played``), the card phase's or
the sale's player ``i`` (from the start player), ``last`` (the raid scored is
the last), ``rollout`` (a lookahead world), the cards ``laid`` in DP-8, the
rules' scratch ``tmp``, the lead tracking (``lead``, ``lead_values``), and
last the dragon deck, the fields (``ftype``, ``fvalue``, ``occ``: field j of
peninsula k is entry ``16 k + j``, at most 8 tiles, 16 fields) and the deck.

Decision points and option codes
--------------------------------
The spec's §5 decision points, each one decision point of the protocol
(``kind`` is its number), options in the spec's order, codes as ``apply``
takes them:

- DP-1 board: the boardable seat sets, ascending by bitmask; code = the
  bitmask (bit j: dragon seat j, 0 bow).
- DP-2 colour seat: 0 board, 1 decline.
- DP-3 fjord: the legal fjords ascending; code = the fjord 0..3.
- DP-4 landing: the left candidate, the right one, then stay (if
  ``landing_mandatory`` is off); code = the peninsula 0..2, ``STAY`` = 3.
- DP-5 axe: 0 play, 1 decline.  DP-6 shield: 0 play, 1 decline.
- DP-7 fight: 0 defender wins, 1 attacker wins.
- DP-8 raid cards (h0, h1, h2, w, pl) and DP-9 sale (axe, shield, horn,
  walhalla, plunder): the count vectors in lexicographic order; code = the
  vector packed, entry c in bits ``8 c .. 8 c + 7`` (entries <= 40).  Their
  number is counted when the decision point is presented (``n``), and
  ``nth`` walks to the i-th as the old kernel's random choice did, so
  ``random`` never lists them.  ``options`` lists at most ``MAX_OPTIONS``
  (4096): with more (only for hands of dozens of cards; a vector count is a
  product of hand sizes and reaches millions under extreme ``action_deck``
  values) it lists the first ``MAX_OPTIONS - 3`` and then those of greedy's
  candidates that come later, still in order -- every option ``greedy`` and
  ``lookahead`` can take, not every option.

The automatic steps between them (``advance``): a turn's dragon (W-4.1), the
Vikings disembarking without a candidate, an uncancelled Axe's fight, the
card reveal and the raid's scoring (W-7.2 .. W-9), the preparation (W-10)
and the heroes; ``apply`` may draw chance (a cult place's cards, W-5.4).
``greedy`` and ``lookahead`` are :func:`choose`: :func:`greedy_option` gives
greedy's option code at any decision point (its ties broken from the seat's
decision stream, as before), and a lookahead seat's DP-3 is
:func:`lookahead_fjord`, whose rollouts play the rest of the raid in their
own world (``rollout`` set: the protocol's steps stop after the raid's
scoring) with :func:`greedy_option` at every decision point.  A lookahead's
sample count travels in its policy id (``policy_ids``).

Checks
------
With ``check=True`` the §7 invariants are tested after setup, after every
turn and every raid (:func:`check_between_turns`), at every landing (7.2)
and inside the preparation (7.6-7.8); ``play_game`` returns the first
violated invariant's number.  The game runs these checks itself once
``st[S_CHECK]`` is set, which :func:`check_step` does at its first call
(the driver calls it only with ``check``), running the set-up's checks then
(:func:`check_step`).  §7.7's "every count dropped by the same m" is true by
construction of :func:`heroes`; the check tests the minimum.

Design metrics
--------------
Four columns follow ``plies``, counted as in ``reference.py`` (whose
docstring gives the reasons):

- ``decisions``: the §5 decision points presented, every one of DP-1..DP-9
  when its trigger holds, a single option included; it equals ``plies``.
  :func:`present` counts each one when ``advance`` reaches it, for every
  policy.  The lookahead's rollouts play in their own world
  (``scratch[W_WORLD:]``), so their decision points never reach the real
  game's counters.
- ``options``: the options of those decision points, summed (the random
  policy's list, §5's canonical order); DP-8 and DP-9 count their count
  vectors with :func:`nth_vector`.
- ``lead_changes`` and ``decisive_turn`` (``toolkit.core.lead``): after each
  turn of §6 (one dragon drawn, the rollouts' turns excluded) the lead
  measure :func:`lead_measure`, each seat's VP so far, goes to
  ``lead_update`` once everything the turn triggered is resolved, i.e.
  just before the next turn begins, or at the end of the game: the turn
  that ends a raid is measured after the raid's scoring (W-8, or W-9 after
  the last raid) and the preparation (W-7.3), so the final scoring is
  seen.  Still exactly one update per turn of ``turns``.  The tracker lives
  in ``st`` (``S_LEAD``, ``S_LEAD_VALUES``).
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.driver import make_calls
from toolkit.core.jit import njit, njit_inline, njit_no_nrt
from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lookahead import deal_unseen, make_lookahead
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.core.wiring import finish_kernel

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


# ------------------------------------------------------------------------ chance


@njit_inline
def present(st, n_options):
    """A decision point of §5 is presented with ``n_options`` options: one ply (the ``plies`` and
    ``decisions`` columns) and its options (the ``options`` column)."""
    st[S_N] = n_options
    st[S_PLIES] += 1
    st[S_OPTIONS] += n_options


@njit_no_nrt
def deal_deck(st, rs, counts_base):
    """The canonical deck from the counts at ``st[counts_base:]``, shuffled (setup and reshuffles)."""
    n = 0
    for c in range(N_CARDS):
        for _ in range(st[counts_base + c]):
            st[S_DECK + n] = c
            n += 1
    rng.shuffle(st, S_DECK, n, rs, 0)
    st[S_DECK_HEAD] = 0
    st[S_DECK_N] = n


@njit_no_nrt
def draw_card(st, rs, p):
    """W-5.6: an empty deck is rebuilt from the discard pile; with both empty nothing is drawn."""
    if st[S_DECK_N] == 0:
        total = 0
        for c in range(N_CARDS):
            total += st[S_DISCARD + c]
        if total == 0:
            return
        deal_deck(st, rs, S_DISCARD)
        for c in range(N_CARDS):
            st[S_DISCARD + c] = 0
    c = st[S_DECK + st[S_DECK_HEAD]]
    st[S_DECK_HEAD] += 1
    st[S_DECK_N] -= 1
    st[S_HAND + N_CARDS * p + c] += 1


@njit_no_nrt
def setup(ip, st, rs):
    """W-2, with the draws in the reference's order."""
    n = ip[P_PLAYERS]
    tmp = st[S_TMP:S_TMP + 32]
    if ip[P_DRAW18] == 1:
        combo = rng.below(rs, 0, 3)
        tmp[0], tmp[1], tmp[2] = (5, 5, 8) if combo == 0 else ((5, 6, 7) if combo == 1 else (6, 6, 6))
        for i in range(2, 0, -1):
            j = rng.below(rs, 0, i + 1)
            t = tmp[i]
            tmp[i] = tmp[j]
            tmp[j] = t
        for k in range(3):
            st[S_LEN + k] = tmp[k]
    else:
        for k in range(3):
            st[S_LEN + k] = ip[P_LENGTHS + k]
    for i in range(N_TILES):  # the tiles
        tmp[i] = i
    rng.shuffle(tmp, 0, N_TILES, rs, 0)
    used = 0
    for k in range(3):
        for i in range(st[S_LEN + k]):
            tile = tmp[used]
            used += 1
            a = 1 if rng.below(rs, 0, 2) == 1 else 0
            for side in range(2):
                f = S_FTYPE + MAX_FIELDS * k + 2 * i + side
                src = 2 * tile + (a if side == 0 else 1 - a)
                st[f] = ip[P_TILE_TYPE + src]
                st[f - S_FTYPE + S_FVALUE] = ip[P_TILE_VALUE + src]
        for j in range(MAX_FIELDS):
            st[S_OCC + MAX_FIELDS * k + j] = -1
    for base, first in ((S_INNER, 3), (S_OUTER, 6)):  # the tips
        for k in range(3):
            st[base + k] = first + k
        rng.shuffle(st, base, 3, rs, 0)
    asgard = ip[P_VIKINGS] - ip[P_START_MIDGARD] - 1
    midgard = ip[P_START_MIDGARD]
    if ip[P_FROM_MIDGARD] == 1:
        midgard -= 1
        asgard += 1
    for p in range(n):
        st[S_MIDGARD + p] = midgard
        st[S_ASGARD + p] = asgard
        st[S_WALHALLA + p] = 1
    for c in range(N_CARDS):  # the action cards
        st[S_DISCARD + c] = ip[P_DECK + c]
    deal_deck(st, rs, S_DISCARD)
    for c in range(N_CARDS):
        st[S_DISCARD + c] = 0
    for p in range(n):
        for _ in range(ip[P_INITIAL_CARDS]):
            draw_card(st, rs, p)
    for i in range(N_DRAGONS):  # the dragons
        st[S_DRAGONS + i] = i
    rng.shuffle(st, S_DRAGONS, N_DRAGONS, rs, 0)
    st[S_DRAGON_HEAD] = 0
    st[S_FIRST] = rng.below(rs, 0, n) if ip[P_START_RANDOM] == 1 else 0
    st[S_START] = st[S_FIRST]


# ------------------------------------------------------------------------ count vectors (DP-8, DP-9)


@njit_no_nrt
def nth_vector(limits, group_end, group_cap, total_cap, index, out):
    """The ``index``-th count vector (lexicographic, entry 0 first) with ``0 <= out[i] <= limits[i]``,
    ``sum(out[:group_end]) <= group_cap`` and ``sum(out) <= total_cap``; with ``index < 0`` it
    only counts them.  Returns the count (or ``index``)."""
    for i in range(N_CARDS):
        out[i] = 0
    count = 0
    while True:
        group = 0
        total = 0
        for i in range(N_CARDS):
            total += out[i]
            if i < group_end:
                group += out[i]
        if group <= group_cap and total <= total_cap:
            if count == index:
                return index
            count += 1
        i = N_CARDS - 1  # the odometer: the last entry turns fastest
        while i >= 0 and out[i] == limits[i]:
            out[i] = 0
            i -= 1
        if i < 0:
            return count
        out[i] += 1


@njit_inline
def pack_vector(v):
    """A count vector's option code: entry c in bits ``VEC_BITS * c`` on."""
    code = 0
    for c in range(N_CARDS):
        code |= v[c] << (VEC_BITS * c)
    return code


@njit_inline
def vector_entry(code, c):
    return (code >> (VEC_BITS * c)) & ((1 << VEC_BITS) - 1)


@njit_inline
def vector_rule(ip, st, limits):
    """The current DP-8 or DP-9's count vectors: their limits into ``limits``; returns
    ``(group_end, group_cap, total_cap)`` for :func:`nth_vector`."""
    p = st[S_SEAT]
    h = S_HAND + N_CARDS * p
    if st[S_PHASE] == DP_8:
        horns = st[h + HORN]
        limits[0], limits[1], limits[2] = horns, horns, horns
        limits[3] = 0 if st[S_LAST] == 1 else st[h + WCARD]
        limits[4] = st[h + PLUNDER]
        return 3, horns, 1 << 30
    for c in range(N_CARDS):
        limits[c] = st[h + c]
    return 0, 0, st[S_ASGARD + p]


# ------------------------------------------------------------------------ greedy (policies.py)


@njit_no_nrt
def worth(ip, st, p, horn_k, horn_amount, scratch):
    """policies.worth: majorities (``horn_amount`` added to p's strength on peninsula ``horn_k``),
    wheat, and the final field points in the last raid."""
    n = ip[P_PLAYERS]
    g = scratch[W_G:W_G + 16]
    strength = g[0:MAX_SEATS]
    eligible = g[4:4 + MAX_SEATS]
    vikings = g[8:8 + MAX_SEATS]
    total = 0
    fields = 0
    for k in range(3):
        for q in range(n):
            strength[q] = 0
            vikings[q] = 0
        for j in range(field_count(st, k)):
            o = st[S_OCC + MAX_FIELDS * k + j]
            if o >= 0:
                vikings[o] += 1
                strength[o] += 1
                kind = st[S_FTYPE + MAX_FIELDS * k + j]
                if kind == VILLAGE:
                    strength[o] += ip[P_VILLAGE_BONUS]
                if o == p:
                    fields += 1
                    if kind == WHEAT:
                        total += st[S_FVALUE + MAX_FIELDS * k + j]
        if k == horn_k:
            strength[p] += horn_amount
        for q in range(n):
            eligible[q] = 1 if vikings[q] >= ip[P_ELIGIBLE_MIN] else 0
        total += majority_gain(ip, strength, eligible, st[S_OUTER + k], st[S_INNER + k], p)
    if st[S_RAID] == ip[P_RAIDS] - 1:
        total += ip[P_FIELD_VP] * fields
    return total


@njit_no_nrt
def land_gain(ip, st, p, k, j, scratch):
    """policies.land_gain: the change in worth of p taking (k, j), plus the immediate effect."""
    before = worth(ip, st, p, -1, 0, scratch)
    f = S_OCC + MAX_FIELDS * k + j
    old = st[f]
    st[f] = p
    after = worth(ip, st, p, -1, 0, scratch)
    st[f] = old
    kind = st[S_FTYPE + MAX_FIELDS * k + j]
    gain = after - before
    if kind == FOREST:
        gain += ip[P_FOREST_VP]
    elif kind == CULT:
        gain += ip[P_CULT_CARDS]
    return gain


@njit_no_nrt
def option_value(ip, st, p, k, j, scratch):
    """policies.option_value: a defended field is worth 0 without an Axe in hand."""
    if st[S_OCC + MAX_FIELDS * k + j] >= 0 and st[S_HAND + N_CARDS * p + AXE] == 0:
        return 0
    return land_gain(ip, st, p, k, j, scratch)


@njit_no_nrt
def seat_net(ip, st, p, f, j, scratch):
    """policies.seat_net: best landing value - 1 at seat j of a dragon into fjord f (0: no field)."""
    q = 3 * st[S_MOORED + f] + 1 + j
    found = False
    top = 0
    for k in (f - 1, f):
        if 0 <= k <= 2 and q <= field_count(st, k) and st[S_OCC + MAX_FIELDS * k + q - 1] != p:
            v = option_value(ip, st, p, k, q - 1, scratch)
            if not found or v > top:
                top = v
            found = True
    return top - 1 if found else 0


@njit_no_nrt
def stake(ip, st, defender, k, j, scratch):
    """policies.stake: what the defender's worth loses without field (k, j)."""
    f = S_OCC + MAX_FIELDS * k + j
    with_it = worth(ip, st, defender, -1, 0, scratch)
    st[f] = -1
    without = worth(ip, st, defender, -1, 0, scratch)
    st[f] = defender
    return with_it - without


@njit_inline
def legal_mask(st):
    legal = 0
    for f in range(4):
        reach = 0
        for k in (f - 1, f):
            if 0 <= k <= 2:
                reach = max(reach, field_count(st, k))
        if 3 * st[S_MOORED + f] + 1 <= reach:
            legal |= 1 << f
    return legal


@njit_inline
def nth_fjord(legal, i):
    """The i-th (from 0) fjord whose bit is set in ``legal``."""
    for f in range(4):
        if (legal >> f) & 1 == 1:
            if i == 0:
                return f
            i -= 1
    return -1


@njit_no_nrt
def greedy_nets(ip, st, p, scratch):
    """seat_net for every legal fjord and dragon seat, into ``scratch[W_NET + 3 f + j]``."""
    legal = legal_mask(st)
    for f in range(4):
        if (legal >> f) & 1 == 1:
            for j in range(3):
                scratch[W_NET + 3 * f + j] = seat_net(ip, st, p, f, j, scratch)
    return legal


@njit_no_nrt
def greedy_option(ip, st, rs, seat, scratch):
    """The option code ``greedy`` (policies.py) takes at the current decision point (its ties broken
    with ``seat``'s decision stream); ``lookahead`` takes it too, but at DP-3."""
    phase = st[S_PHASE]
    if phase == DP_1:  # the set with the largest best-fjord total of seat values
        active = st[S_ACTIVE]
        cseat, colour, midgard = st[S_CSEAT], st[S_COLOUR], st[S_MIDGARD + active]
        legal = greedy_nets(ip, st, active, scratch)
        best, top, ties, idx = 0, 0, 1, 0
        for mask in range(8):
            if not boardable(mask, cseat, colour, active, midgard):
                continue
            value = -(1 << 40)
            for f in range(4):
                if (legal >> f) & 1 == 1:
                    total = 0
                    for j in range(3):
                        if (mask >> j) & 1 == 1:
                            total += scratch[W_NET + 3 * f + j]
                    value = max(value, total)
            take, ties = rng.best_of(rs, 1 + active, value, top, ties, idx == 0)
            if take:
                best, top = mask, value
            idx += 1
        return best
    if phase == DP_2:  # board if the coloured seat's landing values sum above 0
        colour = st[S_COLOUR]
        legal = greedy_nets(ip, st, colour, scratch)
        total = 0
        for f in range(4):
            if (legal >> f) & 1 == 1:
                total += scratch[W_NET + 3 * f + st[S_CSEAT]]
        return 0 if total > 0 else 1
    if phase == DP_3:  # the largest total landing value of its Vikings aboard
        active = st[S_ACTIVE]
        legal = st[S_LEGAL]
        greedy_nets(ip, st, active, scratch)
        best, top, ties, idx = 0, 0, 1, 0
        for f in range(4):
            if (legal >> f) & 1 == 1:
                value = 0
                for j in range(3):
                    if st[S_ABOARD + j] == active:
                        value += scratch[W_NET + 3 * f + j] + 1
                take, ties = rng.best_of(rs, 1 + active, value, top, ties, idx == 0)
                if take:
                    best, top = f, value
                idx += 1
        return best
    if phase == DP_4:  # the candidate of largest value; stay only if every candidate is below 0
        p = seat
        j = st[S_BASE] + st[S_J]
        n_cand = st[S_N_CAND]
        k0, k1 = st[S_CAND], st[S_CAND + 1]
        v0 = option_value(ip, st, p, k0, j, scratch)
        v1 = option_value(ip, st, p, k1, j, scratch) if n_cand == 2 else -(1 << 40)
        stays = st[S_N] > n_cand
        stay = -1
        if stays and max(v0, v1, stay) >= 0:
            stay = -2
        best, top, ties = k0, v0, 1
        if n_cand == 2:
            take, ties = rng.best_of(rs, 1 + p, v1, top, ties, False)
            if take:
                best, top = k1, v1
        if stays:
            take, ties = rng.best_of(rs, 1 + p, stay, top, ties, n_cand == 0)
            if take:
                best, top = STAY, stay
        return best
    if phase == DP_5:  # an Axe when the field is worth 2 or more
        return 0 if land_gain(ip, st, seat, st[S_FIELD], st[S_FIELD + 1], scratch) >= 2 else 1
    if phase == DP_6:  # a Shield when the field is worth 2 or more to keep
        return 0 if stake(ip, st, seat, st[S_FIELD], st[S_FIELD + 1], scratch) >= 2 else 1
    if phase == DP_7:  # the defender wins when the field is worth 2 or more to keep
        return 1 if stake(ip, st, seat, st[S_FIELD], st[S_FIELD + 1], scratch) < 2 else 0
    if phase == DP_8:  # every Plunder and Walhalla card; the Horns where they raise its worth most
        p = seat
        horns = st[S_HAND + N_CARDS * p + HORN]
        walhalla = 0 if st[S_LAST] == 1 else st[S_HAND + N_CARDS * p + WCARD]
        code = (walhalla << (VEC_BITS * 3)) | (st[S_HAND + N_CARDS * p + PLUNDER] << (VEC_BITS * 4))
        base = worth(ip, st, p, -1, 0, scratch)
        gain0 = worth(ip, st, p, 0, ip[P_HORN] * horns, scratch) - base
        gain1 = worth(ip, st, p, 1, ip[P_HORN] * horns, scratch) - base
        gain2 = worth(ip, st, p, 2, ip[P_HORN] * horns, scratch) - base
        if horns > 0 and max(gain0, gain1, gain2) > 0:
            at, top, ties = 0, gain0, 1
            take, ties = rng.best_of(rs, 1 + p, gain1, top, ties, False)
            if take:
                at, top = 1, gain1
            take, ties = rng.best_of(rs, 1 + p, gain2, top, ties, False)
            if take:
                at, top = 2, gain2
            code |= horns << (VEC_BITS * at)
        return code
    return 0  # DP-9: greedy sells nothing (the all-zero vector)


# ------------------------------------------------------------------------ W-4 .. W-6


@njit_inline
def field_count(st, k):
    return 2 * st[S_LEN + k]


@njit_no_nrt
def occupy(ip, st, rs, p, k, j):
    """W-5.4: the Viking takes the field and applies its immediate effect."""
    if st[S_CHECK] == 1 and (st[S_OCC + MAX_FIELDS * k + j] != -1 or j >= field_count(st, k)):
        violation(st, INV_FIELDS)  # §7.2: one Viking per field (and its own colour never attacked)
    st[S_OCC + MAX_FIELDS * k + j] = p
    st[S_LANDINGS + p] += 1
    kind = st[S_FTYPE + MAX_FIELDS * k + j]
    if kind == FOREST:
        st[S_VP + p] += ip[P_FOREST_VP]
        st[S_VP_FROM + 2 * MAX_SEATS + p] += ip[P_FOREST_VP]
    elif kind == CULT:
        for _ in range(ip[P_CULT_CARDS]):
            draw_card(st, rs, p)


@njit_no_nrt
def resolve_combat(ip, st, rs, attacker_won):
    """W-6.3-6.5: the fight on ``S_FIELD`` is decided; then the next Viking disembarks."""
    k, j = st[S_FIELD], st[S_FIELD + 1]
    attacker = st[S_ABOARD + st[S_J]]
    defender = st[S_OCC + MAX_FIELDS * k + j]
    winner = attacker if attacker_won else defender
    loser = defender if attacker_won else attacker
    st[S_WALHALLA + loser] += 1
    st[S_TO_WALHALLA + loser] += 1
    if ip[P_LOSES_HERO] == 1 and st[S_WALHALLA + winner] >= 1:
        st[S_WALHALLA + winner] -= 1
        st[S_ASGARD + winner] += 1
        st[S_HEROES + winner] += 1
    st[S_COMBATS] += 1
    st[S_COMBATS_RAID + st[S_RAID]] += 1
    if attacker_won:
        st[S_ATT_WINS] += 1
        st[S_OCC + MAX_FIELDS * k + j] = -1
        occupy(ip, st, rs, attacker, k, j)
    st[S_DISCARD + AXE] += st[S_AXES_PLAYED]
    st[S_DISCARD + SHIELD] += st[S_SHIELDS_PLAYED]
    landed(st)


@njit_inline
def landed(st):
    """The Viking at dragon seat ``S_J`` has disembarked: the next one's turn (W-4.5)."""
    st[S_ABOARD + st[S_J]] = -1
    st[S_J] += 1
    st[S_PHASE] = PH_LAND


@njit_inline
def boardable(mask, cseat, colour, active, midgard):
    """DP-1: may the active player fill the seats of ``mask``?"""
    if (mask >> cseat) & 1 == 1 and colour != active:
        return False
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) <= midgard


# ------------------------------------------------------------------------ W-7 .. W-11


@njit_inline
def share(ip, total, k):
    if ip[P_ROUND_UP] == 1:
        return (total + k - 1) // k
    return total // k


@njit_no_nrt
def majority_gain(ip, strength, eligible, first, second, p):
    """reference.majority_gains for player ``p``."""
    if eligible[p] == 0:
        return 0
    n = ip[P_PLAYERS]
    top = -1
    for q in range(n):
        if eligible[q] == 1 and strength[q] > top:
            top = strength[q]
    n_top = 0
    for q in range(n):
        if eligible[q] == 1 and strength[q] == top:
            n_top += 1
    if strength[p] == top:
        return share(ip, first + second, n_top) if n_top >= 2 else first
    if n_top >= 2:
        return 0
    runner = -1
    for q in range(n):
        if eligible[q] == 1 and strength[q] != top and strength[q] > runner:
            runner = strength[q]
    if strength[p] != runner:
        return 0
    n_runner = 0
    for q in range(n):
        if eligible[q] == 1 and strength[q] == runner:
            n_runner += 1
    return share(ip, second, n_runner)


@njit_no_nrt
def majority(ip, st, strength, eligible, first, second, source):
    """W-8.3 / W-9.3: every player's :func:`majority_gain`, added to VP and to the VP of ``source``."""
    for p in range(ip[P_PLAYERS]):
        g = majority_gain(ip, strength, eligible, first, second, p)
        st[S_VP + p] += g
        st[S_VP_FROM + source * MAX_SEATS + p] += g


@njit_no_nrt
def reveal_cards(ip, st):
    """W-7.2 after every DP-8: the cards laid (``S_LAID``) revealed together."""
    for p in range(ip[P_PLAYERS]):
        v = st[S_LAID + N_CARDS * p:S_LAID + N_CARDS * (p + 1)]
        gain = ip[P_PLUNDER] * v[4]
        st[S_VP + p] += gain
        st[S_VP_FROM + 5 * MAX_SEATS + p] += gain
        for k in range(3):
            st[S_HORNS + 3 * p + k] = ip[P_HORN] * v[k]
        st[S_WCARDS + p] = v[3]
        st[S_DISCARD + HORN] += v[0] + v[1] + v[2]
        st[S_DISCARD + WCARD] += v[3]
        st[S_DISCARD + PLUNDER] += v[4]


@njit_no_nrt
def peninsula_scoring(ip, st):
    """W-8: majorities, then wheat."""
    n = ip[P_PLAYERS]
    tmp = st[S_TMP:S_TMP + 32]
    strength = tmp[0:MAX_SEATS]
    eligible = tmp[4:4 + MAX_SEATS]
    vikings = tmp[8:8 + MAX_SEATS]
    for k in range(3):
        for p in range(n):
            strength[p] = st[S_HORNS + 3 * p + k]
            vikings[p] = 0
        for j in range(field_count(st, k)):
            o = st[S_OCC + MAX_FIELDS * k + j]
            if o >= 0:
                vikings[o] += 1
                strength[o] += 1
                if st[S_FTYPE + MAX_FIELDS * k + j] == VILLAGE:
                    strength[o] += ip[P_VILLAGE_BONUS]
        for p in range(n):
            eligible[p] = 1 if vikings[p] >= ip[P_ELIGIBLE_MIN] else 0
        majority(ip, st, strength, eligible, st[S_OUTER + k], st[S_INNER + k], 0)
    for k in range(3):
        for j in range(field_count(st, k)):
            o = st[S_OCC + MAX_FIELDS * k + j]
            if o >= 0 and st[S_FTYPE + MAX_FIELDS * k + j] == WHEAT:
                st[S_VP + o] += st[S_FVALUE + MAX_FIELDS * k + j]
                st[S_VP_FROM + MAX_SEATS + o] += st[S_FVALUE + MAX_FIELDS * k + j]


@njit_no_nrt
def fields_of(st, p):
    count = 0
    for k in range(3):
        for j in range(field_count(st, k)):
            if st[S_OCC + MAX_FIELDS * k + j] == p:
                count += 1
    return count


@njit_no_nrt
def final_scoring(ip, st):
    """W-9: peninsulas, occupied fields, the Walhalla majority."""
    n = ip[P_PLAYERS]
    peninsula_scoring(ip, st)
    for p in range(n):
        g = ip[P_FIELD_VP] * fields_of(st, p)
        st[S_VP + p] += g
        st[S_VP_FROM + 3 * MAX_SEATS + p] += g
    tmp = st[S_TMP:S_TMP + 32]
    strength = tmp[16:16 + MAX_SEATS]
    eligible = tmp[20:20 + MAX_SEATS]
    for p in range(n):
        strength[p] = st[S_WALHALLA + p]
        eligible[p] = 1 if st[S_WALHALLA + p] >= 1 else 0
    majority(ip, st, strength, eligible, ip[P_WALHALLA_VP], ip[P_WALHALLA_VP + 1], 4)


@njit_no_nrt
def preparation(ip, st, rs):
    """W-10 up to the selling: cleanup, dragons, start player, reinforcement (W-10.1-10.3)."""
    n = ip[P_PLAYERS]
    for k in range(3):
        for j in range(field_count(st, k)):
            o = st[S_OCC + MAX_FIELDS * k + j]
            if o >= 0 and st[S_FTYPE + MAX_FIELDS * k + j] != WHEAT:
                st[S_ASGARD + o] += 1
                st[S_OCC + MAX_FIELDS * k + j] = -1
    if st[S_CHECK] == 1:  # §7.6: right after the cleanup only wheat fields are occupied
        for k in range(3):
            for j in range(field_count(st, k)):
                if st[S_OCC + MAX_FIELDS * k + j] >= 0 and st[S_FTYPE + MAX_FIELDS * k + j] != WHEAT:
                    violation(st, INV_CLEANUP)
    for i in range(N_DRAGONS):
        st[S_DRAGONS + i] = i
    rng.shuffle(st, S_DRAGONS, N_DRAGONS, rs, 0)
    st[S_DRAGON_HEAD] = 0
    for f in range(4):
        st[S_MOORED + f] = 0
    st[S_START] = (st[S_START] + 1) % n
    tmp = st[S_TMP:S_TMP + 32]
    w = tmp[24:24 + MAX_SEATS]
    for p in range(n):
        w[p] = st[S_WALHALLA + p] + ip[P_WCARD_BONUS] * st[S_WCARDS + p]
    for p in range(n):
        rank = 0
        for q in range(n):
            if w[q] > w[p]:
                rank += 1
        moved = min(ip[P_REINFORCE + rank], st[S_ASGARD + p])
        st[S_ASGARD + p] -= moved
        st[S_MIDGARD + p] += moved
        if st[S_CHECK] == 1 and (moved > ip[P_REINFORCE + rank] or st[S_ASGARD + p] < 0):
            violation(st, INV_REINFORCEMENT)  # §7.8


@njit_no_nrt
def heroes(ip, st):
    """W-11, after the selling (W-10.4): every Walhalla count drops by the least one, those Vikings to Asgard."""
    n = ip[P_PLAYERS]
    m = st[S_WALHALLA]
    for p in range(1, n):
        m = min(m, st[S_WALHALLA + p])
    for p in range(n):
        st[S_WALHALLA + p] -= m
        st[S_ASGARD + p] += m
        st[S_HEROES + p] += m
    if st[S_CHECK] == 1:  # §7.7: afterwards the least Walhalla count is 0
        least = st[S_WALHALLA]
        for p in range(1, n):
            least = min(least, st[S_WALHALLA + p])
        if least != 0:
            violation(st, INV_HEROES)


@njit_inline
def raid_over(ip, st):
    if st[S_DRAGON_HEAD] >= N_DRAGONS:
        return True
    for p in range(ip[P_PLAYERS]):
        if st[S_MIDGARD + p] > 0:
            return False
    return True


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


@njit_inline
def violation(st, code):
    """Record the first §7 violation of the game."""
    if st[S_VIOLATION] == 0:
        st[S_VIOLATION] = code


@njit_no_nrt
def check_between_turns(ip, st):
    """§7.1, 7.3, 7.4, 7.5 between two turns (nothing aboard, no card in play); returns a code or 0."""
    n = ip[P_PLAYERS]
    for p in range(n):  # §7.1 Vikings
        total = st[S_MIDGARD + p] + st[S_ASGARD + p] + st[S_WALHALLA + p] + fields_of(st, p)
        if total != ip[P_VIKINGS] or min(st[S_MIDGARD + p], st[S_ASGARD + p], st[S_WALHALLA + p]) < 0:
            return INV_VIKINGS
    for k in range(3):  # §7.2 no colour outside the game on a field
        for j in range(MAX_FIELDS):
            o = st[S_OCC + MAX_FIELDS * k + j]
            if o >= n or o < -1 or (o >= 0 and j >= field_count(st, k)):
                return INV_FIELDS
    for f in range(4):  # §7.3 fjord capacity and turns per raid
        reach = 0
        for k in (f - 1, f):
            if 0 <= k <= 2:
                reach = max(reach, field_count(st, k))
        if st[S_MOORED + f] > (reach + 2) // 3:
            return INV_FJORDS
    for r in range(MAX_RAIDS):
        if st[S_TURNS_RAID + r] > N_DRAGONS:
            return INV_FJORDS
    cards = st[S_DECK_N]  # §7.4 cards
    total = 0
    for c in range(N_CARDS):
        cards += st[S_DISCARD + c]
        total += ip[P_DECK + c]
        for p in range(n):
            cards += st[S_HAND + N_CARDS * p + c]
            if st[S_HAND + N_CARDS * p + c] < 0:
                return INV_CARDS
    if cards != total:
        return INV_CARDS
    for p in range(n):  # §7.5 VP never decreases
        if st[S_VP + p] < st[S_PREV_VP + p]:
            return INV_VP
        st[S_PREV_VP + p] = st[S_VP + p]
    return 0


@njit_no_nrt
def check_lengths(st, draw18):
    """§7.9: lengths in 5..8, summing to <= 18 (exactly 18 under draw_18)."""
    total = 0
    for k in range(3):
        if not 5 <= st[S_LEN + k] <= 8:
            return INV_LENGTHS
        total += st[S_LEN + k]
    if total > N_TILES or (draw18 == 1 and total != N_TILES):
        return INV_LENGTHS
    return 0


# ------------------------------------------------------------------------ the protocol (one game)
#
# The decision-point protocol of docs/architecture.md: start, advance (the automatic steps and chance up to
# the next decision point), count / nth / options, apply, choose (greedy and lookahead; random is the
# driver's), check_step / check_end (§7) and record.  ``st`` (STATE) holds the game and where it stands.


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
            present(st, n_cand + (0 if ip[P_LANDING_MANDATORY] == 1 else 1))  # DP-4
            st[S_SEAT] = p
            st[S_PHASE] = DP_4
            return p
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
                present(st, n_opts)
                st[S_SEAT] = active
                st[S_PHASE] = DP_1
                return active
            st[S_PHASE] = PH_COLOUR
            continue
        if phase == PH_COLOUR:  # W-4.3: DP-2
            colour = st[S_COLOUR]
            if colour != st[S_ACTIVE] and colour < n and st[S_MIDGARD + colour] >= 1:
                present(st, 2)
                st[S_SEAT] = colour
                st[S_PHASE] = DP_2
                return colour
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
            present(st, (legal & 1) + ((legal >> 1) & 1) + ((legal >> 2) & 1) + ((legal >> 3) & 1))
            st[S_SEAT] = st[S_ACTIVE]
            st[S_PHASE] = DP_3
            return st[S_SEAT]
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
                present(st, 2)
                st[S_SEAT] = attacker
                st[S_PHASE] = DP_5
                return attacker
            st[S_PHASE] = PH_FIGHT
            continue
        if phase == PH_SHIELD:  # DP-6
            defender = st[S_OCC + MAX_FIELDS * st[S_FIELD] + st[S_FIELD + 1]]
            if st[S_AXE] == 1 and st[S_HAND + N_CARDS * defender + SHIELD] >= 1:
                present(st, 2)
                st[S_SEAT] = defender
                st[S_PHASE] = DP_6
                return defender
            st[S_PHASE] = PH_FIGHT
            continue
        if phase == PH_FIGHT:  # an uncancelled Axe wins; else DP-7
            if st[S_AXE] == 1:
                resolve_combat(ip, st, rs, True)
                continue
            present(st, 2)
            st[S_DEF_CHOICES] += 1
            defender = st[S_OCC + MAX_FIELDS * st[S_FIELD] + st[S_FIELD + 1]]
            st[S_SEAT] = defender
            st[S_PHASE] = DP_7
            return defender
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


@njit_inline
def kind(params, st):
    """The §5 decision kind of the current decision point: 1 .. 9 (DP-1 .. DP-9)."""
    return st[S_PHASE]


@njit_inline
def count(params, st):
    """The number of options of the current decision point (counted when it was presented)."""
    return st[S_N]


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


@njit_no_nrt
def list_vectors(limits, v, group_end, group_cap, total_cap, out, most):
    """The codes of :func:`nth_vector`'s vectors in its order into ``out``, at most ``most``; returns how
    many (``v``: scratch for the vector)."""
    for i in range(N_CARDS):
        v[i] = 0
    m = 0
    while m < most:
        group = 0
        total = 0
        for i in range(N_CARDS):
            total += v[i]
            if i < group_end:
                group += v[i]
        if group <= group_cap and total <= total_cap:
            out[m] = pack_vector(v)
            m += 1
        i = N_CARDS - 1
        while i >= 0 and v[i] == limits[i]:
            v[i] = 0
            i -= 1
        if i < 0:
            break
        v[i] += 1
    return m


@njit_inline
def canonical_key(code):
    """A count vector's place in the spec's order (entry 0 first) as a number."""
    key = 0
    for c in range(N_CARDS):
        key = (key << VEC_BITS) | vector_entry(code, c)
    return key


@njit_no_nrt
def vector_options(params, st, out):
    """DP-8 / DP-9's options into ``out``.  More than ``MAX_OPTIONS`` vectors (only with hands of dozens of
    cards) do not fit: then the first ``MAX_OPTIONS - 3`` are listed, followed by those of the vectors
    greedy can choose that come later, still in the spec's order (module docstring)."""
    n = st[S_N]
    limits = st[S_TMP:S_TMP + N_CARDS]
    v = st[S_TMP + 8:S_TMP + 8 + N_CARDS]
    group_end, group_cap, total_cap = vector_rule(params, st, limits)
    if n <= MAX_OPTIONS:
        return list_vectors(limits, v, group_end, group_cap, total_cap, out, n)
    m = list_vectors(limits, v, group_end, group_cap, total_cap, out, MAX_OPTIONS - 3)
    if st[S_PHASE] == DP_8:  # every Walhalla card and Plunder, the Horns on none or on one peninsula
        rest = (limits[3] << (VEC_BITS * 3)) | (limits[4] << (VEC_BITS * 4))
        for at in range(-1, 3):  # (0, 0, 0, w, pl) < (0, 0, h, w, pl) < (0, h, 0, w, pl) < (h, 0, 0, w, pl)
            code = rest if at < 0 else rest | (limits[0] << (VEC_BITS * (2 - at)))
            if canonical_key(code) > canonical_key(out[m - 1]):
                out[m] = code
                m += 1
    return m


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
            st[S_AXES_PLAYED] = 1
            st[S_HAND + N_CARDS * seat + AXE] -= 1
            st[S_AXES + seat] += 1
        st[S_PHASE] = PH_SHIELD
    elif phase == DP_6:  # 0 play a Shield, 1 decline
        if option == 0:
            st[S_AXE] = 0
            st[S_SHIELDS_PLAYED] = 1
            st[S_HAND + N_CARDS * seat + SHIELD] -= 1
            st[S_SHIELDS + seat] += 1
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


advance_called, apply_called = make_calls(advance, apply)  # one compiled call of each (core.driver.make_calls)


@njit_no_nrt
def evaluate(params, st, seat):
    """The protocol's evaluation: ``seat``'s VP minus the best other seat's (the lookahead's rollout
    value)."""
    best = -(1 << 40)
    for p in range(params[P_PLAYERS]):
        if p != seat:
            best = max(best, st[S_VP + p])
    return st[S_VP + seat] - best


@njit_no_nrt
def determinize(params, st, rs, me, base, scratch):
    """The protocol's determinization (policies.determinize): ``base`` (``STATE_SIZE``) becomes a world
    consistent with what ``me`` knows, drawn from ``me``'s decision stream: the action cards ``me`` has
    not seen (neither in its hand nor discarded), in canonical order and shuffled, dealt to the other
    seats (each as many as it holds, in seat order) and the rest as the draw pile (the slots past it
    cleared); then the dragons still to come, in canonical order and shuffled."""
    ip = params
    n = ip[P_PLAYERS]
    k = 1 + me
    pool = scratch[W_POOL:W_POOL + MAX_DECK]
    dragons = scratch[W_DRAG:W_DRAG + N_DRAGONS]
    head = st[S_DRAGON_HEAD]
    m = 0  # the unseen cards, canonical order, shuffled
    for c in range(N_CARDS):
        for _ in range(ip[P_DECK + c] - st[S_HAND + N_CARDS * me + c] - st[S_DISCARD + c]):
            pool[m] = c
            m += 1
    rng.shuffle(pool, 0, m, rs, k)
    nd = 0  # the dragons to come, canonical order, shuffled
    for d in range(N_DRAGONS):
        for i in range(head, N_DRAGONS):
            if st[S_DRAGONS + i] == d:
                dragons[nd] = d
                nd += 1
    rng.shuffle(dragons, 0, nd, rs, k)
    for i in range(STATE_SIZE):
        base[i] = st[i]
    base[S_DECK_N] = deal_unseen(st, base, pool, m, me, n, S_HAND, N_CARDS, S_DECK, MAX_DECK)
    base[S_DECK_HEAD] = 0
    for i in range(nd):
        base[S_DRAGONS + head + i] = dragons[i]


@njit_no_nrt
def rollout_value(params, world, rs, me, cands, i, scratch):
    """The lookahead's value of the fjord ``cands[i]`` in the determinized ``world``: chosen (DP-3), then
    the raid played to its scoring with greedy seats (:func:`greedy_option`), as ``me``'s VP minus the
    best other seat's.  The rollout's streams (``rs``'s second set) start from ``me``'s decision stream as
    it stands after the determinization, the same for every fjord."""
    ip = params
    n = ip[P_PLAYERS]
    rs2 = rs[N_STREAMS:]
    chance = rs[1 + me]
    rs2[0] = chance
    for p in range(n):
        rs2[1 + p] = rng.mix64_nb(chance + np.uint64(1 + p))
    world[S_ROLLOUT] = 1
    world[S_CHECK] = 0
    apply_called(ip, world, rs2, cands[i])  # DP-3, then the raid to its scoring with greedy seats
    while True:
        seat = advance_called(ip, world, rs2)
        if seat < 0:
            break
        apply_called(ip, world, rs2, greedy_option(ip, world, rs2, seat, scratch))
    return evaluate(ip, world, me)


pimc = make_lookahead(determinize, rollout_value, STATE_SIZE, random_ties=True)


@njit_no_nrt
def lookahead_fjord(ip, st, rs, me, legal, samples, scratch):
    """policies.lookahead_fjord: the index, among the legal fjords, of the best rollout total
    (``toolkit.core.lookahead``: :func:`determinize`, :func:`rollout_value`, ties at random)."""
    cands = scratch[W_CANDS:W_CANDS + 4]
    nc = 0
    for f in range(4):
        if (legal >> f) & 1 == 1:
            cands[nc] = f
            nc += 1
    return pimc(ip, st, rs, me, cands, nc, samples, scratch[W_BASE:W_BASE + STATE_SIZE],
                scratch[W_WORLD:W_WORLD + STATE_SIZE], scratch[W_TOTALS:W_TOTALS + 4], scratch)


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (policy 1) or ``lookahead`` (2 + samples << POLICY_BITS; greedy but at DP-3): the index
    of the chosen option (``random`` is the driver's)."""
    if st[S_PHASE] == DP_3 and (policy & ((1 << POLICY_BITS) - 1)) == LOOKAHEAD:
        return lookahead_fjord(params, st, rs, seat, st[S_LEGAL], policy >> POLICY_BITS, scratch)
    code = greedy_option(params, st, rs, seat, scratch)
    for i in range(n):
        if opts[i] == code:
            return i
    return -1  # cannot happen: greedy's option is listed


@njit
def check_step(params, before, st, option):
    """§7 after a step.  The game checks itself (§7.1-7.5 between turns and after each raid, 7.2 at each
    landing, 7.6-7.8 in the preparation) once ``S_CHECK`` is set: the first call sets it and runs the
    set-up's checks (7.9, and 7.1-7.5 on ``before``, the state at the first decision point, where
    nothing has happened since the set-up but the first dragon's draw).  Returns the first violation."""
    if st[S_CHECK] == 0:
        st[S_CHECK] = 1
        violation(st, check_lengths(st, params[P_DRAW18]))
        violation(st, check_between_turns(params, before))
    return st[S_VIOLATION]


@njit
def check_end(params, st):
    """§7.3 at the end (the first raid's turns), then the first violation of the game (0: none)."""
    if st[S_TURNS_RAID] > N_DRAGONS:
        violation(st, INV_FJORDS)
    return st[S_VIOLATION]


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




RS_SIZE = 2 * N_STREAMS  # the streams: chance and one per seat, then a second set for the rollouts
# the plain and random copies inline advance and apply (core.driver.make_play_game), at no cost in cold
# compile since LLVM inlines them (issue 35): random 106,866 games/s against 88,260 called, one thread
INLINE_STEPS = True
# returns, advance_called, apply_called, mcts, play_game, WORK_SIZE and play_many (core.wiring)
finish_kernel(globals())

