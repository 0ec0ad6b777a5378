"""Attila's policies in the kernel: ``greedy`` (the same rules of thumb as ``policies.py``, which the
reference plays) and ``lookahead`` (determinized Monte Carlo over the unseen cards, ``core.lookahead``), with
the protocol's ``determinize`` and ``evaluate``; ``choose`` in ``kernel.py`` calls them.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.games.attila.kernel import (  # the layouts and mechanics (kernel.py imports this module at its end)
    MAX_DECK, MAX_PROVINCES, MAX_SEATS, N_STREAMS, N_TRIBES, P_CARDS, P_FIGURES, P_GAP, P_PLAYERS, P_RATE,
    P_THRESHOLD, P_TRACK_MAX, STATE_SIZE, S_DECK, S_DECK_HEAD, S_DECK_N, S_DISCARD, S_FIG, S_HAND, S_INF, S_OVER,
    S_PRESENCE, S_SUPPLY, S_TOTAL, S_VP, TILE_DOUBLE, TILE_EXCHANGE, TILE_PLUS_TWO, W_BASE, W_CANDS, W_OPTS, W_POOL,
    W_ROLL, W_TOTALS, W_WORLD, apply_play, century, deal_unseen, finish_turn, legal_mask, lowest_bit_index,
    make_lookahead, popcount, rng, share, turn,
)


@njit_inline
def gain_for(ip, st, me):
    """reference.scoring_gains for one player: the VP ``me`` would get from a scoring now."""
    g = 0
    for t in range(N_TRIBES):
        g += tribe_gain(ip, st, me, t)
    return g


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


@njit_inline
def gain_with_influence(ip, st, me, t, amount, u, amount_u):
    """The gain after adding ``amount`` to tribe t and ``amount_u`` to tribe u (capped), then undo."""
    kt = S_INF + N_TRIBES * me + t
    ku = S_INF + N_TRIBES * me + u
    old_t, old_u = st[kt], st[ku]
    st[kt] = min(ip[P_TRACK_MAX], st[kt] + amount)
    if amount_u > 0:
        st[ku] = min(ip[P_TRACK_MAX], st[ku] + amount_u)
    g = gain_for(ip, st, me)
    st[kt] = old_t
    st[ku] = old_u
    return g


@njit_inline
def put_figure(st, t, x, delta):
    """Add (+1) or take back (-1) a hypothetical figure of t in x."""
    k = S_FIG + N_TRIBES * x + t
    st[k] += delta
    st[S_TOTAL + x] += delta
    st[S_SUPPLY + t] -= delta
    if st[k] > 0:
        st[S_PRESENCE + t] |= np.int64(1) << x
    else:
        st[S_PRESENCE + t] &= ~(np.int64(1) << x)


@njit_inline
def plus_two_gain(ip, st, me, j):
    if j < 6:
        return gain_with_influence(ip, st, me, j, 2, j, 0)
    j -= 6
    for a in range(N_TRIBES):
        if j < 5 - a:
            return gain_with_influence(ip, st, me, a, 1, a + 1 + j, 1)
        j -= 5 - a
    return 0


@njit_no_nrt
def greedy_tile(ip, st, seat, usable, without):
    """DP-1: the index of the chosen option among the usable tiles, then proceed (never a
    tile in ``without``)."""
    n = popcount(usable) + 1
    avail = usable & ~without
    if avail & TILE_PLUS_TWO:
        base = gain_for(ip, st, seat)
        for j in range(21):
            if plus_two_gain(ip, st, seat, j) > base:
                return popcount(usable & (TILE_PLUS_TWO - 1))
    if avail & TILE_DOUBLE and century(st) >= 2:
        return 0
    if avail & TILE_EXCHANGE:
        playable = False
        for t in range(N_TRIBES):
            if st[S_HAND + N_TRIBES * seat + t] > 0 and legal_mask(ip, st, t) != 0:
                playable = True
        if not playable:
            return popcount(usable & (TILE_EXCHANGE - 1))
    return n - 1


@njit_no_nrt
def greedy_plus_two(ip, st, rs, seat):
    best, best_gain, ties = 0, 0, 1
    for j in range(21):
        g = plus_two_gain(ip, st, seat, j)
        take, ties = rng.best_of(rs, 1 + seat, g, best_gain, ties, j == 0)
        if take:
            best, best_gain = j, g
    return best


@njit_no_nrt
def greedy_play(ip, st, rs, seat, opts, n):
    rate = ip[P_RATE + century(st)]
    best, best_value, ties = 0, 0, 1
    for i in range(n):
        t, x = opts[2 * i], opts[2 * i + 1]
        starts_war = st[S_TOTAL + x] + 1 == ip[P_THRESHOLD]
        put_figure(st, t, x, 1)
        value = 10 * gain_with_influence(ip, st, seat, t, rate, t, 0)
        put_figure(st, t, x, -1)
        if starts_war:
            value -= 5
        take, ties = rng.best_of(rs, 1 + seat, value, best_value, ties, i == 0)
        if take:
            best, best_value = i, value
    return best


@njit_no_nrt
def greedy_bonus(ip, st, rs, seat, t, bits):
    """DP-6: 0 for influence, else 1 + the rank of the chosen province among ``bits``."""
    rate = ip[P_RATE + century(st)]
    best, best_value, ties = 0, gain_with_influence(ip, st, seat, t, rate, t, 0), 1
    i = 0
    while bits != 0:
        x = lowest_bit_index(bits)
        bits &= bits - 1
        i += 1
        put_figure(st, t, x, 1)
        value = gain_for(ip, st, seat)
        put_figure(st, t, x, -1)
        take, ties = rng.best_of(rs, 1 + seat, value, best_value, ties, False)
        if take:
            best, best_value = i, value
    return best


@njit_inline
def position_value(ip, st, me):
    """policies.position_value: VP (+ a scoring now, if the game goes on) minus the best opponent's."""
    mine, best = 0, -(1 << 40)
    for p in range(ip[P_PLAYERS]):
        w = st[S_VP + p]
        if st[S_OVER] == 0:
            w += gain_for(ip, st, p)
        if p == me:
            mine = w
        elif w > best:
            best = w
    return mine - best


