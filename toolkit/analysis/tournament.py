"""Tournaments between policies of a 2-seat game, on common random numbers.

:func:`compare` plays every ordered pair ``(a, b)`` of the given policies —
``a`` in seat 0, ``b`` in seat 1, including ``a == b``, which measures the
seat advantage alone — with :func:`toolkit.core.runner.simulate` on the
*same* seed.  Game ``g`` of every pairing therefore sees the same chance
stream (throws, start player), so differences between pairings come from the
policies, not from luck (design decision 2).  Each pairing streams into a
``keep="summary"`` run, so memory stays flat however many games are played.

:func:`matrix` folds the ordered pairs into "A against B": A's wins over both
seatings pooled, so the seat advantage cancels.

Examples
--------
>>> table = compare("valhalla", ["random", "greedy"], n_games=1000, seed=1, progress=False)
>>> len(table)
4
>>> m = matrix(table)
>>> bool(m["win_rate"].loc["greedy", "random"] > 0.5)
True
"""

from __future__ import annotations

import pandas as pd

from toolkit.core import results, stats
from toolkit.core.runner import get_spec, resolve_rules, simulate


def _policy_names(spec, policies) -> list[str]:
    """Distinct names from ``"a,b,c"`` or a sequence, each known to the game, order kept."""
    raw = policies
    if isinstance(policies, str):
        policies = policies.split(",")
    stripped = [p.strip() for p in policies]
    if "" in stripped:
        raise ValueError(f"policies={raw!r} is not allowed: comma-separated names from {', '.join(spec.policies)}")
    names = list(dict.fromkeys(stripped))
    if not names:
        raise ValueError(f"policies={policies!r} is not allowed: at least one of {', '.join(spec.policies)}")
    for name in names:
        spec.check_policy_name(name)
    return names


def compare(game, policies, n_games: int = 10_000, *, seed: int = 0, rules=None, preset=None,
            threads: int | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Play every ordered pair of ``policies`` against each other on the same seed.

    Parameters
    ----------
    game : str or GameSpec
        A 2-seat game (``"valhalla"``).
    policies : str or sequence of str
        Policy names (``"random,greedy,lookahead"``); duplicates are dropped.
    n_games : int
        Games per ordered pair.
    seed : int
        One seed for every pairing (common random numbers).
    rules, preset
        As in :func:`~toolkit.core.runner.simulate` (default: the standard preset).
    threads, progress
        Passed to :func:`~toolkit.core.runner.simulate`.

    Returns
    -------
    DataFrame
        One row per ordered pair: ``seat0_policy``, ``seat1_policy``, ``games``,
        ``wins_0``, ``win_rate_0``, ``ci_low_0``, ``ci_high_0``, the same for
        seat 1, ``no_winner`` (draws and aborted games), ``mean_turns`` and
        ``se_turns``.  ``attrs`` holds the provenance (game, preset, rules,
        rules_version, policies, seed, n_games, toolkit_version).

    Examples
    --------
    >>> t = compare("valhalla", "greedy", n_games=500, seed=3, progress=False)
    >>> t[["seat0_policy", "seat1_policy", "games"]].values.tolist()
    [['greedy', 'greedy', 500]]
    """
    spec = get_spec(game)
    rules = resolve_rules(spec, rules, preset)
    if spec.seats(rules) != 2:
        raise ValueError(f"game={spec.name!r} is not allowed: compare needs a 2-seat game, "
                         f"these rules have {spec.seats(rules)} seats")
    names = _policy_names(spec, policies)
    rows = []
    for a in names:
        for b in names:
            summary = simulate(spec, rules, n_games, seed=seed, policies=(a, b), threads=threads,
                               keep="summary", progress=progress)
            rates = summary.win_rates().set_index("seat")
            length = summary.length("turns")
            row = {"seat0_policy": a, "seat1_policy": b, "games": summary.n_games}
            for seat in (0, 1):
                row[f"wins_{seat}"] = int(rates.loc[seat, "wins"])
                row[f"win_rate_{seat}"] = float(rates.loc[seat, "win_rate"])
                row[f"ci_low_{seat}"] = float(rates.loc[seat, "ci_low"])
                row[f"ci_high_{seat}"] = float(rates.loc[seat, "ci_high"])
            # a shared win counts for both seats, so this is only the games nobody won
            row["no_winner"] = int(summary.histogram("winner").get(-1, 0))
            row["mean_turns"] = float(length["mean"])
            row["se_turns"] = float(length["se"])
            rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs.update(results.provenance(spec, rules, names, seed, n_games))
    return table


def matrix(table: pd.DataFrame) -> pd.DataFrame:
    """A's win rate against B, pooled over both seatings, with a Wilson 95% interval.

    Parameters
    ----------
    table : DataFrame
        The output of :func:`compare` (every ordered pair present).

    Returns
    -------
    DataFrame
        Index: policy A (``policy``); columns: a two-level index
        ``(stat, B)`` with ``stat`` in ``win_rate``, ``ci_low``, ``ci_high``,
        ``wins``, ``games``.  ``m["win_rate"]`` is the square matrix of rates;
        its diagonal is 0.5 when every game has one winner.  The pooled count
        is A's wins in seat 0 against B plus A's wins in seat 1 against B, over
        the games of both pairings, so ``m["win_rate"]`` + its transpose is 1
        when no game is drawn or aborted.  ``attrs`` is the table's.
    """
    names = list(dict.fromkeys(list(table["seat0_policy"]) + list(table["seat1_policy"])))
    by_pair = table.set_index(["seat0_policy", "seat1_policy"])
    wins = pd.DataFrame(0, index=pd.Index(names, name="policy"), columns=names, dtype="int64")
    games = wins.copy()
    for a in names:
        for b in names:
            if (a, b) not in by_pair.index or (b, a) not in by_pair.index:
                raise ValueError(f"table is missing the pairing {a} vs {b}: pass the output of compare()")
            ab, ba = by_pair.loc[(a, b)], by_pair.loc[(b, a)]
            wins.loc[a, b] = int(ab["wins_0"]) + int(ba["wins_1"])
            games.loc[a, b] = int(ab["games"]) + int(ba["games"])
    rate, low, high = stats.wilson(wins.to_numpy(), games.to_numpy())
    frames = {"win_rate": rate, "ci_low": low, "ci_high": high, "wins": wins.to_numpy(), "games": games.to_numpy()}
    out = pd.concat({stat: pd.DataFrame(values, index=wins.index, columns=pd.Index(names, name="opponent"))
                     for stat, values in frames.items()}, axis=1)
    out.columns.names = ["stat", "opponent"]
    out.attrs.update(table.attrs)
    return out
