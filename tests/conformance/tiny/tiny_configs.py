"""Rule configurations and the conformance suite's data for Tiny (``tests/game_data.py`` says what each name is
for), beside the game: it lives under ``tests/`` only."""

from tiny.rules import Rules

CONFIGS = {
    "standard": Rules.preset("standard"),
    "short": Rules.preset("short"),
    # a coin for a die (one option or two), seat 0 first, no draws: the shortest games there are
    "coin": Rules(die_sides=2, start_player="seat0", draw_margin=0, track=3, rounds=1),
    "six": Rules(die_sides=6, track=12, rounds=6, draw_margin=3),
}

# reference <=> kernel, game for game (tests/conformance/test_equality.py): (config, policies, seed, games[, options])
EQUALITY = (
    ("standard", ("random", "random"), 2024, 300,
     {"expect": ("captures, draws and wins at home",
                 lambda f: f["captures_0"].sum() > 0 and (f["result"] == "draw").any()
                 and ((f["score_0"] == 9) | (f["score_1"] == 9)).any())}),
    ("standard", ("greedy", "random"), 2024, 200),
    ("short", ("lookahead", "greedy"), 77, 40),
    ("coin", ("random", "greedy"), 2024, 100),
    ("six", ("greedy", "lookahead:3"), 78, 40),
    ("standard", ("random", "greedy"), 2**63 - 1, 50, {"first_game": 10**12}),
)

# tests/conformance/test_first_seat.py: rule values that choose the first mover otherwise than the presets do
FIRST_MOVER_VARIANTS = [{"start_player": "seat0"}]

# tests/conformance/test_mcts_positions.py: (rule overrides, seed, games scanned) holding wins in one (a move home
# that only the longest option makes, where the shorter ones leave the game open).  A track of 6 and a d4: at the
# standard rules a search of 10 + 4 iterations an option misses 3 of the 10 wins in one of games 0..29, where
# stopping short of home also wins most playouts and the visits tie (the first option is taken on a tie)
MCTS_SCAN = ({"track": 6, "die_sides": 4}, 5, 20)
