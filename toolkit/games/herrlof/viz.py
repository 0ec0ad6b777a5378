"""Herrlof's plots of bids, tricks, points and hand strength: an ``Axes`` in, the same ``Axes`` out.

They read the per-round log of :func:`toolkit.games.herrlof.round_log` (columns
``bid``, ``tricks``, ``points`` and ``strength``, one row per round and seat),
and follow :mod:`toolkit.core.drawing`: ``ax=None`` makes a figure, ``plt.show()``
is never called, axes are labelled, and every estimate has its 95% interval.
:func:`bid_points_table` and :func:`best_bid_table` are the tables two of the
plots draw.

:func:`draw` is the picture of one position (``toolkit.games.herrlof.view.position``):
both hands, the trick on the table, the indicator and trump, the stock, and
each seat's bid, tricks, score and exact bids.

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
from matplotlib.patches import Rectangle

from toolkit.core import stats
from toolkit.games.herrlof.view import DECISIONS, SUIT_LETTERS
from toolkit.core import drawing


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
    drawing.require_columns(log, ("bid", "tricks"))
    ax = drawing.axes(ax)
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
                yerr=drawing.error_bars(means["mean"], means["ci_low"], means["ci_high"]), fmt="o", color="black",
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
    drawing.require_columns(log, ("strength", "bid", "points"))
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
    drawing.require_columns(log, ("strength", "bid", "tricks", "points"))
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
    ax = drawing.axes(ax)
    x = table["strength"].to_numpy(float)
    tricks_error = drawing.error_bars(table["tricks"], table["tricks_ci_low"], table["tricks_ci_high"])
    ax.errorbar(x, table["tricks"], yerr=tricks_error, fmt="o", color="#1f77b4", markersize=4, capsize=3,
                label="mean tricks won (95% CI)")
    ax.errorbar(x, table["best_bid"], yerr=drawing.error_bars(table["best_bid"], table["bid_low"], table["bid_high"]),
                fmt="D", color=drawing.SIM_COLOUR, markersize=4, capsize=3, alpha=0.8,
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
    ax = drawing.axes(ax)
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


# ---------------------------------------------------------------------- the picture of a position

SUIT_COLOURS = ("#c0392b", "#1e8449", "#2e6fd0", "#b7950b")  # suits a..d
SPECIAL_COLOURS = ("#6c3483", "#444444")  # Valknut, Hagalaz
BACK_COLOUR = "#7b4a2e"
CARD_W, CARD_H = 0.6, 0.9  # data units; the axes span 16 x 9 at a 10 x 5.6 inch figure, so a unit is square
HAND_X, HAND_SPAN = 0.4, 10.8  # where a hand starts, and the width it may fill
ROW_Y = (0.45, 7.55)  # bottom of seat 0's and seat 1's hand rows
PANEL_X = 11.8


def _card(ax, x, y, name, colour, gid, face_up=True):
    """One card: a rectangle (its ``gid`` carries the game value) and, face up, its name."""
    rect = Rectangle((x, y), CARD_W, CARD_H, facecolor="white" if face_up else BACK_COLOUR,
                     edgecolor=colour if face_up else "black", linewidth=1.2, hatch=None if face_up else "xx")
    rect.set_gid(gid)
    ax.add_artist(rect)  # not add_patch: the limits are fixed, and updating them was a third of the time
    if face_up:
        ax.text(x + CARD_W / 2, y + CARD_H / 2, name, ha="center", va="center", fontsize=9, color=colour,
                fontweight="bold")
    return rect


def _colour(position, face):
    suited = position.suits * position.max_rank
    return SPECIAL_COLOURS[face - suited] if face >= suited else SUIT_COLOURS[face // position.max_rank]


def _text(ax, x, y, text, gid, **kwargs):
    artist = ax.text(x, y, text, fontsize=8.5, va="center", **kwargs)
    artist.set_gid(gid)
    return artist


def draw(position, seat=None, ax=None):
    """Draw a Herrlof position (from ``view.position``) as ``seat`` sees it; return the Axes.

    Parameters
    ----------
    position : view.Position
    seat : {None, 0, 1}
        None: every card face up ("open cards", said in the title).  A seat:
        the other hand as card backs, the other bid as "secret" until the round
        is scored (R-2.4), the other 3-discards as a count.  The stock is
        always a face-down pile with its count.
    ax : matplotlib Axes, optional
        A new 10 x 5.6 inch figure when None.

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    Seat 0's hand is the bottom row, seat 1's the top row; the trick, the
    indicator and the stock lie between them, each seat's numbers on the
    right.  Artists carrying a game value have a ``gid``:

    - ``card-s-f``: a face-up card f (a face) in seat s's hand; ``back-s``: a face-down one;
    - ``trick-s-f``: the card f seat s played to the trick; ``trick-result-w``: its end, w the
      winner or -1 for destroyed;
    - ``indicator-f``; ``trump-t``: the trump suit t, -1 for none;
    - ``stock-n``, ``discard-n``: the piles' sizes;
    - ``taken-f``: at DP-7, the card f the 6 took (both seats know it);
    - ``bid-s-b``: seat s's bid b, ``secret`` or ``none`` (not yet made);
    - ``tricks-s-n``, ``score-s-n``, ``exact-s-n``: tricks taken, score, exact bids;
    - ``buried-s``: seat s's 3-discards (their names, or a count); ``turn-s``: seat s decides.

    Examples
    --------
    >>> from toolkit.core.protocol import first_decision
    >>> from toolkit.games.herrlof import view
    >>> ax = draw(view.position(*first_decision("herrlof", seed=7)), seat=0)
    >>> sum(p.get_gid() == "back-1" for p in ax.patches)
    15
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    if seat not in (None, 0, 1):
        raise ValueError(f"seat={seat!r} is not allowed: None, 0 or 1")
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(10, 5.6))
    pos = position
    ax.set_xlim(0, 16)
    ax.set_ylim(0, 9)
    ax.set_axis_off()
    for s in (0, 1):
        shown = seat is None or seat == s
        hand, y = pos.hands[s], ROW_Y[s]
        step = min(CARD_W + 0.06, (HAND_SPAN - CARD_W) / max(len(hand) - 1, 1))  # overlap a long hand
        for i, face in enumerate(hand):
            x = HAND_X + i * step
            if shown:
                _card(ax, x, y, pos.name(face), _colour(pos, face), f"card-{s}-{face}")
            else:
                _card(ax, x, y, "", "black", f"back-{s}", face_up=False)
        label_y = y + CARD_H + 0.3 if s == 0 else y - 0.3
        roles = ", dealer" if s == pos.dealer else ""
        _text(ax, HAND_X, label_y, f"seat {s}{roles}: {len(hand)} card{'s' * (len(hand) != 1)}", f"seat-{s}",
              fontweight="bold" if s == pos.seat else "normal")
        if s == pos.seat:
            _text(ax, HAND_X + 4.4, label_y, f"▶ to decide: {DECISIONS[pos.kind]}", f"turn-{s}", color="#c0392b")
        _panel(ax, pos, s, shown)
    # the middle: indicator and trump, the stock, the trick, the discard
    mid = 3.9
    _card(ax, 0.6, mid, pos.name(pos.indicator), _colour(pos, pos.indicator), f"indicator-{pos.indicator}")
    _text(ax, 0.6, mid + CARD_H + 0.25, "indicator", "indicator-label")
    trump = "no trump" if pos.trump < 0 else f"trump: suit {SUIT_LETTERS[pos.trump]}"
    _text(ax, 0.6, mid - 0.3, trump, f"trump-{pos.trump}")
    _card(ax, 1.9, mid, "", "black", f"stock-{len(pos.stock)}", face_up=False)
    _text(ax, 1.9, mid + CARD_H + 0.25, f"stock {len(pos.stock)}", "stock-label")
    _text(ax, 3.4, mid + CARD_H + 0.25, "trick", "trick-label")
    for i, face in enumerate(pos.trick):
        s = pos.trick_leader if i == 0 else 1 - pos.trick_leader
        _card(ax, 3.4 + 1.4 * i, mid, pos.name(face), _colour(pos, face), f"trick-{s}-{face}")
        _text(ax, 3.4 + 1.4 * i, mid - 0.3, f"seat {s}" + (" led" if i == 0 else ""), f"played-by-{s}")
    if pos.trick_winner != -2:
        result = "destroyed" if pos.trick_winner == -1 else f"won by seat {pos.trick_winner}"
        _text(ax, 3.4, mid - 0.75, result, f"trick-result-{pos.trick_winner}")
    _text(ax, 6.9, mid + 0.6, f"discard: {len(pos.discard)} face up", f"discard-{len(pos.discard)}")
    if pos.taken >= 0:  # the taker saw it and the loser knows what it lost
        _text(ax, 6.9, mid + 0.1, f"the 6 took {pos.name(pos.taken)}", f"taken-{pos.taken}")
    ax.set_title(_title(pos, seat), fontsize=10)
    return ax


