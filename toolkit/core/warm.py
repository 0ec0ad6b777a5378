"""Compiling is work like simulating: it says so, and it can be done ahead (``toolkit warm``).

A game's driver comes in three compiled copies (``core.driver.Blocks``): ``random`` (every seat random),
``plain`` (the game's policies, no tree search) and ``search`` (a line-up with an ``mcts`` seat), and a
fourth, ``lookahead``, in a game whose kernel leaves its lookahead out of the others (``choose_plain``).  The first run of a copy on a
machine compiles it into the cache directory (``core.cache``), once per version of the sources; every
later process loads it in about a second.

:func:`first_use` wraps the first call of a copy in a process: when no earlier process of this version
has finished compiling it (a marker file in the cache directory says so) it shows a progress bar
("compiling herrlof for first use, about 30 s") that runs on the time the last compile of that copy on
this machine took (:func:`estimate`), and records the time this one took.  :func:`warm` compiles copies
ahead, in parallel processes (``toolkit warm``, ``make``'s set-up step).
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path

COPIES = ("random", "plain", "search", "lookahead")  # the last only where a kernel has choose_plain (core.driver)
# seconds to compile each copy cold, each after the copies before it in COPIES (what it adds to them),
# measured by benchmarks/compile.py (2 cores, one compile at a time): the estimate until this machine has
# compiled the copy once itself
MEASURED = {
    ("valhalla", "random"): 7, ("valhalla", "plain"): 5, ("valhalla", "search"): 7,
    ("herrlof", "random"): 9, ("herrlof", "plain"): 4, ("herrlof", "search"): 7, ("herrlof", "lookahead"): 7,
    ("halali", "random"): 9, ("halali", "plain"): 5, ("halali", "search"): 8,
    ("attila", "random"): 14, ("attila", "plain"): 6, ("attila", "search"): 8, ("attila", "lookahead"): 15,
    ("walhalla", "random"): 15, ("walhalla", "plain"): 8, ("walhalla", "search"): 9, ("walhalla", "lookahead"): 11,
}
UNKNOWN = 30  # a game the table does not know yet (a new one)


def _cache_dir() -> Path:
    from toolkit.core.jit import CACHE_DIR

    return Path(CACHE_DIR)


def _marker(game: str, copy: str) -> Path:
    return _cache_dir() / "warm" / f"{game}-{copy}.done"


def _timings() -> Path:
    """Seconds of the last compile of each copy on this machine, kept beside the versions' directories."""
    return _cache_dir().parent / "compile-seconds.json"


def is_warm(game: str, copy: str) -> bool:
    """Whether a process of this version finished compiling ``copy`` of ``game`` into the cache."""
    return _marker(game, copy).exists()


def estimate(game: str, copy: str) -> float:
    """Seconds a cold compile of the copy adds to the copies before it in :data:`COPIES`: this machine's
    last, else :data:`MEASURED`."""
    try:
        return float(json.loads(_timings().read_text())[f"{game}-{copy}"])
    except (OSError, ValueError, KeyError, TypeError):
        return float(MEASURED.get((game, copy), UNKNOWN))


def estimate_first(game: str, copy: str) -> float:
    """Seconds the first use of ``copy`` should take: its own compile, and that of each copy before it in
    :data:`COPIES` that is not warm yet (the plain copy compiles the game's steps that the random copy
    would, the searching copy the policies of the plain one)."""
    before = COPIES[:COPIES.index(copy)]
    return estimate(game, copy) + sum(estimate(game, c) for c in before if not is_warm(game, c))


def _after_the_copies_before(game: str, copy: str) -> bool:
    """Whether every copy before ``copy`` in :data:`COPIES` is warm: then the time ``copy`` takes is its
    own (what :func:`estimate` gives), not theirs too."""
    return all(is_warm(game, c) for c in COPIES[:COPIES.index(copy)])


