"""Reference <=> kernel equality, game by game (docs/architecture.md decision 1).

For each rule configuration and policy pair, every column of the pure-Python
reference's record (``SPEC.play_reference``) must equal the Numba kernel's
row for the same ``(seed, game index)``, and the per-round logs must agree
too.  Both draw from the same streams in the same order and list options in
the canonical order of spec §5, so any difference is a bug in one of them.
The kernel runs with its §7 checks on.

The reference plays about 500 random games a second; the ``lookahead``
(PIMC rollouts in pure Python) is far slower, so its games are few and short.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import toolkit
from herrlof_configs import CONFIGS  # the shared rule configurations, beside this file
from toolkit.core import results
from toolkit.games.herrlof import SPEC, round_log
from toolkit.games.herrlof import reference as ref

pytestmark = pytest.mark.slow


def reference_frame(rules, seed, n_games, policies, first_game=0) -> pd.DataFrame:
    rows = [SPEC.play_reference(rules, seed, g, policies) for g in range(first_game, first_game + n_games)]
    df = pd.DataFrame(rows, columns=list(SPEC.columns))
    df.insert(0, "game_index", np.arange(first_game, first_game + n_games))
    df.insert(1, "first_seat", results.first_seats(SPEC, lambda c: df[c].to_numpy()))  # derived, as in to_frame
    return df


def kernel_frame(rules, seed, n_games, policies, first_game=0) -> pd.DataFrame:
    df = toolkit.simulate("herrlof", rules=rules, n_games=n_games, seed=seed, policies=policies,
                          first_game=first_game, progress=False, check=True)
    df["result"] = df["result"].cat.codes.astype(np.int64)  # the reference gives the code
    return df


def assert_same_games(rules, seed, n_games, policies, first_game=0):
    reference = reference_frame(rules, seed, n_games, policies, first_game)
    kernel = kernel_frame(rules, seed, n_games, policies, first_game)
    assert list(kernel.columns) == list(reference.columns)
    a = reference.to_numpy(np.int64)
    b = kernel.to_numpy(np.int64)
    differ = a != b
    if differ.any():
        rows = np.flatnonzero(differ.any(axis=1))
        first = rows[0]
        cols = [c for c, d in zip(reference.columns, differ[first]) if d]
        detail = ", ".join(f"{c}: reference {reference.at[first, c]} kernel {kernel.at[first, c]}" for c in cols)
        raise AssertionError(
            f"{len(rows)} of {n_games} games differ (policies {policies}, seed {seed}); first is game "
            f"{reference.at[first, 'game_index']}: {detail}")
    assert len(reference) == n_games
    return kernel


@pytest.mark.parametrize("config,policies", [
    ("standard", ("random", "random")),
    ("standard", ("greedy", "random")),
    ("standard", ("random", "greedy")),
    ("publisher", ("greedy", "greedy")),
    ("variant_a", ("random", "random")),
    ("variant_b", ("greedy", "random")),
    ("variant_c", ("random", "random")),
])
def test_reference_equals_kernel(config, policies):
    kernel = assert_same_games(CONFIGS[config], seed=2024, n_games=2_000, policies=policies)
    # the configuration's effects really happen in these games
    if CONFIGS[config].effect_3 != "off":
        assert kernel[["trades_0", "trades_1"]].to_numpy().sum() > 0
    if CONFIGS[config].effect_1 != "off":
        assert kernel[["steals_0", "steals_1"]].to_numpy().sum() > 0
    assert kernel["destroyed_tricks"].sum() > 0


@pytest.mark.parametrize("config,policies", [
    ("standard", ("lookahead:3", "greedy")),
    ("standard", ("random", "lookahead:2")),
    ("variant_a", ("lookahead:2", "lookahead:3")),
    ("variant_b", ("greedy", "lookahead:2")),
])
def test_reference_equals_kernel_lookahead(config, policies):
    rules = CONFIGS[config].replace(max_rounds=2)
    assert_same_games(rules, seed=77, n_games=25, policies=policies)


@pytest.mark.parametrize("policies", [("greedy", "random"), ("random", "random")])
def test_round_log_equals_reference(policies):
    """The kernel's per-round log (``round_log``) equals the reference's, row for row."""
    rules = CONFIGS["standard"]
    log = round_log(rules, n_games=200, seed=5, policies=policies)
    rows = []
    for g in range(200):
        for row in ref.play_game(rules, 5, g, policies).round_log:
            rows.append({"game": g, **row})
    expected = pd.DataFrame(rows)
    got = log.drop(columns="policy")
    assert list(got.columns) == list(expected.columns)
    np.testing.assert_array_equal(got.to_numpy(np.int64), expected.to_numpy(np.int64))
