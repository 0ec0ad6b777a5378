"""The report (``make run`` = ``toolkit report``) covers Walhalla: four greedy players
(``spec.default_policies``), its rows are the same games ``toolkit.simulate`` plays,
the summary fills all four seat column groups and counts shared wins (W-9.4) apart,
the exact odds and both plots are written (the win-rate plot with four bars and the
fair share 1/4), and the default run plays its declared ``report_games``."""

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
    table = report(n_games=N, seed=5, out_dir=out, progress=False)  # every game, as `make run` does
    return table, out


def test_walhalla_is_reported_with_four_greedy_players(written):
    table, out = written
    assert table.index.tolist() == list(GAMES) and "walhalla" in table.index
    assert GAMES["walhalla"].default_policies(GAMES["walhalla"].Rules()) == tuple(GREEDY4)
    row = table.loc["walhalla"]
    assert row["policies"] == ",".join(GREEDY4) and row["preset"] == "standard" and row["games"] == N
    meta = json.loads((out / "walhalla.csv.json").read_text())
    assert meta["game"] == "walhalla" and meta["preset"] == "standard" and meta["policies"] == GREEDY4
    assert meta["seed"] == 5 and meta["n_games"] == N
    assert meta["rules"]["num_players"] == 4 and meta["rules"]["peninsula_tiles"] == [6, 6, 6]
    assert meta["rules"]["start_midgard"] == 7 and meta["rules"]["reinforcement_table"] == [8, 7, 6, 5]


def test_walhalla_rows_are_the_default_simulation(written):
    _, out = written
    rows = pd.read_csv(out / "walhalla.csv")
    spec = GAMES["walhalla"]
    assert rows.columns.tolist() == ["game_index", "first_seat", *spec.result_columns(spec.Rules())]
    assert {"win_3", "score_3", "landings_3"} <= set(rows.columns)  # four seats
    assert "turns_raid_2" in rows and "turns_raid_3" not in rows  # three raids (W-3)
    expected = toolkit.simulate("walhalla", n_games=N, seed=5, policies=GREEDY4, progress=False)
    for column in ("first_seat", "winner", "n_winners", "start_player", "turns", "plies", "combats", "score_0",
                   "score_3", "win_1", "turns_raid_0", "length_2", "vp_walhalla_3"):
        assert rows[column].tolist() == expected[column].tolist(), column
    assert rows["result"].tolist() == expected["result"].astype(str).tolist()
    assert (rows["length_0"] == 6).all() and (rows["raids"] == 3).all()
    assert rows["turns"].between(1, 36).all()  # at most 12 dragons per raid (§7.3)


def test_walhalla_summary_row_fills_four_seats_and_counts_shared_wins_apart(written):
    table, out = written
    row = table.loc["walhalla"]
    rows = pd.read_csv(out / "walhalla.csv")
    for seat in range(4):
        assert row[f"ci_low_{seat}"] <= row[f"win_rate_{seat}"] <= row[f"ci_high_{seat}"]
        assert round(row[f"win_rate_{seat}"] * N) == rows[f"win_{seat}"].sum()
    # every game has a winner (W-9.4); a tie shared by several seats counts a win for each of them
    assert row["no_winner"] == 0 == (rows["n_winners"] == 0).sum()
    assert row["shared_wins"] == (rows["n_winners"] >= 2).sum() == (rows["result"] == "shared").sum()
    assert row["shared_wins"] > 0  # four greedy players tie now and then (several per hundred games)
    assert sum(round(row[f"win_rate_{s}"] * N) for s in range(4)) == rows["n_winners"].sum()
    assert row["mean_turns"] == pytest.approx(rows["turns"].mean()) and row["se_turns"] > 0
    assert row["median_turns"] == np.median(rows["turns"]) and row["seconds"] > 0
    summary = pd.read_csv(out / "summary.csv", index_col="game")
    assert not summary.loc["walhalla", [f"win_rate_{s}" for s in range(4)]].isna().any()
    assert not [c for c in summary.columns if c.endswith("_4")]  # four seats at most: Attila's and Walhalla's


def test_walhalla_odds_and_plots(written):
    _, out = written
    spec = GAMES["walhalla"]
    odds = pd.read_csv(out / "walhalla_odds.csv", dtype={"exact": str})
    expected = spec.odds(spec.Rules())
    assert odds.columns.tolist() == expected.columns.tolist()
    assert odds["quantity"].tolist() == expected["quantity"].tolist()
    assert odds["exact"].tolist() == expected["exact"].astype(str).tolist()
    for name in ("walhalla_win_rates.png", "walhalla_length.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


def test_walhalla_plots_show_four_seats_and_the_fair_share(monkeypatch, tmp_path):
    """The win-rate plot has one bar per seat and the dashed line at 1/4; the length plot
    says what a turn is.  The Axes are caught just before they are saved."""
    saved = {}
    original = report_module._save_figure

    def catch(ax, path):
        saved[path.name] = (ax.get_title(), ax.get_xlabel(), [t.get_text() for t in ax.get_xticklabels()],
                            [(line.get_label(), list(line.get_ydata())) for line in ax.get_lines()])
        return original(ax, path)

    monkeypatch.setattr(report_module, "_save_figure", catch)
    report(["walhalla"], n_games=120, seed=2, out_dir=tmp_path, progress=False)
    title, _, ticks, lines = saved["walhalla_win_rates.png"]
    assert "(120 games, greedy in all 4 seats)" in title
    assert ticks == ["seat 0", "seat 1", "seat 2", "seat 3"]
    assert [line for line in lines if "fair" in line[0]] == [("0.25 (fair: 1 / 4 seats)", [0.25, 0.25])]
    title, xlabel, _, _ = saved["walhalla_length.png"]
    assert title.startswith("Walhalla: game length (120 games, greedy in all 4 seats)")
    assert xlabel == "turns (a turn is one dragon drawn)"


def test_walhalla_plays_fewer_games_by_default(monkeypatch, tmp_path):
    """Without ``n_games`` Walhalla plays its declared ``report_games`` (its greedy players are slow)."""
    assert GAMES["walhalla"].presentation.report_games < report_module.DEFAULT_GAMES
    assert GAMES["walhalla"].presentation.report_games >= 20_000  # each seat's win rate to about +-0.006 or better
    monkeypatch.setitem(GAMES, "valhalla", with_presentation(GAMES["valhalla"], report_games=60))
    monkeypatch.setitem(GAMES, "walhalla", with_presentation(GAMES["walhalla"], report_games=50))
    table = report(["valhalla", "walhalla"], seed=1, out_dir=tmp_path, progress=False)
    assert table["games"].to_dict() == {"valhalla": 60, "walhalla": 50}
    assert len(pd.read_csv(tmp_path / "walhalla.csv")) == 50
    table = report(["walhalla"], n_games=30, seed=1, out_dir=tmp_path, progress=False)  # n_games= wins
    assert table["games"].to_dict() == {"walhalla": 30}
