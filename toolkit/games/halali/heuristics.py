"""Halali's policies in the kernel: ``greedy`` and ``lookahead`` (the same heuristics as ``policies.py``,
which the reference plays; the two agree game for game), the protocol's ``choose`` that calls them,
``evaluate`` and ``determinize``.

Over ``layout.py`` and ``mechanics.py`` (the board's geometry, the action codes); ``kernel.py`` imports this
module.
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index
from toolkit.core.jit import njit, njit_inline, njit_no_nrt
from toolkit.games.halali.layout import (
    HUNTER, NEUTRAL_CLASS, P_CAPMASK, P_HUNTER_RESTRICTED, P_POINTS, P_RANGE, STATE_SIZE, S_COLOUR, S_DECK, S_DIR,
    S_FD_COUNT, S_GUN_OF_ID, S_HOME_OF_ID, S_ID, S_KIND, S_MATCH_OVER, S_M_SEAT, S_PHASE, S_SCORE, S_UP, S_UP_BITS,
)
from toolkit.games.halali.mechanics import NEXT, decode, owner, owner_class, step

SCRATCH_SIZE = 0  # the policies change the state in place and restore it


@njit_inline
def threat(ip, st, attacker):
    """The most points ``attacker`` (a colour) could take with one capture (face-up tiles only)."""
    best = 0
    pieces = st[S_UP_BITS + attacker] | st[S_UP_BITS + NEUTRAL_CLASS]
    while pieces != 0:
        s = lowest_bit_index(pieces)
        pieces &= pieces - 1
        kind = st[S_KIND + s]
        if kind < 0 or st[S_UP + s] == 0 or ip[P_CAPMASK + kind] == 0:
            continue
        own = owner(kind)
        if own != attacker and own != -1:
            continue
        reach = ip[P_RANGE + kind]
        gun = st[S_DIR + s]
        for d in range(4):
            if kind == HUNTER and ip[P_HUNTER_RESTRICTED] == 1 and d != gun:
                continue
            t = s
            for dist in range(1, reach + 1):
                t = NEXT[4 * t + d]
                if t < 0:
                    break
                victim = st[S_KIND + t]
                if victim < 0:
                    continue
                if st[S_UP + t] == 1 and (ip[P_CAPMASK + kind] >> victim) & 1 == 1 and ip[P_POINTS + victim] > best:
                    best = ip[P_POINTS + victim]
                break
    return best


@njit_no_nrt
def move_value(ip, st, seat, code):
    """policies.greedy_value of a move: 10 * gain - 10 * threat after it, -1 for a main-phase plain move.

    The move is made on the board (squares and bit sets) for the threat and then undone."""
    origin, d, dist = decode(code)
    opponent = st[S_COLOUR + 1 - seat]
    kind, up, gun, tid = st[S_KIND + origin], st[S_UP + origin], st[S_DIR + origin], st[S_ID + origin]
    b0, b1, b2, b3 = st[S_UP_BITS], st[S_UP_BITS + 1], st[S_UP_BITS + 2], st[S_UP_BITS + 3]
    t = step(origin, d, dist)
    st[S_KIND + origin] = -1
    st[S_UP_BITS + owner_class(kind)] &= ~(np.int64(1) << origin)
    if t < 0:
        value = 10 * ip[P_POINTS + kind] - 10 * threat(ip, st, opponent)
    else:
        vk, vup, vgun, vid = st[S_KIND + t], st[S_UP + t], st[S_DIR + t], st[S_ID + t]
        if vk >= 0:
            st[S_UP_BITS + owner_class(vk)] &= ~(np.int64(1) << t)
        st[S_UP_BITS + owner_class(kind)] |= np.int64(1) << t
        st[S_KIND + t], st[S_UP + t], st[S_DIR + t], st[S_ID + t] = kind, up, gun, tid
        gain = ip[P_POINTS + vk] if vk >= 0 else 0
        value = 10 * gain - 10 * threat(ip, st, opponent)
        if vk < 0 and st[S_PHASE] == 0:
            value -= 1
        st[S_KIND + t], st[S_UP + t], st[S_DIR + t], st[S_ID + t] = vk, vup, vgun, vid
    st[S_KIND + origin] = kind
    st[S_UP_BITS], st[S_UP_BITS + 1], st[S_UP_BITS + 2], st[S_UP_BITS + 3] = b0, b1, b2, b3
    return value


@njit_no_nrt
def greedy_index(ip, st, seat, opts, n):
    """The index in ``opts[:n]`` of greedy's choice (the first of the best values)."""
    opponent = st[S_COLOUR + 1 - seat]
    best, best_value = 0, 0
    reveal_value = 0
    have_reveal = False
    for i in range(n):
        code = opts[i]
        if code < 49:
            if not have_reveal:
                reveal_value = -10 * threat(ip, st, opponent)
                have_reveal = True
            value = reveal_value
        else:
            value = move_value(ip, st, seat, code)
        if i == 0 or value > best_value:
            best, best_value = i, value
    return best


