"""Herrlof's mechanics in Numba: R-5's points, the state machine of a round (:func:`to_decision`,
:func:`apply_decision`, the deal :func:`deal_round`) and the protocol's rule functions over it.  It imports
``layout.py`` and ``tricks.py`` (and ``toolkit.core``); ``heuristics.py``, ``invariants.py`` and ``kernel.py``
import it.

The game protocol
-----------------
The game runs on the decision-point protocol of ``docs/architecture.md``
("The game protocol"): :func:`start`, :func:`advance`, ``kind``,
``count``, :func:`nth`, :func:`options`, :func:`apply`, ``choose``,
``check_step``, ``check_end`` and :func:`record`, from which
``core.wiring.finish_kernel`` builds ``play_game`` in ``kernel.py``
(``random``, policy 0, is the driver's: one ``below(n)`` from the seat's
decision stream, none for a single option).  :func:`apply` applies an option
and runs the automatic steps on to the next decision point or the round's
end, so that ``check_step`` sees the state between two decisions where §7
holds (the states the checks saw before the protocol, but for the one right
after a deal: the first bid moves no card, so the check after it sees the
deal's cards); :func:`advance` scores a finished round (R-5) and deals the
next one.  The round log of ``roundlog.play_logged`` is written by its
``play_logged_game``, the same loop over the same functions with the log
written between the steps.

Design metrics (the columns ``decisions``, ``options``, ``lead_changes`` and
``decisive_turn``; their choices are explained in ``reference.py``'s
docstring): every decision point presented is a ply (``decisions`` =
``plies``), its ``n`` options are summed into ``st[S_OFFERED]`` when it is
reached (the lookahead's rollouts run :func:`next_decision` /
:func:`apply_decision` on copies and are not counted), and the lead measure
(:func:`lead_measure`: each seat's score of the hands already scored; the
bids, hence the points of the hand in progress, are secret) goes to
``toolkit.core.lead`` after every trick: at once for a trick that is not
the hand's last (:func:`apply`), after the scoring for the last one
(:func:`advance`).
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import nth_set_bit, popcount
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.games.herrlof.layout import (
    C_DECISIONS, C_DECISIVE_TURN, C_DESTROYED, C_FIRST_DEALER, C_LEAD_CHANGES, C_NO_TRUMP, C_OPTIONS, C_PLIES, C_RESULT,
    C_ROUNDS, C_SEAT, C_SEAT_PLIES, C_TRUMP_CHANGES, C_TURNS, C_WIN, C_WINNER, DECLINE, DESTROYED, DP_BID, DP_CARD,
    DP_GIVE, DP_STEAL, DP_SWAP, DP_TRADE, DP_TRADE_DISCARD, MAX_DECK, MAX_FACES, N_COLUMNS, OFF, OPTIONAL, PH_BID,
    PH_FOLLOW, PH_GIVE, PH_LEAD, PH_NEXT_LEADER, PH_ONE, PH_ONE_DECIDE, PH_OVER, PH_ROUND_END, PH_SIX, PH_SIX_DECIDE,
    PH_THREE, PH_THREE_DISCARD, P_CONS, P_CONS_EXACT, P_CONS_MASK, P_DECK, P_E1, P_E3, P_E6, P_EXACT, P_FIRST_DEALER,
    P_HAND, P_MAX_ROUNDS, P_NN, P_NV, P_PPT, P_REDRAW, P_SUITED, P_TARGET, P_TIEBREAK_DRAW, STATE_SIZE, S_BID,
    S_BID_TURN, S_BURIED_N, S_DEALER, S_DECK, S_DESTROYED, S_DESTROYED_AT_START, S_DISC, S_DISC_N, S_DKIND, S_DSEAT,
    S_EXACT, S_FIRST_DEALER, S_HBITS, S_HN, S_IND, S_KNOWN, S_LEADER, S_LEAD_TRACKER, S_MASK, S_N, S_NC,
    S_NO_TRUMP_ROUNDS, S_OFFERED, S_PHASE, S_PLIES, S_ROUND, S_ROUND_POINTS, S_SCORE, S_SEAT_PLIES, S_SEEN, S_STEALS,
    S_STOCK, S_STOCK_HEAD, S_STOCK_LAST, S_STOCK_TAIL, S_SWAPS, S_TAKEN, S_THREES_OWNER, S_THREE_N, S_THREE_Q, S_TRADES,
    S_TRICKS_PLAYED, S_TRICKS_WON, S_TRICK_N, S_TRICK_WINNER, S_TRUMP, S_TRUMP_CHANGES, S_TURNS, S_VC, S_VOID,
    S_WIN_FACE, S_WON_N, YES,
)
from toolkit.games.herrlof.tricks import (
    draw_for_trade, give, hand_add, hand_mask, hand_remove, legal_mask, mask_to_options, next_leader, play_card,
    rank_of, resolve_trick, steal, suit_of, take_for_swap,
)

# ------------------------------------------------------------------------ R-5 scoring


@njit_inline
def round_points(ip, won, bid):
    in_range = (ip[P_CONS_MASK] >> won) & 1 == 1
    bonus = 0
    if won == bid:
        bonus = ip[P_CONS] if (ip[P_CONS_EXACT] == 1 and in_range) else ip[P_EXACT]
    if ip[P_CONS_EXACT] == 0 and in_range:
        bonus += ip[P_CONS]
    return ip[P_PPT] * won + bonus


@njit_inline
def lead_measure(st, values):
    """reference.lead_measure: each seat's score of the hands scored so far, into ``values[0:2]``."""
    values[0] = st[S_SCORE]
    values[1] = st[S_SCORE + 1]


