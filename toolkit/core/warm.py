"""Compiling is work like simulating: it says so, and it can be done ahead (``toolkit warm``).

A game's driver comes in three compiled copies (``core.driver.Blocks``): ``random`` (every seat random),
``plain`` (the game's policies, no tree search) and ``search`` (a line-up with an ``mcts`` seat), and a
fourth, ``lookahead``, in a game whose kernel leaves its lookahead out of the others (``choose_plain``).  The first run of a copy on a
machine compiles it into the cache directory (``core.cache``), once per version of the sources; every
later process loads it in about a second.

:func:`first_use` wraps the first call of a copy in a process: when no earlier process of this version
has finished compiling it (a marker file in the cache directory says so) it shows a progress bar
("compiling herrlof for first use, about 30 s") that runs on the time the last compile of that copy on
this machine took (:func:`estimate`), and records the time this one took.  :mod:`toolkit.core.ahead`
compiles copies ahead, in parallel processes (``toolkit warm``, ``make``'s set-up step); it plays games
(``core.runner``), which this module, below the runner, does not.
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


def after_the_copies_before(game: str, copy: str) -> bool:
    """Whether every copy before ``copy`` in :data:`COPIES` is warm: then the time ``copy`` takes is its
    own (what :func:`estimate` gives), not theirs too."""
    return all(is_warm(game, c) for c in COPIES[:COPIES.index(copy)])


def record_time(game: str, copy: str, seconds: float, timed: bool = True) -> None:
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
    timed = after_the_copies_before(spec.name, copy)
    start = time.perf_counter()
    try:
        yield
    finally:
        if bar is not None:
            bar.close()
    record_time(spec.name, copy, time.perf_counter() - start, timed)


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
