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
    ("standard", ("random", "random"), 2024, 300),
    ("standard", ("greedy", "random"), 2024, 300),
    ("alternative", ("random", "random"), 2024, 300,
     {"expect": ("extra throws and start throws", lambda f: f["extra_throws_0"].sum() > 0 and f["start_throws"].sum() > 0)}),
    ("variant_a", ("random", "random"), 2024, 300,
     {"expect": ("backward moves, dock releases, captures and rock hits",
                 lambda f: min(f["backward_moves_0"].sum(), f["dock_releases_0"].sum(), f["captures_0"].sum(),
                               f["rock_hits_0"].sum()) > 0)}),
    ("variant_b", ("random", "random"), 2024, 300,
     {"expect": ("aborted and won games, extra throws",
                 lambda f: (f["result"] == "aborted").any() and (f["result"] == "win").any()
                 and f["extra_throws_0"].sum() > 0)}),
    ("standard", ("greedy", "lookahead"), 77, 20),
    ("standard", ("lookahead", "greedy"), 77, 20),
    # the lookahead's DP-2 decision (optional extra throws)
    ("alternative", ("lookahead", "random"), 78, 20),
    # large seeds and game indices (uint64 wrap-around in the stream derivation)
    ("standard", ("random", "greedy"), 2**63 - 1, 50, {"first_game": 10**12}),
)


# tests/conformance/test_first_seat.py: rule values that choose the first mover otherwise than the presets do
FIRST_MOVER_VARIANTS = [{"start_player_rule": "random"}, {"start_player_rule": "seat0"}]


def first_mover(game, seat: int) -> int:
    """The first mover, from the seat of the first decision point (a kernel game stepped there): turn 1 can
    pass without a decision (V-3, V-4), and turns alternate (V-4.6), so the seat deciding in turn ``t``
    moved first when ``t`` is odd."""
    turn = int(game.st[game.kernel.STATE.turns])
    return (seat - (turn - 1)) % 2


# tests/conformance/test_mcts_positions.py: no seeded game holds a win in one beside other options (the last
# ship moves by one option only); the game's own hand-built position instead
MCTS_SCAN = "tests/games/valhalla/test_mcts_position.py"


# tests/golden/golden_record.py: the trace of one reference game, with each throw and the automatic opening
def _move(move) -> str:
    """A move as ``origin->target`` with its kind (``attack``, ``backward``)."""
    kinds = "".join(f" {k}" for k in ("attack", "backward") if getattr(move, k))
    return f"{move.origin}->{move.target}{kinds}"


def trace(reference, lines, rules, seed, game_index, policies) -> None:
    """The automatic opening move is no decision: the reference's ``apply_move`` is wrapped meanwhile to log
    the moves made outside a decision (``pending`` says when one is being applied)."""
    apply_move, pending = reference.apply_move, []

    def apply(rules, state, seat, move):
        if pending:
            pending.clear()
        else:
            lines.append(f"seat {seat} opening {_move(move)}")
        return apply_move(rules, state, seat, move)

    def decided(game, d, option):
        if d.kind == 1:
            pending.append(option)
            lines.decision(d.seat, 1, d.options, option, f"throw {d.throw.klass}, value {d.throw.value}", _move)
        else:
            lines.decision(d.seat, 2, d.options, option, text=str)

    reference.apply_move = apply
    try:
        reference.play_game(rules, seed, game_index, policies, decided=decided)
    finally:
        reference.apply_move = apply_move