def _record(game: str, copy: str, seconds: float, timed: bool = True) -> None:
    """Mark the copy compiled and, if ``timed`` (it compiled after the copies before it), keep the seconds
    it took for the next version's estimate."""
    try:
        marker = _marker(game, copy)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(f"{seconds:.1f}\n")
        if not timed:
            return
        path = _timings()
        try:
            timings = json.loads(path.read_text())
        except (OSError, ValueError):
            timings = {}
        timings[f"{game}-{copy}"] = round(seconds, 1)
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_text(json.dumps(timings, indent=1, sort_keys=True))
        partial.replace(path)
    except OSError:  # an unwritable cache: the next process says it compiles again
        pass


def copy_of(spec, policy_codes) -> str:
    """The copy of ``spec``'s driver that plays these kernel policy codes (``core.driver.Blocks.copy``)."""
    return spec.play_many.copy(policy_codes)


def loaded(driver, copy: str) -> bool:
    """Whether this process already holds the copy of the game's ``play_many`` compiled or loaded."""
    from toolkit.core.driver import COPY_ATTRIBUTE

    dispatcher = getattr(driver, COPY_ATTRIBUTE.get(copy, copy), driver)
    return bool(getattr(dispatcher, "signatures", ()))


def notice(spec, rules, policies) -> str | None:
    """The sentence a page shows before a run of ``policies`` that must compile first (``None`` if the
    copy it needs is loaded or warm)."""
    copy = copy_of(spec, spec.prepare(rules, policies)[-1])
    if loaded(spec.play_many, copy) or is_warm(spec.name, copy):
        return None
    what = {"search": " with a tree search", "plain": " with its policies", "lookahead": " with its lookahead"}.get(copy, "")
    return (f"compiling {spec.title or spec.name}{what} for first use, about {estimate_first(spec.name, copy):.0f} s "
            f"(once per machine and version) …")


@contextlib.contextmanager
def first_use(spec, copy: str, progress: bool | None = None):
    """Around the first call of a game's driver copy in a process: a bar while it compiles, when it must
    (module docstring).  ``progress=False`` shows nothing (the run asked for no bars)."""
    if loaded(spec.play_many, copy):
        yield
        return
    if is_warm(spec.name, copy):
        yield  # loaded from the cache: about a second
        return
    bar = None
    if progress is not False:
        bar = _CompileBar(spec.name, copy, estimate_first(spec.name, copy))
    timed = _after_the_copies_before(spec.name, copy)
    start = time.perf_counter()
    try:
        yield
    finally:
        if bar is not None:
            bar.close()
    _record(spec.name, copy, time.perf_counter() - start, timed)


class _CompileBar:
    """A tqdm bar that runs on the clock up to the estimate (a compile reports no progress of its own)."""

    def __init__(self, game: str, copy: str, seconds: float):
        from tqdm.auto import tqdm

        what = {"search": "with a tree search ", "plain": "with its policies ",
                "lookahead": "with its lookahead "}.get(copy, "")
        self.bar = tqdm(total=round(seconds), unit="s", leave=False, position=0,
                        desc=f"compiling {game} {what}for first use, about {seconds:.0f} s (once per machine "
                             f"and version; toolkit warm does it ahead)",
                        bar_format="{desc}: {bar} {elapsed}")
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._tick, daemon=True, name="compile-bar")
        self.start = time.perf_counter()
        self.thread.start()

    def _tick(self):
        while not self.stop.wait(0.5):
            done = min(time.perf_counter() - self.start, 0.99 * self.bar.total)
            self.bar.n = round(done)
            self.bar.refresh()

    def close(self):
        self.stop.set()
        self.thread.join()
        self.bar.close()


def compile_copy(game: str, copy: str) -> tuple[str, str, float]:
    """Compile (or load) one copy of a game's driver by playing a few games; ``(game, copy, seconds)``."""
    import toolkit

    timed = _after_the_copies_before(game, copy)
    start = time.perf_counter()
    spec = toolkit.GAMES[game]
    seats = spec.seats(toolkit.rules(game))
    policies = {"random": ("random",) * seats, "plain": ("greedy",) + ("random",) * (seats - 1),
                "search": ("mcts:2",) + ("random",) * (seats - 1),
                "lookahead": ("lookahead:1",) + ("random",) * (seats - 1)}[copy]
    toolkit.simulate(game, n_games=2, policies=policies, progress=False)
    _extras(spec, copy, policies)
    seconds = time.perf_counter() - start
    if not is_warm(game, copy):  # simulate records it unless the copy was loaded from the cache unmarked
        _record(game, copy, seconds, timed)
    return game, copy, seconds