# ------------------------------------------------------------------------ the state machine (§5)


@njit_inline
def decide_at(st, kind, seat, mask):
    """The decision point of ``kind`` (DP_BID .. DP_GIVE) for ``seat``, its options the set bits of ``mask``
    (``layout.py``'s docstring); returns the seat."""
    st[S_DKIND], st[S_DSEAT], st[S_MASK], st[S_N] = kind, seat, mask, popcount(mask)
    return seat


@njit_inline
def effect_due(ip, st, rank, setting, counts_at, decide):
    """R-4.2 / R-4.3 (the reference's ``_effect_due``): whether the trick's winner takes the effect of the
    ``rank`` it won with now: ``setting`` is not OFF, the trick was not destroyed, its winning card is a
    suited ``rank`` and the opponent's count at ``st[counts_at + seat]`` (tricks won, or cards in hand) is
    not 0.  An OPTIONAL effect is first the winner's decision: the phase becomes ``decide``, and False."""
    w = st[S_TRICK_WINNER]
    face = st[S_WIN_FACE]
    if w == DESTROYED or setting == OFF or face >= ip[P_SUITED] or rank_of(ip, face) != rank:
        return False
    if st[counts_at + 1 - w] == 0:
        return False
    if setting == OPTIONAL:
        st[S_PHASE] = decide
        return False
    return True


@njit_inline
def to_decision(ip, st, rs, ck):
    """Run the automatic steps up to the next decision point; return its seat, or -1 at the round's end.

    The decision's kind and seat are left in ``st[S_DKIND]``, ``st[S_DSEAT]``, its options in
    ``st[S_MASK]`` and their number in ``st[S_N]`` (``layout.py``'s docstring).  ``ck`` is the stream of the
    6-effect take."""
    while True:
        phase = st[S_PHASE]
        if phase == PH_BID:
            if st[S_BID_TURN] < 2:
                seat = 1 - st[S_DEALER] if st[S_BID_TURN] == 0 else st[S_DEALER]
                return decide_at(st, DP_BID, seat, (np.int64(1) << (ip[P_HAND] + 1)) - 1)  # bids 0 .. hand size
            st[S_PHASE] = PH_LEAD
        elif phase == PH_LEAD or phase == PH_FOLLOW:
            seat = st[S_LEADER] if phase == PH_LEAD else 1 - st[S_LEADER]
            return decide_at(st, DP_CARD, seat, legal_mask(ip, st, seat))
        elif phase == PH_THREE:
            if st[S_THREE_N] == 0:
                st[S_PHASE] = PH_ONE
                continue
            seat = st[S_THREE_Q]
            if st[S_STOCK_TAIL] == st[S_STOCK_HEAD]:
                pop_three(st)
                continue
            if ip[P_E3] == OPTIONAL:
                return decide_at(st, DP_TRADE, seat, 3)
            pop_three(st)
            draw_for_trade(ip, st, seat)
        elif phase == PH_THREE_DISCARD:
            seat = st[S_THREES_OWNER]
            return decide_at(st, DP_TRADE_DISCARD, seat, hand_mask(ip, st, seat))
        elif phase == PH_ONE:  # a trick won with a 1 steals one
            st[S_PHASE] = PH_SIX
            if effect_due(ip, st, 1, ip[P_E1], S_WON_N, PH_ONE_DECIDE):
                steal(st, st[S_TRICK_WINNER])
        elif phase == PH_ONE_DECIDE:
            return decide_at(st, DP_STEAL, st[S_TRICK_WINNER], 3)
        elif phase == PH_SIX:  # a trick won with a 6 takes a card for a swap
            st[S_PHASE] = PH_NEXT_LEADER
            if effect_due(ip, st, 6, ip[P_E6], S_HN, PH_SIX_DECIDE):
                take_for_swap(ip, st, st[S_TRICK_WINNER], rs, ck)
        elif phase == PH_SIX_DECIDE:
            seat = st[S_TRICK_WINNER]
            return decide_at(st, DP_SWAP, seat, 3)
        elif phase == PH_GIVE:
            w = st[S_TRICK_WINNER]
            return decide_at(st, DP_GIVE, w, hand_mask(ip, st, w))
        elif phase == PH_NEXT_LEADER:
            st[S_LEADER] = next_leader(ip, st)
            st[S_TRICK_N] = 0
            st[S_PHASE] = PH_LEAD if st[S_TRICKS_PLAYED] < ip[P_HAND] else PH_ROUND_END
        else:
            return -1


