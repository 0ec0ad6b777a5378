"""Design metrics on small hand-built result tables with known answers, and on real runs."""

import numpy as np
import pandas as pd
import pytest

from toolkit.analysis import metrics
from toolkit.core.runner import simulate
from toolkit.games import GAMES


def _frame(game, rows):
    df = pd.DataFrame(rows)
    df.attrs["game"] = game
    return df


# Valhalla, 4 games: start_seat is the first mover; result 1 = aborted (max_turns)
VALHALLA_GAMES = [
    dict(winner=0, win_0=1, win_1=0, result=0, start_seat=0, turns=10, plies=8, decisions=8, options=16,
         lead_changes=1, decisive_turn=5),
    dict(winner=1, win_0=0, win_1=1, result=0, start_seat=0, turns=20, plies=18, decisions=10, options=30,
         lead_changes=3, decisive_turn=20),
    dict(winner=0, win_0=1, win_1=0, result=0, start_seat=1, turns=30, plies=25, decisions=12, options=24,
         lead_changes=0, decisive_turn=3),
    dict(winner=-1, win_0=0, win_1=0, result=1, start_seat=1, turns=40, plies=33, decisions=20, options=20,
         lead_changes=4, decisive_turn=0),
]


def test_known_answers_on_a_hand_built_table():
    m = metrics.design_metrics(_frame("valhalla", VALHALLA_GAMES))["value"]
    assert m["games"] == 4
    assert m["completion"] == pytest.approx(3 / 4)
    assert m["drawishness"] == pytest.approx(0.0)  # the only game without a winner was aborted
    # first movers: game 0 seat 0 won (place 0); game 1 seat 1 won (place 1); game 2 seat 0 won after seat 1
    # started (place 1): places win 1/4 and 2/4
    assert m["first_player_win_rate"] == pytest.approx(1 / 4)
    assert m["balance"] == pytest.approx(1 - (2 / 4 - 1 / 4))
    assert m["first_player_advantage"] == pytest.approx(1 / 4 - 3 / 8)
    assert m["seat_balance"] == pytest.approx(1 - (2 / 4 - 1 / 4))
    assert m["duration_turns"] == pytest.approx(25.0)
    assert m["duration_plies"] == pytest.approx(21.0)
    assert m["decisions"] == pytest.approx(12.5)
    assert m["branching_factor"] == pytest.approx(90 / 50)
    assert m["lead_changes"] == pytest.approx(2.0)
    assert m["decisiveness_turns"] == pytest.approx((5 + 20 + 3) / 3)
    assert m["decisiveness"] == pytest.approx((5 / 10 + 20 / 20 + 3 / 30) / 3)


def test_a_mean_interval_is_the_normal_one_by_hand():
    """duration_turns of 10, 20, 30, 40: mean 25, sample sd sqrt(500 / 3), so the 95% interval is
    25 -/+ 1.959964 * sqrt(500 / 3) / 2 (about 12.65) on both sides."""
    m = metrics.design_metrics(_frame("valhalla", VALHALLA_GAMES))
    half = 1.959964 * (500 / 3) ** 0.5 / 2
    assert m.loc["duration_turns", "ci_low"] == pytest.approx(25 - half, abs=1e-4)
    assert m.loc["duration_turns", "ci_high"] == pytest.approx(25 + half, abs=1e-4)


def test_intervals_contain_the_value_and_shrink_with_more_games():
    small = metrics.design_metrics(_frame("valhalla", VALHALLA_GAMES))
    big = metrics.design_metrics(_frame("valhalla", VALHALLA_GAMES * 25))
    for name in ("completion", "duration_turns", "branching_factor", "lead_changes", "decisiveness"):
        for table in (small, big):
            assert table.loc[name, "ci_low"] <= table.loc[name, "value"] <= table.loc[name, "ci_high"], name
        assert (big.loc[name, "ci_high"] - big.loc[name, "ci_low"]
                < small.loc[name, "ci_high"] - small.loc[name, "ci_low"]), name
    # the same games repeated: the same point estimates
    pd.testing.assert_series_equal(small["value"].drop("games"), big["value"].drop("games"))


def test_branching_factor_interval_is_zero_width_for_a_constant_ratio():
    rows = [dict(VALHALLA_GAMES[0], decisions=d, options=3 * d) for d in (2, 5, 9)]
    m = metrics.design_metrics(_frame("valhalla", rows))
    assert m.loc["branching_factor", "value"] == pytest.approx(3.0)
    assert m.loc["branching_factor", "ci_high"] - m.loc["branching_factor", "ci_low"] == pytest.approx(0, abs=1e-9)


