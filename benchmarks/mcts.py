"""The tree search's speed in every registered game (``toolkit.core.mcts``, issue 16): iterations/s and
decisions/s on one thread, searching ``--iterations`` iterations at the decision points of seeded random
games (the seat to move searches; its opponents' moves are random), with rollouts to the end by ``random``
(``mcts:N:0:random``, the search's own speed) and by the game's ``greedy`` (``mcts:N:0:greedy``: what its
stronger rollouts cost), and as the game's ``mcts:N`` plays by default (its kernel's ``MCTS_ROLLOUT`` and
``MCTS_CUTOFF``, :func:`toolkit.core.mcts.game_defaults`).  ``benchmarks/openspiel.py`` compares
this search with OpenSpiel's on the same games.

    .venv/bin/python benchmarks/mcts.py [GAME ...] [--iterations 1000] [--decisions 40]

Targets (issue 16): Valhalla at least 50,000 iterations/s, Herrlof at least 100,000 (the search's own speed,
with random rollouts; the default's column says what the stronger default costs).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import toolkit
from common import chosen_games
from toolkit.core import mcts
from toolkit.core.protocol import KernelGame

SEED = 7


def positions(name, decisions):
    """Copies of the first ``decisions`` decision points (more than one option) of seeded random games."""
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    seats = spec.seats(rules)
    out, g = [], 0
    while len(out) < decisions:
        game = KernelGame(spec.kernel, rules, ("random",) * seats, SEED, g)
        step = 0
        while (seat := game.advance()) >= 0 and len(out) < decisions:
            options = game.options()
            if len(options) > 1 and step % 5 == 0:
                out.append((game.copy(), seat))
            game.apply(options[game.choose()])
            step += 1
        g += 1
    return out


def measure(name, iterations, decisions, rollout=0, depth=0) -> tuple[float, float]:
    """(iterations/s, decisions/s) of searches whose rollouts the game's policy of code ``rollout`` plays,
    cut off after ``depth`` plies (0: to the end)."""
    kernel = toolkit.GAMES[name].kernel
    points = positions(name, decisions)
    game, seat = points[0]
    tree = np.zeros(mcts.entries(kernel, iterations), np.int64)  # the driver's work: allocated once per block
    c = kernel.mcts.exploration
    kernel.mcts(game.params, game.st, game.rs.copy(), seat, 10, c, depth, rollout, tree)  # compile or load
    start = time.perf_counter()
    for game, seat in points:
        kernel.mcts(game.params, game.st, game.rs.copy(), seat, iterations, c, depth, rollout, tree)
    seconds = time.perf_counter() - start
    return len(points) * iterations / seconds, len(points) / seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--iterations", type=int, default=1000, help="iterations per search")
    parser.add_argument("--decisions", type=int, default=40, help="searches per game")
    args = parser.parse_args(argv)
    games = chosen_games(parser, args.games)
    print(f"mcts:{args.iterations}, {args.decisions} decisions per game, one thread, seed {SEED}")
    print(f"{'':<10} {'random rollouts':>28} {'greedy rollouts':>30} {'the game default':>42}")
    print(f"{'game':<10} {'iterations/s':>14} {'decisions/s':>13} {'iterations/s':>16} {'decisions/s':>13} "
          f"{'setting':>12} {'iterations/s':>16} {'decisions/s':>13}")
    for name in games:
        rate, per_decision = measure(name, args.iterations, args.decisions)
        greedy = int(toolkit.GAMES[name].kernel.policy_ids(("greedy",))[0])
        greedy_rate, greedy_per_decision = measure(name, args.iterations, args.decisions, greedy)
        defaults = mcts.game_defaults(toolkit.GAMES[name].kernel)
        code = greedy if defaults["rollout"] == "greedy" else 0
        default_rate, default_per_decision = measure(name, args.iterations, args.decisions, code, defaults["depth"])
        setting = f"{defaults['depth'] or 'end'}:{defaults['rollout']}"
        print(f"{name:<10} {rate:>14,.0f} {per_decision:>13,.1f} {greedy_rate:>16,.0f} {greedy_per_decision:>13,.1f} "
              f"{setting:>12} {default_rate:>16,.0f} {default_per_decision:>13,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
