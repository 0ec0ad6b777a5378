"""Tournaments of a game with three or more seats (``toolkit.analysis.tournament``):
the tested policy sits in each seat in turn against a field of another policy, every
seating on the one seed (common random numbers).  Attila with 3..5 players."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.analysis.tournament import compare, matrix, outcome_counts

NAMES = ["random", "greedy"]


@pytest.fixture(scope="module")
def three_players():
    return compare("attila", NAMES, n_games=300, seed=21, rules={"num_players": 3}, progress=False)


@pytest.fixture(scope="module")
def four_players():
    return compare("attila", NAMES, n_games=200, seed=22, rules={"num_players": 4}, progress=False)


def test_a_row_for_every_ordered_pair_with_a_column_group_per_seat(three_players):
    t = three_players
    assert list(zip(t["tested_policy"], t["field_policy"])) == list(itertools.product(NAMES, NAMES))
    per_seat = [f"{stat}_{s}" for s in range(3) for stat in ("wins", "win_rate", "ci_low", "ci_high")]
    assert t.columns.tolist() == ["tested_policy", "field_policy", "seats", "games", *per_seat, "wins", "win_rate",
                                  "ci_low", "ci_high", "no_winner", "shared_wins", "mean_turns", "se_turns"]
    assert (t["seats"] == 3).all() and (t["games"] == 300).all()
    tiny = 1e-12  # stats.wilson's lower end for 0 wins is 0 only up to rounding (8.7e-19)
    for s in range(3):
        assert (t[f"ci_low_{s}"] <= t[f"win_rate_{s}"] + tiny).all()
        assert (t[f"win_rate_{s}"] <= t[f"ci_high_{s}"] + tiny).all()
    assert (t["ci_low"] <= t["win_rate"] + tiny).all() and (t["win_rate"] <= t["ci_high"] + tiny).all()
    assert (t["mean_turns"] > 0).all() and (t["se_turns"] > 0).all()


def test_the_pooled_rate_is_the_mean_over_the_seats(three_players, four_players):
    for t, seats in ((three_players, 3), (four_players, 4)):
        assert (t["wins"] == sum(t[f"wins_{s}"] for s in range(seats))).all()
        per_seat = np.mean([t[f"win_rate_{s}"] for s in range(seats)], axis=0)
        np.testing.assert_allclose(t["win_rate"], per_seat)
        np.testing.assert_allclose(t["win_rate"], t["wins"] / (seats * t["games"]))


def test_the_tested_policy_sits_in_each_seat_in_turn(three_players):
    """Seat s's numbers are exactly simulate's with the tested policy in seat s and the field
    in the others, on the run's seed."""
    for row in three_players.itertuples():
        turns = []
        for s in range(3):
            lineup = [row.field_policy] * 3
            lineup[s] = row.tested_policy
            df = toolkit.simulate("attila", {"num_players": 3}, 300, seed=21, policies=lineup, progress=False)
            assert getattr(row, f"wins_{s}") == df[f"win_{s}"].sum(), (row.tested_policy, row.field_policy, s)
            turns.append(df["turns"])
        assert row.mean_turns == pytest.approx(pd.concat(turns).mean())


def test_counts_of_games_without_a_single_winner(three_players):
    # with the tested policy equal to the field every seating is one run of a symmetric lineup:
    # every game is won by one seat, shared by several (each counts a win) or won by nobody
    for row in three_players[three_players["tested_policy"] == three_players["field_policy"]].itertuples():
        df = toolkit.simulate("attila", {"num_players": 3}, 300, seed=21, policies=row.tested_policy, progress=False)
        nobody, shared = outcome_counts(df)
        assert row.no_winner == 3 * nobody and row.shared_wins == 3 * shared
        assert df["n_winners"].sum() == sum(getattr(row, f"wins_{s}") for s in range(3))
    assert three_players["shared_wins"].sum() > 0  # ties at the top happen


def test_outcome_counts_of_a_summary_equal_those_of_the_frame():
    df = toolkit.simulate("attila", n_games=2000, seed=5, progress=False)
    summary = toolkit.simulate("attila", n_games=2000, seed=5, keep="summary", progress=False)
    assert "n_winners" in summary.histograms
    assert outcome_counts(summary) == outcome_counts(df)
    assert outcome_counts(df)[1] == (df["n_winners"] >= 2).sum() > 0


@pytest.mark.parametrize("table_name, seats", [("three_players", 3), ("four_players", 4)])
def test_greedy_beats_random(request, table_name, seats):
    t = request.getfixturevalue(table_name).set_index(["tested_policy", "field_policy"])
    fair = 1 / seats
    # measured: greedy against a field of random wins every game in every seat; random against
    # a field of greedy wins none (seed 21, 300 games per seating; seed 22, 200 games)
    assert t.loc[("greedy", "random"), "ci_low"] > fair
    assert all(t.loc[("greedy", "random"), f"ci_low_{s}"] > fair for s in range(seats))
    assert t.loc[("random", "greedy"), "ci_high"] < fair
    m = matrix(request.getfixturevalue(table_name))
    assert m["win_rate"].loc["greedy", "random"] > m["win_rate"].loc["random", "random"]


def test_matrix_pools_every_seating(four_players):
    m = matrix(four_players)
    row = four_players.set_index(["tested_policy", "field_policy"]).loc[("greedy", "random")]
    assert m["wins"].loc["greedy", "random"] == row["wins"]
    assert m["games"].loc["greedy", "random"] == 4 * 200
    assert m["win_rate"].loc["greedy", "random"] == pytest.approx(row["win_rate"])
    # the diagonal: one policy in every seat, so about a fair share (a shared win counts for each seat)
    for name in NAMES:
        assert abs(m["win_rate"].loc[name, name] - 0.25) < 0.08
    assert m.attrs["seed"] == 22 and m.attrs["rules"]["num_players"] == 4


def test_same_seed_gives_same_table():
    a = compare("attila", NAMES, n_games=150, seed=8, rules={"num_players": 3}, progress=False, threads=2)
    b = compare("attila", NAMES, n_games=150, seed=8, rules={"num_players": 3}, progress=False, threads=1)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs == b.attrs and a.attrs["policies"] == NAMES and a.attrs["n_games"] == 150
    c = compare("attila", NAMES, n_games=150, seed=9, rules={"num_players": 3}, progress=False)
    assert not a[["wins_0", "mean_turns"]].equals(c[["wins_0", "mean_turns"]])


def test_five_players_and_one_policy():
    t = compare("attila", "random", n_games=100, seed=3, rules={"num_players": 5}, progress=False)
    assert len(t) == 1 and t.loc[0, "seats"] == 5 and [f"wins_{s}" in t for s in range(5)] == [True] * 5
    assert "wins_5" not in t


def test_two_players_keep_the_pair_table():
    t = compare("attila", NAMES, n_games=100, seed=3, rules={"num_players": 2}, progress=False)
    assert list(zip(t["seat0_policy"], t["seat1_policy"])) == list(itertools.product(NAMES, NAMES))
    assert "tested_policy" not in t and "wins_2" not in t
    # seats can share a win in Attila: counted apart from the games nobody won
    assert (t["wins_0"] + t["wins_1"] == t["games"] - t["no_winner"] + t["shared_wins"]).all()
