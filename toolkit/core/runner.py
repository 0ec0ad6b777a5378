"""The runner: validate, split into chunks, run the parallel kernel, collect.

:func:`simulate` is the one entry point the API, the CLI, the notebooks and
the benchmarks share.  Game indices ``0 .. n_games - 1`` are cut into chunks;
each chunk runs the game's ``play_many`` driver (``numba.prange`` over the
chunk's games, on ``threads`` threads).  Because every game draws from its own
streams (``core/rng.py``), the result does not depend on the chunk size or
the thread count, and the first games of a longer run equal a shorter run.

``keep="games"`` returns one row per game.  ``keep="summary"`` folds each
chunk into a :class:`Summary` (counts, sums, histograms) and reuses the chunk
buffer, so memory stays flat however many games run.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping

import numba
import numpy as np
import pandas as pd

from toolkit.core import cluster, costs, jobs, registry, results, stats, warm
from toolkit.core.jit import njit
from toolkit.core.layout import seat_count

DEFAULT_CHUNK = 65_536  # big enough that the per-chunk fold and thread start-up stay under 2%
PROGRESS_DELAY_S = 2.0  # a bar appears only for runs longer than this


def _games():
    return registry.GAMES


def get_spec(game):
    """A :class:`~toolkit.core.game.GameSpec` from its name (or itself)."""
    if not isinstance(game, str):
        return game
    games = _games()
    if game not in games:
        raise ValueError(f"game={game!r} is not allowed: one of {', '.join(games)}")
    return games[game]


def resolve_rules(spec, rules=None, preset=None, **overrides):
    """Rules from an instance, a preset name, a dict of overrides, or keyword overrides."""
    if isinstance(rules, Mapping):  # {"max_turns": 500}: overrides of the preset
        return spec.Rules.preset(preset or "standard", **dict(rules), **overrides)
    if rules is not None and (preset is not None or overrides):
        if overrides:
            return rules.replace(**overrides)
        raise ValueError("pass either rules= or preset=, not both")
    if rules is None:
        return spec.Rules.preset(preset or "standard", **overrides)
    if not isinstance(rules, spec.Rules):
        raise ValueError(f"rules={rules!r} is not allowed: a {spec.name} Rules instance "
                         f"(toolkit.rules({spec.name!r}, ...)) or a dict of parameter values")
    return rules


@contextlib.contextmanager
def numba_threads(threads: int | None):
    """Run with ``threads`` Numba threads (1..NUMBA_NUM_THREADS), then restore."""
    if threads is None:
        yield numba.get_num_threads()
        return
    top = numba.config.NUMBA_NUM_THREADS
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= top:
        raise ValueError(f"threads={threads!r} is not allowed: an integer in 1..{top}")
    before = numba.get_num_threads()
    numba.set_num_threads(int(threads))
    try:
        yield int(threads)
    finally:
        numba.set_num_threads(before)


@njit
def _fold_moments(chunk, sums, sums_sq):
    """Add the column sums and sums of squares of a chunk of records (one pass, no copies).

    The serial fold runs between parallel chunks, so it is kept small: the
    NumPy version (``astype``, square, two sums) cost 0.4 us a game, 7% of a
    two-thread Valhalla run."""
    for i in range(chunk.shape[0]):
        for j in range(chunk.shape[1]):
            x = float(chunk[i, j])
            sums[j] += x
            sums_sq[j] += x * x


@njit
def _sum_of_products(chunk, a, b):
    """The sum over the rows of ``chunk[:, a] * chunk[:, b]``, without BLAS: ``np.dot`` on a float
    copy handed the work to OpenBLAS threads, which then spun on the other core between chunks
    (``perf``: 6.7% of a one-thread Valhalla run in ``blas_thread_server``)."""
    total = 0.0
    for i in range(chunk.shape[0]):
        total += float(chunk[i, a]) * float(chunk[i, b])
    return total


# column pairs whose sum of products a Summary keeps (ratio estimates with intervals)
PRODUCTS = (("options", "decisions"),)
ALWAYS_HISTOGRAMS = ("winner", "result", "n_winners")
# what a Summary keeps per game length for the decisive turn: games with a sole winner, sum, sum of squares
BY_LENGTH = ("games", "decisive_turn", "decisive_turn_sq")


def _add_counts(total: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``total + counts`` for histograms of different lengths."""
    if counts.size > total.size:
        grown = np.zeros(counts.size, np.int64)
        grown[: total.size] = total
        total = grown
    total[: counts.size] += counts
    return total


