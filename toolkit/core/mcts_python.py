"""The tree search of :mod:`toolkit.core.mcts`, written again in plain Python over the protocol.

Its tree is dictionaries and its loop Python, so it is a separate implementation of the same algorithm
(the module docstring of :mod:`toolkit.core.mcts`): a node's children by option code, each with its
visits, its availability count and every seat's summed reward.  It steps the game through the kernel
module's protocol functions (what :class:`toolkit.core.protocol.KernelGame` calls) and draws through
:mod:`toolkit.core.rng`, so from the same streams it must make the kernel's choice, draw for draw:
``tests/conformance/test_mcts.py`` checks it does, at small budgets, in every game.  It is a thousand
times slower than the kernel's; it is the check, and a readable statement of what the kernel does.

>>> import toolkit
>>> from toolkit.core.protocol import KernelGame
>>> game = KernelGame(toolkit.GAMES["valhalla"].kernel, toolkit.rules("valhalla"), ("random",) * 2, 1, 0)
>>> while game.advance() >= 0 and len(game.options()) < 2:
...     game.apply(game.options()[0])
>>> twin = game.copy()
>>> search(game, 8) == twin.search(8)
True
"""

from __future__ import annotations

import math

import numpy as np

from toolkit.core import rng
from toolkit.core.layout import seat_count
from toolkit.core.mcts import EXPLORATION, FLAT, UCT

MASK64 = (1 << 64) - 1


class Node:
    __slots__ = ("children", "visits", "available", "wins")

    def __init__(self, seats: int):
        self.children: dict[int, Node] = {}  # option code -> child, in the order they were made
        self.visits = 0
        self.available = 1
        self.wins = [0.0] * seats


def search(game, iterations: int, exploration: float = EXPLORATION, cutoff: int = 0, rollout: int = 0,
           uct: bool = False) -> int:
    """The index of the option the search picks for ``game``'s deciding seat (``game`` a
    :class:`~toolkit.core.protocol.KernelGame` at a decision point); like the kernel's ``mcts``, it
    draws only from that seat's decision stream, which it advances.  ``rollout`` is the game's code of the
    rollout policy (0: random); ``uct`` (or the bit :data:`~toolkit.core.mcts.UCT` in ``rollout``, as the
    driver passes it) asks for plain UCT: neither the game's root sweep nor its expansion threshold; the bit
    :data:`~toolkit.core.mcts.FLAT` in ``rollout`` for flat Monte Carlo: the root swept, nothing grown below."""
    root, codes, sweep = _grow(game, iterations, exploration, cutoff, rollout, uct)
    return _choice(root, codes, game.seat, sweep)


def root_statistics(game, iterations: int, exploration: float = EXPLORATION, cutoff: int = 0, rollout: int = 0,
                    uct: bool = False) -> tuple[list, list, list, int, list]:
    """What the search of :func:`search` learnt at its root, as :func:`toolkit.core.mcts.root_statistics`
    reads it from the kernel's: ``(codes, visits, wins, choice, every_seat)``, for each option legal in
    ``game``'s position in canonical order (the deciding seat's summed rewards in ``wins``, every seat's in
    ``every_seat``), and the index chosen."""
    root, codes, sweep = _grow(game, iterations, exploration, cutoff, rollout, uct)
    seats = len(root.wins)
    every = [tuple(root.children[c].wins) if c in root.children else (0.0,) * seats for c in codes]
    return (codes, *_statistics(root, codes, game.seat), _choice(root, codes, game.seat, sweep), every)


def _statistics(root, codes, seat):
    children = [root.children.get(c) for c in codes]
    return [c.visits if c else 0 for c in children], [c.wins[seat] if c else 0.0 for c in children]


def _choice(root, codes, seat, sweep) -> int:
    """The search's pick: the best mean for the seat among the options tried where the root was swept, else
    the most visited option (the first in canonical order on a tie)."""
    visits, wins = _statistics(root, codes, seat)
    if sweep:
        means = [w / v if v else -1.0 for v, w in zip(visits, wins)]
        return means.index(max(means))
    return visits.index(max(visits))


