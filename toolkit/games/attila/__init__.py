"""Attila: a 2-5 player area-majority card game (spec ``docs/rules/attila.md``)."""

from __future__ import annotations

from toolkit.core.game import GameSpec, PageRuns, Presentation, RuleQuestion, TuneQuestion
from toolkit.games.attila.layout import RESULT_CODES


def _columns_for(rules) -> tuple:
    from toolkit.games.attila.kernel import columns_for

    return columns_for(rules.num_players)


SPEC = GameSpec(
    name="attila",
    description="2-5 player area-majority card game",
    default_policies=lambda rules: ("greedy",) * rules.num_players,
    seats=lambda rules: rules.num_players,
    histogram_columns=("turns", "plies", "wars", "century_scorings", "n_winners"),
    turn_word="one player's turn",
    first_mover=lambda column: column("start_player"),
    results=RESULT_CODES,  # ("win", "shared", "aborted"): A-7
    given={"columns_for": _columns_for},  # the kernel's columns_for takes the player count
    hidden_information=True,  # the hands and the deck
    presentation=Presentation(
        # 200,000 default games would dominate `make run`: the greedy players value every option by a trial
        # scoring and the games are long (about 87 turns, 2.5 times a random game's): 1,800 games/s on one
        # core against 68,000 for random play.  Measured with `toolkit report` on the 2-core machine:
        # Valhalla's and Halali's 200,000 games take 10-11 s each, Attila's 50,000 take 12 s (200,000 would
        # take about 48 s, more than the other three games together); the whole report went from 29 s to
        # 41 s.  50,000 games still give each seat's win rate to +-0.004.
        report_games=50_000,
        # toolkit report --html, lookahead:4 (lookahead:8 is half as fast), CPU time per game: L+3 random
        # 13 ms, L+3 greedy 43 ms, random+3 L 45 ms, greedy+3 L 61 ms, 4 L 77 ms: 0.72 CPU s per game per
        # seating for the tournament, 0.10 for skill gap + luck.  50 games per seating still give 200 per
        # matrix cell (+-0.07).
        # four greedy players: 4,000 games played and drawn in about 1 s (benchmarks/redraw.py)
        panel_games=4_000,
        # which decisions matter: 100 games judged by mcts:200 in 8 s on two cores (4 players, 7 kinds)
        page_runs=PageRuns(tournament=50, skill=80, lookahead="lookahead:4", ladder=10,
                           ladder_policies=("random", "greedy", "mcts:100"), decisions=100),
        # the overview notebook: 60-70 lookahead:2 games a second against random (two cores)
        notebook_lookahead="lookahead:2",
        lookahead_share=200,
        rule_question=RuleQuestion(
            "two_player_second_place_gap", (None, 0, 1, 2, 3, 5), "drawishness",
            "in the 2-player variant the second place of a tribe scores only within this many spaces of the "
            "first. It is the one rule that exists to fix the 2-player game; `none` is the rule of 3–5 players.",
            base={"num_players": 2}),
        tune_question=TuneQuestion(
            "The first of four greedy players wins 32% (a fair share is 25%): does finishing the round remove "
            "the edge, or a head start in VP for the later seats (the toolkit's variants)?",
            {"first_player_advantage": 0.0}, {"finish_round": None, "later_seat_vp": "0..6"},
            policies="greedy", trials=20, n_games=4_000),
    ),
)
