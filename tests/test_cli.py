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

from toolkit.core import jobs
from toolkit.core.registry import GAMES
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


def test_list_marks_the_tutorial_game(capsys):
    """The game a contributor reads first is marked, by its declaration (``GameSpec.tutorial``), and only it."""
    code, out, _ = run(capsys, "list")
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines()[1:] if line and line.split()[0] in GAMES}
    assert [name for name, row in rows.items() if "(tutorial)" in row] == ["pig"]
    assert [name for name, spec in GAMES.items() if spec.tutorial] == ["pig"]
    assert "The tutorial game, pig, is the one to read first" in out


def test_check_finds_every_game_whole_and_names_what_one_lacks(capsys, monkeypatch):
    code, out, _ = run(capsys, "check")
    assert code == 0 and out.count("everything a game supplies is there") == len(GAMES)
    import dataclasses

    monkeypatch.setitem(GAMES, "pig", dataclasses.replace(GAMES["pig"], first_mover=None))
    code, out, _ = run(capsys, "check", "pig")
    assert code == 1 and "SPEC gives no first_mover" in out


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
    # the line under the title (a line above it starts with "mean" too: the mean of the places)
    quantile_header = lines[next(i for i, line in enumerate(lines) if line.startswith("game length in turns")) + 1]
    assert quantile_header.split() == ["mean", "se", "q05", "q25", "q50", "q75", "q95"]


def test_simulate_says_how_long_a_long_run_should_take_before_it_starts(capsys, monkeypatch):
    """Issue 52, point 2: a run expected over the 30 s a page starts without asking is announced on stderr,
    from the players' shipped speed, before any game; here the threshold is lowered to a tenth of a
    second so that 12 games of mcts:100 (about half a second) cross it.  The control: the same run under the real threshold says nothing."""
    from toolkit.core import costs

    args = ("simulate", "valhalla", "-n", "12", "--policies", "mcts:100,greedy", "--threads", "2", "--no-progress")
    code, _, err = run(capsys, *args)
    assert code == 0 and "games of" not in err  # 12 x 0.2 s over 2 threads: about a second, under 30 s
    monkeypatch.setattr(costs, "ASK_ABOVE", 0.1)
    code, _, err = run(capsys, *args)
    expected = costs.seconds(costs.per_game("valhalla", ("mcts:100", "greedy")), 12, 2)
    assert code == 0 and err.strip() == (f"12 games of mcts:100,greedy: about {jobs.format_duration(expected)} "
                                         "(estimated from the players' measured speed); Ctrl-C stops it")


def test_simulate_output_writes_csv_and_sidecar(capsys, tmp_path):
    out_csv = tmp_path / "out.csv"
    argv = ["simulate", "valhalla", "-n", "500", "--seed", "7", "--preset", "alternative",
            "--set", "extra_throw_enabled=false", "--policies", "greedy,random", "--no-progress"]
    code, out, _ = run(capsys, *argv, "-o", str(out_csv), "--summary")
    assert code == 0
    assert out.splitlines()[0] == f"wrote {out_csv}, {tmp_path / 'out.csv.json'}"
    df = pd.read_csv(out_csv)
    assert len(df) == 500 and df["game_index"].tolist() == list(range(500))
    meta = json.loads((tmp_path / "out.csv.json").read_text())
    assert meta["seed"] == 7 and meta["n_games"] == 500 and meta["policies"] == ["greedy", "random"]
    assert meta["rules"]["throw_mode"] == "simplified" and meta["rules"]["extra_throw_enabled"] is False
    # the streaming summary (no -o) prints the very same numbers as the per-game frame
    code, streamed, _ = run(capsys, *argv)
    assert code == 0 and _summary_block(out) == _summary_block(streamed)
    assert "preset alternative with extra_throw_enabled=false" in streamed


def test_simulate_output_without_summary_prints_only_the_files(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "valhalla", "-n", "50", "-o", str(tmp_path / "o.csv"), "--no-progress")
    assert code == 0 and out.splitlines() == [f"wrote {tmp_path / 'o.csv'}, {tmp_path / 'o.csv.json'}"]


def test_simulate_set_safe_squares(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "valhalla", "-n", "200", "--set", "safe_squares=1,2,3,4,5,29",
                       "-o", str(tmp_path / "s.csv"), "--no-progress")
    assert code == 0, err
    meta = json.loads((tmp_path / "s.csv.json").read_text())
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
    meta = json.loads((tmp_path / "t.csv.json").read_text())
    assert meta["seed"] == 3 and meta["policies"] == ["random", "greedy"]


def test_report_writes_csv_odds_and_plots(capsys, tmp_path):
    code, out, _ = run(capsys, "report", "-n", "300", "--seed", "2", "--out", str(tmp_path), "--no-progress")
    assert code == 0
    for name in ("valhalla.csv", "valhalla.csv.json", "valhalla_odds.csv", "valhalla_win_rates.png",
                 "valhalla_length.png", "summary.csv"):
        assert (tmp_path / name).stat().st_size > 0, name
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["game", "games", "policies"]
    assert lines[1].split()[:3] == ["valhalla", "300", "greedy,greedy"]
    assert lines[2].split()[:3] == ["herrlof", "300", "greedy,greedy"]  # every registered game
    assert lines[3].split()[:3] == ["halali", "300", "greedy,greedy"]
    assert json.loads((tmp_path / "valhalla.csv.json").read_text())["policies"] == ["greedy", "greedy"]
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
    code, _, err = run(capsys, "simulate", "valhalla", "-n", "100", "-o", str(tmp_path / "p.parquet"), "--no-progress")
    assert code == 0, err
    assert len(pd.read_parquet(tmp_path / "p.parquet")) == 100 and (tmp_path / "p.parquet.json").exists()


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_simulate_output_is_the_saved_frame_byte_for_byte(capsys, tmp_path, suffix):
    """The CLI streams the rows chunk by chunk; the file is what ``toolkit.save`` writes for the frame."""
    import toolkit

    code, _, err = run(capsys, "simulate", "attila", "--players", "3", "-n", "700", "--seed", "3",
                       "--policies", "greedy,random,random", "-o", str(tmp_path / f"cli{suffix}"), "--no-progress")
    assert code == 0, err
    frame = toolkit.simulate("attila", {"num_players": 3}, 700, seed=3, policies="greedy,random,random",
                             progress=False)
    saved = toolkit.save(frame, tmp_path / f"api{suffix}")
    assert (tmp_path / f"cli{suffix}").read_bytes() == saved[0].read_bytes()
    assert json.loads((tmp_path / f"cli{suffix}.json").read_text()) == json.loads(saved[1].read_text())


