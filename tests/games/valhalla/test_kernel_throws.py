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
            start = ip[kernel.P_GUIDE + j] & 15
            assert all(cdf[k] <= j / 64 for k in range(start))


def _linear(cdf, u):
    k = 0
    while k < 15 and u >= cdf[k]:
        k += 1
    return k


# 0.3161088000663098: a cumulative probability lies within 2**-53 below a bin edge (0.21875 - 3 * 2**-55), so
# the bin is certain although cdf < (j+1)/64 (found by the review of the first version, which missed it)
@pytest.mark.parametrize("p", [0.5, 0.2, 0.9, 1 / 3, 0.01, 0.3161088000663098])
def test_guide_marks_a_bin_certain_only_when_every_draw_in_it_gives_its_start(p):
    """A bin flagged GUIDE_CERTAIN skips the comparison: its lowest and highest draw give ``start``."""
    ip, cdf, *_ = kernel.to_kernel(Rules(stick_rune_up_probability=p))
    certain = 0
    for j in range(64):
        g = ip[kernel.P_GUIDE + j]
        start = g & 15
        lowest, highest = j / 64, (j + 1) / 64 - 2.0 ** -53  # u = m * 2**-53, m < 2**53
        flagged = g >= kernel.GUIDE_CERTAIN
        whole_bin = _linear(cdf, lowest) == start == _linear(cdf, highest)
        assert flagged == whole_bin, (p, j)  # neither a wrong flag nor a missed one
        certain += flagged
    if p == 0.5:  # 16 outcomes of 1/16: every bin lies inside one outcome, no throw compares floats
        assert certain == 64
    else:
        assert 0 < certain < 64
