"""Attila's mechanics in Numba: the rules the game's steps apply, the lead measure, and the protocol's
functions that run the steps.

The deck and the draw (A-1, A-3), where a figure may go (A-2) and its placing, the tiles (A-6), a war
after its support (A-4), a scoring (A-5; :func:`tribe_gain` is also what ``greedy`` reads) and the end of
a turn (A-3, A-7): the functions :func:`_run` and :func:`apply` call, and the rollouts' turns of
``heuristics.py`` too.  §7.8's bound stays beside the scoring that tests it (``bad_scoring``).  This
module imports ``layout.py`` (and ``toolkit.core``); ``heuristics.py``, ``invariants.py`` and
``kernel.py`` import it.

The decision-point protocol (``docs/architecture.md``, "The game protocol")
---------------------------------------------------------------------------
``play_game`` is made by ``core.wiring.finish_kernel`` of :func:`start`,
:func:`advance`, ``count``, :func:`nth`, :func:`options`, :func:`apply`,
``choose``, ``check_step``, ``check_end`` and :func:`record` (in ``kernel.py``); it
allocates nothing (the caller hands it the streams and ``work``: the state, the
options, a copy of the state and the policies' scratch ``SCRATCH``: the option
pairs and the lookahead's rollout world).  ``apply`` carries an option out and
then runs every automatic step (the rest of the turn, the wars, refills,
scorings, the next turns: ``_run``) up to the next decision point, so
``advance`` only names the seat to decide and :func:`start` runs the set-up and
turn 1 up to its first decision point.

Design metrics
--------------
The columns ``decisions``, ``options``, ``lead_changes`` and ``decisive_turn``
(right after ``plies``), counted exactly as ``reference.py`` counts them:

- ``decisions``: the §5 decision points presented, DP-1 to DP-7, each one even
  with a single option; by §6 that is ``plies``, so the two columns agree.
  ``_decision`` counts one at every decision point the protocol stands at
  (``heuristics.decision_point`` in the rollouts' turn functions).  Nothing else is one: the influence taken
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
from toolkit.core.cards import deck_from_counts, draw_into, split_evenly
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.core.wiring import state_entry
from toolkit.games.attila.layout import (
    C_CENTURY_END, C_DECISIONS, C_DECISIVE_TURN, C_END_REASON, C_INFLUENCE, C_LEAD_CHANGES, C_N_WINNERS, C_OPTIONS,
    C_PLIES, C_REMOVED, C_RESULT, C_SCORINGS, C_SEAT, C_START, C_TURNS, C_WARS, C_WINNER, DP_BONUS, DP_DISCARD,
    DP_EXCHANGE, DP_PLAY, DP_SPLIT, DP_SUPPORT, DP_TILE, INFLUENCE, MAX_SEATS, N_TRIBES, PAIR_SHIFT, PH_OVER, PROCEED,
    P_ADJ, P_CARDS, P_END_ON_MAX, P_FIGURES, P_FINISH_ROUND, P_GAP, P_HAND, P_LATER_VP, P_MAX_TILES, P_MAX_TURNS,
    P_PEACE, P_PLAYERS, P_RATE, P_ROUND_UP, P_SECOND, P_SINGLE_REMOVES, P_SKIP_REFILL, P_START_MASK, P_START_RANDOM,
    P_SUPPORT_ANY, P_THRESHOLD, P_TIEBREAK_SUM, P_TIE_REMOVES, P_TRACK_MAX, STATE_SIZE, S_BAD_SCORING, S_BITS,
    S_CENTURY_END, S_COUNT, S_DECIDER, S_DECK, S_DECK_HEAD, S_DECK_N, S_DISCARD, S_END_REASON, S_END_TRIGGERED, S_FIG,
    S_HAND, S_INF, S_LAST_ACTIVE, S_LEAD, S_LEAD_VALUES, S_LIMITS, S_MASKS, S_OPTIONS, S_OVER, S_PACIFIED, S_PEACE,
    S_PENDING, S_PENDING_N, S_PHASE, S_PLACED, S_PLAYS, S_PLAYS_LEFT, S_PLIES, S_PRESENCE, S_REMOVED, S_SCORED,
    S_SCORINGS, S_SEAT, S_START, S_STRENGTH, S_SUPPLY, S_SUPPORT, S_TILES, S_TILES_USED, S_TOTAL, S_TOTAL_MASK, S_TRIBE,
    S_TRIGGERED, S_TURNS, S_USED, S_VP, S_WARS, S_WAR_AT, S_WAR_K, TILE_DOUBLE, TILE_EXCHANGE, TILE_PLUS_TWO,
)


# ------------------------------------------------------------------------ cards (A-1's deck, the draw)


@njit_inline
def shuffle_into_deck(ip, st, rs, counts_base):
    """Build the deck in canonical order from counts at ``st[counts_base + t]`` and shuffle it."""
    st[S_DECK_N] = deck_from_counts(st, S_DECK, counts_base, N_TRIBES, rs)
    st[S_DECK_HEAD] = 0


@njit_inline
def draw(ip, st, rs, seat):
    """A-3.5: the deck's top card into the seat's hand, the discards shuffled into a new deck when it is
    empty (``core.cards.draw_into``); False with both empty."""
    return draw_into(st, rs, S_DECK, S_DECK_HEAD, S_DECK_N, S_DISCARD, S_HAND + N_TRIBES * seat, N_TRIBES)


@njit_inline
def hand_total(st, seat):
    total = 0
    for t in range(N_TRIBES):
        total += st[S_HAND + N_TRIBES * seat + t]
    return total


# ------------------------------------------------------------------------ A-2 placement


@njit_inline
def legal_mask(ip, st, t):
    """The provinces where a figure of ``t`` may go (A-2), as bits."""
    if st[S_SUPPLY + t] <= 0:
        return np.int64(0)
    presence = st[S_PRESENCE + t]
    reach = ip[P_START_MASK] | presence
    bits = presence
    while bits != 0:
        y = lowest_bit_index(bits)
        bits &= bits - 1
        reach |= ip[P_ADJ + y]
    return reach & ~st[S_PACIFIED] & ~st[S_TOTAL_MASK]


@njit_inline
def century(st):
    for c in range(4):
        if st[S_PEACE + c] > 0:
            return c
    return 3


@njit_inline
def gain_influence(ip, st, seat, t, amount):
    k = S_INF + N_TRIBES * seat + t
    st[k] = min(ip[P_TRACK_MAX], st[k] + amount)
    if ip[P_END_ON_MAX] == 1 and st[k] >= ip[P_TRACK_MAX]:
        st[S_END_TRIGGERED] = 1


@njit_inline
def place(ip, st, seat, t, x):
    st[S_FIG + N_TRIBES * x + t] += 1
    st[S_TOTAL + x] += 1
    st[S_PRESENCE + t] |= np.int64(1) << x
    st[S_SUPPLY + t] -= 1
    st[S_PLACED + seat] += 1
    if st[S_TOTAL + x] >= ip[P_THRESHOLD]:
        st[S_TOTAL_MASK] |= np.int64(1) << x
    if st[S_TOTAL + x] == ip[P_THRESHOLD]:
        st[S_PENDING + st[S_PENDING_N]] = x
        st[S_PENDING_N] += 1


# ------------------------------------------------------------------------ A-5 scoring


@njit_inline
def share(ip, total, k):
    return split_evenly(total, k, ip[P_ROUND_UP] == 1)


@njit_no_nrt
def scoring(ip, st):
    """A-5: every player gains what :func:`gain_for` says (it reads only tracks and the board).  §7.8
    on the way: a tribe awarding more than its bound (:func:`scoring_bound`) sets ``bad_scoring``."""
    for t in range(N_TRIBES):
        total = 0
        for p in range(ip[P_PLAYERS]):
            g = tribe_gain(ip, st, p, t)
            st[S_VP + p] += g
            total += g
        if total > scoring_bound(ip, st, t):
            st[S_BAD_SCORING] = 1
    st[S_SCORINGS] += 1


@njit_inline
def scoring_bound(ip, st, t):
    """§7.8: tribe ``t`` awards at most N_fig + N_prov (+ k - 1 rounding up, k = players for the largest
    possible tied group)."""
    bound = ip[P_FIGURES] - st[S_SUPPLY + t] + popcount(st[S_PRESENCE + t])
    if ip[P_ROUND_UP] == 1:
        bound += ip[P_PLAYERS] - 1
    return bound


@njit_no_nrt
def tribe_gain(ip, st, me, t):
    """A-5 for tribe ``t``: what ``me`` gets from it in a scoring now."""
    n = ip[P_PLAYERS]
    n_fig = ip[P_FIGURES] - st[S_SUPPLY + t]
    n_prov = popcount(st[S_PRESENCE + t])
    top = 0
    n_top = 0
    for p in range(n):
        v = st[S_INF + N_TRIBES * p + t]
        if v > top:
            top, n_top = v, 1
        elif v == top and v > 0:
            n_top += 1
    if top == 0:
        return 0
    mine = st[S_INF + N_TRIBES * me + t]
    if n_top >= 2:
        return share(ip, n_fig + n_prov, n_top) if mine == top else 0
    if mine == top:
        return n_fig
    second = 0
    n_second = 0
    for p in range(n):
        v = st[S_INF + N_TRIBES * p + t]
        if v == top:
            continue
        if v > second:
            second, n_second = v, 1
        elif v == second and v > 0:
            n_second += 1
    if second == 0 or mine != second:
        return 0
    if n == 2 and ip[P_GAP] >= 0 and top - second > ip[P_GAP]:
        return 0
    return share(ip, n_prov, n_second)


# ------------------------------------------------------------------------ the turn


@njit_inline
def n_vectors(limits, skip_zero):
    """The number of count vectors ``0 <= k_t <= limits[t]`` (less the all-zero one if ``skip_zero``)."""
    total = 1
    for t in range(N_TRIBES):
        total *= limits[t] + 1
    return total - 1 if skip_zero else total


@njit_inline
def usable_tiles(st, seat):
    """DP-1's tiles as bits: Double turn and +2 if unused, Exchange if unused and the hand is not empty."""
    tiles = st[S_TILES + seat]
    usable = tiles & (TILE_DOUBLE | TILE_PLUS_TWO)
    if tiles & TILE_EXCHANGE and hand_total(st, seat) > 0:
        usable |= TILE_EXCHANGE
    return usable


