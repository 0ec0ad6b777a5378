"""The analysis subcommands of ``toolkit``: metrics, sweep, and the ratings printed by compare."""

from __future__ import annotations

import pandas as pd
import pytest

from toolkit.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_metrics_table(capsys, tmp_path):
    target = tmp_path / "m.csv"
    code, out, _ = run(capsys, "metrics", "valhalla", "-n", "2000", "--seed", "3", "--no-progress",
                       "--skill", "greedy", "--skill-games", "200", "-o", str(target))
    assert code == 0, out
    for name in ("completion", "balance", "first_player_advantage", "duration_turns", "branching_factor",
                 "lead_changes", "decisiveness", "skill_gap", "luck"):
        assert any(line.startswith(name + " ") for line in out.splitlines()), name
    table = pd.read_csv(target, index_col="metric")
    assert table.loc["games", "value"] == 2000
    assert table.loc["skill_gap", "value"] > 0.2


def test_sweep_prints_one_row_per_variant_and_writes_csv(capsys, tmp_path):
    target = tmp_path / "sweep.csv"
    code, out, _ = run(capsys, "sweep", "valhalla", "--vary", "zero_runes_value=4,5,6",
                       "--vary", "extra_throw_enabled=false,true", "-n", "500", "--seed", "2", "--no-progress",
                       "-o", str(target))
    assert code == 0, out
    assert "6 variants x 500 games" in out and "local" in out
    table = pd.read_csv(target)
    assert len(table) == 6
    assert table[["zero_runes_value", "extra_throw_enabled"]].values.tolist() == [
        [4, False], [4, True], [5, False], [5, True], [6, False], [6, True]]
    assert (tmp_path / "sweep.json").exists()


def test_sweep_on_a_multiplayer_game(capsys):
    code, out, _ = run(capsys, "sweep", "attila", "--players", "2", "--vary",
                       "two_player_second_place_gap=none,2", "-n", "200", "--no-progress")
    assert code == 0, out
    assert "seat 1 wins" in out and "seat 2 wins" not in out


@pytest.mark.parametrize("argv, message", [
    (["sweep", "valhalla", "--vary", "zero_runes_value=9", "-n", "10"], "zero_runes_value"),
    (["sweep", "valhalla", "--vary", "nope=1", "-n", "10"], "unknown parameter 'nope'"),
    (["sweep", "valhalla", "--vary", "zero_runes_value", "-n", "10"], "NAME=V1,V2"),
    (["metrics", "valhalla", "--skill", "wizard", "-n", "10"], "wizard"),
])
def test_bad_values_give_one_line_errors(capsys, argv, message):
    code, out, err = run(capsys, *argv, "--no-progress")
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_compare_prints_ratings(capsys):
    code, out, _ = run(capsys, "compare", "valhalla", "--policies", "random,greedy", "-n", "300", "--no-progress")
    assert code == 0
    assert "Elo ratings" in out
    ratings = out[out.index("Elo ratings"):].splitlines()
    assert ratings[2].split()[0] == "greedy"  # header, then the best policy first
    code, out, _ = run(capsys, "compare", "attila", "--players", "3", "--policies", "random,greedy", "-n", "60",
                       "--no-progress")
    assert code == 0
    assert "OpenSkill ratings" in out
