"""Tiny's players in the kernel (``policies.py`` in plain Python, decision for decision): ``greedy``, the
``lookahead`` (``toolkit.core.lookahead`` over :func:`determinize` and :func:`game_value`), and the protocol's
``evaluate`` (the tree search's cut-off) and ``determinize`` (nothing is hidden: a copy).

Over ``layout.py`` and ``mechanics.py`` (the lookahead plays the rules), and ``policies.py``'s constants;
``kernel.py`` imports this module.
"""

from __future__ import annotations

from toolkit.core.jit import njit, njit_no_nrt
from toolkit.core.layout import Layout
from toolkit.core.lookahead import make_lookahead

from tiny.layout import (
    MAX_OPTIONS, P_ROUNDS, P_SIDES, P_TRACK, S_OVER, S_ROLL, S_SEAT, S_SQUARE, S_TURNS, S_WINNER, SAMPLES_SHIFT,
    STATE_SIZE,
)
from tiny.mechanics import apply, count, first_option, roll_die
from tiny.policies import WIN_VALUE

# the policies' scratch: the lookahead's position, its copy, each candidate's total, the candidates
WORK = Layout(("base", STATE_SIZE), ("world", STATE_SIZE), ("totals", MAX_OPTIONS), ("cands", MAX_OPTIONS))
W_BASE, W_WORLD, W_TOTALS, W_CANDS, SCRATCH_SIZE = WORK.base, WORK.world, WORK.totals, WORK.cands, WORK.size


@njit
def evaluate(params, st, seat):
    """``seat``'s square less the other pawn's (policies.evaluate)."""
    return st[S_SQUARE + seat] - st[S_SQUARE + 1 - seat]


@njit
def determinize(params, st, rs, seat, world, scratch):
    """Nothing is hidden in Tiny (the rolls to come are chance, not state): ``world`` becomes a copy."""
    for i in range(STATE_SIZE):
        world[i] = st[i]


@njit
def greedy(params, st):
    """The longest move that leaves the pawn out of the other pawn's reach (home, behind it, or more than a
    roll ahead of it after any capture), waiting included, else the longest; in the game's last turn the
    longest (policies.greedy_choice).  Returns the option's code (its squares)."""
    seat = st[S_SEAT]
    here, them = st[S_SQUARE + seat], st[S_SQUARE + 1 - seat]
    first = first_option(params, st)
    longest = first + count(params, st) - 1
    if st[S_TURNS] >= 2 * params[P_ROUNDS]:
        return longest
    for k in range(longest, first - 1, -1):
        there = here + k
        left = 0 if here < them <= there else them  # T-3: a pawn passed goes back to the start
        if there >= params[P_TRACK] or there < left or there - left > params[P_SIDES]:
            return k
    return longest


@njit_no_nrt
def game_value(params, world, rs, me, cands, i, scratch):
    """Option ``cands[i]`` played in ``world`` and the game played out (``greedy`` deciding for both seats,
    the rolls from ``me``'s stream), valued by :func:`evaluate` plus ``WIN_VALUE`` for a win, less it for a
    loss (policies.LookaheadPolicy)."""
    apply(params, world, rs, cands[i])
    while world[S_OVER] == 0:
        if world[S_ROLL] == 0:
            roll_die(params, world, rs, 1 + me)
        apply(params, world, rs, greedy(params, world))
    winner = world[S_WINNER]
    return evaluate(params, world, me) + (WIN_VALUE if winner == me else -WIN_VALUE if winner >= 0 else 0)


lookahead = make_lookahead(determinize, game_value, STATE_SIZE, random_ties=False)


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (code 1) or ``lookahead`` (2, its samples above ``SAMPLES_SHIFT``): the chosen index."""
    if policy & ((1 << SAMPLES_SHIFT) - 1) == 1:
        return greedy(params, st) - first_option(params, st)
    cands = scratch[W_CANDS:W_CANDS + MAX_OPTIONS]
    for i in range(n):
        cands[i] = opts[i]
    return lookahead(params, st, rs, seat, cands, n, policy >> SAMPLES_SHIFT, scratch[W_BASE:W_WORLD],
                     scratch[W_WORLD:W_TOTALS], scratch[W_TOTALS:W_CANDS], scratch)
