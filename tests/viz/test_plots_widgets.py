"""Plots return a labelled Axes; the rules panel is generated from Rules and reruns on change."""

from __future__ import annotations

from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from toolkit.core.params import params_of  # noqa: E402
from toolkit.games.valhalla import odds  # noqa: E402
from toolkit.games.valhalla.rules import Rules  # noqa: E402
from toolkit.viz import plots, widgets  # noqa: E402

pytest.importorskip("ipywidgets")


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def games():
    return toolkit.simulate("valhalla", n_games=500, seed=3, progress=False)


@pytest.fixture(scope="module")
def summary():
    return toolkit.simulate("valhalla", n_games=500, seed=3, keep="summary", progress=False)


def _labelled(ax):
    assert isinstance(ax, matplotlib.axes.Axes)
    assert ax.get_xlabel() and ax.get_ylabel()
    return ax


# ------------------------------------------------------------------ plots


def test_win_rates_bar_from_frame_and_summary(games, summary):
    ax = _labelled(plots.win_rates_bar(toolkit.win_rates(games)))
    assert len(ax.patches) == 2  # one bar per seat
    assert any(np.allclose(line.get_ydata(), 0.5) for line in ax.get_lines())  # the fair line
    assert ax.collections, "error bars expected"
    _labelled(plots.win_rates_bar(summary.win_rates()))


def test_plots_draw_on_the_given_axes(games):
    fig, ax = plt.subplots()
    assert plots.win_rates_bar(toolkit.win_rates(games), ax=ax) is ax
    assert plots.length_histogram(games, ax=ax) is ax
    assert len(fig.axes) == 1


def _stairs(ax):
    """(heights, edges) of the histogram's outline (the first stairs drawn)."""
    heights, edges, _ = ax.patches[0].get_data()
    return heights, edges


def test_length_histogram_same_for_frame_and_summary(games, summary):
    a = _labelled(plots.length_histogram(games, "turns"))
    b = _labelled(plots.length_histogram(summary, "turns"))
    assert a.get_xlabel() == "turns"
    for drawn_a, drawn_b in zip(_stairs(a), _stairs(b)):
        assert np.allclose(drawn_a, drawn_b)
    assert a.get_legend_handles_labels()[1] == b.get_legend_handles_labels()[1]  # same mean and median


def test_length_histogram_bins_keep_the_total_share(games):
    ax = plots.length_histogram(games, "turns", bin_width=10)
    heights, edges = _stairs(ax)
    assert np.all(np.diff(edges) == 10)
    assert abs(heights.sum() * 10 - 1) < 1e-9
    assert "10-wide" in ax.get_ylabel()
    with pytest.raises(ValueError, match="bin_width"):
        plots.length_histogram(games, "turns", bin_width=-1)


def test_odds_vs_simulated_counts_and_raw_values():
    rules = Rules()
    exact = odds.value_distribution(rules)
    counts = {v: int(p * 1600) for v, p in exact.items()}
    ax = _labelled(plots.odds_vs_simulated(exact, counts))
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(v) for v in exact]
    raw = np.repeat(list(counts), list(counts.values()))
    ax2 = plots.odds_vs_simulated(exact, raw)
    assert np.allclose(ax.patches[0].get_height(), float(exact[0]))
    assert [p.get_height() for p in ax.patches] == [p.get_height() for p in ax2.patches]


def test_odds_vs_simulated_shows_values_missing_from_one_side():
    ax = plots.odds_vs_simulated({1: Fraction(1, 2), 2: Fraction(1, 2)}, {1: 10, 3: 5})
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3"]


def test_comparison_matrix_plain_table():
    names = ["random", "greedy"]
    table = pd.DataFrame([[0.5, 0.1], [0.9, 0.5]], index=names, columns=names)
    ax = _labelled(plots.comparison_matrix(table))
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["0.500", "0.100", "0.900", "0.500"]


def test_comparison_matrix_of_a_tournament():
    from toolkit.analysis.tournament import matrix

    table = toolkit.compare("valhalla", ["random", "greedy"], n_games=100, seed=1, progress=False)
    ax = _labelled(plots.comparison_matrix(matrix(table)))
    assert len(ax.texts) == 4 and all("[" in t.get_text() for t in ax.texts)  # rate and interval
    assert [t.get_text() for t in ax.get_yticklabels()] == ["random", "greedy"]


