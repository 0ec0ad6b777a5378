"""Long runs that can be watched and stopped: progress, an estimate of the time left, and a cancel.

A :class:`Job` is what a caller (the dashboard, the command line) hands the toolkit's long functions
without passing it through their signatures: ``with jobs.running(job): compare(...)``.  Inside,

- :func:`toolkit.simulate` plays its games in chunks sized to take about :data:`CHUNK_SECONDS` each
  (the results do not depend on the chunk size: each game draws from its own streams) and, after each
  chunk, adds the games to the job's count and stops with :class:`Cancelled` if the job was cancelled;
- a function that knows its whole plan (a tournament: every seating's games) announces it with
  :func:`planned`, so the count has its real total from the start; the runs inside do not announce
  theirs again.  A plan may also say its *work*: the seconds its games are expected to take
  (:mod:`toolkit.core.costs`, a policy's shipped seconds a game), so that a ladder whose last rungs cost
  a hundred times its first says the time left by the work done, not by the games done; each run
  inside counts its games at its own cost;
- the time left is the pace of the work since the first report (the start's loading or compiling is
  not a pace) applied to the work left, said once a tenth of the work is done;
- one chunk at a time plays in the whole process (:data:`KERNEL_LOCK`): a job running in a thread and
  another one started meanwhile take turns chunk by chunk instead of launching two parallel kernels
  at once (Numba's ``workqueue`` threading layer aborts on that).

Without a job nothing changes: :func:`current` is ``None`` and the runner plays its usual chunks.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time

CHUNK_SECONDS = 0.15  # a chunk's target time under a job: a cancel takes effect within about this
FIRST_CHUNK = 1  # games per thread of a job's first chunks (one mcts:1000 game can take seconds); then they grow
KERNEL_LOCK = threading.Lock()

_current: contextvars.ContextVar = contextvars.ContextVar("toolkit_job", default=None)


class Cancelled(Exception):
    """The job was cancelled: raised at the next chunk's end, nothing of the run is returned."""


class Job:
    """A long run's progress (games done of the games planned, their work) and its cancel switch.

    ``on_progress(job)`` is called after each chunk, at most every ``every`` seconds (and once at
    the start and the end of each planned stage), from the thread that runs the job.  ``unit`` names what is counted
    (``"games judged"``); the outermost plan sets it.
    """

    def __init__(self, on_progress=None, every: float = 0.2):
        self.total = 0
        self.done = 0
        self.work = 0.0  # the planned games' expected seconds (a plan without costs: 1 a game)
        self.work_done = 0.0
        self.unit = "games"
        self.started = time.perf_counter()
        self.on_progress = on_progress
        self.every = every
        self._cancel = threading.Event()
        self._stages = []  # the plans entered, outermost first: their work a game (None: not declared)
        self._first = None  # (time, work done) at the first report: the pace is measured from there
        self._shown = 0.0

    @property
    def _depth(self) -> int:
        return len(self._stages)

    # -- control ------------------------------------------------------------------

    def cancel(self) -> None:
        """Ask the job to stop at the end of its current chunk."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        """Raise :class:`Cancelled` if the job was cancelled."""
        if self._cancel.is_set():
            raise Cancelled

    # -- progress -----------------------------------------------------------------

    def _per_game(self) -> float:
        """The work of one game of the innermost plan: its own cost where the outermost plan declared its
        work (the units agree), else 1."""
        if not self._stages or self._stages[0] is None:
            return 1.0
        return next(cost for cost in reversed(self._stages) if cost is not None)

    def advance(self, games: int) -> None:
        """``games`` more games played; report (throttled) and stop here if cancelled."""
        now = time.perf_counter()
        if self._first is None:
            self._first = (now, self.work_done)
        self.done += games
        self.work_done += games * self._per_game()
        if self.on_progress is not None and now - self._shown >= self.every:
            self._shown = now
            self.on_progress(self)
        self.check()

    def unplan(self, games: int) -> None:
        """``games`` of the outermost plan will not be played after all (a repeated candidate of a tuning)."""
        self.work -= games * self._per_game()
        self.total -= games

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def remaining(self) -> float | None:
        """Seconds left: the pace of the work since the first report applied to the work left; ``None``
        without a plan or before a tenth of the work is done (the first games' pace, with the start's
        costs in it, said "about 10 min 55 s left" of a 3-second run)."""
        if self.total <= 0 or self.work <= 0 or self._first is None or self.work_done * 10 < self.work:
            return None
        since, work_then = self._first
        paced = self.work_done - work_then
        if paced <= 0:
            return None
        return (time.perf_counter() - since) * max(self.work - self.work_done, 0.0) / paced

    def fraction(self) -> float:
        """The share of the work done (of the games, where the plan declared no work)."""
        return min(self.work_done / self.work, 1.0) if self.work > 0 else 0.0


def current() -> Job | None:
    """The job the calling thread runs, or ``None``."""
    return _current.get()


@contextlib.contextmanager
def running(job: Job):
    """Run the block as ``job``: the toolkit's runs inside report to it and stop when it is cancelled."""
    token = _current.set(job)
    try:
        yield job
    finally:
        _current.reset(token)


