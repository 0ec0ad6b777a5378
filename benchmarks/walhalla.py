"""Walhalla benchmark: kernel vs reference, threads, greedy, 3 players, variable preset, lookahead.

Run through ``make bench`` (all games) or ``python benchmarks/walhalla.py``.
Every number in the table is measured in this one run; nothing is carried
over from earlier runs.  Targets:

- kernel >= 100x the pure-Python reference, single thread (random policy in
  all 4 seats, standard rules, games/s; plies/s is printed beside it);
- >= 20,000 random 4-player games/s per core (checked on one thread; the
  per-core rate on all threads is printed beside it);
- first result after a fresh import with a warm cache < 3 s (the toolkit-wide
  target the other benchmarks also check).

What the rates count:

- a *game* is one game of the standard preset (4 players, peninsulas of
  6, 6, 6 tiles) unless the row says otherwise; a *turn* is one dragon drawn
  (W-4), so a game is at most 3 raids x 12 dragons = 36 turns; a *ply* is one
  decision point presented (spec §5, every DP-1..DP-9, even with a single
  option);
- the reference runs games 0, 1, 2, … of the same seed until
  ``--reference-seconds`` have passed (at least 10 s, so its rate is steady);
- ``greedy``, the 3-player and the ``variable`` rows run on one thread; the
  ratio to the reference is given only for the random 4-player rows it was
  measured on;
- *lookahead decision points/s*: ``lookahead:8`` in seat 0 against three
  ``greedy`` seats on one thread, ``--lookahead-games`` games, the time
  divided by seat 0's DP-3 points (the fjord choice, the only decision point
  where lookahead runs rollouts; the others are ``greedy``'s).  The ``plies``
  column counts every seat's decision points, so seat 0's DP-3 points are
  counted exactly from the rows instead: DP-3 is presented on every turn
  (peninsulas of 5..8 tiles always leave a legal fjord, §3.4), raid r starts
  with seat ``(start_player + r) % n`` and turns go clockwise, so seat 0's
  DP-3 points are its turns in each raid (``turns_raid_<r>``), about
  ``turns / 4``.  The run checks this count against the reference played with
  an observer on the first ``--observer-games`` of the same games (the
  reference and the kernel play equal games) and prints how many of those
  points had two or more legal fjords (only those run rollouts).  The wall
  time includes the greedy seats' plies and every shuffle.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numba
import numpy as np

import toolkit
from common import first_result as _first_result, report_checks
from common import kernel_rate as _kernel_rate
from common import reference_rate as _reference_rate

SEED = 7
LOOKAHEAD = "lookahead:8"
LOOKAHEAD_SEATS = (LOOKAHEAD, "greedy", "greedy", "greedy")


def seat_turns(df, players: int, seat: int = 0) -> np.ndarray:
    """Per game, the turns ``seat`` took: its DP-3 points (see the docstring)."""
    start = df["start_player"].to_numpy(np.int64)
    own = np.zeros(len(df), np.int64)
    for r in range(sum(1 for c in df.columns if c.startswith("turns_raid_"))):
        turns = df[f"turns_raid_{r}"].to_numpy(np.int64)
        first = (seat - (start + r)) % players  # the index of the seat's first turn in raid r
        own += np.maximum(0, (turns - first + players - 1) // players)
    return own


def observed_fjord_points(rules, policies, games: int, seat: int = 0):
    """(DP-3 points, of which with >= 2 legal fjords) of ``seat`` per game, from the reference
    played with an observer on games 0..games-1 of ``SEED``."""
    from toolkit.games.walhalla.reference import DP_FJORD, play_game

    points, choices = [], []
    for game_index in range(games):
        count = [0, 0]

        def observer(game, decision, choice, count=count):
            if decision.kind == DP_FJORD and decision.seat == seat:
                count[0] += 1
                count[1] += len(decision.options) >= 2

        play_game(rules, SEED, game_index, policies, observer)
        points.append(count[0])
        choices.append(count[1])
    return np.array(points), np.array(choices)


def lookahead_rate(rules, n_games):
    """Lookahead (seat 0) vs 3 greedy on one thread: (games/s, plies/s, DP-3 points/s, DP-3 points
    per game, seconds, the rows)."""
    start = time.perf_counter()
    df = toolkit.simulate("walhalla", rules, n_games, seed=SEED, policies=LOOKAHEAD_SEATS, threads=1,
                          progress=False)
    seconds = time.perf_counter() - start
    decisions = int(seat_turns(df, rules.num_players).sum())
    return n_games / seconds, df["plies"].sum() / seconds, decisions / seconds, decisions / n_games, seconds, df


def kernel_rate(rules, policies, n_games, threads):
    return _kernel_rate("walhalla", rules, policies, n_games, threads, SEED)


def reference_rate(rules, policies, min_seconds):
    return _reference_rate("walhalla", rules, policies, min_seconds, SEED)


def first_result(cache_dir):
    return _first_result("walhalla", cache_dir)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100_000, help="kernel games per random 4-player measurement")
    parser.add_argument("--reference-seconds", type=float, default=10.0, help="run the reference at least this long")
    parser.add_argument("--lookahead-games", type=int, default=100, help=f"{LOOKAHEAD} vs 3 greedy games")
    parser.add_argument("--observer-games", type=int, default=5,
                        help="reference games (about 1 s each) that check the DP-3 count")
    args = parser.parse_args(argv)

    rules = toolkit.rules("walhalla")
    variable = toolkit.rules("walhalla", preset="variable")
    policies = ("random",) * 4
    for warm in ("random", "greedy", LOOKAHEAD_SEATS):  # load or compile the kernel (rules are values: one compile)
        toolkit.simulate("walhalla", n_games=4, policies=warm, threads=1, progress=False)

    ref = reference_rate(rules, policies, args.reference_seconds)
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
    greedy = kernel_rate(rules, ("greedy",) * 4, max(args.n // 20, 1000), threads=1)
    three = kernel_rate(toolkit.rules("walhalla", num_players=3), ("random",) * 3, max(args.n // 2, 1000), threads=1)
    varied = kernel_rate(variable, policies, max(args.n // 2, 1000), threads=1)
    look = lookahead_rate(rules, args.lookahead_games)
    observed, with_choice = observed_fjord_points(rules, LOOKAHEAD_SEATS, min(args.observer_games,
                                                                             args.lookahead_games))
    counted = seat_turns(look[5].iloc[:len(observed)], rules.num_players)

    with tempfile.TemporaryDirectory() as cold_dir:
        cold = first_result(cold_dir)
        warm = first_result(cold_dir)

    def rate_row(name, r, versus=True):
        return (name, f"{r[0]:,.0f}", f"{r[1]:,.0f}", f"{r[1] / r[0]:,.0f}", f"{r[0] / ref[0]:,.0f}x" if versus else "")

    rows = [
        ("reference, 1 thread (random, 4 players)", f"{ref[0]:,.0f}", f"{ref[1]:,.0f}", f"{ref[1] / ref[0]:,.0f}",
         "1.0x"),
        rate_row("kernel, 1 thread (random, 4 players)", one),
        rate_row(f"kernel, {top} threads (random, 4 players)", many),
        rate_row("kernel, 1 thread (greedy, 4 players)", greedy, versus=False),
        rate_row("kernel, 1 thread (random, 3 players)", three, versus=False),
        rate_row("kernel, 1 thread (random, 4p, variable)", varied, versus=False),
        rate_row(f"kernel, 1 thread ({LOOKAHEAD} + 3 greedy)", look[:2], versus=False),
    ]
    print(f"Walhalla benchmark  (numba {numba.__version__}, numpy {np.__version__}, {os.cpu_count()} cpus, "
          f"standard rules, seed {SEED})")
    print(f"{'measurement':<44} {'games/s':>10} {'plies/s':>12} {'plies/game':>11} {'vs reference':>13}")
    for name, g, p, pg, v in rows:
        print(f"{name:<44} {g:>10} {p:>12} {pg:>11} {v:>13}")
    print(f"{'reference games played':<44} {ref[2]:>10,} in {ref[2] / ref[0]:.1f} s")
    print(f"{'kernel vs reference, plies/s (1 thread)':<44} {one[1] / ref[1]:>10,.0f}x")
    print(f"{'per core on ' + str(top) + ' threads (random, 4 players)':<44} {many[0] / top:>10,.0f} games/s")
    print(f"{'threads speed-up (' + str(top) + ' vs 1, paired median)':<44} {speedup:>10.2f}x")
    print(f"{'threads speed-up (' + str(top) + ' vs 1, best vs best)':<44} {many[0] / one[0]:>10.2f}x")
    print(f"{'CPU time per game, 1 thread':<44} {one[2]:>9.2f}us")
    print(f"{'CPU time per game, ' + str(top) + ' threads (sum)':<44} {many[2]:>9.2f}us")
    print(f"{LOOKAHEAD + ' vs 3 greedy, 1 thread: games':<44} {args.lookahead_games:>10,} in {look[4]:.1f} s")
    print(f"{'  seat 0 DP-3 points per game (its turns)':<44} {look[3]:>10.2f}")
    print(f"{'  lookahead decision points (DP-3)/s':<44} {look[2]:>10,.0f}")
    agree = "equal" if np.array_equal(observed, counted) else f"DIFFERENT: counted {counted.tolist()}"
    print(f"{'  checked by the reference observer':<44} {len(observed):>10} games: {int(observed.sum())} DP-3 "
          f"points, {agree}; {int(with_choice.sum())} with >= 2 fjords")
    print(f"{'first result after import, cold cache':<44} {cold:>9.2f}s")
    print(f"{'first result after import, warm cache':<44} {warm:>9.2f}s")
    checks = [
        ("kernel >= 100x reference (1 thread, games/s)", one[0] / ref[0] >= 100),
        (">= 20,000 random 4-player games/s on one core", one[0] >= 20_000),
        ("first result, warm cache < 3 s", warm < 3),
    ]
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
