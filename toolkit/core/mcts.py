"""Monte Carlo tree search over the decision-point protocol, written once for every game (issue 16, first
part: the search itself; the ``mcts`` policy, the ladder and the bridge come next).

One search decides for ``seat`` at a decision point of the state ``st``.  Each iteration:

1. a **world**: ``determinize(params, st, rs, seat, world, scratch)`` (a copy where nothing is hidden),
   and fresh streams for it (chance and every seat's decisions), seeded from ``seat``'s decision stream,
   so the search never reads the real future draws nor anything its seat cannot see;
2. **selection** down the tree: a node is the sequence of options played from the root (an *open-loop*
   tree: throws, draws and the hidden cards differ between iterations, so a node stands for what was
   chosen, not for a state).  At each decision point, the children whose options are legal in this world
   are *available*; while every legal option has a child, the next is the available child of highest
   UCB1 for the seat deciding there, counted over the iterations it was available (single-observer
   information-set MCTS, Cowling, Powley & Whitehouse 2012; with nothing hidden and no chance it is UCT);
3. **expansion** of the first legal option (canonical order) without a child, then a **rollout**: the
   ``random`` policy (one ``below(n)`` from the deciding seat's stream of the world) to the end;
4. **backpropagation** of ``returns`` (1 for each winner, else 0), each node keeping every seat's sum, so
   that a seat chooses by its own reward with any number of seats.

The choice is the root's most visited legal option, the first in canonical order on a tie.  The budget
is a number of iterations, so a seed gives the same search on any machine.

:func:`make_mcts` builds a game's search from its protocol functions, cached beside its kernel as
``core.driver.make_play_game`` builds the game loop.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from toolkit.core import rng
from toolkit.core.driver import from_template
from toolkit.core.jit import njit
from toolkit.core.layout import seat_count

# the names the template takes from the scope make_mcts gives each copy
advance = count = nth = apply = determinize = returns = None
STATE_SIZE = SCRATCH_SIZE = RS_SIZE = N_COLUMNS = SEATS = 0
EXPLORATION = math.sqrt(2.0)
# node fields
CODE, FIRST, NEXT, VISITS, AVAIL = range(5)
FIELDS = 5


def _mcts(params, st, rs, seat, iterations, exploration):
    k = 1 + seat
    nodes = np.zeros((iterations + 2, FIELDS), np.int64)
    wins = np.zeros((iterations + 2, SEATS), np.float64)
    path = np.zeros(iterations + 2, np.int64)
    movers = np.zeros(iterations + 2, np.int64)
    world = np.zeros(STATE_SIZE, np.int64)
    scratch = np.zeros(max(SCRATCH_SIZE, 1), np.int64)
    wrs = np.zeros(RS_SIZE, np.uint64)
    ret = np.zeros(SEATS, np.float64)
    row = np.zeros(N_COLUMNS, np.int32)
    nodes[0, FIRST] = -1
    used = 1
    for _ in range(iterations):
        determinize(params, st, rs, seat, world, scratch)
        base = rng.next_u64(rs, k)
        for j in range(RS_SIZE):
            wrs[j] = rng.mix64_nb(base + np.uint64(j + 1))
        node, mover, depth, over = 0, seat, 0, False
        while True:  # selection
            n = count(params, world)
            best, best_value, untried = -1, -1.0, -1
            for i in range(n):
                code = nth(params, world, i)
                child = nodes[node, FIRST]
                while child >= 0 and nodes[child, CODE] != code:
                    child = nodes[child, NEXT]
                if child < 0:
                    if untried < 0:
                        untried = code
                    continue
                nodes[child, AVAIL] += 1
                value = (wins[child, mover] / nodes[child, VISITS]
                         + exploration * math.sqrt(math.log(nodes[child, AVAIL]) / nodes[child, VISITS]))
                if best < 0 or value > best_value:
                    best, best_value = child, value
            if untried >= 0:  # expansion
                child = used
                used += 1
                nodes[child, CODE] = untried
                nodes[child, FIRST] = -1
                nodes[child, NEXT] = nodes[node, FIRST]
                nodes[child, AVAIL] = 1
                nodes[node, FIRST] = child
                best = child
            path[depth], movers[depth] = best, mover
            depth += 1
            apply(params, world, wrs, nodes[best, CODE])
            node = best
            mover = advance(params, world, wrs)
            if mover < 0:
                over = True
                break
            if untried >= 0:
                break
        if not over:  # rollout: random to the end
            while mover >= 0:
                n = count(params, world)
                apply(params, world, wrs, nth(params, world, rng.below(wrs, 1 + mover, n) if n > 1 else 0))
                mover = advance(params, world, wrs)
        returns(params, world, ret, row)
        for d in range(depth):
            nodes[path[d], VISITS] += 1
            for s in range(SEATS):
                wins[path[d], s] += ret[s]
    # the most visited of the root's options legal in the real position (listed on a copy: a game's
    # ``nth`` may use its state's scratch, and the real state is left alone)
    for j in range(STATE_SIZE):
        world[j] = st[j]
    n = count(params, world)
    best, most = 0, -1
    for i in range(n):
        code = nth(params, world, i)
        child = nodes[0, FIRST]
        while child >= 0 and nodes[child, CODE] != code:
            child = nodes[child, NEXT]
        visits = nodes[child, VISITS] if child >= 0 else 0
        if visits > most:
            best, most = i, visits
    return best


def make_mcts(kernel_globals: dict):
    """The search of a game's kernel module (its globals: the protocol functions ``advance``, ``count``,
    ``nth``, ``apply``, ``determinize``, ``returns`` and the sizes ``STATE_SIZE``, ``SCRATCH_SIZE``,
    ``RS_SIZE`` and ``COLUMNS``)::

        mcts(params, st, rs, seat, iterations, exploration) -> index of the chosen option

    ``st`` is a decision point of ``seat`` (``advance`` returned it); ``rs``'s stream ``1 + seat`` is
    the only one drawn from.  Call it at the top level of the kernel module, after those names.
    """
    g = kernel_globals
    seats = seat_count(g["COLUMNS"])
    scope = {"np": np, "math": math, "rng": rng, "advance": g["advance"], "count": g["count"], "nth": g["nth"],
             "apply": g["apply"], "determinize": g["determinize"], "returns": g["returns"],
             "STATE_SIZE": g["STATE_SIZE"], "SCRATCH_SIZE": g["SCRATCH_SIZE"], "RS_SIZE": g["RS_SIZE"],
             "N_COLUMNS": len(g["COLUMNS"]), "SEATS": seats, "CODE": CODE, "FIRST": FIRST, "NEXT": NEXT,
             "VISITS": VISITS, "AVAIL": AVAIL, "FIELDS": FIELDS}
    return njit(from_template(_mcts, "mcts", scope, sys._getframe(1)))
