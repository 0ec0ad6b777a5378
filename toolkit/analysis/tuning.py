"""Rule tuning: ask for a design target, get the rules that reach it, with 95% intervals.

:func:`tune` searches the rule values of ``vary`` for the ones whose design metrics come nearest the
``targets``, with Optuna (its TPE sampler, seeded: the right tool for mixed integer, float and
categorical spaces).  Every trial is a ``keep="summary"`` run of ``n_games`` games on the *same* seed
(common random numbers, so trials differ only by their rules, as a sweep's variants do).  Then the
``finalists`` best distinct candidates are played again on a fresh seed with ``final_games`` games,
and the winner is the nearest there: the search's own noise cannot pick it.  The winner and the base
rules are then played on a third seed (``check_seed``), and that is what is reported and judged: the
finalists' seed chose the winner, so its numbers there would flatter it (a winner's curse).  The base
rules *meet* a number target only when their whole 95% interval lies within the target ± a tolerance
(:meth:`Target.band`: 0.01 for a share, 1% of the value otherwise, or ``tolerances``): an interval that
merely holds the target may be wide, and fewer games would then "meet" it more easily.  A winner at an
end of a range searched is said to be there ("widen it").

The search space
    ``vary`` maps a rule parameter to ``"LOW..HIGH"`` (an integer or float parameter: every value
    between, ends included), to a list of values (any parameter; text is parsed as ``--set`` parses
    it), or to ``None``: the parameter's whole declared domain (a boolean, a choice, an integer or a
    float with both bounds; a subset of fixed choices, each choice in or out).  Everything is
    checked against the declarations before a game is played.
The targets
    ``targets`` maps a metric to a number or to ``"max"`` / ``"min"``; the metrics are those of
    :func:`toolkit.analysis.metrics.outcome_row` (first-player advantage, balance, duration in turns
    or plies, decisiveness, lead changes, drawishness, each seat's win rate ...) and ``skill_gap``
    (``skilled`` against ``unskilled`` over every seating, :func:`toolkit.analysis.metrics.skill_gap`:
    runs of its own).  A trial's *distance* is the weighted sum over the targets of
    ``|metric - target| / scale``: the scale is 1 for a share or a rate (:data:`SHARES`) and the
    target's size otherwise (a duration 10% off counts 0.1), and a ``"max"`` target adds
    ``-metric / scale`` (so the search maximises it).  ``weights`` default to 1.
Parallel trials
    ``batch`` trials are asked of the sampler at a time, played, then told back in order; the
    trials depend only on ``seed`` and ``batch``, never on who played them.  Locally the batch is
    1 (plain sequential TPE); on a Dask cluster (``client=`` or ``scheduler=``) it defaults to
    :data:`DASK_BATCH`, the trials of a batch running on the workers side by side, each on one
    Numba thread (``batch=1`` there gives the local result exactly).

>>> t = tune("valhalla", {"first_player_win_rate": 0.5}, {"zero_runes_value": "1..6"}, trials=6,
...          n_games=2000, final_games=2000, progress=False)
>>> sorted(t.best_values)
['zero_runes_value']
>>> t.set_flags()[0].startswith("--set zero_runes_value=")
True
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from toolkit.analysis import metrics, verdicts
from toolkit.analysis.sweep import run_task
from toolkit.core import cluster, jobs
from toolkit.core import params as P
from toolkit.core.runner import Summary, get_spec, resolve_rules

SHARES = frozenset({"completion", "drawishness", "balance", "seat_balance", "first_player_win_rate",
                    "first_player_advantage", "decisiveness", "skill_gap"})  # and every win_rate_<seat>
DIRECTIONS = ("max", "min")
DASK_BATCH = 8
MOST_TRIALS = 100_000
SKILL_GAP = "skill_gap"
TOLERANCE = 0.01  # a target is met when the base rules' whole 95% interval lies within it ± this share of its scale


# ---------------------------------------------------------------------------- the search space


@dataclasses.dataclass(frozen=True)
class Dimension:
    """One varied rule parameter: ``kind`` ``"int"`` / ``"float"`` (``low``..``high``), ``"choice"``
    (one of ``values``) or ``"subset"`` (each of ``values`` in or out)."""

    name: str
    kind: str
    low: float | None = None
    high: float | None = None
    values: tuple = ()

    def describe(self) -> str:
        if self.kind in ("int", "float"):
            return f"{self.name}={self.low}..{self.high}"
        if self.kind == "subset":
            return f"{self.name}=any subset of {{{', '.join(map(_text, self.values))}}}"
        return f"{self.name}={' | '.join(map(_text, self.values))}"


def _text(value, short: bool = False) -> str:
    """A rule value as ``--set`` writes it (``true``, ``1,2,3``); ``short``: a float to 4 digits."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list, frozenset)):
        return ",".join(map(_text, sorted(value) if isinstance(value, frozenset) else value))
    if short and isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def rule_words(rules_class, name: str, value) -> str:
    """A rule and its value as a designer reads them: its label, then the value in words (a choice's
    declared words, yes or no, a number to 4 digits), ``"Value of a throw with no rune up = 3"``; the
    ``--set`` text stays in :meth:`Tuning.set_flags`."""
    param = P.params_of(rules_class)[name]
    shown = _text(value, short=True) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else param.kind.word(value)
    return f"{param.label} = {shown}"


