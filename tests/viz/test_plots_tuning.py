"""The tuning plots (``plots.tuning_history``, ``tuning_importance``, ``tuning_result``; issue 17) draw the
numbers of the tuning they are given: read back from the artists, each value is the trial's distance, the
running best, the importance, or the metric and its interval ends measured on the fresh seed."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.container import ErrorbarContainer  # noqa: E402

from toolkit.analysis import tuning as tn  # noqa: E402
from toolkit.viz import plots  # noqa: E402


@pytest.fixture(scope="module")
def found():
    return tn.tune("valhalla", {"duration_turns": 320.0, "first_player_win_rate": 0.5},
                   {"stick_rune_up_probability": "0.2..0.5", "zero_runes_value": None,
                    "ships_per_player": "5..6"}, trials=14, n_games=800, seed=6, final_games=1000, progress=False)


def test_the_history_draws_every_distance_and_the_running_best(found):
    ax = plots.tuning_history(found)
    dots, best, rings = ax.get_lines()
    trials = found.trials[found.trials["state"] == "complete"]
    assert dots.get_xdata().tolist() == trials["trial"].tolist()
    assert np.allclose(dots.get_ydata(), trials["distance"])
    assert np.allclose(best.get_ydata(), np.minimum.accumulate(trials["distance"].to_numpy()))
    assert sorted(rings.get_xdata().tolist()) == sorted(found.finalists["trial"].tolist())
    assert best.get_ydata()[-1] == pytest.approx(trials["distance"].min())
    plt.close("all")


def test_the_importance_bars_are_the_importances(found):
    ax = plots.tuning_importance(found)
    importance = found.importance()
    drawn = {t.get_text(): p.get_width() for t, p in zip(ax.get_yticklabels(), ax.patches)}
    assert drawn == pytest.approx(importance)
    assert set(importance) == {"stick_rune_up_probability", "zero_runes_value", "ships_per_player"}
    assert sum(importance.values()) == pytest.approx(1.0)
    plt.close("all")


def test_the_result_panels_show_the_base_and_tuned_metrics_with_their_intervals(found):
    axes = plots.tuning_result(found)
    assert len(axes) == 2
    for ax, target in zip(axes, found.targets):
        bars = next(c for c in ax.containers if isinstance(c, ErrorbarContainer))
        line, _, (segments,) = bars.lines[0], bars.lines[1], bars.lines[2]
        ys = line.get_ydata()
        assert ys[0] == pytest.approx(found.base[target.metric]) and ys[1] == pytest.approx(found.best[target.metric])
        ends = [sorted(seg[:, 1]) for seg in segments.get_segments()]
        assert ends[0] == pytest.approx([found.base[target.metric + "_low"], found.base[target.metric + "_high"]])
        assert ends[1] == pytest.approx([found.best[target.metric + "_low"], found.best[target.metric + "_high"]])
        target_line = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"][0]
        assert target_line.get_ydata()[0] == target.value
    plt.close("all")


def test_the_figure_puts_the_three_views_side_by_side(found):
    figure = plots.tuning_figure(found)
    axes = figure.get_axes()
    assert len(axes) == 2 + len(found.targets)
    assert axes[0].get_ylabel() == "distance to the targets"
    assert axes[1].get_xlabel() == "importance (share of the variation)"
    assert [ax.get_ylabel() for ax in axes[2:]] == [t.metric.replace("_", " ") for t in found.targets]
    single = tn.tune("valhalla", {"duration_turns": 300.0}, {"zero_runes_value": [4, 5]}, trials=3, n_games=300,
                     final_games=300, progress=False)
    assert not plots.tuning_figure(single).get_axes()[1].axison  # one rule: no importance to share
    plt.close("all")
