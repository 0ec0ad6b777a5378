"""Tournaments between policies, on common random numbers.

:func:`compare` plays every ordered pair of the given policies with
:func:`toolkit.core.runner.simulate` on the *same* seed.  Game ``g`` of every
run therefore sees the same chance stream (throws, deals, start player), so
differences between runs come from the policies, not from luck (design
decision 2).  Each run streams into a ``keep="summary"`` run, so memory stays
flat however many games are played.

- **Two seats**: the pair ``(a, b)`` is ``a`` in seat 0 and ``b`` in seat 1,
  including ``a == b``, which measures the seat advantage alone.
- **Three or more seats** (Attila with ``num_players`` 3..5): the pair is a
  *tested* policy ``p`` against a *field* policy ``q``.  ``p`` sits in seat
  0, then seat 1, … (one *seating* each) while every other seat plays ``q``;
  the table gives ``p``'s win rate in each seat and averaged over the seats,
  so the seat advantage cancels.  A fair share is ``1 / seats``.

:func:`matrix` folds the table into "A against B": with two seats A's wins
over both seatings pooled, with more seats the tested policy A's wins over
every seating against a field of B.

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

import re

import pandas as pd

from toolkit.core import costs, jobs, results, stats
from toolkit.core.runner import Summary, get_spec, resolve_rules, simulate

WIN_COLUMN = re.compile(r"win_(\d+)")


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


def outcome_counts(data) -> tuple[int, int]:
    """``(games nobody won, games won by two or more seats)`` of a run.

    Parameters
    ----------
    data : DataFrame or Summary
        One row per game (the ``win_<seat>`` columns are counted), or a
        streaming summary (which histograms ``n_winners`` for a game that
        records it; a game that does not has no shared wins).
    """
    if isinstance(data, Summary):
        if "n_winners" in data.histograms:
            counts = data.histogram("n_winners")
            return int(counts.get(0, 0)), int(counts[counts.index >= 2].sum())
        wins = sum(int(round(data.sums[data.columns.index(c)])) for c in data.shown if WIN_COLUMN.fullmatch(c))
        return data.n_games - wins, 0
    winners = data[[c for c in data.columns if WIN_COLUMN.fullmatch(c)]].sum(axis=1)
    return int((winners == 0).sum()), int((winners >= 2).sum())


def compare(game, policies, n_games: int = 10_000, *, seed: int = 0, rules=None, preset=None,
            threads: int | None = None, progress: bool | None = None, runs: dict | None = None) -> pd.DataFrame:
    """Play every ordered pair of ``policies`` against each other on the same seed.

    Parameters
    ----------
    game : str or GameSpec
        A game (``"valhalla"``; ``"attila"`` has 2..5 seats by ``num_players``).
    policies : str or sequence of str
        Policy names (``"random,greedy,lookahead"``); duplicates are dropped.
    n_games : int
        Games per ordered pair (two seats) or per seating (three or more).
    seed : int
        One seed for every run (common random numbers).
    rules, preset
        As in :func:`~toolkit.core.runner.simulate` (default: the standard preset).
    threads, progress
        Passed to :func:`~toolkit.core.runner.simulate`.
    runs : dict, optional
        Filled with every run played: line-up (a tuple of policy names, one a seat) ->
        :class:`~toolkit.core.runner.Summary` (``keep="summary"``), so that a caller can reuse one
        (:func:`toolkit.analysis.ladder` takes each policy's self-play from here).

    Returns
    -------
    DataFrame
        **Two seats**: one row per ordered pair: ``seat0_policy``,
        ``seat1_policy``, ``games``, ``wins_0``, ``win_rate_0``, ``ci_low_0``,
        ``ci_high_0``, the same for seat 1, ``no_winner`` (draws and aborted
        games), ``shared_wins`` (only for a game where seats can share a win:
        Attila), ``mean_turns`` and ``se_turns``.

        **Three or more seats**: one row per ordered pair (tested, field):
        ``tested_policy``, ``field_policy``, ``seats``, ``games`` (per
        seating); for each seat ``s``, ``wins_s``, ``win_rate_s``,
        ``ci_low_s``, ``ci_high_s`` of the tested policy when it sits in seat
        ``s``; ``wins``, ``win_rate``, ``ci_low``, ``ci_high`` over all
        ``seats * games`` games (the rate is the mean of the per-seat rates;
        the seatings share their seeds, so the interval treats correlated
        games as independent); ``no_winner`` and ``shared_wins`` (games, over
        all seatings; a shared win counts as a win for each tied seat),
        ``mean_turns`` and ``se_turns`` over all seatings.  When the tested
        and the field policy are the same, the seatings are one run.

        ``attrs`` holds the provenance (game, preset, rules, rules_version,
        policies, seed, n_games, toolkit_version).

    Examples
    --------
    >>> t = compare("valhalla", "greedy", n_games=500, seed=3, progress=False)
    >>> t[["seat0_policy", "seat1_policy", "games"]].values.tolist()
    [['greedy', 'greedy', 500]]

    Three players (each policy in each seat in turn against a field of the other):

    >>> t = compare("attila", "random,greedy", n_games=200, seed=3, rules={"num_players": 3}, progress=False)
    >>> t[["tested_policy", "field_policy", "seats"]].values.tolist()
    [['random', 'random', 3], ['random', 'greedy', 3], ['greedy', 'random', 3], ['greedy', 'greedy', 3]]
    """
    spec = get_spec(game)
    rules = resolve_rules(spec, rules, preset)
    seats = spec.seats(rules)
    if seats < 2:
        raise ValueError(f"game={spec.name!r} is not allowed: compare needs at least 2 seats, "
                         f"these rules have {seats}")
    names = _policy_names(spec, policies)
    runs = {} if runs is None else runs
    planned = lineups(names, seats) - set(runs)  # a watched run: all its games at once, each at its cost
    with jobs.planned(n_games * len(planned), sum(costs.per_game(spec, p) for p in planned) * n_games):
        if seats > 2:
            return _compare_field(spec, rules, names, n_games, seats, seed=seed, threads=threads,
                                  progress=progress, runs=runs)
        return _compare_pairs(spec, rules, names, n_games, seed=seed, threads=threads, progress=progress, runs=runs)


def lineups(names, seats: int) -> set:
    """The distinct line-ups :func:`compare` plays: every ordered pair (two seats), or each tested policy
    in each seat with the field policy in every other."""
    if seats == 2:
        return {(a, b) for a in names for b in names}
    return {tuple(t if s == seat else f for s in range(seats)) for t in names for f in names for seat in range(seats)}


def _compare_pairs(spec, rules, names, n_games, *, seed, threads, progress, runs) -> pd.DataFrame:
    """Every ordered pair of ``names`` in two seats; ``runs``: line-up -> Summary."""
    rows = []
    for a in names:
        for b in names:
            if (a, b) not in runs:
                runs[a, b] = simulate(spec, rules, n_games, seed=seed, policies=(a, b), threads=threads,
                                      keep="summary", progress=progress)
            summary = runs[a, b]
            rates = summary.win_rates().set_index("seat")
            length = summary.length("turns")
            row = {"seat0_policy": a, "seat1_policy": b, "games": summary.n_games}
            for seat in (0, 1):
                row[f"wins_{seat}"] = int(rates.loc[seat, "wins"])
                row[f"win_rate_{seat}"] = float(rates.loc[seat, "win_rate"])
                row[f"ci_low_{seat}"] = float(rates.loc[seat, "ci_low"])
                row[f"ci_high_{seat}"] = float(rates.loc[seat, "ci_high"])
            # a shared win counts for both seats, so this is only the games nobody won; a game where
            # seats can share a win (2-player Attila) also counts the shared wins
            row["no_winner"], shared = outcome_counts(summary)
            if spec.shared_wins:
                row["shared_wins"] = shared
            row["mean_turns"] = float(length["mean"])
            row["se_turns"] = float(length["se"])
            rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs.update(results.provenance(spec, rules, names, seed, n_games))
    return table


def _compare_field(spec, rules, names, n_games, seats, *, seed, threads, progress, runs) -> pd.DataFrame:
    """The tested policy in each seat in turn, the field policy in every other (``seats`` > 2); ``runs``:
    line-up -> Summary (when tested == field every seating is the same run)."""
    rows = []
    for tested in names:
        for field in names:
            row = {"tested_policy": tested, "field_policy": field, "seats": seats, "games": n_games}
            wins = no_winner = shared = 0
            turns = turns_sq = 0.0
            for seat in range(seats):
                lineup = tuple(tested if s == seat else field for s in range(seats))
                if lineup not in runs:
                    runs[lineup] = simulate(spec, rules, n_games, seed=seed, policies=lineup, threads=threads,
                                            keep="summary", progress=progress)
                summary = runs[lineup]
                seat_wins = int(round(summary.sums[summary.columns.index(f"win_{seat}")]))
                row[f"wins_{seat}"] = seat_wins
                (row[f"win_rate_{seat}"], row[f"ci_low_{seat}"],
                 row[f"ci_high_{seat}"]) = (float(x) for x in stats.wilson(seat_wins, summary.n_games))
                nobody, several = outcome_counts(summary)
                wins, no_winner, shared = wins + seat_wins, no_winner + nobody, shared + several
                turns += summary.sums[summary.columns.index("turns")]
                turns_sq += summary.sums_sq[summary.columns.index("turns")]
            row["wins"] = wins
            row["win_rate"], row["ci_low"], row["ci_high"] = (float(x) for x in stats.wilson(wins, seats * n_games))
            row["no_winner"], row["shared_wins"] = no_winner, shared
            row["mean_turns"], row["se_turns"] = (float(x) for x in
                                                  stats.mean_se_from_moments(seats * n_games, turns, turns_sq))
            rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs.update(results.provenance(spec, rules, names, seed, n_games))
    return table


def matrix(table: pd.DataFrame) -> pd.DataFrame:
    """A's win rate against B, pooled over the seatings, with a Wilson 95% interval.

    Parameters
    ----------
    table : DataFrame
        The output of :func:`compare` (every ordered pair present).

    Returns
    -------
    DataFrame
        Index: policy A (``policy``); columns: a two-level index
        ``(stat, B)`` with ``stat`` in ``win_rate``, ``ci_low``, ``ci_high``,
        ``wins``, ``games``.  ``m["win_rate"]`` is the square matrix of rates.

        Two seats: the pooled count is A's wins in seat 0 against B plus A's
        wins in seat 1 against B, over the games of both pairings, so
        ``m["win_rate"]`` + its transpose is 1 when no game is drawn or
        aborted, and the diagonal is 0.5 when every game has one winner.

        Three or more seats: A is the tested policy and B the field: A's wins
        over every seating (the table's ``wins`` out of ``seats * games``).
        The diagonal is about ``1 / seats`` (above it by the shared wins).

        ``attrs`` is the table's.
    """
    if "tested_policy" in table.columns:
        names = list(dict.fromkeys(list(table["tested_policy"]) + list(table["field_policy"])))
        by_pair = table.set_index(["tested_policy", "field_policy"])
    else:
        names = list(dict.fromkeys(list(table["seat0_policy"]) + list(table["seat1_policy"])))
        by_pair = table.set_index(["seat0_policy", "seat1_policy"])
    wins = pd.DataFrame(0, index=pd.Index(names, name="policy"), columns=names, dtype="int64")
    games = wins.copy()
    for a in names:
        for b in names:
            if (a, b) not in by_pair.index or (b, a) not in by_pair.index:
                raise ValueError(f"table is missing the pairing {a} vs {b}: pass the output of compare()")
            ab, ba = by_pair.loc[(a, b)], by_pair.loc[(b, a)]
            if "tested_policy" in table.columns:
                wins.loc[a, b] = int(ab["wins"])
                games.loc[a, b] = int(ab["seats"]) * int(ab["games"])
            else:
                wins.loc[a, b] = int(ab["wins_0"]) + int(ba["wins_1"])
                games.loc[a, b] = int(ab["games"]) + int(ba["games"])
    rate, low, high = stats.wilson(wins.to_numpy(), games.to_numpy())
    frames = {"win_rate": rate, "ci_low": low, "ci_high": high, "wins": wins.to_numpy(), "games": games.to_numpy()}
    out = pd.concat({stat: pd.DataFrame(values, index=wins.index, columns=pd.Index(names, name="opponent"))
                     for stat, values in frames.items()}, axis=1)
    out.columns.names = ["stat", "opponent"]
    out.attrs.update(table.attrs)
    return out