def space(game, vary: Mapping) -> list[Dimension]:
    """The checked search space of ``vary`` (see the module docstring) for ``game``; a bad entry raises
    ``ValueError`` naming the parameter and what it allows."""
    spec = get_spec(game)
    if not isinstance(vary, Mapping) or not vary:
        raise ValueError(f"vary={vary!r} is not allowed: a dict of parameter name -> 'LOW..HIGH', "
                         "a list of values or None (the whole declared domain)")
    if "num_players" in vary:
        raise ValueError("--vary num_players is not allowed: tune for one player count at a time (--players N)")
    fields = P.params_of(spec.Rules)
    out = []
    for name, given in vary.items():
        if name not in fields:
            raise ValueError(f"--vary {name} is not allowed: {spec.name} has no rule parameter {name!r} "
                             f"(one of {', '.join(fields)})")
        kind = fields[name].kind
        if given is None:
            out.append(_whole(name, kind))
        elif isinstance(given, str) and ".." in given and isinstance(kind, (P.Int, P.Float)):
            out.append(_range(name, kind, given))
        else:
            values = [given] if isinstance(given, str) or not hasattr(given, "__iter__") else list(given)
            if not values:
                raise ValueError(f"--vary {name} is not allowed: at least one value")
            parsed = [kind.parse(name, v) if isinstance(v, str) else kind.check(name, v) for v in values]
            unique = list(dict.fromkeys(parsed))
            out.append(Dimension(name, "choice", values=tuple(unique)))
    return out


def _whole(name, kind) -> Dimension:
    if isinstance(kind, P.Bool):
        return Dimension(name, "choice", values=(False, True))
    if isinstance(kind, P.Choice):
        return Dimension(name, "choice", values=tuple(kind.choices))
    if isinstance(kind, P.ChoiceSet):
        return Dimension(name, "subset", values=tuple(kind.choices))
    if isinstance(kind, (P.Int, P.Float)) and kind.low is not None and kind.high is not None:
        low, high = kind.low, kind.high
        if isinstance(kind, P.Float):  # an open end is stepped inside by a millionth of the range
            step = (high - low) * 1e-6
            low, high = low + step * kind.low_open, high - step * kind.high_open
            return Dimension(name, "float", float(low), float(high))
        return Dimension(name, "int", int(low), int(high))
    raise ValueError(f"--vary {name} is not allowed without values: its declared domain ({kind.allowed()}) is "
                     f"not finite; give LOW..HIGH or a list of values")


def _range(name, kind, text) -> Dimension:
    a, _, b = text.partition("..")
    low, high = kind.parse(name, a.strip()), kind.parse(name, b.strip())  # each within the declared bounds
    if not low < high:
        raise ValueError(f"--vary {name}={text} is not allowed: LOW..HIGH needs LOW < HIGH")
    if isinstance(kind, P.Int):
        return Dimension(name, "int", int(low), int(high))
    return Dimension(name, "float", float(low), float(high))


def parse_vary(texts) -> dict:
    """``["NAME=LOW..HIGH", "NAME=V1,V2", "NAME", ...]`` (the CLI's ``--vary``) -> the ``vary`` of
    :func:`tune`.  A value holding commas (a set or a list) is written with ``;`` between the values."""
    out = {}
    for text in texts:
        name, sep, raw = text.partition("=")
        name = name.strip()
        if not name or (sep and not raw.strip()):
            raise ValueError(f"--vary {text!r} is not allowed: write NAME=LOW..HIGH, NAME=V1,V2,... or NAME")
        if name in out:
            raise ValueError(f"--vary {name} is given twice: give it once")
        if not sep:
            out[name] = None
        elif ".." in raw and "," not in raw and ";" not in raw:
            out[name] = raw.strip()
        else:
            values = [v.strip() for v in raw.split(";" if ";" in raw else ",")]
            if "" in values:
                raise ValueError(f"--vary {text!r} is not allowed: an empty value")
            out[name] = values
    return out


# ---------------------------------------------------------------------------- the targets


@dataclasses.dataclass(frozen=True)
class Target:
    """A metric to bring to ``value`` (a number), or to push up (``"max"``) or down (``"min"``)."""

    metric: str
    value: float | str
    weight: float = 1.0
    tolerance: float | None = None  # how near "meets" is: default TOLERANCE of the scale (band())

    def band(self) -> float:
        """The half-width of the band the base rules' whole interval must lie in to meet the target: the
        target's ``tolerance``, by default :data:`TOLERANCE` of its scale (0.01 for a share or a rate, 1%
        of the value otherwise: a duration of 45 turns is met within 44.55..45.45)."""
        return self.tolerance if self.tolerance is not None else TOLERANCE * self.scale()

    def scale(self) -> float:
        if is_share(self.metric) or isinstance(self.value, str):
            return 1.0
        return abs(self.value) or 1.0

    def distance(self, measured: float) -> float:
        if isinstance(self.value, str):
            return self.weight * (-measured if self.value == "max" else measured) / self.scale()
        return self.weight * abs(measured - self.value) / self.scale()

    def describe(self) -> str:
        value = self.value if isinstance(self.value, str) else f"{self.value:g}"
        return f"{self.metric}={value}" + ("" if self.weight == 1.0 else f":{self.weight:g}")