@njit_inline
def list_options(st, out):
    """The pending decision's options (:func:`to_decision`) into ``out`` in the spec's order; their number."""
    kind = st[S_DKIND]
    if kind == DP_TRADE or kind == DP_STEAL or kind == DP_SWAP:
        out[0], out[1] = YES, DECLINE
        return 2
    return mask_to_options(st[S_MASK], out)


@njit_no_nrt
def next_decision(ip, st, opts, rs, ck):
    """Run the automatic steps up to the next decision point; list its options in ``opts``.

    Returns the number of options (0 at the round's end); the decision's kind and
    seat are left in ``st[S_DKIND]``, ``st[S_DSEAT]``.  ``ck`` is the stream of the
    6-effect take.  (The lookahead's rollouts run on this; the game on the protocol below.)"""
    if to_decision(ip, st, rs, ck) < 0:
        return 0
    return list_options(st, opts)


@njit_inline
def pop_three(st):
    st[S_THREE_Q] = st[S_THREE_Q + 1]
    st[S_THREE_N] -= 1


@njit_no_nrt
def apply_decision(ip, st, option, rs, ck):
    """Apply ``option`` to the pending decision (``st[S_DKIND]``, ``st[S_DSEAT]``); count the ply."""
    st[S_PLIES] += 1
    kind, seat = st[S_DKIND], st[S_DSEAT]
    st[S_SEAT_PLIES + seat] += 1
    if kind == DP_BID:
        st[S_BID + seat] = option
        st[S_BID_TURN] += 1
    elif kind == DP_CARD:
        play_card(ip, st, seat, option)
        if st[S_PHASE] == PH_LEAD:
            st[S_PHASE] = PH_FOLLOW
        else:
            resolve_trick(ip, st)
    elif kind == DP_TRADE:
        pop_three(st)
        if option == YES:
            draw_for_trade(ip, st, seat)
    elif kind == DP_TRADE_DISCARD:
        hand_remove(ip, st, seat, option)
        st[S_BURIED_N + seat] += 1
        st[S_DISC + option] += 1
        st[S_SEEN + seat * MAX_FACES + option] += 1
        st[S_PHASE] = PH_THREE
    elif kind == DP_STEAL:
        st[S_PHASE] = PH_SIX
        if option == YES:
            steal(st, seat)
    elif kind == DP_SWAP:
        st[S_PHASE] = PH_NEXT_LEADER
        if option == YES:
            take_for_swap(ip, st, seat, rs, ck)
    else:  # DP_GIVE
        give(ip, st, seat, option)
        st[S_PHASE] = PH_NEXT_LEADER


# ------------------------------------------------------------------------ the game