class Summary:
    """Streaming totals of a run (``keep="summary"``): flat memory in the number of games.

    Holds, per result column, the count of games, the sum and the sum of
    squares (means with standard errors), and a histogram of every column in
    ``spec.histogram_columns``, every ``score_*`` column, ``winner``,
    ``result`` and ``n_winners`` (a game where seats can share a win: it
    tells the games nobody won from the shared wins).  For the design metrics (``toolkit/analysis/metrics.py``) it
    also keeps:

    - ``position_wins``: wins by place in the turn order (0 = the seat that
      moved first, the frame's ``first_seat``: ``results.first_seats``; seats follow in seat order), so
      the first-player advantage is known without one row per game;
    - ``products``: the sum of ``a * b`` for each pair in :data:`PRODUCTS`
      (a ratio such as options per decision gets a delta-method interval);
    - ``decided``: over the games with a sole winner, their count and the sums
      (and sums of squares) of ``decisive_turn`` and ``decisive_turn / turns``.
      They are derived from ``by_length``: per game length in turns, the
      number of such games and the integer sums of ``decisive_turn`` and of
      its square (bounded by the longest game, like a histogram).

    Two summaries of the same run settings merge (:meth:`merge`), and a
    summary travels between processes as plain arrays (:meth:`to_state`,
    :meth:`from_state`): the Dask backends of ``simulate`` and the sweep use
    both.  Every total is a sum of integers, exact in any order (float64
    sums below 2**53, int64 counts), so a run cut into any tasks, merged in
    any order, gives the summary of the whole run bit for bit.
    """

    def __init__(self, spec, attrs: dict, shown=None):
        self.spec = spec
        self.attrs = dict(attrs)
        self.columns = list(spec.columns)
        self.shown = list(spec.columns if shown is None else shown)  # the columns a frame would have
        self.n_games = 0
        self.sums = np.zeros(len(self.columns))
        self.sums_sq = np.zeros(len(self.columns))
        self.hist_columns = [c for c in self.columns if c in spec.histogram_columns or c.startswith("score_")
                             or c in ALWAYS_HISTOGRAMS]
        self.histograms = {c: np.zeros(0, np.int64) for c in self.hist_columns}
        self.seats = seat_count(self.shown)
        self.position_wins = np.zeros(self.seats, np.int64)
        self.products = np.zeros(len(PRODUCTS))
        # games with a sole winner, by length in turns: their number, sum of decisive_turn, sum of its square
        self.by_length = {k: np.zeros(0, np.int64) for k in BY_LENGTH}
        self.violations = 0

    def _col(self, chunk, name):
        return chunk[:, self.columns.index(name)]

    def add(self, chunk: np.ndarray) -> None:
        self.n_games += chunk.shape[0]
        _fold_moments(chunk, self.sums, self.sums_sq)
        for c in self.hist_columns:
            col = chunk[:, self.columns.index(c)]
            if c == "winner":
                col = col + 1  # -1 (no winner) -> bin 0
            self.histograms[c] = _add_counts(self.histograms[c], np.bincount(col))
        first = results.first_seats(self.spec, lambda name: self._col(chunk, name)) if self.seats else None
        if first is not None:
            for s in range(self.seats):
                won = self._col(chunk, f"win_{s}") == 1
                place = (s - first[won]) % self.seats
                self.position_wins += np.bincount(place, minlength=self.seats)
        for k, (a, b) in enumerate(PRODUCTS):
            if a in self.columns and b in self.columns:
                self.products[k] += _sum_of_products(chunk, self.columns.index(a), self.columns.index(b))
        if "decisive_turn" in self.columns:
            sole = self._col(chunk, "winner") >= 0
            length = self._col(chunk, "turns")[sole]
            turn = self._col(chunk, "decisive_turn")[sole].astype(np.float64)
            # float sums of integers per bin, exact below 2**53 (a chunk's few thousand games)
            for key, weights in zip(BY_LENGTH, (None, turn, turn * turn)):
                counts = np.bincount(length, weights=weights).astype(np.int64)
                self.by_length[key] = _add_counts(self.by_length[key], counts)

    @property
    def decided(self) -> np.ndarray:
        """Over the games with a sole winner: their count, the sum and sum of squares of
        ``decisive_turn``, and of ``decisive_turn / turns`` (from the exact totals by length)."""
        games, total, total_sq = (self.by_length[k] for k in BY_LENGTH)
        length = np.maximum(np.arange(games.size), 1).astype(np.float64)
        return np.array([games.sum(), total.sum(), total_sq.sum(),
                         (total / length).sum(), (total_sq / (length * length)).sum()], np.float64)

    # -- merging and transport -------------------------------------------------

    def to_state(self) -> dict:
        """The totals as plain numbers and arrays (picklable without the game's compiled code)."""
        return {"game": self.spec.name, "attrs": self.attrs, "shown": self.shown, "n_games": self.n_games,
                "sums": self.sums, "sums_sq": self.sums_sq, "histograms": self.histograms,
                "position_wins": self.position_wins, "products": self.products, "by_length": self.by_length}

    @classmethod
    def from_state(cls, state: dict, spec=None) -> "Summary":
        spec = get_spec(state["game"]) if spec is None else spec
        out = cls(spec, state["attrs"], state["shown"])
        out.n_games = int(state["n_games"])
        for name in ("sums", "sums_sq", "position_wins", "products"):
            setattr(out, name, np.array(state[name], copy=True))
        out.histograms = {c: np.array(v, copy=True) for c, v in state["histograms"].items()}
        out.by_length = {k: np.array(v, copy=True) for k, v in state["by_length"].items()}
        return out

    @classmethod
    def merged(cls, states, spec=None) -> "Summary":
        """One summary of task states (:meth:`to_state`, a task's answer), added in order; ``states`` may
        be a generator, so that each task runs just before it is added."""
        out = None
        for state in states:
            part = cls.from_state(state, spec)
            out = part if out is None else out.merge(part)
        if out is None:
            raise ValueError("no task states to merge")
        return out

    def merge(self, other: "Summary") -> "Summary":
        """Add the totals of ``other`` (more games of the same game, rules and policies); returns self."""
        if other.spec.name != self.spec.name or other.shown != self.shown:
            raise ValueError(f"cannot merge a {other.spec.name} summary into a {self.spec.name} one "
                             f"with other columns")
        self.n_games += other.n_games
        for name in ("sums", "sums_sq", "position_wins", "products"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for c in self.hist_columns:
            self.histograms[c] = _add_counts(self.histograms[c], other.histograms[c])
        for k in BY_LENGTH:
            self.by_length[k] = _add_counts(self.by_length[k], other.by_length[k])
        return self

    def histogram(self, column: str) -> pd.Series:
        """Counts per value of ``column``."""
        counts = self.histograms[column]
        index = np.arange(counts.size) - (1 if column == "winner" else 0)
        return pd.Series(counts, index=pd.Index(index, name=column), name="games")

    def means(self) -> pd.DataFrame:
        """Mean and standard error of every result column."""
        rows = []
        for i, c in enumerate(self.columns):
            if c not in self.shown:
                continue
            mean, se = stats.mean_se_from_moments(self.n_games, self.sums[i], self.sums_sq[i])
            rows.append({"column": c, "mean": mean, "se": se})
        return pd.DataFrame(rows).set_index("column")

    def win_rates(self) -> pd.DataFrame:
        rows = []
        for s in range(self.seats):
            wins = int(round(self.sums[self.columns.index(f"win_{s}")]))
            rate, lo, hi = stats.wilson(wins, self.n_games)
            rows.append({"seat": s, "games": self.n_games, "wins": wins, "win_rate": rate,
                         "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)

    def length(self, column: str = "turns") -> dict:
        """Mean, standard error and quantiles of a histogrammed column."""
        mean, se = stats.mean_se_from_moments(
            self.n_games, self.sums[self.columns.index(column)], self.sums_sq[self.columns.index(column)])
        return {"mean": mean, "se": se, **stats.quantiles_from_histogram(self.histograms[column])}

    def __repr__(self):
        return f"<Summary {self.spec.name}: {self.n_games} games, policies {self.attrs.get('policies')}>"


KEEPS = ("games", "summary")
BACKENDS = ("local", "dask")
TASKS_PER_THREAD = 8  # Dask: games are cut so each worker thread gets about this many tasks (balance)
MIN_TASK_GAMES, MAX_TASK_GAMES = 4_096, 4 * DEFAULT_CHUNK  # ... within these sizes (overhead, memory)
FRAME_COPIES = 2  # keep="games": the frame is built from the record array (and pandas may copy once more)


def simulate(game, rules=None, n_games: int = 10_000, *, seed: int = 0, policies=None, preset=None,
             threads: int | None = None, keep: str | None = None, output=None, chunk_size: int | None = None,
             progress: bool | None = None, check: bool = False, first_game: int = 0, backend: str = "local",
             client=None, scheduler: str | None = None, task_games: int | None = None):
    """Simulate ``n_games`` games and return their outcomes.

    Parameters
    ----------
    game : str or GameSpec
        ``"valhalla"``, … (see ``toolkit.GAMES``).
    rules : Rules, optional
        Rule values; default: ``preset`` (``"standard"``).
    n_games : int
        Number of games, >= 1.
    seed : int
        Run seed, 0 .. 2**63 - 1.  Game ``g`` depends only on ``(seed, g)``.
    policies : str or sequence of str
        One policy per seat (``"random,greedy"``); one name fills every seat.
    threads : int, optional
        Numba threads (default: all).  Results do not depend on it.
    keep : {"games", "summary"}, optional
        A DataFrame with one row per game, or a streaming :class:`Summary`
        (flat memory in the number of games).  Default: ``"games"``, or
        ``"summary"`` when ``output`` is given.  ``"games"`` first checks
        that the frame fits in the memory available and raises a
        ``ValueError`` naming ``n_games`` if it does not.
    output : path, optional
        Also write one row per game to this ``.csv`` or ``.parquet`` file
        (and its attrs to the ``.json`` sidecar), chunk by chunk as the
        chunks finish: memory stays flat, and the file is byte for byte what
        :func:`toolkit.save` writes for the ``keep="games"`` frame.  The rows
        go to ``NAME.part`` and are renamed when all are written; the sidecar
        comes last.  A failed or interrupted run leaves no file that looks
        complete.
    progress : bool, optional
        Show a tqdm bar; by default it appears only if the run takes more
        than two seconds.
    check : bool
        Check the game's §7 invariants after every move; a violation raises
        ``AssertionError``.
    first_game : int
        Index of the first game (chunks of one run on several machines).
    backend : {"local", "dask"}
        ``"dask"`` cuts the games into tasks of ``task_games`` and runs them on
        a Dask cluster (``client=`` a ``distributed.Client``, or
        ``scheduler=`` its address), one Numba thread per task.  The games,
        the summary and the file are exactly the local run's: each game
        depends only on the seed and its index, and the summary's totals add
        exactly in any order.  At most four tasks per worker thread are in
        flight or waiting; a file gets their rows in game order.
    task_games : int, optional
        Games per Dask task (default: about eight tasks per worker thread,
        4,096 to 262,144 games each, so the threads finish together).

    Examples
    --------
    >>> df = simulate("valhalla", n_games=1000, seed=1, progress=False)
    >>> int(df[["win_0", "win_1"]].sum().sum())  # Valhalla has no draws: one winner a game
    1000
    """
    spec = get_spec(game)
    rules = resolve_rules(spec, rules, preset)
    policies = spec.check_policies(policies, rules)
    _check_int("n_games", n_games, 1)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise ValueError(f"seed={seed!r} is not allowed: an integer in 0..2**63-1")
    _check_int("first_game", first_game, 0)
    if keep is None:
        keep = "games" if output is None else "summary"
    if keep not in KEEPS:
        raise ValueError(f"keep={keep!r} is not allowed: one of {', '.join(KEEPS)}")
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r} is not allowed: one of {', '.join(BACKENDS)}")
    if backend == "dask" and threads is not None:
        raise ValueError("threads= is for the local backend: each Dask task runs on one Numba thread")
    chunk = DEFAULT_CHUNK if chunk_size is None else chunk_size
    _check_int("chunk_size", chunk, 1)
    if task_games is not None:
        _check_int("task_games", task_games, 1)
    if output is not None:
        output = results.check_path(output)
    shown = spec.result_columns(rules)
    if keep == "games":
        check_memory(spec, n_games)
    attrs = results.provenance(spec, rules, policies, seed, n_games)
    run = _Run(spec, rules, policies, int(seed), int(first_game), int(n_games), keep, check, attrs, shown,
               progress)

    job = jobs.current()  # a watched run (the dashboard, a command's one bar): no bar of its own
    bar = _bar(n_games, spec.name, False if job is not None else progress)
    try:
        with contextlib.ExitStack() as stack:
            stack.enter_context(jobs.planned(n_games, costs.per_game(spec, policies) * n_games))
            writer = stack.enter_context(results.Writer(output)) if output is not None else None
            if backend == "local":
                stack.enter_context(numba_threads(threads))
                parts = run.local_parts(int(chunk), job if chunk_size is None else None)
            else:
                cluster_client = stack.enter_context(cluster.connect(client, scheduler))
                parts = run.dask_parts(cluster_client, task_games, ordered=writer is not None,
                                       rows=keep == "games" or writer is not None)
            if job is not None:
                job.check()
            for first, part in parts:
                run.take(first, part, writer)
                played = part.n_games if isinstance(part, Summary) else len(part)
                bar.update(played)
                if job is not None:
                    job.advance(played)  # a cancelled job stops here, between chunks
            written = writer.close(attrs) if writer is not None else None
    finally:
        bar.close()
    out = run.result()
    if written is not None and isinstance(out, Summary):
        out.attrs["output"] = [str(p) for p in written]
    return out


def _check_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name}={value!r} is not allowed: an integer >= {low}")


def _bar(total, name, progress):
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", desc=name, disable=progress is False,
                delay=0 if progress else PROGRESS_DELAY_S, leave=False)


