"""Playing on until a comparison is settled, checked by replication (issue 50's targets: "At least 1,000
A/A comparisons (the same rules against themselves, different seeds) with stopping after every batch:
false verdicts at most 5%; on a known A/B difference, fewer games on average to a verdict than the
fixed-size run of the same power").

    .venv/bin/python benchmarks/settle.py [--reps R] [--game GAME] [--max-games M] [--first-batch B]
                                          [--aa-only] [--ab-reps R2] [--change NAME=VALUE[,...]]

(defaults: 1,000 replications of Pig, a budget of 20,000 games a side, a first batch of 2,000, the
toolkit's ``FIRST_BATCH``; the known change is Pig's ``second_player_bonus=2``).  Every seat plays
``random``; the quantity is the default one (the first player's win rate) at the default tolerance (0.01)
and error rate (5%).  What :func:`toolkit.analysis.settle.settle` does is replayed look by look: a
:class:`~toolkit.analysis.settle.Settler` is fed each replication's games at the ``batch_size``
boundaries (looks at 2,000, 3,000, 4,500, ... games a side, the last cut to the budget), and the
replication stops at the first look that settles, as ``settle()`` does.

1. **A/A**: the standard rules against themselves on two seeds.  Counted: false "moved" verdicts (the
   rate, with its Wilson 95% interval; the target is at most 5%), "within tolerance", "not settled", the
   games a side played.  The same games read with the fixed-sample interval (``z·sd/√n``,
   :func:`~toolkit.analysis.settle.fixed_sample_margin`) after every batch show what looking without an
   always-valid interval does; one fixed-sample look at the whole budget should say "moved" about 5% of
   the time.
2. **Known A/B**: the change against the standard rules, on different seeds (unpaired: the games to a
   verdict vary) and on common seeds (paired).  Reported: the power (the share of replications that say
   "moved" in the true direction), the mean and median games a side to a verdict (a replication not
   settled counts the whole budget), any "moved" the wrong way.  Against it, the fixed-size run of the
   same power: from the pooled games the true difference δ and the per-game difference's standard
   deviation σ, and ``n = ((z_0.975 + z_power) σ / δ)²`` games a side; checked by one fixed-sample look at
   the first ``n`` games of every replication.

Replications: the games are prefix-stable (game ``g`` of a run depends only on the seed and ``g``), so
replication ``r`` is the games ``r·M .. (r+1)·M − 1`` of one run per side (played in calls of whole
replications with ``first_game``): the baseline (standard rules) on seed 1, the A/A change (standard
rules) on seed 2, the unpaired A/B change on seed 3 and the paired A/B change on seed 1.  Within a
replication the sides of the A/A and of the unpaired A/B comparison are on different seeds, and two
replications share no game; the A/A and the unpaired A/B comparisons share their baseline's games (their
counts are not independent of each other, each is of itself).  Replication 0 is ``settle()``'s own run
(``first_game=0``): the script runs ``settle()`` on it and prints both results, which must agree.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from statistics import NormalDist

import numpy as np

import toolkit
from common import report_checks
from toolkit.analysis.settle import (ALPHA, FIRST_BATCH, MOVED, OPEN, WITHIN, Settler, batch_size, looks,
                                     fixed_sample_margin, quantities_of, settle)
from toolkit.core.stats import always_valid_margin, wilson
from toolkit.games import GAMES

BASELINE_SEED, AA_SEED, AB_SEED = 1, 2, 3  # the paired A/B change plays on BASELINE_SEED
POLICIES = "random"
CHANGES = {"pig": "second_player_bonus=2"}  # a rule with a known effect on the first player's win rate
CALL_GAMES = 500_000  # games a side per simulate call (whole replications)
Z975 = NormalDist().inv_cdf(1 - ALPHA / 2)


def parse_change(text: str) -> dict:
    """``"name=value,name=value"`` as a rules dict (numbers as numbers)."""
    out = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        for kind in (int, float):
            try:
                value = kind(value)
                break
            except ValueError:
                pass
        out[name.strip()] = value
    return out


class Side:
    """One side's per-game values of the quantity over all replications, played a call at a time."""

    def __init__(self, name: str, rules, seed: int):
        self.name, self.rules, self.seed = name, rules, seed
        self.parts: list[np.ndarray] = []

    def values(self) -> np.ndarray:
        return np.concatenate(self.parts)


