"""Exact Tiny odds (spec §2, T-2): the die and a pawn that moves its whole roll every turn, in fractions.

>>> from tiny.rules import Rules
>>> home_within_rounds(Rules())
Fraction(613, 648)
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from toolkit.core.exact import mean, odds_table, tail


def rolls_sum(rules, turns: int) -> dict[int, Fraction]:
    """The law of the sum of ``turns`` rolls of the die."""
    law = {0: Fraction(1)}
    for _ in range(turns):
        step: dict[int, Fraction] = {}
        for total, p in law.items():
            for face in range(1, rules.die_sides + 1):
                step[total + face] = step.get(total + face, Fraction(0)) + p / rules.die_sides
        law = step
    return law


def home_within_rounds(rules) -> Fraction:
    """P(a pawn that moves its whole roll every turn, never sent back, is home within ``rounds`` turns)."""
    return tail(rolls_sum(rules, rules.rounds), rules.track)


def summary(rules) -> pd.DataFrame:
    return odds_table([
        ("P(seat 0 starts)", Fraction(1, 2) if rules.start_player == "random" else Fraction(1)),
        ("P(a turn on the start has one option)", Fraction(1, rules.die_sides)),
        ("squares a roll allows, on average", mean(rolls_sum(rules, 1))),
        ("P(home within the rounds, moving the whole roll, never sent back)", home_within_rounds(rules)),
    ])


def simulated(frame: pd.DataFrame, rules, policies) -> dict[str, float]:
    """The rows of :func:`summary` a run measures: the start seats."""
    if len(frame) == 0:
        return {}
    return {"P(seat 0 starts)": float((frame["start_seat"] == 0).mean())}
