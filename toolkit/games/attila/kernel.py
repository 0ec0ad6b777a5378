"""Attila, the Numba fast path: the game's kernel, its protocol wired into the drivers.

Same rules, same random draws and same option order as ``reference.py``; the
tests check both produce identical games.  Rules and the map arrive as values
(:func:`to_kernel`): provinces are bits of an ``int64`` (at most 62), each
province's neighbours a bit set, and ``presence[t]`` the provinces holding
tribe ``t``, so the placement test of A-2 is a few bit operations.

Where things are
----------------
The game's modules import in one direction, each from those above it in this
list only:

- ``layout.py``: the layouts of the rule vector (``P_*``), the state
  (``STATE``, what each field holds), the policies' scratch (``SCRATCH``) and
  the result (``COLUMNS``), the decision points and their option codes, the
  §7 violation codes and the sizes;
- ``mechanics.py``: the rules the steps apply (the deck, placement (A-2),
  the tiles (A-6), war (A-4), scoring (A-5), a turn's end (A-3, A-7)), the
  lead measure, and the protocol's functions (``start``, ``advance``,
  ``kind``, ``count``, ``nth``, ``options``, ``apply``, whose automatic steps
  are ``_run``, and ``record``; its docstring tells how the protocol runs the
  game and how the design metrics are counted);
- ``heuristics.py``: ``greedy`` and ``lookahead`` (``policies.py``'s, in
  Numba), ``evaluate``, ``determinize``, and the rollouts' turns played in
  one go (``turn``, ``finish_turn``);
- ``invariants.py``: the §7 checks (``check=True``);
- here: :func:`to_kernel` and :func:`policy_ids`; :func:`choose`, by policy
  code; last the wiring (``finish_kernel``), which finds the protocol in this
  module's names: the modules above are imported at the top, their names
  readable as ``kernel.X``;
- ``benchmarks/notes/attila.md``: the measurements behind this module's
  settings.

The ``random`` policy is the driver's (one ``below(n)`` from the deciding
seat's stream, none for one option), exactly the draws of §5.  :func:`choose`
plays ``greedy`` and ``lookahead``; the driver hands it ``policies[seat]``,
so :func:`policy_ids` puts in that slot a code carrying the unused-tile mask
and the sample count too (:func:`policy_code`).  A ``lookahead`` seat is
greedy except at DP-4, where ``heuristics.lookahead_play`` scores the
candidates by rollouts; the rollouts still play whole turns with the turn
functions (``heuristics.turn``, ``heuristics.finish_turn``: ``greedy``
everywhere, its decisions the same functions :func:`choose` calls) in their
own world, so they never touch the real game's counters.
"""
from __future__ import annotations

import numpy as np

