"""Paired comparison on common seeds (core stats, issue 2)."""

import pytest

import toolkit
from toolkit.games.valhalla.rules import Rules


def test_identical_variants_differ_by_exactly_zero():
    d = toolkit.paired("valhalla", 500, seed=4, column="turns", progress=False)
    assert d["difference"] == 0 and d["se"] == 0 and d["games"] == 500


def test_common_seeds_make_the_paired_error_smaller_than_unpaired():
    # a run length of 3 rarely matters, so most paired games play out identically:
    # the paired standard error of the length difference is a fraction of the unpaired one
    d = toolkit.paired("valhalla", 3000, seed=4, rules_b=Rules(protected_run_lengths={2, 3, 4, 6}),
                       column="turns", progress=False)
    assert d["se"] < 0.5 * d["se_unpaired"]


def test_policy_lineups_greedy_beats_random_seat0():
    d = toolkit.paired("valhalla", 2000, seed=5, policies_a="greedy,random", policies_b="random,random",
                       column="win_0", progress=False)
    assert d["ci_low"] > 0.3  # greedy in seat 0 wins far more often than random did on the same throws
    assert d["a_only"] > d["b_only"]


def test_unknown_column_is_refused():
    with pytest.raises(ValueError, match="column='nope'"):
        toolkit.paired("valhalla", 10, column="nope", progress=False)
