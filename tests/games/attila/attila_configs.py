"""Rule configurations shared by the Attila property and statistics tests."""

from toolkit.games.attila.rules import Rules

CONFIGS = {
    "standard": Rules(),  # 4 players, every default of §9.2
    # short tracks, small provinces and supplies, more peace tiles: every end reason of A-7 but the cap
    "short": Rules(num_players=4, influence_track_max=8, war_threshold=3, figures_per_tribe=4,
                   peace_tiles_per_century=(3, 3, 3, 3), hand_size=4, cards_per_tribe=3),
    # a deck the deal nearly empties (18 cards, 15 dealt): hands far from independent draws
    "small_deck": Rules(num_players=5, hand_size=3, cards_per_tribe=3),
}
