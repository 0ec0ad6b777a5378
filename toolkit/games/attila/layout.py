"""Attila's layouts: the rule vector (``P_*``, :func:`kernel.to_kernel` fills it), the state (``STATE``,
``S_*``), the policies' scratch (``SCRATCH``, ``W_*``), the result (``COLUMNS``, ``C_*``; :func:`columns_for`
a player count's), and the codes and sizes the kernel's modules share.  The bottom of the kernel's chain:
it imports only ``toolkit.core`` (``layout.py`` <- ``mechanics.py`` <- ``heuristics.py``, ``invariants.py``
<- ``kernel.py``).

The state ``st`` (``STATE``, a ``core.layout.Layout``; ``S_<FIELD>`` its
offsets): the public board (``fig[x * 6 + t]`` the figures, ``total[x]`` per
province, ``presence[t]`` the provinces holding tribe t, ``pacified`` and
``total_mask`` as bit sets, ``supply``, ``peace``), the cards (``hand[seat * 6
+ t]`` counts, ``discard`` counts, ``deck[deck_head .. deck_head + deck_n]``),
the tracks (``vp``, ``inf[seat * 6 + t]``), the tiles (``tiles[seat]`` the
unused ones as bits, ``tiles_used[seat * 3 + k]`` the turn each was used), the
§6 tallies and the lead tracker (``lead``, ``lead_values``), and where the
game stands between two decision points: ``phase`` (the §5 number 1-7 of the
current decision point, or ``PH_OVER``), ``count`` (its number of options),
``seat`` (the active player A), ``decider`` (A, or at DP-7 the supporting
seat), ``used`` / ``plays`` / ``plays_left`` (the turn's tiles and plays),
``masks[t]`` (DP-4's legal provinces per tribe), ``bits`` (DP-1's usable
tiles, DP-6's legal provinces), ``tribe`` (DP-6's), ``limits`` (DP-3's hand,
DP-7's layable cards), ``pending`` / ``war_at`` / ``war_k`` / ``strength`` /
``scored`` (the wars of the turn, the one being fought, the next supporter,
the cards laid per tribe) and ``last_active`` (the seat whose turn ended last).

The decision points and their option codes (``kind`` = ``phase``), each list
in the spec's §5 order:

- DP-1 tile window (``DP_TILE``): the usable tiles as their bit
  (``TILE_DOUBLE`` 1, ``TILE_PLUS_TWO`` 2, ``TILE_EXCHANGE`` 4), then
  ``PROCEED`` (0);
- DP-2 plus-two split (``DP_SPLIT``): j = 0..20 (+2 on tribe j for j < 6, then
  the pairs t < u, +1 each);
- DP-3 exchange (``DP_EXCHANGE``) and DP-7 support (``DP_SUPPORT``): the count
  vector's lexicographic index among all vectors ``0 <= k_t <= limits[t]``
  (DP-3 1.., the all-zero vector 0 not being an option; DP-7 from 0, decline);
- DP-4 play (``DP_PLAY``): ``t << PAIR_SHIFT | x`` (tribe t, province x);
- DP-5 forced discard (``DP_DISCARD``): the tribe;
- DP-6 bonus (``DP_BONUS``): ``INFLUENCE`` (0), or 1 + the province of the
  second figure.
"""

from __future__ import annotations

from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS

N_TRIBES = 6
MAX_SEATS = 5
MAX_PROVINCES = 62
MAX_DECK = 6 * 30

# -- rule vector layout --------------------------------------------------------------
P_PLAYERS, P_HAND, P_CARDS, P_FIGURES, P_THRESHOLD, P_TRACK_MAX, P_END_ON_MAX, P_SECOND = range(8)
P_SUPPORT_ANY, P_TIE_REMOVES, P_SINGLE_REMOVES, P_MAX_TILES, P_ROUND_UP, P_GAP, P_SKIP_REFILL = range(8, 15)
P_START_RANDOM, P_TIEBREAK_SUM, P_MAX_TURNS, P_PROVINCES, P_START_MASK = range(15, 20)
P_PEACE = 20  # [4]
P_RATE = 24  # [4]
P_ADJ = 28  # [MAX_PROVINCES] neighbour bit sets
P_FINISH_ROUND = P_ADJ + MAX_PROVINCES  # the toolkit's variants (rules.py): the end waits for the round
P_LATER_VP = P_FINISH_ROUND + 1  # VP per place after the start player, at the start
N_PARAMS = P_LATER_VP + 1
POLICY_ID = {"random": 0, "greedy": 1, "lookahead": 2}

