"""Timing helpers the per-game benchmarks share (games/s and plies/s of the kernel and of the
pure-Python reference, and the first result after import in a fresh process).

The kernels measured are never stale: the cache directory they load from is named by a digest of every
source under ``toolkit/core`` and ``toolkit/games`` (``toolkit.core.cache``), so code changed since the
last compile is compiled afresh, whichever module the change is in.  ``benchmarks/versus.py`` measures
other commits beside this tree, each compiled into a new cache directory in the same run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import toolkit
from toolkit.games import GAMES


def chosen_games(parser, names) -> list[str]:
    """The games named on the command line (every registered game if none), each checked by name:
    an unknown one ends the run with the parser's usage error."""
    for name in names:
        if name not in GAMES:
            parser.error(f"game {name!r} is not registered: one of {', '.join(GAMES)}")
    return list(names) or list(GAMES)


def kernel_rate(game, rules, policies, n_games, threads, seed):
    """(games/s, plies/s, CPU microseconds per game summed over threads) of one run."""
    start, cpu = time.perf_counter(), time.process_time()
    summary = toolkit.simulate(game, rules, n_games, seed=seed, policies=policies, threads=threads,
                               keep="summary", progress=False)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    plies = summary.sums[summary.columns.index("plies")]
    return n_games / seconds, plies / seconds, cpu / n_games * 1e6


def reference_rate(game, rules, policies, min_seconds, seed):
    """(games/s, plies/s, games) of the pure-Python reference: games 0, 1, … of the same seed
    until ``min_seconds`` have passed."""
    spec = GAMES[game]
    plies = games = 0
    start = time.perf_counter()
    while games == 0 or time.perf_counter() - start < min_seconds:
        plies += spec.play_reference(rules, seed, games, policies)["plies"]
        games += 1
    seconds = time.perf_counter() - start
    return games / seconds, plies / seconds, games


def first_result(game, cache_dir) -> float:
    """Seconds from a fresh interpreter to the first 1,000 games of ``game`` with ``cache_dir``
    as the Numba cache (cold the first time, warm after)."""
    code = ("import time; t = time.perf_counter(); import toolkit; "
            f"toolkit.simulate({game!r}, n_games=1000, seed=1, progress=False); print(time.perf_counter() - t)")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, TOOLKIT_CACHE_DIR=cache_dir)  # the root (toolkit.core.cache)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def report_checks(checks) -> int:
    """Print each ``(target, met)`` as ``[met]`` or ``[MISSED]``; the exit code: 1 if any target is missed
    (so ``make bench`` and CI fail on it, not only the table), else 0."""
    print()
    for name, ok in checks:
        print(f"  [{'met' if ok else 'MISSED'}] {name}")
    missed = sum(not ok for _, ok in checks)
    if missed:
        print(f"{missed} of {len(checks)} targets missed", file=sys.stderr)
    return 1 if missed else 0

