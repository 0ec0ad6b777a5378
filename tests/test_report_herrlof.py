"""The report (``make run`` = ``toolkit report``) covers Herrlof: its rows are the
same games ``toolkit.simulate`` plays, with the exact odds and both plots."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import toolkit
from toolkit.games import GAMES
from toolkit.report import report


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    table = report(n_games=250, seed=3, out_dir=out, progress=False)  # every game, as `make run` does
    return table, out


def test_every_registered_game_is_reported(written):
    table, out = written
    assert table.index.tolist() == list(GAMES) and "herrlof" in table.index
    assert pd.read_csv(out / "summary.csv", index_col="game").index.tolist() == list(GAMES)


def test_herrlof_rows_are_the_default_simulation(written):
    table, out = written
    rows = pd.read_csv(out / "herrlof.csv")
    expected = toolkit.simulate("herrlof", n_games=250, seed=3, policies="greedy,greedy", progress=False)
    assert rows["winner"].tolist() == expected["winner"].tolist()
    assert rows["plies"].tolist() == expected["plies"].tolist()
    assert rows["result"].tolist() == expected["result"].astype(str).tolist()
    assert (rows["turns"] == 15 * rows["rounds"]).all()  # a turn is one trick
    meta = json.loads((out / "herrlof.csv.json").read_text())
    assert meta["game"] == "herrlof" and meta["preset"] == "standard" and meta["policies"] == ["greedy", "greedy"]
    assert meta["seed"] == 3 and meta["n_games"] == 250


def test_herrlof_summary_row(written):
    table, _ = written
    row = table.loc["herrlof"]
    assert row["policies"] == "greedy,greedy" and row["preset"] == "standard" and row["games"] == 250
    wins = round(row["win_rate_0"] * 250) + round(row["win_rate_1"] * 250)
    assert wins + row["no_winner"] == 250  # draws are the games without a winner
    for seat in (0, 1):
        assert row[f"ci_low_{seat}"] <= row[f"win_rate_{seat}"] <= row[f"ci_high_{seat}"]
    assert row["median_turns"] % 15 == 0 and row["mean_turns"] > 0 and row["se_turns"] > 0
    assert table.loc["valhalla", "no_winner"] >= 0


def test_herrlof_odds_and_plots(written):
    _, out = written
    spec = GAMES["herrlof"]
    odds = pd.read_csv(out / "herrlof_odds.csv", dtype={"exact": str})
    expected = spec.odds(spec.Rules())
    assert odds["quantity"].tolist() == expected["quantity"].tolist()
    assert odds["exact"].tolist() == expected["exact"].tolist()
    assert odds.loc[0, "quantity"] == "P(no trump)" and odds.loc[0, "exact"] == "1/7"
    for name in ("herrlof_win_rates.png", "herrlof_length.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
