"""Whether the judge's win probabilities are win probabilities, and how far the cut-off search's scores are
from them (issue 50, point 1).

    .venv/bin/python benchmarks/calibration.py [GAME ...] [--positions N] [--judged N] [--plot FILE.png]

**The judge** (``decisions``, the viewer's "what mcts thinks" and its swings: :data:`toolkit.analysis.
decisions.JUDGE`, rollouts played to the end) is checked by :mod:`toolkit.analysis.calibration` on ``--judged``
positions of every game (default 2,400: ten bins of 240; each bin's interval at 95%, and the ten held
together at 95%, Bonferroni, which the figure draws): binned by one search, predicted by a second on
independent streams, observed by playing the game on after the option on fresh streams, (a) in a world the
deciding seat can see (its determinization, what the search imagines) and (b) in the real game.  The two
differ where seats hold cards the others cannot see: the search deals them uniformly, while the real hands
are what the players kept.

**The cut-off scores** (below) are why the judge plays to the end:

Three games' ``mcts`` players (and, before issue 50, the ``decisions`` judge and the viewer) stop
their rollouts early and score the position with the game's heuristic (``GameSpec.kernel.evaluate``):
Valhalla after 48 plies, then at the searching seat's next turn, as ``0.5 + 0.5·tanh(value / 30)``; Attila
after 16 plies, then at that seat's turn, as ``0.5 + 0.5·tanh(value / 10)``; Halali after 16 plies, as 1, ½
or 0 by who is ahead.  Averaged over a search's iterations these are reported as win probabilities.  This
measures what they are: from ``N`` positions of greedy self-play games (the decision of each game drawn
uniformly, from a seeded stream), the search's own rollout is played (greedy, every seat) to the cut-off,
the deciding seat's value is mapped as the search maps it (the *predicted* win probability), and the same
rollout is then played on to the end (the *observed* result: 1 among the winners, as the game's ``returns``
count a shared win, else 0).  A
calibrated value has, in every bin of predictions, an observed rate within its interval.

Printed per game: the reliability table of the search's mapping (deciles of the predictions, each bin's
mean prediction, observed rate with its Wilson 95% interval, positions), the calibration error (the
positions' weighted mean of ``|predicted - observed|`` over the bins) and the Brier score; then the
logistic map ``P(win) = 1 / (1 + exp(-(a·value + b)))`` fitted by maximum likelihood on half of the
positions, read on the other half, with the same table.  A fitted map on the value alone still misses
bins (richer features would be needed, and a refit for every rule variant a designer makes), which is why
the judge plays its rollouts to the end instead: its leaves are results, whatever the rules.  The rollout
from the drawn decision runs on fresh streams (the game's own, mixed anew): the decision was drawn from the
game its own streams played, so their future is not independent of the draw (before issue 50's fix this
benchmark played on the game's own streams, and its figures were off by that).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from statistics import NormalDist

import numpy as np

from toolkit.analysis import calibration
from toolkit.analysis.decisions import JUDGE
from toolkit.core.protocol import KernelGame
from toolkit.core.runner import get_spec, resolve_rules
from toolkit.core.stats import wilson

# the search's cut-off and its map from the heuristic value to a reward, as each game's kernel sets them
# (MCTS_CUTOFF, MCTS_CUTOFF_AT_TURN, MCTS_REWARD_SCALE; 0: 1 / ½ / 0 by the sign)
GAMES = ("valhalla", "attila", "halali")
JUDGED = ("pig", "valhalla", "herrlof", "halali", "attila", "walhalla")
SEED = 20261206


def search_map(kernel):
    """The kernel search's cut-off and reward map: ``(cutoff, at_turn, map(value) -> [0, 1])``."""
    scale = float(getattr(kernel, "MCTS_REWARD_SCALE", 0.0))
    cutoff = int(kernel.MCTS_CUTOFF)
    at_turn = bool(getattr(kernel, "MCTS_CUTOFF_AT_TURN", False))
    if scale > 0:
        return cutoff, at_turn, lambda v: 0.5 + 0.5 * np.tanh(np.asarray(v, float) / scale)
    return cutoff, at_turn, lambda v: np.where(np.asarray(v) > 0, 1.0, np.where(np.asarray(v) == 0, 0.5, 0.0))


