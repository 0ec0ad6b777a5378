"""Session setup shared by every test.

- ``NUMBA_CACHE_DIR`` defaults to ``<repo>/.numba_cache`` (as the Makefile
  sets it).  It is set here, at import time, because Numba reads it when it
  is first imported, which happens when a test module imports ``toolkit``.
- Every registered game's kernel is warmed once per session, so the compile
  (or cache load) time is paid in one place and shows up once in
  ``--durations`` instead of inflating whichever test happens to run first.
- A module whose tests are marked ``background`` (a slow job in a subprocess,
  such as building and installing the wheel) has its ``start_background()``
  called as soon as the tests are collected, so the job runs on the second
  core while the rest of the suite runs; its tests wait for it.
- The dashboard's browser tests (marker ``solo``: they measure redraw times) run last; ``make test``
  runs them in a pass of their own, after the rest has run on two pytest-xdist workers.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(REPO / ".numba_cache"))

import pytest  # noqa: E402

from no_skips import pytest_sessionfinish  # noqa: E402,F401  TOOLKIT_NO_SKIPS=1 (make test): a skip fails the run


def pytest_collection_modifyitems(config, items):
    """The ``solo`` tests (the dashboard's browser tests, which measure redraw times) run last: by then
    nothing else runs beside them, and ``make test`` runs them in a pass of their own.  The long jobs
    come first, the background job's tests and the other browser tests (JupyterLab), then the modules
    marked ``slow`` (the equality runs), then the rest in collection order: on pytest-xdist workers
    (``make test``: ``--dist loadscope --no-loadscope-reorder``, which hands out modules in this order
    instead of the most tests first) the longest start at once and the short ones fill in at the end,
    instead of one worker busy with a long module while the other waits."""
    def key(item):
        long_job = item.get_closest_marker("background") or item.get_closest_marker("browser")
        return (item.get_closest_marker("solo") is not None, long_job is None,
                item.get_closest_marker("slow") is None)

    items.sort(key=key)  # stable


def pytest_collection_finish(session):
    """Start the background jobs of the selected tests now (see the module docstring).  Not on a
    pytest-xdist worker (``make test`` runs two): every worker collects every test, and the job's
    own tests start it where they run (``--dist loadscope`` keeps a module on one worker)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    modules = {item.module for item in session.items if item.get_closest_marker("background")}
    for module in sorted(modules, key=lambda m: m.__name__):
        module.start_background()


def _warm(names, locks: Path) -> None:
    """Play a few games of each game in ``names``, and one with a tree search, which compiles each game's two
    copies of the driver (``core.driver.Searching``: the plain one, and the one that can search) or loads
    them from the cache.

    Each copy of each game is a job warmed under a lock file of its own in ``locks``, shared by the
    pytest-xdist workers; the plain copies come first (the searching copies share their game's policies,
    which the plain one compiled and cached by then).  A worker takes the next job no other worker is
    warming, and only when every job left is being warmed elsewhere does it wait for one, then load what
    that worker compiled and cached.  From a cold cache the workers so compile different copies and never
    the same one twice (without the locks, two workers met on the largest kernel and both compiled it: a
    minute of CI), and, ten jobs rather than five games, neither waits long for the other's last one."""
    import fcntl

    import toolkit

    def play(name, copy):
        if copy == "plain":
            toolkit.simulate(name, n_games=4, progress=False)
        else:  # left to the tests, it was compiled again by a JupyterLab kernel at the same time (the
            # overview's ladder), which then ran out of time
            seats = toolkit.GAMES[name].seats(toolkit.rules(name))
            toolkit.simulate(name, n_games=1, policies=("mcts:2",) + ("random",) * (seats - 1), progress=False)

    locks.mkdir(parents=True, exist_ok=True)
    pending = [(name, copy) for copy in ("plain", "search") for name in names]
    while pending:
        for wait in (False, True):  # first a job nobody warms, else wait for the first left
            for job in pending:
                with open(locks / f"{job[0]}-{job[1]}.lock", "w") as lock:
                    try:
                        fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
                    except BlockingIOError:
                        continue
                    play(*job)
                pending.remove(job)
                break
            else:
                continue
            break


@pytest.fixture(scope="session", autouse=True)
def warm_kernels():
    """Compile (or load from the cache) every game's kernel once per session (:func:`_warm`)."""
    import toolkit

    names = list(toolkit.GAMES)
    _warm(names, Path(os.environ["NUMBA_CACHE_DIR"]) / "warm-locks")
    yield
    # A test that calls a driver with other argument types (an int64 ``out``, say) has it compiled
    # again: a minute or more of CI for nothing.  Every driver, the plain copy and the one that can search
    # (core.driver.Searching), must have been compiled at most once.
    drivers = {f"{name}{copy}": getattr(toolkit.GAMES[name].play_many, attribute)
               for name in names for copy, attribute in (("", "plain"), (" (searching)", "searching"))}
    twice = {name: [str(s) for s in driver.signatures]
             for name, driver in drivers.items() if len(driver.signatures) > 1}
    assert not twice, f"a test compiled a game's play_many again, for other argument types: {twice}"


@pytest.fixture(scope="session")
def cluster_client():
    """A Dask ``LocalCluster`` of 2 single-threaded worker processes (the dask extra is part of
    ``make test``'s install), shared by every test that runs on a cluster."""
    import distributed

    # dashboard_address=":0": any free port (with None it still tries 8787, and warns when another cluster has it)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        yield client
