"""The Herrlof plots (``toolkit.games.herrlof.viz``): bids against tricks, the best bid by hand strength.

Hand-built logs pin the numbers; one small ``round_log`` checks the plots on real output.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from toolkit.core import stats  # noqa: E402
from toolkit.games.herrlof import round_log, viz  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def log():
    return round_log(n_games=300, seed=5, policies=("random", "random"))


def _labelled(ax):
    assert isinstance(ax, matplotlib.axes.Axes)
    assert ax.get_xlabel() and ax.get_ylabel()
    return ax


def _uniform_bid_log(best: int, strength: int = 8, per_bid: int = 10, bids: int = 4) -> pd.DataFrame:
    """Every bid 0..bids-1 made ``per_bid`` times; bid ``best`` scores 10 more than the others."""
    rows = []
    for bid in range(bids):
        for k in range(per_bid):
            points = 2 + (k % 2) + (10 if bid == best else 0)
            rows.append({"strength": strength, "bid": bid, "tricks": 2, "points": points})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ bid_tricks_heatmap


def test_heatmap_columns_are_shares_per_bid():
    small = pd.DataFrame({"bid": [0, 0, 0, 2], "tricks": [0, 1, 1, 2]})
    ax = _labelled(viz.bid_tricks_heatmap(small, hand_size=3))
    share = ax.images[0].get_array()
    assert share.shape == (4, 4)
    assert np.allclose(share[:, 0], [1 / 3, 2 / 3, 0, 0])
    assert share.mask[:, 1].all() and share.mask[:, 3].all()  # bids nobody made stay blank
    assert np.allclose(share[:, 2], [0, 0, 1, 0])
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("bid", "tricks won")


def test_heatmap_legend_gives_the_exact_bid_rate_with_its_interval():
    small = pd.DataFrame({"bid": [1, 1, 2, 2], "tricks": [1, 0, 2, 2]})
    ax = viz.bid_tricks_heatmap(small)
    rate, low, high = stats.wilson(3, 4)
    labels = ax.get_legend_handles_labels()[1]
    assert f"tricks = bid: {rate:.1%} [{low:.1%}, {high:.1%}] of 4 rounds" in labels
    assert "mean tricks won (95% CI)" in labels


def test_heatmap_mean_points_and_error_bars(log):
    rows = log[log["seat"] == 0]
    ax = _labelled(viz.bid_tricks_heatmap(rows, hand_size=15, title="t"))
    means = rows.groupby("bid")["tricks"].mean()
    x, y = ax.containers[0].lines[0].get_data()  # the markers of the first error bar
    assert np.allclose(x, means.index) and np.allclose(y, means.to_numpy())
    assert ax.collections, "error bars expected"
    assert ax.get_title() == "t"


def test_heatmap_colour_scale_ignores_rare_bids():
    common = pd.DataFrame({"bid": [5] * 200, "tricks": [4, 5, 6, 7] * 50})
    rare = pd.DataFrame({"bid": [9], "tricks": [9]})  # a single round: a column of 0 and 1
    ax = viz.bid_tricks_heatmap(pd.concat([common, rare]))
    assert ax.images[0].get_clim() == (0.0, 0.25)


def test_heatmap_rejects_bad_input():
    with pytest.raises(ValueError, match="lacks the column"):
        viz.bid_tricks_heatmap(pd.DataFrame({"bid": [1]}))
    with pytest.raises(ValueError, match="hand_size"):
        viz.bid_tricks_heatmap(pd.DataFrame({"bid": [4], "tricks": [1]}), hand_size=3)
    with pytest.raises(ValueError, match="no rows"):
        viz.bid_tricks_heatmap(pd.DataFrame({"bid": [], "tricks": []}))


# ------------------------------------------------------------------ best bid by strength


def test_bid_points_table_bins_and_intervals():
    small = pd.DataFrame({"strength": [4, 5, 4, 4, 9], "bid": [1, 1, 1, 2, 1], "points": [1, 3, 5, 2, 1]})
    table = viz.bid_points_table(small, width=4)
    first = table.iloc[0]
    assert (first["strength_low"], first["bid"], first["rounds"]) == (4, 1, 3)
    assert first["strength"] == pytest.approx((4 + 1.5) / 4)
    mean, se = stats.mean_se([1, 3, 5])
    assert first["mean"] == pytest.approx(mean) and first["se"] == pytest.approx(se)
    assert first["ci_high"] - first["ci_low"] == pytest.approx(2 * stats.Z95 * se)
    with pytest.raises(ValueError, match="width"):
        viz.bid_points_table(small, width=0)


def test_best_bid_is_the_argmax_and_its_range_holds_close_bids():
    table = viz.best_bid_table(_uniform_bid_log(best=2), width=4, min_rounds=10)
    assert table[["best_bid", "bid_low", "bid_high"]].values.tolist() == [[2, 2, 2]]
    tied = _uniform_bid_log(best=2)
    tied.loc[tied["bid"] == 3, "points"] += 10  # bid 3 now scores like bid 2
    row = viz.best_bid_table(tied, width=4, min_rounds=10).iloc[0]
    assert {row["best_bid"], row["bid_low"], row["bid_high"]} == {2, 3}


def test_best_bid_skips_bins_missing_a_bid_or_rounds():
    full = _uniform_bid_log(best=1, strength=8)
    sparse = _uniform_bid_log(best=1, strength=20, per_bid=2)
    gap = _uniform_bid_log(best=1, strength=40)
    gap = gap[gap["bid"] != 3]
    table = viz.best_bid_table(pd.concat([full, sparse, gap]), width=4, min_rounds=5)
    assert table["strength_low"].tolist() == [8]


def test_best_bid_by_strength_draws_tricks_and_best_bids(log):
    ax = _labelled(viz.best_bid_by_strength(log, width=4, min_rounds=3))
    table = viz.best_bid_table(log, width=4, min_rounds=3)
    tricks, best = (container.lines[0].get_ydata() for container in ax.containers)
    assert np.allclose(tricks.astype(float), table["tricks"])
    assert np.array_equal(best.astype(float), table["best_bid"])
    assert len(ax.collections) >= 2  # two sets of error bars
    with pytest.raises(ValueError, match="min_rounds"):
        viz.best_bid_by_strength(log, width=4, min_rounds=10**6)


def test_points_by_bid_one_curve_per_strength_bin(log):
    ax = _labelled(viz.points_by_bid(log, width=4, strengths=[8, 9, 20]))
    assert len(ax.lines) == 2  # 8 and 9 share a bin
    cells = viz.bid_points_table(log, width=4)
    first = cells[cells["strength_low"] == 8]
    assert np.allclose(ax.lines[0].get_ydata(), first["mean"])
    assert len(ax.collections) == 2  # one 95% band each
    _labelled(viz.points_by_bid(log))  # default: three quantile bins
    with pytest.raises(ValueError, match="no round of strength"):
        viz.points_by_bid(log, strengths=[400])

