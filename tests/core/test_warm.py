"""Compiling is never silent, and can be done ahead (``toolkit.core.warm``, ``toolkit warm``)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import toolkit
from toolkit.cli import main
from toolkit.core import ahead, warm
from toolkit.core.driver import Blocks

REPO = Path(__file__).resolve().parents[2]


class _Loop:
    """A stand-in for a compiled copy: its signatures say whether this process holds it."""

    def __init__(self, compiled=False):
        self.signatures = ["sig"] if compiled else []


def _spec(compiled=()):
    driver = Blocks(_Loop("plain" in compiled), _Loop("search" in compiled), _Loop("random" in compiled),
                    work_entries=None)
    return types.SimpleNamespace(name="tiny", title="Tiny", play_many=driver,
                                 prepare=lambda rules, policies: (None, np.array(policies, np.int64)))


@pytest.fixture
def cache(monkeypatch, tmp_path):
    """The markers and timings of a fresh cache directory."""
    directory = tmp_path / "kernels-test"
    directory.mkdir()
    monkeypatch.setattr(warm, "_cache_dir", lambda: directory)
    return directory


def test_a_copy_that_must_compile_is_announced_with_its_estimate(cache):
    spec = _spec()
    assert warm.notice(spec, None, [0, 0]) == ("compiling Tiny for first use, about 30 s (once per machine and "
                                               "version) …")  # UNKNOWN: the table has no 'tiny'
    assert "with a tree search" in warm.notice(spec, None, [-100, 0])
    assert "with its policies" in warm.notice(spec, None, [1, 0])


def test_a_loaded_or_warm_copy_is_not_announced(cache):
    assert warm.notice(_spec(compiled=("random",)), None, [0, 0]) is None  # held by this process
    assert warm.notice(_spec(compiled=("random",)), None, [1, 0]) is not None  # control: the other copy
    warm.record_time("tiny", "plain", 12.0)  # a process of this version compiled it
    assert warm.notice(_spec(), None, [1, 0]) is None
    assert warm.is_warm("tiny", "plain") and not warm.is_warm("tiny", "search")


def test_first_use_shows_a_bar_then_records_the_time(cache, capsys):
    spec = _spec()
    with warm.first_use(spec, "random", progress=None):
        pass
    assert "compiling tiny for first use, about 30 s" in capsys.readouterr().err
    assert warm.is_warm("tiny", "random")
    timings = json.loads((cache.parent / "compile-seconds.json").read_text())
    assert 0 <= timings["tiny-random"] < 5
    assert warm.estimate("tiny", "random") == timings["tiny-random"]  # this machine's figure from now on
    with warm.first_use(spec, "random", progress=None):  # warm now: nothing said
        pass
    assert capsys.readouterr().err == ""


def test_first_use_says_nothing_when_asked_for_no_progress(cache, capsys):
    with warm.first_use(_spec(), "plain", progress=False):
        pass
    assert capsys.readouterr().err == "" and warm.is_warm("tiny", "plain")


def test_the_estimate_falls_back_to_the_measured_table(cache):
    assert warm.estimate("attila", "plain") == warm.MEASURED[("attila", "plain")]
    assert warm.estimate("nope", "plain") == warm.UNKNOWN


def test_a_first_use_counts_the_copies_before_it_that_are_not_warm(cache):
    """The plain copy compiles the game's steps the random copy would, the searching copy the policies too:
    its first use costs theirs when they are not warm, and its time is not kept as its own then."""
    assert warm.estimate_first("tiny", "search") == 3 * warm.UNKNOWN
    assert "about 90 s" in warm.notice(_spec(), None, [-100, 0])
    warm.record_time("tiny", "random", 4.0)
    assert warm.estimate_first("tiny", "search") == warm.UNKNOWN + warm.UNKNOWN
    assert warm.estimate_first("tiny", "random") == 4.0  # its own, warm or not
    with warm.first_use(_spec(), "search", progress=False):  # the plain copy is not warm
        pass
    timings = json.loads((cache.parent / "compile-seconds.json").read_text())
    assert warm.is_warm("tiny", "search") and "tiny-search" not in timings
    with warm.first_use(_spec(), "plain", progress=False):  # random is warm: its own time
        pass
    assert "tiny-plain" in json.loads((cache.parent / "compile-seconds.json").read_text())


def test_warm_compiles_a_games_copies_one_after_the_other_longest_game_first(cache):
    left = {"valhalla": ["plain", "search"], "attila": ["random", "plain", "search"], "halali": []}
    assert ahead.next_game(left, set()) == "attila"  # the most seconds left
    assert ahead.next_game(left, {"attila"}) == "valhalla"  # attila's next copy waits for the one compiling
    assert ahead.next_game(left, {"attila", "valhalla"}) is None  # halali has nothing left
    assert ahead.next_game({"tiny": ["plain"], "valhalla": ["search"]}, set()) == "tiny"  # UNKNOWN: 30 s


def test_a_game_with_its_own_lookahead_warms_a_fourth_copy(cache):
    """``toolkit warm --search`` compiles the whole copy of a game whose kernel leaves its lookahead out of
    the others (``choose_plain``), and no such copy elsewhere; a page announces it by its name."""
    for name, spec in toolkit.GAMES.items():
        own = hasattr(spec.kernel, "choose_plain")
        assert ahead.copies_of(name) == (warm.COPIES if own else warm.COPIES[:3]), name
    assert "lookahead" in ahead.copies_of("attila") and "lookahead" not in ahead.copies_of("valhalla")
    driver = Blocks(_Loop(), _Loop(), _Loop(), work_entries=None, whole=_Loop(),
                    lookahead_in=lambda codes: bool((codes[:2] == 2).any()))
    spec = types.SimpleNamespace(name="tiny", title="Tiny", play_many=driver,
                                 prepare=lambda rules, policies: (None, np.array(policies, np.int64)))
    assert "Tiny with its lookahead for first use" in warm.notice(spec, None, [2, 1])
    assert "Tiny with its policies for first use" in warm.notice(spec, None, [1, 1, 2])  # a sample count, no seat


@pytest.mark.parametrize("argv, message", [(["warm", "nope"], "game 'nope' is not registered"),
                                           (["warm", "--jobs", "0"], "--jobs 0 is not allowed")])
def test_warm_refuses_bad_input_in_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def _toolkit(root: Path, *argv) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "TOOLKIT_CACHE_DIR")}
    env["TOOLKIT_CACHE_DIR"] = str(root)
    return subprocess.run([sys.executable, "-m", "toolkit.cli", *argv], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=600, check=True)


@pytest.mark.slow
def test_toolkit_warm_compiles_ahead_so_the_first_run_is_silent(tmp_path):
    """``toolkit warm`` in one process; the next process's first run loads and says nothing of compiling.
    The control: with the markers of a finished compile removed, the same run says it compiles.

    The cache starts with the compiled files of this checkout's (``make test`` warms it), without its
    markers: what is compiled or loaded is Numba's business (``test_cache.py``); this is about the markers,
    and it takes seconds instead of a cold compile of Valhalla's two copies.  Run by hand without a warm
    checkout, it compiles them."""
    from toolkit.core.jit import CACHE_DIR

    ours = Path(CACHE_DIR)
    theirs = tmp_path / ours.name
    for folder in [*ours.glob("core_*"), *ours.glob("valhalla_*")]:
        shutil.copytree(folder, theirs / folder.name)
    warmed = _toolkit(tmp_path, "warm", "valhalla", "--no-progress")
    assert {tuple(line.split()[:2]) for line in warmed.stdout.splitlines()[:-1]} == {("valhalla", "random"),
                                                                                    ("valhalla", "plain")}
    assert "ready in" in warmed.stdout.splitlines()[-1]
    again = _toolkit(tmp_path, "warm", "valhalla", "--no-progress")
    assert again.stdout.splitlines() == [again.stdout.splitlines()[-1]]  # nothing left to compile
    run = _toolkit(tmp_path, "simulate", "valhalla", "-n", "200")
    assert "compiling" not in run.stderr
    for marker in tmp_path.glob("kernels-*/warm/*.done"):
        marker.unlink()
    control = _toolkit(tmp_path, "simulate", "valhalla", "-n", "200")
    assert "compiling valhalla for first use" in control.stderr
    assert control.stdout == run.stdout  # the same games


USE_AFTER_WARM = """
import toolkit
from toolkit.analysis import decisions
from toolkit.core.mcts import policy_codes
from toolkit.games.halali import kernel as halali
from toolkit.games.herrlof import round_log

