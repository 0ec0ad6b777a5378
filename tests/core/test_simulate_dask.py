"""One big ``simulate`` on a Dask cluster (``backend="dask"``): the same seed gives exactly the
local run's games, summary and file, whatever the task size."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.analysis.metrics import design_metrics
from toolkit.core import cluster, runner

N = 2_500


def _same_summary(a, b):
    assert a.n_games == b.n_games
    assert {k: v for k, v in a.attrs.items() if k != "output"} == {k: v for k, v in b.attrs.items() if k != "output"}
    for name in ("sums", "sums_sq", "position_wins", "products", "decided"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    for c in a.histograms:
        np.testing.assert_array_equal(a.histograms[c], b.histograms[c], err_msg=c)
    for k in a.by_length:
        np.testing.assert_array_equal(a.by_length[k], b.by_length[k], err_msg=k)


@pytest.mark.parametrize("game,policies", [("valhalla", "random,greedy"), ("attila", "greedy"),
                                           ("walhalla", "greedy")])
def test_dask_summary_is_the_local_summary(cluster_client, game, policies):
    kwargs = dict(n_games=N, seed=31, policies=policies, keep="summary", progress=False)
    local = toolkit.simulate(game, chunk_size=1_000, **kwargs)
    remote = toolkit.simulate(game, backend="dask", client=cluster_client, task_games=333, **kwargs)
    _same_summary(local, remote)
    pd.testing.assert_frame_equal(design_metrics(local), design_metrics(remote), check_exact=True)
    assert 0 < design_metrics(remote).loc["decisiveness", "value"] < 1


def test_dask_games_are_the_local_games(cluster_client):
    local = toolkit.simulate("herrlof", n_games=N, seed=8, policies="greedy,random", progress=False)
    remote = toolkit.simulate("herrlof", n_games=N, seed=8, policies="greedy,random", progress=False,
                              backend="dask", client=cluster_client, task_games=400)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)
    assert remote.attrs == local.attrs


def test_dask_games_of_a_later_range(cluster_client):
    local = toolkit.simulate("halali", n_games=900, seed=8, first_game=5_000, progress=False)
    remote = toolkit.simulate("halali", n_games=900, seed=8, first_game=5_000, progress=False,
                              backend="dask", client=cluster_client, task_games=250)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)
    assert remote["game_index"].iloc[0] == 5_000


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_dask_streamed_file_is_the_local_file(cluster_client, tmp_path, suffix):
    kwargs = dict(n_games=N, seed=12, progress=False)
    local = toolkit.simulate("valhalla", output=tmp_path / f"local{suffix}", **kwargs)
    remote = toolkit.simulate("valhalla", output=tmp_path / f"remote{suffix}", backend="dask", client=cluster_client,
                              task_games=300, **kwargs)
    assert (tmp_path / f"local{suffix}").read_bytes() == (tmp_path / f"remote{suffix}").read_bytes()
    assert (tmp_path / f"local{suffix}.json").read_text() == (tmp_path / f"remote{suffix}.json").read_text()
    _same_summary(local, remote)


def test_dask_by_scheduler_address_and_cli(cluster_client, tmp_path, capsys):
    from toolkit.cli import main

    address = cluster_client.scheduler.address
    code = main(["simulate", "valhalla", "-n", "1200", "--seed", "4", "-o", str(tmp_path / "cli.csv"),
                 "--scheduler", address, "--no-progress"])
    assert code == 0 and "wrote" in capsys.readouterr().out
    expected = toolkit.save(toolkit.simulate("valhalla", n_games=1200, seed=4, progress=False), tmp_path / "here.csv")
    assert (tmp_path / "cli.csv").read_bytes() == expected[0].read_bytes()


def test_dask_errors_are_one_line(cluster_client, capsys, monkeypatch):
    from toolkit.cli import main

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1)
    code = main(["simulate", "valhalla", "-n", "10", "--scheduler", "tcp://127.0.0.1:9", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("toolkit: error: scheduler='tcp://127.0.0.1:9' is not allowed: no Dask scheduler")
    with pytest.raises(ValueError, match="threads= is for the local backend"):
        toolkit.simulate("valhalla", n_games=10, backend="dask", client=cluster_client, threads=1, progress=False)
    with pytest.raises(ValueError, match="either client= or scheduler="):
        toolkit.simulate("valhalla", n_games=10, backend="dask", client=cluster_client, scheduler="tcp://x:1",
                         progress=False)


def _sleep_then(seconds, value):
    time.sleep(seconds)
    return value


def test_run_tasks_in_order_or_as_they_finish(cluster_client):
    # the first task is the slowest: later ones finish first and, in order, wait for it
    tasks = [(0.6, 0), (0.0, 1), (0.1, 2), (0.0, 3), (0.2, 4), (0.0, 5)]
    for window in (3, 1):
        got = list(cluster.run_tasks(cluster_client, _sleep_then, tasks, ordered=True, window=window))
        assert got == [(i, i) for i in range(6)]
    # as they finish: every task once, each with its index (the order depends on the timing)
    finished = list(cluster.run_tasks(cluster_client, _sleep_then, tasks, ordered=False, window=2))
    assert sorted(finished) == [(i, i) for i in range(6)]


def test_a_failing_task_raises_its_error(cluster_client):
    with pytest.raises(ValueError, match="policy="):
        list(cluster.run_tasks(cluster_client, runner.run_part,
                              [("valhalla", toolkit.rules("valhalla").to_json(), ("random", "nope"), 1, 0, 5,
                                "summary")], ordered=False))
