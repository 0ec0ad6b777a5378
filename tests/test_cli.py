"""The ``toolkit`` command (``toolkit.cli``): every subcommand in-process, plus
one run of the installed entry point for the exit code and the one-line error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from toolkit.cli import main


def run(capsys, *argv):
    """``(exit code, stdout, stderr)`` of ``toolkit ARGV`` run in-process."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    header, row = out.splitlines()[:2]
    assert header.split()[:3] == ["game", "title", "players"]
    assert row.split()[:3] == ["valhalla", "Valhalla", "2"]
    assert "random,greedy,lookahead" in row and "Norse Senet" in row


def test_rules_table_and_presets(capsys):
    code, out, _ = run(capsys, "rules", "valhalla")
    assert code == 0
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("name"))
    assert header.split() == ["name", "type", "default", "allowed", "doc"]
    ships = next(line for line in lines if line.startswith("ships_per_player"))
    assert "int" in ships and "an integer in 1..6" in ships and "Ships per player" in ships
    assert "  standard: (the defaults)" in lines
    assert "  alternative: throw_mode=simplified setup=alternating_blocks extra_throw_enabled=true" in lines


def test_rules_with_preset_shows_its_values(capsys):
    code, out, _ = run(capsys, "rules", "valhalla", "--preset", "alternative")
    assert code == 0
    assert next(line for line in out.splitlines() if line.startswith("name")).split()[3] == "alternative"
    assert next(line for line in out.splitlines() if line.startswith("throw_mode")).split()[:4] == [
        "throw_mode", "choice", "runes", "simplified"]


def test_odds_prints_the_exact_throw_table(capsys):
    code, out, _ = run(capsys, "odds", "valhalla")
    assert code == 0
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("runes_up"))
    table = lines[start + 1:start + 17]
    assert len(table) == 16 and all("1/16" in row for row in table)
    assert lines[start + 17] == ""  # exactly 16 outcome rows
    assert any(line.startswith("P(natural one)") and "3/16" in line for line in lines)
    assert any(line.startswith("P(seat 0 starts)") and "16/29" in line for line in lines)


def test_odds_with_preset_and_set(capsys):
    code, out, _ = run(capsys, "odds", "valhalla", "--preset", "alternative",
                       "--set", "stick_rune_up_probability=0.3")
    assert code == 0
    assert "preset alternative with stick_rune_up_probability=0.3" in out
    assert "2401/10000" in out  # no rune up: 0.7**4
    assert any(line.startswith("P(natural one)") and "3087/10000" in line for line in out.splitlines())


def _summary_block(out: str) -> list[str]:
    lines = out.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("valhalla: ")):]


def test_simulate_prints_the_summary(capsys):
    code, out, _ = run(capsys, "simulate", "valhalla", "-n", "1000", "--seed", "1", "--policies", "greedy,random",
                       "--no-progress")
    assert code == 0
    lines = _summary_block(out)
    assert lines[0] == "valhalla: 1,000 games, seed 1, preset standard, policies greedy,random"
    assert lines[2].split() == ["seat", "policy", "wins", "win", "rate", "[95%", "CI]"]
    assert lines[3].split()[:2] == ["0", "greedy"] and lines[4].split()[:2] == ["1", "random"]
    assert int(lines[3].split()[2]) + int(lines[4].split()[2]) == 1000
    quantile_header = next(line for line in lines if line.startswith("mean"))
    assert quantile_header.split() == ["mean", "se", "q05", "q25", "q50", "q75", "q95"]


def test_simulate_output_writes_csv_and_sidecar(capsys, tmp_path):
    out_csv = tmp_path / "out.csv"
    argv = ["simulate", "valhalla", "-n", "500", "--seed", "7", "--preset", "alternative",
            "--set", "extra_throw_enabled=false", "--policies", "greedy,random", "--no-progress"]
    code, out, _ = run(capsys, *argv, "-o", str(out_csv), "--summary")
    assert code == 0
    assert out.splitlines()[0] == f"wrote {out_csv}, {tmp_path / 'out.json'}"
    df = pd.read_csv(out_csv)
    assert len(df) == 500 and df["game_index"].tolist() == list(range(500))
    meta = json.loads((tmp_path / "out.json").read_text())
    assert meta["seed"] == 7 and meta["n_games"] == 500 and meta["policies"] == ["greedy", "random"]
    assert meta["rules"]["throw_mode"] == "simplified" and meta["rules"]["extra_throw_enabled"] is False
    # the streaming summary (no -o) prints the very same numbers as the per-game frame
    code, streamed, _ = run(capsys, *argv)
    assert code == 0 and _summary_block(out) == _summary_block(streamed)
    assert "preset alternative with extra_throw_enabled=false" in streamed


def test_simulate_output_without_summary_prints_only_the_files(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "valhalla", "-n", "50", "-o", str(tmp_path / "o.csv"), "--no-progress")
    assert code == 0 and out.splitlines() == [f"wrote {tmp_path / 'o.csv'}, {tmp_path / 'o.json'}"]


