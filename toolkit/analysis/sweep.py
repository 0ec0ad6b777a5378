"""Rule sweeps: a grid of rule variants, each simulated in summary mode, in one tidy table.

:func:`sweep` takes ``vary={"name": [v1, v2, ...], ...}`` and plays the
Cartesian product of the values on top of a base rule set.  Every variant
plays games ``0 .. n_games - 1`` of the *same* seed, so neighbouring
variants face the same chance streams and their differences are paired.

Work is cut into tasks of at most ``task_games`` games (``first_game``
offsets of one run), each a ``keep="summary"`` run whose totals travel as
plain arrays (:meth:`Summary.to_state`).  The tasks of a variant are merged
in task order, so the result is the same whoever ran them:

- ``backend="local"``: the tasks run one after another in this process,
  each on all Numba threads;
- ``backend="dask"``: the tasks are submitted to a ``distributed`` cluster
  (``client=`` a ``distributed.Client``, or ``scheduler=`` its address) and
  each runs on one Numba thread of a worker, a few tasks per worker thread
  in flight at a time (:func:`toolkit.core.cluster.run_tasks`).  A worker compiles nothing it
  finds in the compiled kernels' cache (``TOOLKIT_CACHE_DIR`` or ``NUMBA_CACHE_DIR``, its root:
  ``toolkit.core.cache``), so start workers with the same cache root and warm them (:func:`warm_workers`).

A progress bar counts finished variants.  The table has one row per
variant: the varied parameters as columns, then ``games`` and the design
metrics of :func:`toolkit.analysis.metrics.metrics_row` (win rates per seat,
balance, completion, drawishness, durations, branching factor, lead changes,
decisiveness) with ``_low`` / ``_high`` 95% bounds.

Examples
--------
>>> t = sweep("valhalla", {"zero_runes_value": [4, 5]}, n_games=2000, seed=1, progress=False)
>>> t["zero_runes_value"].tolist()
[4, 5]
>>> bool(t["completion"].eq(1.0).all())
True
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from toolkit.core import cluster, costs, jobs
from toolkit.core.params import params_of
from toolkit.core.runner import Summary, get_spec, resolve_rules, run_part
from toolkit.analysis.metrics import outcome_row

DEFAULT_TASK_GAMES = 250_000
BACKENDS = ("local", "dask")


def grid(spec, base, vary) -> list[tuple[dict, object]]:
    """``[(values, rules), ...]`` for the Cartesian product of ``vary`` on ``base``.

    A value may be given as text (``"4"``, ``"a,b,c"``) and is parsed as on
    the command line; every variant is validated before anything runs.
    """
    if not isinstance(vary, dict) or not vary:
        raise ValueError(f"vary={vary!r} is not allowed: a dict of parameter name -> list of values")
    fields = params_of(spec.Rules)
    parsed = {}
    for name, values in vary.items():
        if name not in fields:
            raise ValueError(f"unknown parameter {name!r} for {spec.name}: one of {', '.join(fields)}")
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise ValueError(f"vary[{name!r}]={values!r} is not allowed: a list of values")
        values = list(values)
        if not values:
            raise ValueError(f"vary[{name!r}] is not allowed: at least one value")
        parsed[name] = [fields[name].kind.parse(name, v) if isinstance(v, str) else v for v in values]
    out = []
    for combo in itertools.product(*parsed.values()):
        values = dict(zip(parsed, combo))
        out.append((values, base.replace(**values)))
    return out


def _tasks(n_games: int, task_games: int) -> list[tuple[int, int]]:
    """``(first_game, games)`` pieces of one run."""
    return [(start, min(task_games, n_games - start)) for start in range(0, n_games, task_games)]


def run_task(game: str, rules_json: dict, policies, seed: int, first_game: int, n_games: int,
             threads: int | None = None) -> dict:
    """One piece of one variant: a summary run, returned as plain arrays (runs on a Dask worker)."""
    return run_part(game, rules_json, policies, seed, first_game, n_games, "summary", threads=threads)


def warm_workers(client, game, rules=None, policies=None) -> None:
    """Run a tiny game on every worker of ``client`` so the kernels are loaded before timing."""
    spec = get_spec(game)
    rules = resolve_rules(spec, rules)
    rules_json = rules.to_json()
    policies = spec.check_policies(policies, rules)
    client.run(run_task, spec.name, rules_json, policies, 0, 0, 10, 1)


def sweep(game, vary: dict, n_games: int = 10_000, *, seed: int = 0, rules=None, preset=None, policies=None,
          backend: str = "local", client=None, scheduler: str | None = None, threads: int | None = None,
          task_games: int | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Simulate every combination of ``vary`` and return one row of metrics per variant.

    Parameters
    ----------
    game : str or GameSpec
    vary : dict
        Parameter name -> list of values (text is parsed as with ``--set``).
    n_games : int
        Games per variant (>= 1).
    seed : int
        One seed for every variant (common random numbers).
    rules, preset
        The base rules (default: the standard preset).
    policies : str or sequence
        One policy per seat (default: ``random`` in every seat); a variant
        that changes the number of players needs a single name.
    backend : {"local", "dask"}
    client, scheduler
        For ``backend="dask"``: a ``distributed.Client`` or a scheduler address.
    threads : int, optional
        Numba threads for the local backend (Dask tasks use one each).
    task_games : int, optional
        Games per task (default 250,000).  The summaries' totals add exactly
        in any order, so neither the backend nor ``task_games`` changes the
        table.
    progress : bool, optional
        A bar over the variants (default: shown if the sweep takes over 2 s).

    Returns
    -------
    DataFrame
        One row per variant: the varied parameters, ``games``, the design
        metrics (``metrics_row``) and ``win_rate_<seat>`` with bounds.
        ``attrs``: game, base rules, policies, seed, n_games, vary, backend.
    """
    spec = get_spec(game)
    base = resolve_rules(spec, rules, preset)
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r} is not allowed: one of {', '.join(BACKENDS)}")
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"n_games={n_games!r} is not allowed: an integer >= 1")
    task_games = DEFAULT_TASK_GAMES if task_games is None else task_games
    if isinstance(task_games, bool) or not isinstance(task_games, (int, np.integer)) or task_games < 1:
        raise ValueError(f"task_games={task_games!r} is not allowed: an integer >= 1")
    variants = grid(spec, base, vary)
    lineups = [spec.check_policies(policies, r) for _, r in variants]  # every variant checked before any runs
    pieces = _tasks(int(n_games), int(task_games))
    bar = _bar(len(variants), spec.name, progress)
    try:
        if backend == "local":
            states = []
            # a watched sweep: every variant's games in one count from the start, each at its cost
            with jobs.planned(len(variants) * int(n_games),
                              sum(costs.per_game(spec, lineup) for lineup in lineups) * int(n_games)):
                for (_, r), lineup in zip(variants, lineups):
                    states.append([run_task(spec.name, r.to_json(), lineup, seed, first, k, threads)
                                   for first, k in pieces])
                    bar.update(1)
        else:
            states = _run_dask(spec, variants, lineups, pieces, seed, client, scheduler, bar)
    finally:
        bar.close()
    rows = []
    for (values, r), parts in zip(variants, states):
        rows.append({**values, **outcome_row(Summary.merged(parts, spec))})
    table = pd.DataFrame(rows)
    table.attrs.update({"game": spec.name, "rules": base.to_json(), "policies": ",".join(lineups[0]),
                        "seed": int(seed), "n_games": int(n_games),
                        "vary": {k: [str(v) for v in vs] for k, vs in vary.items()}, "backend": backend})
    return table


