"""Halali: a 2-player hunt on a 7x7 board of face-down tiles (spec ``docs/rules/halali.md``)."""

from __future__ import annotations

from toolkit.core.game import GameSpec, PageRuns, Presentation, RuleQuestion, TuneQuestion
from toolkit.games.halali.layout import RESULT_CODES


def warm_logs(policies) -> None:
    """Compile the capture heat map's loop for these policies' copy (``toolkit warm``: ``core.warm``)."""
    from toolkit.core.mcts import policy_codes
    from toolkit.games.halali import kernel

    kernel.capture_heat(kernel.to_kernel(SPEC.Rules()), policy_codes(kernel, policies), 0, 0, 2)


SPEC = GameSpec(
    name="halali",
    description="2-player hunt on a 7x7 board of face-down tiles",
    default_policies=lambda rules: ("greedy", "greedy"),
    seats=lambda rules: 2,
    histogram_columns=("turns", "plies", "main_turns", "end_turns", "forced_reveal_turns"),
    turn_word="one action",
    # seat 0 plays Blue (H-1; in a two-game match Blue in the first game, the colours swap for the second)
    seat_names=lambda rules: ("Blue", "Brown") if rules.match_games == 1 else ("Blue in game 1", "Brown in game 1"),
    first_mover=lambda column: column("first_player"),  # the first mover of the match's first game
    results=RESULT_CODES,  # ("win", "draw", "aborted"): H-7
    hidden_information=True,  # the face-down tiles
    replay="toolkit.games.halali.replay:positions",
    draw_position="toolkit.games.halali.viz:draw_board",
    presentation=Presentation(
        panel_games=10_000,  # greedy: 10,000 games played and drawn in about 1 s (benchmarks/redraw.py)
        # toolkit report --html: 5.5 CPU s for 2,000 games per pair (two lookahead players make long games)
        page_runs=PageRuns(tournament=2_000, skill=2_000, lookahead="lookahead"),
        # the overview notebook: about 1,000 lookahead games a second against random (two cores)
        rule_question=RuleQuestion(
            "end_phase_moves", (1, 3, 5, 8, 12), "lead_changes",
            "the actions each player has after the last tile is revealed, when hunters and lumberjacks may leave "
            "by the exits. Blue always moves first, and the end phase is where the last points are taken, so it "
            "may even out the first-player advantage."),
        tune_question=TuneQuestion(
            "Blue moves first and wins 60% of greedy games: which of the end-phase and movement rules brings "
            "it nearest 50%?",
            {"first_player_win_rate": 0.5},
            {"end_phase_moves": None, "forced_capture": None, "no_return_rule": None, "exits_only_in_end_phase": None},
            policies="greedy", trials=20, n_games=4_000),
    ),
)
