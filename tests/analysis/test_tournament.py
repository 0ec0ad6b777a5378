"""Tournaments between policies (``toolkit.analysis.tournament``): every ordered
pair on one seed (common random numbers), and the pooled A-against-B matrix."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.analysis.tournament import compare, matrix
from toolkit.games.valhalla import SPEC

ALL = ["random", "greedy", "lookahead"]


@pytest.fixture(scope="module")
def three_way():
    # lookahead is the slow one: 200 games per ordered pair
    return compare("valhalla", ALL, n_games=200, seed=11, progress=False)


@pytest.fixture(scope="module")
def greedy_random():
    return compare("valhalla", "random,greedy", n_games=2000, seed=0, progress=False)


def test_a_row_for_every_ordered_pair(three_way):
    pairs = list(zip(three_way["seat0_policy"], three_way["seat1_policy"]))
    assert pairs == list(itertools.product(ALL, ALL))
    assert (three_way["games"] == 200).all()
    # Valhalla has no draws or shared wins, and the default cap is never reached
    assert (three_way["wins_0"] + three_way["wins_1"] == three_way["games"]).all()
    assert (three_way["no_winner"] == 0).all()
    for seat in (0, 1):
        assert (three_way[f"ci_low_{seat}"] <= three_way[f"win_rate_{seat}"]).all()
        assert (three_way[f"win_rate_{seat}"] <= three_way[f"ci_high_{seat}"]).all()
    assert (three_way["mean_turns"] > 0).all() and (three_way["se_turns"] > 0).all()


def test_provenance_in_attrs(three_way):
    attrs = three_way.attrs
    assert attrs["game"] == "valhalla"
    assert attrs["preset"] == "standard"
    assert attrs["rules"] == toolkit.rules("valhalla").to_json()
    assert attrs["seed"] == 11
    assert attrs["policies"] == ALL
    assert attrs["n_games"] == 200


def test_same_seed_gives_same_numbers():
    a = compare("valhalla", ["random", "greedy"], n_games=300, seed=5, progress=False, threads=2)
    b = compare("valhalla", ["random", "greedy"], n_games=300, seed=5, progress=False, threads=1)
    pd.testing.assert_frame_equal(a, b)
    c = compare("valhalla", ["random", "greedy"], n_games=300, seed=6, progress=False)
    assert not a[["wins_0", "mean_turns"]].equals(c[["wins_0", "mean_turns"]])


def test_every_pairing_uses_the_one_seed(greedy_random):
    """Each row is exactly what simulate gives for that pairing on the run's seed."""
    for row in greedy_random.itertuples():
        df = toolkit.simulate("valhalla", n_games=2000, seed=0, policies=(row.seat0_policy, row.seat1_policy),
                              progress=False)
        assert row.wins_0 == df["win_0"].sum() and row.wins_1 == df["win_1"].sum()
        assert row.mean_turns == pytest.approx(df["turns"].mean())


def test_greedy_beats_random_in_the_matrix(greedy_random):
    m = matrix(greedy_random)
    # measured at seed 0, 2000 games per pairing: 0.939 [0.931, 0.946]
    assert m["ci_low"].loc["greedy", "random"] > 0.5
    assert m["ci_high"].loc["random", "greedy"] < 0.5
    assert m["games"].loc["greedy", "random"] == 4000


def test_matrix_pools_both_seatings(greedy_random):
    m = matrix(greedy_random)
    pair = greedy_random.set_index(["seat0_policy", "seat1_policy"])
    wins = pair.loc[("greedy", "random"), "wins_0"] + pair.loc[("random", "greedy"), "wins_1"]
    assert m["wins"].loc["greedy", "random"] == wins
    assert m["win_rate"].loc["greedy", "random"] == pytest.approx(wins / 4000)


def test_matrix_is_consistent(three_way):
    """A vs B + B vs A = 1 when every game has one winner; the diagonal is 1/2."""
    m = matrix(three_way)
    rate = m["win_rate"].loc[ALL, ALL].to_numpy()
    np.testing.assert_allclose(rate + rate.T, 1.0)
    np.testing.assert_allclose(np.diag(rate), 0.5)
    np.testing.assert_array_equal(m["wins"].to_numpy() + m["wins"].to_numpy().T, m["games"].to_numpy())
    assert (m["ci_low"].to_numpy() <= rate).all() and (rate <= m["ci_high"].to_numpy()).all()
    assert m.attrs["seed"] == 11


def test_lookahead_beats_greedy(three_way):
    assert matrix(three_way)["win_rate"].loc["lookahead", "greedy"] > 0.5


def test_policy_names_are_checked_and_deduplicated():
    with pytest.raises(ValueError, match="policy='minimax' is not allowed: a player is one of random, greedy, lookahead, or a tree search"):
        compare("valhalla", ["greedy", "minimax"], n_games=10)
    with pytest.raises(ValueError, match="policies="):
        compare("valhalla", [], n_games=10)
    t = compare("valhalla", " greedy, greedy ", n_games=10, progress=False)
    assert t[["seat0_policy", "seat1_policy"]].values.tolist() == [["greedy", "greedy"]]


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="game='chess'"):
        compare("chess", ["greedy"], n_games=10)
    with pytest.raises(ValueError, match="n_games=0"):
        compare("valhalla", ["greedy"], n_games=0)
    with pytest.raises(ValueError, match="preset='nope'"):
        compare("valhalla", ["greedy"], n_games=10, preset="nope")


def test_compare_needs_two_seats():
    # games of three or more seats are compared tested-against-field (test_tournament_multiplayer.py)
    one_seat = dataclasses.replace(SPEC, seats=lambda rules: 1)
    with pytest.raises(ValueError, match="at least 2 seats"):
        compare(one_seat, ["greedy"], n_games=10)


def test_matrix_needs_every_pairing(greedy_random):
    with pytest.raises(ValueError, match="missing the pairing"):
        matrix(greedy_random.iloc[:3])


def test_rules_and_preset_are_used():
    t = compare("valhalla", ["greedy"], n_games=200, seed=2, preset="alternative", progress=False)
    assert t.attrs["preset"] == "alternative"
    rules = toolkit.rules("valhalla", "alternative", extra_throw_enabled=False)
    u = compare("valhalla", ["greedy"], n_games=200, seed=2, rules=rules, progress=False)
    assert u.attrs["rules"]["extra_throw_enabled"] is False
    assert u.attrs["preset"] is None
