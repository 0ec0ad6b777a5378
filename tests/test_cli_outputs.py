"""Every file a command writes is checked before any game is played, the same way in every command, and
is written in the format its suffix names (issue 36, points 14 and 15).

A refused path (a suffix the command does not write, a folder, a path under a file, a folder that does
not take a new file, a folder that does not exist) exits 2 with one line naming the option, and no game is
played: every game goes through the kernel driver's ``Blocks.__call__``, which the refusal tests make fail.
A missing folder is refused, not made (issue 51: ``simulate -o /nonexistent_dir/x.csv`` made the folder, at
the root of the disk for a typo); a report's folder is made, but not the folder it goes in.  ``.parquet``
holds Parquet (read back by pyarrow) with the same table as ``.csv``, each with a sidecar of its own
(``X.csv.json``, ``X.parquet.json``), and both hold the numbers the Python API gives for the same run.
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

UNWRITABLE = "/proc"  # takes no new file, whoever runs the tests

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
        "missing folder": (str(tmp_path / "typo" / "deeper" / f"out{suffix}"), "does not exist (make it first)"),
    }


@pytest.mark.parametrize("kind", ["suffix", "folder", "under a file", "unwritable", "missing folder"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_bad_output_is_refused_before_any_game(capsys, tmp_path, no_games, command, kind):
    argv, option, suffixes = COMMANDS[command]
    path, reason = _bad_paths(tmp_path, suffixes[0])[kind]
    code, out, err = run(capsys, *argv, option, path)
    name = "plot" if option == "--plot" else "output"
    assert code == 2, out
    assert err.count("\n") == 1 and err.startswith(f"toolkit: error: {name}={path!r} is not allowed: "), err
    assert reason in err
    assert not list(tmp_path.glob("out*")) and not list(tmp_path.glob("*/out*")) and not (tmp_path / "typo").exists()


@pytest.mark.parametrize("kind", ["under a file", "unwritable", "missing folder"])
@pytest.mark.parametrize("command", list(FOLDER_COMMANDS))
def test_a_bad_output_folder_is_refused_before_any_game(capsys, tmp_path, no_games, command, kind):
    path, reason = {"under a file": _bad_paths(tmp_path, ".csv")["under a file"],
                    "unwritable": (f"{UNWRITABLE}/toolkit-no-such-folder", "does not take a new file"),
                    "missing folder": (str(tmp_path / "typo" / "html"), "does not exist (make it first)")}[kind]
    code, _, err = run(capsys, *FOLDER_COMMANDS[command], path)
    assert code == 2 and err.count("\n") == 1 and reason in err
    assert f"{command.split('--')[1]}={path!r} is not allowed" in err and not (tmp_path / "typo").exists()


def test_the_negative_control_a_good_path_does_play(capsys, tmp_path, no_games):
    """The refusal tests' detector fires when a game is played."""
    with pytest.raises(AssertionError, match="a game was played"):
        main(["simulate", "valhalla", "-n", "10", "-o", str(tmp_path / "ok.csv"), "--no-progress"])


def _read(path):
    return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)


@pytest.mark.parametrize("command", ["simulate", "compare", "metrics", "ladder", "sweep"])
def test_each_suffix_writes_its_format_with_a_sidecar_of_its_own(capsys, tmp_path, command):
    argv, option, _ = COMMANDS[command]
    written = {}
    for suffix in (".csv", ".parquet"):
        target = tmp_path / f"table{suffix}"
        code, out, err = run(capsys, *argv, "--seed", "3", option, str(target))
        assert code == 0, err
        assert str(target) in out and target.exists() and (tmp_path / f"table{suffix}.json").exists()
        written[suffix] = _read(target)
    # one name in both formats: two sidecars, each describing its own file
    assert json.loads((tmp_path / "table.csv.json").read_text()) == json.loads((tmp_path / "table.parquet.json").read_text())
    assert not (tmp_path / "table.json").exists()
    with open(tmp_path / "table.parquet", "rb") as f:
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
    assert json.loads(results.sidecar_path(target).read_text())["answer"] == table.attrs["answer"]


def test_the_metrics_file_holds_the_metrics(capsys, tmp_path):
    target = tmp_path / "m.parquet"
    assert run(capsys, "metrics", "valhalla", "-n", "300", "--seed", "5", "-o", str(target))[0] == 0
    summary = toolkit.simulate("valhalla", n_games=300, seed=5, keep="summary", progress=False)
    table = metrics.design_metrics(summary)
    found = results.load(target).set_index("metric")
    assert found.index.tolist() == table.index.tolist()
    assert found["value"].tolist() == pytest.approx(table["value"].astype(float).tolist(), nan_ok=True)


def test_the_plot_and_the_tuning_are_refused_in_a_missing_folder_and_written_in_one_that_exists(capsys, tmp_path):
    for argv, name, target in ((COMMANDS["ladder --plot"][0], "--plot", tmp_path / "new" / "ladder.png"),
                               (COMMANDS["tune"][0], "-o", tmp_path / "other" / "best.json")):
        code, out, err = run(capsys, *argv, name, str(target))
        assert code == 2 and "does not exist (make it first)" in err and not target.parent.exists()
        target.parent.mkdir()
        code, out, err = run(capsys, *argv, name, str(target))
        assert code == 0, err
    assert (tmp_path / "new" / "ladder.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((tmp_path / "other" / "best.json").read_text())["settings"]["trials"] == 2


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT"])
def test_a_run_stopped_by_a_signal_removes_its_unfinished_file_and_says_so(tmp_path, stop):
    """Issue 51: stopped by SIGTERM (kill, a job scheduler) the run left its 45 MB ``.part`` file behind,
    saying nothing; now SIGTERM stops it as Ctrl-C (SIGINT) does: the partial file is removed, the one line
    on stderr names it, the exit code is 130, and no file that looks complete is left."""
    import os
    import signal
    import subprocess
    import sys
    import time

    target = tmp_path / "z.parquet"
    part = tmp_path / "z.parquet.part"
    # a test run started in the background (nohup, `make test &`) ignores SIGINT, and an ignored signal stays
    # ignored in its children (CI's clone run timed out here): the run gets the default back, as a command
    # typed at a shell has it
    run_ = subprocess.Popen([sys.executable, "-m", "toolkit.cli", "simulate", "valhalla", "-n", "50000000", "-o",
                             str(target), "--threads", "1", "--no-progress"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not (part.exists() and part.stat().st_size > 0) and time.monotonic() < deadline and run_.poll() is None:
        time.sleep(0.1)
    assert part.exists() and part.stat().st_size > 0, "the control: the run was writing its file"
    run_.send_signal(getattr(signal, stop))
    _, err = run_.communicate(timeout=120)
    assert run_.returncode == 130
    assert err.strip().splitlines()[-1] == f"toolkit: interrupted; removed the unfinished {part}"
    assert sorted(tmp_path.iterdir()) == []
