"""Attila, the Numba fast path: the game's state machine.

Same rules, same random draws and same option order as ``reference.py``; the
tests check both produce identical games.  Rules and the map arrive as values
(:func:`to_kernel`): provinces are bits of an ``int64`` (at most 62), each
province's neighbours a bit set, and ``presence[t]`` the provinces holding
tribe ``t``, so the placement test of A-2 is a few bit operations.

Where things are
----------------
Here: the layouts of the rule vector (``P_*``), the state (``STATE``), the
policies' scratch (``SCRATCH``) and the result (``COLUMNS``);
:func:`to_kernel` and :func:`policy_ids`; the protocol's functions, whose
:func:`apply` runs the automatic steps (:func:`_run`); :func:`choose`, by
policy code; :func:`record`; last the wiring (``finish_kernel``).  Beside
it, each reading this module's layouts and imported at its end:

- ``mechanics.py``: the rules the steps apply: the deck, placement (A-2),
  the tiles (A-6), war (A-4), scoring (A-5), a turn's end (A-3, A-7);
- ``heuristics.py``: ``greedy`` and ``lookahead`` (``policies.py``'s, in
  Numba), ``evaluate``, ``determinize``, and the rollouts' turns played in
  one go (:func:`turn`, :func:`finish_turn`);
- ``invariants.py``: the §7 checks, and the lead measure;
- ``benchmarks/notes/attila.md``: the measurements behind this module's
  settings.

The decision-point protocol (``docs/architecture.md``, "The game protocol")
---------------------------------------------------------------------------
``play_game`` is made by ``core.wiring.finish_kernel`` of :func:`start`,
:func:`advance`, :func:`count`, :func:`nth`, :func:`options`, :func:`apply`,
:func:`choose`, :func:`check_step`, :func:`check_end` and :func:`record`; it
allocates nothing (the caller hands it the streams and ``work``: the state, the
options, a copy of the state and the policies' scratch ``SCRATCH``: the option
pairs and the lookahead's rollout world).  ``apply`` carries an option out and
then runs every automatic step (the rest of the turn, the wars, refills,
scorings, the next turns: ``_run``) up to the next decision point, so
``advance`` only names the seat to decide and :func:`start` runs the set-up and
turn 1 up to its first decision point.

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

The ``random`` policy is the driver's (one ``below(n)`` from the deciding
seat's stream, none for one option), exactly the draws of §5.  :func:`choose`
plays ``greedy`` and ``lookahead``; the driver hands it ``policies[seat]``,
so :func:`policy_ids` puts in that slot a code carrying the unused-tile mask
and the sample count too (:func:`policy_code`).  A ``lookahead`` seat is
greedy except at DP-4, where :func:`lookahead_play` scores the candidates by
rollouts; the rollouts still play whole turns with the turn functions
(:func:`turn`, :func:`finish_turn`: ``greedy`` everywhere, its decisions the
same functions :func:`choose` calls) in their own world, so they never touch
the real game's counters.

``check=True``: :func:`check_step` sees each step whole (the state at the
decision point and after the option and its automatic steps): §7.9 for a
DP-4 placement, §7.8 (tested in :func:`scoring` itself, which sets
``bad_scoring``), all of :func:`check_turn` (§7.1-7.7, 7.10 and the state's
own bit sets, code 11) when a turn ended in the step, compared with the state
at the step's decision point, else the comparisons of §7.3, 7.5 and 7.7
(:func:`check_monotone`); :func:`check_end` checks the final state.  A step
holds more than one turn end only when a turn offers no decision at all (an
empty hand with no tile to use): then only the last turn end of the step is
checked whole.  §7.8's bound with ``tie_rounding = up`` uses k - 1 = players
- 1, the largest tied group.  The first violated invariant's number is the
game's code (0 = none).

Design metrics
--------------
The columns ``decisions``, ``options``, ``lead_changes`` and ``decisive_turn``
(right after ``plies``), counted exactly as ``reference.py`` counts them:

- ``decisions``: the §5 decision points presented, DP-1 to DP-7, each one even
  with a single option; by §6 that is ``plies``, so the two columns agree.
  ``_decision`` counts one at every decision point the protocol stands at
  (:func:`decision_point` in the rollouts' turn functions).  Nothing else is one: the influence taken
  automatically with ``second_figure_option`` off, a play with an empty hand
  (no DP-5), a support turn with no layable card (no DP-7), refills and
  scorings.  The lookahead's rollouts play in their own world
  (the scratch's ``world``), so their decision points never reach the real game's
  counters.
- ``options``: the sum over those points of the options listed by §5 (the
  ones ``random`` draws among): DP-1 the usable tiles + proceed, DP-2 21,
  DP-3 the count vectors but all-zero, DP-4 the (tribe, province) pairs, DP-5
  the distinct tribes in hand, DP-6 influence + the legal provinces, DP-7 all
  count vectors over the layable tribes, all-zero included (:func:`n_vectors`).
- ``lead_changes`` / ``decisive_turn`` (``toolkit.core.lead``): the lead
  measure (:func:`lead_measure`) is each seat's VP so far on the score track,
  taken after every turn of the ``turns`` column.  VP are public, and they
  are what A-7 ranks, so the leader is the seat that would win if the game
  stopped now.  The influence tracks are public too, but what they will be
  worth depends on the figures still to come, and a "scoring now" estimate
  is a policy's guess (greedy's), not the score.  VP change only at scorings
  (at most four, §7.10), so nobody leads before the first century ends, and
  the lead can change only at a scoring; a winner by ``tiebreak =
  influence_sum`` does not lead on VP, so such a game's decisive turn is its
  last (core.lead).
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index, nth_set_bit, popcount
from toolkit.core.driver import index_of
from toolkit.core.jit import njit, njit_inline, njit_no_nrt
from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lookahead import deal_unseen, make_lookahead
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.core.wiring import finish_kernel, state_entry

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


def to_kernel(rules):
    board = rules.board
    ip = np.zeros(N_PARAMS, np.int64)
    ip[P_PLAYERS], ip[P_HAND], ip[P_CARDS] = rules.num_players, rules.hand_size, rules.cards_per_tribe
    ip[P_FIGURES], ip[P_THRESHOLD] = rules.figures_per_tribe, rules.war_threshold
    ip[P_TRACK_MAX], ip[P_END_ON_MAX] = rules.influence_track_max, rules.end_on_track_max
    ip[P_SECOND], ip[P_SUPPORT_ANY] = rules.second_figure_option, rules.support_any_tribe
    ip[P_TIE_REMOVES], ip[P_SINGLE_REMOVES] = rules.war_tie_removes_all_weakest, rules.single_tribe_war_removes
    ip[P_MAX_TILES], ip[P_ROUND_UP] = rules.max_tiles_per_turn, rules.tie_rounding == "up"
    ip[P_GAP] = -1 if rules.two_player_second_place_gap is None else rules.two_player_second_place_gap
    ip[P_SKIP_REFILL] = rules.initiator_skips_refill_after_war
    ip[P_START_RANDOM], ip[P_TIEBREAK_SUM] = rules.start_player == "random", rules.tiebreak == "influence_sum"
    ip[P_MAX_TURNS], ip[P_PROVINCES] = rules.max_turns, board.n
    ip[P_START_MASK] = sum(1 << x for x in board.start)
    for c in range(4):
        ip[P_PEACE + c] = rules.peace_tiles_per_century[c]
        ip[P_RATE + c] = rules.influence_rate_per_century[c]
    for x in range(board.n):
        ip[P_ADJ + x] = sum(1 << y for y in board.neighbours[x])
    ip[P_FINISH_ROUND], ip[P_LATER_VP] = rules.finish_round, rules.later_seat_vp
    return ip


def policy_ids(policies) -> np.ndarray:
    """Policy names -> ``[codes of seats 0..4, their sample counts, their unused-tile masks]``.

    A seat's code is what the driver hands :func:`choose` (``policies[seat]``): the id of
    :data:`POLICY_ID` in bits 0-1, the unused-tile mask in bits 2-4 and the sample count from bit 5
    (:func:`policy_code`); ``random`` is 0, as the driver expects."""
    from toolkit.games.attila.policies import parse_policy

    out = np.zeros(3 * MAX_SEATS, np.int64)
    for seat, name in enumerate(policies):
        base, samples, without = parse_policy(name)
        mask = sum(TILE_BITS[tile] for tile in without)
        out[seat] = policy_code(POLICY_ID[base], samples, mask)
        out[MAX_SEATS + seat], out[2 * MAX_SEATS + seat] = samples, mask
    return out


def policy_code(base: int, samples: int, mask: int) -> int:
    """A seat's policy code (:func:`policy_ids`); :data:`POLICY_ID` of it is ``code & POLICY_BASE``."""
    return base | mask << POLICY_MASK_SHIFT | samples << POLICY_SAMPLES_SHIFT