from toolkit.core.driver import index_of
from toolkit.core.jit import njit, njit_inline
from toolkit.core.wiring import finish_kernel
# the modules below the kernel (module docstring): the protocol finish_kernel wires, and the names read as kernel.X
from toolkit.games.attila.heuristics import (
    apply_play, decision_point, determinize, evaluate, finish_turn, forced_discard, gain_for, gain_with_influence,
    greedy_bonus, greedy_discard, greedy_exchange, greedy_play, greedy_plus_two, greedy_support, greedy_tile,
    list_plays, lookahead_play, pick, pick_vector, play, plus_two_gain, position_value, put_figure, rollout_value,
    tile_window, turn, war,
)
from toolkit.games.attila.invariants import check_end, check_monotone, check_step, check_turn
from toolkit.games.attila.layout import (
    ACTION_BOUND, CATEGORIES, COLUMNS, C_CENTURY_END, C_DECISIONS, C_DECISIVE_TURN, C_END_REASON, C_INFLUENCE,
    C_LEAD_CHANGES, C_N_WINNERS, C_OPTIONS, C_PLIES, C_REMOVED, C_RESULT, C_SCORINGS, C_SEAT, C_START, C_TURNS, C_WARS,
    C_WINNER, DP_BONUS, DP_DISCARD, DP_EXCHANGE, DP_PLAY, DP_SPLIT, DP_SUPPORT, DP_TILE, END_REASONS, INFLUENCE,
    INV_BOOKKEEPING, INV_CARDS, INV_FIGURES, INV_HANDS, INV_PEACE, INV_PLACEMENT, INV_PROVINCE_CAP, INV_SCORING,
    INV_SCORINGS, INV_TILES, INV_TRACKS, MAX_DECK, MAX_OPTIONS, MAX_PAIRS, MAX_PENDING, MAX_PROVINCES, MAX_SEATS,
    N_COLUMNS, N_PARAMS, N_STREAMS, N_TRIBES, PAIR_SHIFT, PH_OVER, POLICY_BASE, POLICY_ID, POLICY_MASK_SHIFT,
    POLICY_SAMPLES_SHIFT, PROCEED, P_ADJ, P_CARDS, P_END_ON_MAX, P_FIGURES, P_FINISH_ROUND, P_GAP, P_HAND, P_LATER_VP,
    P_MAX_TILES, P_MAX_TURNS, P_PEACE, P_PLAYERS, P_PROVINCES, P_RATE, P_ROUND_UP, P_SECOND, P_SINGLE_REMOVES,
    P_SKIP_REFILL, P_START_MASK, P_START_RANDOM, P_SUPPORT_ANY, P_THRESHOLD, P_TIEBREAK_SUM, P_TIE_REMOVES, P_TRACK_MAX,
    RESULT_CODES, RS_SIZE, SCRATCH, SCRATCH_SIZE, SEAT_FIELDS, STATE, STATE_SIZE, S_BAD_SCORING, S_BITS, S_CENTURY_END,
    S_COUNT, S_DECIDER, S_DECK, S_DECK_HEAD, S_DECK_N, S_DISCARD, S_END_REASON, S_END_TRIGGERED, S_FIG, S_HAND, S_INF,
    S_LAST_ACTIVE, S_LEAD, S_LEAD_VALUES, S_LIMITS, S_MASKS, S_OPTIONS, S_OVER, S_PACIFIED, S_PEACE, S_PENDING,
    S_PENDING_N, S_PHASE, S_PLACED, S_PLAYS, S_PLAYS_LEFT, S_PLIES, S_PRESENCE, S_REMOVED, S_SCORED, S_SCORINGS, S_SEAT,
    S_START, S_STRENGTH, S_SUPPLY, S_SUPPORT, S_TILES, S_TILES_USED, S_TOTAL, S_TOTAL_MASK, S_TRIBE, S_TRIGGERED,
    S_TURNS, S_USED, S_VP, S_WARS, S_WAR_AT, S_WAR_K, TILE_BITS, TILE_DOUBLE, TILE_EXCHANGE, TILE_PLUS_TWO, W_BASE,
    W_CANDS, W_LAID, W_LIMITS, W_OPTS, W_POLICY, W_POOL, W_ROLL, W_TOTALS, W_WORLD, columns_for,
)
from toolkit.games.attila.mechanics import (
    advance, any_placement_possible, apply, apply_split, century, count, distinct_tribes, draw, end_of_turn,
    gain_influence, hand_total, kind, lay_vector, lead_measure, legal_mask, n_vectors, nth, nth_tribe_in_hand, options,
    peace_left, place, play_card, record, resolve_war, scoring, scoring_bound, share, shuffle_into_deck, start,
    support_limits, tribe_gain, usable_tiles, use_tile,
)


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


@njit_inline
def _vector_code(limits, laid):
    """The lexicographic index of the count vector ``laid`` among those with ``0 <= k_t <= limits[t]``."""
    code = 0
    for t in range(N_TRIBES):
        code = code * (limits[t] + 1) + laid[t]
    return code


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


# The mcts policy's default search (core.mcts.game_defaults): flat Monte Carlo over the root's options (each
# world searched through every root option, children only after 1,000 visits), greedy rollouts cut off after
# 16 plies and at the seat's next turn, a graded reward: the strongest measured (benchmarks/notes/attila.md)
MCTS_ROLLOUT, MCTS_CUTOFF = "greedy", 16
MCTS_ROOT_SWEEP, MCTS_EXPAND_AFTER, MCTS_CUTOFF_AT_TURN, MCTS_REWARD_SCALE = True, 1000, True, 10.0
# the plain and random copies inline advance and apply: 12% faster with random seats, no cost in cold
# compile (benchmarks/notes/attila.md)
INLINE_STEPS = True
# returns, advance_called, apply_called, mcts, play_game, WORK_SIZE and play_many (core.wiring)
finish_kernel(globals())
