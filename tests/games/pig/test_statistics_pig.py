"""Pig §7.7 (spec ``docs/rules/pig.md``) and the exact odds of ``odds.py`` against simulated frequencies.

Every run has a fixed seed, so each test is deterministic; each bound is a two-sided 99.9% normal interval
around the exact value (binomial for a rate, the run's own spread for a mean): a correct implementation
fails a given check for about one seed in a thousand, and then on every run, never intermittently.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import toolkit
from toolkit.core.policy import players
from toolkit.core.rng import CHANCE, Stream
from toolkit.games.pig import odds
from toolkit.games.pig.reference import Game, play_game
from toolkit.games.pig.rules import Rules

Z999 = 3.2905  # two-sided 99.9% of the normal law


def assert_rate(successes: int, n: int, p: float, what: str) -> None:
    half = Z999 * math.sqrt(p * (1 - p) / n)
    rate = successes / n
    assert abs(rate - p) <= half, f"{what}: {rate:.5f} vs exact {p:.5f} (99.9% half-width {half:.5f}, n={n})"


def assert_mean(values, exact: float, what: str) -> None:
    values = np.asarray(values, np.float64)
    half = Z999 * values.std(ddof=1) / math.sqrt(len(values))
    assert abs(values.mean() - exact) <= half, f"{what}: {values.mean():.4f} vs exact {exact:.4f} (± {half:.4f})"


@pytest.mark.parametrize("sides,policies,n", [(6, "random", 20_000), (6, "greedy", 20_000), (2, "random", 10_000),
                                              (10, "random", 20_000)])
def test_a_roll_busts_with_probability_one_over_die_sides(sides, policies, n):
    df = toolkit.simulate("pig", rules=Rules(die_sides=sides), n_games=n, seed=71, policies=policies,
                          progress=False)
    rolls = int(df["rolls_0"].sum() + df["rolls_1"].sum())
    busts = int(df["busts_0"].sum() + df["busts_1"].sum())
    assert rolls > 300_000
    assert_rate(busts, rolls, 1 / sides, f"busts per roll, d{sides}, {policies}")


def test_reference_rolls_bust_with_probability_one_sixth():
    games = [play_game(Rules(), 72, g) for g in range(150)]
    rolls = sum(sum(g.counts["rolls"]) for g in games)
    busts = sum(sum(g.counts["busts"]) for g in games)
    assert_rate(busts, rolls, 1 / 6, "reference busts per roll")


def test_each_seat_starts_half_the_games():
    n = 100_000
    df = toolkit.simulate("pig", n_games=n, seed=73, policies="random", progress=False)
    assert_rate(int((df["start_seat"] == 0).sum()), n, 0.5, "seat 0 starts")
    assert set(df["start_seat"]) == {0, 1}


@pytest.mark.parametrize("rules", [Rules(), Rules(die_sides=2, target=30, second_player_bonus=5),
                                   Rules.preset("quick", die_sides=10)], ids=["standard", "d2-bonus", "quick-d10"])
def test_random_turns_bank_the_exact_mean(rules):
    """Points banked per turn under ``random`` seats: the run's ratio sum(banked) / sum(turns), with a
    delta-method interval over games (each game one cluster of turns), against ``odds.random_turn_points``."""
    n = 30_000
    df = toolkit.simulate("pig", rules=rules, n_games=n, seed=74, policies="random", progress=False)
    banked = (df["score_0"] + df["score_1"] - rules.second_player_bonus).to_numpy(np.float64)
    turns = df["turns"].to_numpy(np.float64)
    ratio = banked.sum() / turns.sum()
    se = math.sqrt(((banked - ratio * turns) ** 2).sum() / (n * (n - 1))) / turns.mean()
    exact = float(odds.random_turn_points(rules))
    assert abs(ratio - exact) <= Z999 * se, f"{ratio:.4f} vs exact {exact:.4f} (± {Z999 * se:.4f})"


def hold_at_20_turns(rules, n_turns: int, seed: int) -> list:
    """The points of ``n_turns`` reference turns played by ``greedy`` (hold at 20) from a banked score of 0,
    far from the target: the scores are put back to 0 after every hold."""
    game = Game(rules, players("pig", ("greedy", "greedy"), rules, seed, 0), Stream(seed, 0, CHANCE))
    game.turns = 1
    points = []
    while len(points) < n_turns:
        busts = sum(game.counts["busts"])
        decision = game.advance()
        points += [0] * (sum(game.counts["busts"]) - busts)
        option = game.choose(decision)
        game.apply(decision, option)
        if option == "hold":
            points.append(game.score[decision.seat])
            game.score = [0, 0]
    return points[:n_turns]


@pytest.mark.parametrize("sides,n", [(6, 50_000), (10, 30_000)])
def test_hold_at_20_turns_match_the_exact_law(sides, n):
    rules = Rules(die_sides=sides, target=1000)
    points = hold_at_20_turns(rules, n, seed=75)
    law = odds.hold_at_turn(rules, 20)  # P1's rule of thumb, which ``greedy`` plays
    assert_rate(points.count(0), n, float(law[0]), f"P(a hold-at-20 turn scores nothing), d{sides}")
    assert_mean(points, float(sum(k * p for k, p in law.items())), f"points per hold-at-20 turn, d{sides}")
    assert set(points) <= set(law)