POLICY_BASE, POLICY_MASK_SHIFT, POLICY_SAMPLES_SHIFT = 3, 2, 5


# ------------------------------------------------------------------------ the protocol (one game)
#
# The decision-point protocol of docs/architecture.md: start, advance, kind, count, nth, options, apply,
# choose (greedy and lookahead; random is the driver's), check_step / check_end (§7) and record, over the
# state STATE.  ``apply`` carries an option out and runs the automatic steps after it (the rest of the
# turn, wars, refills, scorings, the next turns) up to the next decision point, so ``advance`` only says
# who decides, and every change of the state after the first decision point lies inside one step that
# ``check_step`` sees whole.  ``phase`` is the §5 number of the decision point the game stands at (1-7),
# or PH_OVER; ``count`` its number of options, ``seat`` the active player A and ``decider`` the seat to
# decide (A, or at DP-7 the supporting seat).

DP_TILE, DP_SPLIT, DP_EXCHANGE, DP_PLAY, DP_DISCARD, DP_BONUS, DP_SUPPORT, PH_OVER = 1, 2, 3, 4, 5, 6, 7, 8
PROCEED = 0  # DP-1's last option (the others are their tile's bit)
INFLUENCE = 0  # DP-6's first option (the others are 1 + the province)
PAIR_SHIFT = 6  # DP-4's option (t, x) is t << PAIR_SHIFT | x: ascending in the spec's order
MAX_OPTIONS = max(MAX_PAIRS, 1 + MAX_PROVINCES, 21, 3 ** 4 * 2 ** 2)  # DP-3/7: at most 10 cards in hand
# where apply's automatic steps start (_run)
GO_WINDOW, GO_PLAY, GO_WAR, GO_SUPPORT, GO_END = 0, 1, 2, 3, 4


