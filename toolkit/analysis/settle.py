"""Play on until a comparison is settled: batches on common seeds, read after every batch through an
always-valid interval, so that looking after each batch keeps the error rate (issue 50).

A comparison is a baseline and a change, each a rule set and a line-up.  Both play games ``0, 1, 2, ...``
of the same seed, so game ``g`` of each saw the same chance stream (or, for an A/A check of the method,
of two seeds).  After every batch each quantity's difference (change − baseline, game by game) gets its
always-valid interval (:func:`toolkit.core.stats.always_valid_margin`: a confidence sequence, which holds
at every number of games at once), with the error rate shared among the quantities (Bonferroni).  A
quantity is settled when its interval

- excludes zero: the change moved it (verdict ``"moved"``), or
- lies within ± its tolerance: the change moves it by less than that (``"within tolerance"``).

The run stops when every quantity is settled or the budget (``max_games`` games a side) is spent, and
says which.  Reading a fixed-sample 95% interval after every batch in the same way says "moved" far more
often than 5% of the time when nothing changed; ``tests/analysis/test_settle.py`` and
``benchmarks/settle.py`` measure both.

Decided here (the issue left them open):

- Tolerances: 0.01 for a rate (one percentage point); 1% of the baseline's mean at the first look for
  a mean such as the game length (:data:`RATE_TOLERANCE`, :data:`MEAN_TOLERANCE`).
- Batches: the first :data:`FIRST_BATCH` games, then each batch half the games so far (looks at 2,000,
  3,000, 4,500, ... games), the last one cut to the budget.  The interval is narrowest near the
  geometric middle of the first batch and the budget.
- A rate's standard deviation is taken as at least that of one differing game in the games so far, so a
  difference seen as exactly zero (both sides never drew) is settled only as far as that allows.
- A settled quantity keeps the interval and the games of the look that settled it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from toolkit.analysis import verdicts
from toolkit.analysis.headline import headline_pairs, number
from toolkit.core import jobs
from toolkit.core.runner import get_spec, resolve_rules, simulate
from toolkit.core.stats import always_valid_margin

ALPHA = 0.05
FIRST_BATCH = 2_000
MAX_GAMES = 1_000_000
RATE_TOLERANCE = 0.01
MEAN_TOLERANCE = 0.01  # of the baseline's mean

MOVED, WITHIN, OPEN = verdicts.MOVED, verdicts.WITHIN, verdicts.OPEN

_KEYS = {"the first player's win rate": "first_player_win_rate",
         "share of games with no single winner": "no_winner_share",
         "game length (turns)": "duration_turns"}


def _key(label: str, index: int) -> str:
    """The short name of a headline quantity (``win_rate_1``, ``first_player_win_rate``, ...)."""
    if label in _KEYS:
        return _KEYS[label]
    return f"win_rate_{index}"


def quantities_of(baseline: pd.DataFrame, now: pd.DataFrame) -> dict:
    """Every quantity a comparison can settle, game by game: key -> (label, is_rate, baseline's values,
    now's values).  The headline quantities (the keys of :data:`_KEYS` and ``win_rate_<seat>``), then every
    numeric column both frames have, under its own name (``turns``, ``score_0``, ...)."""
    out = {}
    seat = 0
    for label, (a, b) in headline_pairs(baseline, now).items():
        key = _key(label, seat)
        seat += key.startswith("win_rate_")
        out[key] = (label, key != "duration_turns", a, b)
    for column in baseline.columns:
        if column in out or column == "game_index" or column not in now.columns \
                or not pd.api.types.is_numeric_dtype(baseline[column]):
            continue
        a = baseline[column].to_numpy(dtype=float)
        b = now[column].to_numpy(dtype=float)
        out[column] = (column, bool(np.isin(a, (0, 1)).all() and np.isin(b, (0, 1)).all()), a, b)
    return out


@dataclass
class _Running:
    """One quantity's sums over the games so far."""

    label: str
    is_rate: bool
    tolerance: float
    n: int = 0
    sum_a: float = 0.0
    sum_b: float = 0.0
    sum_d: float = 0.0
    sum_d2: float = 0.0

    def add(self, a: np.ndarray, b: np.ndarray) -> None:
        d = b - a
        self.n += d.size
        self.sum_a += float(a.sum())
        self.sum_b += float(b.sum())
        self.sum_d += float(d.sum())
        self.sum_d2 += float((d * d).sum())

    def look(self, alpha: float, t_opt: float, margin_of=always_valid_margin) -> dict:
        n = self.n
        mean = self.sum_d / n
        var = max(self.sum_d2 - n * mean * mean, 0.0) / (n - 1) if n > 1 else math.inf
        if self.is_rate:  # as if at least one game had differed
            var = max(var, (1 - 1 / n) / (n - 1) if n > 1 else math.inf)
        margin = margin_of(n, math.sqrt(var), alpha, t_opt)
        low, high = mean - margin, mean + margin
        verdict = verdicts.verdict(low, high, self.tolerance)
        return {"quantity": self.label, "baseline": self.sum_a / n, "now": self.sum_b / n, "difference": mean,
                "ci_low": low, "ci_high": high, "tolerance": self.tolerance, "verdict": verdict, "games": n}


def settle(game, rules=None, baseline=None, *, policies=None, baseline_policies=None, seed: int = 0,
           baseline_seed: int | None = None, quantities=None, tolerance=None, max_games: int = MAX_GAMES,
           first_batch: int = FIRST_BATCH, alpha: float = ALPHA, threads=None, progress=None,
           on_look=None) -> pd.DataFrame:
    """Play a change and its baseline on common seeds in batches until each quantity is settled.

    Parameters
    ----------
    game : str or GameSpec
    rules, baseline : Rules or dict, optional
        The change's rules and the baseline's (a dict: changes from the standard preset).  The baseline
        defaults to the standard preset with the change's number of players.
    policies, baseline_policies : str or sequence of str, optional
        The line-ups (``"greedy,random"``); the baseline's defaults to the change's.
    seed, baseline_seed : int
        The runs' seeds; the baseline's defaults to ``seed`` (common seeds: paired games).  Two seeds
        make the games independent (an A/A check of the method).
    quantities : str or sequence of str, optional
        What to settle: ``"first_player_win_rate"`` (the default, or ``"win_rate_0"`` in a game without a
        first player), ``"win_rate_<seat>"``, ``"no_winner_share"``, ``"duration_turns"``, any numeric
        column of the games (``"turns"``, ``"score_0"``), or ``"all"`` for every headline quantity.
    tolerance : float or dict, optional
        The largest change that counts as none: a number for every rate (default 0.01), or a dict by
        quantity.  A mean (the game length) defaults to 1% of the baseline's mean at the first look.
    max_games : int
        The budget: games a side at most.
    first_batch : int
        The first look's games a side; each later batch is half the games so far.
    alpha : float
        The error rate of all the verdicts together (0.05: 95%).
    on_look : callable, optional
        Called with the table after every look (the command line prints it).

    Returns
    -------
    pandas.DataFrame
        One row per quantity: ``quantity``, ``key``, ``baseline``, ``now``, ``difference``, ``ci_low``,
        ``ci_high`` (the always-valid interval), ``tolerance``, ``verdict`` (``"moved"``, ``"within
        tolerance"``, ``"not settled"``), ``games`` (a side, at the look that settled it) and
        ``sentence``.  ``attrs``: ``games`` played a side, ``settled``, ``paired``, ``looks`` (games a
        side at each look), ``alpha``, ``max_games``.

    Examples
    --------
    >>> table = settle("valhalla", policies="greedy,random", baseline_policies="random", quantities="win_rate_0",
    ...                max_games=20_000, progress=False)
    >>> table.loc[0, "verdict"], table.attrs["settled"], table.attrs["games"]
    ('moved', True, 2000)
    """
    spec = get_spec(game)
    rules = resolve_rules(spec, rules)
    if baseline is None:
        players = {"num_players": rules.num_players} if hasattr(rules, "num_players") else {}
        baseline = spec.Rules.preset("standard", **players)
    baseline = resolve_rules(spec, baseline)
    baseline_policies = policies if baseline_policies is None else baseline_policies
    baseline_seed = seed if baseline_seed is None else baseline_seed
    _check_int("first_batch", first_batch, 2)
    _check_int("max_games", max_games, first_batch, "at least first_batch")
    _check_tolerance(tolerance)
    check_quantities(spec, rules, quantities, tolerance)  # a bad name is refused before the games
    settler = Settler(quantities, tolerance, alpha=alpha, t_opt=math.sqrt(first_batch * max_games),
                      paired=seed == baseline_seed)
    played = 0
    while played < max_games:
        size = batch_size(played, first_batch, max_games)
        before = simulate(spec, baseline, size, seed=baseline_seed, policies=baseline_policies,
                          first_game=played, threads=threads, progress=progress)
        now = simulate(spec, rules, size, seed=seed, policies=policies, first_game=played, threads=threads,
                       progress=progress)
        played += size
        settler.add(quantities_of(before, now))
        if on_look is not None:
            on_look(settler.table())
        if settler.settled:
            break
    return settler.result(max_games, {"game": spec.name, "seed": seed, "baseline_seed": baseline_seed})


def check_quantities(spec, rules, quantities=None, tolerance=None) -> None:
    """Refuse, before any batch, a quantity the games of ``rules`` do not hold or a tolerance that does not
    fit it (one game of random play, outside any job's count, gives the columns)."""
    with jobs.running(None):
        probe = simulate(spec, rules, 1, seed=0, progress=False)
    _start(quantities_of(probe, probe), quantities, tolerance)


def fixed_sample_margin(n, sd, alpha: float = ALPHA, t_opt: float | None = None) -> float:
    """The fixed-sample interval's half-width (``z * sd / sqrt(n)``): right for one look at a number of games
    chosen beforehand, wrong for looking after every batch (``Settler(margin=fixed_sample_margin)`` shows
    how wrong; ``t_opt`` is ignored)."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - alpha / 2) * sd / math.sqrt(n)


def batch_size(played: int, first_batch: int = FIRST_BATCH, max_games: int = MAX_GAMES) -> int:
    """The next batch's games: the first batch, then half the games so far, cut to the budget."""
    return min(first_batch if played == 0 else max(played // 2, 1), max_games - played)


def looks(first_batch: int = FIRST_BATCH, max_games: int = MAX_GAMES) -> list[int]:
    """The games a side at each look of a run that never settles (:func:`batch_size`'s batches).

    >>> looks(2_000, 10_000)
    [2000, 3000, 4500, 6750, 10000]
    """
    played, out = 0, []
    while played < max_games:
        played += batch_size(played, first_batch, max_games)
        out.append(played)
    return out


class Settler:
    """The looks of one comparison: :meth:`add` a batch's values (:func:`quantities_of`), read the table.

    ``margin(n, sd, alpha, t_opt)`` is the interval's half-width: the always-valid one; the tests and
    ``benchmarks/settle.py`` also pass the fixed-sample one, to show what looking after every batch does
    to it."""

    def __init__(self, quantities=None, tolerance=None, *, alpha: float = ALPHA, t_opt: float = 10_000,
                 paired: bool = True, margin=always_valid_margin):
        if not 0 < alpha < 1:
            raise ValueError(f"alpha={alpha!r} is not allowed: a number between 0 and 1 (0.05: 95%)")
        self.quantities, self.tolerance = quantities, tolerance
        self.alpha, self.t_opt, self.paired, self.margin = alpha, t_opt, paired, margin
        self.running: dict[str, _Running] = {}
        self.done: dict[str, dict] = {}
        self.looks: list[int] = []

    @property
    def settled(self) -> bool:
        return bool(self.running) and len(self.done) == len(self.running)

    def add(self, found: dict) -> None:
        """One batch and its look: ``found`` maps each quantity to ``(label, is_rate, baseline's values, now's
        values)``; :meth:`table` is the table after it."""
        if not self.running:
            self.running = _start(found, self.quantities, self.tolerance)
        for key, run in self.running.items():
            run.add(found[key][2], found[key][3])
        self.looks.append(next(iter(self.running.values())).n)
        each = self.alpha / len(self.running)
        for key, run in self.running.items():
            if key not in self.done:
                row = run.look(each, self.t_opt, self.margin)
                if row["verdict"] != OPEN:
                    self.done[key] = row

    def table(self) -> pd.DataFrame:
        each = self.alpha / len(self.running)
        rows = []
        for key, run in self.running.items():
            row = dict(self.done[key]) if key in self.done else run.look(each, self.t_opt, self.margin)
            row["key"] = key
            row["paired"] = self.paired
            rows.append(row)
        return pd.DataFrame(rows, columns=["quantity", "key", "baseline", "now", "difference", "ci_low", "ci_high",
                                           "tolerance", "verdict", "games", "paired"])

    def result(self, max_games: int, attrs: dict | None = None) -> pd.DataFrame:
        """The last look's table with its sentences and ``attrs`` (see :func:`settle`)."""
        table = self.table()
        table["sentence"] = [in_words(row, max_games, len(self.running)) for row in table.to_dict("records")]
        table.attrs.update({"games": self.looks[-1], "settled": self.settled, "paired": self.paired,
                            "looks": list(self.looks), "alpha": self.alpha, "max_games": max_games,
                            **(attrs or {})})
        return table


def _check_tolerance(tolerance) -> None:
    values = tolerance.values() if isinstance(tolerance, dict) else [] if tolerance is None else [tolerance]
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"tolerance={value!r} is not allowed: a number above 0, in the quantity's unit "
                             f"(0.01: one percentage point of a rate)")


def _check_int(name: str, value, least: int, what: str | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise ValueError(f"{name}={value!r} is not allowed: an integer, {what or f'at least {least:,}'}")


def _start(found: dict, quantities, tolerance) -> dict:
    """The quantities to settle with their tolerances, from the first batch's values."""
    if quantities is None:
        quantities = ["first_player_win_rate" if "first_player_win_rate" in found else "win_rate_0"]
    elif quantities == "all":
        quantities = [key for key, (label, _, a, b) in found.items()
                      if label in _KEYS or key.startswith("win_rate_")]
        quantities = [key for key in quantities
                      if not (key == "no_winner_share" and not (found[key][2].any() or found[key][3].any()))]
    elif isinstance(quantities, str):
        quantities = [quantities]
    known = [key for key in found if key in _KEYS.values() or key.startswith("win_rate_")]
    for key in quantities:
        if key not in found:
            raise ValueError(f"quantities={key!r} is not allowed: one of {', '.join(known)}, 'all', or a numeric "
                             f"column of the games")
    tolerances = tolerance if isinstance(tolerance, dict) else {}
    for key in tolerances:
        if key not in quantities:
            raise ValueError(f"tolerance={{{key!r}: ...}} is not allowed: a tolerance for a quantity settled here "
                             f"({', '.join(quantities)})")
    if tolerance is not None and not isinstance(tolerance, dict) and not any(found[k][1] for k in quantities):
        raise ValueError(f"tolerance={tolerance!r} is not allowed here: a bare number is a rate's tolerance, and "
                         f"none of {', '.join(quantities)} is a rate; give it by name ({quantities[0]}=T)")
    out = {}
    for key in quantities:
        label, is_rate, a, _ = found[key]
        if key in tolerances:
            value = tolerances[key]
        elif is_rate:
            value = RATE_TOLERANCE if tolerance is None or isinstance(tolerance, dict) else tolerance
        else:
            value = MEAN_TOLERANCE * abs(float(a.mean()))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"tolerance={value!r} is not allowed for {key}: a number above 0")
        out[key] = _Running(label, is_rate, float(value))
    return out


def in_words(row: dict, max_games: int, count: int = 1) -> str:
    """One settled (or unsettled) quantity as a sentence, in the quantity's own unit.

    >>> in_words({"quantity": "the first player's win rate", "baseline": 0.593, "now": 0.512,
    ...           "difference": -0.081, "ci_low": -0.09, "ci_high": -0.072, "tolerance": 0.01,
    ...           "verdict": "moved", "games": 3000}, 100_000)
    "the change moved the first player's win rate from 0.593 to 0.512 (−0.081 [−0.090, −0.072]; an always-valid 95% interval), settled after 3,000 games a side"
    """
    label = row["quantity"]

    def signed(value):
        return number(value, label).replace("-", "−") if value < 0 else "+" + number(value, label)

    level = "an always-valid 95% interval" if count == 1 else \
        f"always-valid intervals, 95% for the {count} quantities together"
    interval = f"{signed(row['difference'])} [{signed(row['ci_low'])}, {signed(row['ci_high'])}]; {level}"
    tolerance = number(row["tolerance"], label)
    if row["verdict"] == MOVED:
        return (f"the change moved {label} from {number(row['baseline'], label)} to {number(row['now'], label)} "
                f"({interval}), settled after {row['games']:,} games a side")
    if row["verdict"] == WITHIN:
        return (f"the change moves {label} by less than {tolerance} either way ({interval}), settled after "
                f"{row['games']:,} games a side")
    return (f"not settled after {row['games']:,} games a side (the budget was {max_games:,}): {label} moved by "
            f"between {signed(row['ci_low'])} and {signed(row['ci_high'])}, so neither a change nor one smaller "
            f"than {tolerance} is shown ({interval})")
