"""Every registered game's kernel against its pure-Python reference, in one table.

For each game (``toolkit.GAMES``, or those named) and its standard rules: games/s and
plies/s of the kernel on one thread, of the kernel on every thread, and of the pure-Python reference,
with the ratio kernel / reference, all measured in this run.  Every seat plays ``--policy`` (default
``random``; ``lookahead`` measures the determinized lookahead, ``toolkit.core.lookahead``).  The one-thread kernel rate is the best of
``--repeats`` runs taken in turn with the other games' runs (the machine's speed drifts), so that a
before/after comparison (``--save`` on one checkout, ``--compare`` on the other, or both checkouts in
turn with ``PYTHONPATH``) sees the code, not the moment.

    .venv/bin/python benchmarks/kernels.py [GAME ...] [-n 40000] [--repeats 5] [--policy random]
                                           [--save F.json] [--compare F.json]

A game with no benchmark of its own (``benchmarks/<game>.py``) is measured by this one in ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numba

sys.path.insert(0, str(Path(__file__).parent))

import toolkit  # noqa: E402
from common import chosen_games, kernel_rate, reference_rate  # noqa: E402

SEED = 7


def measure(games, n_games: int, repeats: int, reference_seconds: float, policy: str = "random") -> dict:
    for game in games:  # load or compile every kernel first
        seats = toolkit.GAMES[game].seats(toolkit.rules(game))
        toolkit.simulate(game, n_games=4, threads=1, progress=False, policies=(policy,) * seats)
    top = numba.config.NUMBA_NUM_THREADS
    best = {game: {"one": (0.0, 0.0, 0.0), "all": (0.0, 0.0, 0.0)} for game in games}
    for _ in range(repeats):
        for game in games:
            rules = toolkit.rules(game)
            seats = toolkit.GAMES[game].seats(rules)
            policies = (policy,) * seats
            best[game]["one"] = max(best[game]["one"], kernel_rate(game, rules, policies, n_games, 1, SEED))
            best[game]["all"] = max(best[game]["all"], kernel_rate(game, rules, policies, n_games, top, SEED))
    out = {}
    for game in games:
        rules = toolkit.rules(game)
        policies = (policy,) * toolkit.GAMES[game].seats(rules)
        ref = reference_rate(game, rules, policies, reference_seconds, SEED)
        one, many = best[game]["one"], best[game]["all"]
        out[game] = {"games_s_1": one[0], "plies_s_1": one[1], f"games_s_{top}": many[0],
                     "reference_games_s": ref[0], "reference_plies_s": ref[1], "ratio": one[0] / ref[0]}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every registered game)")
    parser.add_argument("-n", type=int, default=40_000, help="kernel games per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="kernel runs per game, the best counts")
    parser.add_argument("--reference-seconds", type=float, default=3.0, help="reference play per game")
    parser.add_argument("--policy", default="random", help="the policy every seat plays (default random)")
    parser.add_argument("--save", help="write the rates as JSON")
    parser.add_argument("--compare", help="a JSON of --save: print the one-thread rate against it")
    args = parser.parse_args(argv)
    games = chosen_games(parser, args.games)
    rates = measure(games, args.n, args.repeats, args.reference_seconds, args.policy)
    before = json.loads(Path(args.compare).read_text()) if args.compare else {}
    top = numba.config.NUMBA_NUM_THREADS
    print(f"{args.policy} in every seat, standard rules, seed {SEED}, {args.n:,} games a run, best of {args.repeats} "
          f"(numba {numba.__version__}, {top} threads)")
    header = f"{'game':<10} {'games/s 1 thr':>14} {'plies/s 1 thr':>14} {f'games/s {top} thr':>15} " \
             f"{'reference g/s':>14} {'kernel/ref':>11}"
    if before:
        header += f" {'before g/s':>11} {'after/before':>13}"
    print(header)
    for game, r in rates.items():
        line = (f"{game:<10} {r['games_s_1']:>14,.0f} {r['plies_s_1']:>14,.0f} {r[f'games_s_{top}']:>15,.0f} "
                f"{r['reference_games_s']:>14,.1f} {r['ratio']:>10,.0f}x")
        if game in before:
            line += f" {before[game]['games_s_1']:>11,.0f} {r['games_s_1'] / before[game]['games_s_1']:>13.3f}"
        print(line)
    if args.save:
        Path(args.save).write_text(json.dumps(rates, indent=1))
        print(f"wrote {args.save}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