def _bar(total, name, progress):
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="variant", desc=f"sweep {name}", disable=progress is False,
                delay=0 if progress else 2.0, leave=False)


def _run_dask(spec, variants, lineups, pieces, seed, client, scheduler, bar):
    tasks = [(spec.name, r.to_json(), lineup, seed, first, k, 1)
             for (_, r), lineup in zip(variants, lineups) for first, k in pieces]
    states = [[None] * len(pieces) for _ in variants]
    left = [len(pieces)] * len(variants)
    with cluster.connect(client, scheduler) as connected:
        # as the tasks finish: each variant's pieces are merged in piece order afterwards
        for i, state in cluster.run_tasks(connected, run_task, tasks, ordered=False):
            v, p = divmod(i, len(pieces))
            states[v][p] = state
            left[v] -= 1
            if left[v] == 0:
                bar.update(1)
    return states


def parse_vary(texts) -> dict:
    """``["NAME=V1,V2", ...]`` (the CLI's ``--vary``) -> ``{"NAME": ["V1", "V2"]}``.

    A value that itself holds commas (a list parameter) is written with ``;``
    between the variants: ``--vary peninsula_tiles="1,2,3;4,5,6"``.
    """
    out = {}
    for text in texts:
        name, sep, raw = text.partition("=")
        name = name.strip()
        if not sep or not name or not raw.strip():
            raise ValueError(f"--vary {text!r} is not allowed: write NAME=V1,V2,...")
        if name in out:
            raise ValueError(f"--vary {name} is given twice: list all its values once")
        sep_char = ";" if ";" in raw else ","
        values = [v.strip() for v in raw.split(sep_char)]
        if "" in values:
            raise ValueError(f"--vary {text!r} is not allowed: an empty value")
        out[name] = values
    return out


__all__ = ["grid", "parse_vary", "run_task", "sweep", "warm_workers"]
