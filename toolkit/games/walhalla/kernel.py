"""Walhalla, the Numba fast path.

Same rules, same random draws and same option order as ``reference.py``; the
tests check both produce identical games.  Rules, tiles and dragons arrive as
one integer vector (:func:`to_kernel`); a game's state is one ``int64``
vector (layout ``S_*``), so ``play_game`` allocates nothing: the caller
passes the stream states and the state array.  Field j of peninsula k is
entry ``16 * k + j`` of the field arrays (at most 8 tiles, 16 fields).

With ``check=True`` the §7 invariants are tested after setup, after every
turn and every raid (:func:`check_between_turns`), at every landing (7.2)
and inside the preparation (7.6-7.8); ``play_game`` returns the first
violated invariant's number.  §7.7's "every count dropped by the same m" is
true by construction of :func:`preparation`; the check tests the minimum.

Design metrics
--------------
Four columns follow ``plies``, counted as in ``reference.py`` (whose
docstring gives the reasons):

- ``decisions``: the §5 decision points presented, every one of DP-1..DP-9
  when its trigger holds, a single option included; it equals ``plies``.
  :func:`present` counts each one, at the same place for every policy.  The
  lookahead's rollouts play in their own world (``work[W_WORLD:]``), so
  their decision points never reach the real game's counters.
- ``options``: the options of those decision points, summed (the random
  policy's list, §5's canonical order); DP-8 and DP-9 count their count
  vectors with :func:`nth_vector` for the greedy seats too.
- ``lead_changes`` and ``decisive_turn`` (``toolkit.core.lead``): after each
  turn of §6 (one dragon drawn, the rollouts' turns excluded) the lead
  measure :func:`lead_measure`, each seat's VP so far, goes to
  ``lead_update`` once everything the turn triggered is resolved, i.e.
  just before the next turn begins, or at the end of the game: the turn
  that ends a raid is measured after the raid's scoring (W-8, or W-9 after
  the last raid) and the preparation (W-7.3), so the final scoring is
  seen.  Still exactly one update per turn of ``turns``.  The scratch
  arrays live in ``work`` (``W_LEAD``, ``W_LEAD_VALUES``), so ``play_game``
  still allocates nothing.
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.driver import make_play_many
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.layout import block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update

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

# -- state layout ------------------------------------------------------------------------
S_VP, S_MIDGARD, S_ASGARD, S_WALHALLA = 0, 4, 8, 12  # [4] each
S_HAND = 16  # [4 * 5]
S_DISCARD = 36  # [5]
S_LEN = 41  # [3] tiles per peninsula
S_INNER, S_OUTER = 44, 47  # [3] tips
S_MOORED = 50  # [4]
S_ABOARD = 54  # [3]
S_DECK_HEAD, S_DECK_N, S_DRAGON_HEAD, S_START, S_FIRST, S_RAID = 57, 58, 59, 60, 61, 62
S_TURNS, S_PLIES, S_RAIDS, S_COMBATS, S_ATT_WINS, S_DEF_CHOICES, S_DEF_WIN = 63, 64, 65, 66, 67, 68, 69
S_TURNS_RAID, S_COMBATS_RAID = 70, 75  # [5] each
S_AXES, S_SHIELDS, S_TO_WALHALLA, S_HEROES, S_LANDINGS, S_SOLD = 80, 84, 88, 92, 96, 100  # [4] each
S_VP_FROM = 104  # [6 * 4] per source, then seat
S_HORNS = 128  # [4 * 3] card phase: horn strength per seat and peninsula
S_WCARDS = 140  # [4] card phase: Walhalla cards per seat
S_CHECK, S_VIOLATION = 144, 145  # check=True; the first §7 violation seen
S_PREV_VP = 146  # [4] check=True: VP at the previous check
S_OPTIONS = 150  # options offered, summed over the decision points presented (S_PLIES counts those)
S_DRAGONS = 152  # [12] the dragon deck
S_FTYPE = S_DRAGONS + N_DRAGONS  # [3 * 16]
S_FVALUE = S_FTYPE + 3 * MAX_FIELDS  # [3 * 16]
S_OCC = S_FVALUE + 3 * MAX_FIELDS  # [3 * 16] occupant colour or -1
S_DECK = S_OCC + 3 * MAX_FIELDS  # [MAX_DECK]
STATE_SIZE = S_DECK + MAX_DECK
W_TMP = STATE_SIZE  # scratch of the rules' steps [32]
W_G = W_TMP + 32  # scratch of greedy's worth [16]
W_NET = W_G + 16  # greedy's landing values per fjord and dragon seat [12]
W_WORLD = W_NET + 12  # the lookahead's rollout world [STATE_SIZE]
W_POOL = W_WORLD + STATE_SIZE  # its unseen cards [MAX_DECK]
W_DRAG = W_POOL + MAX_DECK  # its dragons to come [12]
W_ROLL = W_DRAG + N_DRAGONS  # the rollout players' policy vector [2 * MAX_SEATS]
W_TOTALS = W_ROLL + 2 * MAX_SEATS  # value per fjord [4]
W_LEAD = W_TOTALS + 4  # the real game's lead tracking (toolkit.core.lead) [LEAD_FIELDS]
W_LEAD_VALUES = W_LEAD + LEAD_FIELDS  # each seat's lead measure after a turn [4]
WORK_SIZE = W_LEAD_VALUES + MAX_SEATS
N_STREAMS = 1 + MAX_SEATS  # chance, then one decision stream per seat; rollouts use a second set

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
    """Policy names -> ``[ids of seats 0..3, their sample counts]``."""
    from toolkit.games.walhalla.policies import parse_policy

    out = np.zeros(2 * MAX_SEATS, np.int64)
    for seat, name in enumerate(policies):
        base, samples = parse_policy(name)
        out[seat], out[MAX_SEATS + seat] = POLICY_ID[base], samples
    return out


# ------------------------------------------------------------------------ chance


@njit_inline
def pick(rs, seat, n):
    """The ``random`` policy: an index in 0..n-1 (no draw for a single option)."""
    if n == 1:
        return 0
    return rng.below(rs, 1 + seat, n)


@njit_inline
def present(st, n_options):
    """A decision point of §5 is presented with ``n_options`` options: one ply (the ``plies`` and
    ``decisions`` columns) and its options (the ``options`` column)."""
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
def setup(ip, st, rs, work):
    """W-2, with the draws in the reference's order."""
    n = ip[P_PLAYERS]
    tmp = work[W_TMP:W_TMP + 32]
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


