"""The Numba options, in one place, with the reason for each.

``njit``
    For every game kernel and helper that runs one game or one step.

    - ``cache=True``: compile time is a user-facing cost (the first result after
      import must come within seconds), so compiled machine code is written to
      the Numba cache (``NUMBA_CACHE_DIR``, set by the Makefile to
      ``.numba_cache/``) and reused by later processes, tests and notebooks.
    - ``nogil=True``: costs nothing and lets a caller run kernels from Python
      threads.
    - ``fastmath=False`` (the default, stated here on purpose): the kernel must
      agree bit for bit with the pure-Python reference, including the float
      sums of the expectimax policy, so no reassociation is allowed.
    - ``error_model="numpy"``: no Python-style ZeroDivisionError checks in the
      hot loop; kernels never divide by a value that can be zero.

``njit_inline``
    For the small helpers of the per-decision path (``inline="always"``: Numba
    copies the function's IR into every caller before typing it).  Each copy
    is typed and compiled again, so a large function inlined at several places
    multiplies the compile time: the driver's loop of issue 15 first inlined
    every protocol function, and with them copies of the same large helpers,
    which about doubled the cold compile (Herrlof 67 s -> 113 s).  Functions
    that run once a game or once a round (``start``, ``record``, a deal) and
    the copies the policies' rollouts would make are plain calls
    (``njit_no_nrt``) instead: same results and speed, 20% less compile
    (issue 15's closing note has the figures).

``njit_parallel``
    For the ``play_many`` drivers that loop over games with ``numba.prange``.
    ``cache=True`` with ``parallel=True`` has had crashes in old Numba
    releases (pitfall in docs/style.md); with numba>=0.59 and the default
    threading layer the cached parallel driver passes the thread-count tests
    (``tests/core/test_runner.py``) and cuts the warm first result from
    about 4 s to under 1 s (``make bench``), so it is cached too.  Set
    ``TOOLKIT_PARALLEL_CACHE=0`` to turn that cache off if a platform
    misbehaves.
"""

from __future__ import annotations

import os

import numba

_PARALLEL_CACHE = os.environ.get("TOOLKIT_PARALLEL_CACHE", "1") != "0"

njit = numba.njit(cache=os.environ.get("TOOLKIT_NUMBA_CACHE", "1") != "0", nogil=True, fastmath=False, error_model="numpy")
# For one-game kernels that allocate nothing: no reference counting at all.  Numba
# otherwise increments and decrements (atomically) the count of every array handed
# to an inlined helper, inside the hot loop; the caller allocates instead.
njit_no_nrt = numba.njit(cache=os.environ.get("TOOLKIT_NUMBA_CACHE", "1") != "0", nogil=True, fastmath=False,
                         error_model="numpy", _nrt=False)
njit_inline = numba.njit(cache=os.environ.get("TOOLKIT_NUMBA_CACHE", "1") != "0", nogil=True, fastmath=False, error_model="numpy", inline="always")


def njit_parallel(func):
    """Compile ``func`` as a parallel (``prange``) driver."""
    return numba.njit(
        cache=_PARALLEL_CACHE, nogil=True, fastmath=False, error_model="numpy", parallel=True
    )(func)
