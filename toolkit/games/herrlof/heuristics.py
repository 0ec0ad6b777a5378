"""Herrlof's policies in the kernel: ``greedy`` (the same rules of thumb as ``policies.py``, which the
reference plays) and ``lookahead`` (determinized Monte Carlo over the unseen cards, ``core.lookahead``), with
the protocol's ``determinize`` and ``evaluate``; ``choose`` in ``kernel.py`` calls them.  It imports the
layouts (``layout.py``), the cards and tricks (``tricks.py``), the state machine (``mechanics.py``) and the
lookahead's bid window (``policies.py``); ``kernel.py`` imports it.
"""

from __future__ import annotations

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.lookahead import make_lookahead
from toolkit.games.herrlof.layout import (
    COPY_SIZE, DECLINE, DP_BID, DP_GIVE, DP_STEAL, DP_SWAP, DP_TRADE, DP_TRADE_DISCARD, MAX_DECK, MAX_FACES, P_HAND,
    P_NN, P_NV, P_RANK, P_SUITED, STATE_SIZE, S_BID, S_BID_TURN, S_DEALER, S_DECK, S_DKIND, S_DSEAT, S_HBITS, S_HN,
    S_KNOWN, S_LEAD, S_NC, S_SCORE, S_SEEN, S_STOCK, S_STOCK_HEAD, S_STOCK_TAIL, S_THREES_OWNER, S_TRICK_N, S_TRUMP,
    S_VC, S_VOID, S_WON_N, W_BASE, W_CANDS, W_OPTS2, W_POOL, W_REST, W_TOTALS, W_WORLD, YES,
)
from toolkit.games.herrlof.mechanics import apply_decision, next_decision, round_points
from toolkit.games.herrlof.policies import BID_WINDOW
from toolkit.games.herrlof.tricks import hand_add, hand_count, is_trump, suit_of, trick_winner


@njit_inline
def hand_strength(ip, bits, trump):
    """policies.hand_strength on the suited bits of a hand (specials add nothing)."""
    r = ip[P_RANK]
    quarters = 0
    while bits != 0:
        f = lowest_bit_index(bits)
        bits &= bits - 1
        rank = f % r + 1
        if f // r == trump:
            quarters += 4 if rank >= r - 2 else (2 if rank >= r - 5 else 1)
        else:
            quarters += 3 if rank == r else (2 if rank == r - 1 else (1 if rank == r - 2 else 0))
    return quarters