@njit_inline
def _decision(st, phase, decider, n):
    """The game stands at a §5 decision point with ``n`` options: one more ply, ``n`` more options."""
    st[S_PHASE] = phase
    st[S_DECIDER] = decider
    st[S_COUNT] = n
    st[S_PLIES] += 1
    st[S_OPTIONS] += n


@njit_inline
def _vector_code(limits, laid):
    """The lexicographic index of the count vector ``laid`` among those with ``0 <= k_t <= limits[t]``."""
    code = 0
    for t in range(N_TRIBES):
        code = code * (limits[t] + 1) + laid[t]
    return code


@njit_inline
def _run(ip, st, rs, go):
    """The automatic steps of A-3/A-4 from ``go`` up to the next decision point (``phase`` 1-7) or the
    end (PH_OVER): the tile window's end, the plays, the wars and their support, the end of the turn."""
    n = ip[P_PLAYERS]
    seat = st[S_SEAT]
    while True:
        if go == GO_WINDOW:  # DP-1 while a tile is usable
            if st[S_USED] < ip[P_MAX_TILES]:
                usable = usable_tiles(st, seat)
                if usable != 0:
                    st[S_BITS] = usable
                    _decision(st, DP_TILE, seat, popcount(usable) + 1)
                    return
            st[S_PLAYS_LEFT] = st[S_PLAYS]
            go = GO_PLAY
        elif go == GO_PLAY:  # DP-4, else DP-5, else nothing, for each play
            if st[S_PLAYS_LEFT] == 0:
                st[S_TRIGGERED] = st[S_PENDING_N] > 0
                st[S_SCORED] = 0
                st[S_WAR_AT] = 0
                go = GO_WAR
                continue
            st[S_PLAYS_LEFT] -= 1
            pairs = 0
            for t in range(N_TRIBES):
                mask = legal_mask(ip, st, t) if st[S_HAND + N_TRIBES * seat + t] > 0 else np.int64(0)
                st[S_MASKS + t] = mask
                pairs += popcount(mask)
            if pairs > 0:
                _decision(st, DP_PLAY, seat, pairs)
                return
            distinct = distinct_tribes(st, seat)
            if distinct > 0:
                _decision(st, DP_DISCARD, seat, distinct)
                return
        elif go == GO_WAR:  # the next pending war, unless the game is over
            if st[S_WAR_AT] < st[S_PENDING_N] and st[S_OVER] == 0 and peace_left(st) > 0:
                for t in range(N_TRIBES):
                    st[S_STRENGTH + t] = 0
                st[S_WAR_K] = 0
                go = GO_SUPPORT
            else:
                go = GO_END
        elif go == GO_SUPPORT:  # DP-7 for each seat from A clockwise holding a layable card
            x = st[S_PENDING + st[S_WAR_AT]]
            k = st[S_WAR_K]
            if k < n:
                supporter = (seat + k) % n
                limits = st[S_LIMITS:S_LIMITS + N_TRIBES]
                if support_limits(ip, st, supporter, x, limits) > 0:
                    _decision(st, DP_SUPPORT, supporter, n_vectors(limits, False))
                    return
                st[S_WAR_K] = k + 1
            else:
                st[S_SCORED] |= resolve_war(ip, st, x, st[S_STRENGTH:S_STRENGTH + N_TRIBES])
                st[S_WAR_AT] += 1
                go = GO_WAR
        else:  # GO_END: the end of the turn, the lead, the next turn
            end_of_turn(ip, st, rs, seat, st[S_SCORED])
            lead_values = st[S_LEAD_VALUES:S_LEAD_VALUES + MAX_SEATS]
            lead_measure(st, n, lead_values)
            lead_update(st[S_LEAD:S_LEAD + LEAD_FIELDS], lead_values, n, st[S_TURNS])
            st[S_LAST_ACTIVE] = seat
            if st[S_OVER] == 1:
                st[S_PHASE] = PH_OVER
                return
            seat = (seat + 1) % n
            st[S_SEAT] = seat
            st[S_PENDING_N] = 0
            st[S_USED] = 0
            st[S_PLAYS] = 1
            go = GO_WINDOW