def _extras(spec, copy: str, policies) -> None:
    """What else a copy's first use compiles, done with it: with the ``random`` copy the streamed summary's
    folds (``keep="summary"``, every game's), with the ``plain`` copy the protocol's stepping of one game (the
    decision's kind: ``KernelGame``, as the decisions, the viewer and a seat use it), and with every copy the
    game's own logged loops played by the copy's policies, where its package has them (its ``warm_logs``:
    Herrlof's round log, Halali's capture heat map).  Without these, a notebook's first round log compiled for
    14 s with nothing said (issue 50's CI measurements)."""
    import importlib

    import toolkit
    from toolkit.core.protocol import KernelGame

    rules = spec.Rules()
    if copy == "random":
        toolkit.simulate(spec.name, rules, 2, policies=policies, keep="summary", progress=False)
    if copy == "plain":
        game = KernelGame(spec.kernel, rules, policies, 0, 0)
        while game.advance() >= 0:
            game.kind()
            game.apply(game.options()[game.choose()])
    package = importlib.import_module(spec.kernel.__name__.rpartition(".")[0])
    logs = getattr(package, "warm_logs", None)
    if logs is not None:
        logs(policies)


def copies_of(game: str) -> tuple:
    """The copies of the game's driver, in the order of :data:`COPIES`: ``lookahead`` only where the kernel
    leaves its lookahead out of the others (``core.driver.Blocks.whole``)."""
    import toolkit

    driver = toolkit.GAMES[game].play_many
    return COPIES if driver.whole is not driver.searching else COPIES[:3]


def next_game(left: dict, busy: set):
    """The game whose next copy a free process compiles: of those with copies ``left`` and none compiling
    (``busy``), the one with the most seconds of compiling left (:func:`estimate`); ``None`` if none."""
    idle = [g for g in left if left[g] and g not in busy]
    return max(idle, key=lambda g: sum(estimate(g, copy) for copy in left[g]), default=None)


def warm(games, search: bool = False, jobs: int | None = None, progress: bool = True) -> list:
    """Compile each game's random and plain copies (and with ``search`` its searching copy, and its whole
    copy where it has one: :func:`copies_of`) into the cache,
    ``jobs`` processes at a time (default: one a core).  A game's copies compile one after the other, in
    the order of :data:`COPIES`, since each reuses what the one before compiled (two at once would both
    compile the game's steps); a free process takes the next copy of the game with the most compiling
    left.  Returns ``[(game, copy, seconds)]`` in the order they finished."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from tqdm.auto import tqdm

    left = {g: [copy for copy in copies_of(g)[:None if search else 2] if not is_warm(g, copy)] for g in games}
    left = {g: copies for g, copies in left.items() if copies}
    total = sum(map(len, left.values()))
    done: list = []
    if not total:
        return done
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(left)))
    remaining = {g: sum(estimate(g, copy) for copy in copies) for g, copies in left.items()}
    seconds = max(sum(remaining.values()) / jobs, max(remaining.values()))
    bar = tqdm(total=total, unit="copy", disable=not progress,
               desc=f"compiling {total} kernel copies on {jobs} processes, about {seconds:.0f} s")

    def submit(pool):
        game = next_game(left, busy)
        if game is None:
            return None
        busy.add(game)
        return pool.submit(compile_copy, game, left[game].pop(0))

    busy: set = set()
    # spawn, not fork: the parent has Numba's threads and compiler state
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        running = {submit(pool) for _ in range(jobs)} - {None}
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                game, copy, took = future.result()
                busy.discard(game)
                done.append((game, copy, took))
                bar.set_postfix_str(f"{game} {copy} {took:.0f} s")
                bar.update()
            while len(running) < jobs and (job := submit(pool)) is not None:
                running.add(job)
    bar.close()
    return done
