"""The main job (``make run`` = ``toolkit report``): every game, default rules, default policies.

For each named game (default: all of ``toolkit.GAMES``: Valhalla, Herrlof
and Halali) :func:`report` simulates the standard preset with the game's
default policies (``spec.default_policies``: ``greedy`` in every seat for all
three) and writes, under ``out_dir``:

``<game>.csv`` + ``<game>.json``
    one row per game and its provenance sidecar (:func:`toolkit.core.results.save`);
``<game>_odds.csv``
    the game's exact odds table (``spec.odds(rules)``);
``<game>_win_rates.png``, ``<game>_length.png``
    win rate per seat with 95% Wilson intervals, and the distribution of the
    game length (turns) with its mean ± 1.96 SE and median
    (:mod:`toolkit.viz.plots`);
``summary.csv``
    the returned table: one row per game.

Examples
--------
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["valhalla"], n_games=1000, seed=1, out_dir=out, progress=False)
>>> table.index.tolist()
['valhalla']

Herrlof (a turn is one trick, so the lengths are multiples of ``hand_size``):

>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["herrlof"], n_games=200, seed=1, out_dir=out, progress=False)
>>> table.loc["herrlof", "policies"], int(table.loc["herrlof", "games"])
('greedy,greedy', 200)

Halali (a turn is one action: a reveal, a move or an end-phase pass):

>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["halali"], n_games=200, seed=1, out_dir=out, progress=False)
>>> table.loc["halali", "policies"], int(table.loc["halali", "games"])
('greedy,greedy', 200)
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from toolkit.core import results, stats
from toolkit.core.runner import get_spec, resolve_rules, simulate

DEFAULT_GAMES = 200_000
DEFAULT_PRESET = "standard"


def _save_figure(ax, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig = ax.figure
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _plots(df: pd.DataFrame, spec, out: Path) -> list[Path]:
    """Win rates per seat and the game-length histogram, as PNG files."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window (also safe on a headless runner)
    import matplotlib.pyplot as plt

    from toolkit.viz import plots

    policies = ",".join(df.attrs.get("policies", []))
    written = []
    _, ax = plt.subplots(figsize=(5, 3.5))
    plots.win_rates_bar(stats.win_rates(df), ax=ax,
                        title=f"{spec.title}: win rate per seat\n({len(df):,} games, {policies})")
    written.append(_save_figure(ax, out / f"{spec.name}_win_rates.png"))
    _, ax = plt.subplots(figsize=(6, 3.5))
    plots.length_histogram(df, "turns", ax=ax, title=f"{spec.title}: game length ({len(df):,} games, {policies})")
    ax.set_xlabel(f"turns (a turn is {spec.turn_word})")
    written.append(_save_figure(ax, out / f"{spec.name}_length.png"))
    return written


def _summary_row(df: pd.DataFrame, spec, seconds: float) -> dict:
    row = {"game": spec.name, "preset": df.attrs.get("preset"), "policies": ",".join(df.attrs["policies"]),
           "games": len(df)}
    for r in stats.win_rates(df).itertuples():
        row[f"win_rate_{r.seat}"] = r.win_rate
        row[f"ci_low_{r.seat}"] = r.ci_low
        row[f"ci_high_{r.seat}"] = r.ci_high
    # draws (Herrlof, Halali H-6.3) and unfinished games (Halali's aborted ones, H-7)
    row["no_winner"] = int((df["winner"] == -1).sum())
    row["mean_turns"], row["se_turns"] = stats.mean_se(df["turns"])
    row["median_turns"] = float(np.median(df["turns"]))
    row["seconds"] = seconds
    return row


def report(games=None, n_games: int | None = None, seed: int = 0, out_dir="data/results",
           threads: int | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Simulate every named game with its defaults and write CSV, odds and PNG files.

    Parameters
    ----------
    games : str or sequence of str, optional
        Game names (default: every registered game).
    n_games : int, optional
        Games per game (default 200,000).
    seed : int
        Run seed.
    out_dir : path
        Output directory (created if missing).
    threads, progress
        Passed to :func:`~toolkit.core.runner.simulate`.

    Returns
    -------
    DataFrame
        Indexed by game: ``preset``, ``policies``, ``games``, ``win_rate_<seat>``
        with ``ci_low_<seat>`` / ``ci_high_<seat>`` (Wilson 95%), ``no_winner``
        (games without a winner: draws, games stopped at a limit), ``mean_turns``,
        ``se_turns``, ``median_turns`` and ``seconds`` (simulation wall time).
        Also written to ``out_dir/summary.csv``.
    """
    from toolkit.games import GAMES

    if games is None:
        games = list(GAMES)
    elif isinstance(games, str):
        games = [games]
    # every name and setting is checked before the first (long) run starts
    specs = [get_spec(g) for g in games]
    n_games = DEFAULT_GAMES if n_games is None else n_games
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"n_games={n_games!r} is not allowed: an integer >= 1")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    rows = []
    for spec in specs:
        rules = resolve_rules(spec, None, DEFAULT_PRESET)
        policies = spec.default_policies(rules)
        start = time.perf_counter()
        df = simulate(spec, rules, n_games, seed=seed, policies=policies, threads=threads, keep="games",
                      progress=progress)
        seconds = time.perf_counter() - start
        results.save(df, out / f"{spec.name}.csv")
        spec.odds(rules).to_csv(out / f"{spec.name}_odds.csv", index=False)
        _plots(df, spec, out)
        rows.append(_summary_row(df, spec, seconds))
    table = pd.DataFrame(rows).set_index("game")
    table.to_csv(out / "summary.csv")
    return table