@njit_no_nrt
def deal_round(ip, st, deck, dealer, rs):
    """R-2: reset the round, shuffle (Fisher-Yates, canonical deck) and deal."""
    v = ip[P_SUITED]
    d = ip[P_DECK]
    i = 0
    for f in range(v):
        deck[i] = f
        i += 1
    for _ in range(ip[P_NV]):
        deck[i] = v
        i += 1
    for _ in range(ip[P_NN]):
        deck[i] = v + 1
        i += 1
    rng.shuffle(deck, 0, d, rs, 0)
    for seat in range(2):
        st[S_HBITS + seat] = 0
        st[S_VC + seat] = 0
        st[S_NC + seat] = 0
        st[S_HN + seat] = 0
        st[S_WON_N + seat] = 0
        st[S_BURIED_N + seat] = 0
        st[S_BID + seat] = -1
        st[S_VOID + seat] = 0
    for i in range(2 * MAX_FACES):
        st[S_SEEN + i] = 0
        st[S_KNOWN + i] = 0
    for i in range(MAX_FACES):
        st[S_DISC + i] = 0
    h = ip[P_HAND]
    for i in range(h):
        hand_add(ip, st, 1 - dealer, deck[i])
        hand_add(ip, st, dealer, deck[h + i])
    head = 0
    tail = 0
    for i in range(2 * h, d):
        st[S_STOCK + tail] = deck[i]
        tail += 1
    ind = st[S_STOCK + head]
    head += 1
    if ip[P_REDRAW] == 1:
        while ind >= v:
            st[S_STOCK + tail] = ind
            tail += 1
            ind = st[S_STOCK + head]
            head += 1
    st[S_STOCK_HEAD], st[S_STOCK_TAIL] = head, tail
    st[S_STOCK_LAST] = tail - head
    st[S_IND] = ind
    st[S_TRUMP] = suit_of(ip, ind)
    st[S_SEEN + ind] += 1
    st[S_SEEN + MAX_FACES + ind] += 1
    if st[S_TRUMP] < 0:
        st[S_NO_TRUMP_ROUNDS] += 1
    st[S_DEALER] = dealer
    st[S_LEADER] = 1 - dealer
    st[S_TRICK_N] = 0
    st[S_DISC_N] = 0
    st[S_TRICKS_PLAYED] = 0
    st[S_THREE_N] = 0
    st[S_PHASE] = PH_BID
    st[S_BID_TURN] = 0
    st[S_TAKEN] = -1
    st[S_DESTROYED_AT_START] = st[S_DESTROYED]


# ------------------------------------------------------------------------ the protocol (one game)
#
# The decision-point protocol of docs/architecture.md over the state machine above.  ``apply`` applies
# an option and runs the automatic steps up to the next decision point or the round's end, so that
# ``check_step`` sees the state between two decisions, where §7 holds; ``advance`` scores a finished
# round and deals the next one.  Chance (the first dealer, the deals, the 6-effect takes) comes from
# stream 0, in the order ``reference.py`` draws it.


@njit_inline
def _reach(ip, st, rs):
    """The automatic steps up to the next decision point (or the round's end); its options are counted."""
    if to_decision(ip, st, rs, 0) >= 0:
        st[S_OFFERED] += st[S_N]


@njit_no_nrt
def _reach_called(ip, st, rs):
    """:func:`_reach` as a call, for a new round's first decision (once a round): inlined there as well
    as in :func:`apply`, the driver's loop held two copies of :func:`to_decision` (compile time)."""
    _reach(ip, st, rs)


@njit_no_nrt
def start(params, st, rs):
    """R-1.1, R-2: the first dealer (chance), the first deal, up to the first bid."""
    ip = params
    for q in range(STATE_SIZE):
        st[q] = 0
    lead_reset(st[S_LEAD_TRACKER:S_LEAD_TRACKER + LEAD_FIELDS])
    if ip[P_FIRST_DEALER] == 0:
        dealer = rng.below(rs, 0, 2)
    else:
        dealer = ip[P_FIRST_DEALER] - 1
    st[S_FIRST_DEALER] = dealer
    st[S_ROUND] = 1
    deal_round(ip, st, st[S_DECK:S_DECK + MAX_DECK], dealer, rs)
    _reach(ip, st, rs)


@njit_inline
def score_round(ip, st):
    """R-5: the round's points into the scores; the lead is reported (the hand's last trick).  Returns
    whether the game is over (R-6.1)."""
    for seat in range(2):
        won = st[S_WON_N + seat]
        bid = st[S_BID + seat]
        pts = round_points(ip, won, bid)
        st[S_ROUND_POINTS + seat] = pts
        st[S_SCORE + seat] += pts
        if won == bid:
            st[S_EXACT + seat] += 1
        st[S_TRICKS_WON + seat] += won
    lead_update(st[S_LEAD_TRACKER:S_LEAD_TRACKER + LEAD_FIELDS], st[S_SCORE:S_SCORE + 2], 2, st[S_TURNS])
    return max(st[S_SCORE], st[S_SCORE + 1]) >= ip[P_TARGET] or st[S_ROUND] >= ip[P_MAX_ROUNDS]