def test_too_many_games_to_keep_is_one_line(capsys, tmp_path):
    """The report keeps one row per game: a count beyond the machine's memory is refused up front."""
    code, out, err = run(capsys, "report", "valhalla", "-n", str(10**13), "--out", str(tmp_path), "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("toolkit: error: n_games=10,000,000,000,000 is too many to keep one row per game")
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------- Herrlof


def test_list_shows_herrlof(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("herrlof"))
    assert row.split()[:3] == ["herrlof", "Herrlof", "2"]
    assert "random,greedy,lookahead" in row and "greedy,greedy" in row and "trick-taking" in row


def test_rules_herrlof_with_publisher_preset(capsys):
    code, out, _ = run(capsys, "rules", "herrlof", "--preset", "publisher")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Herrlof rules (rules_version 1):"
    assert next(line for line in lines if line.startswith("name")).split()[:4] == [
        "name", "type", "default", "publisher"]
    consolation = next(line for line in lines if line.startswith("consolation_range "))
    assert consolation.split()[:6] == ["consolation_range", "set", "of", "int", "3,4,5", "3,4"]
    hand = next(line for line in lines if line.startswith("hand_size"))
    assert hand.split()[:4] == ["hand_size", "int", "15", "15"] and "Cards dealt to each player" in hand
    assert lines[-2:] == ["presets:", "  publisher: consolation_range=3,4"]


def test_rules_herrlof_lists_both_presets(capsys):
    code, out, _ = run(capsys, "rules", "herrlof")
    assert code == 0
    assert out.splitlines()[-3:] == ["presets:", "  standard: (the defaults)", "  publisher: consolation_range=3,4"]


def test_odds_herrlof_prints_the_summary_table(capsys):
    from toolkit.games.herrlof.odds import summary
    from toolkit.games.herrlof.rules import Rules

    code, out, _ = run(capsys, "odds", "herrlof")
    assert code == 0
    lines = out.splitlines()
    assert lines[:3] == ["Herrlof: exact odds, preset standard", "", lines[2]]
    # Herrlof has no per-outcome tables (no throw_table / value_distribution): one table, the summary
    assert lines[2].split() == ["quantity", "exact", "value"]
    assert len(lines) == 3 + len(summary(Rules()))
    assert lines[3].split() == ["P(no", "trump)", "1/7", "0.1429"]
    assert any(line.startswith("mean trumps in a hand") and "720/287" in line for line in lines)


def test_odds_herrlof_with_preset_and_set(capsys):
    code, out, _ = run(capsys, "odds", "herrlof", "--preset", "publisher", "--set", "special_indicator_means=redraw")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Herrlof: exact odds, preset publisher with special_indicator_means=redraw"
    assert lines[3].split() == ["P(no", "trump)", "0", "0.0000"]
    assert any(line.startswith("mean trumps in a hand") and "144/49" in line for line in lines)


def _herrlof_block(out: str) -> list[str]:
    lines = out.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("herrlof: ")):]


def test_simulate_herrlof_prints_the_summary(capsys):
    code, out, _ = run(capsys, "simulate", "herrlof", "-n", "400", "--seed", "1", "--policies", "greedy,random",
                       "--no-progress")
    assert code == 0
    lines = _herrlof_block(out)
    assert lines[0] == "herrlof: 400 games, seed 1, preset standard, policies greedy,random"
    assert lines[3].split()[:2] == ["0", "greedy"] and lines[4].split()[:2] == ["1", "random"]
    wins = int(lines[3].split()[2]) + int(lines[4].split()[2])
    # draws are counted on their own line
    assert lines[5].startswith("no winner: ") and int(lines[5].split()[2]) == 400 - wins
    assert int(lines[3].split()[2]) > int(lines[4].split()[2])  # greedy beats random
    assert "game length in turns (a turn is one trick):" in lines
    quantiles = lines[lines.index("game length in turns (a turn is one trick):") + 2].split()
    assert all(int(q) % 15 == 0 for q in quantiles[2:])  # turns = rounds * hand_size


def test_simulate_herrlof_output_set_and_summary(capsys, tmp_path):
    out_csv = tmp_path / "h.csv"
    argv = ["simulate", "herrlof", "-n", "300", "--seed", "5", "--preset", "publisher", "--set", "hand_size=12",
            "--set", "effect_6=off", "--policies", "greedy,random", "--no-progress"]
    code, out, err = run(capsys, *argv, "-o", str(out_csv), "--summary")
    assert code == 0, err
    assert out.splitlines()[0] == f"wrote {out_csv}, {tmp_path / 'h.csv.json'}"
    df = pd.read_csv(out_csv)
    assert len(df) == 300 and df["game_index"].tolist() == list(range(300))
    assert (df["turns"] == 12 * df["rounds"]).all() and (df["swaps_0"] == 0).all() and (df["swaps_1"] == 0).all()
    meta = json.loads((tmp_path / "h.csv.json").read_text())
    assert meta["game"] == "herrlof" and meta["policies"] == ["greedy", "random"] and meta["preset"] is None
    assert meta["rules"]["hand_size"] == 12 and meta["rules"]["consolation_range"] == [3, 4]
    code, streamed, _ = run(capsys, *argv)
    assert code == 0 and _herrlof_block(out) == _herrlof_block(streamed)
    assert "preset publisher with hand_size=12 effect_6=off" in streamed


def test_simulate_herrlof_lookahead_with_samples(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "herrlof", "-n", "4", "--seed", "2", "--policies", "lookahead:4,random",
                         "-o", str(tmp_path / "l.csv"), "--summary", "--no-progress")
    assert code == 0, err
    assert "policies lookahead:4,random" in out
    assert json.loads((tmp_path / "l.csv.json").read_text())["policies"] == ["lookahead:4", "random"]


@pytest.mark.parametrize("argv, message", [
    (["simulate", "herrlof", "--set", "hand_size=30"],
     "hand_size=30 is not allowed: 2 * hand_size + 1 must be <= the deck size 42, so hand_size in 1..20"),
    (["simulate", "herrlof", "--set", "hand_size=0"], "hand_size='0' is not allowed: an integer in 1..100"),
    (["simulate", "herrlof", "--set", "consolation_range=3,16"],
     "consolation_range=3,16 is not allowed: trick counts must be in 0..hand_size=15 (16 is not)"),
    (["simulate", "herrlof", "--policies", "lookahead:0"],
     "policy='lookahead:0' is not allowed: lookahead:S needs S samples in 1..4096"),
    (["simulate", "herrlof", "--policies", "greedy,lookahead:many"],
     "policy='lookahead:many' is not allowed: lookahead:S needs S samples in 1..4096"),
    (["simulate", "herrlof", "--policies", "greedy:2"],
     "policy='greedy:2' is not allowed: one of random, greedy, lookahead, lookahead:S"),
    (["simulate", "herrlof", "--policies", "greedy:no_stael,greedy"],
     "policy='greedy:no_stael' is not allowed: one of random, greedy, lookahead, lookahead:S, greedy:no_EFFECT"),
    (["simulate", "herrlof", "--policies", "greedy,random,random"], "herrlof needs 2 policies"),
    (["simulate", "herrlof", "--set", "special_indicator_means=redraw", "--set", "hand_size=18"],
     "special_indicator_means='redraw' is not allowed here"),
    (["rules", "herrlof", "--preset", "deluxe"], "preset='deluxe' is not allowed: one of standard, publisher"),
    (["odds", "herrlof", "--set", "suits=5"], "suits='5' is not allowed: an integer in 1..4"),
    (["compare", "herrlof", "--policies", "random,lookahead:0", "-n", "5"], "policy='lookahead:0'"),
    (["compare", "herrlof", "--policies", "random,greedy", "-n", "5", "--set", "hand_size=30"], "hand_size=30"),
])
def test_herrlof_errors_are_one_line_with_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("toolkit: error: ") and message in err