round_log(n_games=2, policies=("greedy", "random"))              # Herrlof's notebook
round_log(n_games=2, policies=("lookahead:2", "random"))
halali.capture_heat(halali.to_kernel(toolkit.rules("halali")), policy_codes(halali, ("greedy", "greedy")), 0, 0, 2)
decisions.decisions("herrlof", n_games=2, judge="mcts:4:0:flat", progress=False)   # the protocol's steps
toolkit.simulate("halali", n_games=2, keep="summary", progress=False)             # the streamed summary
"""


@pytest.mark.slow
def test_after_warm_the_logs_the_protocol_and_the_summary_compile_nothing(tmp_path):
    """``toolkit warm --search`` compiles what a notebook's first use of a game compiled silently before
    (Herrlof's round log, 14 s; Halali's capture heat map, 6 s; the protocol's stepping of a game and the
    streamed summary's folds, a second or two each): after it, those uses add no compiled file to the cache.
    The control: with the compiled decision kind of Herrlof taken out, the same use compiles it again (and
    nothing else).  Break seen red: ``_extras`` without the round log (``warm_logs`` not called).

    As in the test above, the cache starts from this checkout's compiled files without their markers, so
    the warm loads rather than compiles where ``make test`` warmed them (run by hand cold, it compiles)."""
    from toolkit.core.jit import CACHE_DIR

    ours = Path(CACHE_DIR)
    theirs = tmp_path / ours.name
    for folder in [*ours.glob("core_*"), *ours.glob("herrlof_*"), *ours.glob("halali_*")]:
        shutil.copytree(folder, theirs / folder.name)
    _toolkit(tmp_path, "warm", "herrlof", "halali", "--search", "--no-progress")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "TOOLKIT_CACHE_DIR")}
    env["TOOLKIT_CACHE_DIR"] = str(tmp_path)

    def use() -> set:
        before = set(theirs.rglob("*.nbi"))
        subprocess.run([sys.executable, "-c", USE_AFTER_WARM], cwd=REPO, env=env, capture_output=True, text=True,
                       timeout=600, check=True)
        return {path.name for path in set(theirs.rglob("*.nbi")) - before}

    assert use() == set()
    for path in theirs.glob("herrlof_*/kernel.kind*"):
        path.unlink()
    assert {name.split("-")[0].split("_")[0] for name in use()} == {"kernel.kind"}
