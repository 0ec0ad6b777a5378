"""Session setup shared by every test.

- ``NUMBA_CACHE_DIR`` defaults to ``<repo>/.numba_cache`` (as the Makefile
  sets it): the root of the compiled kernels' directories, one per version of
  the sources (``toolkit.core.cache``).  It is set here, at import time, before
  a test module imports ``toolkit``.
- Nothing is compiled ahead: ``make test`` runs ``toolkit warm --search`` before the suite (every
  game's copies compiled in parallel processes), and a test run by hand compiles only what it plays.
- A module whose tests are marked ``background`` (a slow job in a subprocess,
  such as building and installing the wheel) has its ``start_background()``
  called as soon as the tests are collected, so the job runs on the second
  core while the rest of the suite runs; its tests wait for it.
- ``TOOLKIT_TEST_THREADS`` (``make test`` sets 1): the Numba threads of a run on a pytest-xdist
  worker whose test does not ask for a number (:func:`pytest_configure`).
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(REPO / ".numba_cache"))

import pytest  # noqa: E402

from no_skips import pytest_sessionfinish  # noqa: E402,F401  TOOLKIT_NO_SKIPS=1 (make test): a skip fails the run


def pytest_collection_modifyitems(config, items):
    """The long jobs come first, the background job's tests and the browser tests, then the modules
    marked ``slow`` (the equality runs), then the rest in collection order: on pytest-xdist workers
    (``make test``: ``--dist loadscope --no-loadscope-reorder``, which hands out modules in this order
    instead of the most tests first) the longest start at once and the short ones fill in at the end,
    instead of one worker busy with a long module while the other waits."""
    def key(item):
        long_job = item.get_closest_marker("background") or item.get_closest_marker("browser")
        return (long_job is None, item.get_closest_marker("slow") is None)

    items.sort(key=key)  # stable


def pytest_configure(config):
    """On a pytest-xdist worker, ``TOOLKIT_TEST_THREADS`` (if set) is the number of Numba threads a run
    plays on when the test does not say (``threads=None``); a test that asks for threads gets them."""
    threads = os.environ.get("TOOLKIT_TEST_THREADS")
    if threads and os.environ.get("PYTEST_XDIST_WORKER"):
        import numba

        numba.set_num_threads(int(threads))


def pytest_collection_finish(session):
    """Start the background jobs of the selected tests now (see the module docstring).  Not on a
    pytest-xdist worker (``make test`` runs two): every worker collects every test, and the job's
    own tests start it where they run (``--dist loadscope`` keeps a module on one worker)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    modules = {item.module for item in session.items if item.get_closest_marker("background")}
    for module in sorted(modules, key=lambda m: m.__name__):
        module.start_background()


@pytest.fixture(scope="session", autouse=True)
def compiled_once():
    """After the session: every game's driver, each of its copies (``core.driver.Blocks``: random, plain,
    searching, whole), was compiled at most once.  A test that calls a driver with other argument
    types (an int64 ``out``, say) has it compiled again: a minute of CI for nothing.

    Nothing is compiled ahead here: a test compiles (or loads from the cache) what it plays, so a run of
    one game's tests compiles that game only.  ``make test`` runs ``toolkit warm --search`` first, which
    compiles every copy in parallel processes, so the suite itself loads them."""
    import toolkit

    yield
    drivers = {f"{name}{copy}": getattr(toolkit.GAMES[name].play_many, attribute)
               for name in toolkit.GAMES
               for copy, attribute in (("", "plain"), (" (searching)", "searching"), (" (random)", "random"),
                                       (" (whole)", "whole"))}
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
