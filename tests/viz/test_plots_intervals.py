"""The generic interval plots: ``interval_plot`` (a forest plot) and ``means_bar`` (grouped means)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from toolkit.viz import plots  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _labelled(ax):
    assert isinstance(ax, matplotlib.axes.Axes)
    assert ax.get_xlabel() and ax.get_ylabel()
    return ax


# ------------------------------------------------------------------ interval_plot and means_bar


def test_interval_plot_rows_top_down_with_written_values():
    table = pd.DataFrame({"label": ["a", "b"], "difference": [1.0, -0.5], "ci_low": [0.5, -1.0],
                          "ci_high": [1.5, 0.0]})
    ax = _labelled(plots.interval_plot(table, xlabel="on - off"))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    assert ax.get_yticks().tolist() == [1, 0]
    assert [t.get_text() for t in ax.texts] == ["1.00 [0.50, 1.50]", "-0.50 [-1.00, 0.00]"]
    assert ax.get_xlabel() == "on - off"
    assert any(np.allclose(line.get_xdata(), 0.0) for line in ax.get_lines())  # the reference line
    with pytest.raises(ValueError, match="lacks the column"):
        plots.interval_plot(table.drop(columns="ci_low"))


def test_means_bar_groups_and_hues():
    table = pd.DataFrame({"quantity": ["a", "a", "b", "b"], "policy": ["p", "q", "p", "q"],
                          "mean": [1.0, 2.0, 0.5, 0.2], "ci_low": [0.9, 1.8, 0.4, 0.1],
                          "ci_high": [1.1, 2.2, 0.6, 0.3]})
    fig, ax = plt.subplots()
    assert plots.means_bar(table, ax=ax, hue="policy") is ax
    _labelled(ax)
    heights = [p.get_height() for p in ax.patches]
    assert heights == [1.0, 0.5, 2.0, 0.2]  # hue p over both groups, then hue q
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"]
    assert ax.get_legend_handles_labels()[1] == ["p", "q"]
    single = plots.means_bar(table[table["policy"] == "p"])
    assert len(single.patches) == 2 and single.get_legend() is None


@pytest.mark.parametrize("rates", [(0.93, 0.07), (0.5, 0.5), (0.31, 0.27, 0.22, 0.2)])
def test_seat_bars_labels_and_legend_stay_clear_of_each_other_and_the_title(rates):
    """Issue 36, point 10: a lopsided bar's label ran into the title (the axis stopped at 1) and the legend
    covered the tall bar.  Every label lies inside the axes, below the title, and the legend touches no bar,
    whisker or label; the y ticks stop at 1."""
    import matplotlib.pyplot as plt

    from toolkit.viz.plots import seat_advantage_bar

    n = len(rates)
    rows = []
    for by in ("seat", "place"):
        for i, r in enumerate(rates):
            rows.append({"by": by, "index": i, "win_rate": r, "ci_low": max(r - 0.03, 0), "ci_high": min(r + 0.03, 1),
                         "fair": 1 / n})
    fig, ax = plt.subplots(figsize=(5, 3.8))
    seat_advantage_bar(pd.DataFrame(rows), ax=ax, title="win rate by seat and by place")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box, title = ax.get_window_extent(renderer), ax.title.get_window_extent(renderer)
    legend = ax.get_legend().get_window_extent(renderer)
    labels = [t.get_window_extent(renderer) for t in ax.texts]
    bars = [p.get_window_extent(renderer) for p in ax.patches]
    assert len(labels) == 2 * n
    for label in labels:
        assert label.y1 <= box.y1 and label.y1 <= title.y0
        assert not label.overlaps(legend)
    assert not any(bar.overlaps(legend) for bar in bars)
    assert max(ax.get_yticks()) <= 1.0
    plt.close(fig)
