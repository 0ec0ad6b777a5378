"""Kernel records -> pandas, with provenance; CSV / Parquet export with a JSON sidecar.

Every frame the toolkit returns carries ``df.attrs``:

``game``, ``preset`` (or ``None`` if the rules match no preset), ``rules``
(every parameter, JSON form), ``rules_version``, ``policies``, ``seed``,
``n_games``, ``toolkit_version``.

:func:`save` writes ``NAME.csv`` (or ``NAME.parquet``) plus ``NAME.csv.json``
(``NAME.parquet.json``) holding those attrs, so a file found later still says how it was made;
:func:`load` reads both back.

Both go through one :class:`Writer`, which the runner also uses to stream a
run to disk chunk by chunk (``simulate(..., output=PATH)``), so a streamed
file is byte for byte the file :func:`save` writes for the same frame:

- CSV with pyarrow's writer (about 5x faster than ``DataFrame.to_csv``;
  text columns are quoted, numbers are not);
- Parquet in row groups of exactly :data:`ROW_GROUP_ROWS` rows (the rows are
  regrouped, so the chunk sizes of the run do not show in the file);
- the rows go to ``NAME.csv.part`` first, which is renamed to ``NAME.csv``
  only when every row is written, and the sidecar is written last: a run
  that fails or is interrupted leaves no file that looks complete, and an
  older file of the same name stays as it was;
- a run hands each chunk's rows to :meth:`Writer.submit`, which converts
  and writes them on a thread of its own while the kernel plays the next
  chunk (both release the GIL), at most :data:`QUEUED_CHUNKS` chunks behind.
"""

from __future__ import annotations

import json
import os
import queue
import tempfile
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from toolkit._version import __version__


def provenance(spec, rules, policies, seed, n_games) -> dict:
    return {
        "game": spec.name,
        "preset": rules.preset_name(),
        "rules": rules.to_json(),
        "rules_version": type(rules).RULES_VERSION,
        "policies": list(policies),
        "seed": int(seed),
        "n_games": int(n_games),
        "toolkit_version": __version__,
    }


FIRST_SEAT = "first_seat"  # the seat that moved first: the one name of the first mover in every game
# columns every frame gets that are computed from the kernel's columns, not recorded by the kernel
DERIVED_COLUMNS = (FIRST_SEAT,)


def first_seats(spec, column) -> np.ndarray | None:
    """The seat that moved first in each game, as int64: the game's ``first_mover`` over ``column``
    (a getter: result column name -> array of its values); None if the game declares none.

    This is the one place the first mover is derived: :func:`to_frame` makes the ``first_seat``
    column with it, and the streaming :class:`~toolkit.core.runner.Summary` its wins by place."""
    if spec.first_mover is None:
        return None
    return np.asarray(spec.first_mover(column), dtype=np.int64)


def to_frame(spec, records: np.ndarray, first_game: int, attrs: dict, columns=None) -> pd.DataFrame:
    """One row per game: ``game_index``, then ``first_seat`` (the seat that moved first, from the
    game's ``first_mover``; only in a game that declares one), then the kernel's columns (only
    ``columns`` if given, e.g. without the seats a 3-player game does not have)."""
    df = pd.DataFrame(records, columns=list(spec.columns), copy=True)  # never a view of a reused buffer
    first = first_seats(spec, lambda name: df[name].to_numpy())  # from every kernel column, before a subset
    if columns is not None and list(columns) != list(spec.columns):
        df = df[list(columns)]
    df.insert(0, "game_index", np.arange(first_game, first_game + len(df), dtype=np.int64))
    if first is not None:
        df.insert(1, FIRST_SEAT, first)
    for column, labels in spec.categories.items():
        if column in df:
            codes = df[column].to_numpy()
            if len(codes) and not (-1 <= codes.min() and codes.max() < len(labels)):
                unlabelled = sorted({int(c) for c in codes if not -1 <= c < len(labels)})
                raise ValueError(f"{spec.name}'s kernel wrote {column} code(s) {unlabelled}, which its labels "
                                 f"{tuple(labels)} do not name: declare them (GameSpec.results, the layout's "
                                 f"RESULT_CODES or CATEGORIES)")
            df[column] = pd.Categorical.from_codes(codes, categories=list(labels))
    df.attrs.update(attrs)
    return df


ROW_GROUP_ROWS = 65_536  # Parquet row-group size of every file the toolkit writes
QUEUED_CHUNKS = 2  # Writer.submit: chunks waiting for the writing thread (bounds the memory it holds)
SUFFIXES = (".csv", ".parquet")
PART = ".part"  # suffix of a file being written
REMOVED: list = []  # the partial files a stopped or failed run removed, in this process (the CLI says so)


def sidecar_path(path) -> Path:
    """The JSON sidecar of a data file: ``X.csv.json`` beside ``X.csv``, ``X.parquet.json`` beside
    ``X.parquet``, so that the two formats of one name never share (and overwrite) one sidecar (issue 51;
    the toolkit wrote ``X.json`` before, which :func:`find_sidecar` still reads)."""
    path = Path(path)
    return path.with_name(path.name + ".json")


