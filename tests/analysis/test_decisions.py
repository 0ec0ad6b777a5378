"""Which decisions matter (``toolkit.analysis.decisions``, issue 38): the metric on ratings whose answer is
known in closed form, its sample weights, its reproducibility, its sentences and its command."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from toolkit.analysis import decisions as metric
from toolkit.core import mcts
from toolkit.core.protocol import KernelGame
from toolkit.core.stats import wilson


def rate_by_hand(ratings):
    """A stand-in for ``KernelGame.root_statistics``: option ``i`` of ``n`` rated ``ratings(n)[i]`` (100
    visits each), the pick the best rated; the closed form the metric must then reproduce."""

    def root_statistics(self, policy="mcts:1000", twin=False):
        codes = self.options()
        rated = ratings(len(codes))
        visits = (100,) * len(codes)
        wins = tuple(100.0 * r for r in rated)
        return mcts.RootStatistics(policy, self.seat, tuple(codes), visits, wins, int(np.argmax(rated)))

    return root_statistics


def test_the_impact_of_a_decisive_choice_is_the_gap_to_the_mean(monkeypatch):
    """Pig's decision has two options; rated 1 and 0 (one wins, one loses), a good choice gains exactly
    1 - (1 + 0) / 2 = 0.5 over a random one, no decision is trivial or forced, and with every decision
    alike the interval has no width."""
    monkeypatch.setattr(KernelGame, "root_statistics", rate_by_hand(lambda n: [1.0] + [0.0] * (n - 1)))
    table = metric.decisions("pig", n_games=6, seed=3, progress=False, threads=1)
    row = table.loc["roll or hold"]
    assert row["impact"] == pytest.approx(0.5) and row["impact_low"] == pytest.approx(0.5)
    assert row["trivial"] == 0.0 and row["forced"] == 0.0 and row["decisions"] > 1


def test_options_rated_alike_are_trivial_and_gain_nothing(monkeypatch):
    monkeypatch.setattr(KernelGame, "root_statistics", rate_by_hand(lambda n: [0.4] * n))
    row = metric.decisions("pig", n_games=6, seed=3, progress=False, threads=1).loc["roll or hold"]
    assert row["trivial"] == 1.0 and row["impact"] == pytest.approx(0.0)


def test_a_sample_stands_for_the_decisions_it_was_drawn_from(monkeypatch):
    """Every decision rated alike (0.9 and 0.1: a gain of 0.4): judging every decision and judging one a game
    give the same 0.4, because each judged decision stands for the m / k of its game's decisions of its
    kind it was drawn from (without that weight, one a game would give 0.4 k / m)."""
    monkeypatch.setattr(KernelGame, "root_statistics", rate_by_hand(lambda n: [0.9] + [0.1] * (n - 1)))
    every = metric.decisions("pig", n_games=8, seed=5, per_kind=10_000, progress=False, threads=1)
    one = metric.decisions("pig", n_games=8, seed=5, per_kind=1, progress=False, threads=1)
    assert one.loc["roll or hold", "impact"] == pytest.approx(every.loc["roll or hold", "impact"]) == pytest.approx(0.4)
    assert one.loc["roll or hold", "with_choice"] > 10  # so one a game is a real sample, not every decision


def test_the_same_seed_gives_the_same_table_on_any_number_of_threads():
    a = metric.decisions("pig", n_games=12, seed=7, judge="mcts:40", progress=False, threads=1)
    b = metric.decisions("pig", n_games=12, seed=7, judge="mcts:40", progress=False, threads=2)
    pd.testing.assert_frame_equal(a, b)
    c = metric.decisions("pig", n_games=12, seed=8, judge="mcts:40", progress=False, threads=2)
    assert not a.equals(c)  # the negative control: another seed, other games


@pytest.mark.parametrize("kwargs, message", [({"judge": "greedy"}, "judge='greedy' is not allowed"),
                                             ({"epsilon": 1.5}, "epsilon=1.5 is not allowed"),
                                             ({"per_kind": 0}, "per_kind=0 is not allowed"),
                                             ({"n_games": 1}, "n_games=1 is not allowed")])
def test_bad_settings_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        metric.decisions("pig", progress=False, **{"n_games": 4, **kwargs})


def table(rows, n_games=1000, games=None):
    frame = pd.DataFrame(rows, columns=["kind", "decisions", "with_choice", "impact", "impact_low", "impact_high"])
    frame = frame.set_index("kind")
    frame["games"] = n_games if games is None else games  # the games in which each kind came up with a choice
    frame.attrs.update(title="Toy", n_games=n_games, judge="mcts:200", forced_all=(0.38, 0.36, 0.40))
    return frame


def test_the_sentence_names_a_kind_only_where_the_intervals_tell_it_apart():
    clear = metric.answer(table([("move", 50, 40, 0.07, 0.06, 0.08), ("extra throw", 5, 5, 0.02, 0.01, 0.03)]))
    assert "In Toy, 38% of decisions are forced [95% CI 36%, 40%]." in clear
    assert "The choice at a move decision matters most: +0.070" in clear
    close = metric.answer(table([("move", 50, 40, 0.05, 0.03, 0.07), ("extra throw", 5, 5, 0.045, 0.025, 0.065)]))
    assert "matters most" not in close and "not enough to tell it from extra throw" in close
    assert "games would tell" in close
    cut = metric.answer(table([("move", 50, 40, 0.07, 0.06, 0.08), ("extra throw", 5, 5, 0.002, -0.001, 0.005)]))
    assert "An extra throw decision gains at most +0.005" in cut and "could cut it" in cut
    assert "could cut it" not in clear  # the negative control: an upper bound of 0.03 is no proof of nothing


def test_a_kind_too_rare_to_judge_gets_no_claim():
    """A kind that came up with a choice in fewer than MIN_GAMES games: its interval from a handful of
    clusters says nothing, so the sentences say how rare it was and neither cut it nor rank it."""
    rows = [("move", 50, 40, 0.07, 0.06, 0.08), ("extra throw", 0.01, 0.01, 0.002, -0.001, 0.005)]
    rare = metric.answer(table(rows, games=[1000, metric.MIN_GAMES - 1]))
    assert f"An extra throw decision with a choice came up in only {metric.MIN_GAMES - 1} of 1,000 games" in rare
    assert "could cut it" not in rare and "matters most" not in rare
    assert "Choosing well at a move decision gains +0.070" in rare  # the one kind left to judge
    judged = metric.answer(table(rows, games=[1000, metric.MIN_GAMES]))  # the control: at the bar it is judged
    assert "could cut it" in judged and "too few to judge" not in judged


def test_a_share_of_none_or_all_keeps_an_interval_within_0_and_1():
    """No game with a forced decision: the games' residuals are all 0 and the ratio estimator alone would
    give [0, 0]; the share's interval is the pooled count's Wilson interval there, and never leaves [0, 1]."""
    none = metric._share(np.zeros(100), np.full(100, 70.0), 7000)
    assert none[0] == 0.0 and none[1] == 0.0 and 0.0 < none[2] == pytest.approx(wilson(0, 7000)[2])
    assert metric._ratio(np.zeros(100), np.full(100, 70.0))[2] == 0.0  # the control: what the widening is for
    every = metric._share(np.full(100, 3.0), np.full(100, 3.0), 300)
    assert every[0] == 1.0 and every[2] == 1.0 and every[1] == pytest.approx(wilson(300, 300)[1])
    few = metric._share(np.array([1.0, 0, 0, 0, 0]), np.array([1.0, 1, 1, 1, 0]), 4)  # 1 of 4, wide both ways
    assert 0.0 <= few[1] < 0.25 < few[2] <= 1.0 and metric._ratio(np.array([1.0, 0, 0, 0, 0]),
                                                                  np.array([1.0, 1, 1, 1, 0]))[1] < 0.0


def test_the_command_prints_the_table_and_its_sentence(tmp_path):
    out = tmp_path / "pig.csv"
    run = subprocess.run([sys.executable, "-m", "toolkit.cli", "decisions", "pig", "-n", "20", "--judge", "mcts:40",
                          "--no-progress", "-o", str(out)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "roll or hold" in run.stdout and "In Pig," in run.stdout
    saved = pd.read_csv(out, index_col=0)
    assert saved.loc["roll or hold", "forced"] == 0.0 and 0.0 < saved.loc["roll or hold", "impact_high"] < 1.0
    bad = subprocess.run([sys.executable, "-m", "toolkit.cli", "decisions", "pig", "--judge", "lookahead"],
                         capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "judge='lookahead' is not allowed" in bad.stderr