@njit_inline
def use_tile(st, seat, tile):
    """DP-1's choice of ``tile`` (a bit): it is used, in this turn."""
    st[S_TILES + seat] &= ~tile
    st[S_TILES_USED + 3 * seat + lowest_bit_index(tile)] = st[S_TURNS] + 1


@njit_inline
def apply_split(ip, st, seat, j):
    """DP-2's option ``j``: +2 on tribe j (j < 6), else the (j - 6)-th pair t < u, +1 on each."""
    if j < 6:
        gain_influence(ip, st, seat, j, 2)
    else:
        j -= 6
        for a in range(N_TRIBES):
            if j < 5 - a:
                gain_influence(ip, st, seat, a, 1)
                gain_influence(ip, st, seat, a + 1 + j, 1)
                break
            j -= 5 - a


@njit_inline
def distinct_tribes(st, seat):
    """DP-5's number of options: the distinct tribes in the seat's hand."""
    distinct = 0
    for t in range(N_TRIBES):
        if st[S_HAND + N_TRIBES * seat + t] > 0:
            distinct += 1
    return distinct


@njit_inline
def nth_tribe_in_hand(st, seat, i):
    """DP-5's option ``i``: the ``i``-th tribe in the seat's hand, ascending."""
    for t in range(N_TRIBES):
        if st[S_HAND + N_TRIBES * seat + t] > 0:
            if i == 0:
                return t
            i -= 1
    return -1