def find_sidecar(path) -> Path | None:
    """The sidecar a data file has: ``X.csv.json`` (:func:`sidecar_path`), else the older ``X.json``; None
    without one."""
    path = Path(path)
    for meta in (sidecar_path(path), path.with_suffix(".json")):
        if meta.exists():
            return meta
    return None


def check_path(path, suffixes=SUFFIXES, name: str = "output") -> Path:
    """The output file ``path``, or a ``ValueError`` naming ``name`` if it could not be written.

    Checked before a long run, so that no game is played for a file that cannot be written: the name
    must end in one of ``suffixes`` (the format written is the one the suffix names), it must not be a
    folder, and the folder it goes in must exist and take a new file (a probe file is made and removed
    there).  A missing folder is refused, not made: a typo (``/nonexistent_dir/x.csv``) would make a folder
    nobody meant, at the root of the disk (issue 51)."""
    out = Path(path)
    allowed = " or ".join(suffixes)
    if out.suffix not in suffixes:
        raise ValueError(f"{name}={str(path)!r} is not allowed: the name must end in {allowed}")
    if out.is_dir():
        raise ValueError(f"{name}={str(path)!r} is not allowed: it is a folder")
    _check_exists(out.parent, path, name)
    _check_writable(out.parent, path, name)
    return out


def check_folder(path, name: str = "out", made=None) -> Path:
    """The output folder ``path``, or a ``ValueError`` naming ``name`` if files could not be written in it
    (it is a file, or the folder it goes in does not exist, or does not take a new file).  The folder itself
    is made when missing, the one it goes in is not (a typo would make a tree of folders nobody meant),
    unless it is ``made``, a folder already checked that the same command makes first."""
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{name}={str(path)!r} is not allowed: it is a file, not a folder")
    if not out.exists() and not (made is not None and out.parent.absolute() == Path(made).absolute()):
        _check_exists(out.parent, path, name)
    _check_writable(out, path, name)
    return out


def _check_exists(folder: Path, path, name: str) -> None:
    if folder.absolute().is_file():
        raise ValueError(f"{name}={str(path)!r} is not allowed: {folder} is a file, not a folder")
    if not folder.absolute().is_dir():
        raise ValueError(f"{name}={str(path)!r} is not allowed: the folder {str(folder)!r} does not exist "
                         f"(make it first)")


def _check_writable(folder: Path, path, name: str) -> None:
    existing = folder.absolute()
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"{name}={str(path)!r} is not allowed: {existing} is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ValueError(f"{name}={str(path)!r} is not allowed: {existing} does not take a new file "
                         f"({reason.lower()})") from None


def arrow_table(df: pd.DataFrame, schema: pa.Schema | None = None) -> pa.Table:
    """``df`` as an Arrow table (no index, no attrs); with ``schema``, exactly that schema.

    Columns of Python objects (a sweep's tuples or sets of rule values) are
    written as their text, in CSV and Parquet alike.  The attrs stay out of
    the table (newer pyarrow would copy them into a Parquet file's metadata):
    they go to the sidecar, so a file does not depend on how its rows were cut."""
    objects = [c for c in df.columns if df[c].dtype == object
               and not all(v is None or isinstance(v, str) for v in df[c])]
    if df.attrs or objects:
        df = df.copy(deep=False)
        df.attrs = {}
        for column in objects:
            df[column] = df[column].map(lambda v: v if v is None or isinstance(v, str) else str(v))
    return pa.Table.from_pandas(df, schema=schema, preserve_index=False)


