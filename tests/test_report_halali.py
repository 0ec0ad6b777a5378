"""The report (``make run`` = ``toolkit report``) covers Halali: its rows are the
same games ``toolkit.simulate`` plays, with the exact odds and both plots."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import toolkit
from toolkit.games import GAMES
from toolkit.report import report

N = 250


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    table = report(n_games=N, seed=3, out_dir=out, progress=False)  # every game, as `make run` does
    return table, out


def test_every_registered_game_is_reported(written):
    table, out = written
    assert table.index.tolist() == list(GAMES) and "halali" in table.index
    assert pd.read_csv(out / "summary.csv", index_col="game").index.tolist() == list(GAMES)


def test_halali_rows_are_the_default_simulation(written):
    _, out = written
    rows = pd.read_csv(out / "halali.csv")
    expected = toolkit.simulate("halali", n_games=N, seed=3, policies="greedy,greedy", progress=False)
    assert rows.columns.tolist() == ["game_index", "first_seat", *GAMES["halali"].columns]
    for column in ("first_seat", "winner", "turns", "plies", "score_0", "score_1", "captures_tree_1", "rescues_fox_0"):
        assert rows[column].tolist() == expected[column].tolist(), column
    for column in ("result", "end_reason"):
        assert rows[column].tolist() == expected[column].astype(str).tolist(), column
    # a turn is one action: every game reveals its 48 tiles, then the end phase (or an early end)
    assert (rows["turns"] == rows["main_turns"] + rows["end_turns"]).all()
    assert (rows["reveals_0"] + rows["reveals_1"] == 48).all()
    assert (rows["game2_winner"] == -2).all()  # the standard preset plays single games, not matches
    meta = json.loads((out / "halali.csv.json").read_text())
    assert meta["game"] == "halali" and meta["preset"] == "standard" and meta["policies"] == ["greedy", "greedy"]
    assert meta["seed"] == 3 and meta["n_games"] == N
    assert meta["rules"]["match_games"] == 1 and sorted(meta["rules"]["exit_squares"]) == [
        "a4:W", "d1:S", "d7:N", "g4:E"]


def test_halali_summary_row(written):
    table, out = written
    row = table.loc["halali"]
    assert row["policies"] == "greedy,greedy" and row["preset"] == "standard" and row["games"] == N
    wins = round(row["win_rate_0"] * N) + round(row["win_rate_1"] * N)
    assert wins + row["no_winner"] == N  # draws (H-6.3) and aborted games (H-7) have no winner
    rows = pd.read_csv(out / "halali.csv")
    assert row["no_winner"] == (rows["result"] != "win").sum()
    for seat in (0, 1):
        assert row[f"ci_low_{seat}"] <= row[f"win_rate_{seat}"] <= row[f"ci_high_{seat}"]
        assert round(row[f"win_rate_{seat}"] * N) == rows[f"win_{seat}"].sum()
    assert row["mean_turns"] == pytest.approx(rows["turns"].mean()) and row["se_turns"] > 0
    assert row["median_turns"] >= 48 and row["seconds"] > 0


def test_halali_odds_and_plots(written):
    _, out = written
    spec = GAMES["halali"]
    odds = pd.read_csv(out / "halali_odds.csv", dtype={"exact": str})
    expected = spec.odds(spec.Rules())
    assert odds.columns.tolist() == expected.columns.tolist()
    assert odds["quantity"].tolist() == expected["quantity"].tolist()
    assert odds["exact"].tolist() == expected["exact"].astype(str).tolist()
    for name in ("halali_win_rates.png", "halali_length.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
