"""Where compile time goes: for each game, the first result from a cold cache and from a warm one, and the
compiled functions that cost most.

For each game (default: every registered game), in a fresh cache directory:

1. a fresh process plays 1,000 games with ``random`` in every seat (the random copy of the driver), then
   100 games with a ``greedy`` seat (the plain copy: the game's policies), then 10 games with an
   ``mcts:100`` seat (the searching copy), then 10 with a ``lookahead:1`` seat (the whole copy, in a game
   that leaves its lookahead out of the others): the seconds to each first result, cold;
2. a second fresh process does the same on the now warm cache;
3. a third fresh process, on a cache of its own, plays 100 games with the game's default players
   (``GameSpec.default_policies``: what the report and the dashboard play first; ``toolkit.simulate`` plays
   ``random`` unless told, the first column): the first result they wait for, cold, whatever copy those
   players need.

The cold process listens to Numba's compile events (``numba.core.event``): each compiled function's own
seconds (its compile less the compiles of the functions it called, which Numba compiles inside it), the
part of them spent in LLVM (optimising and emitting the module, which links the code of every function it
calls), and the seconds of Numba's passes summed by pass.  ``--top`` functions are listed per game.

    .venv/bin/python benchmarks/compile.py [GAME ...] [--top 8] [--jobs 1] [--rev COMMIT ...] [--save F.json]

``--rev`` measures the package of another commit instead of this working tree (exported with ``git
archive``, as ``benchmarks/versus.py`` does; ``.`` is the working tree, copied at the start, so an edit
made meanwhile is not measured).  Given more than once, every version is measured in the same run, each
game's versions back to back (a before and an after under the same load).

One game at a time by default (``--jobs 2`` compiles two games at once, one a core, as ``toolkit warm``
does).  The machine's load is printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))

from versus import export  # noqa: E402

PROBE = r"""
import collections, json, sys, time
from numba.core import event

game = sys.argv[1]
own, llvm, passes, stack, llvm_depth = collections.Counter(), collections.Counter(), collections.Counter(), [], []


class Compiles(event.Listener):
    def on_start(self, e):
        f = e.data["dispatcher"].py_func
        stack.append([f"{f.__module__}.{f.__qualname__}", time.perf_counter(), 0.0])

    def on_end(self, e):
        name, start, inner = stack.pop()
        took = time.perf_counter() - start
        own[name] += took - inner
        if stack:
            stack[-1][2] += took


class Llvm(event.Listener):
    def on_start(self, e):
        llvm_depth.append(time.perf_counter())

    def on_end(self, e):
        took = time.perf_counter() - llvm_depth.pop()
        if not llvm_depth:
            llvm[stack[-1][0] if stack else "(outside a compile)"] += took


class Passes(event.Listener):
    def on_start(self, e):
        self.start = getattr(self, "start", []) + [time.perf_counter()]

    def on_end(self, e):
        took = time.perf_counter() - self.start.pop()
        if not self.start:  # outermost pass only: nested compiles run passes inside a typing pass
            passes[e.data["name"]] += took


if sys.argv[2] == "default":
    t0 = time.perf_counter()
    import toolkit
    imported = time.perf_counter()
    spec = toolkit.GAMES[game]
    toolkit.simulate(game, n_games=100, seed=1, progress=False, policies=spec.default_policies(spec.Rules()))
    print(json.dumps({"import": imported - t0, "default": time.perf_counter() - imported}))
    sys.exit()
if sys.argv[2] == "listen":
    event.register("numba:compile", Compiles())
    event.register("numba:llvm_lock", Llvm())
    event.register("numba:run_pass", Passes())
t0 = time.perf_counter()
import toolkit
spec = toolkit.GAMES[game]
seats = spec.seats(toolkit.rules(game))
imported = time.perf_counter()
toolkit.simulate(game, n_games=1000, seed=1, progress=False)
random = time.perf_counter()
toolkit.simulate(game, n_games=100, seed=1, progress=False, policies=("greedy",) + ("random",) * (seats - 1))
plain = time.perf_counter()
toolkit.simulate(game, n_games=10, seed=1, progress=False, policies=("mcts:100",) + ("random",) * (seats - 1))
search = time.perf_counter()
try:  # one sample where the game's lookahead takes a count
    look = spec.check_policy_name("lookahead:1") or "lookahead:1"
except ValueError:
    look = "lookahead"