def test_compare_herrlof_with_lookahead_samples(capsys, tmp_path):
    code, out, err = run(capsys, "compare", "herrlof", "--policies", "random,greedy,lookahead:8", "-n", "6",
                         "--seed", "4", "--no-progress", "-o", str(tmp_path / "c.csv"))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "herrlof: 6 games per ordered pair, seed 4 for every pair, preset standard"
    names = ["random", "greedy", "lookahead:8"]
    assert [line.split()[:2] for line in lines[3:12]] == [[a, b] for a in names for b in names]
    start = next(i for i, line in enumerate(lines) if line.startswith("row policy's win rate"))
    assert lines[start + 1].split() == ["policy", *names]
    assert [line.split()[0] for line in lines[start + 2:start + 5]] == names
    table = pd.read_csv(tmp_path / "c.csv")
    assert len(table) == 9 and (table["games"] == 6).all()
    assert (table["mean_turns"] >= 15).all()
    assert json.loads((tmp_path / "c.csv.json").read_text())["policies"] == names


def test_report_herrlof_writes_csv_odds_and_plots(capsys, tmp_path):
    from toolkit.games.herrlof.odds import summary
    from toolkit.games.herrlof.rules import Rules

    code, out, err = run(capsys, "report", "herrlof", "-n", "300", "--seed", "2", "--out", str(tmp_path),
                         "--no-progress")
    assert code == 0, err
    for name in ("herrlof.csv", "herrlof.csv.json", "herrlof_odds.csv", "herrlof_win_rates.png", "herrlof_length.png",
                 "summary.csv"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert not (tmp_path / "valhalla.csv").exists()
    lines = out.splitlines()
    assert "no winner" in lines[0]
    assert lines[1].split()[:3] == ["herrlof", "300", "greedy,greedy"]
    assert len(pd.read_csv(tmp_path / "herrlof_odds.csv")) == len(summary(Rules()))
    row = pd.read_csv(tmp_path / "summary.csv", index_col="game").loc["herrlof"]
    wins = round(row["win_rate_0"] * 300) + round(row["win_rate_1"] * 300)
    assert wins + row["no_winner"] == 300


def test_installed_entry_point_herrlof_bad_hand_size():
    exe = Path(sys.executable).with_name("toolkit")
    if not exe.exists():
        pytest.skip(f"no installed entry point at {exe}")
    proc = subprocess.run([str(exe), "simulate", "herrlof", "--set", "hand_size=30"],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "toolkit: error: hand_size=30 is not allowed: 2 * hand_size + 1 must be <= the deck size 42, "
        "so hand_size in 1..20"]


# --------------------------------------------------------------------- Halali

HALALI_POINTS = {"bear": 10, "fox": 5, "lumberjack": 5, "hunter": 5, "pheasant": 3, "duck": 2, "tree": 2}


def test_list_shows_halali(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("halali"))
    assert row.split()[:3] == ["halali", "Halali", "2"]
    assert "random,greedy,lookahead" in row and "greedy,greedy" in row and "7x7 board of face-down tiles" in row


def test_rules_halali_table_and_preset(capsys):
    code, out, _ = run(capsys, "rules", "halali")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Halali rules (rules_version 1):"
    assert next(line for line in lines if line.startswith("name")).split() == [
        "name", "type", "default", "allowed", "doc"]
    counts = next(line for line in lines if line.startswith("tile_counts"))
    assert counts.split()[:3] == [
        "tile_counts", "mapping", "bear:2,fox:6,lumberjack:2,hunter:8,pheasant:8,duck:7,tree:15"]
    captures = next(line for line in lines if line.startswith("capture_matrix"))
    assert "bear:lumberjack/hunter,fox:pheasant/duck,lumberjack:tree,hunter:bear/fox/pheasant/duck" in captures
    exits = next(line for line in lines if line.startswith("exit_squares"))
    assert exits.split()[:4] == ["exit_squares", "set", "of", "choice"] and "d7:N" in exits and "g4:E" in exits
    assert next(line for line in lines if line.startswith("match_games")).split()[:6] == [
        "match_games", "choice", "1", "one", "of", "1,"]
    assert lines[-2:] == ["presets:", "  standard: (the defaults)"]


def test_rules_halali_with_standard_preset_shows_its_values(capsys):
    code, out, _ = run(capsys, "rules", "halali", "--preset", "standard")
    assert code == 0
    lines = out.splitlines()
    assert next(line for line in lines if line.startswith("name")).split()[:4] == [
        "name", "type", "default", "standard"]
    assert next(line for line in lines if line.startswith("end_phase_moves")).split()[:4] == [
        "end_phase_moves", "int", "5", "5"]


def test_odds_halali_prints_the_summary_table(capsys):
    from toolkit.games.halali.odds import summary  # written beside this test; missing until then
    from toolkit.games.halali.rules import Rules

    code, out, err = run(capsys, "odds", "halali")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:2] == ["Halali: exact odds, preset standard", ""]
    # the summary is the last table printed: its header and one line per row
    table = summary(Rules())
    assert len(lines) >= 3 + len(table) and lines[-len(table) - 1:] == _table_lines(table)
    # 8 hunters among the 48 face-down tiles
    assert any(line.startswith("P(first reveal is a hunter)") and "1/6" in line for line in lines)


def test_odds_halali_with_set(capsys):
    from toolkit.games.halali.odds import summary
    from toolkit.games.halali.rules import Rules

    code, out, err = run(capsys, "odds", "halali", "--set", "tile_counts=hunter:7,tree:16")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Halali: exact odds, preset standard with tile_counts=hunter:7,tree:16"
    # the table printed is the changed rules' table
    changed = summary(Rules.from_assignments(["tile_counts=hunter:7,tree:16"]))
    assert lines[-len(changed) - 1:] == _table_lines(changed)
    assert any(line.startswith("P(first reveal is a hunter)") and "7/48" in line for line in lines)


