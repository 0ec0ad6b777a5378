"""Matplotlib plots of simulated outcomes: an ``Axes`` in, the same ``Axes`` out.

Every function takes ``ax=None`` and creates a figure only when no ``Axes``
is given, never calls ``plt.show()``, labels its axes, and shows the
uncertainty of every estimated number (Wilson intervals for rates, the
standard error of a mean).  So a notebook can lay several plots out on one
figure, the report can save them, and tests can inspect them headless.

Examples
--------
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

from toolkit.core import drawing, stats

MATRIX_FONTSIZE = 9  # points, the values written in a heatmap's cells (8 came out 6-7 px in a notebook)


def win_rates_bar(table: pd.DataFrame, ax=None, *, labels=None, title: str | None = None,
                  fair: float | None = None):
    """Win rate per seat with its 95% Wilson interval and a dashed line at the fair share.

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
    fair : float, optional
        Where the dashed reference line is drawn.  Default: the fair share
        ``1 / seats``, the seats being the rows of ``table`` (0.5 with two).

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    With draws the rates sum to less than 1, with shared wins to more, so the
    fair share is a reference, not a constraint.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"seat": [0, 1, 2, 3], "win_rate": [0.3, 0.2, 0.25, 0.25],
    ...                   "ci_low": [0.25, 0.15, 0.2, 0.2], "ci_high": [0.35, 0.25, 0.3, 0.3]})
    >>> [(line.get_label(), line.get_ydata()[0]) for line in win_rates_bar(t).get_lines()
    ...  if line.get_linestyle() == "--"]
    [('0.25 (fair: 1 / 4 seats)', 0.25)]
    """
    seats = len(table)
    if fair is None:
        if seats < 1:
            raise ValueError("table is not allowed: it holds no seats")
        fair = 1.0 / seats
    elif isinstance(fair, bool) or not isinstance(fair, (int, float, np.integer, np.floating)) or not 0 < fair < 1:
        raise ValueError(f"fair={fair!r} is not allowed: a win rate strictly between 0 and 1")
    fair = float(fair)
    if seats == 2 and fair == 0.5:
        fair_label = "0.5 (fair)"  # the 2-seat label of every picture drawn so far
    elif abs(fair * seats - 1) < 1e-12:
        fair_label = f"{fair:.2g} (fair: 1 / {seats} seats)"
    else:
        fair_label = f"{fair:.2g} (fair)"
    ax = drawing.axes(ax)
    x = np.arange(len(table))
    rate = table["win_rate"].to_numpy(float)
    ax.bar(x, rate, color=drawing.EXACT_COLOUR, edgecolor="black", linewidth=0.6)
    ax.errorbar(x, rate, yerr=drawing.error_bars(rate, table["ci_low"], table["ci_high"]),
                fmt="none", ecolor="black", capsize=6, label="95% Wilson interval")
    ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label=fair_label)
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


def _integer_widths():
    """1, 2, 4, 10, 20, 50, 100, 200, 500, …: 1 or an even number, never an odd width above 1."""
    yield from (1, 2, 4)
    scale = 10
    while True:
        yield from (scale, 2 * scale, 5 * scale)
        scale *= 10


def _integer_bin_width(low: int, high: int, most: int, bin_width=None) -> int:
    """``bin_width`` checked, or the narrowest of :func:`_integer_widths` giving at most ``most`` aligned
    bins over ``low..high``."""
    if bin_width is not None:
        if isinstance(bin_width, bool) or not isinstance(bin_width, (int, np.integer)) or bin_width < 1:
            raise ValueError(f"bin_width={bin_width!r} is not allowed: an integer >= 1")
        if bin_width > 1 and bin_width % 2:
            raise ValueError(f"bin_width={bin_width!r} is not allowed: 1 or an even number (a bin of an odd "
                             "width > 1 holds unequal numbers of even and odd values, so the bars would zigzag "
                             "with any parity structure of the data)")
        return int(bin_width)
    for width in _integer_widths():
        if high // width - low // width + 1 <= most:
            return width


def _integer_bins(values, weights, width: int):
    """Share per single value in bins of ``width`` integers, and the bins' edges.

    Bin ``k`` holds the values ``k * width`` … ``(k + 1) * width - 1`` and spans ``k * width - 0.5`` …
    ``(k + 1) * width - 0.5``, so its bar covers exactly its integer values.  Its height is its share
    divided by ``width``: the share per single value, comparable across widths.

    >>> share, edges = _integer_bins([3, 4, 5, 6], [0.1, 0.2, 0.3, 0.4], 2)
    >>> share.tolist(), edges.tolist()
    ([0.05, 0.25, 0.2], [1.5, 3.5, 5.5, 7.5])
    """
    index = np.asarray(values).astype(np.int64) // width
    first = int(index.min())
    share = np.bincount(index - first, weights=weights) / width
    edges = (first + np.arange(share.size + 1)) * width - 0.5
    return share, edges


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
        Values per bin: 1 or an even number.  Default: the narrowest of 1, 2,
        4, 10, 20, 50, 100, 200, 500, … that spans the data with at most 150
        bins.  The height is always the share per single value (a bin's share
        divided by its width), so runs binned differently can share one Axes.

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    The mean is drawn with a shaded 95% interval (mean ± 1.96 standard errors)
    and the median as a dotted line.

    Bins of integer values follow one rule here and in
    :func:`score_distribution`: the width is 1 or even, a bin holds the values
    ``k * width`` … ``(k + 1) * width - 1`` (its edges sit at multiples of the
    width) and its bar spans the half-integers around them, so it covers
    exactly its values.  The reason is parity: game lengths often have one (in
    Valhalla's alternative preset about 41% of the games between random
    players last an even number of turns).  Bins of an odd width ``w > 1``
    hold alternately ``(w + 1) / 2`` and ``(w - 1) / 2`` even values, so the
    bars would zigzag, a sawtooth that is not in the data; an even bin that
    starts on a multiple of its width holds as many even values as odd ones.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"turns": range(137, 440)})
    >>> share, edges = length_histogram(df).patches[0].get_data()[:2]
    >>> float(edges[1] - edges[0]), float(edges[0] + 0.5)  # 4-wide bins from 136, never 3-wide
    (4.0, 136.0)
    """
    ax = drawing.axes(ax)
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
    width = _integer_bin_width(int(values[0]), int(values[-1]), 150, bin_width)
    share, edges = _integer_bins(values, weights, width)
    outline = ax.stairs(share, edges, label=label or f"{n:,} games", linewidth=1.5)
    colour = outline.get_edgecolor()
    ax.stairs(share, edges, fill=True, color=colour, alpha=0.25)
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
        the ``value_distribution(rules)`` of Valhalla's ``odds`` module.
    simulated : mapping, Series or array
        Outcome -> count, or the raw sequence of simulated outcomes.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = drawing.axes(ax)
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
    ax.bar(x, p_exact, width=0.6, color=drawing.EXACT_COLOUR, edgecolor="black", linewidth=0.6, label="exact")
    ax.errorbar(x, rate, yerr=drawing.error_bars(rate, low, high), fmt="o", color=drawing.SIM_COLOUR, markersize=4,
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
                      ylabel: str | None = None, title: str | None = None, value_label: str = "win rate",
                      centre: float = 0.5):
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
        Without one, a figure is made and sized to the matrix.
    ci_low, ci_high : DataFrame, optional
        For a plain table: the 95% interval, same shape, written under each value.
    xlabel, ylabel : str, optional
        Default: the columns' / index's name, else "column policy" / "row policy".
    centre : float
        The win rate drawn white (default 0.5; the fair share ``1 / seats``
        for a field of three or more seats), blue above, red below.

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    The values are written at 9 points (``MATRIX_FONTSIZE``) whatever the
    matrix size: without ``ax`` the figure grows until every cell holds its
    value, its interval and its column's name, instead of the text shrinking.
    With a given ``ax`` the text keeps its size too; the column names are
    turned 45 degrees when they are wider than a cell.

    Examples
    --------
    >>> import toolkit
    >>> from toolkit.analysis.tournament import matrix
    >>> table = toolkit.compare("valhalla", ["random", "greedy"], n_games=200, seed=1, progress=False)
    >>> comparison_matrix(matrix(table)).get_ylabel()
    'policy'
    """
    from matplotlib.colors import Normalize, TwoSlopeNorm

    if not 0.0 < centre < 1.0:
        raise ValueError(f"centre={centre!r} is not allowed: a win rate strictly between 0 and 1")
    made = ax is None
    if made:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5, 3.5), layout="constrained")  # grown below to the written text
    if isinstance(matrix_df.columns, pd.MultiIndex) and "win_rate" in matrix_df.columns.get_level_values(0):
        if ci_low is None and "ci_low" in matrix_df.columns.get_level_values(0):
            ci_low, ci_high = matrix_df["ci_low"], matrix_df["ci_high"]
        matrix_df = matrix_df["win_rate"]
    values = matrix_df.to_numpy(dtype=float)
    norm = Normalize(0.0, 1.0) if centre == 0.5 else TwoSlopeNorm(vcenter=centre, vmin=0.0, vmax=1.0)
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", norm=norm)
    ax.figure.colorbar(image, ax=ax, label=value_label, fraction=0.046, pad=0.04)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = values[i, j]
            if not np.isfinite(v):
                continue
            text = f"{v:.3f}"
            if ci_low is not None and ci_high is not None:
                text += f"\n[{float(ci_low.iloc[i, j]):.3f}, {float(ci_high.iloc[i, j]):.3f}]"
            # white on the dark ends of the scale, black on the pale middle
            ax.text(j, i, text, ha="center", va="center", fontsize=MATRIX_FONTSIZE,
                    color="white" if abs(float(norm(v)) - 0.5) > 0.3 else "black")
    ax.set_xticks(np.arange(values.shape[1]))
    ax.set_xticklabels([str(c) for c in matrix_df.columns])
    ax.set_yticks(np.arange(values.shape[0]))
    ax.set_yticklabels([str(r) for r in matrix_df.index])
    ax.set_xlabel(xlabel or matrix_df.columns.name or "column policy")
    ax.set_ylabel(ylabel or matrix_df.index.name or "row policy")
    if title:
        ax.set_title(title)
    _fit_cells(ax, values.shape, grow=made)
    return ax


def _fit_cells(ax, shape, *, grow: bool) -> None:
    """Make the square cells of an ``imshow`` matrix hold their written text and their column's name.

    ``grow``: enlarge the figure (one made for this plot) until they do; otherwise turn the column names
    45 degrees when they are wider than the cells of the given Axes."""
    fig = ax.figure
    rows, columns = shape
    fig.draw_without_rendering()
    texts = [t.get_window_extent() for t in ax.texts]
    names = [t.get_window_extent() for t in ax.get_xticklabels()]
    room = 0.3 * fig.dpi  # pixels between the texts of neighbouring cells
    need = max([b.width for b in texts + names] + [b.height for b in texts], default=0.0) + room
    for _ in range(4) if grow else ():  # the margins hardly change, so each step lands close to the goal
        # the slot the layout gives the Axes, before imshow's equal aspect shrinks it to square cells
        slot = ax.get_position(original=True)
        width, height = fig.get_size_inches()
        short_x = need * columns / fig.dpi - slot.width * width
        short_y = need * rows / fig.dpi - slot.height * height
        if short_x <= 0 and short_y <= 0:
            break
        fig.set_size_inches(width + max(short_x, 0.0) + 0.05, height + max(short_y, 0.0) + 0.05)
        fig.draw_without_rendering()
    if max([b.width for b in names], default=0.0) > ax.get_window_extent().width / columns:
        for label in ax.get_xticklabels():
            label.set(rotation=45, ha="right", rotation_mode="anchor")


# ------------------------------------------------------------------ estimates with their intervals
#
# The functions below draw a small table of estimates with their intervals.  (A plot that belongs
# to one game, such as Herrlof's bids against hand strength, lives in that game's ``viz.py``.)


def interval_plot(table: pd.DataFrame, ax=None, *, label: str = "label", value: str = "difference",
                  low: str = "ci_low", high: str = "ci_high", reference: float | None = 0.0,
                  xlabel: str | None = None, ylabel: str | None = None, title: str | None = None, digits: int = 2):
    """Estimates with their intervals, one row each (a forest plot), values written beside the points.

    Parameters
    ----------
    table : DataFrame
        One row per estimate: columns ``label``, ``value``, ``low``, ``high``
        (e.g. rows of :func:`toolkit.paired_difference`).
    ax : matplotlib Axes, optional
    reference : float or None
        A vertical reference line (default 0: no difference); None for none.
    xlabel, ylabel : str, optional
        Default: the ``value`` and ``label`` column names.
    digits : int
        Decimals of the written values.

    Returns
    -------
    matplotlib Axes
        One row an estimate, its interval a horizontal bar.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"label": ["a", "b"], "difference": [1.0, -0.5], "ci_low": [0.5, -1.0],
    ...                   "ci_high": [1.5, 0.0]})
    >>> interval_plot(t).get_xlabel()
    'difference'
    """
    drawing.require_columns(table, (label, value, low, high), "table")
    ax = drawing.axes(ax)
    y = np.arange(len(table))[::-1]  # first row on top
    v = table[value].to_numpy(float)
    lo, hi = table[low].to_numpy(float), table[high].to_numpy(float)
    if reference is not None:
        ax.axvline(reference, color="grey", linestyle="--", linewidth=1)
    ax.errorbar(v, y, xerr=drawing.error_bars(v, lo, hi), fmt="o", color="black", capsize=4, label="95% CI")
    for yi, vi, l, h in zip(y, v, lo, hi):
        ax.annotate(f"{vi:.{digits}f} [{l:.{digits}f}, {h:.{digits}f}]", (vi, yi), textcoords="offset points",
                    xytext=(0, 6), ha="center", fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels([str(t) for t in table[label]])
    ax.set_ylim(-0.7, len(table) - 0.3)
    ax.margins(x=0.15)  # room for the written values
    ax.set_xlabel(xlabel or value)
    ax.set_ylabel(ylabel or label)
    if title:
        ax.set_title(title)
    return ax


def means_bar(table: pd.DataFrame, ax=None, *, x: str = "quantity", hue: str | None = None, value: str = "mean",
              low: str = "ci_low", high: str = "ci_high", xlabel: str | None = None, ylabel: str | None = None,
              title: str | None = None):
    """Grouped bars of estimated means with their 95% intervals.

    Parameters
    ----------
    table : DataFrame
        One row per bar: columns ``x`` (the group on the axis), ``hue`` (the
        bar within a group, optional), ``value``, ``low``, ``high``.
    ax : matplotlib Axes, optional
    xlabel, ylabel : str, optional
        Default: the ``x`` and ``value`` column names.

    Returns
    -------
    matplotlib Axes
        A group of bars each ``x``, a bar each ``hue``, with its interval.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"quantity": ["a", "a", "b", "b"], "policy": ["p", "q", "p", "q"],
    ...                   "mean": [1.0, 2.0, 0.5, 0.2], "ci_low": [0.9, 1.8, 0.4, 0.1],
    ...                   "ci_high": [1.1, 2.2, 0.6, 0.3]})
    >>> len(means_bar(t, hue="policy").patches)
    4
    """
    drawing.require_columns(table, [c for c in (x, hue, value, low, high) if c is not None], "table")
    ax = drawing.axes(ax)
    groups = list(dict.fromkeys(table[x]))
    hues = list(dict.fromkeys(table[hue])) if hue is not None else [None]
    width = 0.8 / len(hues)
    for k, h in enumerate(hues):
        rows = table if h is None else table[table[hue] == h]
        rows = rows.set_index(x).reindex(groups)
        centres = np.arange(len(groups)) - 0.4 + width * (k + 0.5)
        v = rows[value].to_numpy(float)
        ax.bar(centres, v, width=width * 0.95, label=None if h is None else str(h), edgecolor="black",
               linewidth=0.5)
        ax.errorbar(centres, v, yerr=drawing.error_bars(v, rows[low], rows[high]), fmt="none", ecolor="black", capsize=3)
    ax.set_xticks(np.arange(len(groups)))
    ax.set_xticklabels([str(g) for g in groups])
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or value)
    if title:
        ax.set_title(title)
    if hue is not None:
        ax.legend(fontsize=8, title=f"{hue} (bars: 95% CI)", title_fontsize=8)
    return ax


# ------------------------------------------------------------------ designer report: seats and scores


def seat_advantage_bar(table: pd.DataFrame, ax=None, *, title: str | None = None, seat_names=None):
    """Win rates by seat number and by place in the turn order, with 95% intervals and the fair share.

    Parameters
    ----------
    table : DataFrame
        :func:`toolkit.analysis.metrics.seat_advantage`: columns ``by``
        (``seat`` or ``place``), ``index``, ``win_rate``, ``ci_low``,
        ``ci_high`` and ``fair`` (``1 / seats``).
    ax : matplotlib Axes, optional
    title : str, optional
    seat_names : sequence of str, optional
        The seats as the game names them (Halali's Blue and Brown), said in the legend.

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    The dashed line is the fair share ``1 / seats`` (0.5 only with two
    seats).  With draws the rates sum to less than 1, with shared wins to
    more, so the fair share is a reference, not a constraint.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"by": ["seat"] * 3, "index": [0, 1, 2], "win_rate": [0.3, 0.3, 0.4],
    ...                   "ci_low": [0.25, 0.25, 0.35], "ci_high": [0.35, 0.35, 0.45], "fair": [1 / 3] * 3})
    >>> [line.get_ydata()[0] for line in seat_advantage_bar(t).get_lines() if line.get_linestyle() == "--"]
    [0.3333333333333333]
    """
    drawing.require_columns(table, ("by", "index", "win_rate", "ci_low", "ci_high", "fair"), "table")
    ax = drawing.axes(ax)
    groups = [g for g in ("seat", "place") if (table["by"] == g).any()]
    names = {"seat": "by seat number", "place": "by place in the turn order (0 = moved first)"}
    if seat_names is not None and any(n != f"seat {s}" for s, n in enumerate(seat_names)):
        names["seat"] += ": " + ", ".join(f"{s} = {n}" for s, n in enumerate(seat_names))
    colours = {"seat": drawing.EXACT_COLOUR, "place": "#fdae6b"}
    width = 0.8 / len(groups)
    top = 0.0
    for k, group in enumerate(groups):
        rows = table[table["by"] == group].sort_values("index")
        x = rows["index"].to_numpy(float) - 0.4 + width * (k + 0.5)
        rate, low, high = (rows[c].to_numpy(float) for c in ("win_rate", "ci_low", "ci_high"))
        ax.bar(x, rate, width=width * 0.95, color=colours[group], edgecolor="black", linewidth=0.6,
               label=names[group])
        ax.errorbar(x, rate, yerr=drawing.error_bars(rate, low, high), fmt="none", ecolor="black", capsize=4)
        for xi, r, hi in zip(x, rate, high):
            ax.annotate(f"{r:.3f}", (xi, hi), textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7)
        top = max(top, float(np.nanmax(high)) if len(high) else 0.0)
    fair = float(table["fair"].iloc[0])
    seats = round(1 / fair)
    # the fair share is drawn before the legend is made, so it is labelled there (never a 0.5 line for 3+ seats)
    ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label=f"fair share 1/{seats} = {fair:.3f}")
    indices = sorted(table["index"].unique())
    ax.set_xticks(indices)
    ax.set_xticklabels([str(i) for i in indices])
    ax.set_xlabel("seat number / place in the turn order")
    ax.set_ylabel("win rate (95% Wilson interval)")
    # room above the bars for their labels and the legend, past 1 too when a seat wins nearly every game
    # (capped at 1, a lopsided bar's label ran into the title and the legend covered it); ticks stop at 1
    ax.set_ylim(0, max(top, fair) * 1.6 + 0.02)
    ax.set_yticks([t for t in ax.get_yticks() if 0 <= t <= 1.0 + 1e-9])
    if title:
        ax.set_title(title)
    ax.legend(fontsize=7, loc="upper left")
    return ax


def score_distribution(data: pd.DataFrame, ax=None, *, title: str | None = None, bin_width: int | None = None,
                       seat_names=None):
    """Distribution of each seat's final score (the ``score_<seat>`` columns), one outline per seat.

    Parameters
    ----------
    data : DataFrame or Summary
        One row per game, or a streaming summary (its ``score_*`` histograms).
    ax : matplotlib Axes, optional
    title : str, optional
    bin_width : int, optional
        Values per bin, the same for every seat: 1 or an even number.  Default:
        the narrowest of 1, 2, 4, 10, 20, 50, 100, … that spans the scores
        with at most 100 bins.  The bins follow the rule of
        :func:`length_histogram` (edges at multiples of the width, never an
        odd width above 1, so a parity of the scores cannot draw a sawtooth);
        the height is the share per single value.

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    Each seat's legend entry gives its mean score with a 95% interval
    (± 1.96 standard errors); the mean is also drawn as a dashed line.  A
    score with at most 25 values is drawn as bars side by side, a wider one
    as one outline per seat.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"score_0": [1, 2, 2, 5], "score_1": [0, 3, 3, 3]})
    >>> len(score_distribution(df).get_legend().get_texts())
    2
    """
    columns = [c for c in (data.shown if hasattr(data, "shown") else data.columns)
               if c.startswith("score_") and c[6:].isdigit()]
    if not columns:
        raise ValueError("data is not allowed: it has no score_<seat> column")
    ax = drawing.axes(ax)
    counts = {c: _counts_of(data, c) for c in columns}
    if not any(int(v.sum()) for v in counts.values()):
        raise ValueError("data is not allowed: it holds no games")
    low = min(float(v.index.min()) for v in counts.values() if len(v))
    high = max(float(v.index.max()) for v in counts.values() if len(v))
    width = _integer_bin_width(int(low), int(high), 100, bin_width)
    few = width == 1 and high - low + 1 <= 25
    width_bar = 0.8 / len(columns)
    for k, column in enumerate(columns):
        c = counts[column]
        n = int(c.sum())
        values = c.index.to_numpy(float)
        weights = c.to_numpy(float) / n
        mean = float((values * weights).sum())
        var = float(((values - mean) ** 2 * weights).sum()) * n / max(n - 1, 1)
        half = stats.Z95 * np.sqrt(var / n)
        seat = int(column[6:])
        name = seat_names[seat] if seat_names is not None and seat < len(seat_names) else f"seat {seat}"
        label = f"{name}: mean {mean:.2f} ± {half:.2f} (95%)"
        if few:  # a handful of values: bars side by side read better than crossing outlines
            bar = width_bar * 0.95
            patches = ax.bar(values - 0.4 + width_bar * (k + 0.5), weights, width=bar, label=label,
                             edgecolor="black", linewidth=0.4)
            colour = patches[0].get_facecolor()
        else:
            share, edges = _integer_bins(values, weights, width)
            colour = ax.stairs(share, edges, label=label, linewidth=1.2).get_edgecolor()
        ax.axvline(mean, color=colour, linestyle="--", linewidth=1)
    ax.set_xlabel("final score")
    ax.set_ylabel("share of games per value" + ("" if width == 1 else f" ({width}-wide bins)"))
    ax.set_ylim(bottom=0)
    if title is None:
        title = "distribution of the final score per seat"
    if title:
        ax.set_title(title)
    ax.legend(fontsize=7)
    return ax


def ladder_plot(table: pd.DataFrame, axes=None, *, metrics=("first_player_advantage", "duration_turns",
                                                            "decisiveness", "lead_changes", "skill_gap")):
    """A strength ladder (:func:`toolkit.analysis.ladder`): each metric against the rating, one
    panel each, the policies written at their points, 95% intervals both ways.

    Parameters
    ----------
    table : DataFrame
        The ladder (columns ``rating``, ``rating_low``, ``rating_high`` and ``metric``, ``metric_low``,
        ``metric_high`` for each metric shown; metrics it lacks are left out).
    axes : sequence of matplotlib Axes, optional
        One per metric shown (default: a new figure, one row of panels).

    Returns
    -------
    list of matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"rating": [1400.0, 1600.0], "rating_low": [1380.0, 1580.0], "rating_high": [1420.0, 1620.0],
    ...                   "duration_turns": [300.0, 280.0], "duration_turns_low": [290.0, 270.0],
    ...                   "duration_turns_high": [310.0, 290.0]}, index=pd.Index(["random", "greedy"], name="policy"))
    >>> [ax.get_ylabel() for ax in ladder_plot(t)]
    ['duration (turns)']
    """
    from toolkit.analysis.strength import PLAY_METRICS

    labels = dict(PLAY_METRICS, skill_gap="skill gap (vs random)")
    shown = [m for m in metrics if m in table.columns and not table[m].isna().all()]
    if not shown:
        raise ValueError(f"table is not allowed: it has none of the metrics {', '.join(metrics)}")
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, len(shown), figsize=(3.2 * len(shown), 3.2), squeeze=False)
        axes = list(axes[0])
    table = table.sort_values("rating")  # the line joins the policies from the weakest to the strongest
    rating = table["rating"].to_numpy(float)
    xerr = drawing.error_bars(rating, table["rating_low"], table["rating_high"])
    kind = table.attrs.get("rating", "elo")
    for ax, metric in zip(axes, shown):
        v = table[metric].to_numpy(float)
        yerr = drawing.error_bars(v, table[metric + "_low"], table[metric + "_high"])
        ax.errorbar(rating, v, xerr=xerr, yerr=yerr, fmt="o-", color="black", capsize=3, linewidth=1)
        for name, x, y in zip(table.index, rating, v):
            ax.annotate(str(name), (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
        if metric in ("first_player_advantage", "skill_gap"):
            ax.axhline(0.0, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel("Elo" if kind == "elo" else "skill μ (OpenSkill)")
        ax.set_ylabel(labels.get(metric, metric))
        ax.margins(x=0.15, y=0.15)
    return axes


def tuning_history(tuning, ax=None, *, title: str | None = None):
    """A rule tuning's search (:func:`toolkit.analysis.tune`): each trial's distance to the targets, the
    best so far as a step line, and the finalists (the candidates played again on a fresh seed) ringed.

    Trials the rules refused have no distance and are left out.  A ``max`` or ``min`` target makes the
    distance the metric's negative (or the metric): lower is better either way.

    Examples
    --------
    >>> import toolkit
    >>> t = toolkit.analysis.tune("valhalla", {"duration_turns": 300}, {"zero_runes_value": None}, trials=4,
    ...                           n_games=500, progress=False)
    >>> tuning_history(t).get_ylabel()
    'distance to the targets'
    """
    ax = drawing.axes(ax)
    trials = tuning.trials[tuning.trials["state"] == "complete"]
    number, distance = trials["trial"].to_numpy(int), trials["distance"].to_numpy(float)
    ax.plot(number, distance, "o", color="#1f77b4", markersize=4, label="trial")
    ax.step(number, np.minimum.accumulate(distance), where="post", color="black", linewidth=1, label="best so far")
    final = trials[trials["trial"].isin(tuning.finalists["trial"])]
    ax.plot(final["trial"], final["distance"], "o", markerfacecolor="none", markeredgecolor=drawing.SIM_COLOUR,
            markersize=9, label="finalist")
    ax.set_xlabel("trial")
    ax.set_ylabel("distance to the targets")
    ax.set_title(title or f"{tuning.game}: {', '.join(t.describe() for t in tuning.targets)}", fontsize=10)
    ax.legend(fontsize=8)
    return ax


def tuning_importance(tuning, ax=None, *, title: str | None = None):
    """Each varied rule's share of the distance's variation over the trials (``Tuning.importance``,
    Optuna's default evaluator), largest on top."""
    ax = drawing.axes(ax)
    importance = tuning.importance()
    if not importance:
        raise ValueError("tuning is not allowed: its trials played fewer than two distinct candidates")
    names = list(importance)[::-1]
    ax.barh(names, [importance[n] for n in names], color="#1f77b4")
    ax.set_xlim(0, 1)
    ax.set_xlabel("importance (share of the variation)")
    ax.set_title(title or f"{tuning.game}: which rule matters", fontsize=10)
    return ax


def tuning_result(tuning, axes=None):
    """The targeted metrics of the base rules and of the tuned ones, measured on the check seed, with 95%
    intervals, the target dashed: one panel per target."""
    targets = tuning.targets
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, len(targets), figsize=(3.2 * len(targets), 3.2), squeeze=False)
        axes = list(axes[0])
    table = tuning.table()
    for ax, target in zip(axes, targets):
        row = table.loc[target.metric]
        values = np.array([row["base"], row["tuned"]], float)
        yerr = drawing.error_bars(values, [row["base_low"], row["tuned_low"]], [row["base_high"], row["tuned_high"]])
        ax.errorbar([0, 1], values, yerr=yerr, fmt="o", color="black", capsize=4)
        if not isinstance(target.value, str):
            ax.axhline(target.value, color=drawing.SIM_COLOUR, linestyle="--", linewidth=1, label="target")
            ax.legend(fontsize=8)
        ax.set_xticks([0, 1], ["base rules", "tuned"])
        ax.set_xlim(-0.5, 1.5)
        ax.set_ylabel(target.metric.replace("_", " "))
        ax.margins(y=0.2)
    return axes


def tuning_figure(tuning, *, title: str | None = None, width: float = 4.4):
    """The three views of a tuning side by side, as the notebook and the dashboard show it: the search
    (:func:`tuning_history`), the rules' importance (:func:`tuning_importance`; left empty with a single
    rule) and the targeted metrics, base against tuned (:func:`tuning_result`).  Returns the figure."""
    import matplotlib.pyplot as plt

    panels = 2 + len(tuning.targets)
    figure, axes = plt.subplots(1, panels, figsize=(width * panels, 3.5))
    tuning_history(tuning, ax=axes[0], title=title or f"{tuning.game}: the search")
    if len(tuning.importance()) > 1:
        tuning_importance(tuning, ax=axes[1])
    else:
        axes[1].set_axis_off()
    tuning_result(tuning, axes=axes[2:])
    figure.tight_layout()
    return figure
