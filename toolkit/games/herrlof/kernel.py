"""Herrlof, the Numba fast path: the game's kernel, its protocol wired into the drivers.

Same rules, same random draws and same option order as ``reference.py``
(whose docstring lists the draw order and the spec choices); the tests check
both produce identical games.  Rules arrive as values (:func:`to_kernel`), so
changing a rule never recompiles.  The round is the same state machine as in
the reference: ``mechanics.to_decision`` runs the automatic steps up to the
next decision point, ``mechanics.apply_decision`` applies one option.

Where things are
----------------
The game's modules import in one direction, each from those above it in this
list only:

- ``layout.py``: the layouts of the rule vector (``P_*``), the state
  (``STATE``), the policies' scratch (``SCRATCH``) and the result
  (``COLUMNS``), the decision points' and phases' codes, the §7 violation
  codes and the sizes;
- ``tricks.py``: the cards and hands, a trick (R-3) and the effects after it
  (R-4);
- ``mechanics.py``: R-5's points, the state machine (``to_decision``,
  ``apply_decision``, the deal ``deal_round``) and the protocol's rule
  functions (``start``, ``advance``, ``nth``, ``options``, ``apply``,
  ``record``; its docstring tells how the protocol runs the game);
- ``heuristics.py``: ``greedy`` and ``lookahead`` (``policies.py``'s, in
  Numba), ``evaluate``, ``determinize``;
- ``invariants.py``: the §7 checks;
- here: :func:`to_kernel`, :func:`policy_ids`, the protocol's ``kind`` and
  ``count``, :func:`choose` by policy code, and last the wiring
  (``finish_kernel``), which finds the protocol in this module's names: the
  modules above are imported at the top, their names readable as
  ``kernel.X``.

Above the kernel, ``roundlog.py`` plays the games again with their per-round
log (``herrlof.round_log``) over the wired ``play_game``.  The measurements
behind this module's settings are in ``benchmarks/notes/herrlof.md``.

A seat's policy code (:func:`policy_ids`) is its ``POLICY_ID``, plus for
``lookahead`` its samples ``<< SAMPLES_SHIFT``, plus a bit
``DECLINES_SHIFT + kind`` for each decision kind it always declines
(``greedy:no_steal``): the driver hands :func:`choose` the seat's code only.
"""
from __future__ import annotations

import numpy as np

