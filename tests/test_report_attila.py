"""The report (``make run`` = ``toolkit report``) covers Attila: four greedy players
(``spec.default_policies``), its rows are the same games ``toolkit.simulate`` plays,
the summary has a column group per seat of the widest game, shared wins (A-7) are
counted apart, and the exact odds and both plots are written."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from toolkit.core.game import with_presentation
import toolkit
from toolkit import report as report_module
from toolkit.games import GAMES
from toolkit.report import report

N = 250
GREEDY4 = ["greedy"] * 4


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    table = report(n_games=N, seed=3, out_dir=out, progress=False)  # every game, as `make run` does
    return table, out


def test_attila_is_reported_with_four_greedy_players(written):
    table, out = written
    assert table.index.tolist() == list(GAMES) and "attila" in table.index
    row = table.loc["attila"]
    assert row["policies"] == ",".join(GREEDY4) and row["preset"] == "standard" and row["games"] == N
    meta = json.loads((out / "attila.csv.json").read_text())
    assert meta["game"] == "attila" and meta["preset"] == "standard" and meta["policies"] == GREEDY4
    assert meta["seed"] == 3 and meta["n_games"] == N
    assert meta["rules"]["num_players"] == 4 and meta["rules"]["two_player_second_place_gap"] is None


def test_attila_rows_are_the_default_simulation(written):
    _, out = written
    rows = pd.read_csv(out / "attila.csv")
    spec = GAMES["attila"]
    assert rows.columns.tolist() == ["game_index", "first_seat", *spec.result_columns(spec.Rules())]
    assert "win_3" in rows and "win_4" not in rows and "influence_4_0" not in rows  # four seats, not five
    expected = toolkit.simulate("attila", n_games=N, seed=3, policies=GREEDY4, progress=False)
    for column in ("first_seat", "winner", "n_winners", "turns", "plies", "wars", "score_0", "score_3", "win_2",
                   "influence_1_4"):
        assert rows[column].tolist() == expected[column].tolist(), column
    for column in ("result", "end_reason"):
        assert rows[column].tolist() == expected[column].astype(str).tolist(), column


def test_attila_summary_row_counts_shared_wins_apart(written):
    table, out = written
    row = table.loc["attila"]
    rows = pd.read_csv(out / "attila.csv")
    for seat in range(4):
        assert row[f"ci_low_{seat}"] <= row[f"win_rate_{seat}"] <= row[f"ci_high_{seat}"]
        assert round(row[f"win_rate_{seat}"] * N) == rows[f"win_{seat}"].sum()
    # a shared win (winner -1) counts as a win for each tied seat; only aborted games have no winner
    assert row["no_winner"] == (rows["n_winners"] == 0).sum() == (rows["result"] == "aborted").sum()
    assert row["shared_wins"] == (rows["n_winners"] >= 2).sum() == (rows["result"] == "shared").sum()
    assert sum(round(row[f"win_rate_{s}"] * N) for s in range(4)) == rows["n_winners"].sum()
    assert row["mean_turns"] == pytest.approx(rows["turns"].mean()) and row["se_turns"] > 0
    assert row["median_turns"] == np.median(rows["turns"]) and row["seconds"] > 0


def test_summary_has_a_column_group_per_seat_of_the_widest_game(written):
    table, out = written
    summary = pd.read_csv(out / "summary.csv", index_col="game")
    seats = [f"{stat}_{s}" for s in range(4) for stat in ("win_rate", "ci_low", "ci_high")]
    assert summary.columns.tolist()[:3 + len(seats)] == ["preset", "policies", "games", *seats]
    assert {"no_winner", "shared_wins"} <= set(summary.columns)
    for game in ("valhalla", "herrlof", "halali"):  # 2-player games: seats 2 and 3 are empty
        assert summary.loc[game, ["win_rate_2", "ci_high_3"]].isna().all(), game
        assert summary.loc[game, "shared_wins"] == 0 and not np.isnan(summary.loc[game, "win_rate_1"])
    pd.testing.assert_frame_equal(summary, table, check_dtype=False)


def test_attila_odds_and_plots(written):
    _, out = written
    spec = GAMES["attila"]
    odds = pd.read_csv(out / "attila_odds.csv", dtype={"exact": str})
    expected = spec.odds(spec.Rules())
    assert odds.columns.tolist() == expected.columns.tolist()
    assert odds["quantity"].tolist() == expected["quantity"].tolist()
    assert odds["exact"].tolist() == expected["exact"].astype(str).tolist()
    for name in ("attila_win_rates.png", "attila_length.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


def test_win_rate_plot_marks_the_fair_share_of_four_seats(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    df = toolkit.simulate("attila", n_games=200, seed=1, progress=False)
    drawn = []
    original = plt.Figure.savefig

    def keep(fig, path, *args, **kwargs):  # the report's win-rate figure, as it is saved
        drawn.extend((line.get_label(), list(line.get_ydata())) for ax in fig.axes for line in ax.get_lines())
        return original(fig, path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plt.Figure, "savefig", keep)
        report_module._plots(df, GAMES["attila"], tmp_path)
    fair = [(label, y) for label, y in drawn if "fair" in label]
    assert fair == [("0.25 (fair: 1 / 4 seats)", [0.25, 0.25])]
    assert report_module._policies_text(GREEDY4) == "greedy in all 4 seats"
    assert report_module._policies_text(["greedy", "greedy"]) == "greedy,greedy"
    assert report_module._policies_text(["greedy", "random", "random"]) == "greedy,random,random"


def test_attila_plays_fewer_games_by_default(monkeypatch, tmp_path):
    """Without ``n_games`` each game plays its declared ``report_games`` (Attila fewer than the default)."""
    assert GAMES["attila"].presentation.report_games == 50_000 < report_module.DEFAULT_GAMES == GAMES["valhalla"].presentation.report_games
    monkeypatch.setitem(GAMES, "valhalla", with_presentation(GAMES["valhalla"], report_games=60))
    monkeypatch.setitem(GAMES, "attila", with_presentation(GAMES["attila"], report_games=40))
    table = report(["valhalla", "attila"], seed=1, out_dir=tmp_path, progress=False)
    assert table["games"].to_dict() == {"valhalla": 60, "attila": 40}
    assert len(pd.read_csv(tmp_path / "attila.csv")) == 40
    # n_games= sets every game's number
    table = report(["valhalla", "attila"], n_games=30, seed=1, out_dir=tmp_path, progress=False)
    assert table["games"].to_dict() == {"valhalla": 30, "attila": 30}
