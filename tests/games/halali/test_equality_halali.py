"""Reference <=> kernel equality, game by game (docs/architecture.md decision 1).

For each rule configuration and policy pair, every column of the pure-Python
reference's record must equal the Numba kernel's row for the same
``(seed, game index)``; the kernel runs with its §7 checks on.  Both draw
from the same streams in the same order and list options in the canonical
order of spec §5, so any difference is a bug in one of them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import toolkit
from halali_configs import CONFIGS  # the shared rule configurations, beside this file
from toolkit.games.halali import SPEC

pytestmark = pytest.mark.slow


def reference_frame(rules, seed, n_games, policies) -> pd.DataFrame:
    rows = [SPEC.play_reference(rules, seed, g, policies) for g in range(n_games)]
    return pd.DataFrame(rows, columns=list(SPEC.columns))


def kernel_frame(rules, seed, n_games, policies) -> pd.DataFrame:
    df = toolkit.simulate("halali", rules=rules, n_games=n_games, seed=seed, policies=policies, progress=False,
                          check=True)
    for column in SPEC.categories:  # the reference gives the codes
        df[column] = df[column].cat.codes.astype(np.int64)
    return df[list(SPEC.columns)]


def assert_same_games(rules, seed, n_games, policies):
    reference = reference_frame(rules, seed, n_games, policies)
    kernel = kernel_frame(rules, seed, n_games, policies)
    a = reference.to_numpy(np.int64)
    b = kernel.to_numpy(np.int64)
    differ = a != b
    if differ.any():
        rows = np.flatnonzero(differ.any(axis=1))
        first = rows[0]
        cols = [c for c, d in zip(reference.columns, differ[first]) if d]
        detail = ", ".join(f"{c}: reference {reference.at[first, c]} kernel {kernel.at[first, c]}" for c in cols)
        raise AssertionError(f"{len(rows)} of {n_games} games differ (policies {policies}, seed {seed}); "
                             f"first is game {first}: {detail}")
    return kernel


@pytest.mark.parametrize("config,policies", [
    ("standard", ("random", "random")),
    ("standard", ("greedy", "random")),
    ("variant_a", ("random", "random")),
    ("variant_b", ("random", "greedy")),
    ("variant_c", ("random", "random")),
])
def test_reference_equals_kernel(config, policies):
    kernel = assert_same_games(CONFIGS[config], seed=2024, n_games=1_000, policies=policies)
    assert kernel[[c for c in kernel.columns if c.startswith("captures_")]].to_numpy().sum() > 0


@pytest.mark.parametrize("policies", [("greedy", "lookahead"), ("lookahead", "greedy")])
def test_reference_equals_kernel_lookahead(policies):
    assert_same_games(CONFIGS["standard"], seed=77, n_games=100, policies=policies)


def test_reference_equals_kernel_lookahead_variant():
    assert_same_games(CONFIGS["variant_c"], seed=78, n_games=40, policies=("lookahead", "random"))
