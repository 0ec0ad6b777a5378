"""Tiny's players in plain Python, for the reference: ``random`` (§5), ``greedy`` (the longest move out of
reach) and ``lookahead:S``; the kernel plays the same in ``heuristics.py``, decision for decision.
"""

from __future__ import annotations

from toolkit.core import policy as core_policy

POLICIES = ("random", "greedy", "lookahead")
WIN_VALUE = 100  # the lookahead's value of a won game, over any lead in squares
SAMPLES, MOST_SAMPLES = 8, 1000  # lookahead's imagined games per option: by default, at most


def parse_policy(name: str) -> tuple[str, int]:
    """``"lookahead:4"`` -> ``("lookahead", 4)``; ``greedy`` and ``random`` take no argument."""
    return core_policy.parse_samples(name, POLICIES, "lookahead", SAMPLES, MOST_SAMPLES)


def evaluate(game, seat: int) -> int:
    """The position's value for ``seat``: its square less the other pawn's."""
    return game.square[seat] - game.square[1 - seat]


def greedy_choice(game, decision) -> int:
    """The longest move that leaves the pawn out of the other pawn's reach: home, behind it, or more than a
    roll ahead of it once a pawn passed is back on the start (T-3), waiting included; else the longest.  In the
    game's last turn the longest."""
    if game.turns >= 2 * game.rules.rounds:
        return decision.options[-1]
    here, them = decision.square, game.square[1 - decision.seat]
    for k in reversed(decision.options):
        there = here + k
        left = 0 if here < them <= there else them
        if there >= game.rules.track or there < left or there - left > game.rules.die_sides:
            return k
    return decision.options[-1]


class GreedyPolicy(core_policy.ChoicePolicy):
    choice = staticmethod(greedy_choice)


class LookaheadPolicy:
    """``lookahead:S``: each option played ``S`` times to the end of the game (``greedy`` deciding for both
    seats, the rolls from the seat's own stream), valued by :func:`evaluate` plus ``WIN_VALUE`` for a win and
    less it for a loss; the option of the highest total, the first on a tie (``toolkit.core.lookahead``:
    nothing is hidden, so a determinization is the position itself)."""

    def __init__(self, rules, stream, samples: int):
        self.stream, self.samples = stream, samples

    def choose(self, game, decision) -> int:
        if len(decision.options) == 1:  # no choice: nothing imagined, nothing drawn (the driver's rule)
            return decision.options[0]
        totals = [0] * len(decision.options)
        for _ in range(self.samples):
            for i, option in enumerate(decision.options):
                totals[i] += self.game_value(game, decision, option)
        return decision.options[totals.index(max(totals))]

    def game_value(self, game, decision, option) -> int:
        world, me = game.imagined(), decision.seat
        world.apply(decision, option)
        while not world.over:
            if world.roll == 0:
                world.roll_die(self.stream)
            here = world.advance()  # the roll is made: the decision point, no draw
            world.apply(here, greedy_choice(world, here))
        won = WIN_VALUE if world.winner == me else -WIN_VALUE if world.winner >= 0 else 0
        return evaluate(world, me) + won


def make_policy(name: str, rules, stream):
    return core_policy.make_player(name, rules, stream, parse_policy, GreedyPolicy, LookaheadPolicy)


core_policy.register_players("tiny", make_policy)
