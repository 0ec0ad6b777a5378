"""Streaming export (``simulate(..., output=PATH)``, ``toolkit.save``) and the memory guard of
``keep="games"``: a streamed file is byte for byte the in-memory one, memory stays flat, a failed
run leaves no file that looks complete, and a frame that cannot fit is refused before anything runs."""

from __future__ import annotations

import json
import tracemalloc

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import toolkit
from toolkit.core import results, runner
from toolkit.games import GAMES


def _same_summary(a, b):
    assert a.n_games == b.n_games
    for name in ("sums", "sums_sq", "position_wins", "products", "decided"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.histograms.keys() == b.histograms.keys()
    for c in a.histograms:
        np.testing.assert_array_equal(a.histograms[c], b.histograms[c], err_msg=c)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("game", list(GAMES))
def test_streamed_file_is_the_saved_frame_byte_for_byte(game, suffix, tmp_path, monkeypatch):
    # small row groups and odd chunks, so the rows are regrouped across chunk boundaries
    monkeypatch.setattr(results, "ROW_GROUP_ROWS", 50)
    kwargs = dict(n_games=230, seed=17, policies="greedy" if game != "valhalla" else "random,greedy",
                  progress=False)
    frame = toolkit.simulate(game, **kwargs)
    saved = toolkit.save(frame, tmp_path / f"saved{suffix}")
    summary = toolkit.simulate(game, output=tmp_path / f"streamed{suffix}", chunk_size=37, **kwargs)
    assert (tmp_path / f"streamed{suffix}").read_bytes() == saved[0].read_bytes()
    assert json.loads((tmp_path / f"streamed{suffix}.json").read_text()) == json.loads(saved[1].read_text())
    # with output= the run returns its summary, the same as a summary run's
    assert isinstance(summary, runner.Summary)
    _same_summary(summary, toolkit.simulate(game, keep="summary", **kwargs))
    assert summary.attrs["output"] == [str(tmp_path / f"streamed{suffix}"), str(tmp_path / f"streamed{suffix}.json")]
    loaded = toolkit.load(tmp_path / f"streamed{suffix}")
    assert loaded["game_index"].tolist() == list(range(230))
    for column in frame.columns:
        assert loaded[column].astype(str).tolist() == frame[column].astype(str).tolist(), column
    if suffix == ".parquet":
        groups = pq.ParquetFile(tmp_path / f"streamed{suffix}").metadata
        assert [groups.row_group(i).num_rows for i in range(groups.num_row_groups)] == [50, 50, 50, 50, 30]


def test_keep_games_with_output_returns_the_frame_and_writes_it(tmp_path):
    df = toolkit.simulate("halali", n_games=120, seed=3, keep="games", output=tmp_path / "h.csv", progress=False)
    assert isinstance(df, pd.DataFrame) and len(df) == 120
    pd.testing.assert_frame_equal(df, toolkit.simulate("halali", n_games=120, seed=3, progress=False))
    assert (tmp_path / "h.csv").read_bytes() == toolkit.save(df, tmp_path / "again.csv")[0].read_bytes()


def test_csv_is_pyarrow_text_with_a_categorical_back(tmp_path):
    df = toolkit.simulate("valhalla", n_games=40, seed=2, progress=False)
    path = toolkit.save(df, tmp_path / "v.csv")[0]
    header, first = path.read_text().splitlines()[:2]
    assert header.split(",")[:4] == ['"game_index"', '"first_seat"', '"winner"', '"win_0"']
    assert first.split(",")[0] == "0" and '"win"' in first.split(",")
    loaded = toolkit.load(path)
    assert isinstance(loaded["result"].dtype, pd.CategoricalDtype)
    assert list(loaded["result"].cat.categories) == ["win", "aborted"]


def test_save_writes_tables_with_python_objects_as_text(tmp_path):
    table = pd.DataFrame({"peninsula_tiles": [(5, 6, 7), (6, 6, 6)], "win_rate": [0.25, 0.5]})
    table.attrs["vary"] = {"peninsula_tiles": ["5,6,7", "6,6,6"]}
    for name in ("t.csv", "t.parquet"):
        loaded = toolkit.load(toolkit.save(table, tmp_path / name)[0])
        assert loaded["peninsula_tiles"].tolist() == ["(5, 6, 7)", "(6, 6, 6)"]
        assert loaded["win_rate"].tolist() == [0.25, 0.5]
        assert loaded.attrs["vary"] == table.attrs["vary"]


class Interrupt(Exception):
    pass


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_an_interrupted_run_leaves_no_file_that_looks_complete(suffix, tmp_path, monkeypatch):
    path = tmp_path / f"run{suffix}"
    # an older run of the same name: it stays as it was
    old = toolkit.save(toolkit.simulate("valhalla", n_games=5, seed=1, progress=False), path)
    before = [p.read_bytes() for p in old]
    seen = []
    write = results.Writer.write

    def failing_write(self, rows):
        seen.append((path.with_name(path.name + ".part").exists(), path.read_bytes() == before[0]))
        if len(seen) == 3:
            raise Interrupt
        write(self, rows)

    monkeypatch.setattr(results.Writer, "write", failing_write)
    with pytest.raises(Interrupt):
        toolkit.simulate("valhalla", n_games=500, seed=4, output=path, chunk_size=100, progress=False)
    # while it ran, the rows went to NAME.part and the old file was untouched
    assert seen == [(False, True), (True, True), (True, True)]
    assert [p.read_bytes() for p in old] == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"run{suffix}.json", f"run{suffix}"])


