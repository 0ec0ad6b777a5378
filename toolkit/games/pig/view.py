"""Pig in words and as a picture's data (issue 38): the decision said as a player says it, and the
position a drawing shows (``viz.draw``), both read from the reference (``reference.py``).

>>> import toolkit
>>> from toolkit.games.pig import reference, view
>>> game = reference.new_game(toolkit.rules("pig"), seed=1, game_index=0)
>>> game.start()
>>> decision = game.advance()
>>> [view.describe(game, decision, option) for option in decision.options]
['roll again (6 at stake)', 'hold: bank 6 points']
>>> view.position(game, decision).turn_total
6
"""

from __future__ import annotations

import dataclasses

from toolkit.games.pig.reference import HOLD, ROLL

DECISIONS = {1: "roll or hold"}  # spec §5


def describe(game, decision, option) -> str:
    """DP-1 in the deciding seat's words: ``"roll again (6 at stake)"`` or ``"hold: bank 6 points"`` (the
    hold that reaches the target says so: ``"hold: bank 6 points and win"``)."""
    if option == ROLL:
        return f"roll again ({decision.turn_total} at stake)"
    if option != HOLD:
        raise ValueError(f"option={option!r} is not allowed: one of {ROLL!r}, {HOLD!r}")
    wins = game.score[decision.seat] + decision.turn_total >= game.rules.target
    return f"hold: bank {decision.turn_total} points" + (" and win" if wins else "")


@dataclasses.dataclass(frozen=True)
class Position:
    """What the picture shows: each seat's banked ``score``, the ``seat`` whose turn it is and its
    ``turn_total`` at stake, the ``target``, the ``winner`` (-1 while the game goes on), the ``turn``."""

    score: tuple
    seat: int
    turn_total: int
    target: int
    winner: int
    turn: int


def position(game, decision=None) -> Position:
    """The position of the reference ``game`` (a copy: it does not change when the game goes on)."""
    return Position(tuple(game.score), game.seat, game.turn_total, game.rules.target, game.winner, game.turns)
