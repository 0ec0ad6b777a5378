"""Statistical tests with fixed seeds (deterministic) for Halali's policies and chance.

- ``greedy`` and ``lookahead`` beat ``random`` with 95% confidence as Blue and as Brown;
- under ``first_player = random`` each colour starts half of the games (H-1.4);
- hunters face each direction a quarter of the time (H-1.2), seen through the
  reference setup.
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.core import stats
from toolkit.core.rng import Stream
from toolkit.games.halali import reference as ref
from toolkit.games.halali.rules import HUNTER, Rules


@pytest.mark.parametrize("policy,n_games", [("greedy", 2_000), ("lookahead", 1_000)])
@pytest.mark.parametrize("seat", [0, 1])
def test_policy_beats_random(policy, n_games, seat):
    policies = ["random", "random"]
    policies[seat] = policy
    df = toolkit.simulate("halali", Rules(), n_games, seed=201, policies=policies, progress=False)
    rate, low, high = stats.wilson(int((df["winner"] == seat).sum()), n_games)
    assert low > 0.5, f"{policy} in seat {seat}: {rate:.3f} [{low:.3f}, {high:.3f}]"


def test_random_first_player_is_fair():
    df = toolkit.simulate("halali", Rules(first_player="random"), 20_000, seed=202, progress=False)
    share = df["first_player"].mean()
    assert abs(share - 0.5) < 4.5 * np.sqrt(0.25 / 20_000)


def test_hunter_directions_are_uniform():
    counts = np.zeros(4)
    for g in range(500):
        st = ref.setup(Rules(), Stream(203, g, 0))
        for t in st.grid:
            if t is not None and t.kind == HUNTER:
                counts[t.dir] += 1
    expected = counts.sum() / 4
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 16.3  # the 0.999 quantile of chi-square with 3 degrees of freedom