# ------------------------------------------------------------------------ decisions


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


@njit_no_nrt
def choose_vector(st, rs, seat, limits, group_end, group_cap, total_cap, out):
    """A uniform choice of such a count vector (one ply)."""
    n = nth_vector(limits, group_end, group_cap, total_cap, -1, out)
    present(st, n)
    nth_vector(limits, group_end, group_cap, total_cap, pick(rs, seat, n), out)


# ------------------------------------------------------------------------ greedy (policies.py)


@njit_inline
def best_of(rs, seat, value, top_value, ties, i):
    """One step of policies.best: returns (take option i, the new tie count)."""
    if i == 0 or value > top_value:
        return True, 1
    if value == top_value:
        ties += 1
        return rng.below(rs, 1 + seat, ties) == 0, ties
    return False, ties


@njit_no_nrt
def worth(ip, st, p, horn_k, horn_amount, work):
    """policies.worth: majorities (``horn_amount`` added to p's strength on peninsula ``horn_k``),
    wheat, and the final field points in the last raid."""
    n = ip[P_PLAYERS]
    g = work[W_G:W_G + 16]
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
def land_gain(ip, st, p, k, j, work):
    """policies.land_gain: the change in worth of p taking (k, j), plus the immediate effect."""
    before = worth(ip, st, p, -1, 0, work)
    f = S_OCC + MAX_FIELDS * k + j
    old = st[f]
    st[f] = p
    after = worth(ip, st, p, -1, 0, work)
    st[f] = old
    kind = st[S_FTYPE + MAX_FIELDS * k + j]
    gain = after - before
    if kind == FOREST:
        gain += ip[P_FOREST_VP]
    elif kind == CULT:
        gain += ip[P_CULT_CARDS]
    return gain


@njit_no_nrt
def option_value(ip, st, p, k, j, work):
    """policies.option_value: a defended field is worth 0 without an Axe in hand."""
    if st[S_OCC + MAX_FIELDS * k + j] >= 0 and st[S_HAND + N_CARDS * p + AXE] == 0:
        return 0
    return land_gain(ip, st, p, k, j, work)


