"""Halali benchmark: kernel vs reference, threads, greedy and lookahead, first result.

Run through ``make bench`` (all games) or ``python benchmarks/halali.py``.
Every number in the table is measured in this one run; nothing is carried
over from earlier runs.  Targets:

- kernel >= 100x the pure-Python reference, single thread (random vs random,
  standard rules, games/s; plies/s is printed beside it);
- >= 20,000 random-vs-random games/s on one core;
- first result after a fresh import with a warm cache < 3 s (the toolkit-wide
  target the Valhalla and Herrlof benchmarks also check).

What the rates count:

- a *game* is one single game (the standard preset has ``match_games = 1``);
  a *turn* is one action (a reveal, a move or an automatic end-phase pass)
  and a *ply* is one decision point presented (spec §5: every turn but a
  pass), so a random-vs-random game is about 100 plies;
- ``greedy`` and ``lookahead`` take no argument; their rows are games/s on
  one thread for the policy in both seats, and ``lookahead`` also against
  ``random``.  Two ``lookahead`` players make far longer games (about 350
  plies against 100 for random play: mostly moves that neither reveal nor
  capture, with about 4 reveals a game forced by ``progress_limit``), so
  compare them on plies/s as well as games/s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

import toolkit
from common import report_checks
from toolkit.games import GAMES

SEED = 7
FIRST_RESULT = (
    "import time; t = time.perf_counter(); import toolkit; "
    "toolkit.simulate('halali', n_games=1000, seed=1, progress=False); "
    "print(time.perf_counter() - t)"
)


def kernel_rate(rules, policies, n_games, threads):
    """(games/s, plies/s, CPU microseconds per game summed over threads) of one run."""
    start, cpu = time.perf_counter(), time.process_time()
    summary = toolkit.simulate("halali", rules, n_games, seed=SEED, policies=policies, threads=threads,
                               keep="summary", progress=False)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    plies = summary.sums[summary.columns.index("plies")]
    return n_games / seconds, plies / seconds, cpu / n_games * 1e6


def reference_rate(rules, policies, n_games):
    """(games/s, plies/s) of the pure-Python reference, games 0..n_games-1 of the same seed."""
    spec = GAMES["halali"]
    plies = 0
    start = time.perf_counter()
    for g in range(n_games):
        plies += spec.play_reference(rules, SEED, g, policies)["plies"]
    seconds = time.perf_counter() - start
    return n_games / seconds, plies / seconds


def first_result(cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, TOOLKIT_CACHE_DIR=cache_dir)  # the root (toolkit.core.cache)
    out = subprocess.run([sys.executable, "-c", FIRST_RESULT], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=30_000, help="kernel games per random-vs-random measurement")
    parser.add_argument("--reference-games", type=int, default=300)
    parser.add_argument("--lookahead-games", type=int, default=300, help="lookahead vs lookahead games")
    args = parser.parse_args(argv)

    rules = toolkit.rules("halali")
    policies = ("random", "random")
    for warm in ("random", "greedy", "lookahead"):  # load or compile the kernel once, every policy
        toolkit.simulate("halali", n_games=4, policies=warm, threads=1, progress=False)

    ref = reference_rate(rules, policies, args.reference_games)
    top = numba.config.NUMBA_NUM_THREADS
    # 1 and all threads run in adjacent pairs (the VM's speed drifts from second to second): rates are
    # the best of 5 runs, the speed-up is the median of the 5 paired ratios, as in Valhalla's benchmark
    one, many, ratios = (0.0,) * 3, (0.0,) * 3, []
    for _ in range(5):
        single = kernel_rate(rules, policies, args.n, threads=1)
        multi = kernel_rate(rules, policies, args.n, threads=top) if top > 1 else single
        ratios.append(multi[0] / single[0])
        one, many = max(one, single), max(many, multi)
    speedup = float(np.median(ratios))
    print("paired speed-ups:", " ".join(f"{r:.2f}" for r in ratios))
    greedy = kernel_rate(rules, ("greedy", "greedy"), max(args.n // 4, 1000), threads=1)
    look = kernel_rate(rules, ("lookahead", "lookahead"), args.lookahead_games, threads=1)
    look_random = kernel_rate(rules, ("lookahead", "random"), 4 * args.lookahead_games, threads=1)

    with tempfile.TemporaryDirectory() as cold_dir:
        cold = first_result(cold_dir)
        warm = first_result(cold_dir)

    def rate_row(name, r, versus=True):
        return (name, f"{r[0]:,.0f}", f"{r[1]:,.0f}", f"{r[1] / r[0]:,.0f}", f"{r[0] / ref[0]:,.0f}x" if versus else "")

    rows = [
        ("reference, 1 thread (random vs random)", f"{ref[0]:,.0f}", f"{ref[1]:,.0f}", f"{ref[1] / ref[0]:,.0f}",
         "1.0x"),
        rate_row("kernel, 1 thread (random vs random)", one),
        rate_row(f"kernel, {top} threads (random vs random)", many),
        rate_row("kernel, 1 thread (greedy vs greedy)", greedy, versus=False),
        rate_row("kernel, 1 thread (lookahead vs lookahead)", look, versus=False),
        rate_row("kernel, 1 thread (lookahead vs random)", look_random, versus=False),
    ]
    print(f"Halali benchmark  (numba {numba.__version__}, numpy {np.__version__}, {os.cpu_count()} cpus, "
          f"standard rules, seed {SEED})")
    print(f"{'measurement':<44} {'games/s':>10} {'plies/s':>12} {'plies/game':>11} {'vs reference':>13}")
    for name, g, p, pg, v in rows:
        print(f"{name:<44} {g:>10} {p:>12} {pg:>11} {v:>13}")
    print(f"{'kernel vs reference, plies/s (1 thread)':<44} {one[1] / ref[1]:>10,.0f}x")
    print(f"{'per core on ' + str(top) + ' threads (random vs random)':<44} {many[0] / top:>10,.0f} games/s")
    print(f"{'threads speed-up (' + str(top) + ' vs 1, paired median)':<44} {speedup:>10.2f}x")
    print(f"{'threads speed-up (' + str(top) + ' vs 1, best vs best)':<44} {many[0] / one[0]:>10.2f}x")
    print(f"{'CPU time per game, 1 thread':<44} {one[2]:>9.2f}us")
    print(f"{'CPU time per game, ' + str(top) + ' threads (sum)':<44} {many[2]:>9.2f}us")
    print(f"{'first result after import, cold cache':<44} {cold:>9.2f}s")
    print(f"{'first result after import, warm cache':<44} {warm:>9.2f}s")
    checks = [
        ("kernel >= 100x reference (1 thread, games/s)", one[0] / ref[0] >= 100),
        (">= 20,000 random-vs-random games/s on one core", one[0] >= 20_000),
        ("first result, warm cache < 3 s", warm < 3),
    ]
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