def _grow(game, iterations, exploration, cutoff, rollout, uct):
    """The search's tree: ``(root, the real position's legal codes, whether the root was swept)``."""
    flat = bool(rollout & FLAT)  # flat Monte Carlo (``:flat``): the root swept, nothing grown below it
    uct = uct or bool(rollout & UCT)
    rollout &= UCT - 1
    k = game.kernel
    params, st, rs, seat = game.params, game.st, game.rs, game.seat
    seats = seat_count(k.COLUMNS)
    world = np.zeros(k.STATE_SIZE, np.int64)
    scratch = np.zeros(max(k.SCRATCH_SIZE, 1), np.int64)
    opts = np.zeros(k.MAX_OPTIONS, np.int64)
    row = np.zeros(len(k.COLUMNS) + 1, np.int32)
    ret = np.zeros(seats, np.float64)
    wrs = np.zeros(k.RS_SIZE, np.uint64)
    root = Node(seats)
    at_root = [0.0] * seats  # each seat's evaluation at the root, where the game scores cut-offs against it
    against_root = bool(getattr(k, "MCTS_AGAINST_ROOT", False))
    at_turn = bool(getattr(k, "MCTS_CUTOFF_AT_TURN", False))  # a cut-off waits for the seat's turn to start
    scale = float(getattr(k, "MCTS_REWARD_SCALE", 0.0))  # > 0: a graded reward at a cut-off

    def legal(state):
        return [int(k.nth(params, state, i)) for i in range(int(k.count(params, state)))]

    sweep = (bool(getattr(k, "MCTS_ROOT_SWEEP", False)) and not uct) or flat  # every root option in turn on each world
    expand_after = 0 if uct else (iterations + 1 if flat else int(getattr(k, "MCTS_EXPAND_AFTER", 0)))  # a node
    # grows once visited this often
    n_root, runs, saved, saved_base = 1, iterations, world.copy(), 0
    if sweep:
        n_root = len(legal(st.copy()))
        if n_root <= iterations:
            runs = iterations - iterations % n_root
    for it in range(runs):
        if sweep:
            if it % n_root == 0:
                k.determinize(params, st, rs, seat, saved, scratch)
                saved_base = rng.next_u64(rs, 1 + seat)
            world[:] = saved
            base = saved_base
        else:
            k.determinize(params, st, rs, seat, world, scratch)
            base = rng.next_u64(rs, 1 + seat)
        if against_root and cutoff > 0:
            at_root = [k.evaluate(params, world, s) for s in range(seats)]
        for j in range(k.RS_SIZE):
            wrs[j] = rng.mix64_nb(np.uint64((int(base) + j + 1) & MASK64))
        node, mover, path, over, last = root, seat, [], False, seat
        while True:  # selection: UCB1 over the children legal here, counted by availability
            best, best_value, untried = None, -1.0, None
            codes = legal(world)
            if sweep and node is root:
                codes = [codes[it % n_root]]
            for code in codes:
                child = node.children.get(code)
                if child is None:
                    if untried is None:
                        untried = code
                    continue
                child.available += 1
                value = child.wins[mover] / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)
                if best is None or value > best_value:
                    best, best_value = child, value
                    best_code = code
            if untried is not None:  # expansion
                best, best_code = Node(seats), untried
                node.children[untried] = best
            path.append(best)
            last = mover
            k.apply_called(params, world, wrs, best_code)
            node = best
            mover = int(k.advance_called(params, world, wrs))
            if mover < 0:
                over = True
                break
            if untried is not None or best.visits < expand_after:
                break
        plies = 0
        if not over:  # the rollout
            while mover >= 0 and (cutoff == 0 or plies < cutoff or (at_turn and (mover != seat or last == seat))):
                last = mover
                if rollout == 0:
                    n = int(k.count(params, world))
                    option = k.nth(params, world, rng.below(wrs, 1 + mover, n) if n > 1 else 0)
                else:
                    n = int(k.options(params, world, opts))
                    option = opts[k.choose(params, rollout, world, wrs, mover, opts, n, scratch) if n > 1 else 0]
                k.apply_called(params, world, wrs, option)
                mover = int(k.advance_called(params, world, wrs))
                plies += 1
        if mover >= 0:  # cut off: ahead by the evaluation (against the root's, where the game says) wins,
            # or a reward graded by the lead, where the game gives a scale
            for s in range(seats):
                value = k.evaluate(params, world, s) - at_root[s]
                if scale > 0:
                    ret[s] = 0.5 + 0.5 * math.tanh(value / scale)
                else:
                    ret[s] = 1.0 if value > 0 else (0.5 if value == 0 else 0.0)
        else:
            k.returns(params, world, ret, row)
        for visited in path:
            visited.visits += 1
            for s in range(seats):
                visited.wins[s] += ret[s]
    world[:] = st
    return root, legal(world), sweep