@njit_no_nrt
def seat_net(ip, st, p, f, j, work):
    """policies.seat_net: best landing value - 1 at seat j of a dragon into fjord f (0: no field)."""
    q = 3 * st[S_MOORED + f] + 1 + j
    found = False
    top = 0
    for k in (f - 1, f):
        if 0 <= k <= 2 and q <= field_count(st, k) and st[S_OCC + MAX_FIELDS * k + q - 1] != p:
            v = option_value(ip, st, p, k, q - 1, work)
            if not found or v > top:
                top = v
            found = True
    return top - 1 if found else 0


@njit_no_nrt
def stake(ip, st, defender, k, j, work):
    """policies.stake: what the defender's worth loses without field (k, j)."""
    f = S_OCC + MAX_FIELDS * k + j
    with_it = worth(ip, st, defender, -1, 0, work)
    st[f] = -1
    without = worth(ip, st, defender, -1, 0, work)
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
def greedy_nets(ip, st, p, work):
    """seat_net for every legal fjord and dragon seat, into ``work[W_NET + 3 f + j]``."""
    legal = legal_mask(st)
    for f in range(4):
        if (legal >> f) & 1 == 1:
            for j in range(3):
                work[W_NET + 3 * f + j] = seat_net(ip, st, p, f, j, work)
    return legal


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
def combat(ip, st, rs, attacker, k, j, policies, work):
    """W-6 with ``attacker`` landing on field (k, j)."""
    defender = st[S_OCC + MAX_FIELDS * k + j]
    if st[S_CHECK] == 1 and defender == attacker:
        violation(st, INV_FIELDS)
    axe = False
    axes = 0
    shields = 0
    if st[S_HAND + N_CARDS * attacker + AXE] >= 1:  # DP-5
        present(st, 2)
        if policies[attacker] == 0:
            play = pick(rs, attacker, 2) == 0
        else:
            play = land_gain(ip, st, attacker, k, j, work) >= 2
        if play:
            axe = True
            axes = 1
            st[S_HAND + N_CARDS * attacker + AXE] -= 1
            st[S_AXES + attacker] += 1
    if axe and st[S_HAND + N_CARDS * defender + SHIELD] >= 1:  # DP-6
        present(st, 2)
        if policies[defender] == 0:
            play = pick(rs, defender, 2) == 0
        else:
            play = stake(ip, st, defender, k, j, work) >= 2
        if play:
            axe = False
            shields = 1
            st[S_HAND + N_CARDS * defender + SHIELD] -= 1
            st[S_SHIELDS + defender] += 1
    if axe:
        attacker_won = True
    else:  # DP-7
        present(st, 2)
        st[S_DEF_CHOICES] += 1
        if policies[defender] == 0:
            attacker_won = pick(rs, defender, 2) == 1
        else:
            attacker_won = stake(ip, st, defender, k, j, work) < 2
        if not attacker_won:
            st[S_DEF_WIN] += 1
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
    st[S_DISCARD + AXE] += axes
    st[S_DISCARD + SHIELD] += shields


@njit_no_nrt
def disembark(ip, st, rs, p, f, q, policies, work):
    """W-5: the Viking of ``p`` at position q of fjord f."""
    n_cand = 0
    cand_k0, cand_k1 = -1, -1
    for k in (f - 1, f):  # the left peninsula first
        if 0 <= k <= 2 and q <= field_count(st, k) and st[S_OCC + MAX_FIELDS * k + q - 1] != p:
            if n_cand == 0:
                cand_k0 = k
            else:
                cand_k1 = k
            n_cand += 1
    if n_cand == 0:
        st[S_MIDGARD + p] += 1
        return
    options = n_cand + (0 if ip[P_LANDING_MANDATORY] == 1 else 1)
    present(st, options)
    if policies[p] == 0:
        i = pick(rs, p, options)
    else:  # the candidate of largest value; stay (-1) only if every candidate is below 0
        v0 = option_value(ip, st, p, cand_k0, q - 1, work)
        v1 = option_value(ip, st, p, cand_k1, q - 1, work) if n_cand == 2 else -(1 << 40)
        stay = -1
        if options > n_cand and max(v0, v1, stay) >= 0:
            stay = -2
        i, top, ties = 0, v0, 1
        if n_cand == 2:
            take, ties = best_of(rs, p, v1, top, ties, 1)
            if take:
                i, top = 1, v1
        if options > n_cand:
            take, ties = best_of(rs, p, stay, top, ties, n_cand)
            if take:
                i, top = n_cand, stay
    if i == n_cand:  # stay
        st[S_MIDGARD + p] += 1
        return
    k = cand_k0 if i == 0 else cand_k1
    j = q - 1
    if st[S_OCC + MAX_FIELDS * k + j] < 0:
        occupy(ip, st, rs, p, k, j)
    else:
        combat(ip, st, rs, p, k, j, policies, work)


