"""Walhalla: a 3-4 player Viking raid game with majority scoring (spec ``docs/rules/walhalla.md``)."""

from __future__ import annotations

from toolkit.core.game import GameSpec, PageRuns, Presentation, RuleQuestion, TuneQuestion
from toolkit.games.walhalla.layout import RESULT_CODES


SPEC = GameSpec(
    name="walhalla",
    description="3-4 player Viking raids with majority scoring",
    default_policies=lambda rules: ("greedy",) * rules.num_players,
    seats=lambda rules: rules.num_players,
    histogram_columns=("turns", "plies", "combats", "n_winners"),
    turn_word="one dragon drawn",
    first_mover=lambda column: column("start_player"),  # the start player of raid 1
    results=RESULT_CODES,  # ("win", "shared"): tied seats share the win
    hidden_information=True,  # the hands and the dragon bag
    replay="toolkit.games.walhalla.viz:replay",
    draw_position="toolkit.games.walhalla.viz:draw_board",
    presentation=Presentation(
        # The greedy players value every boarding, fjord and landing by a trial scoring (W-8): 4-player
        # greedy self-play runs at 3,000 games/s on one thread against 100,000 for random play
        # (benchmarks/walhalla.py).  Measured with `toolkit report` while the 2-core machine was busy (load
        # 3-4): 100,000 games took 26-31 s, 50,000 take 10 s, and the whole report went from 70 s to 82 s.
        # 50,000 games give each seat's win rate to +-0.004, as for Attila.
        report_games=50_000,
        # toolkit report --html, lookahead:4, CPU time per game: L+3 random 7 ms, L+3 greedy 6 ms, random+3 L
        # 19 ms, greedy+3 L 16 ms, 4 L 23 ms: 0.21 CPU s per game per seating for the tournament, 0.06 for
        # skill gap + luck
        # four greedy players: 5,000 games played and drawn in about 1 s (benchmarks/redraw.py)
        panel_games=5_000,
        # which decisions matter: 100 games judged by mcts:200 in 5 s on two cores (4 players, 9 kinds)
        page_runs=PageRuns(tournament=100, skill=100, lookahead="lookahead:4", ladder=10,
                           ladder_policies=("random", "greedy", "mcts:100"), decisions=100),
        # the overview notebook: 60-70 lookahead:4 games a second against random (two cores)
        notebook_lookahead="lookahead:4",
        lookahead_share=100,
        rule_question=RuleQuestion(
            "raids", (1, 2, 3, 4, 5), "decisiveness",
            "the number of raids is the length of the game. How much of the outcome is fixed in the first raid?"),
        tune_question=TuneQuestion(
            "How many raids, and how many Vikings of each colour, make a game of four greedy players last a "
            "third longer (48 dragons instead of 36)?",
            {"duration_turns": 48.0}, {"raids": None, "vikings_per_colour": "8..20"},
            policies="greedy", trials=20, n_games=4_000),
    ),
)
