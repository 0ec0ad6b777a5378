"""The strength ladder (``toolkit.analysis.ladder``, ``toolkit ladder``): ratings and the design metrics
that depend on play, per strength.

Its numbers are the numbers of the runs it is made of: the ratings are :func:`ratings` of the
tournament :func:`compare` plays, the self-play metrics are :func:`metrics_row` of a run of the policy in
every seat, the skill gap is the tournament's win rate against random minus the fair share, all on the
ladder's seed.  :func:`edge_trend` reads grows / shrinks / cannot tell from the intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit import analysis
from toolkit.analysis import metrics, ratings, tournament
from toolkit.analysis.strength import PLAY_METRICS, edge_trend
from toolkit.cli import main

RUNGS = ("random", "greedy", "mcts:8")
GAMES, SELFPLAY = 30, 40  # games per pairing and per self-play (another size: self-play played on its own)


@pytest.fixture(scope="module")
def valhalla_ladder():
    return analysis.ladder("valhalla", policies=RUNGS, n_games=GAMES, selfplay_games=SELFPLAY, seed=4,
                           progress=False)


@pytest.fixture(scope="module")
def valhalla_tournament():
    """The tournament the ladder should be made of, played here on its own."""
    return tournament.compare("valhalla", RUNGS, GAMES, seed=4, progress=False)


def test_the_ladder_is_made_of_its_runs(valhalla_ladder, valhalla_tournament):
    table = valhalla_ladder
    assert table.index.tolist() == list(RUNGS) and table["rung"].tolist() == [0, 1, 2]
    rated = ratings.ratings(valhalla_tournament)
    for name in RUNGS:
        assert table.loc[name, "rating"] == pytest.approx(rated.loc[name, "elo"])
        assert table.loc[name, "rating_low"] == pytest.approx(rated.loc[name, "ci_low"])
        run = toolkit.simulate("valhalla", n_games=SELFPLAY, seed=4, policies=(name, name), keep="summary",
                               progress=False)
        found = metrics.metrics_row(run)
        for column, _ in PLAY_METRICS:
            for suffix in ("", "_low", "_high"):
                if column + suffix in found:
                    assert table.loc[name, column + suffix] == pytest.approx(found[column + suffix]), column + suffix
    assert table.attrs["rating"] == "elo" and table.attrs["fair"] == 0.5
    assert table.loc["random", "skill_gap_low"] < 0 < table.loc["random", "skill_gap_high"]
    assert table.loc["greedy", "skill_gap"] > 0.25 and table.loc["greedy", "rating"] > table.loc["random", "rating"]


def test_skill_gap_is_the_win_rate_against_random(valhalla_ladder, valhalla_tournament):
    m = tournament.matrix(valhalla_tournament)
    for name in RUNGS:
        assert valhalla_ladder.loc[name, "skill_gap"] == pytest.approx(m["win_rate"].loc[name, "random"] - 0.5)


@pytest.mark.parametrize("game,rules", [("valhalla", None), ("attila", {"num_players": 3})])
def test_self_play_is_the_tournaments_own_run_when_the_sizes_match(monkeypatch, game, rules):
    """With ``selfplay_games`` left at ``n_games`` no line-up is played twice (the self-play of a strong
    rung is the ladder's dearest run), and the metrics are those of a separate self-play run; with
    another size (the control) each self-play is played again, at its own size."""
    from toolkit.analysis import strength

    played = []

    def counting(spec, rules_, n, **kw):
        played.append((tuple(kw["policies"]), n))
        return toolkit.simulate(spec, rules_, n, **kw)

    monkeypatch.setattr(tournament, "simulate", counting)
    monkeypatch.setattr(strength, "simulate", counting)
    table = analysis.ladder(game, rules, policies=("random", "greedy"), n_games=30, seed=5, progress=False)
    assert len(played) == len(set(played))
    seats = 2 if rules is None else 3
    for name in ("random", "greedy"):
        run = toolkit.simulate(game, rules, 30, seed=5, policies=(name,) * seats, keep="summary", progress=False)
        for column, value in metrics.metrics_row(run).items():
            if column in table.columns:
                assert table.loc[name, column] == pytest.approx(value), column
    played.clear()
    analysis.ladder(game, rules, policies=("random", "greedy"), n_games=30, selfplay_games=40, seed=5,
                    progress=False)
    assert {(("random",) * seats, 40), (("greedy",) * seats, 40), (("random",) * seats, 30)} <= set(played)


def test_three_or_more_seats_are_rated_by_openskill():
    table = toolkit.ladder("attila", {"num_players": 3}, policies=("random", "greedy"), n_games=20, seed=2,
                           progress=False)
    assert table.attrs["rating"] == "openskill" and table.attrs["fair"] == pytest.approx(1 / 3)
    assert table.loc["greedy", "rating"] > table.loc["random", "rating"]
    assert np.isfinite(table["first_player_advantage"]).all()


def trend_table(weak, strong):
    rows = {"random": (1400.0, *weak), "mcts": (1700.0, *strong)}
    return pd.DataFrame.from_dict(rows, orient="index", columns=["rating", "first_player_advantage",
                                                                  "first_player_advantage_low",
                                                                  "first_player_advantage_high"])


@pytest.mark.parametrize("weak,strong,verdict", [
    ((0.01, 0.0, 0.02), (0.09, 0.07, 0.11), "grows with skill"),
    ((0.09, 0.07, 0.11), (0.01, 0.0, 0.02), "shrinks with skill"),
    ((0.01, 0.0, 0.02), (0.012, 0.002, 0.022), "does not change measurably"),
    ((0.01, 0.0, 0.05), (0.04, 0.03, 0.06), "grows with skill"),  # the intervals overlap, the difference is clear
])
def test_edge_trend_reads_the_intervals(weak, strong, verdict):
    assert verdict in edge_trend(trend_table(weak, strong))


def rungs_table(rows):
    """policy -> (rating, edge, low, high), weakest listed first."""
    return pd.DataFrame.from_dict(rows, orient="index", columns=["rating", "first_player_advantage",
                                                                 "first_player_advantage_low",
                                                                 "first_player_advantage_high"])


def test_every_rung_is_compared_not_only_the_ends():
    """Issue 36's Attila case: greedy +0.350 [0.063, 0.582] and mcts:100 -0.250 [-0.250, 0.028] were read as
    'does not change' from random and mcts:100 alone; every pair is compared, so greedy against mcts:100
    is found (three comparisons: Bonferroni)."""
    table = rungs_table({"random": (20.0, 0.02, -0.1, 0.14), "greedy": (30.0, 0.35, 0.063, 0.582),
                         "mcts:100": (40.0, -0.25, -0.40, -0.10)})
    said = edge_trend(table)
    assert said.startswith("The first player's edge shrinks with skill: mcts:100's is lower than greedy's by -0.600 ")
    assert "3 comparisons" in said and "+0.350 [+0.063, +0.582] for greedy" in said
    turn = edge_trend(rungs_table({"random": (1, 0.0, -0.02, 0.02), "greedy": (2, 0.2, 0.18, 0.22),
                                   "mcts": (3, 0.0, -0.02, 0.02)}))
    assert turn.startswith("The first player's edge changes with skill, not in one direction: ")


def test_the_adjustment_for_many_comparisons_can_hide_a_lone_difference():
    """Two rungs 2.2 standard errors apart differ alone (z 1.96), not among ten comparisons (z 2.81)."""
    se = 0.01
    half = 1.959963984540054 * se
    two = rungs_table({"a": (1, 0.0, -half, half), "b": (2, 0.022 * 1.414, 0.022 * 1.414 - half,
                                                        0.022 * 1.414 + half)})
    assert "grows with skill" in edge_trend(two)
    many = {f"r{i}": (i, 0.0, -half, half) for i in range(3)}
    many["top"] = (9, 0.022 * 1.414, 0.022 * 1.414 - half, 0.022 * 1.414 + half)
    many["r3"] = (5, 0.0, -half, half)
    assert "grows with skill" not in edge_trend(rungs_table(many))


def test_wide_intervals_say_there_are_not_enough_games():
    said = edge_trend(rungs_table({"random": (1, 0.0, -0.2, 0.2), "mcts": (2, 0.05, -0.15, 0.25)}))
    assert said.startswith("Not enough games to tell whether the first player's edge changes with skill")
    narrow = edge_trend(rungs_table({"random": (1, 0.0, -0.005, 0.005), "mcts": (2, 0.004, -0.001, 0.009)}))
    assert narrow.startswith("The first player's edge does not change measurably with skill: every difference "
                             "between rungs is within ±0.011")  # 0.004 + 0.007: the farthest end of the interval


def test_a_rung_without_the_edge_is_named_as_left_out():
    said = edge_trend(rungs_table({"random": (1, 0.0, -0.005, 0.005), "greedy": (2, np.nan, np.nan, np.nan),
                                   "mcts": (3, 0.004, -0.001, 0.009)}))
    assert said.endswith("Left out: greedy (no interval for the edge in its self-play).")


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="at least two policies"):
        analysis.ladder("valhalla", policies=("greedy",), n_games=5, progress=False)
    with pytest.raises(ValueError, match="n_games=0 is not allowed"):
        analysis.ladder("valhalla", policies=("random", "greedy"), n_games=0, progress=False)
    with pytest.raises(ValueError, match="policy='best' is not allowed"):
        analysis.ladder("valhalla", policies=("random", "best"), n_games=5, progress=False)


def test_cli_prints_the_ladder_and_writes_the_table_and_plot(tmp_path, capsys):
    out, plot = tmp_path / "ladder.csv", tmp_path / "ladder.png"
    code = main(["ladder", "valhalla", "--policies", "random,greedy", "-n", "40", "--seed", "3", "--no-progress",
                 "-o", str(out), "--plot", str(plot)])
    assert code == 0
    text = capsys.readouterr().out
    assert "Elo [95% CI]" in text and "first player's advantage" in text and "first player's edge" in text
    saved = pd.read_csv(out, index_col=0)
    expected = analysis.ladder("valhalla", policies=("random", "greedy"), n_games=40, seed=3, progress=False)
    assert saved["rating"].to_numpy() == pytest.approx(expected["rating"].to_numpy())
    assert plot.stat().st_size > 10_000


def test_cli_refuses_a_bad_plot_name(tmp_path, capsys):
    assert main(["ladder", "valhalla", "--policies", "random,greedy", "-n", "5", "--plot",
                 str(tmp_path / "x.txt")]) == 2
    assert f"plot={str(tmp_path / 'x.txt')!r} is not allowed: the name must end in .png or .svg or .pdf" \
        in capsys.readouterr().err


def test_the_rungs_a_shorter_ladder_leaves_out_are_named():
    from toolkit.analysis.strength import LADDER, not_played

    said = not_played(("random", "greedy", "mcts:100"), "attila")
    assert said.startswith("Not on this ladder: lookahead, mcts:1000 (left out to keep the page's runs within "
                           "minutes") and "`toolkit ladder attila` plays every rung" in said
    assert not_played(("random", "greedy", "lookahead:8", "mcts:100", "mcts:1000"), "herrlof") == ""
    assert not_played(LADDER, "valhalla") == ""


def test_rungs_are_ordered_by_the_strength_measured(monkeypatch):
    """Issue 36, point 19: asked in the wrong order, the rungs come back weakest first by their rating, the
    order asked kept in attrs; the control: asked in the right order, nothing moves."""
    wrong = analysis.ladder("valhalla", policies=("greedy", "random"), n_games=40, seed=4, progress=False)
    assert wrong.index.tolist() == ["random", "greedy"] and wrong["rung"].tolist() == [0, 1]
    assert wrong.attrs["asked"] == ["greedy", "random"]
    assert wrong["rating"].is_monotonic_increasing
    right = analysis.ladder("valhalla", policies=("random", "greedy"), n_games=40, seed=4, progress=False)
    assert right.index.tolist() == ["random", "greedy"]
    pd.testing.assert_series_equal(right["rating"], wrong["rating"])
