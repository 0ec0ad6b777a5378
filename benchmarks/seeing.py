"""Seeing a game, timed (issue 38's targets, on a quiet machine with 2 cores and a warm cache):

- a viewer step (the game's ``draw`` of the next decision, rendered to PNG as the widget shows it): at most
  0.3 s (the browser adds the image's transport);
- the search's statistics of ``mcts:1000`` at one decision: at most 0.1 s (Valhalla and Herrlof);
- ``toolkit decisions GAME`` for 1,000 games with ``mcts:200`` judging: at most 2 minutes on 2 cores (the
  2-player games).

    .venv/bin/python benchmarks/seeing.py [GAME ...] [--games N]   (default: every game, 1,000 games)

Each line prints the median (steps, searches) or the one run (decisions) and the load beside it; a figure
over its target is a miss and the script exits 1.  The first call of each kind is left out of the medians
(it loads the kernels and matplotlib's fonts).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import toolkit
from toolkit.analysis.decisions import decisions
from toolkit.core.session import playthrough
from toolkit.viz.viewer import picture

STEP_BUDGET, SEARCH_BUDGET, DECISIONS_BUDGET = 0.3, 0.1, 120.0
SEARCH_GAMES = ("valhalla", "herrlof")  # the search target's games
STEPS = 30  # viewer steps timed a game
SEARCHES = 20  # decisions searched a game


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(toolkit.GAMES))
    parser.add_argument("--games", dest="n_games", type=int, default=1000, help="games of the decision metric")
    args = parser.parse_args(argv)
    misses = []
    print(f"load average at the start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name in args.games:
        spec, rules = toolkit.GAMES[name], toolkit.rules(name)
        start = time.perf_counter()
        game = playthrough(spec, rules, None, 0, 0)  # what viewer() waits for before the first picture
        build_s = time.perf_counter() - start
        steps = [s for s in game.steps][: STEPS + 1]
        times = []
        for step in steps:
            start = time.perf_counter()
            picture(spec, step.position, step.seat if step.seat >= 0 else None)
            times.append(time.perf_counter() - start)
        step_s = statistics.median(times[1:])
        line = (f"{name:9s} a game of {len(game.steps) - 1} decisions recorded in {build_s:.2f} s, viewer step "
                f"{step_s:.3f} s (median of {len(times) - 1})")
        if step_s > STEP_BUDGET:
            misses.append(f"{name} viewer step")
        chosen = [s for s in game.steps if s.seat >= 0 and len(s.options) > 1][: SEARCHES + 1]
        searches = []
        for step in chosen:
            start = time.perf_counter()
            step.root_statistics("mcts:1000")
            searches.append(time.perf_counter() - start)
        search_s = statistics.median(searches[1:])
        line += f", mcts:1000 statistics {search_s:.3f} s (median of {len(searches) - 1})"
        if name in SEARCH_GAMES and search_s > SEARCH_BUDGET:
            misses.append(f"{name} search statistics")
        if spec.seats(rules) == 2:
            start = time.perf_counter()
            decisions(name, n_games=args.n_games, seed=0, judge="mcts:200", progress=False)
            metric_s = time.perf_counter() - start
            line += f", decisions of {args.n_games:,} games {metric_s:.1f} s"
            if metric_s > DECISIONS_BUDGET * args.n_games / 1000:
                misses.append(f"{name} decisions")
        print(line + f"   (load {os.getloadavg()[0]:.2f})", flush=True)
    print("misses: " + (", ".join(misses) if misses else "none"))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
