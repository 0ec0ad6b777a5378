"""Herrlof's cards and tricks in Numba: the cards and hands, a trick (R-3) and the effects after it (R-4);
the first part of the state machine of ``mechanics.py``.

A hand is a bit set of its suited faces plus counts of Valknut and Hagalaz cards (``layout.py``).  Which
faces a seat may play (R-3.1, R-3.2; a follower who does not follow when it would have to is known void),
who wins a trick or whether it is destroyed (R-3.3, the trump change of R-3.3.1), and the effects that
``mechanics.to_decision`` and ``mechanics.apply_decision`` step through after it: the 3s' trade (R-4.1),
the 1's steal, the 6's swap and the next leader (R-4.4).  This module imports only ``layout.py`` (and
``toolkit.core``); ``mechanics.py`` imports it.
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index, popcount
from toolkit.core.jit import njit_inline
from toolkit.games.herrlof.layout import (
    DESTROYED, MAX_FACES, MAX_TRICKS, OFF, PH_GIVE, PH_THREE, PH_THREE_DISCARD, P_DESTROYED_LEADER, P_DH_SECOND,
    P_DV_CHANGE, P_E3, P_E9, P_RANK, P_SPECIALS_PLAYABLE, P_SUITED, P_SUIT_MASK, P_THREE_WON, P_TRUMP_ANY,
    P_V_OVERRIDES, S_DESTROYED, S_DISC, S_DISC_N, S_FOLLOW, S_HBITS, S_HN, S_IND, S_KNOWN, S_LEAD, S_LEADER, S_NC,
    S_PHASE, S_SEEN, S_STEALS, S_STOCK, S_STOCK_HEAD, S_STOCK_TAIL, S_SWAPS, S_TAKEN, S_THREES_OWNER, S_THREE_N,
    S_THREE_Q, S_TRADES, S_TRICKS_PLAYED, S_TRICK_LEADER, S_TRICK_N, S_TRICK_WINNER, S_TRUMP, S_TRUMP_CHANGES,
    S_TURNS, S_VC, S_VOID, S_WIN_FACE, S_WON, S_WON_N,
)


# ------------------------------------------------------------------------ cards and hands


@njit_inline
def suit_of(ip, f):
    return f // ip[P_RANK] if f < ip[P_SUITED] else -1


@njit_inline
def rank_of(ip, f):
    return f % ip[P_RANK] + 1 if f < ip[P_SUITED] else 0


@njit_inline
def hand_mask(ip, st, seat):
    """The distinct faces of a hand as bits (V bit = suited, N bit = suited + 1)."""
    v = ip[P_SUITED]
    m = st[S_HBITS + seat]
    if st[S_VC + seat] > 0:
        m |= np.int64(1) << v
    if st[S_NC + seat] > 0:
        m |= np.int64(1) << (v + 1)
    return m


@njit_inline
def hand_count(ip, st, seat, f):
    v = ip[P_SUITED]
    if f < v:
        return (st[S_HBITS + seat] >> f) & 1
    return st[S_VC + seat] if f == v else st[S_NC + seat]


@njit_inline
def hand_add(ip, st, seat, f):
    v = ip[P_SUITED]
    if f < v:
        st[S_HBITS + seat] |= np.int64(1) << f
    elif f == v:
        st[S_VC + seat] += 1
    else:
        st[S_NC + seat] += 1
    st[S_HN + seat] += 1


@njit_inline
def hand_remove(ip, st, seat, f):
    v = ip[P_SUITED]
    if f < v:
        st[S_HBITS + seat] &= ~(np.int64(1) << f)
    elif f == v:
        st[S_VC + seat] -= 1
    else:
        st[S_NC + seat] -= 1
    st[S_HN + seat] -= 1


@njit_inline
def hand_card_at(ip, st, seat, i):
    """The i-th physical card of the sorted hand."""
    bits = st[S_HBITS + seat]
    ns = popcount(bits)
    if i < ns:
        for _ in range(i):
            bits &= bits - 1
        return lowest_bit_index(bits)
    if i - ns < st[S_VC + seat]:
        return ip[P_SUITED]
    return ip[P_SUITED] + 1


@njit_inline
def mask_to_options(mask, opts):
    n = 0
    while mask != 0:
        opts[n] = lowest_bit_index(mask)
        n += 1
        mask &= mask - 1
    return n


@njit_inline
def is_trump(ip, st, f):
    t = st[S_TRUMP]
    return t >= 0 and f < ip[P_SUITED] and f // ip[P_RANK] == t


# ------------------------------------------------------------------------ R-3 tricks


@njit_inline
def legal_mask(ip, st, seat):
    """R-3.1 / R-3.2: the faces ``seat`` may play, as bits."""
    m = hand_mask(ip, st, seat)
    if st[S_TRICK_N] == 0:
        return m
    led = suit_of(ip, st[S_LEAD])
    if led < 0:
        return m
    suited = st[S_HBITS + seat]
    sm = ip[P_SUIT_MASK + led]
    if suited & sm == 0:
        return m
    legal = suited & sm
    if ip[P_SPECIALS_PLAYABLE] == 1:
        legal |= m & (np.int64(3) << ip[P_SUITED])
    if ip[P_TRUMP_ANY] == 1 and st[S_TRUMP] >= 0:
        legal |= suited & ip[P_SUIT_MASK + st[S_TRUMP]]
    return legal


@njit_inline
def trick_winner(ip, st, lead, follow):
    """R-3.3: 0 leader wins, 1 follower wins, DESTROYED."""
    v = ip[P_SUITED]
    n = v + 1
    if lead == v or follow == v:
        return DESTROYED
    if lead == n and follow == n:
        return ip[P_DH_SECOND]
    if lead == n:
        return 1
    if follow == n:
        return 0
    r = ip[P_RANK]
    if lead // r == follow // r:
        return 0 if lead > follow else 1
    if st[S_TRUMP] >= 0 and follow // r == st[S_TRUMP]:
        return 1
    return 0


@njit_inline
def play_card(ip, st, seat, f):
    opp = 1 - seat
    if st[S_TRICK_N] > 0:  # a follower who does not follow when it would have to is void
        led = suit_of(ip, st[S_LEAD])
        exempt = (f >= ip[P_SUITED] and ip[P_SPECIALS_PLAYABLE] == 1) or (ip[P_TRUMP_ANY] == 1 and is_trump(ip, st, f))
        if led >= 0 and suit_of(ip, f) != led and not exempt:
            st[S_VOID + opp] |= np.int64(1) << led
        st[S_FOLLOW] = f
    else:
        st[S_LEAD] = f
    hand_remove(ip, st, seat, f)
    st[S_TRICK_N] += 1
    st[S_SEEN + f] += 1
    st[S_SEEN + MAX_FACES + f] += 1
    if st[S_KNOWN + opp * MAX_FACES + f] > 0:
        st[S_KNOWN + opp * MAX_FACES + f] -= 1


@njit_inline
def resolve_trick(ip, st):
    lead, follow = st[S_LEAD], st[S_FOLLOW]
    leader = st[S_LEADER]
    w = trick_winner(ip, st, lead, follow)
    st[S_TRICK_LEADER] = leader
    st[S_TURNS] += 1
    st[S_TRICKS_PLAYED] += 1
    v = ip[P_SUITED]
    if w == DESTROYED:
        st[S_TRICK_WINNER] = DESTROYED
        st[S_WIN_FACE] = -1
        st[S_DESTROYED] += 1
        st[S_DISC_N] += 2
        st[S_DISC + lead] += 1
        st[S_DISC + follow] += 1
        if lead == v and follow == v and ip[P_DV_CHANGE] == 1 and st[S_STOCK_TAIL] > st[S_STOCK_HEAD]:
            change_trump(ip, st)
    else:
        winner = leader if w == 0 else 1 - leader
        st[S_TRICK_WINNER] = winner
        st[S_WIN_FACE] = lead if w == 0 else follow
        k = st[S_WON_N + winner]
        st[S_WON + (winner * MAX_TRICKS + k) * 2] = lead
        st[S_WON + (winner * MAX_TRICKS + k) * 2 + 1] = follow
        st[S_WON_N + winner] = k + 1
    st[S_THREE_N] = 0
    if ip[P_E3] != OFF:
        if rank_of(ip, lead) == 3 and (ip[P_THREE_WON] == 0 or st[S_TRICK_WINNER] == leader):
            st[S_THREE_Q + st[S_THREE_N]] = leader
            st[S_THREE_N] += 1
        if rank_of(ip, follow) == 3 and (ip[P_THREE_WON] == 0 or st[S_TRICK_WINNER] == 1 - leader):
            st[S_THREE_Q + st[S_THREE_N]] = 1 - leader
            st[S_THREE_N] += 1
    st[S_PHASE] = PH_THREE


@njit_inline
def change_trump(ip, st):
    """R-3.3.1: the indicator goes to the discard, the top stock card replaces it."""
    st[S_DISC + st[S_IND]] += 1
    st[S_DISC_N] += 1
    f = st[S_STOCK + st[S_STOCK_HEAD]]
    st[S_STOCK_HEAD] += 1
    st[S_IND] = f
    st[S_TRUMP] = suit_of(ip, f)
    st[S_SEEN + f] += 1
    st[S_SEEN + MAX_FACES + f] += 1
    st[S_TRUMP_CHANGES] += 1


# ------------------------------------------------------------------------ R-4 effects


@njit_inline
def draw_for_trade(ip, st, seat):
    f = st[S_STOCK + st[S_STOCK_HEAD]]
    st[S_STOCK_HEAD] += 1
    hand_add(ip, st, seat, f)
    st[S_TRADES + seat] += 1
    opp = 1 - seat
    for g in range(ip[P_SUITED] + 2):
        st[S_KNOWN + opp * MAX_FACES + g] = 0
    st[S_VOID + opp] = 0
    st[S_PHASE] = PH_THREE_DISCARD
    st[S_THREES_OWNER] = seat


@njit_inline
def steal(st, winner):
    opp = 1 - winner
    k = st[S_WON_N + opp] - 1
    j = st[S_WON_N + winner]
    st[S_WON + (winner * MAX_TRICKS + j) * 2] = st[S_WON + (opp * MAX_TRICKS + k) * 2]
    st[S_WON + (winner * MAX_TRICKS + j) * 2 + 1] = st[S_WON + (opp * MAX_TRICKS + k) * 2 + 1]
    st[S_WON_N + opp] = k
    st[S_WON_N + winner] = j + 1
    st[S_STEALS + winner] += 1


@njit_inline
def take_for_swap(ip, st, winner, rs, ck):
    opp = 1 - winner
    i = rng.below(rs, ck, st[S_HN + opp])
    f = hand_card_at(ip, st, opp, i)
    hand_remove(ip, st, opp, f)
    hand_add(ip, st, winner, f)
    st[S_SWAPS + winner] += 1
    st[S_TAKEN] = f
    if st[S_KNOWN + winner * MAX_FACES + f] > 0:
        st[S_KNOWN + winner * MAX_FACES + f] -= 1
    st[S_KNOWN + opp * MAX_FACES + f] += 1
    if f < ip[P_SUITED]:
        st[S_VOID + opp] &= ~(np.int64(1) << suit_of(ip, f))
    st[S_PHASE] = PH_GIVE


@njit_inline
def give(ip, st, winner, f):
    opp = 1 - winner
    hand_remove(ip, st, winner, f)
    hand_add(ip, st, opp, f)
    st[S_KNOWN + winner * MAX_FACES + f] += 1
    if f < ip[P_SUITED]:
        st[S_VOID + winner] &= ~(np.int64(1) << suit_of(ip, f))
    if st[S_KNOWN + opp * MAX_FACES + f] > 0:
        st[S_KNOWN + opp * MAX_FACES + f] -= 1


@njit_inline
def next_leader(ip, st):
    """R-4.4."""
    leader = st[S_TRICK_LEADER]
    lead, follow = st[S_LEAD], st[S_FOLLOW]
    v = ip[P_SUITED]
    n = v + 1
    has_n = lead == n or follow == n
    if st[S_TRICK_WINNER] == DESTROYED:
        if ip[P_V_OVERRIDES] == 0 and has_n:
            return leader if lead == n else 1 - leader
        rule = ip[P_DESTROYED_LEADER]
        if rule == 0:
            return leader
        if rule == 1:
            return leader if lead == v else 1 - leader
        return 1 - leader
    w = st[S_TRICK_WINNER]
    if has_n:
        return 1 - w
    wf = st[S_WIN_FACE]
    if ip[P_E9] == 1 and wf < v and rank_of(ip, wf) == 9:
        return 1 - w
    return w
