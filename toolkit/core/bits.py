"""Bit counting for bitboard kernels: LLVM's ctpop / cttz as Numba intrinsics.

Numba has no public popcount; these map to single machine instructions
(``popcnt``, ``tzcnt``) where the CPU has them.

:func:`nth_set_bit` (the i-th lowest set bit, how a kernel turns a uniform
choice among n options into the option's square) uses BMI2's ``pdep`` where
the CPU that Numba compiles for runs it fast (:data:`FAST_PDEP`), and a
branch-free loop elsewhere; both give the same answer (tests/core/test_bits.py).
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import binding as llvm_binding
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from toolkit.core.jit import njit_inline

# AMD before Zen 3 runs pdep in microcode (tens of cycles): slower than the loop
_SLOW_PDEP_CPUS = ("znver1", "znver2", "bdver", "btver")


def fast_pdep(cpu_name: str, cpu_features: str) -> bool:
    """True if code compiled for this CPU (LLVM name, ``+feature,...`` string) has a fast ``pdep``."""
    return "+bmi2" in cpu_features.split(",") and not cpu_name.startswith(_SLOW_PDEP_CPUS)


def _target_cpu() -> tuple[str, str]:
    """The CPU Numba's JIT compiles for, name and features, chosen as its codegen chooses them."""
    name = numba.config.CPU_NAME or llvm_binding.get_host_cpu_name()
    if numba.config.CPU_FEATURES is not None:
        return name, numba.config.CPU_FEATURES
    try:
        return name, llvm_binding.get_host_cpu_features().flatten()
    except RuntimeError:  # LLVM cannot list this host's features
        return name, ""


#: whether :func:`nth_set_bit` uses ``pdep`` (fixed at import; the Numba cache is keyed by CPU too)
FAST_PDEP = fast_pdep(*_target_cpu())


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@njit_inline
def popcount(x):
    """Number of set bits of an int64."""
    return _ctpop(x)


@njit_inline
def lowest_bit_index(x):
    """Index of the lowest set bit of a non-zero int64 (64 for zero)."""
    return _cttz(x)


@intrinsic
def _pdep(typingctx, x, mask):
    if not (isinstance(x, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64]))
        src = context.cast(builder, args[0], signature.args[0], types.int64)
        msk = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.call(fn, [src, msk])

    return types.int64(x, mask), codegen


@njit_inline
def nth_set_bit_pdep(x, i):
    """:func:`nth_set_bit` with BMI2: deposit bit ``i`` onto the set bits of ``x``. x86 with BMI2 only."""
    return _cttz(_pdep(np.int64(1) << i, x))


@njit_inline
def nth_set_bit_loop(x, i):
    """:func:`nth_set_bit` on any CPU: clear the ``i`` lowest set bits, then take the lowest.

    The first 8 steps are branch-free (``i`` is random, a loop exit on it is
    mispredicted half the time); a larger ``i`` finishes in a plain loop."""
    for j in range(8):
        x = x & (x - 1) if j < i else x
    for _ in range(8, i):
        x &= x - 1
    return _cttz(x)


#: ``nth_set_bit(x, i)``: index of the ``i``-th lowest set bit of an int64 ``x`` (``i = 0``: the
#: lowest; ``x`` must have more than ``i`` bits set).  One of the two above, chosen by :data:`FAST_PDEP`.
nth_set_bit = nth_set_bit_pdep if FAST_PDEP else nth_set_bit_loop