def _table_lines(table: pd.DataFrame) -> list[str]:
    """The lines ``toolkit`` prints for ``table``."""
    import contextlib
    import io

    from toolkit.cli import _print_table

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        _print_table(table)
    return buffer.getvalue().splitlines()


def _halali_block(out: str) -> list[str]:
    lines = out.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("halali: ")):]


def test_simulate_halali_prints_the_summary(capsys):
    code, out, _ = run(capsys, "simulate", "halali", "-n", "300", "--seed", "1", "--policies", "greedy,random",
                       "--no-progress")
    assert code == 0
    lines = _halali_block(out)
    assert lines[0] == "halali: 300 games, seed 1, preset standard, policies greedy,random"
    assert lines[3].split()[:2] == ["0", "greedy"] and lines[4].split()[:2] == ["1", "random"]
    wins = int(lines[3].split()[2]) + int(lines[4].split()[2])
    # draws (H-6.3) and aborted games (H-7) are counted on their own line
    assert lines[5].startswith("no winner: ") and int(lines[5].split()[2]) == 300 - wins
    assert int(lines[3].split()[2]) > 250  # greedy beats random nearly always
    assert "game length in turns (a turn is one action):" in lines
    quantiles = [int(q) for q in lines[lines.index("game length in turns (a turn is one action):") + 2].split()[2:]]
    assert quantiles == sorted(quantiles) and quantiles[0] >= 48  # every game reveals all 48 tiles


def test_simulate_halali_output_mappings_exits_and_match(capsys, tmp_path):
    out_csv = tmp_path / "h.csv"
    argv = ["simulate", "halali", "-n", "200", "--seed", "5", "--set", "points=tree:4",
            "--set", "capture_matrix=bear:fox/hunter", "--set", "exit_squares=d7:N,g4:E", "--set", "match_games=2",
            "--policies", "greedy,random", "--no-progress"]
    code, out, err = run(capsys, *argv, "-o", str(out_csv), "--summary")
    assert code == 0, err
    assert out.splitlines()[0] == f"wrote {out_csv}, {tmp_path / 'h.csv.json'}"
    df = pd.read_csv(out_csv)
    assert len(df) == 200 and df["game_index"].tolist() == list(range(200))
    kinds = list(HALALI_POINTS)
    assert df.columns.tolist() == [
        "game_index", "first_seat", "winner", "win_0", "win_1", "result", "colour_0", "first_player", "turns",
        "main_turns",
        "end_turns", "plies", "decisions", "options", "lead_changes", "decisive_turn", "forced_reveal_turns",
        "end_reason",
        *[f"{name}_{seat}" for name in ("score", "tiles", "reveals", "passes") for seat in (0, 1)],
        *[f"{table}_{kind}_{seat}" for table in ("captures", "rescues") for kind in kinds for seat in (0, 1)],
        "game1_winner", "game2_winner"]
    assert set(df["result"]) <= {"win", "draw", "aborted"}
    assert set(df["end_reason"]) <= {"end_phase_complete", "early_end", "aborted"}
    points = dict(HALALI_POINTS, tree=4)
    for seat in (0, 1):
        taken = {k: df[f"captures_{k}_{seat}"] + df[f"rescues_{k}_{seat}"] for k in kinds}
        assert (df[f"score_{seat}"] == sum(points[k] * taken[k] for k in kinds)).all()
        assert (df[f"tiles_{seat}"] == sum(taken.values())).all()
        # bears now capture foxes and hunters, never lumberjacks, and nothing else captures lumberjacks
        assert (df[f"captures_lumberjack_{seat}"] == 0).all()
    assert (df["captures_fox_0"] + df["captures_fox_1"]).sum() > 0
    # a match is two games: 48 reveals each, both game winners recorded, the turns summed over both
    assert (df["reveals_0"] + df["reveals_1"] == 96).all()
    assert df["game1_winner"].isin([-1, 0, 1]).all() and df["game2_winner"].isin([-1, 0, 1]).all()
    assert (df["turns"] == df["main_turns"] + df["end_turns"]).all()
    assert (df["plies"] == df["turns"] - df["passes_0"] - df["passes_1"]).all()  # a pass is no decision
    assert (df["winner"] == df["win_1"] - (df["result"] != "win").astype(int)).all()
    assert (df["first_seat"] == df["first_player"]).all()  # the first mover of the match's first game (H-8)
    meta = json.loads((tmp_path / "h.csv.json").read_text())
    assert meta["game"] == "halali" and meta["policies"] == ["greedy", "random"] and meta["preset"] is None
    assert meta["rules"]["points"] == points and meta["rules"]["match_games"] == 2
    assert meta["rules"]["capture_matrix"]["bear"] == ["fox", "hunter"]
    assert meta["rules"]["capture_matrix"]["hunter"] == ["bear", "fox", "pheasant", "duck"]  # the others kept
    assert sorted(meta["rules"]["exit_squares"]) == ["d7:N", "g4:E"]
    # the streaming summary (no -o) prints the very same numbers
    code, streamed, _ = run(capsys, *argv)
    assert code == 0 and _halali_block(out) == _halali_block(streamed)
    assert ("preset standard with points=tree:4 capture_matrix=bear:fox/hunter exit_squares=d7:N,g4:E "
            "match_games=2") in streamed


def test_simulate_halali_single_game_has_no_second_game(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "halali", "-n", "50", "--seed", "3", "--policies", "lookahead,greedy",
                       "-o", str(tmp_path / "l.csv"), "--no-progress")
    assert code == 0, err
    df = pd.read_csv(tmp_path / "l.csv")
    assert (df["game2_winner"] == -2).all() and (df["game1_winner"] == df["winner"]).all()
    assert (df["reveals_0"] + df["reveals_1"] == 48).all() and (df["colour_0"] == 0).all()
    assert json.loads((tmp_path / "l.csv.json").read_text())["policies"] == ["lookahead", "greedy"]