@njit_no_nrt
def evaluate(params, st, seat):
    """The protocol's evaluation: :func:`position_value` (``seat``'s VP, with a scoring now if the game
    goes on, minus the best other seat's)."""
    return position_value(params, st, seat)


@njit_no_nrt
def determinize(params, st, rs, me, base, scratch):
    """The protocol's determinization (policies.determinize): ``base`` (``STATE_SIZE``) becomes a world
    consistent with what ``me`` knows, drawn from ``me``'s decision stream: the cards ``me`` has not
    seen (neither in its hand nor discarded), in canonical order and shuffled, dealt to the other
    seats (each as many as it holds, in seat order) and the rest as the draw pile (the slots past it
    cleared)."""
    ip = params
    pool = scratch[W_POOL:W_POOL + MAX_DECK]
    m = 0
    for t in range(N_TRIBES):
        for _ in range(ip[P_CARDS] - st[S_HAND + N_TRIBES * me + t] - st[S_DISCARD + t]):
            pool[m] = t
            m += 1
    rng.shuffle(pool, 0, m, rs, 1 + me)
    for j in range(STATE_SIZE):
        base[j] = st[j]
    base[S_DECK_N] = deal_unseen(st, base, pool, m, me, ip[P_PLAYERS], S_HAND, N_TRIBES, S_DECK, MAX_DECK)
    base[S_DECK_HEAD] = 0


@njit_no_nrt
def rollout_value(params, world, rs, me, cands, i, scratch):
    """The lookahead's value of the pair ``cands[2 * i], cands[2 * i + 1]`` in the determinized
    ``world``: played, then the turn finished and each other seat's next turn with greedy seats, as
    :func:`position_value`.  The rollout's streams (``rs``'s second set) start from ``me``'s decision
    stream as it stands after the determinization, the same for every pair."""
    ip = params
    players = ip[P_PLAYERS]
    roll = scratch[W_ROLL:W_ROLL + 3 * MAX_SEATS]
    rs2 = rs[N_STREAMS:]
    chance = rs[1 + me]
    rs2[0] = chance
    for p in range(players):
        rs2[1 + p] = rng.mix64_nb(chance + np.uint64(1 + p))
    apply_play(ip, world, rs2, me, 1, cands[2 * i], cands[2 * i + 1])
    finish_turn(ip, world, rs2, me, scratch, roll)
    seat = me
    for _ in range(players - 1):
        if world[S_OVER] == 1:
            break
        seat = (seat + 1) % players
        turn(ip, world, rs2, seat, scratch, roll)
    return position_value(ip, world, me)


pimc = make_lookahead(determinize, rollout_value, STATE_SIZE, random_ties=True)


@njit_no_nrt
def lookahead_play(ip, st, rs, me, work, policies, n):
    """policies.lookahead_play: the best of the ``n`` pairs in ``opts``, written to ``opts[0:2]``
    (``toolkit.core.lookahead``: :func:`determinize`, :func:`rollout_value`, ties at random)."""
    opts = work[W_OPTS:W_OPTS + MAX_PROVINCES * N_TRIBES * 2]
    cands = work[W_CANDS:W_CANDS + MAX_PROVINCES * N_TRIBES * 2]
    roll = work[W_ROLL:W_ROLL + 3 * MAX_SEATS]
    for i in range(2 * n):
        cands[i] = opts[i]
    for p in range(MAX_SEATS):  # greedy everywhere; the seat keeps its unused-tile mask
        roll[p], roll[MAX_SEATS + p], roll[2 * MAX_SEATS + p] = 1, 0, 0
    roll[2 * MAX_SEATS + me] = policies[2 * MAX_SEATS + me]
    best = pimc(ip, st, rs, me, cands, n, policies[MAX_SEATS + me], work[W_BASE:W_BASE + STATE_SIZE],
                work[W_WORLD:W_WORLD + STATE_SIZE], work[W_TOTALS:W_TOTALS + MAX_PROVINCES * N_TRIBES], work)
    opts[0] = cands[2 * best]
    opts[1] = cands[2 * best + 1]