toolkit.simulate(game, n_games=10, seed=1, progress=False, policies=(look,) + ("random",) * (seats - 1))
look = time.perf_counter()
print(json.dumps({"import": imported - t0, "random": random - imported, "plain": plain - random,
                  "search": search - plain, "lookahead": look - search, "own": own, "llvm": llvm, "passes": passes}))
"""


def probe(game: str, tree: Path, cache: Path, mode: str) -> dict:
    """One fresh process on ``cache``: ``mode`` listen (cold, with compile events), quiet or default."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "TOOLKIT_CACHE_DIR")}
    env.update(PYTHONPATH=str(tree), TOOLKIT_CACHE_DIR=str(cache), NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", PROBE, game, mode], env=env,
                          cwd=tempfile.gettempdir(), capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{game}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(game: str, tree: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"toolkit-compile-{game}-") as cache:
        load = os.getloadavg()[0]
        cold = probe(game, tree, Path(cache), "listen")
        warm = probe(game, tree, Path(cache), "quiet")
    with tempfile.TemporaryDirectory(prefix=f"toolkit-compile-{game}-default-") as cache:
        default = probe(game, tree, Path(cache), "default")
    return {"game": game, "cold": cold, "warm": warm, "default": default, "load": load}


def short(name: str) -> str:
    return name.replace("toolkit.games.", "").replace("toolkit.core.", "core.")


def main(argv=None) -> int:
    import toolkit

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--top", type=int, default=8, help="functions listed per game")
    parser.add_argument("--jobs", type=int, default=1, help="games compiled at once")
    parser.add_argument("--rev", action="append", help="a commit to measure, more than once for several "
                        "(default: this working tree, '.')")
    parser.add_argument("--save", help="write every figure as JSON")
    args = parser.parse_args(argv)
    games = args.games or list(toolkit.GAMES)
    for game in games:
        if game not in toolkit.GAMES:
            parser.error(f"game {game!r} is not registered: one of {', '.join(toolkit.GAMES)}")
    revs = args.rev or ["."]
    with tempfile.TemporaryDirectory(prefix="toolkit-compile-tree-") as work:
        trees = {rev: export(rev, Path(work) / f"tree{i}") for i, rev in enumerate(revs)}
        jobs = [(game, rev) for game in games for rev in revs]
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda job: dict(measure(job[0], trees[job[1]]), rev=job[1]), jobs))
    print(f"seconds to each first result in a fresh process: cold default = 100 games with the game's "
          f"default players (the report's) on a new cache of their own; then, in another process, 1,000 random games, then 100 "
          f"with a greedy seat, then 10 with an mcts:100 seat, then 10 with a lookahead:1 seat, cold (a new "
          f"cache) and warm; {args.jobs} game(s) "
          f"at a time, {os.cpu_count()} cores, load = the 1-minute load average when the game started")
    print(f"{'game':<10} {'version':<10} {'cold default':>12} {'cold random':>11} {'+ greedy':>9} {'+ mcts':>7} "
          f"{'+ look':>7} {'warm random':>12} {'+ greedy':>9} {'+ mcts':>7} {'llvm s':>7} {'load':>5}")
    for r in results:
        cold, warm = r["cold"], r["warm"]
        # a commit before the random copy (issue 35) has no "random" stage: its first result is "plain"
        row = [cold.get("random", 0.0), cold["plain"], cold["search"], warm.get("random", 0.0), warm["plain"],
               warm["search"]]
        default = r.get("default", {}).get("default", float("nan"))
        print(f"{r['game']:<10} {r['rev'][:10]:<10} {default:>12.1f} {row[0]:>11.1f} {row[1]:>9.1f} {row[2]:>7.1f} "
              f"{cold.get('lookahead', float('nan')):>7.1f} {row[3]:>12.1f} {row[4]:>9.1f} {row[5]:>7.1f} "
              f"{sum(cold['llvm'].values()):>7.1f} {r['load']:>5.2f}")
    for r in results:
        cold = r["cold"]
        print(f"\n{r['game']} ({r['rev']}): the compiled functions that cost most (own seconds, of them in LLVM)")
        for name, seconds in sorted(cold["own"].items(), key=lambda kv: -kv[1])[:args.top]:
            print(f"  {seconds:6.1f} {cold['llvm'].get(name, 0.0):6.1f}  {short(name)}")
        top = sorted(cold["passes"].items(), key=lambda kv: -kv[1])[:4]
        print("  by pass: " + ", ".join(f"{name} {seconds:.1f}" for name, seconds in top))
    if args.save:
        Path(args.save).write_text(json.dumps(results, indent=1))
        print(f"wrote {args.save}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