@njit_inline
def advance(params, st, rs):
    """The seat to decide, or -1 when the game is over: a finished round is scored, and the next one
    dealt (the other seat deals) up to its first bid."""
    ip = params
    while st[S_PHASE] >= PH_ROUND_END:
        if st[S_PHASE] == PH_OVER or score_round(ip, st):
            st[S_PHASE] = PH_OVER
            return -1
        st[S_ROUND] += 1
        deal_round(ip, st, st[S_DECK:S_DECK + MAX_DECK], 1 - st[S_DEALER], rs)
        _reach_called(ip, st, rs)
    return st[S_DSEAT]



@njit_inline
def nth(params, st, i):
    """The ``i``-th option's code: DP-1 the bid ``i``; DP-2/4/7 the ``i``-th face of ``st[S_MASK]``; DP-3/5/6
    YES (``i = 0``) or DECLINE."""
    k = st[S_DKIND]
    if k == DP_TRADE or k == DP_STEAL or k == DP_SWAP:
        return YES - i
    return nth_set_bit(st[S_MASK], i)


@njit_inline
def options(params, st, out):
    return list_options(st, out)


@njit_inline
def apply(params, st, rs, option):
    """Apply ``option`` to the current decision point (the 6-effect take draws chance), report the lead
    after a trick that is not the hand's last, and run on to the next decision point or the round's end."""
    ip = params
    turns = st[S_TURNS]
    apply_decision(ip, st, option, rs, 0)
    if st[S_TURNS] != turns and st[S_TRICKS_PLAYED] < ip[P_HAND]:
        lead_update(st[S_LEAD_TRACKER:S_LEAD_TRACKER + LEAD_FIELDS], st[S_SCORE:S_SCORE + 2], 2, st[S_TURNS])
    _reach(ip, st, rs)


@njit_no_nrt
def record(params, st, row):
    """The §6 record of a finished game into ``row`` (COLUMNS); R-6.3 decides the winner."""
    ip = params
    for c in range(N_COLUMNS):
        row[c] = 0
    s0, s1 = st[S_SCORE], st[S_SCORE + 1]
    if s0 != s1:
        w = 0 if s0 > s1 else 1
    elif ip[P_TIEBREAK_DRAW] == 0 and st[S_EXACT] != st[S_EXACT + 1]:
        w = 0 if st[S_EXACT] > st[S_EXACT + 1] else 1
    else:
        w = -1
    row[C_WINNER] = w
    if w >= 0:
        row[C_WIN + w] = 1
    row[C_RESULT] = 0 if w >= 0 else 1
    row[C_FIRST_DEALER] = st[S_FIRST_DEALER]
    row[C_ROUNDS] = st[S_ROUND]
    row[C_TURNS] = st[S_TURNS]
    row[C_PLIES] = st[S_PLIES]
    row[C_DECISIONS] = st[S_PLIES]  # every decision point presented is a ply (reference docstring)
    row[C_OPTIONS] = st[S_OFFERED]
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(st[S_LEAD_TRACKER:S_LEAD_TRACKER + LEAD_FIELDS], w,
                                                            st[S_TURNS])
    row[C_DESTROYED] = st[S_DESTROYED]
    row[C_TRUMP_CHANGES] = st[S_TRUMP_CHANGES]
    row[C_NO_TRUMP] = st[S_NO_TRUMP_ROUNDS]
    for seat in range(2):  # SEAT_FIELDS: score, exact_bids, tricks_won, steals, trades, swaps
        row[C_SEAT + seat] = st[S_SCORE + seat]
        row[C_SEAT + 2 + seat] = st[S_EXACT + seat]
        row[C_SEAT + 4 + seat] = st[S_TRICKS_WON + seat]
        row[C_SEAT + 6 + seat] = st[S_STEALS + seat]
        row[C_SEAT + 8 + seat] = st[S_TRADES + seat]
        row[C_SEAT + 10 + seat] = st[S_SWAPS + seat]
        row[C_SEAT_PLIES + seat] = st[S_SEAT_PLIES + seat]
