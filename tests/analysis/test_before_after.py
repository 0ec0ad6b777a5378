"""The before/after interval where it is computed (:func:`toolkit.analysis.paired.before_after`, the dashboard's
run beside a pinned baseline): on the same seed and the same games, the *paired* interval, from the
per-game differences (95% for the run's four quantities together, issue 50); on another seed, or the same seed's other games, the *unpaired* one; runs of different
lengths compared on the games both played.

The runs are built by hand, ten games whose lengths vary a lot from game to game (60 to 240 turns) while the
change adds 4 to 9 turns to each: the per-game differences have a standard deviation of about 1.7 turns, the
runs about 63, so the paired interval is some fifty times narrower than the unpaired one and swapping them
cannot pass.  The expected numbers are computed here with numpy, not with ``toolkit.core.stats``.

Each test's docstring names the break in ``before_after`` that turns it red (each was made in the source,
seen red, then reverted).
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from toolkit.analysis.paired import before_after

Z95 = NormalDist().inv_cdf(1 - 0.025 / 4)  # the four quantities of these runs held together at 95% (issue 50)
TURNS = np.array([100, 180, 60, 240, 130, 90, 210, 150, 70, 200], dtype=float)
LONGER = np.array([5, 7, 4, 8, 6, 5, 7, 6, 4, 9], dtype=float)  # the turns the change adds to each game
WIN_0 = np.array([1, 0, 1, 1, 0, 1, 0, 0, 1, 1], dtype=float)
WIN_0_NOW = np.array([1, 0, 1, 1, 1, 1, 0, 1, 1, 1], dtype=float)  # games 4 and 7 won by seat 0 now
FIRST = np.array([0, 1] * 5)


def run(win_0, turns, *, seed=1, first_game=0) -> pd.DataFrame:
    """A two-seat run's frame by hand: one row a game, games ``first_game ..`` of ``seed``, every game won."""
    win_0 = np.asarray(win_0, dtype=np.int8)
    frame = pd.DataFrame({"game_index": np.arange(first_game, first_game + len(win_0)), "winner": 1 - win_0,
                          "win_0": win_0, "win_1": 1 - win_0, "turns": np.asarray(turns, dtype=np.int32),
                          "first_seat": np.resize(FIRST, len(win_0))})  # seat 0 first in even games
    frame.attrs["seed"] = seed
    return frame


def paired_interval(before, after) -> tuple[float, float, float]:
    """(mean, low, high) of the per-game differences ``after - before``: mean ± Z95 sd(d) / √n."""
    d = np.asarray(after, float) - np.asarray(before, float)
    half = Z95 * np.std(d, ddof=1) / np.sqrt(d.size)
    return d.mean(), d.mean() - half, d.mean() + half


def unpaired_interval(before, after) -> tuple[float, float, float]:
    """(difference, low, high) of two independent runs: the difference of the means ± Z95 √(var/n + var/n)."""
    before, after = np.asarray(before, float), np.asarray(after, float)
    diff = after.mean() - before.mean()
    half = Z95 * np.sqrt(np.var(before, ddof=1) / before.size + np.var(after, ddof=1) / after.size)
    return diff, diff - half, diff + half


def interval(table, quantity) -> tuple[float, float, float]:
    found = table.set_index("quantity").loc[quantity]
    return found["difference"], found["ci_low"], found["ci_high"]


