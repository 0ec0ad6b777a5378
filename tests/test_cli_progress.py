"""The long commands show one bar over the whole job (issue 36, point 4): every game of the plan counted."""

from __future__ import annotations

import contextlib

import pytest

from toolkit.cli import main
from toolkit.core import jobs


@pytest.fixture
def bars(monkeypatch):
    made = []
    real = jobs.bar

    @contextlib.contextmanager
    def recording(description, enabled=True):
        with real(description, enabled) as job:
            made.append((description, job))
            yield job

    monkeypatch.setattr(jobs, "bar", recording)
    return made


@pytest.mark.parametrize("argv, games", [
    (["compare", "valhalla", "--policies", "random,greedy", "-n", "40"], 4 * 40),
    (["ladder", "valhalla", "--policies", "random,greedy", "-n", "20"], 4 * 20),
    (["tune", "valhalla", "--target", "first_player_win_rate=0.5", "--vary", "zero_runes_value", "--trials", "3",
      "-n", "100", "--finalists", "1"], None),
])
def test_one_bar_counts_every_game_of_the_command(bars, argv, games, capsys):
    assert main(argv + ["--seed", "1"]) == 0
    (description, job), = bars
    assert description.startswith(argv[0] + " valhalla")
    assert job.done == job.total > 0
    if games is not None:
        assert job.total == games


def test_no_progress_shows_no_bar(bars):
    assert main(["compare", "valhalla", "--policies", "random,greedy", "-n", "40", "--no-progress"]) == 0
    assert bars[0][1] is None  # the control: the bar is off, nothing is counted
