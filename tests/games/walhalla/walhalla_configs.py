"""Rule configurations shared by the Walhalla hidden-information, property and statistics tests."""

from toolkit.games.walhalla.rules import Rules

CONFIGS = {
    "standard_4p": Rules(),  # every default of §9.2
    "standard_3p": Rules(num_players=3),
    "variable_4p": Rules.preset("variable"),  # peninsulas of 5..8 tiles (W-2.1)
    "variable_3p": Rules.preset("variable", num_players=3),
    # fuller hands: Shields against most Axes (DP-6), several cards in the card phase (DP-8) and on sale (DP-9)
    "cards_4p": Rules(action_deck={"axe": 12, "shield": 12, "horn": 8, "walhalla": 6, "plunder": 6},
                      cult_cards=2, initial_action_cards=2),
    "cards_3p": Rules.preset("variable", num_players=3, cult_cards=2, initial_action_cards=2,
                             action_deck={"axe": 10, "shield": 10, "horn": 6, "walhalla": 6, "plunder": 4}),
}

# the equality cases' configurations
CONFIGS.update({
    "3p": CONFIGS["standard_3p"],
    "4p": CONFIGS["standard_4p"],
    "flipped_3p": Rules(num_players=3, landing_mandatory=False, winner_loses_hero=False,
                        sell_cards_for_vikings=False, tie_rounding="down", initial_walhalla_source="midgard",
                        tiebreak="walhalla_then_fields", start_player="seat0", raids=4),
    "variable_3p_small_deck": Rules.preset("variable", num_players=3, action_deck={"axe": 2, "shield": 1, "horn": 1,
                                                                                     "walhalla": 1, "plunder": 1},
                                           cult_cards=2, initial_action_cards=2),
})
_COMBATS = ("combats", lambda f: f["combats"].sum() > 0)
_LENGTHS = ("combats, and every peninsula split of the variable preset (W-2.1)",
            lambda f: f["combats"].sum() > 0
            and {tuple(sorted(r)) for r in f[["length_0", "length_1", "length_2"]].to_numpy().tolist()}
            == {(5, 5, 8), (5, 6, 7), (6, 6, 6)})

# reference <=> kernel, game for game (tests/conformance/test_equality.py): (config, policies, seed, games[, options])
EQUALITY = tuple((config, ("random",) * CONFIGS[config].num_players, 2024, 150,
                  {"expect": _LENGTHS if config == "variable_4p" else _COMBATS})
                 for config in ("3p", "4p", "flipped_3p", "variable_3p_small_deck", "variable_4p")) + (
    ("4p", ("greedy", "random", "greedy", "random"), 2025, 50),
    ("3p", ("greedy", "greedy", "greedy"), 2025, 50),
    ("variable_4p", ("greedy",) * 4, 2025, 50),
    ("flipped_3p", ("random", "greedy", "greedy"), 2025, 50),
    ("variable_3p_small_deck", ("greedy", "random", "greedy"), 2025, 50),
    # the rollouts (determinization of cards and dragons, chance streams, greedy play-outs to the raid's
    # scoring) agree draw for draw
    ("4p", ("lookahead:2", "greedy", "random", "greedy"), 31, 3),
    ("3p", ("random", "lookahead:1", "greedy"), 31, 3),
    ("variable_3p_small_deck", ("lookahead:1", "random", "lookahead:2"), 31, 2),
    ("flipped_3p", ("greedy", "greedy", "lookahead:1"), 31, 2),
)


# tests/conformance/test_first_seat.py: rule values that choose the first mover otherwise than the presets do
FIRST_MOVER_VARIANTS = [{"start_player": "seat0"}]

# tests/conformance/test_mcts_positions.py: (rule overrides, seed, games scanned) holding wins in one
MCTS_SCAN = ({"num_players": 3}, 5, 10)


# tests/golden/golden_record.py: traces and digests of the lookahead line-up are the slow kind
GOLDEN_SLOW = ("lookahead",)

# tests/conformance/test_protocol.py: the policy a line-up's seats play there instead, where it is too slow as
# it is. The lookahead reference's rollouts took 3.3-3.7 s a game
# in CI; lookahead:1 plays the same determinizations and rollouts, one sample a candidate (issue 49).
PROTOCOL_LINEUP = {"lookahead": "lookahead:1"}