@njit_no_nrt
def start(params, st, rs):
    """A-1: the start player, the deck, the hands; then the first turn up to its first decision point."""
    ip = params
    for i in range(STATE_SIZE):
        st[i] = 0
    n = ip[P_PLAYERS]
    first = rng.below(rs, 0, n) if ip[P_START_RANDOM] == 1 else 0
    st[S_START] = first
    for k in range(n):  # the variant later_seat_vp (0 in the spec)
        st[S_VP + (first + k) % n] = k * ip[P_LATER_VP]
    for t in range(N_TRIBES):
        st[S_SUPPLY + t] = ip[P_FIGURES]
        st[S_DISCARD + t] = ip[P_CARDS]  # the canonical deck, shuffled from counts
    shuffle_into_deck(ip, st, rs, S_DISCARD)
    for t in range(N_TRIBES):
        st[S_DISCARD + t] = 0
    for c in range(4):
        st[S_PEACE + c] = ip[P_PEACE + c]
    for p in range(n):
        st[S_TILES + p] = TILE_DOUBLE | TILE_PLUS_TWO | TILE_EXCHANGE
        for _ in range(ip[P_HAND]):
            draw(ip, st, rs, p)
    lead_reset(st[S_LEAD:S_LEAD + LEAD_FIELDS])
    st[S_SEAT] = first
    st[S_PLAYS] = 1
    _run(ip, st, rs, GO_WINDOW)


@njit_inline
def advance(params, st, rs):
    """The seat to decide, or -1 at the end (``apply`` has already run the automatic steps)."""
    return -1 if st[S_PHASE] == PH_OVER else st[S_DECIDER]


kind = state_entry("kind", S_PHASE, "The §5 number of the current decision point (1-7).")
count = state_entry("count", S_COUNT, "The number of options of the current decision point.")


