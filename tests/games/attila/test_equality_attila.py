"""Attila reference <=> kernel equality, game by game, for every policy.

Every column of the reference's record must equal the kernel's row for the
same ``(seed, game index)``, for 2, 3, 4 and 5 players and two rule variants.
"""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.games.attila import kernel as K
from toolkit.games.attila import reference as ref
from toolkit.games.attila.rules import Rules

pytestmark = pytest.mark.slow

CONFIGS = {
    "2p": Rules(num_players=2),
    "3p": Rules(num_players=3),
    "4p": Rules(num_players=4),
    "5p": Rules(num_players=5),
    "strict_3p": Rules(num_players=3, support_any_tribe=False, war_tie_removes_all_weakest=False,
                       single_tribe_war_removes=True, second_figure_option=False, max_tiles_per_turn=1,
                       tie_rounding="up", initiator_skips_refill_after_war=True, tiebreak="influence_sum",
                       start_player="seat0"),
    "short_4p": Rules(num_players=4, influence_track_max=8, war_threshold=3, figures_per_tribe=4,
                      peace_tiles_per_century=(3, 3, 3, 3), hand_size=4, cards_per_tribe=3),
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_reference_equals_kernel(config):
    rules = CONFIGS[config]
    n = 1_000
    out = np.zeros((n, K.N_COLUMNS), np.int32)
    violations = np.zeros(n, np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(["random"] * rules.num_players), 2024, 0, out, violations, True)
    assert not violations.any()  # §7, checked by the kernel on every game
    reasons = set()
    for g in range(n):
        game = ref.play_game(rules, 2024, g)
        expected = ref.record_row(game)
        got = dict(zip(K.COLUMNS, out[g].tolist()))
        if got != expected:
            diff = {c: (expected[c], got[c]) for c in K.COLUMNS if expected[c] != got[c]}
            raise AssertionError(f"game {g} differs (reference, kernel): {diff}")
        reasons.add(game.end_reason)
    if config == "short_4p":
        assert reasons - {"tenth_war"}, "the short variant should also end by the track or a stall"


@pytest.mark.parametrize("config,policies", [
    ("2p", ("greedy", "random")),
    ("4p", ("random", "greedy", "greedy", "random")),
    ("5p", ("greedy",) * 5),
    ("strict_3p", ("greedy", "random", "greedy")),
    ("short_4p", ("greedy",) * 4),
])
def test_reference_equals_kernel_greedy(config, policies):
    rules = CONFIGS[config]
    n = 100  # 200 until issue 15; tests/conformance/test_protocol.py now also compares every decision point
    out = np.zeros((n, K.N_COLUMNS), np.int32)
    violations = np.zeros(n, np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), 2025, 0, out, violations, True)
    assert not violations.any()
    for g in range(n):
        expected = ref.record_row(ref.play_game(rules, 2025, g, policies))
        got = dict(zip(K.COLUMNS, out[g].tolist()))
        if got != expected:
            diff = {c: (expected[c], got[c]) for c in K.COLUMNS if expected[c] != got[c]}
            raise AssertionError(f"game {g} differs (reference, kernel): {diff}")


def test_greedy_beats_random():
    """Greedy in seat 0 against three random players wins far more than its 1/4 share."""
    rules = CONFIGS["4p"]
    n = 2_000
    out = np.zeros((n, K.N_COLUMNS), np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(("greedy", "random", "random", "random")), 7, 0, out,
                np.zeros(n, np.int32), False)
    from toolkit.core import stats

    rate, low, _ = stats.wilson(int(out[:, K.COLUMNS.index("win_0")].sum()), n)
    assert low > 0.5, rate


def _assert_equal(rules, policies, seed, n):
    out = np.zeros((n, K.N_COLUMNS), np.int32)
    violations = np.zeros(n, np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), seed, 0, out, violations, True)
    assert not violations.any()
    for g in range(n):
        expected = ref.record_row(ref.play_game(rules, seed, g, policies))
        got = dict(zip(K.COLUMNS, out[g].tolist()))
        if got != expected:
            diff = {c: (expected[c], got[c]) for c in K.COLUMNS if expected[c] != got[c]}
            raise AssertionError(f"game {g} differs (reference, kernel): {diff}")


@pytest.mark.parametrize("config,policies,n", [
    ("2p", ("lookahead:2", "random"), 6),
    ("3p", ("greedy", "lookahead:1:no_double_turn", "random"), 4),
    ("short_4p", ("lookahead:1", "greedy", "lookahead:2:no_exchange", "random"), 4),
    ("strict_3p", ("random", "greedy", "lookahead:1"), 4),
])
def test_reference_equals_kernel_lookahead(config, policies, n):
    """The rollouts (determinization, chance stream, greedy play-outs) agree draw for draw."""
    _assert_equal(CONFIGS[config], policies, 31, n)


@pytest.mark.parametrize("config,policies", [
    ("4p", ("greedy:no_exchange", "greedy:no_plus_two", "greedy:no_double_turn", "greedy")),
    ("2p", ("greedy:no_double_turn:no_plus_two:no_exchange", "greedy")),
])
def test_reference_equals_kernel_without_tiles(config, policies):
    _assert_equal(CONFIGS[config], policies, 32, 100)


def test_without_tiles_really_never_uses_them():
    rules = CONFIGS["4p"]
    n = 300
    policies = ("greedy:no_exchange", "greedy:no_plus_two", "greedy:no_double_turn", "greedy")
    out = np.zeros((n, K.N_COLUMNS), np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), 5, 0, out, np.zeros(n, np.int32), False)
    used = {c: int((out[:, K.COLUMNS.index(c)] > 0).sum()) for c in K.COLUMNS if "_used_" in c}
    assert used["exchange_used_0"] == used["plus_two_used_1"] == used["double_turn_used_2"] == 0
    assert min(used["exchange_used_3"], used["plus_two_used_3"], used["double_turn_used_3"]) > 0
    assert min(used["plus_two_used_0"], used["double_turn_used_0"], used["exchange_used_1"]) > 0
