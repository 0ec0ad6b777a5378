"""Watched runs (toolkit.core.jobs): the same games under a job, a count that adds up, a cancel that stops."""

from __future__ import annotations

import threading
import time

import pandas as pd
import pytest

import toolkit
from toolkit.analysis import decisions, strength, sweep, tournament, tuning
from toolkit.core import costs, jobs
from toolkit.games import GAMES


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
    (lambda: sweep.sweep("valhalla", {"zero_runes_value": [4, 5, 6]}, n_games=300, progress=False), 3 * 300),
    (lambda: decisions.decisions("valhalla", None, n_games=6, threads=1, progress=False), 6),
])
def test_the_plan_is_announced_up_front_and_every_planned_game_is_counted(run, games):
    totals, first = [], []
    job = jobs.Job(on_progress=lambda j: (totals.append(j.total), first or first.append(j.done)), every=0)
    with jobs.running(job):
        run()
    assert job.done == job.total > 0 and first == [0]  # the count is shown from the start, before any game
    # the work planned is the work counted: the plan's costs and its runs' agree (issue 52, point 3)
    assert job.work_done == pytest.approx(job.work, rel=1e-9) and job.fraction() == pytest.approx(1.0)
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


def test_the_words_say_games_done_of_planned_and_time_left(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(jobs.time, "perf_counter", lambda: clock[0])
    job = jobs.Job()
    assert jobs.describe(job) == "0 games"
    job.total = job.work = 40_000
    job.advance(1)  # the first report: the pace is measured from here
    clock[0] += 6.0
    job.advance(9_999)  # 9,999 games in 6 s: 30,000 more take about 18 s
    assert jobs.describe(job) == "10,000 of 40,000 games, about 18 s left"
    job = jobs.Job()
    job.total = job.work = 40_000
    job.advance(3_999)  # before a tenth: the first games' pace is not yet the run's (issue 52, point 3)
    assert job.remaining() is None
    assert jobs.describe(job) == "3,999 of 40,000 games, the time left known after a tenth"
    job.advance(1)
    clock[0] += 1.0
    job.advance(1)
    assert jobs.describe(job).endswith("left") and job.remaining() > 0
    job.unit = "games judged"
    assert jobs.describe(job).startswith("4,001 of 40,000 games judged, about ")


def test_the_time_left_follows_the_work_not_the_games_nor_the_start(monkeypatch):
    """A ladder's cheap rungs then its costly ones: counted by games, half the games done in a second says
    a second is left of a hundred; counted by their work (each run at its players' cost), the time left is
    the truth.  And a start's ten seconds of loading are not the pace (the games after them are)."""
    clock = [0.0]
    monkeypatch.setattr(jobs.time, "perf_counter", lambda: clock[0])

    def ladder(declared: bool) -> list[tuple[float, float]]:
        """(said, true) time left after each second of a 100-game cheap stage (1 s) and a 100-game
        costly one (100 s), after a 10-second load."""
        job, seen, end = jobs.Job(), [], clock[0] + 10.0 + 1.0 + 100.0
        with jobs.running(job), jobs.planned(200, 100 * 0.01 + 100 * 1.0 if declared else None):
            clock[0] += 10.0  # loading the compiled copies
            for cost, seconds in ((0.01, 1.0), (1.0, 100.0)):
                with jobs.planned(100, 100 * cost):
                    for _ in range(100):
                        clock[0] += seconds / 100
                        job.advance(1)
                        left = job.remaining()
                        if left is not None:
                            seen.append((left, end - clock[0]))
        return seen

    weighted, by_games = ladder(True), ladder(False)
    assert weighted and all(true / 2 <= said <= 2 * true or abs(said - true) < 1 for said, true in weighted)
    # the control: games alone (no work declared) say far too little early in the costly rungs
    assert any(said < true / 2 and true - said > 1 for said, true in by_games)


def test_a_lineups_cost_is_its_seats_players_mean_and_a_search_grows_with_its_budget():
    table = costs.shipped()["valhalla"]
    assert costs.per_game("valhalla", ("greedy", "mcts:1000")) == pytest.approx(
        (table["greedy"] + table["mcts:1000"]) / 2)
    assert costs.player_cost("valhalla", "mcts:100") < costs.player_cost("valhalla", "mcts:550") < \
        costs.player_cost("valhalla", "mcts:1000") < costs.player_cost("valhalla", "mcts:5000")
    assert costs.player_cost("herrlof", "lookahead:7") == costs.shipped()["herrlof"]["lookahead"]
    assert costs.seconds(2.0, 10, threads=2) == 10.0 and costs.seconds(2.0, 1, threads=2) == 2.0
    assert costs.fitting(2.0, 30.0, threads=2) == 30
    assert set(costs.shipped()) == set(GAMES)  # every game calibrated
    for name, spec in GAMES.items():
        assert set(spec.player_choices()) <= set(costs.shipped()[name]), name  # every player it offers


    assert [jobs.format_duration(s) for s in (0.2, 59.4, 125, 3 * 3600 + 200)] == ["1 s", "59 s", "2 min 5 s",
                                                                                    "3 h 3 min"]
