"""Herrlof's plots of bids, tricks, points and hand strength: an ``Axes`` in, the same ``Axes`` out.

They read the per-round log of :func:`toolkit.games.herrlof.round_log` (columns
``bid``, ``tricks``, ``points`` and ``strength``, one row per round and seat),
and follow :mod:`toolkit.viz.plots`: ``ax=None`` makes a figure, ``plt.show()``
is never called, axes are labelled, and every estimate has its 95% interval.
:func:`bid_points_table` and :func:`best_bid_table` are the tables two of the
plots draw.

Examples
--------
>>> from toolkit.games.herrlof import round_log
>>> from toolkit.games.herrlof.viz import bid_tricks_heatmap
>>> log = round_log(n_games=100, seed=1, policies=("random", "random"))
>>> bid_tricks_heatmap(log[log["seat"] == 0], hand_size=15).get_ylabel()
'tricks won'
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from toolkit.core import stats
from toolkit.viz.plots import _SIM_COLOUR, _axes, _error_bars, _require


def _mean_interval(groups) -> pd.DataFrame:
    """Rows, mean, standard error and 95% interval of each group of a ``groupby(...)[column]``."""
    table = groups.agg(rounds="count", mean="mean", std="std")
    table["se"] = table["std"] / np.sqrt(table["rounds"])
    table["ci_low"] = table["mean"] - stats.Z95 * table["se"]
    table["ci_high"] = table["mean"] + stats.Z95 * table["se"]
    return table.drop(columns="std")


def bid_tricks_heatmap(log: pd.DataFrame, ax=None, *, hand_size: int | None = None, title: str | None = None):
    """How the tricks won spread for each bid: a heatmap of P(tricks | bid), the mean per bid with its interval.

    Parameters
    ----------
    log : DataFrame
        One row per round and player, columns ``bid`` and ``tricks``
        (``toolkit.games.herrlof.round_log``, filtered to one policy).
    ax : matplotlib Axes, optional
    hand_size : int, optional
        The largest bid and trick count drawn (default: the largest in ``log``).
    title : str, optional

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    Each column (one bid) is normalised to 1, so the colour is the share of the
    rounds with that bid that ended with each trick count; bids nobody made
    stay blank.  The colour scale spans the bids made in at least 1% of the
    rounds; a rarer bid's column may be clipped at the top colour.  Black
    points are the mean tricks won per bid with a 95% interval (mean ± 1.96
    standard errors); the dashed diagonal marks an exact bid, and its legend
    entry gives the share of exact bids with a 95% Wilson interval.

    Examples
    --------
    >>> import pandas as pd
    >>> log = pd.DataFrame({"bid": [2, 2, 3, 3], "tricks": [2, 3, 3, 1]})
    >>> bid_tricks_heatmap(log).get_xlabel()
    'bid'
    """
    _require(log, ("bid", "tricks"))
    ax = _axes(ax)
    bids = log["bid"].to_numpy(np.int64)
    tricks = log["tricks"].to_numpy(np.int64)
    if bids.min() < 0 or tricks.min() < 0:
        raise ValueError("log is not allowed: bids and trick counts must be >= 0")
    size = int(hand_size) if hand_size is not None else int(max(bids.max(), tricks.max()))
    if size < max(bids.max(), tricks.max()):
        raise ValueError(f"hand_size={hand_size} is not allowed: the log holds larger bids or trick counts")
    counts = np.zeros((size + 1, size + 1))  # counts[tricks, bid]
    np.add.at(counts, (tricks, bids), 1)
    per_bid = counts.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(per_bid > 0, counts / per_bid, np.nan)
    # the colour scale follows the bids made in at least 1% of the rounds: a bid made a handful of times
    # has a coarse, extreme column that would otherwise wash out the rest (its colour is clipped instead)
    common = per_bid >= 0.01 * bids.size
    vmax = float(np.nanmax(share[:, common])) if common.any() else float(np.nanmax(share))
    image = ax.imshow(np.ma.masked_invalid(share), origin="lower", cmap="viridis", vmin=0.0, vmax=vmax,
                      aspect="auto", extent=(-0.5, size + 0.5, -0.5, size + 0.5))
    clipped = bool(np.nanmax(share) > vmax)
    ax.figure.colorbar(image, ax=ax, label="share of the rounds with this bid", fraction=0.046, pad=0.04,
                       extend="max" if clipped else "neither")
    means = _mean_interval(log.groupby("bid")["tricks"])
    means = means[means["rounds"] > 1]
    ax.errorbar(means.index.to_numpy(float), means["mean"].to_numpy(float),
                yerr=_error_bars(means["mean"], means["ci_low"], means["ci_high"]), fmt="o", color="black",
                markersize=3, capsize=3, label="mean tricks won (95% CI)")
    exact = int((bids == tricks).sum())
    rate, low, high = stats.wilson(exact, bids.size)
    ax.plot([-0.5, size + 0.5], [-0.5, size + 0.5], linestyle="--", color="white", linewidth=1,
            label=f"tricks = bid: {rate:.1%} [{low:.1%}, {high:.1%}] of {bids.size:,} rounds")
    ax.set_xlim(-0.5, size + 0.5)
    ax.set_ylim(-0.5, size + 0.5)
    ax.set_xlabel("bid")
    ax.set_ylabel("tricks won")
    if title:
        ax.set_title(title)
    ax.legend(loc="upper left", fontsize=7)
    return ax


def _strength_bins(log: pd.DataFrame, width: int) -> pd.Series:
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width < 1:
        raise ValueError(f"width={width!r} is not allowed: an integer >= 1 (quarter tricks per bin)")
    return (log["strength"] // width * width).rename("strength_low")


def bid_points_table(log: pd.DataFrame, width: int = 2) -> pd.DataFrame:
    """Mean round points for each (hand-strength bin, bid), with a 95% interval.

    Parameters
    ----------
    log : DataFrame
        Columns ``strength`` (quarter tricks), ``bid`` and ``points``.
    width : int
        Quarter tricks per strength bin.

    Returns
    -------
    DataFrame
        One row per bin and bid: ``strength_low`` (first strength of the bin,
        quarters), ``strength`` (the bin's centre in tricks), ``bid``,
        ``rounds``, ``mean`` (points), ``se``, ``ci_low``, ``ci_high``.

    Notes
    -----
    The mean points of a bid estimate what that bid is worth with such a hand
    only when the bid is chosen independently of the hand, as the ``random``
    policy does; then every bid meets the same hands and the same play.

    Examples
    --------
    >>> import pandas as pd
    >>> log = pd.DataFrame({"strength": [4, 5, 4, 9], "bid": [1, 1, 2, 1], "points": [11, 1, 2, 1]})
    >>> t = bid_points_table(log, width=4)
    >>> t["strength_low"].tolist(), t["bid"].tolist(), t["rounds"].tolist(), t["mean"].tolist()
    ([4, 4, 8], [1, 2, 1], [2, 1, 1], [6.0, 2.0, 1.0])
    """
    _require(log, ("strength", "bid", "points"))
    bins = _strength_bins(log, width)
    table = _mean_interval(log.groupby([bins, log["bid"]])["points"]).reset_index()
    table.insert(1, "strength", (table["strength_low"] + (width - 1) / 2) / 4)
    return table


def best_bid_table(log: pd.DataFrame, width: int = 2, min_rounds: int = 20) -> pd.DataFrame:
    """For each hand-strength bin: the tricks won, and the bid with the most points.

    Parameters
    ----------
    log : DataFrame
        Columns ``strength`` (quarter tricks), ``bid``, ``tricks`` and
        ``points``; the bids should be independent of the hands (``random``
        policy), see :func:`bid_points_table`.
    width : int
        Quarter tricks per strength bin.
    min_rounds : int
        A bin is kept only if every bid seen in ``log`` has at least this many
        rounds in it, so the best bid is chosen among all of them.

    Returns
    -------
    DataFrame
        One row per kept bin: ``strength_low``, ``strength`` (centre, tricks),
        ``rounds``, ``tricks`` (mean), ``tricks_ci_low``, ``tricks_ci_high``,
        ``best_bid``, ``best_points`` (its mean points) with ``points_ci_low``
        and ``points_ci_high``, and ``bid_low`` / ``bid_high``: the smallest and
        largest bid whose mean points are not below the best at the 95% level
        (difference of the means within 1.96 standard errors).

    Examples
    --------
    >>> import pandas as pd
    >>> log = pd.DataFrame({"strength": [8] * 6, "bid": [1, 1, 2, 2, 3, 3], "tricks": [2] * 6,
    ...                     "points": [2, 2, 12, 12, 2, 2]})
    >>> best_bid_table(log, width=4, min_rounds=2)[["best_bid", "bid_low", "bid_high"]].values.tolist()
    [[2, 2, 2]]
    """
    _require(log, ("strength", "bid", "tricks", "points"))
    cells = bid_points_table(log, width)
    all_bids = np.sort(log["bid"].unique())
    tricks = _mean_interval(log.groupby(_strength_bins(log, width))["tricks"])
    rows = []
    for low, cell in cells.groupby("strength_low"):
        if len(cell) < all_bids.size or cell["rounds"].min() < min_rounds:
            continue
        best = cell.loc[cell["mean"].idxmax()]
        # a bid is as good as the best unless its mean is below by more than the 95% margin of the difference
        margin = stats.Z95 * np.sqrt(cell["se"] ** 2 + best["se"] ** 2)
        near = cell.loc[cell["mean"] + margin >= best["mean"], "bid"]
        rows.append({"strength_low": int(low), "strength": float(best["strength"]),
                     "rounds": int(tricks.loc[low, "rounds"]), "tricks": float(tricks.loc[low, "mean"]),
                     "tricks_ci_low": float(tricks.loc[low, "ci_low"]),
                     "tricks_ci_high": float(tricks.loc[low, "ci_high"]),
                     "best_bid": int(best["bid"]), "best_points": float(best["mean"]),
                     "points_ci_low": float(best["ci_low"]), "points_ci_high": float(best["ci_high"]),
                     "bid_low": int(near.min()), "bid_high": int(near.max())})
    columns = ["strength_low", "strength", "rounds", "tricks", "tricks_ci_low", "tricks_ci_high", "best_bid",
               "best_points", "points_ci_low", "points_ci_high", "bid_low", "bid_high"]
    return pd.DataFrame(rows, columns=columns)


def best_bid_by_strength(log: pd.DataFrame, ax=None, *, width: int = 2, min_rounds: int = 20,
                         title: str | None = None):
    """The best bid and the mean tricks won as functions of hand strength (:func:`best_bid_table`).

    Parameters
    ----------
    log : DataFrame
        Columns ``strength`` (quarter tricks), ``bid``, ``tricks`` and
        ``points``, with bids independent of the hands (``random`` policy).
    ax : matplotlib Axes, optional
    width, min_rounds : int
        Passed to :func:`best_bid_table`.

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    Blue points: mean tricks won with a 95% interval.  Red diamonds: the bid
    with the highest mean points; its bar spans the bids that are not worse
    at the 95% level, so a long bar means the data cannot tell those bids apart.

    Examples
    --------
    >>> import pandas as pd
    >>> log = pd.DataFrame({"strength": [8] * 4, "bid": [1, 1, 2, 2], "tricks": [2] * 4, "points": [2, 2, 12, 12]})
    >>> best_bid_by_strength(log, width=4, min_rounds=2).get_ylabel()
    'tricks won / bid'
    """
    table = best_bid_table(log, width, min_rounds)
    if table.empty:
        raise ValueError(f"min_rounds={min_rounds} is not allowed for this log: no strength bin has that many "
                         "rounds for every bid")
    ax = _axes(ax)
    x = table["strength"].to_numpy(float)
    tricks_error = _error_bars(table["tricks"], table["tricks_ci_low"], table["tricks_ci_high"])
    ax.errorbar(x, table["tricks"], yerr=tricks_error, fmt="o", color="#1f77b4", markersize=4, capsize=3,
                label="mean tricks won (95% CI)")
    ax.errorbar(x, table["best_bid"], yerr=_error_bars(table["best_bid"], table["bid_low"], table["bid_high"]),
                fmt="D", color=_SIM_COLOUR, markersize=4, capsize=3, alpha=0.8,
                label="bid with the most points (bar: bids not worse at 95%)")
    ax.set_xlabel("hand strength at the deal (tricks)")
    ax.set_ylabel("tricks won / bid")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8)
    return ax


def points_by_bid(log: pd.DataFrame, ax=None, *, width: int = 2, strengths=None, title: str | None = None):
    """Mean round points as a function of the bid, one curve per hand-strength bin, with 95% bands.

    Parameters
    ----------
    log : DataFrame
        Columns ``strength`` (quarter tricks), ``bid`` and ``points``, with bids
        independent of the hands (``random`` policy).
    ax : matplotlib Axes, optional
    width : int
        Quarter tricks per strength bin.
    strengths : sequence of int, optional
        Strengths (quarter tricks) whose bins are drawn; default the bins
        holding the 10%, 50% and 90% quantiles of ``log["strength"]``.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> log = pd.DataFrame({"strength": [8] * 4, "bid": [1, 1, 2, 2], "points": [2, 3, 12, 11]})
    >>> points_by_bid(log, width=4).get_xlabel()
    'bid'
    """
    cells = bid_points_table(log, width)
    if strengths is None:
        strengths = np.quantile(log["strength"].to_numpy(float), [0.1, 0.5, 0.9])
    lows = list(dict.fromkeys(int(s) // width * width for s in strengths))
    ax = _axes(ax)
    for low in lows:
        cell = cells[cells["strength_low"] == low]
        if cell.empty:
            raise ValueError(f"strengths={list(strengths)!r} is not allowed: "
                             f"no round of strength {low}..{low + width - 1}")
        label = f"strength {low / 4:g}–{(low + width) / 4:g} tricks"
        line, = ax.plot(cell["bid"], cell["mean"], marker="o", markersize=3, label=label)
        ax.fill_between(cell["bid"], cell["ci_low"], cell["ci_high"], color=line.get_color(), alpha=0.25)
    ax.set_xlabel("bid")
    ax.set_ylabel("mean points in the round")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8, title="band: 95% CI", title_fontsize=8)
    return ax
