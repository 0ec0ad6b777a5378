"""Tests for ``toolkit.core.runner``: summary mode, flat memory, errors, check mode, no recompiles."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.core import stats
from toolkit.core.runner import Summary
from toolkit.games.valhalla import kernel
from toolkit.games.valhalla.rules import Rules

N = 6_000
SEED = 21


@pytest.fixture(scope="module", params=[("standard", "random"), ("alternative", "greedy,random")],
                ids=["standard", "alternative"])
def both(request):
    preset, policies = request.param
    kwargs = dict(n_games=N, seed=SEED, preset=preset, policies=policies, progress=False)
    games = toolkit.simulate("valhalla", keep="games", **kwargs)
    # an odd chunk size so the summary folds several partial chunks
    summary = toolkit.simulate("valhalla", keep="summary", chunk_size=1_777, **kwargs)
    return games, summary


# ---------------------------------------------------------------- keep="summary" == keep="games"


def test_summary_type_and_count(both):
    games, summary = both
    assert isinstance(summary, Summary)
    assert summary.n_games == len(games) == N
    assert summary.attrs == games.attrs


def test_summary_sums_equal_frame(both):
    games, summary = both
    for i, c in enumerate(summary.columns):
        col = games[c].cat.codes if isinstance(games[c].dtype, pd.CategoricalDtype) else games[c]
        values = col.to_numpy(np.float64)
        assert summary.sums[i] == values.sum(), c
        assert summary.sums_sq[i] == (values * values).sum(), c


def test_summary_win_rates_equal_frame(both):
    games, summary = both
    expected = toolkit.win_rates(games)
    got = summary.win_rates()
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)
    assert got["wins"].sum() == (games["winner"] >= 0).sum()


@pytest.mark.parametrize("column", ["turns", "plies", "start_seat", "winner", "score_0", "score_1"])
def test_summary_histograms_equal_frame(both, column):
    games, summary = both
    hist = summary.histogram(column)
    counts = games[column].value_counts()
    expected = pd.Series(0, index=hist.index, dtype=np.int64)
    expected.loc[counts.index] = counts.to_numpy()
    assert hist.sum() == N
    np.testing.assert_array_equal(hist.to_numpy(), expected.to_numpy())


def test_summary_means_equal_frame(both):
    games, summary = both
    means = summary.means()
    for c in ["turns", "plies", "throws_0", "throws_1", "score_0", "score_1", "captures_0", "win_0"]:
        mean, se = stats.mean_se(games[c])
        assert means.loc[c, "mean"] == pytest.approx(mean, rel=1e-12)
        assert means.loc[c, "se"] == pytest.approx(se, rel=1e-8)


def test_summary_length_equals_frame(both):
    games, summary = both
    length = summary.length("turns")
    turns = games["turns"].to_numpy()
    assert length["mean"] == pytest.approx(turns.mean(), rel=1e-12)
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        assert length[f"q{int(q * 100):02d}"] == np.quantile(turns, q, method="inverted_cdf")


def test_summary_memory_is_flat():
    """A summary holds totals and histograms bounded by the largest value, not one entry per game."""
    small = toolkit.simulate("valhalla", n_games=1_000, seed=1, keep="summary", progress=False)
    big = toolkit.simulate("valhalla", n_games=60_000, seed=1, keep="summary", chunk_size=4_096,
                           progress=False)
    assert big.n_games == 60_000
    assert big.sums.shape == small.sums.shape == (len(big.columns),)
    for c in big.hist_columns:
        assert big.histograms[c].size == int(big.histogram(c).index.max()) + (2 if c == "winner" else 1), c
        # bounded by the value range (turns < max_turns + 1), never by n_games
        assert big.histograms[c].size <= Rules().max_turns + 2, c
    assert big.histograms["turns"].size < 2_000
    # no array attribute grows with the number of games
    for name, value in vars(big).items():
        if isinstance(value, np.ndarray):
            assert value.size < 2_000, name
    assert not any(isinstance(v, pd.DataFrame) for v in vars(big).values())


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("kwargs,name", [
    (dict(game="chess"), "game"),
    (dict(n_games=0), "n_games"),
    (dict(n_games=-5), "n_games"),
    (dict(n_games=2.5), "n_games"),
    (dict(policies="random,clever"), "policy"),
    (dict(policies="bogus"), "policy"),
    (dict(policies=("random", "random", "random")), "policies"),
    (dict(keep="all"), "keep"),
    (dict(threads=0), "threads"),
    (dict(threads=10_000), "threads"),
    (dict(threads=1.5), "threads"),
    (dict(seed=-1), "seed"),
    (dict(seed=2**63), "seed"),
    (dict(chunk_size=-3), "chunk_size"),
    (dict(preset="nope"), "preset"),
])
def test_bad_arguments_raise_value_error_naming_parameter(kwargs, name):
    kwargs = dict(kwargs)
    game = kwargs.pop("game", "valhalla")
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        toolkit.simulate(game, n_games=kwargs.pop("n_games", 10), progress=False, **kwargs)


def test_bad_rules_object_raises():
    with pytest.raises(ValueError, match="rules"):
        toolkit.simulate("valhalla", rules=["throw_mode", "runes"], n_games=10, progress=False)


def test_rules_dict_is_overrides_of_the_preset():
    df = toolkit.simulate("valhalla", rules={"max_turns": 40}, n_games=20, progress=False)
    assert df.attrs["rules"]["max_turns"] == 40 and (df["turns"] <= 40).all()
    with pytest.raises(ValueError, match="max_turns=0"):
        toolkit.simulate("valhalla", rules={"max_turns": 0}, n_games=10, progress=False)


def test_policies_single_name_fills_every_seat():
    df = toolkit.simulate("valhalla", n_games=10, policies="greedy", progress=False)
    assert df.attrs["policies"] == ["greedy", "greedy"]


# ---------------------------------------------------------------- check mode


@pytest.mark.parametrize("preset", ["standard", "alternative"])
def test_check_mode_runs_clean(preset):
    checked = toolkit.simulate("valhalla", n_games=2_000, seed=4, preset=preset, check=True, progress=False)
    plain = toolkit.simulate("valhalla", n_games=2_000, seed=4, preset=preset, progress=False)
    pd.testing.assert_frame_equal(checked, plain)


# ---------------------------------------------------------------- no recompiles


def _signature_counts():
    return len(kernel.play_many.signatures), len(kernel.play_game.signatures)


def test_rule_values_never_recompile():
    """Rules are values (docs/architecture.md decision 3): new rule values add no compiled signature."""
    toolkit.simulate("valhalla", n_games=20, progress=False)  # the random copy (core.driver.Blocks)
    toolkit.simulate("valhalla", n_games=20, progress=False, policies="greedy")  # the plain copy
    toolkit.simulate("valhalla", n_games=20, progress=False, check=True)
    before = _signature_counts()
    assert before[0] >= 1
    variants = [
        Rules.preset("alternative"),
        Rules(safe_squares=frozenset({1, 2, 3, 29})),
        Rules(extra_throw_enabled=True, extra_throw_values=("2", "3"), extra_throw_optional=False),
        Rules(stick_rune_up_probability=0.3),
        Rules(hagalaz_alone_value=-1, backward_rule="one_square", valhalla_entry="direct_off"),
        Rules(ships_per_player=3, start_player_rule="random", max_turns=50),
    ]
    for rules in variants:
        for policies in ("random", "greedy,lookahead"):
            toolkit.simulate("valhalla", rules=rules, n_games=20, policies=policies, progress=False)
        toolkit.simulate("valhalla", rules=rules, n_games=20, check=True, progress=False)
    assert _signature_counts() == before, (
        f"new compiled signatures: play_many {kernel.play_many.signatures}, "
        f"play_game {kernel.play_game.signatures}")
