"""Pig: the tutorial game, a 2-player press-your-luck dice game (spec ``docs/rules/pig.md``).

The smallest game with everything a game has; ``docs/adding-a-game.md`` walks through its files in order.
Choices the spec leaves open are decided in ``reference.py``'s docstring.
"""

from __future__ import annotations

from toolkit.core.game import GameSpec, Presentation, RuleQuestion, TuneQuestion

SPEC = GameSpec(
    name="pig",
    description="2-player press-your-luck dice game: roll or hold, a 1 loses the turn",
    default_policies=lambda rules: ("greedy", "greedy"),
    seats=lambda rules: 2,
    first_mover=lambda column: column("start_seat"),
    turn_word="one player's turn",
    tutorial=True,
    presentation=Presentation(
        rule_question=RuleQuestion(
            "target", (20, 50, 100, 200), "first_player_win_rate",
            "the score that wins. The first player is a turn ahead all game; a short race may make that matter "
            "more."),
        tune_question=TuneQuestion(
            "The first player wins more than half of the greedy games: what head start for the second player "
            "makes it fair?",
            {"first_player_win_rate": 0.5}, {"second_player_bonus": "0..20"}, policies="greedy", trials=20,
            n_games=20_000),
    ),
)