@njit_inline
def play_card(ip, st, seat, t, x):
    """A-3.2 after the DP-4 choice (t, x): the card to the discard pile and its figure into x."""
    st[S_HAND + N_TRIBES * seat + t] -= 1
    st[S_DISCARD + t] += 1
    place(ip, st, seat, t, x)


@njit_inline
def support_limits(ip, st, seat, x, limits):
    """DP-7: the seat's layable cards per tribe into ``limits``; returns their number."""
    any_card = 0
    for t in range(N_TRIBES):
        layable = ip[P_SUPPORT_ANY] == 1 or st[S_FIG + N_TRIBES * x + t] > 0
        limits[t] = st[S_HAND + N_TRIBES * seat + t] if layable else 0
        any_card += limits[t]
    return any_card


@njit_no_nrt
def resolve_war(ip, st, x, strength_laid):
    """A-4 after the support (``strength_laid``: the cards laid per tribe): the weakest removed, the
    peace tile, the cards discarded; returns 1 if the century's stack ran out (and it was scored)."""
    weakest = -1
    involved = 0
    for t in range(N_TRIBES):
        f = st[S_FIG + N_TRIBES * x + t]
        if f > 0:
            involved += 1
            s = f + strength_laid[t]
            if weakest < 0 or s < weakest:
                weakest = s
    losers = 0
    for t in range(N_TRIBES):
        f = st[S_FIG + N_TRIBES * x + t]
        if f > 0 and f + strength_laid[t] == weakest:
            losers += 1
    remove = True
    if involved == 1 and ip[P_SINGLE_REMOVES] == 0:
        remove = False
    if losers >= 2 and ip[P_TIE_REMOVES] == 0:
        remove = False
    if remove:
        for t in range(N_TRIBES):
            f = st[S_FIG + N_TRIBES * x + t]
            if f > 0 and f + strength_laid[t] == weakest:
                st[S_SUPPLY + t] += f
                st[S_REMOVED] += f
                st[S_TOTAL + x] -= f
                st[S_FIG + N_TRIBES * x + t] = 0
                st[S_PRESENCE + t] &= ~(np.int64(1) << x)
    c = century(st)
    st[S_PEACE + c] -= 1
    st[S_PACIFIED] |= np.int64(1) << x
    for t in range(N_TRIBES):
        st[S_DISCARD + t] += strength_laid[t]
    st[S_WARS] += 1
    if st[S_PEACE + c] == 0:
        st[S_CENTURY_END + c] = st[S_TURNS] + 1
        if peace_left(st) == 0 and ip[P_FINISH_ROUND] == 1:
            return 0  # the last century is scored at the end of the round (end_of_turn)
        scoring(ip, st)
        if peace_left(st) == 0:
            st[S_OVER] = 1
            st[S_END_REASON] = 0
        return 1
    return 0