@pytest.mark.parametrize("argv, message", [
    (["simulate", "halali", "--set", "tile_counts=bear:3"],
     "tile_counts=bear:3,fox:6,lumberjack:2,hunter:8,pheasant:8,duck:7,tree:15 is not allowed: "
     "the counts must sum to 48 (they sum to 49)"),
    (["simulate", "halali", "--set", "tile_counts=wolf:3"], "tile_counts='wolf' is not allowed"),
    (["simulate", "halali", "--set", "match_games=3"], "match_games='3' is not allowed: one of 1, 2"),
    (["simulate", "halali", "--set", "exit_squares=d4:N"], "exit_squares='d4:N' is not allowed: a subset of {a1:S"),
    (["simulate", "halali", "--set", "exit_squares=d7:S"], "exit_squares='d7:S' is not allowed"),
    (["simulate", "halali", "--set", "points=tree:500"], "points[tree]='500' is not allowed: an integer in -100..100"),
    (["simulate", "halali", "--set", "ranges=bear:8"], "ranges[bear]='8' is not allowed: an integer in 0..7"),
    (["simulate", "halali", "--set", "capture_matrix=bear:wolf"], "capture_matrix[bear]='wolf' is not allowed"),
    (["simulate", "halali", "--set", "first_player=green"],
     "first_player='green' is not allowed: one of blue, brown, random"),
    (["simulate", "halali", "--set", "end_phase_moves=0"], "end_phase_moves='0' is not allowed: an integer in 1..100"),
    (["simulate", "halali", "--policies", "lookahead:4"],
     "policy='lookahead:4' is not allowed: lookahead takes no argument"),
    (["simulate", "halali", "--policies", "greedy,random,random"], "halali needs 2 policies"),
    (["rules", "halali", "--preset", "publisher"], "preset='publisher' is not allowed: one of standard"),
    (["odds", "halali", "--set", "tile_counts=bear:3"], "tile_counts=bear:3,"),
    (["compare", "halali", "--policies", "random,minimax", "-n", "5"], "policy='minimax'"),
    (["compare", "halali", "--policies", "random,greedy", "-n", "5", "--set", "match_games=3"], "match_games='3'"),
])
def test_halali_errors_are_one_line_with_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("toolkit: error: ") and message in err


def test_compare_halali_every_pair(capsys, tmp_path):
    code, out, err = run(capsys, "compare", "halali", "--policies", "random,greedy,lookahead", "-n", "10",
                         "--seed", "4", "--no-progress", "-o", str(tmp_path / "c.csv"))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "halali: 10 games per ordered pair, seed 4 for every pair, preset standard"
    names = ["random", "greedy", "lookahead"]
    assert [line.split()[:2] for line in lines[3:12]] == [[a, b] for a in names for b in names]
    start = next(i for i, line in enumerate(lines) if line.startswith("row policy's win rate"))
    assert lines[start + 1].split() == ["policy", *names]
    assert [line.split()[0] for line in lines[start + 2:start + 5]] == names
    assert float(lines[start + 3].split()[1]) > 0.5  # greedy against random, both seatings
    table = pd.read_csv(tmp_path / "c.csv")
    assert len(table) == 9 and (table["games"] == 10).all()
    assert (table["mean_turns"] >= 48).all()  # every game reveals all 48 tiles, one action each
    assert json.loads((tmp_path / "c.csv.json").read_text())["policies"] == names


def test_report_halali_writes_csv_odds_and_plots(capsys, tmp_path):
    from toolkit.games.halali.odds import summary
    from toolkit.games.halali.rules import Rules

    code, out, err = run(capsys, "report", "halali", "-n", "300", "--seed", "2", "--out", str(tmp_path),
                         "--no-progress")
    assert code == 0, err
    for name in ("halali.csv", "halali.csv.json", "halali_odds.csv", "halali_win_rates.png", "halali_length.png",
                 "summary.csv"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert not (tmp_path / "valhalla.csv").exists() and not (tmp_path / "herrlof.csv").exists()
    lines = out.splitlines()
    assert "no winner" in lines[0]
    assert lines[1].split()[:3] == ["halali", "300", "greedy,greedy"]
    assert len(pd.read_csv(tmp_path / "halali_odds.csv")) == len(summary(Rules()))
    row = pd.read_csv(tmp_path / "summary.csv", index_col="game").loc["halali"]
    wins = round(row["win_rate_0"] * 300) + round(row["win_rate_1"] * 300)
    assert wins + row["no_winner"] == 300


def test_installed_entry_point_halali_bad_tile_counts():
    exe = Path(sys.executable).with_name("toolkit")
    if not exe.exists():
        pytest.skip(f"no installed entry point at {exe}")
    proc = subprocess.run([str(exe), "simulate", "halali", "--set", "tile_counts=bear:3"],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "toolkit: error: tile_counts=bear:3,fox:6,lumberjack:2,hunter:8,pheasant:8,duck:7,tree:15 is not allowed: "
        "the counts must sum to 48 (they sum to 49)"]


# --------------------------------------------------------------------- Attila (2..5 players, --players)


def _attila_block(out: str) -> list[str]:
    lines = out.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("attila: ")):]


def test_list_shows_attila_with_its_player_range(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("attila"))
    assert row.split()[:3] == ["attila", "Attila", "2-5"]
    assert "greedy,greedy,greedy,greedy" in row and "area-majority" in row


def test_simulate_attila_players_3_prints_three_seats(capsys):
    code, out, err = run(capsys, "simulate", "attila", "--players", "3", "-n", "400", "--seed", "1",
                         "--policies", "greedy,random,random", "--no-progress")
    assert code == 0, err
    lines = _attila_block(out)
    assert lines[0] == "attila: 400 games, seed 1, preset standard, 3 players, policies greedy,random,random"
    assert lines[2].split() == ["seat", "policy", "wins", "win", "rate", "[95%", "CI]"]
    seat_rows = [line.split() for line in lines[3:6]]
    assert [r[:2] for r in seat_rows] == [["0", "greedy"], ["1", "random"], ["2", "random"]]
    assert lines[6].startswith("no winner: ")  # exactly three seat rows
    # tied seats share a win, counted on its own line (each tied seat counts a win)
    assert lines[7].startswith("shared wins: ")
    wins = sum(int(r[2]) for r in seat_rows)
    no_winner, shared = int(lines[6].split()[2].replace(",", "")), int(lines[7].split()[2].replace(",", ""))
    assert wins >= 400 - no_winner and no_winner >= 0 and shared >= 0
    assert int(seat_rows[0][2]) > 300  # greedy against two random players
    assert "game length in turns (a turn is one player's turn):" in lines


def test_players_equals_set_num_players(capsys):
    argv = ["simulate", "attila", "-n", "200", "--seed", "2", "--no-progress"]
    _, by_option, _ = run(capsys, *argv, "--players", "5")
    _, by_set, _ = run(capsys, *argv, "--set", "num_players=5")
    _, both, _ = run(capsys, *argv, "--players", "5", "--set", "num_players=5")
    assert by_option == by_set == both
    assert _attila_block(by_option)[0] == "attila: 200 games, seed 2, preset standard, 5 players, policies " + \
        ",".join(["random"] * 5)
    # another --set beside --players: the label shows it, and the player count once
    _, changed, _ = run(capsys, *argv, "--players", "2", "--set", "hand_size=5")
    assert _attila_block(changed)[0].startswith("attila: 200 games, seed 2, preset standard with hand_size=5, "
                                                "2 players, policies random,random")