@njit_no_nrt
def lookahead_index(ip, st, seat, opts, n):
    """The index in ``opts[:n]`` of lookahead's choice (the first of the best expected values)."""
    opponent = st[S_COLOUR + 1 - seat]
    face_down = 0
    for k in range(7):
        face_down += st[S_FD_COUNT + k]
    weight = 4 * max(face_down, 1)
    best, best_value = 0, 0
    for i in range(n):
        code = opts[i]
        if code < 49:
            s = code
            kind, up, gun = st[S_KIND + s], st[S_UP + s], st[S_DIR + s]
            value = 0
            for k in range(7):
                count = st[S_FD_COUNT + k]
                if count == 0:
                    continue
                st[S_KIND + s] = k
                st[S_UP + s] = 1
                cls = owner_class(k)
                saved = st[S_UP_BITS + cls]
                st[S_UP_BITS + cls] = saved | (np.int64(1) << s)
                if k == HUNTER:
                    for g in range(4):
                        st[S_DIR + s] = g
                        value -= count * 10 * threat(ip, st, opponent)
                else:
                    st[S_DIR + s] = -1
                    value -= count * 40 * threat(ip, st, opponent)
                st[S_UP_BITS + cls] = saved
            st[S_KIND + s], st[S_UP + s], st[S_DIR + s] = kind, up, gun
        else:
            value = weight * move_value(ip, st, seat, code)
        if i == 0 or value > best_value:
            best, best_value = i, value
    return best


@njit_no_nrt
def greedy_choice(ip, st, seat, opts, n):
    """greedy's action code among ``opts[:n]`` (policies.greedy_choice)."""
    return opts[0] if n == 1 else opts[greedy_index(ip, st, seat, opts, n)]


@njit_no_nrt
def lookahead_choice(ip, st, seat, opts, n):
    """lookahead's action code among ``opts[:n]`` (policies.lookahead_choice)."""
    return opts[0] if n == 1 else opts[lookahead_index(ip, st, seat, opts, n)]


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (policy 1) or ``lookahead`` (2): the index of the chosen option (``random`` is the driver's)."""
    if policy == 1:
        return greedy_index(params, st, seat, opts, n)
    return lookahead_index(params, st, seat, opts, n)


@njit_no_nrt
def evaluate(params, st, seat):
    """The protocol's evaluation: the points ``seat`` leads the opponent by in the match so far (the
    finished games' sums and, while the match goes on, the game being played)."""
    mine, theirs = st[S_M_SEAT + seat], st[S_M_SEAT + 1 - seat]
    if st[S_MATCH_OVER] == 0:
        mine += st[S_SCORE + seat]
        theirs += st[S_SCORE + 1 - seat]
    return mine - theirs


@njit_no_nrt
def determinize(params, st, rs, seat, base, scratch):
    """The protocol's determinization: ``base`` (``STATE_SIZE``) becomes a board consistent with what
    ``seat`` knows, drawn from its decision stream.  The face-down tiles (each a kind with its tile id),
    listed by square and shuffled, are dealt back to the face-down squares in square order; then each
    face-down hunter, by square, gets a gun direction ``below(4)`` (H-1 draws them uniformly).  The
    face-down tiles are listed by tile id before the shuffle, not by square: a list in square order
    would be the hidden layout itself, and the same stream would give another world for another
    layout.  The §7.4 references follow the tiles; setup's deck scratch is cleared (it held the real
    shuffle)."""
    for i in range(STATE_SIZE):
        base[i] = st[i]
    k = 1 + seat
    pool = base[S_DECK:S_DECK + 48]
    for i in range(48):
        pool[i] = -1
    for s in range(49):
        if st[S_KIND + s] >= 0 and st[S_UP + s] == 0:
            pool[st[S_ID + s]] = 64 * st[S_KIND + s] + st[S_ID + s]
    m = 0
    for i in range(48):  # compacted, in tile id order
        if pool[i] >= 0:
            pool[m] = pool[i]
            m += 1
    rng.shuffle(pool, 0, m, rs, k)
    j = 0
    for s in range(49):
        if st[S_KIND + s] >= 0 and st[S_UP + s] == 0:
            kind, tid = pool[j] // 64, pool[j] % 64
            j += 1
            base[S_KIND + s] = kind
            base[S_ID + s] = tid
            base[S_HOME_OF_ID + tid] = s
            base[S_DIR + s] = -1
    for s in range(49):
        if base[S_KIND + s] == HUNTER and base[S_UP + s] == 0:
            base[S_DIR + s] = rng.below(rs, k, 4)
            base[S_GUN_OF_ID + base[S_ID + s]] = base[S_DIR + s]
    for i in range(48):
        pool[i] = 0
