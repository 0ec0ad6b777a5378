"""A line-up's time estimated before it plays, against the time it took (issue 52, point 2: within 2x for
every player of every game).

    .venv/bin/python benchmarks/estimate.py [GAME ...]               check the estimates
    .venv/bin/python benchmarks/estimate.py --calibrate [GAME ...]   measure and write toolkit/core/data/costs.json

``--calibrate`` times every player the dashboard offers (``GameSpec.player_choices``) with every seat its own,
under the standard rules, on all cores, for about :data:`CALIBRATE_SECONDS` each, and writes the CPU seconds
a game into the shipped table (``toolkit.core.costs``).

The check, for every game and every player ``p`` of it, two line-ups: ``p`` in every seat, and ``p`` in seat 0
beside the game's default players (what a designer trying one strong seat runs).  For each, as the dashboard
does: the games that fit :data:`TARGET_SECONDS` by the shipped cost (at least two a thread), :func:`toolkit.core.runner.estimate`
(shipped cost and probe), then the run itself, timed on a loaded copy.  It prints the table (estimate,
actual, their ratio) and exits 1 if any ratio is outside [1/2, 2].  Run it on a warm cache (``make warm``),
nothing else on the machine; the load average is printed.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from toolkit.core import costs, warm
from toolkit.core.runner import estimate, get_spec, simulate
from toolkit.games import GAMES

CALIBRATE_SECONDS = 4.0
TARGET_SECONDS = 4.0
WITHIN = 2.0
TABLE = Path(__file__).resolve().parents[1] / "toolkit" / "core" / "data" / "costs.json"


def _loaded(spec, rules, policies, threads) -> None:
    """Load the line-up's compiled copy (or compile it) before anything is timed."""
    if not warm.loaded(spec.play_many, warm.copy_of(spec, spec.prepare(rules, policies)[-1])):
        simulate(spec, rules, 1, policies=policies, threads=threads, keep="summary", progress=False)


def _timed(spec, rules, policies, n_games, threads) -> float:
    start = time.perf_counter()
    simulate(spec, rules, n_games, seed=0, policies=policies, threads=threads, keep="summary", progress=False)
    return time.perf_counter() - start


def calibrate(names, threads: int) -> dict:
    table = json.loads(TABLE.read_text()) if TABLE.exists() else {}
    for name in names:
        spec = get_spec(name)
        rules = spec.Rules()
        found = {}
        for player in spec.player_choices():
            policies = (player,) * spec.seats(rules)
            _loaded(spec, rules, policies, threads)
            games, seconds = threads, _timed(spec, rules, policies, threads, threads)
            while seconds < CALIBRATE_SECONDS / 2:  # longer runs for the table: the first games were a probe
                games = max(threads, int(games * min(CALIBRATE_SECONDS / max(seconds, 1e-6), 100)))
                seconds = _timed(spec, rules, policies, games, threads)
            found[player] = float(f"{seconds * min(threads, games) / games:.3g}")
            print(f"{name:9} {player:20} {games:>8,} games {seconds:6.2f} s  {found[player]:.3g} CPU s a game",
                  flush=True)
        table[name] = found
    TABLE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {TABLE}")
    return table


def check(names, threads: int) -> int:
    misses = 0
    print(f"{'game':9} {'line-up':44} {'games':>8} {'estimate':>9} {'actual':>8} {'ratio':>6}  probe")
    for name in names:
        spec = get_spec(name)
        rules = spec.Rules()
        defaults = spec.default_policies(rules)
        for player in spec.player_choices():
            for policies in dict.fromkeys(((player,) * len(defaults), (player, *defaults[1:]))):
                _loaded(spec, rules, policies, threads)
                # at least two games a thread: one game's length is no line-up's mean
                n_games = max(2 * threads, costs.fitting(costs.per_game(spec, policies), TARGET_SECONDS, threads))
                guess = estimate(spec, rules, policies, n_games, threads=threads)
                actual = _timed(spec, rules, policies, n_games, threads)
                ratio = guess.seconds / actual
                miss = not 1 / WITHIN <= ratio <= WITHIN
                misses += miss
                print(f"{name:9} {','.join(policies):44} {n_games:>8,} {guess.seconds:8.2f}s {actual:7.2f}s "
                      f"{ratio:6.2f}  {guess.probed}{'  MISS' if miss else ''}", flush=True)
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{misses} estimate(s) outside {1 / WITHIN:.1f}x..{WITHIN:.0f}x of the actual time")
    return 1 if misses else 0


def main(argv) -> int:
    calibrating = "--calibrate" in argv
    names = [a for a in argv if a != "--calibrate"] or list(GAMES)
    threads = os.cpu_count() or 1
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {threads} threads")
    if calibrating:
        calibrate(names, threads)
        return 0
    return check(names, threads)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
