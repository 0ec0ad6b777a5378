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