@njit_inline
def boardable(mask, cseat, colour, active, midgard):
    """DP-1: may the active player fill the seats of ``mask``?"""
    if (mask >> cseat) & 1 == 1 and colour != active:
        return False
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) <= midgard


@njit_no_nrt
def turn_start(ip, st, rs, active, policies, work):
    """W-4.1-3: draw the dragon, board (DP-1), the coloured seat (DP-2); returns the legal
    fjords as bits (0: none, the Vikings went back to Midgard)."""
    n = ip[P_PLAYERS]
    st[S_TURNS] += 1
    st[S_TURNS_RAID + st[S_RAID]] += 1
    d = st[S_DRAGONS + st[S_DRAGON_HEAD]]
    st[S_DRAGON_HEAD] += 1
    colour, cseat = ip[P_DRAGON_COLOUR + d], ip[P_DRAGON_SEAT + d]
    for j in range(3):
        st[S_ABOARD + j] = -1
    midgard = st[S_MIDGARD + active]
    if midgard >= 1:  # DP-1: the seat sets by bitmask, ascending
        n_opts = 0
        for mask in range(8):
            if boardable(mask, cseat, colour, active, midgard):
                n_opts += 1
        present(st, n_opts)
        if policies[active] == 0:
            i = pick(rs, active, n_opts)
        else:  # the set with the largest best-fjord total of seat values
            legal = greedy_nets(ip, st, active, work)
            i, top, ties, idx = 0, 0, 1, 0
            for mask in range(8):
                if not boardable(mask, cseat, colour, active, midgard):
                    continue
                value = -(1 << 40)
                for f in range(4):
                    if (legal >> f) & 1 == 1:
                        total = 0
                        for j in range(3):
                            if (mask >> j) & 1 == 1:
                                total += work[W_NET + 3 * f + j]
                        value = max(value, total)
                take, ties = best_of(rs, active, value, top, ties, idx)
                if take:
                    i, top = idx, value
                idx += 1
        for mask in range(8):
            if boardable(mask, cseat, colour, active, midgard):
                if i == 0:
                    for j in range(3):
                        if (mask >> j) & 1 == 1:
                            st[S_ABOARD + j] = active
                            st[S_MIDGARD + active] -= 1
                    break
                i -= 1
    if colour != active and colour < n and st[S_MIDGARD + colour] >= 1:  # DP-2
        present(st, 2)
        if policies[colour] == 0:
            board = pick(rs, colour, 2) == 0
        else:
            legal = greedy_nets(ip, st, colour, work)
            total = 0
            for f in range(4):
                if (legal >> f) & 1 == 1:
                    total += work[W_NET + 3 * f + cseat]
            board = total > 0
        if board:
            st[S_ABOARD + cseat] = colour
            st[S_MIDGARD + colour] -= 1
    legal = legal_mask(st)
    if legal == 0:  # cannot happen with lengths 5..8
        for j in range(3):
            if st[S_ABOARD + j] >= 0:
                st[S_MIDGARD + st[S_ABOARD + j]] += 1
                st[S_ABOARD + j] = -1
    return legal


@njit_no_nrt
def turn(ip, st, rs, active, policies, work):
    """W-4 for a ``random`` or ``greedy`` active player (a ``lookahead`` one: :func:`turn_top`)."""
    legal = turn_start(ip, st, rs, active, policies, work)
    if legal == 0:
        return
    n_legal = (legal & 1) + ((legal >> 1) & 1) + ((legal >> 2) & 1) + ((legal >> 3) & 1)
    present(st, n_legal)  # DP-3
    if policies[active] == 0:
        i = pick(rs, active, n_legal)
    else:  # the largest total landing value of its Vikings aboard
        greedy_nets(ip, st, active, work)
        i, top, ties, idx = 0, 0, 1, 0
        for f in range(4):
            if (legal >> f) & 1 == 1:
                value = 0
                for j in range(3):
                    if st[S_ABOARD + j] == active:
                        value += work[W_NET + 3 * f + j] + 1
                take, ties = best_of(rs, active, value, top, ties, idx)
                if take:
                    i, top = idx, value
                idx += 1
    sail(ip, st, rs, nth_fjord(legal, i), policies, work)