def test_simulate_set_safe_squares(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "valhalla", "-n", "200", "--set", "safe_squares=1,2,3,4,5,29",
                       "-o", str(tmp_path / "s.csv"), "--no-progress")
    assert code == 0, err
    meta = json.loads((tmp_path / "s.json").read_text())
    assert meta["rules"]["safe_squares"] == [1, 2, 3, 4, 5, 29]
    assert meta["preset"] is None


def test_bad_set_value_exits_2_naming_the_parameter(capsys):
    code, out, err = run(capsys, "simulate", "valhalla", "--set", "ships_per_player=9")
    assert code == 2 and out == ""
    assert err == "toolkit: error: ships_per_player='9' is not allowed: an integer in 1..6\n"


@pytest.mark.parametrize("argv, names", [
    (["simulate", "chess"], "game='chess'"),
    (["simulate", "valhalla", "--set", "bogus=1"], "unknown parameter 'bogus'"),
    (["simulate", "valhalla", "--set", "ships_per_player"], "write NAME=VALUE"),
    (["simulate", "valhalla", "--preset", "deluxe"], "preset='deluxe'"),
    (["simulate", "valhalla", "--policies", "greedy,minimax"], "policy='minimax'"),
    (["simulate", "valhalla", "-n", "0"], "n_games=0"),
    (["simulate", "valhalla", "--threads", "999"], "threads=999"),
    (["simulate", "valhalla", "-o", "out.txt"], "output='out.txt'"),
    (["simulate", "valhalla", "--set", "setup=alternating_blocks", "--set", "ships_per_player=4"],
     "ships_per_player=4"),
    (["rules", "chess"], "game='chess'"),
    (["odds", "valhalla", "--set", "throw_mode=dice"], "throw_mode='dice'"),
    (["compare", "valhalla", "--policies", "greedy,minimax", "-n", "10"], "policy='minimax'"),
    (["compare", "valhalla", "--policies", "greedy", "-n", "10", "-o", "t.xlsx"], "output='t.xlsx'"),
    (["report", "chess", "-n", "10"], "game='chess'"),
])
def test_errors_are_one_line_with_exit_2(capsys, argv, names):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("toolkit: error: ") and names in err


@pytest.mark.parametrize("argv", [[], ["play"], ["simulate"], ["simulate", "valhalla", "-n", "many"]])
def test_usage_errors_exit_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith("toolkit") and "error: " in err


def test_help_exits_0(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "simulate" in out and "compare" in out and "report" in out


def test_compare_prints_every_pair_and_the_matrix(capsys, tmp_path):
    code, out, _ = run(capsys, "compare", "valhalla", "--policies", "random,greedy", "-n", "400", "--seed", "3",
                       "--no-progress", "-o", str(tmp_path / "t.csv"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "valhalla: 400 games per ordered pair, seed 3 for every pair, preset standard"
    pairs = [line.split()[:2] for line in lines[3:7]]
    assert pairs == [["random", "random"], ["random", "greedy"], ["greedy", "random"], ["greedy", "greedy"]]
    start = next(i for i, line in enumerate(lines) if line.startswith("row policy's win rate"))
    assert lines[start + 1].split() == ["policy", "random", "greedy"]
    greedy_row = lines[start + 3].split()
    assert greedy_row[0] == "greedy" and float(greedy_row[1]) > 0.5 and greedy_row[4] == "0.5000"
    table = pd.read_csv(tmp_path / "t.csv")
    assert len(table) == 4
    meta = json.loads((tmp_path / "t.json").read_text())
    assert meta["seed"] == 3 and meta["policies"] == ["random", "greedy"]


def test_report_writes_csv_odds_and_plots(capsys, tmp_path):
    code, out, _ = run(capsys, "report", "-n", "300", "--seed", "2", "--out", str(tmp_path), "--no-progress")
    assert code == 0
    for name in ("valhalla.csv", "valhalla.json", "valhalla_odds.csv", "valhalla_win_rates.png",
                 "valhalla_length.png", "summary.csv"):
        assert (tmp_path / name).stat().st_size > 0, name
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["game", "games", "policies"]
    assert lines[1].split()[:3] == ["valhalla", "300", "greedy,greedy"]
    assert json.loads((tmp_path / "valhalla.json").read_text())["policies"] == ["greedy", "greedy"]
    assert len(pd.read_csv(tmp_path / "valhalla_odds.csv")) == 8
    summary = pd.read_csv(tmp_path / "summary.csv", index_col="game")
    assert summary.loc["valhalla", "games"] == 300
    assert summary.loc["valhalla", "win_rate_0"] + summary.loc["valhalla", "win_rate_1"] == pytest.approx(1)


def test_installed_entry_point_bad_set_value():
    exe = Path(sys.executable).with_name("toolkit")
    if not exe.exists():
        pytest.skip(f"no installed entry point at {exe}")
    proc = subprocess.run([str(exe), "simulate", "valhalla", "--set", "ships_per_player=9"],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == ["toolkit: error: ships_per_player='9' is not allowed: an integer in 1..6"]


def test_simulate_output_parquet(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    code, _, err = run(capsys, "simulate", "valhalla", "-n", "100", "-o", str(tmp_path / "p.parquet"), "--no-progress")
    assert code == 0, err
    assert len(pd.read_parquet(tmp_path / "p.parquet")) == 100 and (tmp_path / "p.json").exists()