from toolkit.core.driver import index_of
from toolkit.core.jit import njit
from toolkit.core.wiring import finish_kernel, state_entry
# the modules below the kernel (module docstring): the protocol finish_kernel wires, and the names read as kernel.X
from toolkit.games.herrlof.heuristics import (
    determinize, evaluate, first_best, greedy_bid, greedy_choice, hand_strength, lead_low_key, lookahead_choice,
    lose_key, power, rollout_value, shed_key,
)
from toolkit.games.herrlof.invariants import check_cards, check_end, check_round, check_state, check_step
from toolkit.games.herrlof.layout import (
    ACTION_BOUND, COLUMNS, COPY_SIZE, C_DECISIONS, C_DECISIVE_TURN, C_DESTROYED, C_FIRST_DEALER, C_LEAD_CHANGES,
    C_NO_TRUMP, C_OPTIONS, C_PLIES, C_RESULT, C_ROUNDS, C_SEAT, C_SEAT_PLIES, C_TRUMP_CHANGES, C_TURNS, C_WIN, C_WINNER,
    DECLINE, DECLINES_SHIFT, DESTROYED, DESTROYED_LEADER, DP_BID, DP_CARD, DP_GIVE, DP_STEAL, DP_SWAP, DP_TRADE,
    DP_TRADE_DISCARD, EFFECT, FIRST_DEALER, GREEDY, HIDDEN_RECORDS, INV_BOUNDS, INV_CARDS, INV_FOLLOW, INV_HAND_SIZES,
    INV_ROUNDS, INV_ROUND_POINTS, INV_SCORES, INV_STOCK, INV_TRICKS, INV_TRUMP, LOOKAHEAD, MANDATORY, MAX_DECK,
    MAX_FACES, MAX_OPTIONS, MAX_TRICKS, N_COLUMNS, N_PARAMS, OFF, OPTIONAL, PH_BID, PH_FOLLOW, PH_GIVE, PH_LEAD,
    PH_NEXT_LEADER, PH_ONE, PH_ONE_DECIDE, PH_OVER, PH_ROUND_END, PH_SIX, PH_SIX_DECIDE, PH_THREE, PH_THREE_DISCARD,
    POLICY_ID, P_CONS, P_CONS_EXACT, P_CONS_MASK, P_DECK, P_DESTROYED_LEADER, P_DH_SECOND, P_DV_CHANGE, P_E1, P_E3,
    P_E6, P_E9, P_EXACT, P_FIRST_DEALER, P_HAND, P_MAX_ROUNDS, P_NN, P_NV, P_POINTS_HI, P_POINTS_LO, P_PPT, P_RANK,
    P_RANK_MASK, P_REDRAW, P_SCORES_MONOTONE, P_SPECIALS_PLAYABLE, P_SUITED, P_SUITS, P_SUIT_MASK, P_TARGET,
    P_THREE_WON, P_TIEBREAK_DRAW, P_TRUMP_ANY, P_V_OVERRIDES, RANDOM, RESULT_CODES, ROLLOUT_SIZE, RS_SIZE,
    SAMPLES_SHIFT, SCRATCH, SCRATCH_SIZE, SEAT_FIELDS, STATE, STATE_SIZE, S_BID, S_BID_TURN, S_BURIED_N, S_COUNTS,
    S_DEALER, S_DECK, S_DESTROYED, S_DESTROYED_AT_START, S_DISC, S_DISC_N, S_DKIND, S_DSEAT, S_EXACT, S_FIRST_DEALER,
    S_FOLLOW, S_HBITS, S_HN, S_IND, S_KNOWN, S_LEAD, S_LEADER, S_LEAD_TRACKER, S_MASK, S_N, S_NC, S_NO_TRUMP_ROUNDS,
    S_OFFERED, S_PHASE, S_PLIES, S_ROUND, S_ROUND_POINTS, S_SCORE, S_SEAT_PLIES, S_SEEN, S_STEALS, S_STOCK,
    S_STOCK_HEAD, S_STOCK_LAST, S_STOCK_TAIL, S_SWAPS, S_TAKEN, S_THREES_OWNER, S_THREE_N, S_THREE_Q, S_TRADES,
    S_TRICKS_PLAYED, S_TRICKS_WON, S_TRICK_LEADER, S_TRICK_N, S_TRICK_WINNER, S_TRUMP, S_TRUMP_CHANGES, S_TURNS, S_VC,
    S_VOID, S_WIN_FACE, S_WON, S_WON_N, W_BASE, W_CANDS, W_OPTS2, W_POOL, W_REST, W_TOTALS, W_WORLD, YES,
)
from toolkit.games.herrlof.mechanics import (
    advance, apply, apply_decision, deal_round, decide_at, effect_due, lead_measure, list_options, next_decision, nth,
    options, pop_three, record, round_points, score_round, start, to_decision,
)
from toolkit.games.herrlof.policies import BID_WINDOW, DECLINABLE, parse_policy
from toolkit.games.herrlof.tricks import (
    change_trump, draw_for_trade, give, hand_add, hand_card_at, hand_count, hand_mask, hand_remove, is_trump,
    legal_mask, mask_to_options, next_leader, play_card, rank_of, resolve_trick, steal, suit_of, take_for_swap,
    trick_winner,
)


def to_kernel(rules):
    """Rules -> the int64 parameter vector."""
    ip = np.zeros(N_PARAMS, np.int64)
    r = rules.max_rank
    ip[P_SUITS], ip[P_RANK], ip[P_NV], ip[P_NN] = rules.suits, r, rules.valknut_count, rules.hagalaz_count
    ip[P_HAND] = rules.hand_size
    ip[P_FIRST_DEALER] = FIRST_DEALER[rules.first_dealer]
    ip[P_REDRAW] = rules.special_indicator_means == "redraw"
    ip[P_TRUMP_ANY] = rules.trump_anytime
    ip[P_SPECIALS_PLAYABLE] = rules.specials_always_playable
    ip[P_DH_SECOND] = rules.double_hagalaz_winner == "second_played"
    ip[P_DV_CHANGE] = rules.double_valknut_changes_trump
    ip[P_DESTROYED_LEADER] = DESTROYED_LEADER[rules.destroyed_trick_next_leader]
    ip[P_V_OVERRIDES] = rules.valknut_overrides_hagalaz_lead
    ip[P_E1], ip[P_E3], ip[P_E6] = EFFECT[rules.effect_1], EFFECT[rules.effect_3], EFFECT[rules.effect_6]
    ip[P_THREE_WON] = rules.three_trigger == "won"
    ip[P_E9] = rules.effect_9
    ip[P_PPT], ip[P_EXACT], ip[P_CONS] = rules.points_per_trick, rules.exact_bid_bonus, rules.consolation_bonus
    ip[P_CONS_MASK] = sum(1 << k for k in rules.consolation_range)
    ip[P_CONS_EXACT] = rules.consolation_requires_exact_bid
    ip[P_TARGET], ip[P_MAX_ROUNDS] = rules.target_score, rules.max_rounds
    ip[P_TIEBREAK_DRAW] = rules.tiebreak == "draw"
    ip[P_DECK], ip[P_SUITED] = rules.deck_size, rules.suited_cards
    from toolkit.games.herrlof.reference import round_points

    points = [round_points(rules, won, bid) for won in range(rules.hand_size + 1) for bid in range(rules.hand_size + 1)]
    ip[P_POINTS_LO], ip[P_POINTS_HI] = min(points), max(points)
    ip[P_SCORES_MONOTONE] = min(points) >= 0
    for s in range(rules.suits):
        ip[P_SUIT_MASK + s] = ((1 << r) - 1) << (s * r)
    for rank in range(1, r + 1):
        ip[P_RANK_MASK + rank] = sum(1 << (s * r + rank - 1) for s in range(rules.suits))
    return ip


