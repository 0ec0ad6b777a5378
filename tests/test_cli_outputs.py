"""Every file a command writes is checked before any game is played, the same way in every command, and
is written in the format its suffix names (issue 36, points 14 and 15).

A refused path (a suffix the command does not write, a folder, a path under a file, a folder that does
not take a new file) exits 2 with one line naming the option, and no game is played: every game goes
through the kernel driver's ``Blocks.__call__``, which the refusal tests make fail.  An accepted path in
a folder that does not exist yet is created; ``.parquet`` holds Parquet (read back by pyarrow) with the
same table as ``.csv``, and both hold the numbers the Python API gives for the same run.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

import toolkit
from toolkit import analysis
from toolkit.analysis import metrics
from toolkit.cli import main
from toolkit.core import driver, results

UNWRITABLE = "/proc/toolkit-no-such-folder"  # /proc takes no new file, whoever runs the tests

# command -> (its argv without the output option, the option, the suffixes it writes)
COMMANDS = {
    "simulate": (["simulate", "valhalla", "-n", "40"], "-o", (".csv", ".parquet")),
    "compare": (["compare", "valhalla", "--policies", "random,greedy", "-n", "20"], "-o", (".csv", ".parquet")),
    "metrics": (["metrics", "valhalla", "-n", "40"], "-o", (".csv", ".parquet")),
    "ladder": (["ladder", "valhalla", "--policies", "random,greedy", "-n", "10"], "-o", (".csv", ".parquet")),
    "ladder --plot": (["ladder", "valhalla", "--policies", "random,greedy", "-n", "10"], "--plot",
                      (".png", ".svg", ".pdf")),
    "sweep": (["sweep", "valhalla", "--vary", "zero_runes_value=4,5", "-n", "40"], "-o", (".csv", ".parquet")),
    "tune": (["tune", "valhalla", "--target", "first_player_advantage=0", "--vary", "zero_runes_value=4..6",
              "--trials", "2", "-n", "40"], "-o", (".json",)),
}
FOLDER_COMMANDS = {
    "report --out": ["report", "valhalla", "-n", "10", "--out"],
    "report --html": ["report", "valhalla", "-n", "10", "--html"],
}


def run(capsys, *argv):
    code = main([*argv, "--no-progress"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test (the refusal must come first)."""

    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before the output was refused")

    monkeypatch.setattr(driver.Blocks, "__call__", refuse)


def _bad_paths(tmp_path, suffix):
    a_file = tmp_path / "a-file.txt"
    a_file.write_text("x")
    (tmp_path / f"folder{suffix}").mkdir()
    return {
        "suffix": (str(tmp_path / "out.xlsx"), "the name must end in"),
        "folder": (str(tmp_path / f"folder{suffix}"), "it is a folder"),
        "under a file": (str(a_file / f"out{suffix}"), "is a file, not a folder"),
        "unwritable": (f"{UNWRITABLE}/out{suffix}", "does not take a new file"),
    }


@pytest.mark.parametrize("kind", ["suffix", "folder", "under a file", "unwritable"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_bad_output_is_refused_before_any_game(capsys, tmp_path, no_games, command, kind):
    argv, option, suffixes = COMMANDS[command]
    path, reason = _bad_paths(tmp_path, suffixes[0])[kind]
    code, out, err = run(capsys, *argv, option, path)
    name = "plot" if option == "--plot" else "output"
    assert code == 2, out
    assert err.count("\n") == 1 and err.startswith(f"toolkit: error: {name}={path!r} is not allowed: "), err
    assert reason in err
    assert not list(tmp_path.glob("out*")) and not list(tmp_path.glob("*/out*"))


@pytest.mark.parametrize("kind", ["under a file", "unwritable"])
@pytest.mark.parametrize("command", list(FOLDER_COMMANDS))
def test_a_bad_output_folder_is_refused_before_any_game(capsys, tmp_path, no_games, command, kind):
    path, reason = _bad_paths(tmp_path, ".csv")[kind]
    code, _, err = run(capsys, *FOLDER_COMMANDS[command], path)
    assert code == 2 and err.count("\n") == 1 and reason in err
    assert f"{command.split('--')[1]}={path!r} is not allowed" in err


def test_the_negative_control_a_good_path_does_play(capsys, tmp_path, no_games):
    """The refusal tests' detector fires when a game is played."""
    with pytest.raises(AssertionError, match="a game was played"):
        main(["simulate", "valhalla", "-n", "10", "-o", str(tmp_path / "ok.csv"), "--no-progress"])


def _read(path):
    return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)


@pytest.mark.parametrize("command", ["simulate", "compare", "metrics", "ladder", "sweep"])
def test_a_new_folder_is_made_and_each_suffix_writes_its_format(capsys, tmp_path, command):
    argv, option, _ = COMMANDS[command]
    written = {}
    for suffix in (".csv", ".parquet"):
        target = tmp_path / suffix[1:] / "deeper" / f"table{suffix}"
        code, out, err = run(capsys, *argv, "--seed", "3", option, str(target))
        assert code == 0, err
        assert str(target) in out and target.exists() and target.with_suffix(".json").exists()
        written[suffix] = _read(target)
    with open(tmp_path / "parquet" / "deeper" / "table.parquet", "rb") as f:
        assert f.read(4) == b"PAR1"  # Parquet's magic bytes, not CSV text under a .parquet name
    csv, parquet = written[".csv"], written[".parquet"]
    assert list(csv.columns) == list(parquet.columns) and len(csv) == len(parquet) > 0
    for column in csv.columns:
        if pd.api.types.is_numeric_dtype(parquet[column]):
            assert csv[column].to_numpy() == pytest.approx(parquet[column].to_numpy(), nan_ok=True), column
        else:
            assert csv[column].astype(str).tolist() == parquet[column].astype(str).tolist(), column


def test_the_ladder_file_holds_the_ladder(capsys, tmp_path):
    target = tmp_path / "ladder.parquet"
    assert run(capsys, *COMMANDS["ladder"][0], "--seed", "3", "-o", str(target))[0] == 0
    table = analysis.ladder("valhalla", policies=("random", "greedy"), n_games=10, seed=3, progress=False)
    found = results.load(target).set_index("policy")
    assert found.index.tolist() == table.index.tolist()
    for column in ("rating", "rating_low", "first_player_advantage", "skill_gap_high"):
        assert found[column].tolist() == pytest.approx(table[column].tolist()), column
    assert json.loads(target.with_suffix(".json").read_text())["answer"] == table.attrs["answer"]


def test_the_metrics_file_holds_the_metrics(capsys, tmp_path):
    target = tmp_path / "m.parquet"
    assert run(capsys, "metrics", "valhalla", "-n", "300", "--seed", "5", "-o", str(target))[0] == 0
    summary = toolkit.simulate("valhalla", n_games=300, seed=5, keep="summary", progress=False)
    table = metrics.design_metrics(summary)
    found = results.load(target).set_index("metric")
    assert found.index.tolist() == table.index.tolist()
    assert found["value"].tolist() == pytest.approx(table["value"].astype(float).tolist(), nan_ok=True)


def test_the_plot_and_the_tuning_go_in_a_new_folder(capsys, tmp_path):
    plot = tmp_path / "new" / "ladder.png"
    code, out, err = run(capsys, *COMMANDS["ladder --plot"][0], "--plot", str(plot))
    assert code == 0, err
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    best = tmp_path / "other" / "best.json"
    code, out, err = run(capsys, *COMMANDS["tune"][0], "-o", str(best))
    assert code == 0, err
    assert json.loads(best.read_text())["settings"]["trials"] == 2
