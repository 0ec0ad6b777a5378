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
    from toolkit.viz.prose import edge

    assert "**has an advantage**: it wins 53.0% of games" in edge("A", 0.53, 0.501, 0.56)
    assert "**at a disadvantage**: it wins only 47.0%" in edge("A", 0.47, 0.44, 0.499)
    for low, high in ((0.5, 0.56), (0.44, 0.5), (0.45, 0.55)):  # an interval touching the fair share says nothing
        assert edge("A", 0.5, low, high).startswith("no advantage can be seen: A wins 50.0%")
    assert "of the decided games" in edge("A", 0.6, 0.55, 0.65, of="the decided games")
    assert edge("A", 0.3, 0.26, 0.34, fair=0.25).startswith("A **has an advantage**")  # four seats


def test_bonferroni_z_widens_with_the_number_of_intervals():
    assert stats.bonferroni_z(1) == pytest.approx(stats.Z95, abs=1e-12)
    assert stats.bonferroni_z(2) == pytest.approx(2.241403, abs=1e-6)  # the 98.75% quantile
    with pytest.raises(ValueError, match="m=0 is not allowed"):
        stats.bonferroni_z(0)


@pytest.mark.parametrize("module", [prose, stats])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