def positions(game: str, n: int):
    """``(value, result)`` for ``n`` positions: the deciding seat's heuristic value at the rollout's cut-off
    and its result when the same rollout is played to the end."""
    spec = get_spec(game)
    rules = resolve_rules(spec, None)
    seats = spec.seats(rules)
    lineup = ("greedy",) * seats
    cutoff, at_turn, _ = search_map(spec.kernel)
    pick = np.random.default_rng(SEED)
    values, results = [], []
    index = 0
    while len(values) < n:
        length = KernelGame(spec.kernel, rules, lineup, SEED, index)
        decisions = 0
        while length.advance() >= 0:
            length.apply(length.options()[length.choose()])
            decisions += 1
        game = KernelGame(spec.kernel, rules, lineup, SEED, index)
        index += 1
        if decisions < 2:
            continue
        target = int(pick.integers(0, decisions))
        for _ in range(target):  # the same game up to the drawn decision
            game.advance()
            game.apply(game.options()[game.choose()])
        for k in range(game.rs.size):  # fresh streams (module docstring)
            game.rs[k] = calibration.rng.mix64_nb(np.uint64(game.rs[k]) ^ calibration.FUTURE)
        seat = game.advance()
        plies, last, mover = 0, -1, seat
        while mover >= 0 and (plies < cutoff or (at_turn and (mover != seat or last == seat))):
            last = mover
            game.apply(game.options()[game.choose()])
            mover = game.advance()
            plies += 1
        if mover < 0:  # the rollout ended before the cut-off: the search reads the result, not a value
            continue
        value = float(game.evaluate(seat))
        while game.advance() >= 0:
            game.apply(game.options()[game.choose()])
        values.append(value)
        results.append(float(game.returns()[seat]))
    return np.array(values), np.array(results)


def reliability(predicted: np.ndarray, observed: np.ndarray, bins: int = 10):
    """Rows ``(mean prediction, observed, low, high, positions)`` over the deciles of the predictions (a bin a
    value where there are no more values than bins), the calibration error and the Brier score."""
    distinct = np.unique(predicted)
    if distinct.size <= bins:  # a few values (Halali's 0, ½, 1): a bin each
        which, count = np.searchsorted(distinct, predicted), distinct.size
    else:
        edges = np.unique(np.quantile(predicted, np.linspace(0, 1, bins + 1)))
        which, count = np.clip(np.searchsorted(edges, predicted, side="right") - 1, 0, len(edges) - 2), len(edges) - 1
    rows = []
    for b in range(count):
        mask = which == b
        if not mask.any():
            continue
        wins = observed[mask].sum()
        rate, low, high = wilson(wins, mask.sum())
        rows.append((float(predicted[mask].mean()), float(rate), float(low), float(high), int(mask.sum())))
    error = sum(abs(p - o) * k for p, o, _, _, k in rows) / len(predicted)
    brier = float(np.mean((predicted - observed) ** 2))
    return rows, error, brier


def fit_logistic(values: np.ndarray, observed: np.ndarray) -> tuple[float, float]:
    """``(a, b)`` of ``P = 1 / (1 + exp(-(a·value + b)))`` by maximum likelihood (a half win counts half)."""
    from scipy.optimize import minimize

    def loss(ab):
        z = ab[0] * values + ab[1]
        return float(np.sum(np.logaddexp(0, z) - observed * z))

    found = minimize(loss, np.array([0.05, 0.0]), method="BFGS")
    return float(found.x[0]), float(found.x[1])


