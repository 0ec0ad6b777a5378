"""toolkit.core.bits: the bit intrinsics against plain Python, both nth_set_bit versions alike."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.core import bits
from toolkit.core.jit import njit


PDEP_HERE = bits.FAST_PDEP or "+bmi2" in bits._target_cpu()[1].split(",")


@njit
def _all(xs, out):
    for r in range(xs.shape[0]):
        x = xs[r]
        out[r, 0] = bits.popcount(x)
        out[r, 1] = bits.lowest_bit_index(x)
        for i in range(bits.popcount(x)):
            out[r, 2 + i] = bits.nth_set_bit_loop(x, i)
            out[r, 66 + i] = bits.nth_set_bit_pdep(x, i) if PDEP_HERE else bits.nth_set_bit_loop(x, i)
            out[r, 130 + i] = bits.nth_set_bit(x, i)


def _expected(x: int) -> list[int]:
    return [q for q in range(64) if (x >> q) & 1]


def test_bit_functions_agree_with_python():
    rng = np.random.default_rng(5)
    # sparse and dense words, the sign bit, single bits, and the Valhalla option sets' squares 1..37
    xs = [1, 2, 1 << 62, -1, -(1 << 63), 0b1010_0110, (1 << 38) - 2]
    xs += [int(v) for v in rng.integers(1, 1 << 38, 200)]
    xs += [int(v) for v in rng.integers(-(1 << 63), (1 << 63) - 1, 200, dtype=np.int64)]
    xs += [int(np.bitwise_or.reduce(1 << rng.choice(63, k, replace=False))) for k in range(1, 20)]
    arr = np.array([x for x in xs if x != 0], np.int64)
    out = np.full((arr.shape[0], 194), -1, np.int64)
    _all(arr, out)
    for r, x in enumerate(arr.tolist()):
        u = x & ((1 << 64) - 1)
        want = _expected(u)
        assert out[r, 0] == len(want), hex(u)
        assert out[r, 1] == want[0], hex(u)
        for base in (2, 66, 130):
            assert out[r, base:base + len(want)].tolist() == want, (hex(u), base)


def test_loop_version_past_its_branch_free_steps():
    """i >= 8 takes the loop's second part: a word with 20 bits set, every i."""
    x = int(sum(1 << q for q in range(3, 63, 3)))  # squares 3, 6, ..., 60: 20 bits
    arr = np.array([x], np.int64)
    out = np.full((1, 194), -1, np.int64)
    _all(arr, out)
    assert out[0, 2:22].tolist() == list(range(3, 63, 3))


@pytest.mark.parametrize("name, features, fast", [
    ("znver4", "+sse2,+bmi2,+popcnt", True),
    ("skylake", "+bmi,+bmi2", True),
    ("znver2", "+bmi,+bmi2", False),  # microcoded pdep
    ("znver1", "+bmi2", False),
    ("bdver4", "+bmi2", False),
    ("generic", "", False),
    ("haswell", "+bmi,-bmi2", False),
    ("apple-m1", "+neon,+fp-armv8", False),
])
def test_fast_pdep_decision(name, features, fast):
    assert bits.fast_pdep(name, features) is fast
