"""Bit counting for bitboard kernels: LLVM's ctpop / cttz as Numba intrinsics.

Numba has no public popcount; these map to single machine instructions
(``popcnt``, ``tzcnt``) where the CPU has them."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from toolkit.core.jit import njit_inline


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