def show(title: str, rows, error: float, brier: float) -> None:
    print(f"  {title}: calibration error {error:.3f}, Brier {brier:.3f}")
    print("    predicted  observed [95%]          positions  inside")
    for p, o, low, high, k in rows:
        print(f"    {p:9.3f}  {o:.3f} [{low:.3f}, {high:.3f}]  {k:9,}  {'yes' if low <= p <= high else 'NO'}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=None, help="games (default: all for the judge, the three that "
                                                                 "cut off for the scores)")
    parser.add_argument("--positions", type=int, default=2000, help="cut-off positions a game (default 2,000)")
    parser.add_argument("--judged", type=int, default=2400, help="positions a game for the judge (default 2,400)")
    parser.add_argument("--bins", type=int, default=10, help="bins of the judge's table (default 10)")
    parser.add_argument("--plot", default=None, metavar="FILE.png", help="draw the reliability diagrams")
    args = parser.parse_args(argv)
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    judged = {}
    for game in args.games or JUDGED:
        for world in (True, False):
            start = time.perf_counter()
            binned, predicted, observed = calibration.positions(game, args.judged, JUDGE, seed=SEED, world=world)
            together = NormalDist().inv_cdf(1 - 0.025 / args.bins)  # the game's bins held together at 95%
            rows = calibration.reliability(binned, predicted, observed, bins=args.bins)
            held = calibration.reliability(binned, predicted, observed, bins=args.bins, z=together)
            where = "in the seat's worlds" if world else "in the real game"
            print(f"\n{game}: the judge {JUDGE}, {len(observed):,} positions, played on {where} "
                  f"({time.perf_counter() - start:.1f} s): predicted {predicted.mean():.3f}, observed "
                  f"{observed.mean():.3f}; bins outside their interval: {sum(not r[5] for r in rows)} of "
                  f"{len(rows)} at 95% each, {sum(not r[5] for r in held)} with the {len(rows)} held together")
            print("    predicted  observed [95%]          [held together]  positions  inside (each, together)")
            for (p, o, low, high, k, inside), (*_, low2, high2, _, inside2) in zip(rows, held):
                print(f"    {p:9.3f}  {o:.3f} [{low:.3f}, {high:.3f}]  [{low2:.3f}, {high2:.3f}]  {k:9,}  "
                      f"{'yes' if inside else 'NO'}, {'yes' if inside2 else 'NO'}")
            judged[game, world] = held
    drawn = {}
    for game in [g for g in (args.games or GAMES) if g in GAMES]:
        start = time.perf_counter()
        kernel = get_spec(game).kernel
        cutoff, at_turn, mapped = search_map(kernel)
        values, observed = positions(game, args.positions)
        print(f"\n{game}: {len(values):,} positions of greedy self-play, rollouts cut off after {cutoff} plies"
              f"{' and at the seat' + chr(39) + 's turn' if at_turn else ''} ({time.perf_counter() - start:.1f} s);"
              f" the seat won {observed.mean():.3f} of them")
        predicted = mapped(values)
        rows, error, brier = reliability(predicted, observed)
        show("the search's map (what it reports as a win probability)", rows, error, brier)
        half = len(values) // 2
        a, b = fit_logistic(values[:half], observed[:half])
        fitted = 1.0 / (1.0 + np.exp(-(a * values[half:] + b)))
        rows_fit, error_fit, brier_fit = reliability(fitted, observed[half:])
        print(f"  fitted on the first half: P = 1 / (1 + exp(-({a:.4f}·value {b:+.4f})))"
              + (f" (the search's map is this with a = {2 / kernel.MCTS_REWARD_SCALE:.4f}, b = 0)"
                 if getattr(kernel, "MCTS_REWARD_SCALE", 0.0) > 0 else ""))
        show("the fitted map, read on the other half", rows_fit, error_fit, brier_fit)
        drawn[game] = (rows, rows_fit)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        games = list(dict.fromkeys(g for g, _ in judged))
        columns = max(len(games), len(drawn))
        figure, axes = plt.subplots(2, columns, figsize=(3.6 * columns, 7.4), squeeze=False)
        for ax, game in zip(axes[0], games):
            for world, label, marker in ((True, "in the seat's worlds", "o"), (False, "in the real game", "s")):
                shown = judged[game, world]
                ax.errorbar([r[0] for r in shown], [r[1] for r in shown], capsize=2, fmt=marker, label=label,
                            yerr=[[r[1] - r[2] for r in shown], [r[3] - r[1] for r in shown]])
            ax.plot([0, 1], [0, 1], "k--", lw=0.8)
            ax.set(title=f"{game}: the judge {JUDGE}", xlabel="predicted win probability", ylabel="observed win rate",
                   xlim=(0, 1), ylim=(0, 1))
            ax.legend(loc="upper left", fontsize=8)
        for ax in axes[0][len(games):]:
            ax.axis("off")
        for ax in axes[1][len(drawn):]:
            ax.axis("off")
        for ax, (game, (rows, rows_fit)) in zip(axes[1], drawn.items()):
            for shown, label, marker in ((rows, "the search's map", "o"), (rows_fit, "fitted (held out)", "s")):
                p = [r[0] for r in shown]
                o = [r[1] for r in shown]
                err = [[r[1] - r[2] for r in shown], [r[3] - r[1] for r in shown]]
                ax.errorbar(p, o, yerr=err, fmt=marker, label=label, capsize=2)
            ax.plot([0, 1], [0, 1], "k--", lw=0.8)
            ax.set(title=f"{game}: cut-off scores", xlabel="score read as a win probability", ylabel="observed win rate", xlim=(0, 1),
                   ylim=(0, 1))
            ax.legend(loc="upper left", fontsize=8)
        figure.tight_layout()
        figure.savefig(args.plot, dpi=100)
        print(f"\nwrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
