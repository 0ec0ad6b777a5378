"""Valhalla: a 2-player Norse Senet with four rune throwing sticks (spec ``docs/rules/valhalla.md``)."""

from __future__ import annotations

from toolkit.core.game import GameSpec, PageRuns, Presentation, RuleQuestion, TuneQuestion
from toolkit.games.valhalla.layout import RESULT_CODES


SPEC = GameSpec(
    name="valhalla",
    description="2-player race (a Norse Senet) with four rune throwing sticks",
    default_policies=lambda rules: ("greedy", "greedy"),
    seats=lambda rules: 2,
    histogram_columns=("turns", "plies", "start_seat"),
    turn_word="one player's throw sequence",
    first_mover=lambda column: column("start_seat"),
    extra_odds={"the 16 stick outcomes": "toolkit.games.valhalla.odds:throw_table",
                "throw values": "toolkit.games.valhalla.odds:value_distribution"},
    results=RESULT_CODES,  # ("win", "aborted"): a game stopped at the turn limit
    presentation=Presentation(
        # the dashboard's default players are greedy (the report's), about 40,000 games a second on two cores
        # (random players: 150,000): 20,000 games play and are drawn in about 1 s (benchmarks/redraw.py)
        panel_games=20_000,
        # toolkit report --html: lookahead takes no argument; the whole tournament costs 2.5 CPU s for
        # 2,000 games per pair (load 5-6), cheap enough for 5,000
        page_runs=PageRuns(tournament=5_000, skill=5_000, lookahead="lookahead"),
        # the overview notebook: about 1,000 lookahead games a second against random (two cores)
        rule_question=RuleQuestion(
            "zero_runes_value", (1, 2, 3, 4, 5, 6), "duration_turns",
            "a throw with no rune up is worth 5 in the seed's simplified table, but the runes rules do not say "
            "what it is worth ([inf] in the spec). It comes up once in sixteen throws and is the largest throw, "
            "so it sets the pace of the race."),
        tune_question=TuneQuestion(
            "The alternative set-up (blocks of ships, simplified throws, extra throws) gives the first player 59% "
            "of random games: which of the throw rules brings it nearest 50%?",
            {"first_player_win_rate": 0.5},
            {"stick_rune_up_probability": "0.2..0.8", "zero_runes_value": None, "extra_throw_enabled": None},
            preset="alternative", trials=30, n_games=20_000),
    ),
)
