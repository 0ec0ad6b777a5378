"""Ratings from tournaments: a known Elo answer, and the right order on fixed-seed tournaments."""

import math

import pandas as pd
import pytest

from toolkit.analysis.ratings import elo, openskill_ratings, ratings
from toolkit.analysis.tournament import compare


def _pair_table(rows):
    return pd.DataFrame(rows, columns=["seat0_policy", "seat1_policy", "games", "wins_0", "wins_1"])


def test_elo_of_two_policies_has_the_closed_form_answer():
    # A beats B 30 + 25 times out of 80 games over both seatings, 5 games nobody won; with one virtual draw
    # the MLE solves P(A beats B) = (55 + 2.5 + 0.5) / 81
    table = _pair_table([("A", "B", 40, 30, 8), ("B", "A", 40, 12, 25)])
    r = elo(table)
    p = (30 + 25 + 2.5 + 0.5) / 81
    assert r.loc["A", "elo"] - r.loc["B", "elo"] == pytest.approx(400 * math.log10(p / (1 - p)), abs=1e-6)
    assert r.loc["A", "elo"] + r.loc["B", "elo"] == pytest.approx(3000)
    assert r.loc["A", "score"] == pytest.approx(57.5 / 80)
    assert r.index.tolist() == ["A", "B"]
    assert (r["ci_low"] < r["elo"]).all() and (r["elo"] < r["ci_high"]).all()


def test_elo_is_finite_when_one_policy_wins_everything():
    r = elo(_pair_table([("A", "B", 50, 50, 0), ("B", "A", 50, 0, 50)]))
    assert math.isfinite(r.loc["A", "elo"]) and r.loc["A", "elo"] > r.loc["B", "elo"] + 500


def test_more_games_narrow_the_interval():
    few = elo(_pair_table([("A", "B", 40, 24, 16), ("B", "A", 40, 16, 24)]))
    many = elo(_pair_table([("A", "B", 4000, 2400, 1600), ("B", "A", 4000, 1600, 2400)]))
    assert many.loc["A", "se"] < few.loc["A", "se"] / 5


def test_valhalla_tournament_orders_lookahead_greedy_random():
    table = compare("valhalla", "random,greedy,lookahead", n_games=600, seed=11, progress=False)
    r = ratings(table)
    assert r.attrs["rating"] == "elo"
    assert r.index.tolist() == ["lookahead", "greedy", "random"]
    # the ordering is clear: the intervals do not overlap
    assert r.loc["lookahead", "ci_low"] > r.loc["greedy", "ci_high"]
    assert r.loc["greedy", "ci_low"] > r.loc["random", "ci_high"]


def test_attila_three_player_tournament_orders_greedy_above_random():
    table = compare("attila", "random,greedy", n_games=150, seed=11, rules={"num_players": 3}, progress=False)
    r = ratings(table)
    assert r.attrs["rating"] == "openskill"
    assert r.index.tolist() == ["greedy", "random"]
    assert r.loc["greedy", "ci_low"] > r.loc["random", "ci_high"]
    assert (r["sigma"] < 8.34).all()  # the games taught it something (the prior sigma is 25/3)
    # the same table gives the same ratings (the feeding order comes from the table's seed)
    pd.testing.assert_frame_equal(r, openskill_ratings(table))


def test_walhalla_four_player_tournament_orders_greedy_above_random():
    table = compare("walhalla", "random,greedy", n_games=100, seed=5, progress=False)
    r = ratings(table)
    assert r.index.tolist() == ["greedy", "random"]
    assert r.loc["greedy", "mu"] > r.loc["random", "mu"]


def test_wrong_table_is_refused():
    with pytest.raises(ValueError, match="two-seat table"):
        elo(pd.DataFrame({"tested_policy": ["a"]}))
    with pytest.raises(ValueError, match="three or more seats"):
        openskill_ratings(_pair_table([("A", "B", 1, 1, 0)]))
