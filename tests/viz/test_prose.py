"""toolkit.viz.prose and stats.bonferroni_z: the notebooks' generated sentences rest on these."""

from __future__ import annotations

import doctest

import pytest

from toolkit.core import stats
from toolkit.viz import prose


def test_pct_with_and_without_interval():
    assert prose.pct(0.5) == "50.0%"
    assert prose.pct(0.00040, 0.00029, 0.00054, digits=3) == "0.040% (0.029% to 0.054%)"


def test_caution_names_the_family_error_rate():
    assert "about 5% of runs" in prose.caution(1)
    assert "about 64% of runs" in prose.caution(20)  # 1 - 0.95**20 = 0.6415


def test_edge_says_only_what_the_interval_supports():
    from toolkit.core.stats import bonferroni_z, wilson
    from toolkit.viz.prose import edge

    assert edge("A", 5_300, 10_000).startswith("A **has an advantage**: it wins 53.0% of games")
    assert edge("A", 4_700, 10_000).startswith("A is **at a disadvantage**: it wins only 47.0%")
    # 2,070 wins of 4,000 (51.75%) clear 50% alone, not with 4 intervals read at once
    assert wilson(2_070, 4_000)[1] > 0.5 > wilson(2_070, 4_000, z=bonferroni_z(4))[1]
    assert "**has an advantage**" in edge("A", 2_070, 4_000)
    joint = edge("A", 2_070, 4_000, comparisons=4)
    assert joint.startswith("not enough games to tell whether A has an edge") and "corrected for 4 read" in joint
    # how many games would tell: the interval's half-width over the gap, squared, times the games
    rate, low, high = wilson(2_070, 4_000, z=bonferroni_z(4))
    needed = 4_000 * (max(high - rate, rate - low) / (rate - 0.5)) ** 2
    assert f"about {round(needed, -2):,.0f} games would tell" in joint, (joint, needed)
    assert "no edge larger than" in edge("A", 500_100, 1_000_000)  # known to within a point: said so
    assert "more games would tell only if" in edge("A", 500, 1_000)  # the rate seen is the fair share
    assert "of the decided games" in edge("A", 600, 1_000, of="the decided games")
    assert edge("A", 300, 1_000, fair=0.25).startswith("A **has an advantage**")  # four seats


def test_bonferroni_z_widens_with_the_number_of_intervals():
    assert stats.bonferroni_z(1) == pytest.approx(stats.Z95, abs=1e-12)
    assert stats.bonferroni_z(2) == pytest.approx(2.241403, abs=1e-6)  # the 98.75% quantile
    with pytest.raises(ValueError, match="m=0 is not allowed"):
        stats.bonferroni_z(0)


@pytest.mark.parametrize("module", [prose, stats])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