def available_memory() -> int:
    """Bytes of memory this machine can give a new allocation now (``psutil``'s ``available``)."""
    import psutil

    return int(psutil.virtual_memory().available)


def _size(n_bytes: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB", "EB"):
        if n_bytes < 1000 or unit == "EB":
            return f"{n_bytes:,.0f} {unit}" if unit == "bytes" else f"{n_bytes:,.1f} {unit}"
        n_bytes /= 1000
    raise AssertionError  # pragma: no cover


def frame_bytes(spec, n_games: int) -> int:
    """Memory a ``keep="games"`` run needs: the kernel's int32 records, then the frame built from
    them (int32 columns, an int64 ``game_index`` and the int64 derived columns: ``first_seat``),
    which pandas may copy once."""
    derived = len(results.DERIVED_COLUMNS) if spec.first_mover is not None else 0
    row = 4 * len(spec.columns) + FRAME_COPIES * (4 * len(spec.columns) + 8 + 8 * derived)
    return int(n_games) * row


def check_memory(spec, n_games: int) -> None:
    """Refuse a ``keep="games"`` run whose frame would not fit in the memory available."""
    need, have = frame_bytes(spec, n_games), available_memory()
    if need > have:
        raise ValueError(
            f"n_games={n_games:,} is too many to keep one row per game in memory: the frame would need "
            f"about {_size(need)} and {_size(have)} is available; use keep=\"summary\" (totals and "
            f"histograms, flat memory) or output=PATH (stream the rows to a .csv or .parquet file)")


def run_part(game: str, rules_json: dict, policies, seed: int, first_game: int, n_games: int, keep: str,
             check: bool = False, threads: int | None = 1):
    """One task of a run (runs on a Dask worker): games ``first_game .. first_game + n_games - 1``.

    ``keep="summary"``: the :meth:`Summary.to_state` of those games;
    ``keep="games"``: their raw int32 records (one row per game, the kernel's columns).
    """
    spec = get_spec(game)
    rules = spec.Rules.from_json(rules_json)
    policies = spec.check_policies(policies, rules)
    run = _Run(spec, rules, policies, seed, first_game, n_games, keep, check,
               results.provenance(spec, rules, policies, seed, n_games), spec.result_columns(rules))
    job = jobs.current()  # a trial of a watched tuning, played here: progress and cancel between chunks
    with numba_threads(threads), jobs.planned(n_games, costs.per_game(spec, policies) * n_games):
        for first, block in run.local_parts(DEFAULT_CHUNK, job):
            run.take(first, block, None)
            if job is not None:
                job.advance(len(block))
    if keep == "summary":
        return run.summary.to_state()
    return run.games


class _Run:
    """One run's settings and what it has collected so far (the games, the summary)."""

    def __init__(self, spec, rules, policies, seed, first_game, n_games, keep, check, attrs, shown,
                 progress=False):
        self.spec, self.rules, self.policies, self.progress = spec, rules, policies, progress
        self.seed, self.first_game, self.n_games = seed, first_game, n_games
        self.keep, self.check, self.attrs, self.shown = keep, check, attrs, list(shown)
        self.ncols = len(spec.columns)
        self.games = np.zeros((n_games, self.ncols), np.int32) if keep == "games" else None
        self.summary = Summary(spec, attrs, shown) if keep == "summary" else None

    def local_parts(self, chunk: int, job=None):
        """Play the games chunk by chunk here; yield ``(first game, records)`` (a view that the next
        chunk may overwrite unless the run keeps every game).  Under a ``job`` (``core.jobs``) the chunks
        are sized to take a fraction of a second, so a cancel or another job's chunk waits no longer,
        and one chunk plays at a time in the process (``jobs.KERNEL_LOCK``)."""
        kernel_args = self.spec.prepare(self.rules, self.policies)
        buffer = None if self.games is not None else np.zeros((min(chunk, self.n_games), self.ncols), np.int32)
        violations = np.zeros(min(chunk, self.n_games), np.int32)
        sizes = jobs.Chunks(numba.get_num_threads(), chunk) if job is not None else None
        lock = jobs.KERNEL_LOCK if job is not None else contextlib.nullcontext()
        start = 0
        while start < self.n_games:
            size = min(chunk, self.n_games - start) if sizes is None else sizes.next(self.n_games - start)
            block = self.games[start:start + size] if buffer is None else buffer[:size]
            first = self.first_game + start
            # the first call may compile: never silently (core.warm)
            with lock, warm.first_use(self.spec, warm.copy_of(self.spec, kernel_args[-1]), self.progress) \
                    if start == 0 else contextlib.nullcontext():
                began = time.perf_counter()
                self.spec.play_many(*kernel_args, self.seed, first, block, violations[:size], self.check)
                if sizes is not None and start > 0:  # the first chunk's time may include loading the kernel
                    sizes.played(size, time.perf_counter() - began)
            start += size
            if self.check and violations[:size].any():
                bad = int(np.flatnonzero(violations[:size])[0])
                raise AssertionError(
                    f"{self.spec.name}: invariant §7.{violations[bad]} violated in game {first + bad} "
                    f"(seed {self.seed}, policies {','.join(self.policies)})")
            yield first, block

    def dask_parts(self, client, task_games: int | None, ordered: bool, rows: bool):
        """The same parts computed as Dask tasks: the tasks' records when ``rows`` are wanted (kept
        or written), else their summaries; in game order when ``ordered`` (a file), else as they
        finish (rows are placed by index, summaries add exactly in any order)."""
        if task_games is None:
            per_thread = -(-self.n_games // (TASKS_PER_THREAD * cluster.threads(client)))
            task_games = min(max(per_thread, MIN_TASK_GAMES), MAX_TASK_GAMES)
        keep = "games" if rows else "summary"
        rules_json = self.rules.to_json()
        starts = range(0, self.n_games, task_games)
        tasks = [(self.spec.name, rules_json, self.policies, self.seed, self.first_game + start,
                  min(task_games, self.n_games - start), keep, self.check) for start in starts]
        for i, part in cluster.run_tasks(client, run_part, tasks, ordered=ordered):
            if keep == "summary":
                part = Summary.from_state(part, self.spec)
            yield self.first_game + starts[i], part

    def take(self, first: int, part, writer) -> None:
        """Fold one part (records of consecutive games, or a summary of them) into the run."""
        if isinstance(part, Summary):
            self.summary.merge(part)
            return
        start = first - self.first_game
        if self.games is not None and not np.shares_memory(part, self.games):
            self.games[start:start + len(part)] = part
        if self.summary is not None:
            self.summary.add(part)
        if writer is not None:  # written on the writer's thread while the next chunk plays
            writer.submit(results.to_frame(self.spec, part, first, {}, self.shown))

    def result(self):
        if self.summary is not None:
            return self.summary
        return results.to_frame(self.spec, self.games, self.first_game, self.attrs, self.shown)


def estimate(spec, rules, policies, n_games: int, *, seed: int = 0, threads: int | None = None,
             probe: bool = True) -> costs.Estimate:
    """The wall seconds ``n_games`` games of ``policies`` on ``rules`` should take, before they are played:
    the shipped cost (:mod:`toolkit.core.costs`), weighed with a timed probe of the run's first games (the
    note of :mod:`toolkit.core.costs`).  The probe is played outside any watched job (its games are not the
    run's count) and after the line-up's compiled copy is loaded (a load is not a game's time)."""
    threads = threads or os.cpu_count() or 1
    prior = costs.per_game(spec, policies)
    cost, probed = prior, 0
    games = min(n_games, max(threads, int(costs.PROBE_TARGET * threads / prior)))
    if probe and costs.seconds(prior, n_games, threads) >= costs.PROBE_ABOVE and \
            costs.seconds(prior, min(n_games, threads), threads) <= costs.PROBE_SECONDS:
        run = dict(seed=seed, policies=policies, threads=threads, keep="summary", progress=False)
        with jobs.running(None):
            if not warm.loaded(spec.play_many, warm.copy_of(spec, spec.prepare(rules, policies)[-1])):
                simulate(spec, rules, 1, **run)  # loads the copy (a second or so), not a game's time
            start = time.perf_counter()
            simulate(spec, rules, games, **run)
            measured = (time.perf_counter() - start) * min(threads, games) / games  # CPU seconds a game
        cost = (costs.PRIOR_GAMES * prior + games * measured) / (costs.PRIOR_GAMES + games)
        probed = games
    return costs.Estimate(costs.seconds(cost, n_games, threads), cost, prior, probed, threads)