@pytest.mark.parametrize("command", [["simulate"], ["odds"], ["rules"], ["compare", "--policies", "random"]])
@pytest.mark.parametrize("game, players", [("valhalla", 2), ("herrlof", 2), ("halali", 2)])
def test_players_is_refused_for_a_fixed_number_of_players(capsys, command, game, players):
    code, out, err = run(capsys, command[0], game, *command[1:], "--players", "3")
    assert code == 2 and out == ""
    assert err == (f"toolkit: error: --players 3 is not allowed: {game} is for a fixed number of players "
                   f"({players})\n")


@pytest.mark.parametrize("argv, message", [
    (["simulate", "attila", "--players", "3", "--set", "num_players=4"],
     "--players 3 is not allowed with --set num_players=4: give the number of players once"),
    (["compare", "attila", "--policies", "random", "--players", "2", "--set", "num_players=5"],
     "--players 2 is not allowed with --set num_players=5"),
    (["simulate", "attila", "--players", "6"], "--players 6 is not allowed: an integer in 2..5"),
    (["rules", "attila", "--players", "1"], "--players 1 is not allowed: an integer in 2..5"),
    (["simulate", "attila", "--set", "num_players=6"], "num_players='6' is not allowed: an integer in 2..5"),
    (["simulate", "attila", "--players", "3", "--policies", "greedy,random"], "attila needs 3 policies"),
    (["simulate", "attila", "--players", "5", "--set", "cards_per_tribe=4"],
     "cards_per_tribe=4 is not allowed with num_players=5 and hand_size=6"),
])
def test_attila_errors_are_one_line_with_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("toolkit: error: ") and message in err


def test_players_that_is_not_a_number_is_a_usage_error(capsys):
    code, _, err = run(capsys, "simulate", "attila", "--players", "three")
    assert code == 2 and err.count("\n") == 1 and "--players" in err


def test_simulate_attila_output_columns(capsys, tmp_path):
    from toolkit.games import GAMES

    out_csv = tmp_path / "a.csv"
    argv = ["simulate", "attila", "--players", "3", "-n", "300", "--seed", "5", "--policies", "greedy", "--no-progress"]
    code, out, err = run(capsys, *argv, "-o", str(out_csv), "--summary")
    assert code == 0, err
    assert out.splitlines()[0] == f"wrote {out_csv}, {tmp_path / 'a.csv.json'}"
    df = pd.read_csv(out_csv)
    rules = GAMES["attila"].Rules(num_players=3)
    assert df.columns.tolist() == ["game_index", "first_seat", *GAMES["attila"].result_columns(rules)]
    assert (df["first_seat"] == df["start_player"]).all() and df["first_seat"].isin([0, 1, 2]).all()
    assert len(df) == 300 and df["game_index"].tolist() == list(range(300))
    # the per-seat columns of seats 0..2 only (design decision 5)
    for seat in range(3):
        assert {f"win_{seat}", f"score_{seat}", f"influence_{seat}_0", f"influence_{seat}_5"} <= set(df.columns)
    absent = [f"{name}_{seat}" for name in ("win", "vp", "figures_placed", "support_cards") for seat in (3, 4)]
    assert not set(absent) & set(df.columns)
    assert not [c for c in df.columns if c.startswith(("influence_3_", "influence_4_"))]
    assert {"winner", "n_winners", "result", "turns", "plies", "wars", "end_reason"} <= set(df.columns)
    assert set(df["result"]) <= {"win", "shared", "aborted"}
    wins = df[["win_0", "win_1", "win_2"]].sum(axis=1)
    assert (wins == df["n_winners"]).all() and ((df["winner"] == -1) == (df["n_winners"] != 1)).all()
    meta = json.loads((tmp_path / "a.csv.json").read_text())
    assert meta["game"] == "attila" and meta["policies"] == ["greedy"] * 3 and meta["preset"] == "standard"
    assert meta["rules"]["num_players"] == 3 and meta["rules"]["two_player_second_place_gap"] is None
    # the streaming summary (no -o) prints the very same numbers, shared wins included
    code, streamed, _ = run(capsys, *argv)
    assert code == 0 and _attila_block(out) == _attila_block(streamed)
    assert any(line.startswith("shared wins: ") for line in _attila_block(streamed))


def test_rules_attila_with_players_shows_their_values(capsys):
    def value(lines, column, name):  # the cell of row `name` under the header `column`
        start = next(line for line in lines if line.startswith("name ")).index(column)
        return next(line for line in lines if line.startswith(name + " "))[start:].split()[0]

    code, out, err = run(capsys, "rules", "attila", "--players", "2")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Attila rules (rules_version 1):"
    assert next(line for line in lines if line.startswith("name")).split()[:5] == [
        "name", "type", "default", "2", "players"]
    assert next(line for line in lines if line.startswith("num_players")).split()[:4] == [
        "num_players", "int", "4", "2"]
    assert value(lines, "default", "two_player_second_place_gap") == "2"  # "2 players: 2; 3 players: ..."
    assert value(lines, "2 players", "two_player_second_place_gap") == "2"
    assert value(lines, "2 players", "hand_size") == "6"
    assert lines[-2:] == ["presets:", "  standard: (the defaults)"]
    code, out, _ = run(capsys, "rules", "attila", "--players", "3", "--preset", "standard")
    lines = out.splitlines()
    assert code == 0 and "standard, 3 players" in next(line for line in lines if line.startswith("name"))
    assert value(lines, "standard, 3 players", "two_player_second_place_gap") == "none"
    assert value(lines, "standard, 3 players", "num_players") == "3"


def test_odds_attila_with_players(capsys):
    from toolkit.games.attila.odds import summary
    from toolkit.games.attila.rules import Rules

    code, out, err = run(capsys, "odds", "attila", "--players", "2")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:2] == ["Attila: exact odds, preset standard, 2 players", ""]
    assert lines[2:] == _table_lines(summary(Rules(num_players=2)))


