"""Rule configurations shared by the Halali equality, invariant and statistics tests."""

from toolkit.games.halali.rules import Rules

CONFIGS = {
    "standard": Rules(),
    # a two-game match, random first player, forced captures, literal hunters, exits any time, neutral rules
    "variant_a": Rules(match_games=2, first_player="random", forced_capture=True, neutral_lock="reveal_only",
                       no_return_applies_to_neutrals=True, rescue_neutrals=True, exits_only_in_end_phase=False,
                       hunter_free_movement_direction=False, tiebreak="draw"),
    # a short loop guard, uncapturable locked neutrals, hunters that capture any way, other end rules
    "variant_b": Rules(progress_limit=5, locked_neutral_capturable=False, hunter_direction_restricted_capture=False,
                       tiebreak="draw", early_end_no_own_tiles=False, end_phase_moves=2, first_player="brown",
                       no_return_rule=False, neutral_lock="off"),
    # another tile set, point values, ranges, capture matrix and exits
    "variant_c": Rules(tile_counts={"bear": 4, "fox": 4, "lumberjack": 4, "hunter": 6, "pheasant": 6, "duck": 6,
                                    "tree": 18},
                       points={"bear": 8, "tree": 1}, ranges={"bear": 2, "fox": 3},
                       capture_matrix={"bear": ("lumberjack", "hunter", "fox"), "pheasant": ("duck",)},
                       exit_squares=("a1:S", "a1:W", "g7:N", "d7:N"), end_phase_moves=8),
}

_CAPTURES = ("captures", lambda f: f[[c for c in f.columns if c.startswith("captures_")]].to_numpy().sum() > 0)
# reference <=> kernel, game for game (tests/conformance/test_equality.py): (config, policies, seed, games[, options])
EQUALITY = (
    ("standard", ("random", "random"), 2024, 150, {"expect": _CAPTURES}),
    ("standard", ("greedy", "random"), 2024, 150, {"expect": _CAPTURES}),
    ("variant_a", ("random", "random"), 2024, 150, {"expect": _CAPTURES}),
    ("variant_b", ("random", "greedy"), 2024, 150, {"expect": _CAPTURES}),
    ("variant_c", ("random", "random"), 2024, 150, {"expect": _CAPTURES}),
    ("standard", ("greedy", "lookahead"), 77, 15),
    ("standard", ("lookahead", "greedy"), 77, 15),
    ("variant_c", ("lookahead", "random"), 78, 8),
)


# tests/conformance/test_first_seat.py: rule values that choose the first mover otherwise than the presets do
FIRST_MOVER_VARIANTS = [{"first_player": "brown"}, {"first_player": "random"},
                        {"first_player": "random", "match_games": 2}, {"first_player": "brown", "match_games": 2}]

# tests/conformance/test_mcts_positions.py: (rule overrides, seed, games scanned) holding wins in one
MCTS_SCAN = ({}, 5, 26)


def trace(reference, lines, rules, seed, game_index, policies) -> None:
    """tests/golden/golden_record.py: one reference game, with the passes (no legal action) logged."""
    def observer(state, seat, options, action):
        if options is None:
            lines.append(f"seat {seat} passes (no legal action)")
        else:
            lines.decision(seat, 1, options, action)
    reference.play_game(rules, seed, game_index, policies, observer=observer)
