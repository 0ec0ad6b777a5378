"""Valhalla's policies in the kernel: ``greedy`` (rules of thumb), ``lookahead`` (expectimax over the
opponent's next throw), the protocol's ``choose`` that calls them, ``evaluate`` and ``determinize``.  The
same heuristics in plain Python are ``policies.py``; the kernel and the reference agree game for game
(``tests/conformance/test_equality.py``).

Over ``layout.py`` and ``mechanics.py`` (the moves the policies weigh), and ``policies.py``'s weights;
``kernel.py`` imports this module.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.bits import lowest_bit_index
from toolkit.core.jit import njit, njit_inline
from toolkit.games.valhalla.layout import (
    ATTACK, BOARD, HOME_N, OFF, OFF_SQ, PH_EXTRA, P_DOCK, P_ROCK, P_SAFE_MASK, P_SHIPS, P_VALUE_MASK, REP,
    STATE_SIZE, S_PHASE, VALHALLA, VAL_N,
)
from toolkit.games.valhalla.mechanics import apply_move, legal_moves, move_of, protected_mask
from toolkit.games.valhalla.policies import EXPOSED, OFF_PROGRESS, REPAIR_PENALTY, WIN_VALUE

SCRATCH_SIZE = 2 * 24 + 2 * BOARD  # choose's: two move lists (3 x 8) and two boards


@njit
def evaluate(ip, st, seat):
    """The protocol's evaluation, and the lookahead's position value for ``seat`` (see
    policies.evaluate)."""
    total = 0
    for s in range(2):
        sign = 1 if s == seat else -1
        x = st[s]
        side = 0
        while x:
            side += lowest_bit_index(x)
            x &= x - 1
        side += VALHALLA * st[VAL_N + s] + OFF_PROGRESS * st[OFF + s]
        if st[REP] == s:
            side -= REPAIR_PENALTY
        total += sign * side
    return total


@njit
def greedy_choice(ip, st, seat, mo, n, after):
    reach = 0  # the largest throw value (§3): how far behind a ship its attackers can stand
    while ip[P_VALUE_MASK] >> (reach + 2):
        reach += 1
    best = 0
    best_score = 0
    for i in range(n):
        origin, target, flags = mo[0, i], mo[1, i], mo[2, i]
        score = 40 - origin
        if target == OFF_SQ:
            score += 1000
        if flags & ATTACK:
            score += 500 + target
        if target == ip[P_ROCK]:
            score -= 1000
        elif target == VALHALLA or (target < VALHALLA and (ip[P_SAFE_MASK] >> target) & 1):
            score += 200
        elif target < VALHALLA:
            _copy_state(after, st)
            apply_move(ip, after, seat, origin, target, flags)
            if exposed(ip, after, seat, target, reach):
                score -= EXPOSED
        if origin == ip[P_DOCK] and st[REP] == seat:
            score += 300
        if i == 0 or score > best_score:
            best = i
            best_score = score
    return best


@njit_inline
def exposed(ip, st, seat, target, reach):
    """``greedy``: ``seat``'s ship on ``target`` (1..35) can be attacked on the opponent's next throw: it
    is not protected (V-6.4) and an opponent ship stands 1..``reach`` squares behind it (at home counts as
    square 0; a repairing ship does not count).  Legality beyond that is not looked at."""
    if (protected_mask(ip, st, seat) >> target) & 1:
        return False
    opponent = 1 - seat
    behind = st[opponent] & ((np.int64(1) << target) - 1) & ~((np.int64(1) << max(target - reach, 0)) - 1)
    if st[REP] == opponent:
        behind &= ~(np.int64(1) << ip[P_DOCK])
    return behind != 0 or (target <= reach and st[HOME_N + opponent] > 0)


@njit_inline
def _copy_state(dest, src):
    for q in range(BOARD):  # an explicit loop: a slice copy would allocate (no NRT here)
        dest[q] = src[q]


@njit
def _won(ip, st, seat):
    return st[OFF + seat] == ip[P_SHIPS]


@njit
def expected_after_reply(ip, st, seat, gprob, gvalue, gnat, mo, scratch):
    opponent = 1 - seat
    total = 0.0
    for g in range(gprob.shape[0]):
        n = legal_moves(ip, st, opponent, gvalue[g], gnat[g] == 1, mo)
        if n == 0:
            value = evaluate(ip, st, seat)
        else:
            value = 0
            for i in range(n):
                _copy_state(scratch, st)
                apply_move(ip, scratch, opponent, mo[0, i], mo[1, i], mo[2, i])
                v = -WIN_VALUE if _won(ip, scratch, opponent) else evaluate(ip, scratch, seat)
                if i == 0 or v < value:
                    value = v
        total += gprob[g] * value
    return total


@njit
def lookahead_choice(ip, st, seat, mo, n, gprob, gvalue, gnat, mo2, after, scratch):
    best = 0
    best_value = 0.0
    for i in range(n):
        _copy_state(after, st)
        apply_move(ip, after, seat, mo[0, i], mo[1, i], mo[2, i])
        if _won(ip, after, seat):
            value = float(WIN_VALUE)
        else:
            value = expected_after_reply(ip, after, seat, gprob, gvalue, gnat, mo2, scratch)
        if i == 0 or value > best_value:
            best = i
            best_value = value
    return best


@njit
def lookahead_extra(ip, st, seat, gprob, gvalue, gnat, mo2, scratch):
    now = evaluate(ip, st, seat)
    total = 0.0
    for g in range(gprob.shape[0]):
        n = legal_moves(ip, st, seat, gvalue[g], gnat[g] == 1, mo2)
        value = now
        for i in range(n):
            _copy_state(scratch, st)
            apply_move(ip, scratch, seat, mo2[0, i], mo2[1, i], mo2[2, i])
            v = WIN_VALUE if _won(ip, scratch, seat) else evaluate(ip, scratch, seat)
            if i == 0 or v > value:
                value = v
        total += gprob[g] * value
    return total >= now


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (policy 1) or ``lookahead`` (2): the index of the chosen option (``random`` is the driver's)."""
    ip, gprob, gvalue, gnat = params[0], params[4], params[5], params[6]
    mo = scratch[:24].reshape((3, 8))
    mo2 = scratch[24:48].reshape((3, 8))
    after = scratch[48:48 + BOARD]
    other = scratch[48 + BOARD:48 + 2 * BOARD]
    if st[S_PHASE] == PH_EXTRA:  # DP-2: greedy always throws again
        if policy == 1 or lookahead_extra(ip, st, seat, gprob, gvalue, gnat, mo2, other):
            return 0
        return 1
    for i in range(n):
        mo[0, i], mo[1, i], mo[2, i] = move_of(ip, st, seat, opts[i])
    if policy == 1:
        return greedy_choice(ip, st, seat, mo, n, after)
    return lookahead_choice(ip, st, seat, mo, n, gprob, gvalue, gnat, mo2, after, other)


@njit
def determinize(params, st, rs, seat, base, scratch):
    """The protocol's determinization: nothing is hidden in Valhalla (the throws to come are chance,
    not state), so ``base`` becomes a copy of ``st`` and nothing is drawn."""
    for i in range(STATE_SIZE):
        base[i] = st[i]
