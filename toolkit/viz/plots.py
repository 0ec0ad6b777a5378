"""Matplotlib plots of simulated outcomes: an ``Axes`` in, the same ``Axes`` out.

Every function takes ``ax=None`` and creates a figure only when no ``Axes``
is given, never calls ``plt.show()``, labels its axes, and shows the
uncertainty of every estimated number (Wilson intervals for rates, the
standard error of a mean).  So a notebook can lay several plots out on one
figure, the report can save them, and tests can inspect them headless.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import toolkit
>>> from toolkit.viz import plots
>>> df = toolkit.simulate("valhalla", n_games=1000, seed=1, progress=False)
>>> ax = plots.win_rates_bar(toolkit.win_rates(df))
>>> ax.get_ylabel()
'win rate'
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from toolkit.core import stats

_EXACT_COLOUR = "#9ecae1"
_SIM_COLOUR = "#d62728"


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5, 3.5))
    return ax


def _error_bars(rate, low, high):
    """Asymmetric ``yerr`` (2, n) from an interval around ``rate``."""
    rate, low, high = (np.asarray(x, dtype=float) for x in (rate, low, high))
    return np.vstack([np.clip(rate - low, 0, None), np.clip(high - rate, 0, None)])


def win_rates_bar(table: pd.DataFrame, ax=None, *, labels=None, title: str | None = None):
    """Win rate per seat with its 95% Wilson interval and a 0.5 reference line.

    Parameters
    ----------
    table : DataFrame
        ``toolkit.win_rates(df)`` or ``Summary.win_rates()``: columns ``seat``,
        ``win_rate``, ``ci_low``, ``ci_high`` (``games`` is used in the title).
    ax : matplotlib Axes, optional
    labels : sequence of str, optional
        Bar labels (default ``seat 0``, ``seat 1``, …).
    title : str, optional
        Default: the number of games.

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
    x = np.arange(len(table))
    rate = table["win_rate"].to_numpy(float)
    ax.bar(x, rate, color=_EXACT_COLOUR, edgecolor="black", linewidth=0.6)
    ax.errorbar(x, rate, yerr=_error_bars(rate, table["ci_low"], table["ci_high"]),
                fmt="none", ecolor="black", capsize=6, label="95% Wilson interval")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="0.5 (fair)")
    for xi, r, lo, hi in zip(x, rate, table["ci_low"].to_numpy(float), table["ci_high"].to_numpy(float)):
        ax.annotate(f"{r:.3f}\n[{lo:.3f}, {hi:.3f}]", (xi, hi), textcoords="offset points", xytext=(0, 4),
                    ha="center", fontsize=8)
    ax.set_xticks(x)
    ax.set_xticklabels(labels if labels is not None else [f"seat {s}" for s in table["seat"]])
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    if title is None and "games" in table:
        title = f"win rate per seat ({int(table['games'].iloc[0]):,} games)"
    if title:
        ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    return ax


def _counts_of(data, column: str) -> pd.Series:
    """Games per value of ``column`` from a per-game frame or a ``Summary``."""
    if hasattr(data, "histogram"):  # toolkit.core.runner.Summary
        counts = data.histogram(column)
    else:
        counts = data[column].value_counts().sort_index()
    counts = counts[counts > 0] if len(counts) else counts
    if len(counts):  # fill the gaps so the step outline is honest
        full = pd.RangeIndex(int(counts.index.min()), int(counts.index.max()) + 1)
        counts = counts.reindex(full, fill_value=0)
    return counts.astype(np.int64)


def length_histogram(data, column: str = "turns", ax=None, *, label: str | None = None,
                     title: str | None = None, bin_width: int | None = None):
    """Distribution of a game-length column: the share of games per value.

    Parameters
    ----------
    data : DataFrame or Summary
        One row per game (``keep="games"``) or a streaming summary
        (``keep="summary"``, read through ``summary.histogram(column)``).
    column : str
        ``"turns"`` (default), ``"plies"``, …
    ax : matplotlib Axes, optional
    label : str, optional
        Legend label of the distribution (to overlay several runs on one Axes).
    bin_width : int, optional
        Values per bin; default 1, or wider so that about 150 bins span the data.
        The height is always the share per single value (a bin's share divided
        by its width), so runs binned differently can share one Axes.

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    The mean is drawn with a shaded 95% interval (mean ± 1.96 standard errors)
    and the median as a dotted line.
    """
    ax = _axes(ax)
    ax.autoscale(enable=True, axis="y")  # a second call on the same Axes may need more room
    counts = _counts_of(data, column)
    n = int(counts.sum())
    if n == 0:
        raise ValueError(f"data={data!r} is not allowed: it holds no games")
    values = counts.index.to_numpy(float)
    weights = counts.to_numpy(float) / n
    # mean and standard error from the exact per-value counts, before any binning
    mean = float((values * weights).sum())
    var = float(((values - mean) ** 2 * weights).sum()) * n / max(n - 1, 1)
    half = stats.Z95 * np.sqrt(var / n)
    median = float(values[np.searchsorted(np.cumsum(weights), 0.5)])
    width = int(bin_width) if bin_width else max(1, int(np.ceil((values[-1] - values[0] + 1) / 150)))
    if width < 1:
        raise ValueError(f"bin_width={bin_width!r} is not allowed: an integer >= 1")
    first = values[0]
    bins = ((values - first) // width).astype(np.int64)
    share = np.bincount(bins, weights=weights) / width  # per value, so runs with other bins compare
    centres = first + width * np.arange(share.size) + (width - 1) / 2
    line, = ax.step(centres, share, where="mid", label=label or f"{n:,} games")
    colour = line.get_color()
    ax.fill_between(centres, share, step="mid", alpha=0.25, color=colour)
    ax.axvspan(mean - half, mean + half, color=colour, alpha=0.35)
    ax.axvline(mean, color=colour, linewidth=1.2, label=f"mean {mean:.1f} ± {half:.1f} (95%)")
    ax.axvline(median, color=colour, linewidth=1, linestyle=":", label=f"median {median:g}")
    ax.set_xlabel(column)
    ax.set_ylabel("share of games per value" + ("" if width == 1 else f" ({width}-wide bins)"))
    ax.set_ylim(bottom=0)
    if title is None:
        title = f"distribution of {column}"
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8)
    return ax


