"""Exact Pig odds (spec §3): one roll, a turn of the ``random`` policy and a turn of ``greedy`` (hold at 20),
in fractions.

>>> from toolkit.games.pig.rules import Rules
>>> random_turn_points(Rules())
Fraction(240, 49)
>>> hold_at_turn(Rules())[0]
Fraction(9440899, 15116544)
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from toolkit.core.exact import mean, odds_table
from toolkit.games.pig.policies import HOLD_AT


def random_turn_points(rules) -> Fraction:
    """The expected points a ``random`` turn banks (a hold has chance 1/2 at every decision point).

    From a turn total ``t`` at a decision point the expectation is ``V(t) = t/2 + (1/2s) sum_f V(t + f)``
    over the faces ``f = 2..s``, solved by ``V(t) = a t + b`` with ``a = s/(s+1)``, ``b = a F/(s+1)``, ``F``
    the sum of the faces 2..s; a turn opens with a roll.  The target does not enter: a hold banks its
    points whether or not it wins."""
    s = rules.die_sides
    faces = s * (s + 1) // 2 - 1
    a = Fraction(s, s + 1)
    b = a * faces / (s + 1)
    return (a * faces + (s - 1) * b) / s


def hold_at_turn(rules, hold_at: int = HOLD_AT) -> dict[int, Fraction]:
    """The law of the points a turn banks when it rolls until its total reaches ``hold_at`` (greedy, far
    from the target): 0 on a bust, else the total it holds."""
    if hold_at < 1:
        raise ValueError(f"hold_at={hold_at} is not allowed: a turn holds at a total of at least 1")
    s = rules.die_sides
    law: dict[int, Fraction] = {}
    paths = {0: Fraction(1)}  # turn totals below hold_at, with the chance of passing through them
    for total in range(hold_at):
        p = paths.pop(total, None)
        if p is None:
            continue
        law[0] = law.get(0, Fraction(0)) + p / s
        for face in range(2, s + 1):
            reached = total + face
            target = law if reached >= hold_at else paths
            target[reached] = target.get(reached, Fraction(0)) + p / s
    return dict(sorted(law.items()))


def summary(rules) -> pd.DataFrame:
    greedy = hold_at_turn(rules)
    return odds_table([
        ("P(a roll busts)", Fraction(1, rules.die_sides)),
        ("P(seat 0 starts)", Fraction(1, 2) if rules.start_player == "random" else Fraction(1)),
        ("points per turn (random policy)", random_turn_points(rules)),
        (f"P(a hold-at-{HOLD_AT} turn scores nothing)", greedy[0]),
        (f"points per hold-at-{HOLD_AT} turn", mean(greedy)),
    ])


def simulated(frame: pd.DataFrame, rules, policies) -> dict[str, float]:
    """The rows of :func:`summary` a run measures: the busts among the rolls, the start seats, and under
    ``random`` seats the points banked per turn (the second seat's bonus left out)."""
    if len(frame) == 0:
        return {}
    rolls = float(frame["rolls_0"].sum() + frame["rolls_1"].sum())
    found = {"P(a roll busts)": float(frame["busts_0"].sum() + frame["busts_1"].sum()) / rolls,
             "P(seat 0 starts)": float((frame["start_seat"] == 0).mean())}
    if all(p == "random" for p in policies):
        banked = float(frame["score_0"].sum() + frame["score_1"].sum()) - len(frame) * rules.second_player_bonus
        found["points per turn (random policy)"] = banked / float(frame["turns"].sum())
    return found
