"""The parallel driver every game's kernel is run by, written once.

:func:`make_play_many` turns a game's one-game kernel into its ``play_many``
(``GameSpec.play_many``, called by ``toolkit.core.runner``)::

    play_many(params, policies, seed, first_game, out, violations, check)

plays games ``first_game .. first_game + len(out) - 1`` into the rows of ``out``
and each game's invariant code into ``violations`` (0: every invariant held;
only looked for with ``check``).  ``params`` is whatever the game's
``to_kernel(rules)`` returns (one array, or a tuple of arrays) and ``policies``
its ``policy_ids``; the driver hands both through untouched.

The games are cut into up to :data:`BLOCKS` blocks, spread over the threads by
``numba.prange`` (balance on any thread count), and each block allocates its
work arrays once: allocating them per game cost 10% of the two-thread speed
(the runtime's allocation counters are shared atomics).  A game depends only on
``(seed, game index)``, so neither the blocks nor the threads change any
result.

The one-game kernel is called as::

    play_game(params, policies, seed, game, row, check, rs, work)            # extra_shape None
    play_game(params, policies, seed, game, row, check, rs, work, extra)     # extra_shape given

with ``rs`` (``rs_size`` uint64: the random streams' states) and ``work``
(``work_size`` int64, zeroed once per block) its scratch, and ``extra`` an int64
array of ``extra_shape`` (zeroed once per block) for a game whose kernel can
also write a log (Herrlof's rounds, Halali's captures): an empty shape turns
the log off, as ``play_many`` does.
"""

from __future__ import annotations

import sys
import types

import numpy as np
from numba import prange

from toolkit.core.jit import njit_parallel

BLOCKS = 256  # at most this many blocks of games per call
# the names the templates below take from the scope make_play_many gives each copy
play_game = RS_SIZE = WORK_SIZE = EXTRA_0 = EXTRA_1 = None


def _play_many(params, policies, seed, first_game, out, violations, check):
    n = out.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        rs = np.empty(RS_SIZE, np.uint64)
        work = np.zeros(WORK_SIZE, np.int64)
        for i in range(b * n // blocks, (b + 1) * n // blocks):
            violations[i] = play_game(params, policies, seed, first_game + i, out[i], check, rs, work)


def _play_many_extra1(params, policies, seed, first_game, out, violations, check):
    n = out.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        rs = np.empty(RS_SIZE, np.uint64)
        work = np.zeros(WORK_SIZE, np.int64)
        extra = np.zeros(EXTRA_0, np.int64)
        for i in range(b * n // blocks, (b + 1) * n // blocks):
            violations[i] = play_game(params, policies, seed, first_game + i, out[i], check, rs, work, extra)


def _play_many_extra2(params, policies, seed, first_game, out, violations, check):
    n = out.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        rs = np.empty(RS_SIZE, np.uint64)
        work = np.zeros(WORK_SIZE, np.int64)
        extra = np.zeros((EXTRA_0, EXTRA_1), np.int64)  # the shape written out: a tuple global fails in a prange
        for i in range(b * n // blocks, (b + 1) * n // blocks):
            violations[i] = play_game(params, policies, seed, first_game + i, out[i], check, rs, work, extra)


def make_play_many(play_game, rs_size: int, work_size: int, extra_shape: tuple | None = None):
    """The parallel ``play_many`` driver of the one-game kernel ``play_game`` (module docstring).

    Call it at the top level of the game's kernel module (``play_many = make_play_many(...)``).
    The driver is a copy of this module's template whose globals name the game's ``play_game`` and
    sizes, and whose code object says it stands in the kernel's file at the calling line.  Numba's
    cache (``NUMBA_CACHE_DIR``) then keys it like a function written there: it is stored beside the
    kernel, and a change to the kernel's file (its content hash) recompiles it.  A closure would do
    neither: Numba hashes a closure's cells into the cache key, and a compiled function pickles with
    an id new in every process, so the driver would be compiled again in every process.
    """
    caller = sys._getframe(1)
    if extra_shape is not None and len(extra_shape) not in (1, 2):
        raise ValueError(f"extra_shape={extra_shape!r} is not allowed: one or two dimensions")
    template = {None: _play_many, 1: _play_many_extra1, 2: _play_many_extra2}[
        None if extra_shape is None else len(extra_shape)]
    code = template.__code__.replace(co_filename=caller.f_code.co_filename, co_firstlineno=caller.f_lineno,
                                     co_name="play_many", co_qualname="play_many")
    scope = {"np": np, "prange": prange, "BLOCKS": BLOCKS, "play_game": play_game, "RS_SIZE": rs_size,
             "WORK_SIZE": work_size, "EXTRA_0": (extra_shape or (0,))[0], "EXTRA_1": (extra_shape or (0, 0))[-1]}
    driver = types.FunctionType(code, scope, "play_many")
    driver.__module__ = caller.f_globals.get("__name__", __name__)
    driver.__doc__ = (f"Games ``first_game .. first_game + len(out) - 1`` of the one-game kernel "
                      f"``{play_game.__name__}`` into ``out`` (``toolkit.core.driver``).")
    return njit_parallel(driver)