@njit_no_nrt
def sail(ip, st, rs, f, policies, work):
    """W-4.4-5 after DP-3: moor in fjord f, then disembark bow, middle, stern."""
    base = 3 * st[S_MOORED + f]
    st[S_MOORED + f] += 1
    for j in range(3):
        p = st[S_ABOARD + j]
        if p >= 0:
            disembark(ip, st, rs, p, f, base + 1 + j, policies, work)
            st[S_ABOARD + j] = -1


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
def card_phase(ip, st, rs, last, policies, work):
    """W-7.2: DP-8 from the start player clockwise, then everything revealed together."""
    n = ip[P_PLAYERS]
    tmp = work[W_TMP:W_TMP + 32]
    limits = tmp[0:N_CARDS]
    laid = tmp[8:8 + N_CARDS * MAX_SEATS]  # (h0, h1, h2, w, pl) per seat
    for i in range(N_CARDS * MAX_SEATS):
        laid[i] = 0
    for i in range(n):
        p = (st[S_START] + i) % n
        horns = st[S_HAND + N_CARDS * p + HORN]
        walhalla = 0 if last else st[S_HAND + N_CARDS * p + WCARD]
        plunder = st[S_HAND + N_CARDS * p + PLUNDER]
        if horns + walhalla + plunder == 0:
            continue
        limits[0], limits[1], limits[2], limits[3], limits[4] = horns, horns, horns, walhalla, plunder
        v = laid[N_CARDS * p:N_CARDS * (p + 1)]
        if policies[p] == 0:
            choose_vector(st, rs, p, limits, 3, horns, 1 << 30, v)
        else:  # every Plunder and Walhalla card; the Horns where they raise its worth most
            present(st, nth_vector(limits, 3, horns, 1 << 30, -1, v))  # counting leaves v all zero
            v[3], v[4] = walhalla, plunder
            base = worth(ip, st, p, -1, 0, work)
            gain0 = worth(ip, st, p, 0, ip[P_HORN] * horns, work) - base
            gain1 = worth(ip, st, p, 1, ip[P_HORN] * horns, work) - base
            gain2 = worth(ip, st, p, 2, ip[P_HORN] * horns, work) - base
            if horns > 0 and max(gain0, gain1, gain2) > 0:
                at, top, ties = 0, gain0, 1
                take, ties = best_of(rs, p, gain1, top, ties, 1)
                if take:
                    at, top = 1, gain1
                take, ties = best_of(rs, p, gain2, top, ties, 2)
                if take:
                    at, top = 2, gain2
                v[at] = horns
        st[S_HAND + N_CARDS * p + HORN] -= v[0] + v[1] + v[2]
        st[S_HAND + N_CARDS * p + WCARD] -= v[3]
        st[S_HAND + N_CARDS * p + PLUNDER] -= v[4]
    for p in range(n):
        v = laid[N_CARDS * p:N_CARDS * (p + 1)]
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
def peninsula_scoring(ip, st, work):
    """W-8: majorities, then wheat."""
    n = ip[P_PLAYERS]
    tmp = work[W_TMP:W_TMP + 32]
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
def final_scoring(ip, st, work):
    """W-9: peninsulas, occupied fields, the Walhalla majority."""
    n = ip[P_PLAYERS]
    peninsula_scoring(ip, st, work)
    for p in range(n):
        g = ip[P_FIELD_VP] * fields_of(st, p)
        st[S_VP + p] += g
        st[S_VP_FROM + 3 * MAX_SEATS + p] += g
    tmp = work[W_TMP:W_TMP + 32]
    strength = tmp[16:16 + MAX_SEATS]
    eligible = tmp[20:20 + MAX_SEATS]
    for p in range(n):
        strength[p] = st[S_WALHALLA + p]
        eligible[p] = 1 if st[S_WALHALLA + p] >= 1 else 0
    majority(ip, st, strength, eligible, ip[P_WALHALLA_VP], ip[P_WALHALLA_VP + 1], 4)


