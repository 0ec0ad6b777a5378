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

# the equality cases' configurations
CONFIGS.update({
    "2p": Rules(num_players=2),
    "3p": Rules(num_players=3),
    "4p": Rules(num_players=4),
    "5p": Rules(num_players=5),
    "strict_3p": Rules(num_players=3, support_any_tribe=False, war_tie_removes_all_weakest=False,
                       single_tribe_war_removes=True, second_figure_option=False, max_tiles_per_turn=1,
                       tie_rounding="up", initiator_skips_refill_after_war=True, tiebreak="influence_sum",
                       start_player="seat0"),
    "short_4p": CONFIGS["short"],
    # the toolkit's variants (rules.py): the end waits for the round, later seats start with VP; the short
    # set-up ends by the track too, and its wars are dropped while the round finishes
    "variants_4p": Rules(num_players=4, finish_round=True, later_seat_vp=2),
    "variants_short_3p": Rules(num_players=3, influence_track_max=8, war_threshold=3, figures_per_tribe=4,
                               peace_tiles_per_century=(2, 2, 2, 2), hand_size=4, cards_per_tribe=3,
                               finish_round=True, later_seat_vp=1),
})


def _rounds_finished(frame, seats):
    """With finish_round, every game ended by the last peace tile or the track lasted whole rounds."""
    ended = frame[frame["end_reason"].astype(str).isin(("tenth_war", "track_end"))]
    return len(ended) > 0 and bool((ended["turns"] % seats == 0).all())

# reference <=> kernel, game for game (tests/conformance/test_equality.py): (config, policies, seed, games[, options])
EQUALITY = tuple((config, ("random",) * CONFIGS[config].num_players, 2024, 150) for config in (
    "2p", "3p", "4p", "5p", "strict_3p")) + (
    ("short_4p", ("random",) * 4, 2024, 150,
     {"expect": ("an end by the track or a stall, besides the tenth war",
                 lambda f: set(f["end_reason"].astype(str)) - {"tenth_war"} != set())}),
    ("2p", ("greedy", "random"), 2025, 13),
    ("4p", ("random", "greedy", "greedy", "random"), 2025, 13),
    ("5p", ("greedy",) * 5, 2025, 13),
    ("strict_3p", ("greedy", "random", "greedy"), 2025, 13),
    ("short_4p", ("greedy",) * 4, 2025, 13),
    # the rollouts (determinization, chance stream, greedy play-outs) agree draw for draw
    ("2p", ("lookahead:2", "random"), 31, 2),
    ("3p", ("greedy", "lookahead:1:no_double_turn", "random"), 31, 2),
    ("short_4p", ("lookahead:1", "greedy", "lookahead:2:no_exchange", "random"), 31, 2),
    ("strict_3p", ("random", "greedy", "lookahead:1"), 31, 2),
    ("variants_4p", ("random",) * 4, 2026, 100,
     {"expect": ("whole rounds", lambda f: _rounds_finished(f, 4))}),
    ("variants_short_3p", ("random",) * 3, 2026, 100,
     {"expect": ("whole rounds, and ends by the track", lambda f: _rounds_finished(f, 3)
                 and "track_end" in set(f["end_reason"].astype(str)))}),
    ("variants_4p", ("greedy", "random", "greedy", "greedy"), 2027, 10),
    ("variants_short_3p", ("lookahead:1", "greedy", "random"), 31, 2),
    # greedy without some of its tiles
    ("4p", ("greedy:no_exchange", "greedy:no_plus_two", "greedy:no_double_turn", "greedy"), 32, 13),
    ("2p", ("greedy:no_double_turn:no_plus_two:no_exchange", "greedy"), 32, 13),
)


# tests/conformance/test_first_seat.py: rule values that choose the first mover otherwise than the presets do
FIRST_MOVER_VARIANTS = [{"start_player": "seat0"}]

# tests/conformance/test_mcts_positions.py: none in 150 seeded games at 2, 3 or 4 players (the game ends with
# the last war's scoring, not one seat's move); the game's own pinned endgame instead
MCTS_SCAN = "tests/games/attila/test_mcts_position_attila.py"


# tests/golden/golden_record.py: traces and digests of the lookahead line-up are the slow kind
GOLDEN_SLOW = ("lookahead",)

# tests/conformance/test_protocol.py: the policy a line-up's seats play there instead, where it is too slow as
# it is.  The lookahead reference plays 8 rollout samples per DP-4 (about 40 s a game with 2 players, minutes
# with 4-5, on a loaded 2-core machine); lookahead:1 plays the same rollouts, one sample per candidate:
# measured 9, 16, 40 and 35 s for the 2-5 player games (kernel compiled, machine loaded)
PROTOCOL_LINEUP = {"lookahead": "lookahead:1"}
