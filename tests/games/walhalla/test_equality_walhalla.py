"""Walhalla reference <=> kernel equality, game by game.

Every column of the reference's record must equal the kernel's row for the
same ``(seed, game index)``, for 3 and 4 players and two rule variants (the
``variable`` preset, and one with every switch flipped).
"""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.games.walhalla import kernel as K
from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.rules import Rules

pytestmark = pytest.mark.slow

CONFIGS = {
    "3p": Rules(num_players=3),
    "4p": Rules(num_players=4),
    "variable_4p": Rules.preset("variable"),
    "flipped_3p": Rules(num_players=3, landing_mandatory=False, winner_loses_hero=False,
                        sell_cards_for_vikings=False, tie_rounding="down", initial_walhalla_source="midgard",
                        tiebreak="walhalla_then_fields", start_player="seat0", raids=4),
    "variable_3p_small_deck": Rules.preset("variable", num_players=3, action_deck={"axe": 2, "shield": 1, "horn": 1,
                                                                                     "walhalla": 1, "plunder": 1},
                                           cult_cards=2, initial_action_cards=2),
}


def assert_equal(rules, policies, seed, n):
    out = np.zeros((n, K.N_COLUMNS), np.int32)
    violations = np.zeros(n, np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), seed, 0, out, violations, True)
    assert not violations.any(), f"§7.{violations[np.flatnonzero(violations)[0]]} in the kernel"
    for g in range(n):
        expected = ref.record_row(ref.play_game(rules, seed, g, policies))
        got = dict(zip(K.COLUMNS, out[g].tolist()))
        if got != expected:
            diff = {c: (expected[c], got[c]) for c in K.COLUMNS if expected[c] != got[c]}
            raise AssertionError(f"game {g} differs (reference, kernel): {diff}")
    return out


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_reference_equals_kernel_random(config):
    rules = CONFIGS[config]
    out = assert_equal(rules, ("random",) * rules.num_players, 2024, 1_000)
    combats = out[:, K.COLUMNS.index("combats")]
    assert combats.sum() > 0  # the games really fight
    if config == "variable_4p":
        lengths = {tuple(r) for r in out[:, K.C_LENGTHS:K.C_LENGTHS + 3].tolist()}
        assert {tuple(sorted(x)) for x in lengths} == {(5, 5, 8), (5, 6, 7), (6, 6, 6)}


@pytest.mark.parametrize("config,policies", [
    ("4p", ("greedy", "random", "greedy", "random")),
    ("3p", ("greedy", "greedy", "greedy")),
    ("variable_4p", ("greedy",) * 4),
    ("flipped_3p", ("random", "greedy", "greedy")),
    ("variable_3p_small_deck", ("greedy", "random", "greedy")),
])
def test_reference_equals_kernel_greedy(config, policies):
    assert_equal(CONFIGS[config], policies, 2025, 300)


@pytest.mark.parametrize("config,policies,n", [
    ("4p", ("lookahead:2", "greedy", "random", "greedy"), 5),
    ("3p", ("random", "lookahead:1", "greedy"), 5),
    ("variable_3p_small_deck", ("lookahead:1", "random", "lookahead:2"), 4),
    ("flipped_3p", ("greedy", "greedy", "lookahead:1"), 4),
])
def test_reference_equals_kernel_lookahead(config, policies, n):
    """The rollouts (determinization of cards and dragons, chance streams, greedy play-outs to the
    raid's scoring) agree draw for draw."""
    assert_equal(CONFIGS[config], policies, 31, n)