@njit_inline
def nth(params, st, i):
    """The code of option ``i`` of the current decision point (module docstring), in the spec's order."""
    phase = st[S_PHASE]
    if phase == DP_PLAY:
        for t in range(N_TRIBES):
            mask = st[S_MASKS + t]
            c = popcount(mask)
            if i < c:
                return t << PAIR_SHIFT | nth_set_bit(mask, i)
            i -= c
        return -1
    if phase == DP_SUPPORT or phase == DP_SPLIT:
        return i
    if phase == DP_EXCHANGE:
        return i + 1  # the all-zero vector is not an option
    if phase == DP_TILE:
        if i == st[S_COUNT] - 1:
            return PROCEED
        return np.int64(1) << nth_set_bit(st[S_BITS], i)
    if phase == DP_BONUS:
        return INFLUENCE if i == 0 else 1 + nth_set_bit(st[S_BITS], i - 1)
    return nth_tribe_in_hand(st, st[S_SEAT], i)  # DP_DISCARD


@njit_inline
def options(params, st, out):
    """The options' codes in the spec's order into ``out``; returns their number."""
    n = st[S_COUNT]
    if st[S_PHASE] == DP_PLAY:
        k = 0
        for t in range(N_TRIBES):
            bits = st[S_MASKS + t]
            while bits != 0:
                out[k] = t << PAIR_SHIFT | lowest_bit_index(bits)
                bits &= bits - 1
                k += 1
        return n
    for i in range(n):
        out[i] = nth(params, st, i)
    return n


@njit_inline
def lay_vector(st, option, seat, to):
    """The cards of a count-vector option (DP-7's support, DP-3's exchange: one count per tribe, in mixed radix
    with ``st[S_LIMITS + t] + 1`` values per tribe, the last tribe lowest) moved from ``seat``'s hand onto
    ``st[to + t]``; returns how many cards moved."""
    laid = 0
    for t in range(N_TRIBES - 1, -1, -1):
        room = st[S_LIMITS + t] + 1
        k = option % room
        option //= room
        st[S_HAND + N_TRIBES * seat + t] -= k
        st[to + t] += k
        laid += k
    return laid


@njit_inline
def apply(params, st, rs, option):
    """Carry out ``option`` of the current decision point, then the automatic steps up to the next one."""
    ip = params
    phase = st[S_PHASE]
    seat = st[S_SEAT]
    if phase == DP_PLAY:
        t = option >> PAIR_SHIFT
        play_card(ip, st, seat, t, option & ((1 << PAIR_SHIFT) - 1))
        if ip[P_SECOND] == 1:  # DP-6, even with influence its only option
            bits = legal_mask(ip, st, t)
            st[S_TRIBE] = t
            st[S_BITS] = bits
            _decision(st, DP_BONUS, seat, popcount(bits) + 1)
            return
        gain_influence(ip, st, seat, t, ip[P_RATE + century(st)])
        go = GO_PLAY
    elif phase == DP_SUPPORT:
        supporter = st[S_DECIDER]
        st[S_SUPPORT + supporter] += lay_vector(st, option, supporter, S_STRENGTH)
        st[S_WAR_K] += 1
        go = GO_SUPPORT
    elif phase == DP_BONUS:
        t = st[S_TRIBE]
        if option == INFLUENCE:
            gain_influence(ip, st, seat, t, ip[P_RATE + century(st)])
        else:
            place(ip, st, seat, t, option - 1)
        go = GO_PLAY
    elif phase == DP_TILE:
        if option == PROCEED:
            st[S_PLAYS_LEFT] = st[S_PLAYS]
            go = GO_PLAY
        else:
            st[S_USED] += 1
            use_tile(st, seat, option)
            if option == TILE_PLUS_TWO:
                _decision(st, DP_SPLIT, seat, 21)
                return
            if option == TILE_EXCHANGE:
                for t in range(N_TRIBES):
                    st[S_LIMITS + t] = st[S_HAND + N_TRIBES * seat + t]
                _decision(st, DP_EXCHANGE, seat, n_vectors(st[S_LIMITS:S_LIMITS + N_TRIBES], True))
                return
            st[S_PLAYS] = 2  # Double turn
            go = GO_WINDOW
    elif phase == DP_SPLIT:
        apply_split(ip, st, seat, option)
        go = GO_WINDOW
    elif phase == DP_EXCHANGE:
        for _ in range(lay_vector(st, option, seat, S_DISCARD)):
            draw(ip, st, rs, seat)
        go = GO_WINDOW
    else:  # DP_DISCARD
        st[S_HAND + N_TRIBES * seat + option] -= 1
        st[S_DISCARD + option] += 1
        go = GO_PLAY
    _run(ip, st, rs, go)