def test_without_an_older_file_a_failed_run_leaves_nothing(tmp_path, monkeypatch):
    def fail(*args):
        raise RuntimeError("the kernel failed")

    monkeypatch.setattr(runner._Run, "take", lambda self, first, part, writer: (writer.write(
        results.to_frame(self.spec, part, first, {}, self.shown)), fail()))
    with pytest.raises(RuntimeError, match="kernel failed"):
        toolkit.simulate("valhalla", n_games=300, seed=4, output=tmp_path / "x.parquet", progress=False)
    assert list(tmp_path.iterdir()) == []


def test_the_sidecar_is_written_after_the_rows(tmp_path, monkeypatch):
    order = []
    replace = results.os.replace
    monkeypatch.setattr(results.os, "replace", lambda a, b: (order.append(str(b)), replace(a, b)))
    toolkit.simulate("valhalla", n_games=50, seed=1, output=tmp_path / "r.csv", progress=False)
    assert order == [str(tmp_path / "r.csv"), str(tmp_path / "r.csv.json")]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_streaming_memory_is_flat(suffix, monkeypatch):
    """NumPy buffers (traced by tracemalloc) of a streamed run stay at one chunk and, for Parquet, one
    row group (whose rows Arrow holds without copying); the same run keeping every game (the negative
    control) holds them all."""
    n, chunk = 200_000, 4_096
    monkeypatch.setattr(results, "ROW_GROUP_ROWS", 8_192)

    def peak(**kwargs):
        tracemalloc.start()
        try:
            toolkit.simulate("valhalla", n_games=n, seed=1, chunk_size=chunk, progress=False, **kwargs)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        streamed = peak(output=f"{folder}/big{suffix}")
    kept = peak(keep="games")
    rows = n * len(GAMES["valhalla"].columns) * 4
    assert kept > rows  # the control sees every row
    # bounded by a few chunks (the buffer, the frames queued for the writing thread and the one it
    # writes) and one row group: 1.6-2.1 MB here, whatever n is; every row would be 22 MB
    assert streamed < 0.25 * rows


def test_keep_games_beyond_the_machine_is_a_clear_error():
    with pytest.raises(ValueError) as caught:
        toolkit.simulate("valhalla", n_games=10**13, progress=False)
    message = str(caught.value)
    assert message.startswith("n_games=10,000,000,000,000 is too many to keep one row per game")
    assert "TB" in message or "PB" in message
    assert 'keep="summary"' in message and "output=PATH" in message


def test_the_memory_guard_uses_the_available_memory(monkeypatch):
    need = runner.frame_bytes(GAMES["valhalla"], 1000)
    assert need == 1000 * (4 * 28 + 2 * (4 * 28 + 8 + 8))  # records; frame: columns, game_index, first_seat
    monkeypatch.setattr(runner, "available_memory", lambda: need - 1)
    with pytest.raises(ValueError, match=r"n_games=1,000 is too many"):
        toolkit.simulate("valhalla", n_games=1000, progress=False)
    # the ways out named in the message work under the same limit
    assert toolkit.simulate("valhalla", n_games=1000, keep="summary", progress=False).n_games == 1000
    monkeypatch.setattr(runner, "available_memory", lambda: need)
    assert len(toolkit.simulate("valhalla", n_games=1000, progress=False)) == 1000


@pytest.mark.parametrize("kwargs,name", [
    (dict(output="run.txt"), "output"),
    (dict(output="run"), "output"),
    (dict(task_games=0), "task_games"),
    (dict(backend="spark"), "backend"),
    (dict(first_game=-1), "first_game"),
    (dict(backend="dask"), "client="),
])
def test_bad_export_arguments(kwargs, name, tmp_path):
    if "output" in kwargs:
        kwargs["output"] = tmp_path / kwargs["output"]
    with pytest.raises(ValueError, match=name):
        toolkit.simulate("valhalla", n_games=10, progress=False, **kwargs)
    assert list(tmp_path.iterdir()) == []