def is_share(metric: str) -> bool:
    return metric in SHARES or metric.startswith("win_rate_")


def metric_names(game, rules=None) -> list[str]:
    """The metrics a target may name in ``game`` (with ``rules``' player count)."""
    spec = get_spec(game)
    rules = resolve_rules(spec, rules)
    names = [f"win_rate_{seat}" for seat in range(spec.seats(rules))]
    names += [m for m in metrics.DESCRIPTIONS if m != "games" and (spec.first_mover is not None or m not in (
        "balance", "first_player_win_rate", "first_player_advantage"))]
    return names + [SKILL_GAP]


def targets_of(game, targets: Mapping, weights: Mapping | None = None, rules=None,
               tolerances: Mapping | None = None) -> list[Target]:
    """The checked targets: ``{metric: number | "max" | "min"}``, with optional ``weights`` and
    ``tolerances`` (metric -> the half-width of the band that meets it, :meth:`Target.band`)."""
    if not isinstance(targets, Mapping) or not targets:
        raise ValueError(f"targets={targets!r} is not allowed: a dict of metric -> a number, 'max' or 'min'")
    known = metric_names(game, rules)
    weights = dict(weights or {})
    tolerances = dict(tolerances or {})
    out = []
    for metric, value in targets.items():
        if metric not in known:
            raise ValueError(f"--target {metric} is not allowed: a metric of {get_spec(game).name}, one of "
                             f"{', '.join(known)}")
        if isinstance(value, str) and value not in DIRECTIONS:
            value = _number(f"--target {metric}={value}", value)
        elif not isinstance(value, str) and not (isinstance(value, (int, float)) and math.isfinite(value)):
            raise ValueError(f"--target {metric}={value!r} is not allowed: a number, max or min")
        weight = weights.pop(metric, 1.0)
        if not (isinstance(weight, (int, float)) and math.isfinite(weight) and weight > 0):
            raise ValueError(f"--target {metric}: weight {weight!r} is not allowed: a number > 0")
        tolerance = tolerances.pop(metric, None)
        if tolerance is not None and (isinstance(value, str) or isinstance(tolerance, bool) or not isinstance(
                tolerance, (int, float)) or not math.isfinite(tolerance) or tolerance <= 0):
            raise ValueError(f"--tolerance {metric}={tolerance!r} is not allowed: a number > 0, for a target "
                             f"that is a number (not max or min)")
        out.append(Target(metric, value if isinstance(value, str) else float(value), float(weight),
                          None if tolerance is None else float(tolerance)))
    if weights:
        raise ValueError(f"weights for {', '.join(weights)} are not allowed: no such target")
    if tolerances:
        raise ValueError(f"--tolerance {', '.join(tolerances)} is not allowed: no such target")
    return out


def _number(what, text) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what} is not allowed: a number, max or min") from None
    if not math.isfinite(value):
        raise ValueError(f"{what} is not allowed: a finite number")
    return value


def parse_targets(texts) -> tuple[dict, dict]:
    """``["METRIC=VALUE[:WEIGHT]", ...]`` (the CLI's ``--target``) -> ``(targets, weights)``."""
    targets, weights = {}, {}
    for text in texts:
        metric, sep, raw = text.partition("=")
        metric = metric.strip()
        if not sep or not metric or not raw.strip():
            raise ValueError(f"--target {text!r} is not allowed: write METRIC=VALUE, METRIC=max or METRIC=min, "
                             "optionally :WEIGHT after it")
        if metric in targets:
            raise ValueError(f"--target {metric} is given twice: give it once")
        value, _, weight = raw.strip().partition(":")
        targets[metric] = value.strip() if value.strip() in DIRECTIONS else _number(f"--target {text}", value)
        if weight:
            weights[metric] = _number(f"--target {text}: its weight", weight)
    return targets, weights


# ---------------------------------------------------------------------------- one evaluation