def test_compare_attila_three_players_rotates_the_seats(capsys, tmp_path):
    code, out, err = run(capsys, "compare", "attila", "--players", "3", "--policies", "random,greedy", "-n", "100",
                         "--seed", "4", "--no-progress", "-o", str(tmp_path / "c.csv"))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("attila: 100 games per seating, 3 seatings per ordered pair, seed 4 for every seating, "
                        "preset standard, 3 players")
    assert lines[1].startswith("the tested policy sits in seat 0..2 in turn") and lines[1].endswith("1/3 = 0.3333")
    assert lines[3].split()[:4] == ["tested", "field", "games", "seat"]
    assert "seat 2 [95% CI]" in lines[3] and "seat 3" not in lines[3] and "all seats [95% CI]" in lines[3]
    assert [line.split()[:3] for line in lines[4:8]] == [
        ["random", "random", "300"], ["random", "greedy", "300"], ["greedy", "random", "300"],
        ["greedy", "greedy", "300"]]
    start = next(i for i, line in enumerate(lines) if line.startswith("the tested (row) policy's win rate"))
    assert lines[start + 1].split() == ["policy", "random", "greedy"]
    greedy_row = lines[start + 3].split()
    assert greedy_row[0] == "greedy" and float(greedy_row[1]) > 1 / 3
    table = pd.read_csv(tmp_path / "c.csv")
    assert len(table) == 4 and (table["seats"] == 3).all() and (table["games"] == 100).all()
    assert json.loads((tmp_path / "c.csv.json").read_text())["rules"]["num_players"] == 3


def test_compare_attila_two_players_is_the_pair_table(capsys):
    code, out, err = run(capsys, "compare", "attila", "--players", "2", "--policies", "random,greedy", "-n", "100",
                         "--no-progress")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "attila: 100 games per ordered pair, seed 0 for every pair, preset standard, 2 players"
    assert lines[2].split()[:4] == ["seat", "0", "seat", "1"] and "shared wins" in lines[2]


# --------------------------------------------------------------------- Walhalla (3..4 players, --players)

# spec walhalla.md §9.2, in its order
WALHALLA_PARAMETERS = [
    "num_players", "peninsula_tiles", "raids", "vikings_per_colour", "start_midgard", "initial_walhalla_source",
    "initial_action_cards", "forest_vp", "cult_cards", "village_bonus", "landing_mandatory", "winner_loses_hero",
    "action_deck", "horn_strength", "plunder_vp", "walhalla_card_bonus", "sell_cards_for_vikings",
    "reinforcement_table", "walhalla_final_vp", "final_vp_per_occupied_field", "tie_rounding",
    "peninsula_eligibility_min_vikings", "start_player", "tiebreak"]


def _walhalla_block(out: str) -> list[str]:
    lines = out.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("walhalla: ")):]


def test_list_shows_walhalla_with_its_player_range(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("walhalla"))
    assert row.split()[:3] == ["walhalla", "Walhalla", "3-4"]
    assert "random,greedy,lookahead" in row and "greedy,greedy,greedy,greedy" in row and "Viking" in row


def test_simulate_walhalla_players_3_prints_three_seats(capsys):
    import toolkit

    code, out, err = run(capsys, "simulate", "walhalla", "--players", "3", "-n", "2000", "--seed", "1",
                         "--no-progress")
    assert code == 0, err
    lines = _walhalla_block(out)
    assert lines[0] == "walhalla: 2,000 games, seed 1, preset standard, 3 players, policies random,random,random"
    assert lines[2].split() == ["seat", "policy", "wins", "win", "rate", "[95%", "CI]"]
    seat_rows = [line.split() for line in lines[3:6]]
    assert [r[:2] for r in seat_rows] == [["0", "random"], ["1", "random"], ["2", "random"]]
    assert lines[6] == "no winner: 0 games, 0.0000 [0.0000, 0.0019]"  # exactly three seat rows; W-9.4
    assert lines[7].startswith("shared wins: ") and lines[7].endswith("(a win for each tied seat)")
    assert "game length in turns (a turn is one dragon drawn):" in lines
    df = toolkit.simulate("walhalla", toolkit.rules("walhalla", num_players=3), n_games=2000, seed=1, progress=False)
    assert [int(r[2].replace(",", "")) for r in seat_rows] == [df[f"win_{s}"].sum() for s in range(3)]
    assert int(lines[7].split()[2].replace(",", "")) == (df["n_winners"] >= 2).sum()


def test_simulate_walhalla_draw_18_and_the_variable_preset(capsys, tmp_path):
    argv = ["simulate", "walhalla", "-n", "400", "--seed", "3", "--no-progress"]
    code, by_set, err = run(capsys, *argv, "--set", "peninsula_tiles=draw_18")
    assert code == 0, err
    _, by_preset, _ = run(capsys, *argv, "--preset", "variable")
    assert by_set == by_preset  # the same rules: the label names the preset they equal
    assert _walhalla_block(by_set)[0] == ("walhalla: 400 games, seed 3, preset variable, 4 players, "
                                          "policies random,random,random,random")
    _, standard, _ = run(capsys, *argv)
    assert _walhalla_block(standard)[3:7] != _walhalla_block(by_set)[3:7]
    # W-2.1: one of the 18-tile combinations, in any order
    code, _, err = run(capsys, *argv, "--preset", "variable", "-o", str(tmp_path / "v.csv"))
    assert code == 0, err
    lengths = pd.read_csv(tmp_path / "v.csv")[["length_0", "length_1", "length_2"]].to_numpy()
    assert {tuple(sorted(row)) for row in lengths} == {(5, 5, 8), (5, 6, 7), (6, 6, 6)}
    assert {tuple(row) for row in lengths} > {(8, 5, 5), (5, 8, 5), (5, 5, 8)}
    meta = json.loads((tmp_path / "v.csv.json").read_text())
    assert meta["preset"] == "variable" and meta["rules"]["peninsula_tiles"] == "draw_18"
    # a fixed list is a --set that names no preset
    code, out, err = run(capsys, *argv, "--set", "peninsula_tiles=5,6,7", "-o", str(tmp_path / "f.csv"), "--summary")
    assert code == 0, err
    assert _walhalla_block(out)[0].startswith("walhalla: 400 games, seed 3, preset standard with "
                                              "peninsula_tiles=5,6,7, 4 players")
    fixed = pd.read_csv(tmp_path / "f.csv")
    assert (fixed["length_0"] == 5).all() and (fixed["length_1"] == 6).all() and (fixed["length_2"] == 7).all()


def test_odds_walhalla_prints_the_table(capsys):
    from toolkit.games.walhalla.odds import summary
    from toolkit.games.walhalla.rules import Rules

    code, out, err = run(capsys, "odds", "walhalla")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:2] == ["Walhalla: exact odds, preset standard, 4 players", ""]
    assert lines[2:] == _table_lines(summary(Rules()))
    assert lines[2].split()[:3] == ["quantity", "exact", "value"]
    assert any(line.startswith("P(no wheat field on a given peninsula)") and "1/221" in line for line in lines)
    code, out, err = run(capsys, "odds", "walhalla", "--preset", "variable", "--players", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:2] == ["Walhalla: exact odds, preset variable, 3 players", ""]
    assert lines[2:] == _table_lines(summary(Rules.preset("variable", num_players=3)))


