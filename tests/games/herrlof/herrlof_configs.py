"""Rule configurations shared by the Herrlof equality, invariant and statistics tests."""

from toolkit.games.herrlof.rules import Rules

CONFIGS = {
    "standard": Rules(),
    "publisher": Rules.preset("publisher"),
    # every effect compulsory, 3s only when they win, trump any time, specials redrawn as indicators
    "variant_a": Rules(special_indicator_means="redraw", effect_1="mandatory", effect_3="mandatory",
                       effect_6="mandatory", three_trigger="won", trump_anytime=True, first_dealer="seat1"),
    # every other branch of
    "variant_b": Rules(specials_always_playable=False, destroyed_trick_next_leader="valknut_player",
                       valknut_overrides_hagalaz_lead=False, double_hagalaz_winner="second_played",
                       double_valknut_changes_trump=True, effect_9=False, consolation_requires_exact_bid=True,
                       tiebreak="draw", valknut_count=5, hagalaz_count=4, target_score=30),
    # effects off, other branches of the next-leader rule, a bigger deck
    "variant_c": Rules(effect_1="off", effect_3="off", effect_6="off", destroyed_trick_next_leader="other_player",
                       double_valknut_changes_trump=False, max_rank=12, suits=3, hand_size=17,
                       consolation_range=frozenset({0, 1, 2}), points_per_trick=2, max_rounds=6,
                       first_dealer="seat0"),
}


def _effects_happen(config):
    """The configuration's effects really happen in its games (trades, steals, destroyed tricks)."""
    rules = CONFIGS[config]
    return ("its effects (trades, steals, destroyed tricks)",
            lambda f: (rules.effect_3 == "off" or f[["trades_0", "trades_1"]].to_numpy().sum() > 0)
            and (rules.effect_1 == "off" or f[["steals_0", "steals_1"]].to_numpy().sum() > 0)
            and f["destroyed_tricks"].sum() > 0)


# reference <=> kernel, game for game (tests/conformance/test_equality.py): (config, policies, seed, games[, options]);
# the lookahead (PIMC rollouts in pure Python) is far slower, so its games are few and short
EQUALITY = tuple((config, policies, 2024, 300, {"expect": _effects_happen(config)}) for config, policies in (
    ("standard", ("random", "random")),
    ("standard", ("greedy", "random")),
    ("standard", ("random", "greedy")),
    ("publisher", ("greedy", "greedy")),
    ("variant_a", ("random", "random")),
    ("variant_b", ("greedy", "random")),
    ("variant_c", ("random", "random")),
    ("standard", ("greedy:no_steal", "greedy:no_trade:no_swap")),  # players that decline effects (policies.py)
)) + tuple((config, policies, 77, 6, {"set": {"max_rounds": 2}}) for config, policies in (
    ("standard", ("lookahead:3", "greedy")),
    ("standard", ("random", "lookahead:2")),
    ("variant_a", ("lookahead:2", "lookahead:3")),
    ("variant_b", ("greedy", "lookahead:2")),
    ("standard", ("lookahead:2:no_swap", "lookahead:3:no_steal:no_trade")),
))


# tests/conformance/test_first_seat.py: rule values that choose the first mover otherwise than the presets do
FIRST_MOVER_VARIANTS = [{"first_dealer": "seat0"}, {"first_dealer": "seat1"}]

# tests/conformance/test_mcts_positions.py: (rule overrides, seed, games scanned) holding wins in one
MCTS_SCAN = ({}, 5, 20)


# tests/golden/golden_record.py: traces and digests of the lookahead line-up are the slow kind
GOLDEN_SLOW = ("lookahead",)


def trace(reference, lines, rules, seed, game_index, policies) -> None:
    """tests/golden/golden_record.py: one reference game, with each round's scores logged."""
    def observer(state, d, option):
        if d is None:
            lines.append(f"round scored: scores {lines.text(list(state.scores))}")
        else:
            lines.decision(d.seat, d.kind, d.options, option)
    reference.play_game(rules, seed, game_index, policies, observer=observer)

# tests/conformance/test_protocol.py: the policy a line-up's seats play there instead, where it is too slow as
# it is. The lookahead reference plays 32 samples a decision (7.7 s a
# game in CI); lookahead:2 plays the same determinizations and rollouts, two samples a decision (issue 49).
PROTOCOL_LINEUP = {"lookahead": "lookahead:2"}
