"""Play on until settled (issue 50): an always-valid interval read after every batch keeps its error rate,
the verdicts follow the interval and the tolerance, and the batches played are the games of one run."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.analysis import settle as settling
from toolkit.analysis.settle import MOVED, OPEN, WITHIN, Settler, fixed_sample_margin

LABEL = "the first player's win rate"


def _looks(n_max: int, first: int) -> list[int]:
    return settling.looks(first, n_max)


def _run(a: np.ndarray, b: np.ndarray, looks, margin=settling.always_valid_margin, tolerance=None) -> dict:
    """One comparison read after every batch, stopped at its first settled look: the last table's row."""
    settler = Settler("first_player_win_rate", tolerance, t_opt=np.sqrt(looks[0] * looks[-1]), paired=False,
                      margin=margin)
    start = 0
    for end in looks:
        settler.add({"first_player_win_rate": (LABEL, True, a[start:end], b[start:end])})
        start = end
        if settler.settled:
            break
    return settler.table().iloc[0].to_dict()


def _aa_rate(margin, reps: int = 1000, n_max: int = 20_000, first: int = 500) -> float:
    """The share of A/A comparisons (two fair coins per game, nothing changed) read "moved"."""
    rng = np.random.default_rng(20261206)
    looks = _looks(n_max, first)
    moved = 0
    for _ in range(reps):
        a = (rng.random(n_max) < 0.5).astype(float)
        b = (rng.random(n_max) < 0.5).astype(float)
        moved += _run(a, b, looks, margin)["verdict"] == MOVED
    return moved / reps


def test_looking_after_every_batch_keeps_the_error_rate_only_with_the_always_valid_interval():
    """1,000 A/A comparisons of win/loss games, read after each of 10 batches (500 .. 20,000 games a side)
    and stopped at the first settled look: the always-valid interval says "moved" in at most 5% of them;
    the fixed-sample 95% interval read the same way (the negative control, and the break of replacing the
    one by the other) says it far more often."""
    always = _aa_rate(settling.always_valid_margin)
    fixed = _aa_rate(fixed_sample_margin)
    assert always <= 0.05, always
    assert fixed > 0.10, fixed  # 0.277 here (and 0.012 for the always-valid one): the repeated looking it pays for


def test_a_known_difference_is_found_and_its_direction_kept():
    """A change of +0.05 and one of -0.05 in a win rate are both "moved", each in its own direction (a
    verdict read from one side of the interval only finds one of them)."""
    rng = np.random.default_rng(7)
    looks = _looks(40_000, 2_000)
    for shift in (0.05, -0.05):
        a = (rng.random(40_000) < 0.5).astype(float)
        b = (rng.random(40_000) < 0.5 + shift).astype(float)
        row = _run(a, b, looks)
        assert row["verdict"] == MOVED, (shift, row)
        assert np.sign(row["difference"]) == np.sign(shift) and row["games"] < 40_000
        assert row["ci_low"] > 0 if shift > 0 else row["ci_high"] < 0


def test_within_tolerance_needs_the_whole_interval_inside_it():
    """The same games: with a tolerance of 0.05 an unchanged rate settles as "within tolerance"; with 0.002
    the interval never fits inside it, so the budget is spent and nothing is claimed (a tolerance ignored,
    or an interval's one end compared with it, says "within" in both)."""
    rng = np.random.default_rng(11)
    looks = _looks(20_000, 2_000)
    a = (rng.random(20_000) < 0.5).astype(float)
    b = (rng.random(20_000) < 0.5).astype(float)
    wide = _run(a, b, looks, tolerance=0.05)
    assert wide["verdict"] == WITHIN and -0.05 <= wide["ci_low"] and wide["ci_high"] <= 0.05
    narrow = _run(a, b, looks, tolerance=0.002)
    assert narrow["verdict"] == OPEN and narrow["games"] == 20_000
    assert narrow["ci_low"] < -0.002 or narrow["ci_high"] > 0.002


def test_the_interval_is_wider_than_a_fixed_samples_and_narrows_with_games():
    """At 1,000 games the always-valid half-width is about 1.55 times the fixed-sample 95% one when it is
    tuned for 1,000 games, and it shrinks as games are added."""
    from toolkit.core.stats import always_valid_margin

    ratio = always_valid_margin(1000, 1.0, 0.05, 1000) / fixed_sample_margin(1000, 1.0)
    assert 1.5 < ratio < 1.6, ratio
    widths = always_valid_margin(np.array([1_000, 10_000, 100_000]), 1.0, 0.05, 10_000)
    assert widths[0] > widths[1] > widths[2]