def _as_series(obj, name: str) -> pd.Series:
    if isinstance(obj, pd.Series):
        return obj
    if isinstance(obj, Mapping):
        return pd.Series({k: float(v) for k, v in obj.items()}, name=name)
    raise ValueError(f"{name}={type(obj).__name__} is not allowed: a mapping or Series value -> number")


def odds_vs_simulated(exact, simulated, ax=None, *, xlabel: str = "throw value", title: str | None = None):
    """Exact probabilities (bars) beside simulated frequencies (points, 95% Wilson intervals).

    Parameters
    ----------
    exact : mapping or Series
        Outcome -> exact probability (``Fraction`` is fine), e.g.
        ``toolkit.games.valhalla.odds.value_distribution(rules)``.
    simulated : mapping, Series or array
        Outcome -> count, or the raw sequence of simulated outcomes.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
    ax.autoscale(enable=True, axis="y")
    exact = _as_series(exact, "exact")
    if isinstance(simulated, (pd.Series, Mapping)):
        counts = _as_series(simulated, "simulated")
    else:
        counts = pd.Series(np.asarray(simulated)).value_counts()
    outcomes = sorted(set(exact.index) | set(counts.index), key=lambda v: (str(type(v)), v))
    p_exact = exact.reindex(outcomes, fill_value=0.0).to_numpy(float)
    hits = counts.reindex(outcomes, fill_value=0).to_numpy(float)
    n = hits.sum()
    if n <= 0:
        raise ValueError("simulated holds no outcomes")
    rate, low, high = stats.wilson(hits, n)
    x = np.arange(len(outcomes))
    ax.bar(x, p_exact, width=0.6, color=_EXACT_COLOUR, edgecolor="black", linewidth=0.6, label="exact")
    ax.errorbar(x, rate, yerr=_error_bars(rate, low, high), fmt="o", color=_SIM_COLOUR, markersize=4,
                capsize=4, label=f"simulated, {int(n):,} draws (95% CI)")
    ax.set_xticks(x)
    ax.set_xticklabels([str(o) for o in outcomes])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability")
    ax.set_ylim(bottom=0)
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8)
    return ax


def comparison_matrix(matrix_df: pd.DataFrame, ax=None, *, ci_low: pd.DataFrame | None = None,
                      ci_high: pd.DataFrame | None = None, xlabel: str | None = None,
                      ylabel: str | None = None, title: str | None = None, value_label: str = "win rate"):
    """Heatmap of the win rate of the row policy against the column policy, values written in.

    Parameters
    ----------
    matrix_df : DataFrame
        Either the output of :func:`toolkit.analysis.tournament.matrix`
        (columns ``(stat, opponent)``: its ``win_rate``, ``ci_low`` and
        ``ci_high`` blocks are used), or a plain table: index = row policies,
        columns = column policies, value = win rate of the row policy (NaN
        cells stay blank).
    ax : matplotlib Axes, optional
    ci_low, ci_high : DataFrame, optional
        For a plain table: the 95% interval, same shape, written under each value.
    xlabel, ylabel : str, optional
        Default: the columns' / index's name, else "column policy" / "row policy".

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import toolkit
    >>> from toolkit.analysis.tournament import matrix
    >>> table = toolkit.compare("valhalla", ["random", "greedy"], n_games=200, seed=1, progress=False)
    >>> comparison_matrix(matrix(table)).get_ylabel()
    'policy'
    """
    ax = _axes(ax)
    if isinstance(matrix_df.columns, pd.MultiIndex) and "win_rate" in matrix_df.columns.get_level_values(0):
        if ci_low is None and "ci_low" in matrix_df.columns.get_level_values(0):
            ci_low, ci_high = matrix_df["ci_low"], matrix_df["ci_high"]
        matrix_df = matrix_df["win_rate"]
    values = matrix_df.to_numpy(dtype=float)
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=0.0, vmax=1.0)
    ax.figure.colorbar(image, ax=ax, label=value_label, fraction=0.046, pad=0.04)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = values[i, j]
            if not np.isfinite(v):
                continue
            text = f"{v:.3f}"
            if ci_low is not None and ci_high is not None:
                text += f"\n[{float(ci_low.iloc[i, j]):.3f}, {float(ci_high.iloc[i, j]):.3f}]"
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="white" if abs(v - 0.5) > 0.3 else "black")
    ax.set_xticks(np.arange(values.shape[1]))
    ax.set_xticklabels([str(c) for c in matrix_df.columns])
    ax.set_yticks(np.arange(values.shape[0]))
    ax.set_yticklabels([str(r) for r in matrix_df.index])
    ax.set_xlabel(xlabel or matrix_df.columns.name or "column policy")
    ax.set_ylabel(ylabel or matrix_df.index.name or "row policy")
    if title:
        ax.set_title(title)
    return ax