@njit_inline
def greedy_bid(ip, st, seat):
    q = hand_strength(ip, st[S_HBITS + seat], st[S_TRUMP]) + 4 * st[S_HN + seat] // 5
    return min(ip[P_HAND], (q + 2) // 4)


@njit_inline
def power(ip, st, f):
    v = ip[P_SUITED]
    if f == v:
        return 0
    if f == v + 1:
        return -1
    return f % ip[P_RANK] + 1 + (ip[P_RANK] if is_trump(ip, st, f) else 0)


@njit_inline
def shed_key(ip, st, f):
    v = ip[P_SUITED]
    if f == v + 1:
        return -100
    if f == v:
        return 100
    return power(ip, st, f)


@njit_inline
def lead_low_key(ip, st, f):
    return 99 if f == ip[P_SUITED] else shed_key(ip, st, f)


@njit_inline
def lose_key(ip, st, f):
    v = ip[P_SUITED]
    if f == v:
        return -1
    if f == v + 1:
        return 0
    return power(ip, st, f)


@njit_inline
def first_best(ip, st, opts, n, key_id, sign, lead, want):
    """The first option (canonical order) with the smallest ``sign * key``; with ``want`` >= 0
    only options whose trick_winner(lead, f) == want (want = 2: != 1); -1 if none."""
    best, best_key = -1, 0
    for i in range(n):
        f = opts[i]
        if want == 1 and trick_winner(ip, st, lead, f) != 1:
            continue
        if want == 2 and trick_winner(ip, st, lead, f) == 1:
            continue
        if key_id == 0:
            k = power(ip, st, f)
        elif key_id == 1:
            k = shed_key(ip, st, f)
        elif key_id == 2:
            k = lead_low_key(ip, st, f)
        else:
            k = lose_key(ip, st, f)
        k = sign * k
        if best < 0 or k < best_key:
            best, best_key = f, k
    return best


KEY_POWER, KEY_SHED, KEY_LEAD_LOW, KEY_LOSE = 0, 1, 2, 3


@njit_no_nrt
def greedy_choice(ip, st, opts, n):
    if n == 1:
        return opts[0]
    kind, seat = st[S_DKIND], st[S_DSEAT]
    if kind == DP_BID:
        return greedy_bid(ip, st, seat)
    if kind == DP_TRADE or kind == DP_SWAP:
        return YES
    need = st[S_BID + seat] - st[S_WON_N + seat]
    if kind == DP_STEAL:
        return YES if need > 0 else DECLINE
    if kind == DP_TRADE_DISCARD or kind == DP_GIVE:
        if need > 0:
            return first_best(ip, st, opts, n, KEY_SHED, 1, 0, -1)
        return first_best(ip, st, opts, n, KEY_POWER, -1, 0, -1)
    if st[S_TRICK_N] == 0:  # leading
        if need > 0:
            return first_best(ip, st, opts, n, KEY_POWER, -1, 0, -1)
        return first_best(ip, st, opts, n, KEY_LEAD_LOW, 1, 0, -1)
    lead = st[S_LEAD]
    if need > 0:
        f = first_best(ip, st, opts, n, KEY_POWER, 1, lead, 1)
        if f >= 0:
            return f
        return first_best(ip, st, opts, n, KEY_SHED, 1, 0, -1)
    f = first_best(ip, st, opts, n, KEY_LOSE, -1, lead, 2)
    if f >= 0:
        return f
    return first_best(ip, st, opts, n, KEY_POWER, 1, 0, -1)


# ------------------------------------------------------------------------ lookahead (PIMC)


@njit_no_nrt
def determinize(params, st, rs, me, base, scratch):
    """The protocol's determinization (policies.determinize): ``base`` (``STATE_SIZE``) becomes a world
    consistent with what ``me`` knows, drawn from ``me``'s decision stream.  The opponent's hand is
    dealt from the faces ``me`` has not seen (the known ones kept; none of a suit ``me`` knows it lacks,
    while enough others remain), the stock reshuffled from the rest, and an opponent's bid ``me`` has
    not seen replaced by greedy's bid on the dealt hand.  The stock's slots past the world's stock and
    the deal's deck are cleared (they held real cards).  The discard record (``disc``, for §7.1 only)
    is left as it was: it still counts the opponent's real 3-discards, and the world's §7.1 tally need
    not hold."""
    ip = params
    opp = 1 - me
    k = 1 + me
    pool = scratch[W_POOL:W_POOL + MAX_DECK]
    rest = scratch[W_REST:W_REST + MAX_DECK]
    for i in range(STATE_SIZE):
        base[i] = st[i]
    # the pool of unseen faces, canonical order
    v = ip[P_SUITED]
    m = 0
    known_n = 0
    for f in range(v + 2):
        if f < v:
            total = 1
        elif f == v:
            total = ip[P_NV]
        else:
            total = ip[P_NN]
        known = st[S_KNOWN + me * MAX_FACES + f]
        known_n += known
        c = total - hand_count(ip, st, me, f) - st[S_SEEN + me * MAX_FACES + f] - known
        for _ in range(c):
            pool[m] = f
            m += 1
    want = st[S_HN + opp] - known_n
    void = st[S_VOID + me]
    # eligible cards first (into rest[0..e-1]), the void-suit ones after them
    e = 0
    for i in range(m):
        s = suit_of(ip, pool[i])
        if s < 0 or (void >> s) & 1 == 0:
            rest[e] = pool[i]
            e += 1
    if e < want:
        for i in range(m):
            rest[i] = pool[i]
        e = m
    else:
        t = e
        for i in range(m):
            s = suit_of(ip, pool[i])
            if s >= 0 and (void >> s) & 1 == 1:
                rest[t] = pool[i]
                t += 1
    for i in range(want):  # partial Fisher-Yates over the eligible cards
        j = i + rng.below(rs, k, e - i)
        tmp = rest[i]
        rest[i] = rest[j]
        rest[j] = tmp
    # the opponent's hand: the known cards and the sample
    base[S_HBITS + opp] = 0
    base[S_VC + opp] = 0
    base[S_NC + opp] = 0
    base[S_HN + opp] = 0
    for f in range(v + 2):
        for _ in range(st[S_KNOWN + me * MAX_FACES + f]):
            hand_add(ip, base, opp, f)
    for i in range(want):
        hand_add(ip, base, opp, rest[i])
    # the rest, shuffled: the stock (top first), then the opponent's 3-discards
    r = m - want
    rng.shuffle(rest, want, r, rs, k)
    size = st[S_STOCK_TAIL] - st[S_STOCK_HEAD]
    for i in range(size):
        base[S_STOCK + i] = rest[want + i]
    for i in range(size, 2 * MAX_DECK):  # no real card left past the world's stock
        base[S_STOCK + i] = 0
    for i in range(MAX_DECK):  # nor the deal's shuffled deck
        base[S_DECK + i] = 0
    base[S_STOCK_HEAD] = 0
    base[S_STOCK_TAIL] = size
    base[S_THREES_OWNER] = me
    base[S_BID + opp] = -1
    bid_turn = st[S_BID_TURN]
    if bid_turn == 2 or (bid_turn == 1 and opp == 1 - st[S_DEALER]):
        base[S_BID + opp] = min(ip[P_HAND], base[S_WON_N + opp] + greedy_bid(ip, base, opp))


@njit_no_nrt
def evaluate(params, st, seat):
    """The protocol's evaluation: ``seat``'s score minus the opponent's, each with the points its
    tricks won so far would bring if the round ended now (for a seat that has bid)."""
    total = 0
    for s in range(2):
        value = st[S_SCORE + s]
        if st[S_BID + s] >= 0:
            value += round_points(params, st[S_WON_N + s], st[S_BID + s])
        total += value if s == seat else -value
    return total


@njit_no_nrt
def rollout_value(params, world, rs, me, cands, i, scratch):
    """The lookahead's value of candidate ``cands[i]`` in the determinized ``world``: played, then the
    round to its end with greedy seats (chance from ``me``'s decision stream), as ``me``'s round points
    minus the opponent's."""
    ip = params
    k = 1 + me
    opts = scratch[W_OPTS2:W_OPTS2 + MAX_FACES]
    apply_decision(ip, world, cands[i], rs, k)
    while True:
        n = next_decision(ip, world, opts, rs, k)
        if n == 0:
            break
        apply_decision(ip, world, greedy_choice(ip, world, opts, n), rs, k)
    return (round_points(ip, world[S_WON_N + me], world[S_BID + me])
            - round_points(ip, world[S_WON_N + 1 - me], world[S_BID + 1 - me]))


pimc = make_lookahead(determinize, rollout_value, COPY_SIZE, random_ties=False)


@njit_no_nrt
def lookahead_choice(ip, st, opts, n, samples, rs, scratch):
    """The ``lookahead`` option of ``opts[:n]`` (policies.lookahead_choice); ``scratch``: ``SCRATCH_SIZE``.
    A bid is chosen among greedy's bid and those within ``BID_WINDOW`` of it; the rest is
    ``toolkit.core.lookahead`` (:func:`determinize`, :func:`rollout_value`, the first of the best)."""
    if n == 1:
        return opts[0]
    me, kind = st[S_DSEAT], st[S_DKIND]
    cands = scratch[W_CANDS:W_CANDS + MAX_FACES]
    nc = 0
    if kind == DP_BID:
        g = greedy_bid(ip, st, me)
        for i in range(n):
            if abs(opts[i] - g) <= BID_WINDOW:
                cands[nc] = opts[i]
                nc += 1
    else:
        for i in range(n):
            cands[i] = opts[i]
        nc = n
    best = pimc(ip, st, rs, me, cands, nc, samples, scratch[W_BASE:W_BASE + STATE_SIZE],
                scratch[W_WORLD:W_WORLD + STATE_SIZE], scratch[W_TOTALS:W_TOTALS + MAX_FACES], scratch)
    return cands[best]