# ------------------------------------------------------------------ widgets


def test_panel_has_one_widget_per_rules_field():
    panel = widgets.rules_panel("valhalla", lambda rules: None, refresh=False)
    assert list(panel.widgets) == list(params_of(Rules))
    assert panel.rules() == Rules()
    assert list(panel.preset.options) == list(Rules.PRESETS)


def test_changing_a_widget_reruns_with_the_new_rules():
    seen = []
    panel = widgets.rules_panel("valhalla", seen.append, refresh=False)
    panel.widgets["throw_mode"].value = "simplified"
    assert seen[-1] == Rules(throw_mode="simplified")
    panel.widgets["safe_squares"].value = (1, 2, 3)  # a grid of checkboxes for a set
    assert seen[-1].safe_squares == frozenset({1, 2, 3})
    assert len(seen) == 2 and panel.runs == 2 and panel.last_error is None


def test_preset_resets_every_widget_and_reruns_once():
    seen = []
    panel = widgets.rules_panel("valhalla", seen.append, refresh=False)
    panel.widgets["ships_per_player"].value = 3
    panel.set_preset("alternative")
    assert seen[-1] == Rules.preset("alternative")
    assert len(seen) == 2
    assert "alternative" in panel.status.value


def test_bad_value_shows_message_instead_of_raising():
    seen = []
    panel = widgets.rules_panel("valhalla", seen.append, refresh=False)
    panel.widgets["safe_squares"].value = (1, 2, 99)  # no checkbox for 99: kept, and refused
    assert "safe_squares" in panel.last_error and "not allowed" in panel.last_error
    assert "not allowed" in panel.messages["safe_squares"].value  # at its field (issue 36, point 3)
    assert "see the message under <b>Squares whose ships cannot be attacked</b>" in panel.status.value
    panel.widgets["stick_rune_up_probability"].value = 0.0  # open interval: refused
    assert "stick_rune_up_probability" in panel.last_error
    assert seen == []
    with pytest.raises(ValueError):
        panel.rules()


def test_bad_combination_and_errors_from_run_are_shown():
    def run(rules):
        raise ValueError("policies='x' is not allowed")

    panel = widgets.rules_panel("valhalla", run, refresh=False)
    panel.set_preset("alternative")
    assert "not allowed" in panel.last_error
    panel.auto = False
    panel.widgets["rock_square"].value = 10  # with alternating blocks the rock must be beyond 13
    assert panel.refresh() is None
    assert "rock_square" in panel.last_error


def test_n_games_is_passed_when_run_accepts_it():
    seen = []
    panel = widgets.rules_panel("valhalla", lambda rules, n_games: seen.append(n_games), n_games=123)
    assert seen == [123]
    panel.n_games.value = 456
    assert seen == [123, 456]


def test_panel_runs_simulations_without_recompiling():
    run = widgets.summary_run("valhalla", seed=1)
    panel = widgets.rules_panel("valhalla", run, n_games=200)
    assert isinstance(panel.last_result, matplotlib.figure.Figure)
    signatures = len(toolkit.GAMES["valhalla"].play_many.signatures)
    panel.widgets["extra_throw_enabled"].value = True
    panel.widgets["zero_runes_value"].value = 6
    panel.set_preset("alternative")
    assert panel.last_error is None and panel.runs == 4
    assert len(toolkit.GAMES["valhalla"].play_many.signatures) == signatures


def test_rules_panel_player_count_defaults_follow_num_players():
    """Attila's 2-player gap rule (a ByPlayers default) turns on at 2 players and off again, as
    ``Rules.replace`` does; a value the user set by hand is left alone."""
    calls = []
    panel = widgets.rules_panel("attila", calls.append, refresh=False)
    gap = panel.widgets["two_player_second_place_gap"]
    panel.widgets["num_players"].value = 2
    assert calls[-1].num_players == 2 and calls[-1].two_player_second_place_gap == 2
    panel.widgets["num_players"].value = 3
    assert calls[-1].two_player_second_place_gap is None
    panel.widgets["num_players"].value = 2
    gap.value = "5"
    assert calls[-1].two_player_second_place_gap == 5
    panel.widgets["num_players"].value = 4
    assert calls[-1].two_player_second_place_gap == 5  # set by hand: kept
