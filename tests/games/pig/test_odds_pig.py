"""Pig's exact odds (``toolkit/games/pig/odds.py``) from first principles (spec ``docs/rules/pig.md`` §3, §5).

A ``random`` turn (§5: hold with chance 1/2 at every DP-1) banks ``k`` non-bust rolls and then holds with
chance ``r**k``, ``r = (s - 1) / 2s`` on an ``s``-sided die (each roll survives with ``(s - 1)/s``, each DP
rolls again with 1/2), and then banks ``k`` times the mean non-bust face ``(s + 2) / 2``; so the mean is
``(s + 2)/2 * r / (1 - r)**2``.  Independently, a brute force enumerates the turns' totals DP by DP in exact
integers, with a proven bound on what the truncation leaves out.  The hold-at-``h`` law is recomputed by a
backward recursion on the turn total.
"""

from __future__ import annotations

from fractions import Fraction as F

import pandas as pd
import pytest

from toolkit.games.pig import odds
from toolkit.games.pig.policies import HOLD_AT
from toolkit.games.pig.rules import Rules

SIDES = (2, 3, 4, 6, 10, 20)


def closed_form(s: int) -> F:
    r = F(s - 1, 2 * s)
    return F(s + 2, 2) * r / (1 - r) ** 2


def brute_force(s: int, depth: int) -> tuple[F, F]:
    """The mean a ``random`` turn banks, counting only the turns that hold within ``depth`` DPs, and a bound
    on the rest: from a DP at total ``t`` a turn banks at most ``t + s * r / (1 - r)`` on average (at most
    ``s`` a further roll, ``r / (1 - r)`` further non-bust rolls expected)."""
    counts = {face: 1 for face in range(2, s + 1)}  # totals at the first DP, out of den = s
    den, mean = s, F(0)
    for _ in range(depth):
        mean += F(sum(c * t for t, c in counts.items()), 2 * den)  # hold here with 1/2
        nxt: dict[int, int] = {}
        for t, c in counts.items():  # roll again (1/2), and survive with a face 2..s (1/s each)
            for face in range(2, s + 1):
                nxt[t + face] = nxt.get(t + face, 0) + c
        counts, den = nxt, den * 2 * s
    r = F(s - 1, 2 * s)
    rest = F(sum(c * t for t, c in counts.items()), den) + F(sum(counts.values()), den) * s * r / (1 - r)
    return mean, rest


def hold_at_law(s: int, hold_at: int) -> dict[int, F]:
    """The points of a turn that rolls until its total reaches ``hold_at``, backwards over the total."""
    laws: dict[int, dict[int, F]] = {}
    for total in range(hold_at + s, -1, -1):
        if total >= hold_at:
            laws[total] = {total: F(1)}
            continue
        law = {0: F(1, s)}  # the roll from here busts
        for face in range(2, s + 1):
            for points, p in laws[total + face].items():
                law[points] = law.get(points, F(0)) + p / s
        laws[total] = law
    return laws[0]


def test_d2_every_non_bust_face_is_2():
    """On two sides every roll that survives is a 2: a random turn banks 2k with chance (1/2 * 1/2)^k (survive,
    then hold or roll on), sum 2k x^k = 2x / (1 - x)^2 = 8/9 at x = 1/4; hold at 20 needs ten 2s in a row."""
    x = F(1, 4)
    assert odds.random_turn_points(Rules(die_sides=2)) == 2 * x / (1 - x) ** 2 == F(8, 9)
    assert odds.hold_at_turn(Rules(die_sides=2)) == {0: 1 - F(1, 2 ** 10), 20: F(1, 2 ** 10)}


@pytest.mark.parametrize("s", SIDES)
def test_random_turn_points_match_the_closed_form(s):
    assert odds.random_turn_points(Rules(die_sides=s)) == closed_form(s)


@pytest.mark.parametrize("s", SIDES)
def test_random_turn_points_match_the_brute_force(s):
    mean, rest = brute_force(s, depth=40)
    exact = odds.random_turn_points(Rules(die_sides=s))
    assert mean <= exact <= mean + rest
    assert rest < F(1, 10 ** 8)


def test_the_d6_random_turn_is_240_49():
    assert closed_form(6) == F(240, 49) == odds.random_turn_points(Rules())


def test_random_turn_points_ignore_the_target_and_the_set_up():
    """A random turn does not look at the score: only the die matters."""
    base = odds.random_turn_points(Rules())
    assert odds.random_turn_points(Rules(target=10, second_player_bonus=5, start_player="seat0")) == base


@pytest.mark.parametrize("s", SIDES)
@pytest.mark.parametrize("hold_at", [1, 2, 7, HOLD_AT, 25])
def test_hold_at_turn_law(s, hold_at):
    law = odds.hold_at_turn(Rules(die_sides=s), hold_at)
    assert sum(law.values()) == 1
    assert all(p > 0 for p in law.values())
    assert set(law) - {0} <= set(range(max(hold_at, 2), hold_at + s))  # held as soon as the total reaches it
    assert law == hold_at_law(s, hold_at)


def test_hold_at_2_banks_the_first_roll():
    assert odds.hold_at_turn(Rules(), 2) == {0: F(1, 6), **{face: F(1, 6) for face in range(2, 7)}}


def test_summary_values():
    rows = lambda rules: dict(zip(odds.summary(rules)["quantity"], odds.summary(rules)["value"]))  # noqa: E731
    d10 = rows(Rules(die_sides=10, start_player="seat0"))
    greedy = odds.hold_at_turn(Rules(die_sides=10))
    assert d10["P(a roll busts)"] == pytest.approx(0.1)
    assert d10["P(seat 0 starts)"] == 1.0
    assert d10["points per turn (random policy)"] == pytest.approx(float(closed_form(10)))
    assert d10[f"P(a hold-at-{HOLD_AT} turn scores nothing)"] == pytest.approx(float(greedy[0]))
    assert d10[f"points per hold-at-{HOLD_AT} turn"] == pytest.approx(float(sum(k * p for k, p in greedy.items())))
    assert rows(Rules())["P(seat 0 starts)"] == 0.5


def test_simulated_measures_a_frame():
    """Two made-up games: 4 busts in 20 rolls, seat 0 starting one, 30 + 25 + 40 + 12 points over 10 + 12
    turns with a bonus of 5 each game, so (107 - 10) / 22 banked per turn."""
    frame = pd.DataFrame({"rolls_0": [6, 5], "rolls_1": [4, 5], "busts_0": [1, 1], "busts_1": [0, 2],
                          "start_seat": [0, 1], "score_0": [30, 40], "score_1": [25, 12], "turns": [10, 12]})
    rules = Rules(second_player_bonus=5)
    found = odds.simulated(frame, rules, ("random", "random"))
    assert found["P(a roll busts)"] == pytest.approx(4 / 20)
    assert found["P(seat 0 starts)"] == pytest.approx(0.5)
    assert found["points per turn (random policy)"] == pytest.approx(97 / 22)
    assert "points per turn (random policy)" not in odds.simulated(frame, rules, ("greedy", "random"))