def test_the_same_seed_and_games_give_the_paired_interval():
    """Same seed, games 0..9 in both: each quantity's interval is the paired one, mean(d) ± Z95 sd(d)/√n, to
    1e-12; the lengths' paired interval is +6.10 [+5.07, +7.13], not the unpaired ±55.8.  Break: ``if not
    same_seed:`` -> ``if True:`` (the unpaired interval on the same seed)."""
    table = before_after(run(WIN_0, TURNS), run(WIN_0_NOW, TURNS + LONGER))
    assert table["paired"].all() and table.attrs["paired"] and table.attrs["games"] == 10
    found = interval(table, "game length (turns)")
    assert found == pytest.approx(paired_interval(TURNS, TURNS + LONGER), abs=1e-12, rel=0)
    assert np.round(found, 2).tolist() == [6.10, 4.79, 7.41]
    # the premise: the unpaired interval of the same data is over fifty times wider (±55.82)
    _, u_low, u_high = unpaired_interval(TURNS, TURNS + LONGER)
    assert round((u_high - u_low) / 2, 2) == 71.13 and (found[2] - found[1]) * 50 < u_high - u_low
    assert interval(table, "seat 0's win rate") == pytest.approx(paired_interval(WIN_0, WIN_0_NOW), abs=1e-12, rel=0)
    assert interval(table, "seat 1's win rate") == pytest.approx(paired_interval(1 - WIN_0, 1 - WIN_0_NOW),
                                                                 abs=1e-12, rel=0)
    # the seat that moved first: seat 0 in even games, seat 1 in odd ones
    first_before = np.where(FIRST == 0, WIN_0, 1 - WIN_0)
    first_now = np.where(FIRST == 0, WIN_0_NOW, 1 - WIN_0_NOW)
    assert interval(table, "the first player's win rate") == pytest.approx(paired_interval(first_before, first_now),
                                                                           abs=1e-12, rel=0)
    row = table.set_index("quantity").loc["game length (turns)"]
    assert (row["baseline"], row["now"]) == (TURNS.mean(), (TURNS + LONGER).mean()) == (143.0, 149.1)
    assert row["measurable"]  # the paired interval excludes 0; the unpaired one (below) does not


def test_other_seeds_give_the_unpaired_interval():
    """The same games on seeds 1 and 2 (independent runs): the interval is the difference of the means
    ± Z95 √(var(a)/n + var(b)/n), to 1e-12, and holds 0.  Break: ``if not same_seed:`` -> ``if False:`` (the
    paired interval on independent runs)."""
    table = before_after(run(WIN_0, TURNS, seed=1), run(WIN_0_NOW, TURNS + LONGER, seed=2))
    assert not table["paired"].any() and not table.attrs["paired"]
    found = interval(table, "game length (turns)")
    assert found == pytest.approx(unpaired_interval(TURNS, TURNS + LONGER), abs=1e-12, rel=0)
    assert found[1] < 0 < found[2] and not table.set_index("quantity").loc["game length (turns)", "measurable"]
    assert interval(table, "seat 0's win rate") == pytest.approx(unpaired_interval(WIN_0, WIN_0_NOW), abs=1e-12,
                                                                 rel=0)


def test_the_same_seeds_other_games_are_not_paired():
    """Both on seed 1, but the run now holds games 10..19: no game has its twin, so the interval is the
    unpaired one.  Break: ``same_seed`` from the seeds alone (the ``game_index`` comparison dropped)."""
    table = before_after(run(WIN_0, TURNS), run(WIN_0_NOW, TURNS + LONGER, first_game=10))
    assert not table.attrs["paired"]
    assert interval(table, "game length (turns)") == pytest.approx(unpaired_interval(TURNS, TURNS + LONGER),
                                                                   abs=1e-12, rel=0)


def test_runs_of_different_lengths_compare_the_games_both_played():
    """A baseline of 12 games (two more, of 1,000 turns, won by seat 1) beside a run of 10: the first 10 of each
    are compared, paired, and the table says how many each had.  Break: the baseline's games taken from its
    end (``baseline.iloc[-games:]``) instead of its start."""
    baseline = run([*WIN_0, 0, 0], [*TURNS, 1000, 1000])
    table = before_after(baseline, run(WIN_0_NOW, TURNS + LONGER))
    assert table.attrs == {"games": 10, "paired": True, "baseline_games": 12, "games_now": 10, "together": 4}
    assert (table["games"] == 10).all()
    assert interval(table, "game length (turns)") == pytest.approx(paired_interval(TURNS, TURNS + LONGER),
                                                                   abs=1e-12, rel=0)
    assert table.set_index("quantity").loc["game length (turns)", "baseline"] == 143.0  # not 285.8 with all 12
    # the other way round: a longer run now, its first 10 games against the baseline's 10
    longer_now = before_after(run(WIN_0, TURNS), run([*WIN_0_NOW, 1, 1], [*(TURNS + LONGER), 5, 5]))
    assert longer_now.attrs == {"games": 10, "paired": True, "baseline_games": 10, "games_now": 12, "together": 4}
    assert interval(longer_now, "seat 0's win rate") == pytest.approx(paired_interval(WIN_0, WIN_0_NOW), abs=1e-12,
                                                                      rel=0)
