"""Attila's policies in the kernel: ``greedy`` (the same rules of thumb as ``policies.py``, which the
reference plays) and ``lookahead`` (determinized Monte Carlo over the unseen cards, ``core.lookahead``), with
the protocol's ``determinize`` and ``evaluate``; ``choose`` in ``kernel.py`` calls them.  The lookahead's
rollouts play whole turns in one go with :func:`turn` and :func:`finish_turn` (``greedy`` everywhere, its
decisions the same functions ``choose`` calls) in their own world, so they never touch the real game's
counters.  It imports the layouts (``layout.py``) and the rules (``mechanics.py``); ``kernel.py`` imports it.
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index, popcount
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.lookahead import deal_unseen, make_lookahead
from toolkit.games.attila.layout import (
    MAX_DECK, MAX_PAIRS, MAX_PROVINCES, MAX_SEATS, N_STREAMS, N_TRIBES, P_CARDS, P_MAX_TILES, P_PLAYERS, P_RATE,
    P_SECOND, P_THRESHOLD, P_TRACK_MAX, STATE_SIZE, S_DECK, S_DECK_HEAD, S_DECK_N, S_DISCARD, S_FIG, S_HAND, S_INF,
    S_OPTIONS, S_OVER, S_PENDING, S_PENDING_N, S_PLAYS_LEFT, S_PLIES, S_PRESENCE, S_SUPPLY, S_SUPPORT, S_TOTAL,
    S_TRIGGERED, S_VP, TILE_DOUBLE, TILE_EXCHANGE, TILE_PLUS_TWO, W_BASE, W_CANDS, W_LAID, W_LIMITS, W_OPTS, W_POOL,
    W_ROLL, W_TOTALS, W_WORLD,
)
from toolkit.games.attila.mechanics import (
    apply_split, century, distinct_tribes, draw, end_of_turn, gain_influence, legal_mask, n_vectors, nth_tribe_in_hand,
    peace_left, place, play_card, resolve_war, support_limits, tribe_gain, usable_tiles, use_tile,
)


@njit_inline
def gain_for(ip, st, me):
    """reference.scoring_gains for one player: the VP ``me`` would get from a scoring now."""
    g = 0
    for t in range(N_TRIBES):
        g += tribe_gain(ip, st, me, t)
    return g


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


@njit_inline
def greedy_exchange(ip, st, limits, laid):
    """DP-3 for ``greedy``: the cards that cannot be placed, else the first option (one card of the
    last tribe in hand), into ``laid``."""
    anything = 0
    for t in range(N_TRIBES):
        laid[t] = limits[t] if legal_mask(ip, st, t) == 0 else 0
        anything += laid[t]
    if anything == 0:
        last = 0
        for t in range(N_TRIBES):
            if limits[t] > 0:
                last = t
        laid[last] = 1


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
def greedy_discard(st, rs, seat):
    """DP-5 for ``greedy``: the rank of the tribe in hand it has least influence in (ties broken uniformly)."""
    i, rank, least, ties = 0, 0, -1, 1
    for t in range(N_TRIBES):
        if st[S_HAND + N_TRIBES * seat + t] > 0:
            v = st[S_INF + N_TRIBES * seat + t]
            take, ties = rng.best_of(rs, 1 + seat, -v, -least, ties, least < 0)  # the least influence
            if take:
                i, least = rank, v
            rank += 1
    return i


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
def greedy_support(ip, st, seat, x, limits, laid):
    """DP-7 for ``greedy``: every layable card of the involved tribes it leads, into ``laid``."""
    n = ip[P_PLAYERS]
    for t in range(N_TRIBES):
        mine = st[S_INF + N_TRIBES * seat + t]
        top = 0
        for p in range(n):
            top = max(top, st[S_INF + N_TRIBES * p + t])
        leads = st[S_FIG + N_TRIBES * x + t] > 0 and mine > 0 and mine == top
        laid[t] = limits[t] if leads else 0


# ------------------------------------------------------------------------ the rollouts' turns
# A-3 in one go for a random (pid 0) or greedy seat: the lookahead's rollouts play whole turns with these
# (tests too); the real game runs on kernel.py's protocol, whose choose calls the greedy functions above


@njit_inline
def decision_point(st, n):
    """A §5 decision point offering ``n`` options: one more ply (``decisions``), ``n`` more options."""
    st[S_PLIES] += 1
    st[S_OPTIONS] += n


@njit_inline
def pick(rs, seat, n):
    """The ``random`` policy: an index in 0..n-1 (no draw for a single option)."""
    if n == 1:
        return 0
    return rng.below(rs, 1 + seat, n)


@njit_inline
def pick_vector(st, rs, seat, limits, out, skip_zero):
    """A uniform count vector ``0 <= out[t] <= limits[t]`` by its lexicographic index (§5)."""
    n = n_vectors(limits, skip_zero)
    decision_point(st, n)
    i = pick(rs, seat, n) + (1 if skip_zero else 0)
    for t in range(N_TRIBES - 1, -1, -1):
        out[t] = i % (limits[t] + 1)
        i //= limits[t] + 1


@njit_no_nrt
def tile_window(ip, st, rs, seat, work, pid, without):
    """DP-1..3 of a turn for ``random`` (pid 0) or ``greedy`` (the lookahead's rollouts and tests);
    returns the plays of the turn (2 after Double turn)."""
    plays = 1
    used = 0
    limits = work[W_LIMITS:W_LIMITS + N_TRIBES]
    laid = work[W_LAID:W_LAID + N_TRIBES]
    while used < ip[P_MAX_TILES]:
        usable = usable_tiles(st, seat)
        if usable == 0:
            break
        n = popcount(usable) + 1  # the usable tiles, then proceed
        decision_point(st, n)
        i = pick(rs, seat, n) if pid == 0 else greedy_tile(ip, st, seat, usable, without)
        if i == n - 1:
            break
        bits = usable
        for _ in range(i):
            bits &= bits - 1
        tile = bits & -bits
        used += 1
        use_tile(st, seat, tile)
        if tile == TILE_DOUBLE:
            plays = 2
        elif tile == TILE_PLUS_TWO:
            decision_point(st, 21)
            apply_split(ip, st, seat, pick(rs, seat, 21) if pid == 0 else greedy_plus_two(ip, st, rs, seat))
        else:
            for t in range(N_TRIBES):
                limits[t] = st[S_HAND + N_TRIBES * seat + t]
            if pid == 0:
                pick_vector(st, rs, seat, limits, laid, True)
            else:
                decision_point(st, n_vectors(limits, True))
                greedy_exchange(ip, st, limits, laid)
            count = 0
            for t in range(N_TRIBES):
                st[S_HAND + N_TRIBES * seat + t] -= laid[t]
                st[S_DISCARD + t] += laid[t]
                count += laid[t]
            for _ in range(count):
                draw(ip, st, rs, seat)
    return plays


@njit_inline
def list_plays(ip, st, seat, opts):
    """DP-4's options as (tribe, province) pairs in ``opts``; returns their number."""
    n = 0
    for t in range(N_TRIBES):
        if st[S_HAND + N_TRIBES * seat + t] == 0:
            continue
        bits = legal_mask(ip, st, t)
        while bits != 0:
            opts[2 * n] = t
            opts[2 * n + 1] = lowest_bit_index(bits)
            bits &= bits - 1
            n += 1
    return n


@njit_no_nrt
def forced_discard(ip, st, rs, seat, pid):
    """DP-5 (no legal pair): discard one card of a tribe in hand, if any."""
    distinct = distinct_tribes(st, seat)
    if distinct == 0:
        return
    decision_point(st, distinct)
    i = pick(rs, seat, distinct) if pid == 0 else greedy_discard(st, rs, seat)
    t = nth_tribe_in_hand(st, seat, i)
    st[S_HAND + N_TRIBES * seat + t] -= 1
    st[S_DISCARD + t] += 1


@njit_no_nrt
def apply_play(ip, st, rs, seat, pid, t, x):
    """A-3.2 after the DP-4 choice: the card, the figure, then influence or a second figure."""
    play_card(ip, st, seat, t, x)
    rate = ip[P_RATE + century(st)]
    if ip[P_SECOND] == 0:
        gain_influence(ip, st, seat, t, rate)
        return
    bits = legal_mask(ip, st, t)
    decision_point(st, popcount(bits) + 1)
    i = pick(rs, seat, popcount(bits) + 1) if pid == 0 else greedy_bonus(ip, st, rs, seat, t, bits)
    if i == 0:
        gain_influence(ip, st, seat, t, rate)
        return
    for _ in range(i - 1):
        bits &= bits - 1
    place(ip, st, seat, t, lowest_bit_index(bits))


@njit_no_nrt
def play(ip, st, rs, seat, work, pid):
    """A-3.2 for ``random`` (pid 0) and ``greedy`` (pid 1)."""
    opts = work[W_OPTS:W_OPTS + 2 * MAX_PAIRS]
    n = list_plays(ip, st, seat, opts)
    if n == 0:
        forced_discard(ip, st, rs, seat, pid)
        return
    decision_point(st, n)
    i = pick(rs, seat, n) if pid == 0 else greedy_play(ip, st, rs, seat, opts, n)
    apply_play(ip, st, rs, seat, pid, opts[2 * i], opts[2 * i + 1])


@njit_no_nrt
def war(ip, st, rs, active, x, work, policies):
    """A-4 (the lookahead's rollouts and tests); returns 1 if a century scoring took place."""
    n = ip[P_PLAYERS]
    laid = work[W_LAID:W_LAID + N_TRIBES]
    limits = work[W_LIMITS:W_LIMITS + N_TRIBES]
    strength_laid = work[W_OPTS:W_OPTS + N_TRIBES]  # cards laid per tribe, all players
    for t in range(N_TRIBES):
        strength_laid[t] = 0
    for i in range(n):
        seat = (active + i) % n
        if support_limits(ip, st, seat, x, limits) == 0:
            continue
        if policies[seat] == 0:
            pick_vector(st, rs, seat, limits, laid, False)
        else:
            decision_point(st, n_vectors(limits, False))
            greedy_support(ip, st, seat, x, limits, laid)
        for t in range(N_TRIBES):
            st[S_HAND + N_TRIBES * seat + t] -= laid[t]
            strength_laid[t] += laid[t]
            st[S_SUPPORT + seat] += laid[t]
    return resolve_war(ip, st, x, strength_laid)


@njit_no_nrt
def turn(ip, st, rs, seat, work, policies):
    """A-3 for a ``random`` or ``greedy`` seat, in one go (the lookahead's rollouts; the real game runs
    on the protocol below)."""
    st[S_PENDING_N] = 0
    st[S_PLAYS_LEFT] = tile_window(ip, st, rs, seat, work, policies[seat], policies[2 * MAX_SEATS + seat])
    finish_turn(ip, st, rs, seat, work, policies)


@njit_no_nrt
def finish_turn(ip, st, rs, seat, work, policies):
    """The rest of A-3 from the plays on (rollouts start here, mid-turn)."""
    pid = policies[seat]
    while st[S_PLAYS_LEFT] > 0:
        st[S_PLAYS_LEFT] -= 1
        play(ip, st, rs, seat, work, pid)
    triggered = st[S_PENDING_N] > 0
    st[S_TRIGGERED] = triggered
    scored = 0
    for i in range(st[S_PENDING_N]):
        if st[S_OVER] == 1 or peace_left(st) == 0:  # no tile left: the war is dropped
            break
        scored |= war(ip, st, rs, seat, st[S_PENDING + i], work, policies)
    end_of_turn(ip, st, rs, seat, scored)


# ------------------------------------------------------------------------ lookahead


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