@contextlib.contextmanager
def planned(games: int, work: float | None = None, unit: str | None = None):
    """A stage of ``games`` games, expected to take ``work`` seconds (:mod:`toolkit.core.costs`; ``None``:
    not declared).  The outermost stage adds them to the job's total and names the ``unit`` counted; the
    stages inside it (its runs) do not count them a second time, but count their games at their own
    work a game.  Without a job, nothing."""
    job = current()
    if job is None:
        yield
        return
    per_game = None if work is None or games <= 0 else float(work) / games
    outermost = job._depth == 0
    if outermost:
        job.total += int(games)
        job.work += games * (per_game if per_game is not None else 1.0)
        if unit is not None:
            job.unit = unit
    job._stages.append(per_game)
    if outermost and job.on_progress is not None:
        job.on_progress(job)  # the count from the start ("0 of 200 games judged"), not after the first games
    try:
        yield
    finally:
        job._stages.pop()
        if job._depth == 0 and job.on_progress is not None:
            job.on_progress(job)


class Chunks:
    """The chunk sizes of one run under a job: small at first, then each about :data:`CHUNK_SECONDS`.

    ``next(left)`` gives the next chunk's games; ``played(games, seconds)`` tells how long the last
    one took."""

    def __init__(self, threads: int, most: int):
        self.size = max(1, FIRST_CHUNK * max(threads, 1))
        self.most = most

    def next(self, left: int) -> int:
        return max(1, min(self.size, self.most, left))

    def played(self, games: int, seconds: float) -> None:
        if seconds <= 0:
            self.size = min(self.size * 8, self.most)
            return
        wanted = games * CHUNK_SECONDS / seconds
        self.size = int(max(1, min(wanted, self.size * 8, self.most)))


def format_duration(seconds: float) -> str:
    """``4 s``, ``2 min 5 s``, ``1 h 3 min``: a time as a person reads it."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{max(seconds, 1)} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


def describe(job: Job, unit: str | None = None) -> str:
    """``12,000 of 40,000 games, about 6 s left``: a job's progress in words (``unit``: the job's own)."""
    unit = job.unit if unit is None else unit
    if job.total <= 0:
        return f"{job.done:,} {unit}"
    left = job.remaining()
    tail = ", the time left known after a tenth" if left is None else f", about {format_duration(left)} left"
    return f"{min(job.done, job.total):,} of {job.total:,} {unit}{tail}"


@contextlib.contextmanager
def bar(description: str, enabled: bool = True):
    """A job shown as one tqdm bar over all its runs (the command line's long commands); the runs
    inside show no bars of their own.  Ctrl-C stops it as usual."""
    if not enabled:
        yield None
        return
    from tqdm.auto import tqdm

    # the time left is the job's (its work's pace since the first games, :meth:`Job.remaining`), not tqdm's
    # games-per-second: a ladder's last rungs cost a hundred times its first
    progress = tqdm(total=0, unit="games", desc=description, leave=False, delay=1.0,
                    bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} {unit} [{elapsed}{postfix}]")

    def show(job: Job) -> None:
        progress.unit = job.unit  # "games judged"
        if progress.total != job.total:
            progress.total = job.total
        left = job.remaining()
        progress.set_postfix_str("time left known after a tenth" if left is None
                                 else f"about {format_duration(left)} left", refresh=False)
        progress.update(job.done - progress.n)
        progress.refresh()

    job = Job(on_progress=show)
    try:
        with running(job):
            yield job
    finally:
        progress.close()
