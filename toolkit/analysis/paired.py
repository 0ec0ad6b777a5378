"""Paired comparison of two rule sets or two policy line-ups on common seeds.

Both variants play games ``0 .. n_games - 1`` of the same seed, so game ``g``
of variant A and game ``g`` of variant B see the same chance stream (the same
throws, the same start-throw sequence).  The per-game differences then have
far less variance than two independent runs would: the standard error of the
difference is reported both ways (``se`` paired, ``se_unpaired``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from toolkit.core.runner import get_spec, resolve_rules, simulate
from toolkit.analysis import verdicts
from toolkit.analysis.headline import headline_pairs, number
from toolkit.core.stats import paired_difference


def paired(game, n_games: int = 10_000, *, seed: int = 0, rules_a=None, rules_b=None, policies_a=None,
           policies_b=None, column: str = "win_0", threads=None, progress=None, until_settled: bool = False,
           tolerance=None, max_games: int | None = None) -> dict:
    """Mean difference of ``column`` between variant A and variant B on common seeds.

    With ``until_settled=True`` the games are played in batches until the difference is shown, or shown
    smaller than ``tolerance`` (default 0.01 for a 0/1 column), or ``max_games`` games (default 1,000,000;
    ``n_games`` is then ignored) are spent (:func:`toolkit.analysis.settle.settle`): ``ci_low``/``ci_high``
    are then the always-valid interval, and ``verdict`` (``"moved"``, ``"within tolerance"``, ``"not
    settled"``), ``settled``, ``looks`` and ``sentence`` say what was shown.

    Examples
    --------
    >>> from toolkit.games.valhalla.rules import Rules
    >>> d = paired("valhalla", 2000, seed=3, rules_b=Rules(zero_runes_value=4), column="turns", progress=False)
    >>> d["games"]
    2000
    >>> s = paired("valhalla", policies_a="greedy,random", policies_b="random", until_settled=True,
    ...            max_games=20_000, progress=False)
    >>> s["verdict"], s["games"]
    ('moved', 2000)
    """
    spec = get_spec(game)
    rules_a = resolve_rules(spec, rules_a)
    rules_b = resolve_rules(spec, rules_b)
    if until_settled:
        return _paired_until_settled(spec, seed, rules_a, rules_b, policies_a, policies_b, column, threads,
                                     progress, tolerance, max_games)
    if tolerance is not None or max_games is not None:
        raise ValueError("tolerance= and max_games= are for until_settled=True: a fixed run plays n_games")
    a = simulate(spec, rules_a, n_games, seed=seed, policies=policies_a, threads=threads, progress=progress)
    b = simulate(spec, rules_b, n_games, seed=seed, policies=policies_b, threads=threads, progress=progress)
    if column not in a.columns:
        raise ValueError(f"column={column!r} is not allowed: one of {', '.join(map(str, a.columns))}")
    out = paired_difference(a[column].to_numpy(), b[column].to_numpy())
    out.update({"column": column, "seed": seed, "rules_a": rules_a.changed(), "rules_b": rules_b.changed(),
                "policies_a": a.attrs["policies"], "policies_b": b.attrs["policies"]})
    return out


def _paired_until_settled(spec, seed, rules_a, rules_b, policies_a, policies_b, column, threads, progress,
                          tolerance, max_games) -> dict:
    from toolkit.analysis.settle import MAX_GAMES, settle

    table = settle(spec, rules_a, rules_b, policies=policies_a, baseline_policies=policies_b, seed=seed,
                   quantities=column, tolerance=tolerance, max_games=MAX_GAMES if max_games is None else max_games,
                   threads=threads, progress=progress)
    row = table.iloc[0]
    return {"games": int(row["games"]), "mean_a": float(row["now"]), "mean_b": float(row["baseline"]),
            "difference": float(row["difference"]), "ci_low": float(row["ci_low"]),
            "ci_high": float(row["ci_high"]), "tolerance": float(row["tolerance"]), "verdict": row["verdict"],
            "settled": table.attrs["settled"], "looks": table.attrs["looks"], "sentence": row["sentence"],
            "column": column, "seed": seed, "rules_a": rules_a.changed(), "rules_b": rules_b.changed(),
            "policies_a": policies_a, "policies_b": policies_b}


# -- a run beside a pinned baseline (the dashboard's before/after) ---------------------------------------


def before_after(baseline: pd.DataFrame, now: pd.DataFrame, comparisons: int = 1) -> pd.DataFrame:
    """The headline quantities of ``now`` beside a ``baseline`` run, as paired differences per game.

    Both are one row per game (:func:`toolkit.simulate`).  On the same seed, game ``g`` of each saw the
    same chance stream, so the per-game differences are paired (their interval is much narrower than
    two independent runs'); on different seeds the runs are independent and the interval is the unpaired
    one.  Only the games both runs played (the first ``min`` of them) are compared, and only the seats
    both have; a seat is named as the game names it (:func:`toolkit.analysis.headline.seat_names`, Halali's "Blue's win rate").  A quantity both runs hold constant (a share of no winner in a game with none) is left out.

    Returns one row per quantity: ``quantity``, ``baseline``, ``now``, ``difference``, ``ci_low``,
    ``ci_high``, ``games``, ``paired``, ``measurable`` (the interval excludes 0), ``together`` (the number of
    quantities) and ``sentence``.  The intervals hold all together at 95% (:func:`toolkit.analysis.verdicts.
    together`, Bonferroni over the quantities): each sentence is a claim of its own, and a difference is
    stated only when its interval excludes zero after the correction for the comparisons made (issue 50).
    ``comparisons``: how many runs are set against the same baseline at once (the dashboard's side by side of
    up to three variants), so the intervals hold together over every quantity of every one of them.

    Examples
    --------
    >>> import toolkit
    >>> a = toolkit.simulate("valhalla", n_games=4000, seed=1, progress=False)
    >>> b = toolkit.simulate("valhalla", {"zero_runes_value": 6}, n_games=4000, seed=1, progress=False)
    >>> table = before_after(a, b)
    >>> list(table["quantity"])[:2]
    ["seat 0's win rate", "seat 1's win rate"]
    """
    games = min(len(baseline), len(now))
    same_seed = baseline.attrs.get("seed") == now.attrs.get("seed") and \
        (baseline["game_index"].to_numpy()[:games] == now["game_index"].to_numpy()[:games]).all()
    found = {label: paired_difference(b, a)
             for label, (a, b) in headline_pairs(baseline.iloc[:games], now.iloc[:games]).items()
             if not (label.startswith("share of") and not (a.any() or b.any()))}
    together = len(found) * max(int(comparisons), 1)
    z = verdicts.together(together)
    rows = []
    for label, f in found.items():
        half = z * (f["se"] if same_seed else f["se_unpaired"])  # independent runs: the unpaired interval
        row = {"quantity": label, "baseline": f["mean_b"], "now": f["mean_a"], "difference": f["difference"],
               "ci_low": f["difference"] - half, "ci_high": f["difference"] + half, "games": games,
               "paired": bool(same_seed)}
        row["measurable"] = bool(verdicts.shown(row["ci_low"], row["ci_high"]))
        row["together"] = together
        row["sentence"] = in_words(row)
        rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs.update({"games": games, "paired": bool(same_seed), "baseline_games": len(baseline),
                        "games_now": len(now), "together": together})
    return table


def in_words(row) -> str:
    """One before/after row as a sentence: what moved, or that nothing measurably did.

    >>> in_words({"quantity": "the first player's win rate", "baseline": 0.593, "now": 0.512,
    ...           "difference": -0.081, "ci_low": -0.087, "ci_high": -0.075, "games": 20000, "measurable": True})
    "your change moved the first player's win rate from 0.593 to 0.512 (−0.081 [−0.087, −0.075])"
    """
    label = row["quantity"]

    def signed(value):
        return number(value, label).replace("-", "−") if value < 0 else "+" + number(value, label)

    interval = f"{signed(row['difference'])} [{signed(row['ci_low'])}, {signed(row['ci_high'])}]"
    if row.get("together", 1) > 1:
        interval += f", {verdicts.level(row['together'])}"
    if row["measurable"]:
        return (f"your change moved {label} from {number(row['baseline'], label)} to "
                f"{number(row['now'], label)} ({interval})")
    return (f"{label}: no measurable change at {row['games']:,} games ({number(row['baseline'], label)} → "
            f"{number(row['now'], label)}, {interval})")
