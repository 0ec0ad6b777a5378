"""Rule configurations and the conformance suite's data for Pig (``tests/game_data.py`` says
what each name is for)."""

from toolkit.games.pig.rules import Rules

CONFIGS = {
    "standard": Rules.preset("standard"),
    "quick": Rules.preset("quick"),
    # a coin for a die (every roll busts or adds 2), seat 0 first, a head start for seat 1
    "variant_a": Rules(die_sides=2, start_player="seat0", second_player_bonus=10, target=40),
    "variant_b": Rules(die_sides=20, target=300),
}

# reference <=> kernel, game for game (tests/conformance/test_equality.py): (config, policies, seed, games[, options])
EQUALITY = (
    ("standard", ("random", "random"), 2024, 200),
    ("standard", ("greedy", "random"), 2024, 150),
    ("quick", ("lookahead", "greedy"), 77, 30),
    ("variant_a", ("random", "greedy"), 2024, 150,
     {"expect": ("busts and a head start", lambda f: f["busts_0"].sum() > 0 and (f["score_1"] >= 10).all())}),
    ("variant_b", ("greedy", "lookahead:4"), 78, 20),
    ("standard", ("random", "greedy"), 2**63 - 1, 50, {"first_game": 10**12}),
)

# tests/conformance/test_first_seat.py: rule values that choose the first mover otherwise than the presets do
FIRST_MOVER_VARIANTS = [{"start_player": "seat0"}]


def first_mover(game, seat: int) -> int:
    """The first mover, from the seat of the first decision point (a kernel game stepped there): the first
    turn can bust without a decision (P-3.2), and turns alternate (P-4), so the seat deciding in turn ``t``
    moved first when ``t`` is odd."""
    turn = int(game.st[game.kernel.STATE.turns])
    return (seat - (turn - 1)) % 2


# tests/conformance/test_mcts_positions.py: (rule overrides, seed, games scanned) holding wins in one (a hold
# past the target)
MCTS_SCAN = ({"target": 30}, 5, 10)
