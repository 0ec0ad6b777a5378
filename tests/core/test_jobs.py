"""Watched runs (toolkit.core.jobs): the same games under a job, a count that adds up, a cancel that stops."""

from __future__ import annotations

import threading
import time

import pandas as pd
import pytest

import toolkit
from toolkit.analysis import strength, tournament, tuning
from toolkit.core import jobs


def test_a_watched_run_plays_the_same_games_in_its_own_chunks():
    seen = []
    job = jobs.Job(on_progress=lambda j: seen.append(j.done), every=0)
    with jobs.running(job):
        watched = toolkit.simulate("valhalla", n_games=3_000, seed=5, threads=1, progress=False)
    plain = toolkit.simulate("valhalla", n_games=3_000, seed=5, threads=1, progress=False)
    pd.testing.assert_frame_equal(watched, plain)
    assert job.done == job.total == 3_000
    # small chunks first (a cancel never waits for a big one), growing: several reports, each a larger count
    assert seen[0] < 100 and len(seen) >= 4 and seen == sorted(seen) and seen[-1] == 3_000


def test_without_a_job_the_runner_plays_its_usual_chunks():
    seen = []
    job = jobs.Job(on_progress=lambda j: seen.append(j.done), every=0)
    toolkit.simulate("valhalla", n_games=500, seed=5, threads=1, progress=False)  # no job: nothing reported
    assert seen == [] and job.done == 0 and jobs.current() is None


@pytest.mark.parametrize("run, games", [
    (lambda: tournament.compare("valhalla", "random,greedy", 50, progress=False), 4 * 50),
    (lambda: tournament.compare("attila", "random,greedy", 20, rules={"num_players": 3}, progress=False),
     (2 + 2 * 3) * 20),  # two line-ups of one policy, and each policy in each of three seats among the other
    (lambda: strength.ladder("valhalla", policies=("random", "greedy"), n_games=30, selfplay_games=40,
                             progress=False), 4 * 30 + 2 * 40),
    (lambda: tuning.tune("valhalla", {"first_player_win_rate": 0.5}, {"zero_runes_value": None}, 5, 200,
                         progress=False), None),
])
def test_the_plan_is_announced_up_front_and_every_planned_game_is_counted(run, games):
    totals = []
    job = jobs.Job(on_progress=lambda j: totals.append(j.total), every=0)
    with jobs.running(job):
        run()
    assert job.done == job.total > 0
    if games is not None:
        assert job.total == games and totals[0] == games  # known from the first report on
    else:  # a tuning plans every trial and finalist, then drops the candidates it did not play again
        assert totals[0] >= job.total


def test_a_cancel_stops_a_run_between_chunks():
    job = jobs.Job()
    ended = {}

    def play():
        try:
            with jobs.running(job):
                toolkit.simulate("valhalla", n_games=20_000_000, seed=1, keep="summary", progress=False)
        except jobs.Cancelled:
            ended["at"] = time.perf_counter()

    thread = threading.Thread(target=play)
    thread.start()
    while job.done == 0:
        time.sleep(0.01)
    asked = time.perf_counter()
    job.cancel()
    thread.join(30)
    assert not thread.is_alive() and "at" in ended
    assert ended["at"] - asked < 2.0  # a chunk is sized to a fraction of a second (not asserted finer: shared CPU)
    assert 0 < job.done < 20_000_000


def test_the_words_say_games_done_of_planned_and_time_left():
    job = jobs.Job()
    assert jobs.describe(job) == "0 games"
    job.total, job.done = 40_000, 10_000
    job.started -= 6.0  # 10,000 games in 6 s: 30,000 more take about 18 s
    assert jobs.describe(job) == "10,000 of 40,000 games, about 18 s left"
    job.done = 3_999  # before a tenth: the first games' pace is not yet the run's (issue 52, point 3)
    assert job.remaining() is None
    assert jobs.describe(job) == "3,999 of 40,000 games, the time left known after a tenth"
    job.done = 4_000
    assert jobs.describe(job).endswith("left") and job.remaining() > 0
    assert [jobs.format_duration(s) for s in (0.2, 59.4, 125, 3 * 3600 + 200)] == ["1 s", "59 s", "2 min 5 s",
                                                                                    "3 h 3 min"]
