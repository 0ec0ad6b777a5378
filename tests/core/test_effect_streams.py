"""A streamed run that does not start at game 0 writes games K..K+n-1, each the game a run from 0 plays
there (issue 36, point 8).

``simulate(..., first_game=K)`` is how one run is cut over several machines; with ``output=`` its rows go
to the file chunk by chunk (locally) or task by task (on Dask), each chunk turned into rows on its own.
The kept frame of such a run was checked (``test_rng.test_first_game_offset``,
``test_simulate_dask.test_dask_games_of_a_later_range``), the file was not.  Here the file's
``game_index`` must be K..K+n-1 and every other column equal to rows K.. of ``simulate(n_games=K + n)``
(read back with ``toolkit.load``, CSV and Parquet, several chunks or tasks so that a chunk's own offset
shows), the file must be what ``toolkit.save`` writes for the kept frame, and the summary the streamed run
returns must count the same games.  Valhalla (plain columns) and Halali (categorical ones), locally; Valhalla
on a Dask cluster, whose file must also be the local one byte for byte.

Negative controls (one-line bugs in ``toolkit/core/runner.py`` in a scratch copy, each caught here): the
written chunk's rows indexed from the chunk's place in the run (``first - self.first_game``) instead of its
game, missed by ``test_rng.py``, ``test_runner.py``, ``test_simulate_dask.py``, ``test_results.py`` and
``test_export.py``; every chunk's rows indexed from the run's first game, and the Dask parts placed by their
place in the run, both also caught there.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.core import results

CASES = {  # game -> (first game K, games n, chunk size)
    "valhalla": (1_234, 500, 97),
    "halali": (777, 300, 70),
}
SEED = 6


@pytest.fixture(scope="module")
def from_zero():
    """Each game's run from game 0 to K + n - 1, one row per game."""
    return {game: toolkit.simulate(game, n_games=k + n, seed=SEED, policies="greedy,random", progress=False)
            for game, (k, n, _) in CASES.items()}


def _check_rows(written: pd.DataFrame, full: pd.DataFrame, k: int, n: int) -> None:
    """``written`` holds games k..k+n-1 of ``full``, every column equal."""
    assert written["game_index"].tolist() == list(range(k, k + n))
    expected = full.iloc[k:k + n].reset_index(drop=True)
    assert list(written.columns) == list(expected.columns)
    for column in expected.columns:
        got, want = written[column], expected[column]
        if isinstance(want.dtype, pd.CategoricalDtype):
            got, want = got.astype(str), want.astype(str)
        assert got.tolist() == want.tolist(), column
    # the slice is not the run's start: a file written from game 0 would differ
    assert not expected.drop(columns="game_index").equals(full.iloc[:n].drop(columns="game_index"))


def _check_summary(summary, full: pd.DataFrame, k: int, n: int) -> None:
    """The summary a streamed run returns counts games k..k+n-1."""
    games = full.iloc[k:k + n]
    assert summary.n_games == n
    wins = summary.win_rates().set_index("seat")["wins"]
    assert [int(wins[s]) for s in (0, 1)] == [int(games[f"win_{s}"].sum()) for s in (0, 1)]
    assert summary.length("turns")["mean"] == pytest.approx(games["turns"].mean(), rel=1e-12)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("game", CASES)
def test_a_streamed_run_from_game_k_writes_games_k_on(from_zero, tmp_path, game, suffix):
    k, n, chunk = CASES[game]
    path = tmp_path / f"part{suffix}"
    summary = toolkit.simulate(game, n_games=n, seed=SEED, policies="greedy,random", first_game=k, output=path,
                               chunk_size=chunk, progress=False)
    assert n > 3 * chunk  # several chunks, each written with its own first game
    written = toolkit.load(path)
    _check_rows(written, from_zero[game], k, n)
    _check_summary(summary, from_zero[game], k, n)
    # the file and its sidecar are what toolkit.save writes for the kept frame of the same games
    kept = toolkit.simulate(game, n_games=n, seed=SEED, policies="greedy,random", first_game=k, progress=False)
    saved = toolkit.save(kept, tmp_path / f"kept{suffix}")
    assert path.read_bytes() == saved[0].read_bytes()
    assert json.loads(results.sidecar_path(path).read_text()) == json.loads(saved[1].read_text())


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_streamed_run_from_game_k_on_dask_writes_games_k_on(from_zero, cluster_client, tmp_path, suffix):
    """On a Dask cluster, tasks of 120 games: the file holds games K.. in order, as the local run writes it."""
    k, n, _ = CASES["valhalla"]
    kwargs = dict(n_games=n, seed=SEED, policies="greedy,random", first_game=k, progress=False)
    remote = toolkit.simulate("valhalla", output=tmp_path / f"dask{suffix}", backend="dask", client=cluster_client,
                              task_games=120, **kwargs)
    local = toolkit.simulate("valhalla", output=tmp_path / f"local{suffix}", **kwargs)
    _check_rows(toolkit.load(tmp_path / f"dask{suffix}"), from_zero["valhalla"], k, n)
    _check_summary(remote, from_zero["valhalla"], k, n)
    assert (tmp_path / f"dask{suffix}").read_bytes() == (tmp_path / f"local{suffix}").read_bytes()
    assert (tmp_path / f"dask{suffix}.json").read_text() == (tmp_path / f"local{suffix}.json").read_text()
    np.testing.assert_array_equal(remote.sums, local.sums)


def test_a_summary_from_game_k_on_dask_counts_games_k_on(from_zero, cluster_client):
    """``keep="summary"`` on Dask (no file: the tasks return summaries) counts games K.., not 0.."""
    k, n, _ = CASES["halali"]
    remote = toolkit.simulate("halali", n_games=n, seed=SEED, policies="greedy,random", first_game=k, keep="summary",
                              backend="dask", client=cluster_client, task_games=70, progress=False)
    _check_summary(remote, from_zero["halali"], k, n)
