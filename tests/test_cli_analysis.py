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
    assert (tmp_path / "sweep.csv.json").exists()


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


def test_paired_until_settled_plays_on_and_says_what_it_showed(capsys, tmp_path):
    """`toolkit paired --until-settled`: Pig's head start of 1 point for the second seat on two seeds
    (independent games) is looked at after every batch until the always-valid interval excludes 0; each
    look is printed, the answer is the settle() table's, and the CSV holds it."""
    from toolkit.analysis.settle import settle

    target = tmp_path / "settled.csv"
    code, out, err = run(capsys, "paired", "pig", "--set", "second_player_bonus=1", "--baseline-seed", "1",
                         "--until-settled", "--no-progress", "-o", str(target))
    assert code == 0, err
    table = settle("pig", {"second_player_bonus": 1}, baseline_seed=1, progress=False)
    looks = table.attrs["looks"]
    assert table.attrs["settled"] and table.loc[0, "verdict"] == "moved" and len(looks) > 2
    assert out.splitlines()[0].endswith("seeds 0 and 1: independent games")
    assert [line.split(" games")[0].split()[-1] for line in out.splitlines() if "after" in line][:len(looks)] == \
        [f"{n:,}" for n in looks]
    assert table.loc[0, "sentence"] in out
    assert f"settled after {looks[-1]:,} games a side" in out
    written = pd.read_csv(target)
    assert written.loc[0, "verdict"] == "moved" and written.loc[0, "ci_high"] == pytest.approx(table.loc[0, "ci_high"])
    # the README's example is this command, and says what it showed
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    row = table.iloc[0]
    said = (f"the first player's win rate {row.difference:.3f} [{row.ci_low:.3f}, {row.ci_high:.3f}]) after "
            f"{looks[-1]:,} games a side").replace("-", "−")
    assert "toolkit paired pig --set second_player_bonus=1 --baseline-seed 1 --until-settled" in readme
    assert said in " ".join(readme.split()), said


def test_paired_without_until_settled_reads_its_games_once(capsys):
    code, out, err = run(capsys, "paired", "pig", "--set", "second_player_bonus=2", "-n", "4000", "--no-progress")
    assert code == 0, err
    assert "your change moved the first player's win rate" in out
    assert "one look at 4,000 games a side, intervals 95% for the 4 together (paired)" in out


@pytest.mark.parametrize("argv, message", [
    (["--tolerance", "0.01"], "--tolerance is for --until-settled"),
    (["--until-settled", "--tolerance", "0"], "tolerance=0.0 is not allowed"),
    (["--until-settled", "--max-games", "100"], "max_games=100 is not allowed"),
    (["--until-settled", "--quantity", "turnz"], "quantities='turnz' is not allowed"),
    (["--baseline-set", "target=5"], "target='5' is not allowed: an integer in 10..1000"),
])
def test_paired_refuses_a_bad_value_in_one_line_before_any_game(capsys, argv, message):
    code, out, err = run(capsys, "paired", "pig", "--no-progress", *argv)
    assert code == 2 and out == "", out
    assert err.startswith("toolkit: error: ") and message in err and err.count("\n") == 1, err