@njit_inline
def _pairs(opts, n, scratch):
    """DP-4's options ``opts[:n]`` as ``(tribe, province)`` pairs at ``scratch[W_OPTS:]`` (where the
    lookahead reads them)."""
    for i in range(n):
        scratch[W_OPTS + 2 * i] = opts[i] >> PAIR_SHIFT
        scratch[W_OPTS + 2 * i + 1] = opts[i] & ((1 << PAIR_SHIFT) - 1)


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` or ``lookahead`` (``policy``: a code of :func:`policy_ids`): the index of the chosen
    option among ``opts[:n]`` (``random`` is the driver's).  A ``lookahead`` seat is greedy but at DP-4."""
    if st[S_PHASE] != DP_PLAY or policy & POLICY_BASE != 2:
        return choose_plain(params, policy, st, rs, seat, opts, n, scratch)
    _pairs(opts, n, scratch)
    policies = scratch[W_POLICY:W_POLICY + 3 * MAX_SEATS]  # the seat's entries of policy_ids
    policies[seat] = 2
    policies[MAX_SEATS + seat] = policy >> POLICY_SAMPLES_SHIFT
    policies[2 * MAX_SEATS + seat] = (policy >> POLICY_MASK_SHIFT) & 7
    lookahead_play(params, st, rs, seat, scratch, policies, n)
    return index_of(opts, n, scratch[W_OPTS] << PAIR_SHIFT | scratch[W_OPTS + 1])


@njit
def choose_plain(params, policy, st, rs, seat, opts, n, scratch):
    """:func:`choose` without the ``lookahead`` (``core.driver.make_play_game``): ``greedy``, the plain
    copy's; a line-up with a ``lookahead`` seat runs the whole copy (:func:`lookahead_in`)."""
    ip = params
    phase = st[S_PHASE]
    if phase == DP_PLAY:
        _pairs(opts, n, scratch)
        return greedy_play(ip, st, rs, seat, scratch[W_OPTS:W_OPTS + 2 * MAX_PAIRS], n)
    if phase == DP_TILE:
        return greedy_tile(ip, st, seat, st[S_BITS], (policy >> POLICY_MASK_SHIFT) & 7)
    if phase == DP_SPLIT:
        return greedy_plus_two(ip, st, rs, seat)
    if phase == DP_BONUS:
        return greedy_bonus(ip, st, rs, seat, st[S_TRIBE], st[S_BITS])
    if phase == DP_DISCARD:
        return greedy_discard(st, rs, seat)
    limits = st[S_LIMITS:S_LIMITS + N_TRIBES]
    laid = scratch[W_LAID:W_LAID + N_TRIBES]
    if phase == DP_EXCHANGE:
        greedy_exchange(ip, st, limits, laid)
        return _vector_code(limits, laid) - 1
    greedy_support(ip, st, seat, st[S_PENDING + st[S_WAR_AT]], limits, laid)  # DP_SUPPORT
    return _vector_code(limits, laid)


def lookahead_in(policies) -> bool:
    """Whether a line-up (:func:`policy_ids`) has a ``lookahead`` seat, which only the whole copy of the
    driver plays (:func:`choose_plain`, ``core.driver.copy_for``)."""
    codes = policies[:MAX_SEATS]
    return bool(((codes > 0) & (codes & POLICY_BASE == 2)).any())  # an mcts seat's code is negative


@njit_no_nrt
def record(params, st, row):
    """A-7 and the §6 record of a finished game into ``row`` (COLUMNS)."""
    ip = params
    for i in range(row.shape[0]):
        row[i] = 0
    n = ip[P_PLAYERS]
    aborted = st[S_END_REASON] == 3
    best = st[S_VP]
    for p in range(1, n):
        best = max(best, st[S_VP + p])
    best_sum = -1
    if ip[P_TIEBREAK_SUM] == 1:
        for p in range(n):
            if st[S_VP + p] == best:
                total = 0
                for t in range(N_TRIBES):
                    total += st[S_INF + N_TRIBES * p + t]
                best_sum = max(best_sum, total)
    winners = 0
    winner = -1
    for p in range(n):
        win = st[S_VP + p] == best and not aborted
        if win and best_sum >= 0:
            total = 0
            for t in range(N_TRIBES):
                total += st[S_INF + N_TRIBES * p + t]
            win = total == best_sum
        if win:
            winners += 1
            winner = p
            row[C_SEAT + MAX_SEATS + p] = 1
    row[C_WINNER] = winner if winners == 1 else -1
    row[C_N_WINNERS] = winners
    row[C_RESULT] = 2 if aborted else (0 if winners == 1 else 1)
    row[C_START] = st[S_START]
    row[C_TURNS] = st[S_TURNS]
    row[C_PLIES] = st[S_PLIES]
    row[C_DECISIONS] = st[S_PLIES]  # §6: plies are the decision points presented, so the two agree
    row[C_OPTIONS] = st[S_OPTIONS]
    changes, decisive = lead_result(st[S_LEAD:S_LEAD + LEAD_FIELDS], row[C_WINNER], st[S_TURNS])
    row[C_LEAD_CHANGES] = changes
    row[C_DECISIVE_TURN] = decisive
    row[C_WARS] = st[S_WARS]
    row[C_SCORINGS] = st[S_SCORINGS]
    row[C_END_REASON] = st[S_END_REASON]
    row[C_REMOVED] = st[S_REMOVED]
    for c in range(4):
        row[C_CENTURY_END + c] = st[S_CENTURY_END + c]
    for p in range(n):
        row[C_SEAT + p] = st[S_VP + p]
        row[C_SEAT + 2 * MAX_SEATS + p] = st[S_PLACED + p]
        row[C_SEAT + 3 * MAX_SEATS + p] = st[S_SUPPORT + p]
        for k in range(3):
            row[C_SEAT + (4 + k) * MAX_SEATS + p] = st[S_TILES_USED + 3 * p + k]
        for t in range(N_TRIBES):
            row[C_INFLUENCE + N_TRIBES * p + t] = st[S_INF + N_TRIBES * p + t]


# the rules the steps apply, the policies and the §7 checks, in modules of their own over the names above
from toolkit.games.attila.mechanics import (  # noqa: E402
    shuffle_into_deck, draw, hand_total, legal_mask, century, gain_influence, place, share, scoring, scoring_bound,
    tribe_gain, n_vectors, usable_tiles, use_tile, apply_split, distinct_tribes, nth_tribe_in_hand, play_card,
    support_limits, resolve_war, peace_left, any_placement_possible, end_of_turn,
)
from toolkit.games.attila.heuristics import (  # noqa: E402
    gain_for, gain_with_influence, put_figure, plus_two_gain, greedy_tile, greedy_plus_two, greedy_exchange,
    greedy_play, greedy_discard, greedy_bonus, greedy_support, decision_point, pick, pick_vector, tile_window,
    list_plays, forced_discard, apply_play, play, war, turn, finish_turn, position_value, evaluate, determinize,
    rollout_value, lookahead_play,
)
from toolkit.games.attila.invariants import (  # noqa: E402
    check_turn, lead_measure, check_monotone, check_step, check_end,
)

RS_SIZE = 2 * N_STREAMS  # the streams: chance and one per seat, then a second set for the rollouts
# The mcts policy's default search (core.mcts.game_defaults): flat Monte Carlo over the root's options (each
# world searched through every root option, children only after 1,000 visits), greedy rollouts cut off after
# 16 plies and at the seat's next turn, a graded reward: the strongest measured (benchmarks/notes/attila.md)
MCTS_ROLLOUT, MCTS_CUTOFF = "greedy", 16
MCTS_ROOT_SWEEP, MCTS_EXPAND_AFTER, MCTS_CUTOFF_AT_TURN, MCTS_REWARD_SCALE = True, 1000, True, 10.0
# the plain and random copies inline advance and apply: 12% faster with random seats, no cost in cold
# compile (benchmarks/notes/attila.md)
INLINE_STEPS = True
# returns, advance_called, apply_called, mcts, play_game, WORK_SIZE and play_many (core.wiring)
# every option code is below this (the OpenSpiel bridge's number of actions): DP-4's pairs
# t << PAIR_SHIFT | x above the others
ACTION_BOUND = N_TRIBES << PAIR_SHIFT
finish_kernel(globals())