def policy_ids(policies) -> np.ndarray:
    """Policy names -> the seats' policy codes and sample counts: ``[code_0, code_1, samples_0, samples_1]``.

    A code is the policy's ``POLICY_ID``, plus for ``lookahead`` its samples ``<< SAMPLES_SHIFT``, plus
    ``1 << (DECLINES_SHIFT + kind)`` for each decision kind it declines: the driver hands :func:`choose`
    only the seat's code (``random``'s is 0, as the driver wants)."""
    out = np.zeros(4, np.int64)
    for seat, name in enumerate(policies):
        base, samples, declines = parse_policy(name)
        out[seat] = (POLICY_ID[base] + (samples << SAMPLES_SHIFT if base == "lookahead" else 0)
                     + sum(1 << (DECLINES_SHIFT + DECLINABLE[option]) for option in declines))
        out[2 + seat] = samples
    return out


# the protocol's reads of the pending decision point; made here, as state_entry files each beside the module
# that calls it (tests/core/test_warm.py takes the compiled kernel.kind out of a warmed cache)
kind = state_entry("kind", S_DKIND, "The §5 kind of the current decision point: DP_BID .. DP_GIVE (1..7).")
count = state_entry("count", S_N, "The number of options of the current decision point (the bits of ``st[S_MASK]``).")


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (code 1) or ``lookahead`` (code 2 + samples << SAMPLES_SHIFT), either declining the
    decision kinds of its bits ``DECLINES_SHIFT + kind``: the chosen option's index."""
    if (policy >> (DECLINES_SHIFT + st[S_DKIND])) & 1 or policy & ((1 << DECLINES_SHIFT) - 1) == GREEDY:
        return choose_plain(params, policy, st, rs, seat, opts, n, scratch)
    code = policy & ((1 << DECLINES_SHIFT) - 1)
    return index_of(opts, n, lookahead_choice(params, st, opts, n, code >> SAMPLES_SHIFT, rs, scratch))


@njit
def choose_plain(params, policy, st, rs, seat, opts, n, scratch):
    """:func:`choose` without the ``lookahead`` (``core.driver.make_play_game``): ``greedy``, the plain
    copy's; a line-up with a ``lookahead`` seat runs the whole copy (:func:`lookahead_in`)."""
    if (policy >> (DECLINES_SHIFT + st[S_DKIND])) & 1:
        return index_of(opts, n, DECLINE)
    return index_of(opts, n, greedy_choice(params, st, opts, n))


def lookahead_in(policies) -> bool:
    """Whether a line-up (:func:`policy_ids`) has a seat that :func:`choose_plain` does not play (a
    ``lookahead``), which only the whole copy of the driver plays (``core.driver.copy_for``)."""
    codes = policies[:2]
    return bool(((codes > 0) & (codes & ((1 << DECLINES_SHIFT) - 1) != GREEDY)).any())  # mcts: negative


# the mcts policy's default search (core.mcts.game_defaults): the game's greedy plays the rollouts to the end,
# the strongest measured against lookahead (benchmarks/notes/herrlof.md)
MCTS_ROLLOUT = "greedy"
# the plain copy inlines advance and apply (core.driver.make_play_game): 20% faster with random seats
# (benchmarks/notes/herrlof.md)
INLINE_STEPS = True
# returns, advance_called, apply_called, mcts, play_game, WORK_SIZE and play_many (core.wiring)
finish_kernel(globals())
