"""Our tree search against OpenSpiel's on the same positions of the OpenSpiel bridge (``toolkit.openspiel``,
issue 16): iterations/s of our kernel's search (``mcts:N:0:random:uct``: plain UCT, random rollouts to the
end, as OpenSpiel's bots search, even in a game whose own search sweeps its root), of OpenSpiel's Python bot
(``MCTSBot`` for Valhalla, where nothing is hidden; ``ISMCTSBot`` elsewhere) with the bridge's kernel
playouts (``RolloutEvaluator``), and of the same bot with OpenSpiel's own ``RandomRolloutEvaluator``
(every ply a Python call through the bridge; fewer iterations, it is slow), and the ratios, measured in
one run on one thread.  OpenSpiel's C++ ``MCTSBot`` crashes on Python games (open_spiel 2.0.2, its own
``python_tic_tac_toe`` too), so it is not measured.

    .venv/bin/python benchmarks/openspiel.py [GAME ...] [--iterations 200] [--decisions 10]
        [--python-iterations 20] [--python-decisions 2]

With ``--games N`` it also plays N games of ``mcts:N:0:random:uct`` against OpenSpiel's bot at the same budget (ours in
seat ``game % seats``) and prints our pooled share of the wins with its 95% interval.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import toolkit
from common import chosen_games
from toolkit import openspiel as bridge
from toolkit.core import stats

SEED = 7


def positions(game, decisions):
    """Clones of every fifth decision point (more than one option) of seeded random bridge games."""
    r = np.random.RandomState(SEED)
    out, g, step = [], 0, 0
    while len(out) < decisions:
        state = game.new_initial_state(g)
        while not state.is_terminal() and len(out) < decisions:
            if state.is_chance_node():
                state.apply_action(int(r.randint(game.outcomes)))
                continue
            actions = state.legal_actions()
            if len(actions) > 1 and step % 5 == 0:
                out.append(state.clone())
            step += 1
            state.apply_action(actions[r.randint(len(actions))])
        g += 1
    return out


def ours(points, iterations) -> float:
    for state in points[:1]:  # compile or load
        play = state.play.copy()
        play.seat = state.current_player()
        play.search(5, uct=True)
    start = time.perf_counter()
    for state in points:
        play = state.play.copy()
        play.seat = state.current_player()
        play.search(iterations, uct=True)
    return len(points) * iterations / (time.perf_counter() - start)


def theirs(game, points, iterations, python_rollouts=False) -> float:
    bot = bridge.openspiel_bot(game, iterations, SEED)
    if python_rollouts:
        from open_spiel.python.algorithms import mcts as os_mcts

        python = os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(SEED))
        bot.evaluator = bot._evaluator = python  # MCTSBot's name, ISMCTSBot's
    else:
        bridge.RolloutEvaluator(game).evaluate(points[0])  # compile or load the playout
    start = time.perf_counter()
    for state in points:
        bot.step(state)
    return len(points) * iterations / (time.perf_counter() - start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--iterations", type=int, default=200, help="iterations per search")
    parser.add_argument("--decisions", type=int, default=10, help="searches per game")
    parser.add_argument("--python-iterations", type=int, default=20,
                        help="iterations per search of OpenSpiel's bot with its own Python rollouts")
    parser.add_argument("--python-decisions", type=int, default=2, help="its searches per game")
    parser.add_argument("--games", dest="n_games", type=int, default=0,
                        help="also play this many games of ours against OpenSpiel's bot at --iterations")
    args = parser.parse_args(argv)
    games = chosen_games(parser, args.games)
    print(f"{args.iterations} iterations, {args.decisions} decisions per game (OpenSpiel with Python rollouts: "
          f"{args.python_iterations} iterations, {args.python_decisions} decisions), one thread, seed {SEED}")
    print(f"{'game':<10} {'ours it/s':>11} {'OpenSpiel it/s':>15} {'ratio':>7} {'OS python-rollout it/s':>23} "
          f"{'ratio':>8}")
    for name in games:
        game = bridge.load(name)
        points = positions(game, args.decisions)
        mine = ours(points, args.iterations)
        other = theirs(game, points, args.iterations)
        python = theirs(game, points[:args.python_decisions], args.python_iterations, python_rollouts=True)
        print(f"{name:<10} {mine:>11,.0f} {other:>15,.0f} {mine / other:>7.1f} {python:>23,.1f} {mine / python:>8,.0f}",
              flush=True)
    if args.n_games:
        print(f"\nmcts:{args.iterations}:0:random:uct against OpenSpiel's bot of {args.iterations} iterations, "
              f"{args.n_games} games "
              f"(ours in seat game % seats), our pooled share of the wins with Wilson's 95% interval")
        for name in games:
            frame = bridge.match(name, f"mcts:{args.iterations}:0:random:uct", iterations=args.iterations,
                                 n_games=args.n_games, seed=SEED)
            share = frame["our_share"]
            _, low, high = stats.wilson(share.sum(), len(share))
            print(f"{name:<10} {share.mean():.3f} [{low:.3f}, {high:.3f}]  (fair {1 / game.seats:.3f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