def evaluate(game: str, rules_json: dict, policies, seed: int, n_games: int, skill: tuple | None = None,
             threads: int | None = None, task_games: int = 250_000) -> dict:
    """The outcome row (:func:`toolkit.analysis.metrics.outcome_row`) of ``n_games`` games of these rules on
    ``seed``, with ``skill_gap`` (and its bounds) when ``skill`` is ``(skilled, unskilled)``.  A trial: it
    runs on a Dask worker as it runs here."""
    spec = get_spec(game)
    summary = Summary.merged((run_task(spec.name, rules_json, policies, seed, first, min(task_games, n_games - first),
                                       threads) for first in range(0, n_games, task_games)), spec)
    row = metrics.outcome_row(summary)
    if skill is not None:
        gap = metrics.skill_gap(spec, spec.Rules.from_json(rules_json), n_games, seed=seed, skilled=skill[0],
                                unskilled=skill[1], threads=threads, progress=False)
        row.update({SKILL_GAP: gap["skill_gap"], f"{SKILL_GAP}_low": gap["skill_gap_low"],
                    f"{SKILL_GAP}_high": gap["skill_gap_high"]})
    return row


# ---------------------------------------------------------------------------- the tuning


@dataclasses.dataclass
class Tuning:
    """What :func:`tune` found: the winner's rules and metrics beside the base rules', and every trial.

    ``trials``: one row a trial (``trial``, ``state``, ``distance``, the varied values, the targeted
    metrics); ``finalists``: the candidates played again on ``final_seed`` (``distance`` there, the
    targeted metrics with bounds), nearest first; ``best`` / ``base``: the outcome rows of the winner and
    of the base rules on ``final_seed`` (every metric with ``_low`` / ``_high``); ``study``: Optuna's;
    ``verdict`` (:func:`verdict_of`): ``"met"`` (the base rules' 95% interval on the fresh seed already
    holds every target: no change proposed), ``"moved"`` (the winner moves every targeted metric toward its
    target beyond the base rules' interval: intervals apart; proposed) or ``"not moved"`` (no change
    proposed)."""

    game: str
    targets: list
    dimensions: list
    base_rules: object
    best_rules: object
    best_values: dict
    best: dict
    base: dict
    trials: pd.DataFrame
    finalists: pd.DataFrame
    study: object
    settings: dict
    verdict: str = "moved"

    @property
    def proposed(self) -> bool:
        """Whether the tuning proposes its winner (``verdict == "moved"``): the flags of
        :meth:`set_flags` are a change worth making only then."""
        return self.verdict == "moved"

    def table(self) -> pd.DataFrame:
        """The targeted metrics: the target, the base rules' and the tuned rules' values with 95%
        intervals, measured on the fresh seed."""
        rows = []
        for t in self.targets:
            rows.append({"metric": t.metric, "target": t.value,
                         **{f"{who}{suffix}": row.get(f"{t.metric}{suffix}", np.nan)
                            for who, row in (("base", self.base), ("tuned", self.best))
                            for suffix in ("", "_low", "_high")}})
        return pd.DataFrame(rows).set_index("metric")

    def check_until_settled(self, *, max_games: int | None = None, first_batch: int | None = None, threads=None,
                            progress=None, on_look=None) -> pd.DataFrame:
        """The tuning's answer checked as a paired comparison played until settled (issue 50): the tuned
        rules (the nearest finalist, whether proposed or not) against the base rules, on the check seed,
        which chose nothing, both played by the tuning's line-up on common seeds in batches until each
        targeted metric's difference is shown (its always-valid interval excludes zero) or shown smaller
        than the target's band (:meth:`Target.band`), or ``max_games`` games a side are spent
        (:func:`toolkit.analysis.settle.settle`; its table, with a ``sentence`` per metric).  A metric the
        games do not hold game by game (the skill gap, which plays other line-ups) is refused by name."""
        from toolkit.analysis import settle as settling

        kwargs = {k: v for k, v in (("max_games", max_games), ("first_batch", first_batch)) if v is not None}
        return settling.settle(self.game, self.best_rules, self.base_rules, policies=self.settings["policies"],
                               seed=self.settings["check_seed"], quantities=[t.metric for t in self.targets],
                               tolerance={t.metric: t.band() for t in self.targets}, threads=threads,
                               progress=progress, on_look=on_look, **kwargs)

    def answer(self) -> str:
        """What the tuning found, in words, with 95% intervals measured on the fresh seed: the proposed
        values and each target's metric under them and under the base rules; or that the base rules
        already meet the targets, or that no candidate moved the metrics measurably (then nothing is
        proposed).  It ends with the players and the base rules it ran on.  Rules and metrics are named in
        words (:func:`rule_words`, :func:`toolkit.analysis.metrics.label`)."""
        def cell(row, metric):
            value, low, high = (row.get(f"{metric}{s}", np.nan) for s in ("", "_low", "_high"))
            return f"{value:.4g} [{low:.4g}, {high:.4g}]" if np.isfinite(low) else f"{value:.4g}"

        seed = self.settings.get("check_seed", self.settings["final_seed"])
        fresh = f"{self.settings['final_games']:,} fresh games (seed {seed})"
        preset = self.base_rules.preset_name()
        rule = functools.partial(rule_words, type(self.base_rules))
        said = metrics.label
        ran_on = (f"players {self.settings['policies']}, base rules "
                  + (f"the {preset} preset" if preset else "custom (" + "; ".join(
                      rule(k, getattr(self.base_rules, k)) for k in self.base_rules.changed()) + ")"))
        changed = "; ".join(rule(d.name, self.best_values[d.name]) for d in self.dimensions)
        edge = "".join(f" The {'tuned' if self.proposed else 'nearest'} {rule(name, value)} is at the "
                       f"edge of the range searched ({_text(low, short=True)}..{_text(high, short=True)}): widen it."
                       for name, value, low, high in self.edges())
        if self.verdict == "met":
            held = "; ".join(f"{said(t.metric)} {cell(self.base, t.metric)} lies within the target {_text(t.value)} "
                             f"± {t.band():.4g}" for t in self.targets)
            return f"The base rules already meet the target: {held}, on {fresh}; no change proposed ({ran_on})."
        measured = "; ".join(f"{said(t.metric)} {cell(self.best, t.metric)} (target {t.describe().split('=')[1]}), "
                             f"{cell(self.base, t.metric)} under the base rules" for t in self.targets)
        if self.verdict == "not moved":
            tell = [(t, games_to_tell(t, self.base, self.settings["final_games"])) for t in self.targets]
            tell = "".join(f" The base rules' {said(t.metric)} interval holds {_text(t.value)} but is wider than ± "
                           f"{t.band():.4g}, so it does not show them meeting it: at about {n:,} fresh games it would "
                           f"be ± {t.band() / 2:.4g} wide, enough to tell if their value lies within "
                           f"{t.band() / 2:.4g} of it." for t, n in tell if n is not None)
            return (f"No candidate moves the metric measurably toward the target: the nearest, {changed}, gives "
                    f"{measured}, on {fresh}; the intervals are not apart, so no change is proposed "
                    f"({ran_on}).{tell}{edge}")
        return f"{changed}: {measured}, on {fresh} ({ran_on}).{edge}"

    def edges(self) -> list[tuple]:
        """The varied numbers whose winning value is an end of the range searched: ``(name, value, low,
        high)`` (the target may lie beyond it)."""
        out = []
        for d in self.dimensions:
            value = self.best_values.get(d.name)
            if d.kind in ("int", "float") and value is not None and (value <= d.low or value >= d.high):
                out.append((d.name, value, d.low, d.high))
        return out

    def set_flags(self) -> list[str]:
        """``--set NAME=VALUE`` for every varied parameter: the tuned rules from the base ones."""
        fields = P.params_of(type(self.best_rules))
        return [f"--set {d.name}={fields[d.name].kind.format(getattr(self.best_rules, d.name))}"
                for d in self.dimensions]

    def importance(self) -> dict:
        """Each varied parameter's share of the distance's variation over the trials (Optuna's
        ``get_param_importances``, its default evaluator; a single parameter has it all).  It says which
        rule moves the metric most over the ranges searched, not which one reaches the target: in Attila
        a head start of 0..6 VP for later seats swings the first player's edge both ways and takes 0.98,
        while finishing the round, 0.02, is the setting that removes the edge."""
        import optuna

        names = [d.name for d in self.dimensions]
        if len(names) == 1 and self.dimensions[0].kind != "subset":
            return {names[0]: 1.0}
        complete = [t for t in self.study.trials if t.state == optuna.trial.TrialState.COMPLETE]
        if len({tuple(sorted(t.params.items())) for t in complete}) < 2:
            return {}
        raw = optuna.importance.get_param_importances(self.study)
        out = {}
        for key, value in raw.items():  # a subset's choices, folded back into their parameter
            name = key.split("[", 1)[0]
            out[name] = out.get(name, 0.0) + float(value)
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def to_json(self) -> dict:
        """``{"rules": every parameter (JSON form), "metrics": {metric: {value, low, high}},
        "base_metrics": ..., "targets", "vary", "trials", "finalists", "settings"}``."""
        def metric_dict(row):
            names = [k for k in row if not k.endswith(("_low", "_high"))]
            return {k: {"value": _plain(row[k]), "low": _plain(row.get(f"{k}_low")),
                        "high": _plain(row.get(f"{k}_high"))} for k in names}

        return {"game": self.game, "rules": self.best_rules.to_json(), "base_rules": self.base_rules.to_json(),
                "tuned": {k: _plain(v) for k, v in self.best_values.items()},
                "set_flags": self.set_flags() if self.proposed else [],
                "targets": [dataclasses.asdict(t) for t in self.targets],
                "vary": [d.describe() for d in self.dimensions],
                "metrics": metric_dict(self.best), "base_metrics": metric_dict(self.base),
                "trials": json.loads(self.trials.to_json(orient="records")),
                "finalists": json.loads(self.finalists.to_json(orient="records")),
                "importance": self.importance(), "settings": self.settings,
                "verdict": self.verdict, "proposed": self.proposed, "answer": self.answer()}