def test_shared_wins_are_drawish_and_count_for_every_tied_seat():
    # Attila, 3 seats: game 0 seat 1 wins alone (start 1: place 0); game 1 seats 0 and 2 share (start 0:
    # places 0 and 2); game 2 seat 2 wins (start 0: place 2)
    base = dict(n_winners=1, result=0, turns=6, plies=6, decisions=6, options=12, lead_changes=0, decisive_turn=2)
    rows = [dict(base, winner=1, win_0=0, win_1=1, win_2=0, start_player=1),
            dict(base, winner=-1, n_winners=2, win_0=1, win_1=0, win_2=1, result=1, start_player=0, decisive_turn=0),
            dict(base, winner=2, win_0=0, win_1=0, win_2=1, start_player=0)]
    df = _frame("attila", rows)
    s = metrics.as_summary(df)
    assert s.seats == 3
    assert s.position_wins.tolist() == [2, 0, 2]
    m = metrics.design_metrics(df)["value"]
    assert m["drawishness"] == pytest.approx(1 / 3)
    assert m["first_player_win_rate"] == pytest.approx(2 / 3)
    assert m["balance"] == pytest.approx(1 - 2 / 3)
    assert m["decisiveness_turns"] == pytest.approx(2.0)  # over the two games with a sole winner
    adv = metrics.seat_advantage(df)
    assert adv.query("by == 'seat'")["wins"].tolist() == [1, 1, 2]
    assert adv.query("by == 'place'")["wins"].tolist() == [2, 0, 2]
    assert adv["fair"].eq(1 / 3).all()


def test_metrics_row_flattens_values_and_bounds():
    row = metrics.metrics_row(_frame("valhalla", VALHALLA_GAMES))
    assert row["completion"] == pytest.approx(0.75)
    assert row["completion_low"] < 0.75 < row["completion_high"]
    assert "balance_low" not in row  # no interval defined for balance


def test_frame_and_summary_of_the_same_run_agree():
    df = simulate("valhalla", n_games=3000, seed=4, progress=False)
    s = simulate("valhalla", n_games=3000, seed=4, progress=False, keep="summary")
    pd.testing.assert_frame_equal(metrics.design_metrics(df), metrics.design_metrics(s))


def test_bad_input_names_what_is_allowed():
    with pytest.raises(ValueError, match="Summary or a result frame"):
        metrics.design_metrics(pd.DataFrame({"winner": [0]}))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_reports_every_metric(game):
    s = simulate(game, n_games=300, seed=1, progress=False, keep="summary")
    m = metrics.design_metrics(s)
    for name in ("completion", "drawishness", "balance", "first_player_win_rate", "duration_turns",
                 "duration_plies", "decisions", "branching_factor", "lead_changes", "decisiveness_turns",
                 "decisiveness"):
        assert name in m.index, (game, name)
        assert np.isfinite(m.loc[name, "value"]), (game, name)
    assert m.loc["branching_factor", "value"] >= 1
    assert 0 < m.loc["decisiveness", "value"] <= 1


def test_skill_gap_and_luck_on_valhalla():
    gap = metrics.skill_gap("valhalla", n_games=400, seed=3, skilled="greedy")
    assert gap["games"] == 800 and gap["fair"] == 0.5
    assert gap["skill_gap_low"] > 0.2  # greedy beats random by far (about 0.94 in both seats)
    same = metrics.luck("valhalla", n_games=300, seed=3, policies=("random", "random"))
    # random against random with swapped seats replays the very same game: the seat decides every time
    assert same["luck"] == 1.0 and same["skill"] == 0.0
    found = metrics.luck("valhalla", n_games=400, seed=3, policies=("greedy", "random"))
    assert found["skill"] > found["luck"]
    assert found["luck"] + found["skill"] <= 1.0


def test_a_frame_with_coded_columns_folds_to_the_same_summary():
    # Attila's frame shows `result` and `end_reason` as categoricals; the metrics read their codes
    df = simulate("attila", n_games=400, seed=6, progress=False)
    assert isinstance(df["result"].dtype, pd.CategoricalDtype)
    s = simulate("attila", n_games=400, seed=6, progress=False, keep="summary")
    pd.testing.assert_frame_equal(metrics.design_metrics(df), metrics.design_metrics(s))


def test_luck_reports_the_skill_gap_of_the_same_runs():
    found = metrics.luck("herrlof", n_games=150, seed=8, policies=("greedy", "random"))
    gap = metrics.skill_gap("herrlof", n_games=150, seed=8, skilled="greedy", unskilled="random")
    for key in ("win_rate", "ci_low", "ci_high", "fair", "skill_gap", "skill_gap_low", "skill_gap_high"):
        assert found[key] == pytest.approx(gap[key], abs=1e-12), key
