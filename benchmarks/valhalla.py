"""Valhalla benchmark: kernel vs reference, threads, first result, panel redraw.

Run through ``make bench`` (all games) or ``python benchmarks/valhalla.py``.
Every number in the table is measured in this one run; nothing is carried
over from earlier runs.  Targets (issue 2):

- kernel >= 100x the reference, single thread;
- >= 100,000 standard random-vs-random games/s on one core; 2 threads >= 1.7x;
- first result after a fresh import with a warm cache < 3 s;
- a rule change in the panel redraws 100,000 games in < 2 s.

On the development VM the two-thread speed-up drifts between runs (paired
median 1.4x-1.7x), both threads stay busy (process time / wall time
1.8-2.0), and the CPU time per game rises when both threads run.  The table
therefore also prints the machine's own ceiling: a throughput-bound ALU loop
(four independent xorshift chains, no memory) run the same way.  On this VM
it scales only about 1.4x while a latency-bound loop scales 2.0x, so the two
vCPUs share execution units (SMT siblings on the host): the faster the
kernel, the more the two threads compete.  The kernel scaled 1.98x back when
it ran at 48,000 games/s.
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

FIRST_RESULT = (
    "import time; t = time.perf_counter(); import toolkit; "
    "toolkit.simulate('valhalla', n_games=1000, seed=1, progress=False); "
    "print(time.perf_counter() - t)"
)


def kernel_rate(rules, policies, n_games, threads, repeats=3):
    """Best of ``repeats``: (games/s, plies/s, CPU microseconds per game summed over threads)."""
    best = (0.0, 0.0, 0.0)
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        summary = toolkit.simulate("valhalla", rules, n_games, seed=7, policies=policies, threads=threads,
                                   keep="summary", progress=False)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        plies = summary.sums[summary.columns.index("plies")]
        if n_games / seconds > best[0]:
            best = (n_games / seconds, plies / seconds, cpu / n_games * 1e6)
    return best


def reference_rate(rules, policies, n_games):
    spec = GAMES["valhalla"]
    start = time.perf_counter()
    plies = 0
    for g in range(n_games):
        plies += spec.play_reference(rules, 7, g, policies)["plies"]
    seconds = time.perf_counter() - start
    return n_games / seconds, plies / seconds


def first_result(cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, TOOLKIT_CACHE_DIR=cache_dir)  # the root (toolkit.core.cache)
    out = subprocess.run([sys.executable, "-c", FIRST_RESULT], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


@numba.njit(parallel=True, cache=False)
def _alu_loop(n, out):
    for b in numba.prange(out.shape[0]):
        a, c = np.uint64(b + 1), np.uint64(b + 7)
        d, e = np.uint64(b + 13), np.uint64(b + 29)
        for _ in range(n):  # four independent chains: bound by the ALUs, not by latency or memory
            a = (a ^ (a >> np.uint64(7))) + np.uint64(0x9E37)
            c = (c ^ (c << np.uint64(9))) + np.uint64(0x7F4A)
            d = (d ^ (d >> np.uint64(11))) + np.uint64(0x1234)
            e = (e ^ (e << np.uint64(5))) + np.uint64(0x5678)
        out[b] = a ^ c ^ d ^ e


def machine_ceiling(threads, rounds=3):
    """Paired median speed-up of an ALU-bound loop on ``threads`` vs 1 thread."""
    out = np.zeros(64, np.uint64)
    _alu_loop(10, out)
    ratios = []
    for _ in range(rounds):
        times = []
        for t in (1, threads):
            numba.set_num_threads(t)
            start = time.perf_counter()
            _alu_loop(2_000_000, out)
            times.append(time.perf_counter() - start)
        ratios.append(times[0] / times[1])
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return float(np.median(ratios))


def panel_redraw(n_games=100_000):
    """A rule change as the notebook panel does it: new Rules, 100,000 games in summary mode, redraw."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from toolkit.viz import plots

    times = []
    for zero in (5, 4, 6):
        rules = toolkit.rules("valhalla", zero_runes_value=zero)
        start = time.perf_counter()
        summary = toolkit.simulate("valhalla", rules, n_games, seed=1, keep="summary", progress=False)
        fig, axes = plt.subplots(1, 2, figsize=(9, 3))
        plots.win_rates_bar(summary.win_rates(), ax=axes[0])
        plots.length_histogram(summary, ax=axes[1])
        fig.canvas.draw()
        plt.close(fig)
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200_000, help="kernel games per measurement")
    parser.add_argument("--reference-games", type=int, default=400)
    args = parser.parse_args(argv)

    rules = toolkit.rules("valhalla")
    policies = ("random", "random")
    toolkit.simulate("valhalla", n_games=100, progress=False)  # load or compile once

    ref_games, ref_plies = reference_rate(rules, policies, args.reference_games)
    top = numba.config.NUMBA_NUM_THREADS
    # This machine's speed drifts by +-15% from one second to the next, so 1 and all threads run
    # in adjacent pairs: rates are the best of 5, the speed-up is the median of the 5 paired ratios.
    one, many, ratios = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), []
    for _ in range(5):
        single = kernel_rate(rules, policies, args.n, threads=1, repeats=1)
        multi = kernel_rate(rules, policies, args.n, threads=top, repeats=1) if top > 1 else single
        ratios.append(multi[0] / single[0])
        one, many = max(one, single), max(many, multi)
    speedup = float(np.median(ratios))
    print("paired speed-ups:", " ".join(f"{r:.2f}" for r in ratios))
    greedy = kernel_rate(rules, ("greedy", "greedy"), max(args.n // 10, 1000), threads=1, repeats=1)

    with tempfile.TemporaryDirectory() as cold_dir:
        cold = first_result(cold_dir)
        warm = first_result(cold_dir)
    redraw = panel_redraw()

    rows = [
        ("reference, 1 thread (random vs random)", f"{ref_games:,.0f}", f"{ref_plies:,.0f}", "1.0x"),
        ("kernel, 1 thread (random vs random)", f"{one[0]:,.0f}", f"{one[1]:,.0f}", f"{one[0] / ref_games:,.0f}x"),
        (f"kernel, {top} threads (random vs random)", f"{many[0]:,.0f}", f"{many[1]:,.0f}",
         f"{many[0] / ref_games:,.0f}x"),
        ("kernel, 1 thread (greedy vs greedy)", f"{greedy[0]:,.0f}", f"{greedy[1]:,.0f}", ""),
    ]
    print(f"Valhalla benchmark  (numba {numba.__version__}, numpy {np.__version__}, {os.cpu_count()} cpus)")
    print(f"{'measurement':<42} {'games/s':>12} {'plies/s':>14} {'vs reference':>13}")
    for name, g, p, r in rows:
        print(f"{name:<42} {g:>12} {p:>14} {r:>13}")
    print(f"{'threads speed-up (' + str(top) + ' vs 1, paired median)':<42} {speedup:>12.2f}x")
    print(f"{'threads speed-up (' + str(top) + ' vs 1, best vs best)':<42} {many[0] / one[0]:>12.2f}x")
    # CPU time per game, summed over threads: equal on 1 and on all threads means the kernel has no
    # parallel overhead, and a speed-up under the thread count comes from slower cores under full load
    if top > 1:
        print(f"{'machine ceiling: ALU loop speed-up (' + str(top) + ' vs 1)':<42} {machine_ceiling(top):>12.2f}x")
    print(f"{'CPU time per game, 1 thread':<42} {one[2]:>11.2f}us")
    print(f"{'CPU time per game, ' + str(top) + ' threads (sum)':<42} {many[2]:>11.2f}us")
    print(f"{'first result after import, cold cache':<42} {cold:>11.2f}s")
    print(f"{'first result after import, warm cache':<42} {warm:>11.2f}s")
    print(f"{'panel rule change: 100,000 games + redraw':<42} {redraw:>11.2f}s")
    checks = [
        ("kernel >= 100x reference (1 thread)", one[0] / ref_games >= 100),
        (">= 100,000 games/s on one core", one[0] >= 100_000),
        (f"{top} threads >= 1.7x one thread", speedup >= 1.7),
        ("first result, warm cache < 3 s", warm < 3),
        ("panel redraw of 100,000 games < 2 s", redraw < 2),
    ]
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
