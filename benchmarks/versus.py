"""The kernels of this checkout against those of other commits, each compiled into a fresh cache, in one run.

Numba checks a cached function against its own file only, so a benchmark that reuses a developer's cache
can measure code that no longer exists (issue 35: a 2x slowdown of Valhalla's fast path stayed hidden that
way).  Here every version (a commit, exported with ``git archive``, or this working tree) gets a cache
directory of its own, new for this run; each version's kernels are compiled first (the seconds to its
first result are printed), then the versions are measured in turn, ``--rounds`` times, each measurement a
fresh process playing ``-n`` games of each game on one thread with ``--policies`` (default ``random``) in
every seat; the best
round counts (the machine's speed drifts, so the versions are interleaved, never measured one after the
other).  A measurement first plays one game of each game untimed, so that loading the game's modules and its
compiled copy (lazily, since issue 53) is not counted as the kernel's time.

    .venv/bin/python benchmarks/versus.py [GAME ...] [--rev 423c5aa ...] [-n 200000] [--rounds 3] [--policies greedy]

The hand-written C implementation of Valhalla's spec ran 128,700 games/s on the machine of issue 35
(random against random, one thread); the table prints the ratio to that figure for Valhalla.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
C_VALHALLA = 128_700  # games/s of the C implementation, issue 35's machine

MEASURE = """
import json, sys, time
import toolkit
games, n, first, policies = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "first", sys.argv[4]
out = {}
for game in games:
    if not first:  # the game's modules and its compiled copy loaded first: a rate is the kernel's alone
        toolkit.simulate(game, n_games=1, seed=7, threads=1, keep="summary", progress=False, policies=policies)
    start = time.perf_counter()
    toolkit.simulate(game, n_games=n, seed=7, threads=1, keep="summary", progress=False, policies=policies)
    out[game] = (time.perf_counter() - start) if first else n / (time.perf_counter() - start)
print(json.dumps(out))
"""


def export(rev: str, into: Path) -> Path:
    """The package of commit ``rev`` (``git archive``), or of this working tree for ``"."``, copied at the
    start: an edit made while the benchmark runs is not measured."""
    into.mkdir(parents=True)
    if rev == ".":
        shutil.copytree(REPO / "toolkit", into / "toolkit", ignore=shutil.ignore_patterns("__pycache__"))
        return into
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "toolkit"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def run(tree: Path, cache: Path, games, n: int, first: bool, policies: str = "random") -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "TOOLKIT_CACHE_DIR")}
    env.update(PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache), TOOLKIT_CACHE_DIR=str(cache),
               NUMBA_NUM_THREADS=env.get("NUMBA_NUM_THREADS", str(os.cpu_count())))
    done = subprocess.run([sys.executable, "-c", MEASURE, json.dumps(games), str(n), "first" if first else "rate",
                           policies],
                          cwd=tempfile.gettempdir(), env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{tree}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["valhalla", "herrlof", "halali", "attila", "walhalla"])
    parser.add_argument("--rev", action="append", help="a commit to measure beside this working tree "
                        "(repeatable; default 423c5aa, the last commit before the search was compiled in)")
    parser.add_argument("-n", type=int, default=200_000, help="games of each game a measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each version, the best counts")
    parser.add_argument("--policies", default="random",
                        help="the player of every seat (default random; greedy measures the game's own policies)")
    args = parser.parse_args(argv)
    revs = (args.rev or ["423c5aa"]) + ["."]
    work = Path(tempfile.mkdtemp(prefix="toolkit-versus-"))
    try:
        trees = {rev: export(rev, work / f"tree-{i}") for i, rev in enumerate(revs)}
        caches = {rev: work / f"cache-{i}" for i, rev in enumerate(revs)}
        compile_s = {}
        for rev in revs:  # each in a fresh cache: the seconds to the first 1,000 games include the compile
            start = time.perf_counter()
            compile_s[rev] = run(trees[rev], caches[rev], args.games, 1000, True, args.policies)
            print(f"{rev}: compiled in {time.perf_counter() - start:.0f} s", flush=True)
        best = {rev: dict.fromkeys(args.games, 0.0) for rev in revs}
        for _ in range(args.rounds):
            for rev in revs:
                for game, rate in run(trees[rev], caches[rev], args.games, args.n, False, args.policies).items():
                    best[rev][game] = max(best[rev][game], rate)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    here = "this tree"
    print(f"\n{args.policies} in every seat, standard rules, one thread, {args.n:,} games a measurement, best of "
          f"{args.rounds} interleaved rounds, each version in a fresh cache; load average "
          f"{os.getloadavg()[0]:.2f}")
    header = f"{'game':<10}" + "".join(f" {rev + ' g/s':>16} {'first s':>8}" for rev in revs[:-1])
    print(header + f" {here + ' g/s':>16} {'first s':>8}" + "".join(f" {'/' + rev:>10}" for rev in revs[:-1]))
    for game in args.games:
        line = f"{game:<10}"
        for rev in revs:
            line += f" {best[rev][game]:>16,.0f} {compile_s[rev][game]:>8.1f}"
        for rev in revs[:-1]:
            line += f" {best['.'][game] / best[rev][game]:>10.3f}"
        if game == "valhalla":
            line += f"   ({best['.'][game] / C_VALHALLA:.2f}x C's {C_VALHALLA:,})"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
