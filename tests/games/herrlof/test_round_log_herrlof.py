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


def test_round_log_with_a_search_plays_the_games_simulate_plays():
    """A line-up with a tree search runs the log's searching copy (``core.driver.variants``): its games are
    ``toolkit.simulate``'s, game for game (rounds, and each seat's tricks over the rounds).  Negative
    control: the same comparison with ``random`` in the searching seat's place differs."""
    import toolkit

    rules = CONFIGS["standard"]
    policies = ("mcts:30", "greedy")
    log = round_log(rules, n_games=6, seed=11, policies=policies)
    tricks = log.groupby(["game", "seat"])["tricks"].sum().unstack().to_numpy()
    rounds = log.groupby("game")["round"].max().to_numpy()

    def matches(lineup):
        frame = toolkit.simulate("herrlof", rules=rules, n_games=6, seed=11, policies=lineup, progress=False)
        return (np.array_equal(frame[["tricks_won_0", "tricks_won_1"]].to_numpy(), tricks)
                and np.array_equal(frame["rounds"].to_numpy(), rounds))

    assert matches(policies)
    assert not matches(("random", "greedy"))
