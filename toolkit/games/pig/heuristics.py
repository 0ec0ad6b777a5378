"""Pig's players in the kernel (``policies.py`` in plain Python, decision for decision): ``greedy``, the
``lookahead`` (``toolkit.core.lookahead`` over :func:`determinize` and :func:`turn_value`), and the protocol's
``evaluate`` (the tree search's cut-off) and ``determinize`` (nothing is hidden: a copy).

Over ``layout.py`` and ``mechanics.py`` (the lookahead plays the rules), and ``policies.py``'s constants;
``kernel.py`` imports this module.
"""

from __future__ import annotations

from toolkit.core.jit import njit, njit_no_nrt
from toolkit.core.layout import Layout
from toolkit.core.lookahead import make_lookahead
from toolkit.games.pig.layout import (
    HOLD, MAX_OPTIONS, P_TARGET, ROLL, SAMPLES_SHIFT, STATE_SIZE, S_ROLLING, S_SCORE, S_SEAT, S_TOTAL, S_WINNER,
)
from toolkit.games.pig.mechanics import apply, roll_once
from toolkit.games.pig.policies import HOLD_AT, WIN_VALUE

# the policies' scratch: the lookahead's position, its copy, each candidate's total, the candidates
WORK = Layout(("base", STATE_SIZE), ("world", STATE_SIZE), ("totals", MAX_OPTIONS), ("cands", MAX_OPTIONS))
W_BASE, W_WORLD, W_TOTALS, W_CANDS, SCRATCH_SIZE = WORK.base, WORK.world, WORK.totals, WORK.cands, WORK.size


@njit
def evaluate(params, st, seat):
    """``seat``'s banked score and turn total less the other's banked score (policies.evaluate)."""
    mine = st[S_SCORE + seat] + (st[S_TOTAL] if st[S_SEAT] == seat else 0)
    return mine - st[S_SCORE + 1 - seat]


@njit
def determinize(params, st, rs, seat, world, scratch):
    """Nothing is hidden in Pig (the rolls to come are chance, not state): ``world`` becomes a copy."""
    for i in range(STATE_SIZE):
        world[i] = st[i]


@njit
def greedy(params, st):
    """Hold at a turn total of ``HOLD_AT``, or when holding wins (P-5.1): the option's index."""
    total = st[S_TOTAL]
    return HOLD if total >= HOLD_AT or st[S_SCORE + st[S_SEAT]] + total >= params[P_TARGET] else ROLL


@njit_no_nrt
def turn_value(params, world, rs, me, cands, i, scratch):
    """Option ``cands[i]`` played in ``world`` and the turn played out (``greedy`` deciding, the rolls from
    ``me``'s stream), valued by :func:`evaluate` plus ``WIN_VALUE`` for a win (policies.LookaheadPolicy)."""
    apply(params, world, rs, cands[i])
    while world[S_SEAT] == me and world[S_WINNER] < 0:
        if world[S_ROLLING]:
            roll_once(params, world, rs, 1 + me)
        else:
            apply(params, world, rs, greedy(params, world))
    return evaluate(params, world, me) + (WIN_VALUE if world[S_WINNER] == me else 0)


lookahead = make_lookahead(determinize, turn_value, STATE_SIZE, random_ties=False)


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (code 1) or ``lookahead`` (2, its samples above ``SAMPLES_SHIFT``): the chosen index."""
    if policy & ((1 << SAMPLES_SHIFT) - 1) == 1:
        return greedy(params, st)
    cands = scratch[W_CANDS:W_CANDS + MAX_OPTIONS]
    for i in range(n):
        cands[i] = opts[i]
    return lookahead(params, st, rs, seat, cands, n, policy >> SAMPLES_SHIFT, scratch[W_BASE:W_WORLD],
                     scratch[W_WORLD:W_TOTALS], scratch[W_TOTALS:W_CANDS], scratch)
