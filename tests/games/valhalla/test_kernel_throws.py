"""The kernel's guided throw lookup draws exactly the reference's throws (§3, reference ⇔ kernel)."""

import numba
import numpy as np
import pytest

from toolkit.core import rng
from toolkit.games.valhalla import kernel
from toolkit.games.valhalla.reference import Sticks
from toolkit.games.valhalla.rules import Rules


@numba.njit
def _kernel_throws(ip, cdf, tvalue, tnat, seed, n):
    rs = np.empty(1, np.uint64)
    rng.seed_streams(rs, seed, 0)
    out = np.empty((n, 2), np.int64)
    for i in range(n):
        k = kernel.throw_index(ip, rs, cdf)
        out[i, 0] = tvalue[k]
        out[i, 1] = tnat[k]
    return out


@pytest.mark.parametrize("p", [0.5, 0.3, 0.8, 0.01, 0.97, 1 / 3])
@pytest.mark.parametrize("mode", ["runes", "simplified"])
def test_guided_lookup_equals_linear_search(p, mode):
    """The guide table only chooses where the search starts: every throw equals the reference's."""
    rules = Rules(stick_rune_up_probability=p, throw_mode=mode, hagalaz_alone_value=-1 if mode == "runes" else 0)
    ip, cdf, tvalue, tnat, *_ = kernel.to_kernel(rules)
    n = 20_000
    fast = _kernel_throws(ip, cdf, tvalue, tnat, 17, n)
    sticks = Sticks(rules, rng.Stream(17, 0, rng.CHANCE))
    slow = np.array([(t.value, t.natural_one) for t in (sticks.throw() for _ in range(n))], np.int64)
    assert (fast == slow).all()


def test_guide_starts_never_skip_the_answer():
    """guide[j] <= the first k with cdf[k] > u for every u in [j/64, (j+1)/64)."""
    for p in (0.5, 0.2, 0.9):
        ip, cdf, *_ = kernel.to_kernel(Rules(stick_rune_up_probability=p))
        for j in range(64):
            start = ip[kernel.P_GUIDE + j]
            assert all(cdf[k] <= j / 64 for k in range(start))
