"""Tiny in words and as a picture's data: the decision said as a player says it, and the position a drawing
shows (``viz.draw``), both read from the reference (``reference.py``).

>>> import toolkit
>>> from tiny import reference, view
>>> from tiny.rules import Rules
>>> game = reference.new_game(Rules(), seed=1, game_index=0)
>>> game.start()
>>> decision = game.advance()
>>> view.describe(game, decision, decision.options[0])
'move 1 square (to square 1)'
"""

from __future__ import annotations

import dataclasses

DECISIONS = {1: "move"}  # spec §5


def describe(game, decision, option) -> str:
    """DP-1 in the deciding seat's words: ``"wait on square 2"``, ``"move 3 squares (to square 5)"``, with what
    a move does besides: it sends the other pawn back (T-3), or reaches home and wins (T-4.1)."""
    if option not in decision.options:
        raise ValueError(f"option={option!r} is not allowed: one of {', '.join(map(str, decision.options))}")
    there = decision.square + option
    them = game.square[1 - decision.seat]
    if option == 0:
        return f"wait on square {there}"
    words = f"move {option} square{'s' if option > 1 else ''} (to square {there})"
    if there >= game.rules.track:
        return words + ": home, and win"
    if 0 < them < game.rules.track and decision.square < them <= there:
        return words + ", sending the other pawn back"
    return words


@dataclasses.dataclass(frozen=True)
class Position:
    """What the picture shows: each pawn's ``square``, the ``track``'s length, the ``seat`` whose turn it is and
    its ``roll`` (0 between turns), the ``winner`` (-1: none yet, or a draw once ``over``), the ``turn``."""

    square: tuple
    track: int
    seat: int
    roll: int
    winner: int
    over: bool
    turn: int


def position(game, decision=None) -> Position:
    """The position of the reference ``game`` (a copy: it does not change when the game goes on)."""
    return Position(tuple(game.square), game.rules.track, game.seat, game.roll, game.winner, game.over, game.turns)