@njit_no_nrt
def preparation(ip, st, rs, policies, work):
    """W-7.3 between raids: cleanup, dragons, start player, reinforcement, selling, heroes."""
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
    tmp = work[W_TMP:W_TMP + 32]
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
    if ip[P_SELL] == 1:
        limits = tmp[0:N_CARDS]
        v = tmp[8:8 + N_CARDS]
        for i in range(n):
            p = (st[S_START] + i) % n
            held = 0
            for c in range(N_CARDS):
                limits[c] = st[S_HAND + N_CARDS * p + c]
                held += limits[c]
            if held == 0 or st[S_ASGARD + p] == 0:
                continue
            if policies[p] == 0:
                choose_vector(st, rs, p, limits, 0, 0, st[S_ASGARD + p], v)
            else:  # greedy sells nothing
                present(st, nth_vector(limits, 0, 0, st[S_ASGARD + p], -1, v))
                for c in range(N_CARDS):
                    v[c] = 0
            sold = 0
            for c in range(N_CARDS):
                st[S_HAND + N_CARDS * p + c] -= v[c]
                st[S_DISCARD + c] += v[c]
                sold += v[c]
            st[S_ASGARD + p] -= sold
            st[S_MIDGARD + p] += sold
            st[S_SOLD + p] += sold
            if st[S_CHECK] == 1 and st[S_ASGARD + p] < 0:
                violation(st, INV_REINFORCEMENT)
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


# ------------------------------------------------------------------------ raids and the lookahead


@njit_no_nrt
def run_turns(ip, st, rs, active, policies, work):
    """W-3: turns from ``active`` on until the raid ends (the rollouts' loop; no lookahead)."""
    n = ip[P_PLAYERS]
    while not raid_over(ip, st):
        turn(ip, st, rs, active, policies, work)
        active = (active + 1) % n


@njit_no_nrt
def score_raid(ip, st, rs, policies, work):
    """W-7.2 and the raid's scoring (W-8, or W-9 after the last raid)."""
    last = st[S_RAID] == ip[P_RAIDS] - 1
    st[S_RAIDS] += 1
    card_phase(ip, st, rs, last, policies, work)
    if last:
        final_scoring(ip, st, work)
    else:
        peninsula_scoring(ip, st, work)


@njit_no_nrt
def lookahead_fjord(ip, st, rs, me, legal, policies, work):
    """policies.lookahead_fjord: the index, among the legal fjords, of the best rollout total."""
    n = ip[P_PLAYERS]
    k = 1 + me
    world = work[W_WORLD:W_WORLD + STATE_SIZE]
    pool = work[W_POOL:W_POOL + MAX_DECK]
    dragons = work[W_DRAG:W_DRAG + N_DRAGONS]
    roll = work[W_ROLL:W_ROLL + 2 * MAX_SEATS]
    totals = work[W_TOTALS:W_TOTALS + 4]
    rs2 = rs[N_STREAMS:]
    for p in range(MAX_SEATS):
        roll[p], roll[MAX_SEATS + p] = 1, 0
    for f in range(4):
        totals[f] = 0
    head = st[S_DRAGON_HEAD]
    for _ in range(policies[MAX_SEATS + me]):
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
        chance = rs[k]
        for f in range(4):
            if (legal >> f) & 1 == 0:
                continue
            for i in range(STATE_SIZE):
                world[i] = st[i]
            off = 0
            for p in range(n):
                if p == me:
                    continue
                size = 0
                for c in range(N_CARDS):
                    size += st[S_HAND + N_CARDS * p + c]
                    world[S_HAND + N_CARDS * p + c] = 0
                for i in range(size):
                    world[S_HAND + N_CARDS * p + pool[off + i]] += 1
                off += size
            for i in range(m - off):
                world[S_DECK + i] = pool[off + i]
            world[S_DECK_HEAD] = 0
            world[S_DECK_N] = m - off
            for i in range(nd):
                world[S_DRAGONS + head + i] = dragons[i]
            rs2[0] = chance
            for p in range(n):
                rs2[1 + p] = rng.mix64_nb(chance + np.uint64(1 + p))
            sail(ip, world, rs2, f, roll, work)
            run_turns(ip, world, rs2, (me + 1) % n, roll, work)
            score_raid(ip, world, rs2, roll, work)
            best = -(1 << 40)
            for p in range(n):
                if p != me:
                    best = max(best, world[S_VP + p])
            totals[f] += world[S_VP + me] - best
    i, top, ties, idx = 0, 0, 1, 0
    for f in range(4):
        if (legal >> f) & 1 == 1:
            take, ties = best_of(rs, me, totals[f], top, ties, idx)
            if take:
                i, top = idx, totals[f]
            idx += 1
    return i


