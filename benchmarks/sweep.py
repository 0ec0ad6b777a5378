"""Benchmark of a rule sweep: 20 Valhalla variants x 100,000 games, local and on Dask.

Targets (issue 7): the local sweep runs in under a minute on 2 cores, and the
same sweep on a ``LocalCluster`` of 2 single-threaded worker processes
(started and warmed before the clock starts) takes at most 1.3 times as long.
The two tables must be identical.

Prints, from one run: seconds, games/s and plies/s of each backend, the
Dask/local ratio, and the ratio to the pure-Python reference (its games/s on
the same rules, random policies, measured here for a few seconds).

    python benchmarks/sweep.py [--games 100000] [--seed 7]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numba
import pandas as pd

import toolkit
from common import reference_rate

VARY = {
    "zero_runes_value": [2, 3, 4, 5, 6],
    "extra_throw_enabled": [False, True],
    "blockade_blocks_passage": [False, True],
}  # 5 x 2 x 2 = 20 variants


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per variant (default 100,000)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    from distributed import Client, LocalCluster

    from toolkit.analysis.sweep import sweep, warm_workers

    variants = 1
    for values in VARY.values():
        variants *= len(values)
    total = variants * args.games
    print(f"sweep: valhalla, {variants} variants x {args.games:,} games = {total:,} games, random policies, "
          f"seed {args.seed}; {numba.get_num_threads()} Numba threads, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    # warm the local kernels (a tiny sweep: compile or load from the Numba cache)
    sweep("valhalla", {"zero_runes_value": [5]}, n_games=100, seed=0, progress=False)

    start = time.perf_counter()
    local = sweep("valhalla", VARY, n_games=args.games, seed=args.seed, progress=False)
    local_s = time.perf_counter() - start

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        warm_workers(client, "valhalla")
        start = time.perf_counter()
        remote = sweep("valhalla", VARY, n_games=args.games, seed=args.seed, backend="dask", client=client,
                       progress=False)
        dask_s = time.perf_counter() - start

    identical = local.equals(remote)
    plies = float((local["duration_plies"] * local["games"]).sum())
    ref_games_s, _, ref_games = reference_rate("valhalla", toolkit.rules("valhalla"), ("random", "random"), 5.0,
                                               args.seed)
    rows = []
    for name, seconds in (("local (2 Numba threads)", local_s), ("dask (2 workers x 1 thread)", dask_s)):
        rows.append({"backend": name, "seconds": round(seconds, 2), "games/s": round(total / seconds),
                     "plies/s": round(plies / seconds), "vs reference": f"{total / seconds / ref_games_s:,.0f}x"})
    print(pd.DataFrame(rows).to_string(index=False))
    print(f"reference (pure Python, 1 thread, standard rules): {ref_games_s:,.0f} games/s over {ref_games} games")
    print(f"dask / local = {dask_s / local_s:.2f} (target <= 1.3); local {local_s:.1f} s (target < 60 s); "
          f"tables identical: {identical}")
    print()
    shown = local[list(VARY) + ["win_rate_0", "first_player_win_rate", "duration_turns", "branching_factor",
                                "lead_changes", "decisiveness"]]
    print(shown.round(4).to_string(index=False))
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
