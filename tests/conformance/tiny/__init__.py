"""Tiny: a test-only game, a two-pawn race of a few turns (spec ``RULES.md`` beside this file).

It proves that the conformance suite fits any game, however short: two seats, up to eight decisions a game,
decisions of one option (a roll of 1) and of several, chance from the chance stream, a capture that can undo
an earlier move, and a draw.  It has everything a game has (``docs/adding-a-game.md``, modelled on Pig's
files) and is never registered in ``toolkit/games/__init__.py``: ``tests/conformance/conftest.py`` registers it
(package ``tiny``) while each conformance module runs, and only then; its test data are ``tiny_configs.py``
beside it (``tests/game_data.py``).
"""

from __future__ import annotations

from toolkit.core.game import GameSpec

from tiny.layout import RESULT_CODES

SPEC = GameSpec(
    name="tiny",
    package="tiny",
    description="2-player race of a few turns: move up to the roll, passing the other pawn sends it back",
    default_policies=lambda rules: ("greedy", "greedy"),
    seats=lambda rules: 2,
    first_mover=lambda column: column("start_seat"),
    turn_word="one player's roll and move",
    results=RESULT_CODES,  # ("win", "draw"): T-4.2
)