def _plain(value):
    if value is None:
        return None
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return None if not math.isfinite(value) else float(value)
    if isinstance(value, (frozenset, tuple, list)):
        return [_plain(v) for v in (sorted(value) if isinstance(value, frozenset) else value)]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _suggest(trial, dims) -> dict:
    values = {}
    for d in dims:
        if d.kind == "int":
            values[d.name] = trial.suggest_int(d.name, int(d.low), int(d.high))
        elif d.kind == "float":
            values[d.name] = trial.suggest_float(d.name, d.low, d.high)
        elif d.kind == "choice":
            index = trial.suggest_categorical(d.name, list(range(len(d.values))))
            values[d.name] = d.values[index]
        else:
            values[d.name] = tuple(c for c in d.values if trial.suggest_categorical(f"{d.name}[{c}]", [False, True]))
    return values


def table_step(dim: Dimension) -> float | None:
    """The step a proposed value of the float ``dim`` is rounded to before it is played on the fresh seed:
    a hundredth of the range searched, to the nearest power of ten (0.01 for a probability searched over
    0..1 or 0.3..0.8), so that a proposal reads as a rule (``0.57``, not ``0.5680444250048101``).  It is
    set by the range, not measured from the noise.  ``None`` for other kinds."""
    if dim.kind != "float":
        return None
    return 10.0 ** round(math.log10((dim.high - dim.low) / 100))