@njit_no_nrt
def turn_top(ip, st, rs, active, policies, work):
    """A turn of the real game: :func:`turn`, or for a ``lookahead`` seat the same steps with DP-3
    decided by :func:`lookahead_fjord` (a separate function, so rollouts never recurse)."""
    if policies[active] != 2:
        turn(ip, st, rs, active, policies, work)
        return
    legal = turn_start(ip, st, rs, active, policies, work)
    if legal == 0:
        return
    n_legal = (legal & 1) + ((legal >> 1) & 1) + ((legal >> 2) & 1) + ((legal >> 3) & 1)
    present(st, n_legal)  # DP-3: the rollouts below count in their own world, never here
    i = lookahead_fjord(ip, st, rs, active, legal, policies, work) if n_legal > 1 else 0
    sail(ip, st, rs, nth_fjord(legal, i), policies, work)


# ------------------------------------------------------------------------ design metrics


@njit_inline
def lead_measure(ip, st, values):
    """The lead measure after a turn (module docstring, "Design metrics"): each seat's VP so far."""
    for p in range(ip[P_PLAYERS]):
        values[p] = st[S_VP + p]


# ------------------------------------------------------------------------ §7 checks (check=True)


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


@njit_no_nrt
def play_game(ip, policies, seed, game, row, check, rs, work):
    """One game into ``row`` (the columns of ``COLUMNS``).  With ``check`` it tests §7 after setup,
    after every turn, after every raid and inside the steps (7.2, 7.6-7.8) and returns the first
    violated invariant's number (0 = none)."""
    rng.seed_streams(rs, seed, game)
    st = work[:STATE_SIZE]
    for i in range(STATE_SIZE):
        st[i] = 0
    for i in range(row.shape[0]):
        row[i] = 0
    n = ip[P_PLAYERS]
    lead = work[W_LEAD:W_LEAD + LEAD_FIELDS]
    lead_values = work[W_LEAD_VALUES:W_LEAD_VALUES + MAX_SEATS]
    lead_reset(lead)
    st[S_CHECK] = 1 if check else 0
    setup(ip, st, rs, work)
    if check:
        violation(st, check_lengths(st, ip[P_DRAW18]))
        violation(st, check_between_turns(ip, st))
    for r in range(ip[P_RAIDS]):
        st[S_RAID] = r
        last = r == ip[P_RAIDS] - 1
        active = st[S_START]
        while not raid_over(ip, st):
            if st[S_TURNS] > 0:  # the lead after the previous turn, all it triggered resolved
                lead_measure(ip, st, lead_values)
                lead_update(lead, lead_values, n, st[S_TURNS])
            turn_top(ip, st, rs, active, policies, work)
            if check:
                violation(st, check_between_turns(ip, st))
            active = (active + 1) % n
        score_raid(ip, st, rs, policies, work)
        if not last:
            preparation(ip, st, rs, policies, work)
        if check:
            violation(st, check_between_turns(ip, st))
    if st[S_TURNS] > 0:  # the last turn's lead, after the final scoring (W-9)
        lead_measure(ip, st, lead_values)
        lead_update(lead, lead_values, n, st[S_TURNS])
    # W-9.4 the winners
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
    if check and st[S_TURNS_RAID] > N_DRAGONS:
        violation(st, INV_FJORDS)
    row[C_N_WINNERS] = winners
    row[C_RESULT] = 0 if winners == 1 else 1
    row[C_START] = st[S_FIRST]
    row[C_TURNS] = st[S_TURNS]
    row[C_PLIES] = st[S_PLIES]
    row[C_DECISIONS] = st[S_PLIES]  # every ply is a §5 decision point presented
    row[C_OPTIONS] = st[S_OPTIONS]
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(lead, row[C_WINNER], st[S_TURNS])
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
    return st[S_VIOLATION]


play_many = make_play_many(play_game, 2 * N_STREAMS, WORK_SIZE)
