"""Statistical tests with fixed seeds (deterministic): policies and the §5 random policy.

- ``greedy`` and ``lookahead`` beat ``random`` with 95% confidence, in both
  seat orders (Wilson interval of the win rate above 1/2);
- under ``random`` the bids are uniform over 0..hand_size (§5 DP-1), the first
  dealer is uniform (R-1.1), and the share of rounds without trump matches the
  exact odds (``odds.p_no_trump``).
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.core import stats
from toolkit.games.herrlof import odds, round_log
from toolkit.games.herrlof.rules import Rules


def win_rate_interval(policies, n_games, seed, seat):
    df = toolkit.simulate("herrlof", Rules(), n_games, seed=seed, policies=policies, progress=False)
    wins = int((df["winner"] == seat).sum())
    return stats.wilson(wins, n_games)


@pytest.mark.parametrize("seat", [0, 1])
def test_greedy_beats_random(seat):
    policies = ["random", "random"]
    policies[seat] = "greedy"
    rate, low, high = win_rate_interval(policies, 4_000, seed=101, seat=seat)
    assert low > 0.5, f"greedy in seat {seat}: {rate:.3f} [{low:.3f}, {high:.3f}]"


@pytest.mark.parametrize("seat", [0, 1])
def test_lookahead_beats_random(seat):
    policies = ["random", "random"]
    policies[seat] = "lookahead:8"
    rate, low, high = win_rate_interval(policies, 200, seed=102, seat=seat)
    assert low > 0.5, f"lookahead in seat {seat}: {rate:.3f} [{low:.3f}, {high:.3f}]"


def test_random_bids_are_uniform():
    """§5 DP-1: each of the 16 bids has probability 1/16 (chi-square, 15 degrees of freedom)."""
    log = round_log(Rules(), n_games=5_000, seed=103)
    counts = np.bincount(log["bid"], minlength=16)
    assert counts.size == 16
    expected = counts.sum() / 16
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 37.7, counts  # the 0.999 quantile of chi-square with 15 degrees of freedom


def test_first_dealer_is_uniform():
    df = toolkit.simulate("herrlof", Rules(), 20_000, seed=104, progress=False)
    share = df["first_dealer"].mean()
    assert abs(share - 0.5) < 4.5 * np.sqrt(0.25 / 20_000)


@pytest.mark.parametrize("means", ["no_trump", "redraw"])
def test_rounds_without_trump_match_the_exact_odds(means):
    rules = Rules(special_indicator_means=means)
    df = toolkit.simulate("herrlof", rules, 20_000, seed=105, progress=False)
    rounds = df["rounds"].sum()
    p = float(odds.p_no_trump(rules))
    observed = df["no_trump_rounds"].sum() / rounds
    assert abs(observed - p) <= 4.5 * np.sqrt(max(p * (1 - p), 1e-12) / rounds)
    if means == "no_trump":
        assert abs(observed - 1 / 7) < 0.01  # the spec's default: 6 specials in 42 cards


def test_greedy_meets_its_bid_more_often_than_random():
    log = round_log(Rules(), n_games=3_000, seed=106, policies=("greedy", "random"))
    hit = (log["bid"] == log["tricks"]).groupby(log["policy"]).mean()
    assert hit["greedy"] > 2 * hit["random"], hit