def rounded(values: Mapping, dims) -> dict:
    """``values`` with each float dimension's value at its :func:`table_step` (kept inside its range)."""
    out = dict(values)
    for dim in dims:
        step = table_step(dim)
        if step is not None and dim.name in out:
            digits = max(0, -math.floor(math.log10(step)))
            out[dim.name] = min(max(round(round(out[dim.name] / step) * step, digits), dim.low), dim.high)
    return out


def _apart(target, base: Mapping, tuned: Mapping) -> bool:
    """Whether ``tuned`` moves ``target``'s metric toward it beyond ``base``'s 95% interval (the two
    intervals apart, the tuned one nearer the target)."""
    m = target.metric
    if not all(np.isfinite(row.get(f"{m}{s}", np.nan)) for row in (base, tuned) for s in ("", "_low", "_high")):
        return False
    apart = tuned[f"{m}_low"] > base[f"{m}_high"] or tuned[f"{m}_high"] < base[f"{m}_low"]
    return bool(apart and target.distance(tuned[m]) < target.distance(base[m]))


def _holds(target, base: Mapping) -> bool:
    """Whether the base rules meet a number target: their whole 95% interval lies within the target ± its
    band (:meth:`Target.band`), an equivalence shown, not a difference missed; a max / min target is never
    met.  An interval that holds the target but is wider than the band meets nothing: more games would tell
    (:func:`games_to_tell`)."""
    if isinstance(target.value, str):
        return False
    low, high = base.get(f"{target.metric}_low", np.nan), base.get(f"{target.metric}_high", np.nan)
    return verdicts.within(low, high, target.band(), reference=target.value)


def games_to_tell(target, base: Mapping, games: int) -> int | None:
    """About how many games would narrow the base rules' interval to half the target's band, when it holds
    the target but is wider than the band (``None`` otherwise): then, if their value lies within half the
    band of the target, the interval would show it met.  The interval narrows as one over the root of the
    games."""
    if isinstance(target.value, str) or _holds(target, base):
        return None
    low, high = (base.get(f"{target.metric}{s}", np.nan) for s in ("_low", "_high"))
    if not (np.isfinite(low) and low <= target.value <= high):
        return None
    return verdicts.games_to_tell(games, (high - low) / 2, target.band() / 2)


def verdict_of(goal, base: Mapping, tuned: Mapping) -> str:
    """The tuning's verdict over every target of ``goal`` (:class:`Target`), from the 95% intervals of the
    base rules' outcome row ``base`` and the tuned rules' ``tuned`` (each metric with ``_low`` / ``_high``),
    both measured on the fresh seed.

    ``"met"`` when the base interval lies within *every* number target's band (:func:`_holds`: a max / min
    target is never met);
    else ``"moved"`` when the tuned rules move *every* targeted metric toward its target beyond the base
    interval (the two intervals apart); else ``"not moved"``.  One target off is enough to deny either.

    >>> base = {"duration_turns": 230.0, "duration_turns_low": 225.0, "duration_turns_high": 235.0,
    ...         "balance": 0.50, "balance_low": 0.48, "balance_high": 0.52}
    >>> tuned = {**base, "duration_turns": 298.0, "duration_turns_low": 292.0, "duration_turns_high": 304.0}
    >>> verdict_of([Target("balance", 0.5)], base, tuned)  # [0.48, 0.52] is not within 0.5 ± 0.01
    'not moved'
    >>> verdict_of([Target("balance", 0.5, tolerance=0.025)], base, tuned)
    'met'
    >>> verdict_of([Target("balance", 0.5), Target("duration_turns", 300.0)], base, tuned)
    'not moved'
    >>> verdict_of([Target("duration_turns", 300.0)], base, tuned)
    'moved'
    """
    if all(_holds(t, base) for t in goal):
        return "met"
    return "moved" if all(_apart(t, base, tuned) for t in goal) else "not moved"