# -- state layout: STATE_SIZE int64, named (toolkit.core.layout), the module docstring says what they hold ----
MAX_PENDING = 16  # provinces a turn can bring to war (at most 2 plays of 2 figures: 4)
STATE = Layout(
    ("vp", MAX_SEATS), ("inf", MAX_SEATS * N_TRIBES), ("hand", MAX_SEATS * N_TRIBES), ("supply", N_TRIBES),
    ("discard", N_TRIBES), ("presence", N_TRIBES), ("peace", 4), ("tiles", MAX_SEATS), ("pacified", 1),
    ("total_mask", 1), ("deck_head", 1), ("deck_n", 1), ("end_triggered", 1), ("over", 1), ("end_reason", 1),
    ("start", 1), ("turns", 1), ("plies", 1), ("wars", 1), ("scorings", 1), ("removed", 1), ("placed", MAX_SEATS),
    ("support", MAX_SEATS), ("tiles_used", MAX_SEATS * 3), ("pending_n", 1), ("pending", MAX_PENDING),
    ("century_end", 4), ("plays_left", 1), ("triggered", 1), ("options", 1), ("bad_scoring", 1),
    # where the game stands between two decision points (the protocol, below)
    ("phase", 1), ("count", 1), ("seat", 1), ("decider", 1), ("last_active", 1), ("used", 1), ("plays", 1),
    ("bits", 1), ("tribe", 1), ("masks", N_TRIBES), ("limits", N_TRIBES), ("war_at", 1), ("war_k", 1),
    ("scored", 1), ("strength", N_TRIBES), ("lead", LEAD_FIELDS), ("lead_values", MAX_SEATS),
    # the board and the deck
    ("fig", MAX_PROVINCES * N_TRIBES), ("total", MAX_PROVINCES), ("deck", MAX_DECK))
S_VP, S_INF, S_HAND, S_SUPPLY, S_DISCARD, S_PRESENCE, S_PEACE, S_TILES = (
    STATE.vp, STATE.inf, STATE.hand, STATE.supply, STATE.discard, STATE.presence, STATE.peace, STATE.tiles)
S_PACIFIED, S_TOTAL_MASK, S_DECK_HEAD, S_DECK_N, S_END_TRIGGERED, S_OVER, S_END_REASON, S_START = (
    STATE.pacified, STATE.total_mask, STATE.deck_head, STATE.deck_n, STATE.end_triggered, STATE.over,
    STATE.end_reason, STATE.start)
S_TURNS, S_PLIES, S_WARS, S_SCORINGS, S_REMOVED, S_PLACED, S_SUPPORT, S_TILES_USED = (
    STATE.turns, STATE.plies, STATE.wars, STATE.scorings, STATE.removed, STATE.placed, STATE.support,
    STATE.tiles_used)
S_PENDING_N, S_PENDING, S_CENTURY_END, S_PLAYS_LEFT, S_TRIGGERED, S_OPTIONS, S_BAD_SCORING = (
    STATE.pending_n, STATE.pending, STATE.century_end, STATE.plays_left, STATE.triggered, STATE.options,
    STATE.bad_scoring)
S_PHASE, S_COUNT, S_SEAT, S_DECIDER, S_LAST_ACTIVE, S_USED, S_PLAYS, S_BITS, S_TRIBE = (
    STATE.phase, STATE.count, STATE.seat, STATE.decider, STATE.last_active, STATE.used, STATE.plays, STATE.bits,
    STATE.tribe)
S_MASKS, S_LIMITS, S_WAR_AT, S_WAR_K, S_SCORED, S_STRENGTH, S_LEAD, S_LEAD_VALUES = (
    STATE.masks, STATE.limits, STATE.war_at, STATE.war_k, STATE.scored, STATE.strength, STATE.lead,
    STATE.lead_values)
S_FIG, S_TOTAL, S_DECK = STATE.fig, STATE.total, STATE.deck
STATE_SIZE = STATE.size
# the policies' scratch (choose): the option pairs, the rollout world of the lookahead and what it needs
MAX_PAIRS = MAX_PROVINCES * N_TRIBES
SCRATCH = Layout(("opts", 2 * MAX_PAIRS), ("laid", N_TRIBES), ("limits", N_TRIBES), ("base", STATE_SIZE),
                 ("world", STATE_SIZE),
                 ("cands", 2 * MAX_PAIRS), ("totals", MAX_PAIRS), ("pool", MAX_DECK), ("roll", 3 * MAX_SEATS),
                 ("policy", 3 * MAX_SEATS))
W_OPTS, W_LAID, W_LIMITS, W_BASE, W_WORLD, W_CANDS, W_TOTALS, W_POOL, W_ROLL, W_POLICY = (
    SCRATCH.opts, SCRATCH.laid, SCRATCH.limits, SCRATCH.base, SCRATCH.world, SCRATCH.cands, SCRATCH.totals, SCRATCH.pool,
    SCRATCH.roll, SCRATCH.policy)
