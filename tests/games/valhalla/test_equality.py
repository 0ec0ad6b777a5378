"""Reference <=> kernel equality, game by game (docs/architecture.md decision 1).

For each rule configuration and policy pair, every column of the pure-Python
reference's record (``SPEC.play_reference``) must equal the Numba kernel's
row for the same ``(seed, game index)``.  Both draw from the same streams in
the same order and list options in the canonical order of spec §5, so any
difference is a bug in one of them.

The reference runs about 150 games/s, so each configuration is capped at
2,000 games (the lookahead, far slower in pure Python, at 100).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import toolkit
from valhalla_configs import CONFIGS  # the shared rule configurations, beside this file
from toolkit.core import results
from toolkit.games.valhalla import SPEC

pytestmark = pytest.mark.slow



def reference_frame(rules, seed, n_games, policies, first_game=0) -> pd.DataFrame:
    rows = [SPEC.play_reference(rules, seed, g, policies) for g in range(first_game, first_game + n_games)]
    df = pd.DataFrame(rows, columns=list(SPEC.columns))
    df.insert(0, "game_index", np.arange(first_game, first_game + n_games))
    df.insert(1, "first_seat", results.first_seats(SPEC, lambda c: df[c].to_numpy()))  # derived, as in to_frame
    return df


def kernel_frame(rules, seed, n_games, policies, first_game=0) -> pd.DataFrame:
    df = toolkit.simulate("valhalla", rules=rules, n_games=n_games, seed=seed, policies=policies,
                          first_game=first_game, progress=False)
    df["result"] = df["result"].cat.codes.astype(np.int64)  # the reference gives the code
    return df


def assert_same_games(rules, seed, n_games, policies, first_game=0):
    ref = reference_frame(rules, seed, n_games, policies, first_game)
    ker = kernel_frame(rules, seed, n_games, policies, first_game)
    assert list(ker.columns) == list(ref.columns)
    a = ref.to_numpy(np.int64)
    b = ker.to_numpy(np.int64)
    differ = a != b
    if differ.any():
        rows = np.flatnonzero(differ.any(axis=1))
        first = rows[0]
        cols = [c for c, d in zip(ref.columns, differ[first]) if d]
        detail = ", ".join(f"{c}: reference {ref.at[first, c]} kernel {ker.at[first, c]}" for c in cols)
        raise AssertionError(
            f"{len(rows)} of {n_games} games differ (policies {policies}, seed {seed}); first is game "
            f"{ref.at[first, 'game_index']}: {detail}")
    # the configuration must actually be exercised
    assert len(ref) == n_games


@pytest.mark.parametrize("config,policies", [
    ("standard", ("random", "random")),
    ("standard", ("greedy", "random")),
    ("alternative", ("random", "random")),
    ("variant_a", ("random", "random")),
    ("variant_b", ("random", "random")),
])
def test_reference_equals_kernel(config, policies):
    assert_same_games(CONFIGS[config], seed=2024, n_games=2_000, policies=policies)


@pytest.mark.parametrize("policies", [("greedy", "lookahead"), ("lookahead", "greedy")])
def test_reference_equals_kernel_lookahead(policies):
    assert_same_games(CONFIGS["standard"], seed=77, n_games=100, policies=policies)


def test_reference_equals_kernel_lookahead_extra_throws():
    """The lookahead's DP-2 decision (optional extra throws) agrees too."""
    assert_same_games(CONFIGS["alternative"], seed=78, n_games=40, policies=("lookahead", "random"))


def test_reference_equals_kernel_far_game_indices():
    """Large seeds and game indices (uint64 wrap-around in the stream derivation)."""
    assert_same_games(CONFIGS["standard"], seed=2**63 - 1, n_games=100, policies=("random", "greedy"),
                      first_game=10**12)


def test_variants_exercise_their_rules():
    """Guard: the variants reach the paths they are meant to test (else equality proves little)."""
    a = toolkit.simulate("valhalla", rules=CONFIGS["variant_a"], n_games=2_000, seed=2024, progress=False)
    assert a["backward_moves_0"].sum() > 0 and a["dock_releases_0"].sum() > 0
    assert a["captures_0"].sum() > 0 and a["rock_hits_0"].sum() > 0
    b = toolkit.simulate("valhalla", rules=CONFIGS["variant_b"], n_games=2_000, seed=2024, progress=False)
    assert (b["result"] == "aborted").any() and (b["result"] == "win").any()
    assert b["extra_throws_0"].sum() > 0
    alt = toolkit.simulate("valhalla", rules=CONFIGS["alternative"], n_games=2_000, seed=2024, progress=False)
    assert alt["extra_throws_0"].sum() > 0 and alt["start_throws"].sum() > 0