class Writer:
    """Rows to ``PATH.csv`` or ``PATH.parquet``, table after table, then the JSON sidecar.

    Use as a context manager: leaving it with an exception (a failed or
    interrupted run) deletes the partial file and writes nothing under the
    final name.

    Examples
    --------
    >>> import tempfile, toolkit
    >>> df = toolkit.simulate("valhalla", n_games=10, seed=1, progress=False)
    >>> with Writer(tempfile.mkdtemp() + "/run.csv") as out:
    ...     out.write(df.iloc[:4])
    ...     out.write(df.iloc[4:])
    ...     written = out.close(df.attrs)
    >>> len(toolkit.load(written[0]))
    10
    """

    def __init__(self, path):
        self.path = check_path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.part = self.path.with_name(self.path.name + PART)
        self.schema = None  # of the first table; every later one must match it
        self._sink = None
        self._pending = []  # Parquet: tables not yet written as a full row group
        self._pending_rows = 0
        self._queue = None  # submit(): rows waiting for the writing thread, which is started on first use
        self._thread = None
        self._error = None  # the writing thread's exception, raised to the caller at the next call

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is not None:
            self.abort()
        return False

    def write(self, rows) -> None:
        """Append a DataFrame (or an Arrow table) of rows."""
        table = rows if isinstance(rows, pa.Table) else arrow_table(rows, self.schema)
        if self.schema is None:
            self.schema = table.schema
            self._open()
        elif not table.schema.equals(self.schema):
            raise ValueError(f"rows for {self.path} do not match the columns written so far")
        if self.path.suffix == ".csv":
            self._sink.write_table(_csv_ready(table))
            return
        self._pending.append(table)
        self._pending_rows += table.num_rows
        if self._pending_rows >= ROW_GROUP_ROWS:
            self._flush(final=False)

    def submit(self, rows) -> None:
        """Like :meth:`write`, but on the writer's own thread: returns once the rows are queued
        (it waits while ``QUEUED_CHUNKS`` are already waiting).  ``rows`` must not change after."""
        self._raise_failure()
        if self._thread is None:
            self._queue = queue.Queue(maxsize=QUEUED_CHUNKS)
            self._thread = threading.Thread(target=self._work, name=f"write {self.path.name}", daemon=True)
            self._thread.start()
        self._queue.put(rows)

    def _work(self) -> None:
        while (rows := self._queue.get()) is not None:
            if self._error is None:  # after a failure, keep taking rows so that submit never blocks
                try:
                    self.write(rows)
                except BaseException as error:  # noqa: BLE001 - raised in the caller's thread
                    self._error = error

    def _stop(self) -> None:
        """Wait until the writing thread has written everything submitted."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    def _raise_failure(self) -> None:
        # the error stays set, so the thread keeps discarding what is still queued (abort clears it)
        if self._error is not None:
            raise self._error

    def _open(self) -> None:
        if self.path.suffix == ".csv":
            self._sink = pa_csv.CSVWriter(str(self.part), _csv_ready(self.schema.empty_table()).schema)
        else:
            self._sink = pq.ParquetWriter(str(self.part), self.schema)

    def _flush(self, final: bool) -> None:
        """Write the pending Parquet rows as row groups of ``ROW_GROUP_ROWS`` (and, when ``final``,
        the rest as the last, shorter one)."""
        pending = pa.concat_tables(self._pending)
        start = 0
        while pending.num_rows - start >= ROW_GROUP_ROWS or (final and start < pending.num_rows):
            group = pending.slice(start, ROW_GROUP_ROWS)
            self._sink.write_table(group, row_group_size=ROW_GROUP_ROWS)
            start += group.num_rows
        self._pending = [pending.slice(start)] if start < pending.num_rows else []
        self._pending_rows = pending.num_rows - start

    def close(self, attrs: dict) -> list[Path]:
        """Finish the file, move it to its name, then write the sidecar; returns both paths."""
        self._stop()
        self._raise_failure()
        if self.schema is None:
            raise ValueError(f"nothing was written to {self.path}")
        if self._pending:
            self._flush(final=True)
        self._sink.close()
        self._sink = None
        meta = sidecar_path(self.path)
        meta.unlink(missing_ok=True)  # an older run's sidecar must not describe the new rows
        os.replace(self.part, self.path)
        meta_part = meta.with_name(meta.name + PART)
        meta_part.write_text(json.dumps(attrs, indent=2, default=str) + "\n")
        os.replace(meta_part, meta)
        return [self.path, meta]

    def abort(self) -> None:
        """Drop the partial file (the final name is never touched); :data:`REMOVED` names it, so that the
        command that was stopped can say so."""
        self._stop()
        self._error = None
        if self._sink is not None:
            try:
                self._sink.close()
            except Exception:  # noqa: BLE001 - the file is deleted anyway
                pass
            self._sink = None
        if self.part.exists():
            self.part.unlink(missing_ok=True)
            REMOVED.append(self.part)


def _csv_ready(table: pa.Table) -> pa.Table:
    """Dictionary (categorical) columns as their text, which every pyarrow CSV writer supports."""
    for i, field in enumerate(table.schema):
        if pa.types.is_dictionary(field.type):
            table = table.set_column(i, field.name, table.column(i).cast(field.type.value_type))
    return table


def save(df: pd.DataFrame, path) -> list[Path]:
    """Write ``df`` to CSV or Parquet (by suffix) and its attrs to a JSON sidecar.

    The index is not written.  Returns the written paths.
    """
    with Writer(path) as out:
        out.write(arrow_table(df))
        return out.close(df.attrs)


def load(path) -> pd.DataFrame:
    """Read a file written by :func:`save`, attrs included (a game's coded columns, such as
    ``result``, come back categorical from CSV too)."""
    path = Path(path)
    df = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    meta = find_sidecar(path)
    if meta is not None:
        df.attrs.update(json.loads(meta.read_text()))
    if path.suffix == ".csv" and isinstance(df.attrs.get("game"), str):
        from toolkit.core.registry import GAMES

        spec = GAMES.get(df.attrs["game"])
        for column, labels in (spec.categories.items() if spec is not None else ()):
            if column in df and df[column].isin(labels).all():
                df[column] = pd.Categorical(df[column], categories=list(labels))
    return df