def _panel(ax, pos, s, shown):
    """Seat ``s``'s numbers on the right: score, bid, tricks taken, exact bids, 3-discards."""
    top = 8.3 if s == 1 else 3.0
    bid = pos.bids[s]
    if bid < 0:
        bid_text, bid_gid = "bid: not yet made", "none"
    elif shown or pos.over:  # bids are revealed at scoring
        bid_text, bid_gid = f"bid: {bid}", bid
    else:
        bid_text, bid_gid = "bid: secret", "secret"
    buried = pos.buried[s]
    buried_text = " ".join(pos.name(f) for f in buried) if shown else f"{len(buried)} face down"
    lines = ((f"seat {s}", f"panel-{s}"), (f"score: {pos.scores[s]}", f"score-{s}-{pos.scores[s]}"),
             (bid_text, f"bid-{s}-{bid_gid}"), (f"tricks: {len(pos.won[s])}", f"tricks-{s}-{len(pos.won[s])}"),
             (f"exact bids: {pos.exact_bids[s]}", f"exact-{s}-{pos.exact_bids[s]}"),
             (f"3-discards: {buried_text or 'none'}", f"buried-{s}"))
    if pos.over:  # the last round's points, now that its bids are shown
        lines += ((f"last round: {pos.round_points[s]} points", f"round-points-{s}-{pos.round_points[s]}"),)
    for k, (text, gid) in enumerate(lines):
        _text(ax, PANEL_X, top - 0.42 * k, text, gid, fontweight="bold" if k == 0 else "normal")


def _title(pos, seat) -> str:
    if pos.over:
        outcome = "a draw" if pos.winner < 0 else f"seat {pos.winner} wins"
        first = f"Herrlof, game over after round {pos.round_no}: {outcome}"
    else:
        trick = pos.tricks_played + (len(pos.trick) < 2)  # the trick in play, or the one whose effects run
        stage = "bidding" if pos.kind == 1 else f"trick {min(trick, pos.hand_size)} of {pos.hand_size}"
        first = f"Herrlof, round {pos.round_no} (of at most {pos.max_rounds}), {stage}"
    view = "open cards: every hand shown" if seat is None else f"seat {seat}'s view: the other hand face down"
    return f"{first}\n{view}"