def tune(game, targets: Mapping, vary: Mapping, trials: int = 40, n_games: int = 20_000, *, seed: int = 0,
         weights: Mapping | None = None, rules=None, preset=None, policies=None, finalists: int = 3,
         final_games: int | None = None, final_seed: int | None = None, check_seed: int | None = None,
         tolerances: Mapping | None = None, skilled: str = "lookahead",
         unskilled: str = "random", batch: int | None = None, client=None, scheduler: str | None = None,
         threads: int | None = None, progress: bool | None = None) -> Tuning:
    """Search ``vary`` for the rules whose metrics come nearest ``targets`` (the module docstring).

    Parameters
    ----------
    game : str or GameSpec
    targets : dict
        Metric -> a number, ``"max"`` or ``"min"`` (:func:`metric_names`); ``weights`` metric -> w > 0.
    vary : dict
        Parameter -> ``"LOW..HIGH"``, a list of values, or None (its whole declared domain).
    trials : int
        Trials of the search, each ``n_games`` games on ``seed``.
    rules, preset, policies
        The base rules (default: the standard preset) and one policy per seat (default random).
    finalists, final_games, final_seed, check_seed
        How many of the best distinct candidates are played again (default 3), with how many games
        (default 2.5 x ``n_games``) and on which seed (default ``seed + 1``); the nearest of them and the
        base rules are then played on another seed (default ``seed + 2``), and that is what is reported
        and judged (the seed that chose the winner would flatter it: a winner's curse).
    tolerances : dict, optional
        Metric -> the half-width of the band the base rules' whole interval must lie in to meet a number
        target (default 0.01 for a share or a rate, 1% of the target otherwise: :meth:`Target.band`).
    skilled, unskilled
        The policies of a ``skill_gap`` target.
    batch, client, scheduler
        Trials asked and told at a time; the Dask cluster (default: local, batch 1).
    threads, progress
        Numba threads locally; a bar over the trials (default: shown if it takes over 2 s).

    Returns
    -------
    Tuning
    """
    import optuna

    spec = get_spec(game)
    base = resolve_rules(spec, rules, preset)
    dims = space(spec, vary)
    goal = targets_of(spec, targets, weights, base, tolerances)
    lineup = spec.check_policies(policies, base)
    for name, value in (("trials", trials), ("n_games", n_games), ("finalists", finalists)):
        _check_count(name, value, MOST_TRIALS if name == "trials" else None)
    final_games = int(round(2.5 * n_games)) if final_games is None else final_games
    _check_count("final_games", final_games)
    final_seed = seed + 1 if final_seed is None else final_seed
    if final_seed == seed:
        raise ValueError(f"final_seed={final_seed} is not allowed: a fresh seed, not the search's {seed}")
    check_seed = final_seed + 1 if check_seed is None else check_seed
    if check_seed in (seed, final_seed):
        raise ValueError(f"check_seed={check_seed} is not allowed: a seed neither the search ({seed}) nor the "
                         f"finalists ({final_seed}) played")
    distributed = client is not None or scheduler is not None
    batch = (DASK_BATCH if distributed else 1) if batch is None else batch
    _check_count("batch", batch)
    skill = (skilled, unskilled) if any(t.metric == SKILL_GAP for t in goal) else None
    if skill is not None:
        for name in skill:
            spec.check_policies((name,) * spec.seats(base), base)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize",
                                sampler=optuna.samplers.TPESampler(seed=seed, constant_liar=batch > 1))
    names = [d.name for d in dims]
    seen: dict[str, dict] = {}  # rules JSON -> outcome row: a candidate asked again is not played again
    values_of, key_of, rows = {}, {}, []
    job = jobs.current()  # watched (the dashboard, the command line's bar): progress in games, no trial bar
    runs = 1 + (spec.seats(base) if skill else 0)  # runs a candidate costs: a skill gap plays one a seat
    bar = _bar(trials + finalists + 2, spec.name, False if job is not None else progress)
    try:
        with cluster.connect(client, scheduler) if distributed else contextlib.nullcontext() as connected, \
                jobs.planned((trials * n_games + (finalists + 2) * final_games) * runs):
            def play(candidates, games, on_seed):
                """The outcome rows of ``candidates`` (rules), in order, played here or on the cluster."""
                tasks = [(spec.name, r.to_json(), lineup, on_seed, games, skill, 1 if distributed else threads)
                         for r in candidates]
                if not distributed:
                    return [evaluate(*task) for task in tasks]
                out = [None] * len(tasks)
                for i, row in cluster.run_tasks(connected, evaluate, tasks, ordered=False):
                    out[i] = row
                    if job is not None:
                        job.advance(games * runs)
                return out

            while len(rows) < trials:
                asked = [study.ask() for _ in range(min(batch, trials - len(rows)))]
                new = {}
                for trial in asked:
                    values = values_of[trial.number] = _suggest(trial, dims)
                    try:
                        candidate = base.replace(**values)
                    except ValueError as error:  # a combination the rules refuse (a constraint between fields)
                        key_of[trial.number] = error
                        continue
                    key = key_of[trial.number] = json.dumps(candidate.to_json(), sort_keys=True)
                    if key not in seen:
                        new[key] = candidate
                seen.update(zip(new, play(list(new.values()), n_games, seed)))
                if job is not None:  # a refused or repeated candidate is not played: its games leave the plan
                    job.unplan((len(asked) - len(new)) * n_games * runs)
                for trial in asked:
                    record = {"trial": trial.number, **{n: _plain(values_of[trial.number][n]) for n in names}}
                    key = key_of[trial.number]
                    if isinstance(key, ValueError):
                        study.tell(trial, state=optuna.trial.TrialState.FAIL)
                        rows.append({**record, "state": "refused", "distance": np.nan, "note": str(key)})
                        continue
                    row = seen[key]
                    missing = [t.metric for t in goal if not np.isfinite(row.get(t.metric, np.nan))]
                    if missing:
                        raise ValueError(f"--target {missing[0]} is not allowed here: {spec.name} does not "
                                         f"measure it with these rules ({_values_text(values_of[trial.number])})")
                    distance = sum(t.distance(row[t.metric]) for t in goal)
                    study.tell(trial, distance)
                    rows.append({**record, "state": "complete", "distance": distance,
                                 "note": "played" if new.pop(key, None) is not None else "repeated",
                                 **{t.metric: row[t.metric] for t in goal}})
                bar.update(len(asked))
            table = pd.DataFrame(rows)
            complete = table[table["state"] == "complete"]
            if complete.empty:
                raise ValueError(f"no trial's rules were allowed: {table['note'].iloc[0]}")
            ranked = complete.sort_values(["distance", "trial"], kind="stable")
            best_trial = {}  # each distinct candidate's nearest trial, nearest first
            for number in ranked["trial"]:
                best_trial.setdefault(key_of[number], int(number))
            # the finalists as they would be proposed: float values at their table step (table_step),
            # distinct after the rounding too
            numbers, final_values, final_rules, final_keys = [], {}, [], set()
            for number in best_trial.values():
                values = rounded(values_of[number], dims)
                try:
                    candidate = base.replace(**values)
                except ValueError:
                    continue
                key = json.dumps(candidate.to_json(), sort_keys=True)
                if key in final_keys:
                    continue
                final_keys.add(key)
                numbers.append(number)
                final_values[number] = values
                final_rules.append(candidate)
                if len(numbers) == finalists:
                    break
            if not numbers:  # every rounded candidate refused by a constraint: the values as searched
                numbers = list(best_trial.values())[:finalists]
                final_values = {t: dict(values_of[t]) for t in numbers}
                final_rules = [base.replace(**values_of[t]) for t in numbers]
            if job is not None:
                job.unplan((finalists - len(final_rules)) * final_games * runs)
            final_rows = play(final_rules, final_games, final_seed)
            # the first of the nearest, in the search's order; it and the base rules on a seed of their own
            winner = int(np.argmin([sum(t.distance(row[t.metric]) for t in goal) for row in final_rows]))
            best, base_row = play([final_rules[winner], base], final_games, check_seed)
            bar.update(finalists + 2)
    finally:
        bar.close()
    final = []
    for number, row in zip(numbers, final_rows):
        final.append({"trial": number, **{n: _plain(final_values[number][n]) for n in names},
                      "distance": sum(t.distance(row[t.metric]) for t in goal),
                      **{f"{t.metric}{s}": row.get(f"{t.metric}{s}", np.nan) for t in goal
                         for s in ("", "_low", "_high")}})
    final_table = pd.DataFrame(final).sort_values(["distance", "trial"], kind="stable").reset_index(drop=True)
    settings = {"trials": trials, "n_games": n_games, "seed": seed, "finalists": finalists,
                "final_games": final_games, "final_seed": final_seed, "check_seed": check_seed, "batch": batch,
                "policies": ",".join(lineup), "skill": list(skill) if skill else None,
                "backend": "dask" if distributed else "local", "sampler": "optuna TPE",
                "rounding": {d.name: table_step(d) for d in dims if table_step(d) is not None}}
    verdict = verdict_of(goal, base_row, best)
    return Tuning(game=spec.name, targets=goal, dimensions=dims, base_rules=base, best_rules=final_rules[winner],
                  best_values=final_values[numbers[winner]], best=best, base=base_row,
                  trials=table, finalists=final_table, study=study, settings=settings, verdict=verdict)


def _check_count(name, value, most=None):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1 \
            or (most is not None and value > most):
        raise ValueError(f"{name}={value!r} is not allowed: an integer in 1..{most if most else 'inf'}")


def _values_text(values) -> str:
    return ", ".join(f"{k}={_plain(v)}" for k, v in values.items())


def _bar(total, name, progress):
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="trial", desc=f"tune {name}", disable=progress is False,
                delay=0 if progress else 2.0, leave=False)


__all__ = ["Dimension", "Target", "Tuning", "evaluate", "metric_names", "parse_targets", "parse_vary", "space",
           "targets_of", "tune", "verdict_of"]