def play(game: str, sides: list[Side], reps: int, games: int) -> tuple[str, str, bool]:
    """Play every side's ``reps * games`` games; store each side's values of the settled quantity, taken
    with :func:`quantities_of` against the first side (the baseline).  Returns the quantity's key, label
    and whether it is a rate."""
    per_call = max(1, CALL_GAMES // games)
    key = label = is_rate = None
    for first in range(0, reps, per_call):
        count = min(per_call, reps - first)
        frames = [toolkit.simulate(game, side.rules, n_games=count * games, seed=side.seed, policies=POLICIES,
                                   first_game=first * games, progress=False) for side in sides]
        for i, (side, frame) in enumerate(zip(sides, frames)):
            found = quantities_of(frames[0], frame)
            if key is None:  # the quantity settle() settles by default, as its Settler picks it
                probe = Settler()
                probe.add(found)
                key = next(iter(probe.running))
                label, is_rate = found[key][0], found[key][1]
            if i == 0:
                sides[0].parts.append(found[key][2].astype(float))
            else:
                assert np.array_equal(found[key][2], sides[0].parts[-1])
            if i > 0:
                side.parts.append(found[key][3].astype(float))
    return key, label, is_rate


def run_one(key, label, is_rate, a, b, budget: int, first_batch: int, paired: bool, margin=always_valid_margin,
            one_look: bool = False) -> tuple[str, float, int]:
    """One replication read as ``settle()`` reads it: batches until the first look that settles (or one
    look at ``budget`` games).  Returns the verdict, the difference at that look and the games a side."""
    settler = Settler(alpha=ALPHA, t_opt=math.sqrt(first_batch * budget), paired=paired, margin=margin)
    played = 0
    while played < budget:
        size = budget - played if one_look else batch_size(played, first_batch, budget)
        settler.add({key: (label, is_rate, a[played:played + size], b[played:played + size])})
        played += size
        if settler.settled:
            break
    row = settler.table().iloc[0]
    return row["verdict"], float(row["difference"]), played


def run_all(quantity, a, b, reps, budget, first_batch, paired, margin=always_valid_margin, one_look=False):
    """Every replication: verdicts, differences and games a side (arrays)."""
    verdicts, diffs, games = [], [], []
    stride = len(a) // reps  # replication r: the games r * stride .. (r + 1) * stride - 1 of each side
    assert stride >= budget
    for r in range(reps):
        lo = r * stride
        v, d, g = run_one(*quantity, a[lo:lo + budget], b[lo:lo + budget], budget, first_batch, paired, margin,
                          one_look)
        verdicts.append(v)
        diffs.append(d)
        games.append(g)
    return np.array(verdicts), np.array(diffs), np.array(games)


def rate(count: int, n: int) -> str:
    p, low, high = wilson(count, n)
    return f"{count:5d}/{n} = {p:.4f} [{low:.4f}, {high:.4f}]"


def looks_of(budget: int, first_batch: int) -> list[int]:
    return looks(first_batch, budget)


def by_look(games: np.ndarray, mask: np.ndarray, looks: list[int]) -> str:
    return ", ".join(f"{n:,}: {int(((games == n) & mask).sum())}" for n in looks)


def check_settle(game, quantity, a, b, budget, first_batch) -> None:
    """Replication 0 replayed against ``settle()`` itself (A/A: the same games, batch by batch)."""
    mine = run_one(*quantity, a[:budget], b[:budget], budget, first_batch, paired=False)
    table = settle(game, None, policies=POLICIES, seed=AA_SEED, baseline_seed=BASELINE_SEED, max_games=budget,
                   first_batch=first_batch, progress=False)
    row = table.iloc[0]
    theirs = (row["verdict"], float(row["difference"]), int(table.attrs["games"]))
    same = mine[0] == theirs[0] and mine[2] == theirs[2] and math.isclose(mine[1], theirs[1], abs_tol=1e-12)
    print(f"check: replication 0 of the A/A fed to a Settler: {mine[0]!r}, difference {mine[1]:+.6f}, "
          f"{mine[2]:,} games a side; settle() itself: {theirs[0]!r}, difference {theirs[1]:+.6f}, "
          f"{theirs[2]:,} games a side, looks {table.attrs['looks']}: {'the same' if same else 'DIFFERENT'}")
    if not same:
        raise SystemExit("the replay does not match settle(): the study would not measure settle()")


def aa_study(game, quantity, base, other, reps, budget, first_batch, summary) -> None:
    looks = looks_of(budget, first_batch)
    d = other - base
    print(f"\n== A/A: {game} standard rules against themselves, seeds {BASELINE_SEED} and {AA_SEED}, "
          f"{reps:,} replications, budget {budget:,} games a side, looks at {', '.join(f'{n:,}' for n in looks)} ==")
    print(f"pooled: baseline {base.mean():.4f}, change {other.mean():.4f}, difference {d.mean():+.5f}; "
          f"per-game difference sd {d.std(ddof=1):.4f} (independent sides: "
          f"{math.sqrt(base.var(ddof=1) + other.var(ddof=1)):.4f})")
    sd = float(d.std(ddof=1))
    t_opt = math.sqrt(first_batch * budget)
    width = always_valid_margin(budget, sd, ALPHA, t_opt)
    tolerance = Settler(alpha=ALPHA)
    tolerance.add({quantity[0]: (quantity[1], quantity[2], base[:first_batch], other[:first_batch])})
    tolerance = next(iter(tolerance.running.values())).tolerance
    reach = budget
    while always_valid_margin(reach, sd, ALPHA, t_opt) > tolerance and reach < 10 ** 9:
        reach = math.ceil(reach * 1.01)
    print(f"the always-valid half-width at the budget, at this sd: {width:.4f} (fixed-sample "
          f"{fixed_sample_margin(budget, sd):.4f}); 'within tolerance' needs it below the tolerance "
          f"{tolerance:g}" + (f", which it reaches (tuned as here) at about {reach:,} games a side"
                              if reach > budget else ""))
    rows = []
    for name, margin in (("always-valid, after every batch", always_valid_margin),
                         ("fixed-sample z*sd/sqrt(n), after every batch", fixed_sample_margin)):
        verdicts, _, games = run_all(quantity, base, other, reps, budget, first_batch, False, margin)
        moved, within, still = ((verdicts == v).sum() for v in (MOVED, WITHIN, OPEN))
        print(f"{name}:\n  false 'moved'     {rate(int(moved), reps)}\n"
              f"  'within tolerance' {rate(int(within), reps)}\n  'not settled'     {rate(int(still), reps)}\n"
              f"  games a side: mean {games.mean():,.0f}, median {statistics.median(games):,.0f}\n"
              f"  false 'moved' by look (games a side: count): {by_look(games, verdicts == MOVED, looks)}")
        rows.append((f"A/A {name}", reps, int(moved), int(within), int(still), games.mean(),
                     statistics.median(games)))
    verdicts, _, games = run_all(quantity, base, other, reps, budget, first_batch, False, fixed_sample_margin,
                                 one_look=True)
    moved = int((verdicts == MOVED).sum())
    print(f"one fixed-sample look at {budget:,} games: false 'moved' {rate(moved, reps)}")
    rows.append((f"A/A fixed-sample, one look at {budget:,}", reps, moved, int((verdicts == WITHIN).sum()),
                 int((verdicts == OPEN).sum()), games.mean(), statistics.median(games)))
    summary.extend(rows)


def n_fixed(power: float, sigma: float, delta: float) -> float:
    if power >= 1:
        return math.inf
    return ((Z975 + NormalDist().inv_cdf(power)) * sigma / abs(delta)) ** 2


def ab_study(game, change, quantity, name, base, now, reps, budget, first_batch, paired, summary) -> None:
    looks = looks_of(budget, first_batch)
    d = now - base
    delta, sigma = float(d.mean()), float(d.std(ddof=1))
    sign = np.sign(delta)
    print(f"\n== A/B {name}: {game} {change} against the standard rules, {reps:,} replications, budget "
          f"{budget:,} games a side ==")
    print(f"pooled over {len(d):,} games a side: baseline {base.mean():.4f}, change {now.mean():.4f}, "
          f"delta {delta:+.5f}, per-game difference sd sigma {sigma:.4f}")
    verdicts, diffs, games = run_all(quantity, base, now, reps, budget, first_batch, paired)
    right = (verdicts == MOVED) & (np.sign(diffs) == sign)
    wrong = (verdicts == MOVED) & (np.sign(diffs) != sign)
    within, still = int((verdicts == WITHIN).sum()), int((verdicts == OPEN).sum())
    power, low, high = wilson(int(right.sum()), reps)
    print(f"sequential (always-valid, after every batch):\n"
          f"  'moved' the true way (power) {rate(int(right.sum()), reps)}\n"
          f"  'moved' the wrong way {int(wrong.sum())}, 'within tolerance' {within}, 'not settled' {still}\n"
          f"  games a side to a verdict: mean {games.mean():,.0f}, median {statistics.median(games):,.0f} "
          f"(settled by look: {by_look(games, verdicts != OPEN, looks)}; not settled at {budget:,}: {still})")
    used = power
    note = ""
    if power >= 1:
        used = low
        note = f" (power 1: z infinite; n taken at the Wilson lower bound of the power, {low:.4f})"
    n = n_fixed(used, sigma, delta)
    n_low, n_high = n_fixed(low, sigma, delta), n_fixed(high, sigma, delta)
    games_n = math.ceil(n)
    print(f"fixed-size run of the same power: n = ((z_0.975 + z_power) sigma / delta)^2 = {n:,.0f} games a side"
          f"{note}; over the power's 95% interval {n_low:,.0f} .. {n_high:,.0f}")
    check = ""
    if games_n <= budget:
        fv, fd, _ = run_all(quantity, base, now, reps, games_n, first_batch, paired, fixed_sample_margin,
                            one_look=True)
        hit = int(((fv == MOVED) & (np.sign(fd) == sign)).sum())
        check = f"{hit / reps:.3f}"
        print(f"  check: one fixed-sample 95% look at the first {games_n:,} games says 'moved' the true way in "
              f"{rate(hit, reps)} (the power above: {power:.4f})")
    else:
        print(f"  check not run: {games_n:,} games exceed the budget of {budget:,}")
    ratio = games.mean() / n
    verdict = "fewer" if ratio < 1 else "MORE"
    print(f"  sequential mean {games.mean():,.0f} against fixed {n:,.0f} games a side: ratio {ratio:.3f} "
          f"(the sequential procedure needs {verdict} games on average)")
    summary.append((f"A/B {name} sequential", reps, int(right.sum()), within, still, games.mean(),
                    statistics.median(games)))
    summary.append((f"A/B {name} fixed-size, same power", reps, check, "", "", n, n))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000, help="replications (default 1,000)")
    parser.add_argument("--game", default="pig", help="the game (default pig)")
    parser.add_argument("--max-games", type=int, default=20_000, help="the budget, games a side (default 20,000)")
    parser.add_argument("--first-batch", type=int, default=FIRST_BATCH,
                        help=f"the first look's games a side (default {FIRST_BATCH:,})")
    parser.add_argument("--aa-only", action="store_true", help="the A/A study only")
    parser.add_argument("--ab-reps", type=int, default=None, help="replications of the A/B study (default --reps)")
    parser.add_argument("--change", default=None,
                        help="the A/B change, NAME=VALUE[,...] (default for pig: second_player_bonus=2)")
    args = parser.parse_args(argv)
    if args.game not in GAMES:
        parser.error(f"game {args.game!r} is not registered: one of {', '.join(GAMES)}")
    if not 2 <= args.first_batch <= args.max_games:
        parser.error("--first-batch must be at least 2 and at most --max-games")
    change_text = args.change or CHANGES.get(args.game)
    if not args.aa_only and change_text is None:
        parser.error(f"no known change for {args.game}: give --change NAME=VALUE or --aa-only")
    ab_reps = min(args.ab_reps or args.reps, args.reps)
    start = time.perf_counter()
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    toolkit.simulate(args.game, n_games=10, policies=POLICIES, progress=False)  # compile before timing
    warm = time.perf_counter()
    sides = [Side("baseline", None, BASELINE_SEED), Side("A/A change", None, AA_SEED)]
    change = None
    if not args.aa_only:
        change = parse_change(change_text)
        sides += [Side("A/B change, unpaired", change, AB_SEED), Side("A/B change, paired", change, BASELINE_SEED)]
    quantity = play(args.game, sides, args.reps, args.max_games)
    values = [side.values() for side in sides]
    played = time.perf_counter()
    total = len(sides) * args.reps * args.max_games
    print(f"{args.game}, {POLICIES} seats; quantity {quantity[1]!r} ({quantity[0]}); {total:,} games played in "
          f"{played - warm:.1f} s ({total / (played - warm):,.0f} games/s; compile/warm-up {warm - start:.1f} s)")
    check_settle(args.game, quantity, values[0], values[1], args.max_games, args.first_batch)
    summary = []
    aa_study(args.game, quantity, values[0], values[1], args.reps, args.max_games, args.first_batch, summary)
    if not args.aa_only:
        n = ab_reps * args.max_games
        for name, b, paired in (("unpaired (seeds 1 and 3)", values[2], False),
                                ("paired (common seed 1)", values[3], True)):
            ab_study(args.game, change_text, quantity, name, values[0][:n], b[:n], ab_reps, args.max_games,
                     args.first_batch, paired, summary)
    print(f"\n== summary: {args.game}, budget {args.max_games:,}, first batch {args.first_batch:,}, "
          f"alpha {ALPHA}, tolerance default ==")
    print(f"{'study':52s} {'reps':>5s} {'moved':>7s} {'within':>7s} {'open':>6s} {'mean games':>11s} {'median':>8s}")
    for name, reps, moved, within, still, mean, median in summary:
        moved_text = moved if isinstance(moved, str) else f"{moved / reps:.3f}"
        within_text = within if isinstance(within, str) else f"{within / reps:.3f}"
        still_text = still if isinstance(still, str) else f"{still / reps:.3f}"
        print(f"{name:52s} {reps:5d} {moved_text:>7s} {within_text:>7s} {still_text:>6s} {mean:11,.0f} "
              f"{median:8,.0f}")
    print("(moved: the share of replications saying 'moved' -- false in the A/A, the true way in the A/B; for "
          "the fixed-size row, the share of its check; mean/median: games a side to a verdict, or n)")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"wall time {time.perf_counter() - start:.1f} s")
    rows = {row[0]: row for row in summary}
    aa = rows["A/A always-valid, after every batch"]
    checks = [(f"A/A false 'moved' at most 5% ({aa[2]}/{aa[1]})", aa[2] <= 0.05 * aa[1])]
    if not args.aa_only:
        sequential = rows["A/B unpaired (seeds 1 and 3) sequential"]
        fixed = rows["A/B unpaired (seeds 1 and 3) fixed-size, same power"]
        checks.append((f"A/B unpaired: fewer games on average than the fixed-size run of the same power "
                       f"({sequential[5]:,.0f} against {fixed[5]:,.0f})", sequential[5] < fixed[5]))
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
