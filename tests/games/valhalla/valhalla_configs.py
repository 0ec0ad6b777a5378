"""Rule configurations the Valhalla equality and invariant tests share (one definition)."""

from toolkit.games.valhalla.rules import Rules

CONFIGS = {
    "standard": Rules.preset("standard"),
    "alternative": Rules.preset("alternative"),
    # hagalaz -1, one-square backward, direct bear-off, literal gate, passage blocking, any-one release,
    # attackable repairing ship
    "variant_a": Rules(hagalaz_alone_value=-1, backward_rule="one_square", valhalla_entry="direct_off",
                       bear_off_gate="first_only", blockade_blocks_passage=True, dock_release="any_one",
                       repairing_ship_protected=False),
    # harsh entry, exact bear-in, forced extra throws on 2 and 3, skewed sticks, unsafe entry squares,
    # runs of 2 and 3 protected.  blocked_entry_forfeits_turn deadlocks most games once squares 1..5 fill
    # up with both seats still holding ships at home (every throw 1..5 is then voided for both), so
    # max_turns is lowered: the aborted path is exercised and the pure-Python reference stays quick.
    "variant_b": Rules(blocked_entry_forfeits_turn=True, valhalla_entry="exact", extra_throw_enabled=True,
                       extra_throw_optional=False, extra_throw_values=("2", "3"),
                       stick_rune_up_probability=0.3, safe_squares=frozenset({29, 32, 34}),
                       protected_run_lengths=frozenset({2, 3}), max_turns=1_000),
    # the throwless opening, no backward attacks, an open gate, throws of 6
    "variant_c": Rules(setup="alternating_blocks", start_player_rule="random", hagalaz_alone_value=-1,
                       backward_attacks_allowed=False, bear_off_gate="none", zero_runes_value=6),
    # few ships, simplified sticks, extra throws on small classes, moved rock and dock
    "variant_d": Rules(ships_per_player=3, start_player_rule="seat0", throw_mode="simplified",
                       extra_throw_enabled=True, extra_throw_values=("natural_one", "unnatural_one", "2"),
                       unentered_count_as_row1=False, rock_square=20, dock_square=10),
}

# reference <=> kernel, game for game (tests/conformance/test_equality.py): (config, policies, seed, games[, options])
EQUALITY = (
    ("standard", ("random", "random"), 2024, 600),
    ("standard", ("greedy", "random"), 2024, 600),
    ("alternative", ("random", "random"), 2024, 600,
     {"expect": ("extra throws and start throws", lambda f: f["extra_throws_0"].sum() > 0 and f["start_throws"].sum() > 0)}),
    ("variant_a", ("random", "random"), 2024, 600,
     {"expect": ("backward moves, dock releases, captures and rock hits",
                 lambda f: min(f["backward_moves_0"].sum(), f["dock_releases_0"].sum(), f["captures_0"].sum(),
                               f["rock_hits_0"].sum()) > 0)}),
    ("variant_b", ("random", "random"), 2024, 600,
     {"expect": ("aborted and won games, extra throws",
                 lambda f: (f["result"] == "aborted").any() and (f["result"] == "win").any()
                 and f["extra_throws_0"].sum() > 0)}),
    ("standard", ("greedy", "lookahead"), 77, 40),
    ("standard", ("lookahead", "greedy"), 77, 40),
    # the lookahead's DP-2 decision (optional extra throws)
    ("alternative", ("lookahead", "random"), 78, 40),
    # large seeds and game indices (uint64 wrap-around in the stream derivation)
    ("standard", ("random", "greedy"), 2**63 - 1, 100, {"first_game": 10**12}),
)
