"""The main job (``make run`` = ``toolkit report``): every game, default rules, default policies.

For each named game (default: all of ``toolkit.GAMES``: Valhalla, Herrlof,
Halali, Attila and Walhalla) :func:`report` simulates the standard preset with
the game's default policies (``spec.default_policies``: ``greedy`` in every
seat for all of them; Attila's and Walhalla's standard presets have 4 players)
and writes, under ``out_dir``:

``<game>.csv`` + ``<game>.json``
    one row per game and its provenance sidecar (:func:`toolkit.core.results.save`);
``<game>_odds.csv``
    the game's exact odds table (``spec.odds(rules)``);
``<game>_win_rates.png``, ``<game>_length.png``
    win rate per seat with 95% Wilson intervals, and the distribution of the
    game length (turns) with its mean ± 1.96 SE and median
    (:mod:`toolkit.viz.plots`);
``summary.csv``
    the returned table: one row per game (a game with fewer seats than the
    widest one leaves the other seats' columns empty).

The number of games is 200,000 per game, except where ``REPORT_GAMES`` says
otherwise (Attila and Walhalla: their greedy players are slow, see there);
``n_games=`` sets one number for every game.

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

Attila (4 players; several seats can share a win, A-7):

>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["attila"], n_games=200, seed=1, out_dir=out, progress=False)
>>> table.loc["attila", "policies"], int(table.loc["attila", "games"])
('greedy,greedy,greedy,greedy', 200)

Walhalla (4 players; a turn is one dragon drawn, at most 3 raids x 12 dragons):

>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["walhalla"], n_games=200, seed=1, out_dir=out, progress=False)
>>> table.loc["walhalla", "policies"], int(table.loc["walhalla", "games"])
('greedy,greedy,greedy,greedy', 200)
>>> bool(table.loc["walhalla", "median_turns"] <= 36)
True
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from toolkit.analysis.tournament import outcome_counts
from toolkit.core import results, stats
from toolkit.core.runner import get_spec, resolve_rules, simulate

DEFAULT_GAMES = 200_000
# Games where 200,000 default games would dominate `make run`.  Attila's greedy players value
# every option by a trial scoring and its games are long (about 87 turns, 2.5 times a random
# game's): 1,800 games/s on one core against 68,000 for random play.  Measured with `toolkit
# report` on the 2-core machine: Valhalla's and Halali's 200,000 games take 10-11 s each,
# Attila's 50,000 take 12 s (200,000 would take about 48 s, more than the other three games
# together); the whole report went from 29 s to 41 s.  50,000 games still give each seat's win
# rate to +-0.004.
# Walhalla's greedy players value every boarding, fjord and landing by a trial scoring (W-8):
# 4-player greedy self-play runs at 3,000 games/s on one thread against 100,000 for random play
# (benchmarks/walhalla.py).  Measured with `toolkit report` while the 2-core machine was busy
# with other jobs (load 3-4: every game took longer than in the timings above): Walhalla's
# 100,000 games took 26-31 s, its 50,000 take 10 s, and the whole report went from 70 s to
# 82 s.  50,000 games give each seat's win rate to +-0.004, as for Attila.
REPORT_GAMES = {"attila": 50_000, "walhalla": 50_000}
DEFAULT_PRESET = "standard"


def _save_figure(ax, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig = ax.figure
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _policies_text(policies) -> str:
    """``greedy,random`` as such; one policy in three or more seats as ``greedy in all 4 seats``
    (four names do not fit in a plot title)."""
    if len(policies) > 2 and len(set(policies)) == 1:
        return f"{policies[0]} in all {len(policies)} seats"
    return ",".join(policies)


def _move_fair_line(ax, fair: float) -> None:
    """Put ``win_rates_bar``'s dashed 0.5 reference at ``fair`` (1 / seats, a shared win
    aside).  ``win_rates_bar`` draws the 2-seat 0.5 line; this can go once it takes the
    fair share as an argument."""
    moved = False
    for line in ax.get_lines():
        if line.get_label() == "0.5 (fair)":
            line.set_ydata([fair, fair])
            line.set_label(f"{fair:.2g} (fair: 1 / {round(1 / fair)} seats)")
            moved = True
    if moved:
        ax.legend(loc="lower right", fontsize=8)


def _plots(df: pd.DataFrame, spec, out: Path) -> list[Path]:
    """Win rates per seat and the game-length histogram, as PNG files."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window (also safe on a headless runner)
    import matplotlib.pyplot as plt

    from toolkit.viz import plots

    policies = _policies_text(df.attrs.get("policies", []))
    written = []
    _, ax = plt.subplots(figsize=(5, 3.5))
    rates = stats.win_rates(df)
    plots.win_rates_bar(rates, ax=ax, title=f"{spec.title}: win rate per seat\n({len(df):,} games, {policies})")
    if len(rates) != 2:
        _move_fair_line(ax, 1 / len(rates))
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
    # draws (Herrlof, Halali H-6.3) and unfinished games (Halali's aborted ones, H-7); a shared
    # win (Attila A-7, winner -1 too) counts as a win for each tied seat and is counted on its own
    row["no_winner"], row["shared_wins"] = outcome_counts(df)
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
        Games per game (default 200,000, or the game's ``REPORT_GAMES``).
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
        with ``ci_low_<seat>`` / ``ci_high_<seat>`` (Wilson 95%; NaN for the
        seats a game does not have), ``no_winner`` (games without a winner:
        draws, games stopped at a limit), ``shared_wins`` (games won by several
        tied seats), ``mean_turns``, ``se_turns``, ``median_turns`` and
        ``seconds`` (simulation wall time).
        Also written to ``out_dir/summary.csv``.
    """
    from toolkit.games import GAMES

    if games is None:
        games = list(GAMES)
    elif isinstance(games, str):
        games = [games]
    # every name and setting is checked before the first (long) run starts
    specs = [get_spec(g) for g in games]
    if n_games is not None and (isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer))
                                or n_games < 1):
        raise ValueError(f"n_games={n_games!r} is not allowed: an integer >= 1")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    rows = []
    for spec in specs:
        rules = resolve_rules(spec, None, DEFAULT_PRESET)
        policies = spec.default_policies(rules)
        start = time.perf_counter()
        games = n_games if n_games is not None else REPORT_GAMES.get(spec.name, DEFAULT_GAMES)
        df = simulate(spec, rules, games, seed=seed, policies=policies, threads=threads, keep="games",
                      progress=progress)
        seconds = time.perf_counter() - start
        results.save(df, out / f"{spec.name}.csv")
        spec.odds(rules).to_csv(out / f"{spec.name}_odds.csv", index=False)
        _plots(df, spec, out)
        rows.append(_summary_row(df, spec, seconds))
    table = pd.DataFrame(rows).set_index("game")
    # a wider game's seat columns go beside the others' (the rows' first seen order would put them last)
    seats = max(spec.seats(resolve_rules(spec, None, DEFAULT_PRESET)) for spec in specs)
    seat_columns = [f"{stat}_{s}" for s in range(seats) for stat in ("win_rate", "ci_low", "ci_high")]
    first = ["preset", "policies", "games"]
    table = table[first + seat_columns + [c for c in table.columns if c not in first + seat_columns]]
    table.to_csv(out / "summary.csv")
    return table
