"""Session setup shared by every test.

- ``NUMBA_CACHE_DIR`` defaults to ``<repo>/.numba_cache`` (as the Makefile
  sets it).  It is set here, at import time, because Numba reads it when it
  is first imported, which happens when a test module imports ``toolkit``.
- Every registered game's kernel is warmed once per session, so the compile
  (or cache load) time is paid in one place and shows up once in
  ``--durations`` instead of inflating whichever test happens to run first.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(REPO / ".numba_cache"))

import pytest  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def warm_kernels():
    """Compile (or load from the cache) every game's kernel once per session."""
    import toolkit

    for name in toolkit.GAMES:
        toolkit.simulate(name, n_games=4, progress=False)
    yield
