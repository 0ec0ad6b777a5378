"""Pig's players in plain Python, for the reference: ``random`` (§5), ``greedy`` (hold at 20) and
``lookahead:S``; the kernel plays the same in ``heuristics.py``, decision for decision.
"""

from __future__ import annotations

from toolkit.core import policy as core_policy
from toolkit.games.pig.reference import HOLD, ROLL

POLICIES = ("random", "greedy", "lookahead")
HOLD_AT = 20  # greedy holds at a turn total of 20 (P1's rule of thumb: a roll's expected gain is then 0 on a d6)
WIN_VALUE = 1000  # the lookahead's value of a won game, over any score
SAMPLES, MOST_SAMPLES = 16, 1000  # lookahead's imagined turns per option: by default, at most


def parse_policy(name: str) -> tuple[str, int]:
    """``"lookahead:8"`` -> ``("lookahead", 8)``; ``greedy`` and ``random`` take no argument."""
    return core_policy.parse_samples(name, POLICIES, "lookahead", SAMPLES, MOST_SAMPLES)


def evaluate(game, seat: int) -> int:
    """The position's value for ``seat``: its banked score and turn total less the other's banked score."""
    mine = game.score[seat] + (game.turn_total if game.seat == seat else 0)
    return mine - game.score[1 - seat]


def greedy_choice(game, decision) -> str:
    """Hold at a turn total of ``HOLD_AT``, or when holding wins (P-5.1); roll otherwise."""
    total = decision.turn_total
    if total >= HOLD_AT or game.score[decision.seat] + total >= game.rules.target:
        return HOLD
    return ROLL


class GreedyPolicy(core_policy.ChoicePolicy):
    choice = staticmethod(greedy_choice)


class LookaheadPolicy:
    """``lookahead:S``: each option played ``S`` times to the end of the turn (``greedy`` deciding, the
    rolls from the seat's own stream), valued by :func:`evaluate` plus ``WIN_VALUE`` for a win; the option of
    the highest total, the first on a tie (``toolkit.core.lookahead``: nothing is hidden, so a
    determinization is the position itself)."""

    def __init__(self, rules, stream, samples: int):
        self.stream, self.samples = stream, samples

    def choose(self, game, decision) -> str:
        totals = [0] * len(decision.options)
        for _ in range(self.samples):
            for i, option in enumerate(decision.options):
                totals[i] += self.turn_value(game, decision, option)
        return decision.options[totals.index(max(totals))]

    def turn_value(self, game, decision, option) -> int:
        world, me = game.imagined(), decision.seat
        world.apply(decision, option)
        while world.seat == me and world.winner < 0:
            if world.rolling:
                world.roll_once(self.stream)
            else:
                here = world.advance()
                world.apply(here, greedy_choice(world, here))
        return evaluate(world, me) + (WIN_VALUE if world.winner == me else 0)


def make_policy(name: str, rules, stream):
    return core_policy.make_player(name, rules, stream, parse_policy, GreedyPolicy, LookaheadPolicy)


core_policy.register_players("pig", make_policy)
