"""Issue 16's strength target, measured: ``mcts:1000`` (each game's default search) against ``lookahead``.

Two seats: the search plays ``--deals`` deals in each seat against ``lookahead`` (the same deals, seed
``--seed``, common random numbers), and its pooled win rate over both seatings must be at least 0.60 with
the 95% interval's lower bound above 0.5.  Three or more seats: the search sits in each seat in turn
among ``lookahead`` players, and its pooled win rate must be at least 1.3 times the fair share
(1 / seats) with the lower bound above the fair share.  A shared win counts as a fraction (1 / the number
of winners).  Wilson 95% intervals over the games played.

    .venv/bin/python benchmarks/strength.py [GAME ...] [--deals 60] [--seed 100] [--players N]
        [--policy mcts] [--opponent lookahead]

Both cores play (``toolkit.simulate``'s threads; the games do not depend on the number of threads).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import toolkit
from common import chosen_games


def pooled(name, policy, opponent, deals, seed, players=None):
    """(score, games, seats, seconds): ``policy``'s win share over ``deals`` deals in each seat among
    ``opponent`` players (a shared win as 1 / the number of winners)."""
    rules = toolkit.rules(name) if players is None else toolkit.rules(name, num_players=players)
    seats = toolkit.GAMES[name].seats(rules)
    score = 0.0
    start = time.perf_counter()
    for seat in range(seats):
        line_up = [opponent] * seats
        line_up[seat] = policy
        games = toolkit.simulate(name, rules, deals, seed=seed, policies=tuple(line_up), progress=False)
        wins = games[[f"win_{s}" for s in range(seats)]].to_numpy(float)
        score += float(np.sum(wins[:, seat] / np.maximum(wins.sum(axis=1), 1.0)))
    return score, deals * seats, seats, time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--deals", type=int, default=60, help="deals per seating")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--players", type=int, default=None, help="seats, where the game allows a choice")
    parser.add_argument("--policy", default="mcts", help="the player measured (default: the game's mcts:1000)")
    parser.add_argument("--opponent", default="lookahead")
    args = parser.parse_args(argv)
    games = chosen_games(parser, args.games)
    print(f"{args.policy} against {args.opponent}, {args.deals} deals per seating, seed {args.seed}")
    print(f"{'game':<10} {'seats':>5} {'games':>6} {'win share':>10} {'95% interval':>16} {'target':>7} "
          f"{'met':>4} {'seconds':>8}")
    failed = 0
    for name in games:
        score, n, seats, seconds = pooled(name, args.policy, args.opponent, args.deals, args.seed, args.players)
        rate, low, high = toolkit.wilson(score, n)
        fair = 1.0 / seats
        target, floor = (0.60, 0.5) if seats == 2 else (1.3 * fair, fair)
        met = rate >= target and low > floor
        failed += not met
        print(f"{name:<10} {seats:>5} {n:>6} {rate:>10.3f} {f'[{low:.3f}, {high:.3f}]':>16} {target:>7.3f} "
              f"{'yes' if met else 'no':>4} {seconds:>8.0f}", flush=True)
    if failed:
        print(f"{failed} of {len(games)} games miss the target", file=sys.stderr)
    return 1 if failed else 0  # a missed target fails the run (make bench, CI), not only the table


if __name__ == "__main__":
    sys.exit(main())
