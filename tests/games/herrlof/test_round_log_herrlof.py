"""Herrlof's per-round log (``toolkit.games.herrlof.round_log``, its own kernel driver) equals the
reference's, row for row.  The result rows' equality is the conformance suite's
(``tests/conformance/test_equality.py``, cases in ``herrlof_configs.py``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from herrlof_configs import CONFIGS  # the shared rule configurations, beside this file
from toolkit.games.herrlof import reference as ref
from toolkit.games.herrlof import round_log

pytestmark = pytest.mark.slow


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