def test_settle_plays_the_games_of_one_run_and_stops_when_settled():
    """Pig with a head start of 2 points for the second seat, against the standard rules, on different seeds:
    settle() stops at its first settled look, and its numbers are those of a Settler fed one run of each
    side cut at the same batches (game g depends only on the seed and g)."""
    import toolkit
    from toolkit.analysis.settle import quantities_of, settle

    table = settle("pig", {"second_player_bonus": 2}, baseline_seed=1, max_games=60_000, progress=False)
    games = table.attrs["games"]
    assert table.attrs["settled"] and games < 60_000 and table.loc[0, "verdict"] == MOVED
    assert table.loc[0, "difference"] < 0 and not table.attrs["paired"]
    before = toolkit.simulate("pig", n_games=games, seed=1, progress=False)
    now = toolkit.simulate("pig", {"second_player_bonus": 2}, n_games=games, seed=0, progress=False)
    settler = Settler(None, None, t_opt=np.sqrt(settling.FIRST_BATCH * 60_000), paired=False)
    start = 0
    for end in table.attrs["looks"]:
        settler.add(quantities_of(before.iloc[start:end], now.iloc[start:end]))
        start = end
    again = settler.table()
    assert again.loc[0, ["difference", "ci_low", "ci_high"]].tolist() == \
        table.loc[0, ["difference", "ci_low", "ci_high"]].tolist()
    assert table.loc[0, "sentence"].startswith("the change moved the first player's win rate from")
    assert f"settled after {games:,} games a side" in table.loc[0, "sentence"]


def test_the_same_rules_on_the_same_seeds_settle_as_no_change_at_once():
    """Common seeds and nothing changed: every game is the same, so the first look settles "within
    tolerance" (not "moved", and not a budget spent)."""
    from toolkit.analysis.settle import settle

    table = settle("pig", max_games=10_000, quantities="all", progress=False)
    assert table.attrs["games"] == settling.FIRST_BATCH and table.attrs["paired"]
    assert set(table["verdict"]) == {WITHIN}
    assert (table["difference"] == 0).all()


def test_a_budget_spent_says_so_and_claims_nothing():
    """A change too small for the budget: "not settled", the budget named, and the interval given."""
    from toolkit.analysis.settle import settle

    table = settle("pig", {"second_player_bonus": 1}, baseline_seed=1, max_games=4_000, progress=False)
    row = table.iloc[0]
    assert row["verdict"] == OPEN and not table.attrs["settled"] and table.attrs["games"] == 4_000
    assert row["sentence"].startswith("not settled after 4,000 games a side (the budget was 4,000)")
    assert row["ci_low"] < 0 < row["ci_high"]


@pytest.mark.parametrize("kwargs, named", [
    ({"max_games": 1_000}, "max_games=1000"),
    ({"first_batch": 1}, "first_batch=1"),
    ({"alpha": 1.5}, "alpha=1.5"),
    ({"tolerance": -0.1}, "tolerance=-0.1"),
    ({"quantities": "turnz"}, "quantities='turnz'"),
    ({"tolerance": {"duration_turns": 1.0}}, "tolerance={'duration_turns'"),
])
def test_a_bad_argument_is_named_before_any_game(kwargs, named):
    from toolkit.analysis.settle import settle

    with pytest.raises(ValueError) as error:
        settle("pig", **kwargs, progress=False)
    assert str(error.value).startswith(named)


def test_a_rate_seen_exactly_unchanged_is_settled_only_as_far_as_one_differing_game_allows():
    """Neither side drew in 2,000 games: the interval is not a point (a variance of zero would claim any
    tolerance at all), but it is narrow enough for a tolerance of 0.01 and too wide for one of 0.0005."""
    zeros = np.zeros(2_000)
    rows = {}
    for tolerance in (0.01, 0.0005):
        settler = Settler("no_winner_share", tolerance, t_opt=2_000)
        settler.add({"no_winner_share": ("share of games with no single winner", True, zeros, zeros)})
        rows[tolerance] = settler.table().iloc[0]
    assert rows[0.01]["verdict"] == WITHIN and rows[0.0005]["verdict"] == OPEN
    assert 0 < rows[0.0005]["ci_high"] < 0.01