def test_rules_walhalla_lists_every_parameter(capsys):
    from toolkit.core.params import params_of
    from toolkit.games.walhalla.rules import Rules

    code, out, err = run(capsys, "rules", "walhalla")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Walhalla rules (rules_version 1):"
    start = next(i for i, line in enumerate(lines) if line.startswith("name "))
    assert lines[start].split() == ["name", "type", "default", "allowed", "doc"]
    names = [line.split()[0] for line in lines[start + 1:start + 1 + len(WALHALLA_PARAMETERS)]]
    assert names == WALHALLA_PARAMETERS == list(params_of(Rules))
    assert lines[start + 1 + len(WALHALLA_PARAMETERS)] == ""  # no other row
    row = next(line for line in lines if line.startswith("peninsula_tiles "))
    assert "6,6,6" in row and "a list of 3 integers in 5..8, or draw_18" in row
    row = next(line for line in lines if line.startswith("num_players "))
    assert "an integer in 3..4" in row
    assert lines[-3:] == ["presets:", "  standard: peninsula_tiles=6,6,6", "  variable: peninsula_tiles=draw_18"]
    code, out, err = run(capsys, "rules", "walhalla", "--players", "3", "--preset", "variable")
    assert code == 0, err
    header = next(line for line in out.splitlines() if line.startswith("name "))
    assert "variable, 3 players" in header
    start_midgard = next(line for line in out.splitlines() if line.startswith("start_midgard "))
    assert start_midgard[header.index("variable, 3 players"):].split()[0] == "9"  # W-2.5


@pytest.mark.parametrize("argv, message", [
    (["simulate", "walhalla", "--set", "peninsula_tiles=4,6,8"],
     "peninsula_tiles='4,6,8' is not allowed: a list of 3 integers in 5..8, or draw_18"),
    (["simulate", "walhalla", "--set", "peninsula_tiles=8,8,8"],
     "peninsula_tiles=8,8,8 is not allowed: the three lengths must sum to at most 18"),
    (["simulate", "walhalla", "--players", "5"], "--players 5 is not allowed: an integer in 3..4"),
    (["compare", "walhalla", "--policies", "random,greedy", "--players", "2"],
     "--players 2 is not allowed: an integer in 3..4"),
    (["odds", "walhalla", "--set", "num_players=5"], "num_players='5' is not allowed: an integer in 3..4"),
    (["simulate", "walhalla", "--policies", "greedy,random"], "walhalla needs 4 policies"),
    (["simulate", "walhalla", "--policies", "lookahead:0"], "policy='lookahead:0'"),
    (["simulate", "walhalla", "--players", "3", "--set", "reinforcement_table=8,7,6,5"],
     "reinforcement_table=8,7,6,5 is not allowed with num_players=3"),
])
def test_walhalla_errors_are_one_line_with_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("toolkit: error: ") and message in err


def test_compare_walhalla_rotates_the_tested_policy_through_four_seats(capsys, tmp_path):
    code, out, err = run(capsys, "compare", "walhalla", "--policies", "random,greedy", "-n", "200", "--seed", "2",
                         "--no-progress", "-o", str(tmp_path / "c.csv"))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("walhalla: 200 games per seating, 4 seatings per ordered pair, seed 2 for every seating, "
                        "preset standard, 4 players")
    assert lines[1].startswith("the tested policy sits in seat 0..3 in turn") and lines[1].endswith("1/4 = 0.2500")
    assert "seat 3 [95% CI]" in lines[3] and "seat 4" not in lines[3] and "all seats [95% CI]" in lines[3]
    assert [line.split()[:3] for line in lines[4:8]] == [
        ["random", "random", "800"], ["random", "greedy", "800"], ["greedy", "random", "800"],
        ["greedy", "greedy", "800"]]
    start = next(i for i, line in enumerate(lines) if line.startswith("the tested (row) policy's win rate"))
    assert lines[start + 1].split() == ["policy", "random", "greedy"]
    greedy_row = lines[start + 3].split()
    assert greedy_row[0] == "greedy" and float(greedy_row[1]) > 0.5  # greedy against three random players
    table = pd.read_csv(tmp_path / "c.csv")
    assert len(table) == 4 and (table["seats"] == 4).all() and (table["games"] == 200).all()
    meta = json.loads((tmp_path / "c.csv.json").read_text())
    assert meta["rules"]["num_players"] == 4 and meta["policies"] == ["random", "greedy"]


def test_report_walhalla_prints_four_seats(capsys, tmp_path):
    from toolkit.core.game import DEFAULT_REPORT_GAMES
    from toolkit.games import GAMES

    code, out, err = run(capsys, "report", "walhalla", "-n", "100", "--seed", "1", "--out", str(tmp_path),
                         "--no-progress")
    assert code == 0, err
    lines = out.splitlines()
    assert "seat 3 wins [95% CI]" in lines[0] and "shared wins" in lines[0]
    assert lines[1].split()[:3] == ["walhalla", "100", "greedy,greedy,greedy,greedy"]
    for name in ("walhalla.csv", "walhalla.csv.json", "walhalla_odds.csv", "walhalla_win_rates.png",
                 "walhalla_length.png", "summary.csv"):
        assert (tmp_path / name).stat().st_size > 0, name
    # the help gives the default number of games of each game that plays fewer than 200,000
    code, out, _ = run(capsys, "report", "--help")
    assert code == 0
    help_text = " ".join(out.split())
    fewer = {name: spec.presentation.report_games for name, spec in GAMES.items() if spec.presentation.report_games != DEFAULT_REPORT_GAMES}
    assert fewer == {"attila": 50_000, "walhalla": 50_000}
    assert "(default 200,000; Attila 50,000, Walhalla 50,000)" in help_text


def test_installed_entry_point_walhalla_players_out_of_range():
    exe = Path(sys.executable).with_name("toolkit")
    if not exe.exists():
        pytest.skip(f"no installed entry point at {exe}")
    proc = subprocess.run([str(exe), "simulate", "walhalla", "--players", "5"],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == ["toolkit: error: --players 5 is not allowed: an integer in 3..4"]


def test_compare_with_one_policy_says_it_is_self_play(capsys):
    """Issue 51: ``compare --policies random`` printed a one-cell matrix and no word on what it played."""
    code, out, err = run(capsys, "compare", "valhalla", "--policies", "greedy", "-n", "50", "--no-progress")
    assert code == 0, err
    assert out.strip().splitlines()[-1] == ("one policy: greedy against itself in every seat (self-play: the seats' "
                                            "edge, no comparison); give two or more to compare them, e.g. "
                                            "--policies greedy,random")
    code, out, err = run(capsys, "compare", "valhalla", "--policies", "greedy,random", "-n", "50", "--no-progress")
    assert code == 0 and "one policy" not in out  # the control: two policies are compared
