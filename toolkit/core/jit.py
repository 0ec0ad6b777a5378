"""The Numba options, in one place, with the reason for each.

Importing this module first points Numba's cache at a directory named by a digest of the package's
sources (:mod:`toolkit.core.cache`), before any kernel is decorated: a compiled kernel never outlives
a helper it inlines from another module.

``njit``
    For every game kernel and helper that runs one game or one step.

    - ``cache=True``: compile time is a user-facing cost, so compiled machine code is written to the
      cache directory and reused by later processes, tests and notebooks (``TOOLKIT_NUMBA_CACHE=0``
      turns it off).
    - ``nogil=True``: costs nothing and lets a caller run kernels from Python threads.
    - ``fastmath=False`` (the default, stated here on purpose): the kernel must agree bit for bit with
      the pure-Python reference, including the float sums of the expectimax policy, so no
      reassociation is allowed.
    - ``error_model="numpy"``: no Python-style ZeroDivisionError checks in the hot loop; kernels never
      divide by a value that can be zero.
    - ``forceinline=False``, said on purpose: Numba hands a caller's ``forceinline`` down to the callees
      it compiles for it unless they set their own, and a large helper forced into every caller is the
      compile cost :data:`njit_inline` avoids.

``njit_no_nrt``
    For one-game kernels that allocate nothing: no reference counting at all.  Numba otherwise
    increments and decrements (atomically) the count of every array handed to a helper, inside the hot
    loop; the caller allocates instead.

``njit_inline``
    For the small helpers of the per-decision path.  ``forceinline=True`` marks the compiled function
    ``alwaysinline`` for LLVM, which inlines it into every caller when the caller's module is
    optimised.  Until issue 35 these were Numba's ``inline="always"``, which copies the function's
    Numba IR into each caller and types it again there: the same machine code, but Numba's inlining pass
    alone took 29 of Valhalla's 49 s of cold compile (``benchmarks/compile.py``).  With LLVM's inlining
    the first result came in 15.6 s, and the fast path ran as fast (the closing note of issue 35 has the
    table).  No reference counting (``_nrt=False``): the helpers allocate nothing, and an inlined
    count update per array argument is what ``njit_no_nrt`` exists to avoid.

``njit_parallel``
    For the ``play_many`` drivers that loop over games with ``numba.prange``.  ``cache=True`` with
    ``parallel=True`` has had crashes in old Numba releases (pitfall in docs/style.md); with numba>=0.59
    and the default threading layer the cached parallel driver passes the thread-count tests
    (``tests/core/test_runner.py``) and cuts the warm first result from about 4 s to under 1 s
    (``make bench``), so it is cached too.  Set ``TOOLKIT_PARALLEL_CACHE=0`` to turn that cache off if a
    platform misbehaves.
"""

from __future__ import annotations

import os

import numba

from toolkit.core import cache

CACHE_DIR = cache.configure()  # before any function below is decorated
_CACHE = os.environ.get("TOOLKIT_NUMBA_CACHE", "1") != "0"
_PARALLEL_CACHE = os.environ.get("TOOLKIT_PARALLEL_CACHE", "1") != "0"
_COMMON = {"nogil": True, "fastmath": False, "error_model": "numpy"}

njit = numba.njit(cache=_CACHE, forceinline=False, **_COMMON)
njit_no_nrt = numba.njit(cache=_CACHE, forceinline=False, _nrt=False, **_COMMON)
njit_inline = numba.njit(cache=_CACHE, forceinline=True, _nrt=False, **_COMMON)


def njit_parallel(func):
    """Compile ``func`` as a parallel (``prange``) driver."""
    return numba.njit(cache=_PARALLEL_CACHE, parallel=True, forceinline=False, **_COMMON)(func)