@njit_inline
def peace_left(st):
    left = 0
    for k in range(4):
        left += st[S_PEACE + k]
    return left


@njit_inline
def any_placement_possible(ip, st):
    for t in range(N_TRIBES):
        if legal_mask(ip, st, t) != 0:
            return True
    return False


@njit_inline
def end_of_turn(ip, st, rs, seat, scored):
    """A-3 after the wars (``scored``: one of them ended a century): a track-end scoring, the refill
    (unless ``triggered`` and the rules skip it), the turn count, the stall and the cap.  With
    ``finish_round``, the end (the track's, or the last peace tile's with its scoring) waits for the
    last turn of the round, the turn of the seat before the start player."""
    if ip[P_FINISH_ROUND] == 1:
        out = peace_left(st) == 0
        if (out or st[S_END_TRIGGERED] == 1) and st[S_OVER] == 0 and (seat + 1) % ip[P_PLAYERS] == st[S_START]:
            if out or scored == 0:
                scoring(ip, st)
            st[S_OVER] = 1
            st[S_END_REASON] = 0 if out else 1
    elif st[S_END_TRIGGERED] == 1 and st[S_OVER] == 0:
        if scored == 0:
            scoring(ip, st)
        st[S_OVER] = 1
        st[S_END_REASON] = 1
    if not (ip[P_SKIP_REFILL] == 1 and st[S_TRIGGERED] == 1):
        while hand_total(st, seat) < ip[P_HAND]:
            if not draw(ip, st, rs, seat):
                break
    st[S_TURNS] += 1
    if st[S_OVER] == 0 and not any_placement_possible(ip, st):
        scoring(ip, st)
        st[S_OVER] = 1
        st[S_END_REASON] = 2
    if st[S_OVER] == 0 and st[S_TURNS] >= ip[P_MAX_TURNS]:
        st[S_OVER] = 1
        st[S_END_REASON] = 3


# ------------------------------------------------------------------------ the lead measure (Design metrics)


@njit_inline
def lead_measure(st, n, values):
    """The lead measure (module docstring, "Design metrics"): each seat's VP so far, into ``values``."""
    for p in range(n):
        values[p] = st[S_VP + p]


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
    """The code of option ``i`` of the current decision point (``layout.py``'s docstring), in the spec's order."""
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