SCRATCH_SIZE = SCRATCH.size
N_STREAMS = 1 + MAX_SEATS  # chance, then one decision stream per seat; rollouts use a second set

END_REASONS = ("tenth_war", "track_end", "stall", "aborted")
TILE_DOUBLE, TILE_PLUS_TWO, TILE_EXCHANGE = 1, 2, 4
TILE_BITS = {"double_turn": TILE_DOUBLE, "plus_two": TILE_PLUS_TWO, "exchange": TILE_EXCHANGE}

# -- result columns: per-seat columns for 5 seats (unused seats stay 0) --------------------------
SEAT_FIELDS = ("score", "win", "figures_placed", "support_cards", "double_turn_used", "plus_two_used", "exchange_used")
COLUMNS = (("winner", "n_winners", "result", "start_player", "turns", "plies", "decisions", "options",
            "lead_changes", "decisive_turn", "wars", "century_scorings", "end_reason", "figures_removed",
            "century_end_turn_0", "century_end_turn_1", "century_end_turn_2", "century_end_turn_3")
           + tuple(f"{name}_{s}" for name in SEAT_FIELDS for s in range(MAX_SEATS))
           + tuple(f"influence_{s}_{t}" for s in range(MAX_SEATS) for t in range(N_TRIBES)))
# offsets from the names (toolkit.core.layout): a run written as offset + i is checked at import
(C_WINNER, C_N_WINNERS, C_RESULT, C_START, C_TURNS, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES,  # the design
 C_DECISIVE_TURN, C_WARS, C_SCORINGS, C_END_REASON, C_REMOVED) = (                                  # metrics too
    offset(COLUMNS, c) for c in ("winner", "n_winners", "result", "start_player", "turns", "plies", "decisions",
                                 "options", "lead_changes", "decisive_turn", "wars", "century_scorings",
                                 "end_reason", "figures_removed"))
# [4] the 1-based turn in which century c's peace stack ran out (0: never)
C_CENTURY_END = seat_run(COLUMNS, "century_end_turn", 4)
C_SEAT = block(COLUMNS, SEAT_FIELDS, MAX_SEATS)  # SEAT_FIELDS in order, MAX_SEATS columns each
C_INFLUENCE = block(COLUMNS, [f"influence_{s}" for s in range(MAX_SEATS)], N_TRIBES)  # [seat][tribe]
N_COLUMNS = len(COLUMNS)
RESULT_CODES = ("win", "shared", "aborted")
# check=True: the number of the §7 invariant violated (0 = none); 11 = the state's own bookkeeping
INV_FIGURES, INV_CARDS, INV_PROVINCE_CAP, INV_PEACE, INV_TRACKS, INV_HANDS, INV_TILES = 1, 2, 3, 4, 5, 6, 7
INV_SCORING, INV_PLACEMENT, INV_SCORINGS, INV_BOOKKEEPING = 8, 9, 10, 11
CATEGORIES = {"result": RESULT_CODES, "end_reason": END_REASONS}


def columns_for(n_players: int) -> tuple:
    """The columns of an ``n_players`` game: those of seats ``>= n_players`` are left out."""
    absent = {f"{name}_{s}" for name in SEAT_FIELDS for s in range(n_players, MAX_SEATS)}
    absent |= {f"influence_{s}_{t}" for s in range(n_players, MAX_SEATS) for t in range(N_TRIBES)}
    return tuple(c for c in COLUMNS if c not in absent)


# a seat's policy code (kernel.policy_code): its POLICY_ID (code & POLICY_BASE), the unused-tile mask
# << POLICY_MASK_SHIFT and the sample count << POLICY_SAMPLES_SHIFT
POLICY_BASE, POLICY_MASK_SHIFT, POLICY_SAMPLES_SHIFT = 3, 2, 5

# -- the decision points (§5) and their option codes (module docstring) -----------------------
DP_TILE, DP_SPLIT, DP_EXCHANGE, DP_PLAY, DP_DISCARD, DP_BONUS, DP_SUPPORT, PH_OVER = 1, 2, 3, 4, 5, 6, 7, 8
PROCEED = 0  # DP-1's last option (the others are their tile's bit)
INFLUENCE = 0  # DP-6's first option (the others are 1 + the province)
PAIR_SHIFT = 6  # DP-4's option (t, x) is t << PAIR_SHIFT | x: ascending in the spec's order
MAX_OPTIONS = max(MAX_PAIRS, 1 + MAX_PROVINCES, 21, 3 ** 4 * 2 ** 2)  # DP-3/7: at most 10 cards in hand
RS_SIZE = 2 * N_STREAMS  # the streams: chance and one per seat, then a second set for the rollouts
# every option code is below this (the OpenSpiel bridge's number of actions): DP-4's pairs
# t << PAIR_SHIFT | x above the others
ACTION_BOUND = N_TRIBES << PAIR_SHIFT
