"""Which decisions matter (``toolkit.analysis.decisions``, issue 38): the metric on ratings whose answer is
known in closed form, its sample weights, its reproducibility, its sentences and its command."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy.stats import t as student_t

from toolkit.analysis import decisions as metric
from toolkit.core import mcts
from toolkit.core.protocol import KernelGame
from toolkit.core.stats import Z95, wilson


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


def test_a_pick_the_rater_never_played_is_searched_not_rated_at_the_best(monkeypatch):
    """Issue 50: where the rating search never played the first search's pick, the pick was rated at the
    rater's best option (the maximum of the noise back in the gain).  By hand: the first search picks option
    1, the rater rates option 0 at 0.9 and never plays option 1; the gain is then what a search after the pick
    gives (0.3 here, by hand) less the rated mean, 0.3 - 0.9, not 0.9 - 0.9."""
    calls = []

    def root_statistics(self, policy="mcts:1000", twin=False):
        codes = self.options()
        calls.append(len(calls))
        if len(calls) == 1:  # the first search: option 1 picked
            return mcts.RootStatistics(policy, self.seat, tuple(codes), (10, 90), (1.0, 27.0), 1)
        return mcts.RootStatistics(policy, self.seat, tuple(codes), (100, 0), (90.0, 0.0), 0)  # the rater

    monkeypatch.setattr(KernelGame, "root_statistics", root_statistics)
    searched = []
    monkeypatch.setattr(metric, "_rated_after", lambda rater, code, judge, seat: searched.append(code) or 0.3)
    game = KernelGame(metric.get_spec("pig").kernel, metric.get_spec("pig").Rules(), ("random", "random"), 0, 0)
    while game.advance() >= 0 and len(game.options()) < 2:
        game.apply(game.options()[0])
    trivial, impact = metric._judge(game, "mcts:200", 0.02)
    assert searched == [game.options()[1]] and impact == pytest.approx(0.3 - 0.9) and not trivial


def test_the_value_after_a_pick_that_ends_the_game_is_its_result():
    """``_rated_after`` on Pig (target 10): at every decision, an option that ends the game is worth the
    deciding seat's result (1: a hold that reaches the target), from a copy (the game is left as it was);
    an option that does not end it is worth a search's value, a probability."""
    spec = metric.get_spec("pig")
    seen = {"ended": 0, "searched": 0}
    for index in range(6):
        game = KernelGame(spec.kernel, spec.Rules(target=10), ("random", "random"), 1, index)
        while game.advance() >= 0:
            for code in game.options():
                after = game.copy()
                after.apply(code)
                before = game.st.copy()
                value = metric._rated_after(game, code, "mcts:20", game.seat)
                assert (game.st == before).all()
                if after.advance() < 0:
                    assert value == after.returns()[game.seat]
                    seen["ended"] += 1
                else:
                    assert 0.0 <= value <= 1.0
                    seen["searched"] += 1
            game.apply(game.options()[game.choose()])
    assert seen["ended"] >= 3 and seen["searched"] >= 10


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


def test_a_cancel_stops_a_game_at_its_next_judged_decision(monkeypatch):
    """A game judged to the end can take seconds (searches played out to the end); the dashboard's cancel
    once waited for it (a browser test on CI saw 2 s go by).  Cancelled during its first judged decision, a
    game is not judged on: two searches (the pick's and the rater's), not every decision of the game."""
    from toolkit.core import jobs

    job, calls = jobs.Job(), []
    rated = rate_by_hand(lambda n: [0.9] + [0.1] * (n - 1))

    def root_statistics(self, policy="mcts:1000", twin=False):
        calls.append(policy)
        job.cancel()
        return rated(self, policy, twin)

    monkeypatch.setattr(KernelGame, "root_statistics", root_statistics)
    with jobs.running(job), pytest.raises(jobs.Cancelled):
        metric.decisions("pig", n_games=2, seed=5, per_kind=10_000, progress=False, threads=1)
    assert len(calls) == 2
    calls.clear()  # the control: the same game not cancelled judges every one of its decisions
    monkeypatch.setattr(job, "cancel", lambda: None)
    metric.decisions("pig", n_games=2, seed=5, per_kind=10_000, progress=False, threads=1)
    assert len(calls) > 20


def test_a_cancel_stops_a_game_while_it_is_played_before_any_judging(monkeypatch):
    """The game is played to its end before its decisions are judged; with a searching seat that takes
    seconds, and CI's browser test saw a cancel wait over 2 s.  Cancelled at its 5th decision, the game stops at
    the next one; the control: not cancelled, it plays on to its end (many more decisions)."""
    from toolkit.core import jobs

    job, chosen = jobs.Job(), []
    choose = KernelGame.choose

    def counting(self):
        chosen.append(1)
        if len(chosen) == 5:
            job.cancel()
        return choose(self)

    monkeypatch.setattr(KernelGame, "choose", counting)
    monkeypatch.setattr(KernelGame, "root_statistics", rate_by_hand(lambda n: [0.9] + [0.1] * (n - 1)))
    with jobs.running(job), pytest.raises(jobs.Cancelled):
        metric.decisions("valhalla", n_games=2, seed=5, progress=False, threads=1)
    assert len(chosen) == 5
    chosen.clear()
    monkeypatch.setattr(job, "cancel", lambda: None)  # the control
    metric.decisions("valhalla", n_games=2, seed=5, progress=False, threads=1)
    assert len(chosen) > 100


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


COLUMNS = ["kind", "decisions", "with_choice", "impact", "impact_low", "impact_high", "game_impact", "game_impact_low",
           "game_impact_high"]


def table(rows, n_games=1000, games=None):
    """A decisions table by hand: rows of ``COLUMNS``; a row without the last three gets a game impact of
    its impact times its decisions with a choice (the interval likewise)."""
    rows = [r if len(r) == len(COLUMNS) else (*r, *(v * r[2] for v in r[3:6])) for r in rows]
    frame = pd.DataFrame(rows, columns=COLUMNS).set_index("kind")
    frame["games"] = n_games if games is None else games  # the games in which each kind came up with a choice
    frame.attrs.update(title="Toy", n_games=n_games, judge="mcts:200", forced_all=(0.38, 0.36, 0.40))
    return frame


def corrected(m, n=1000):
    """How much wider a 95% t interval over ``n`` games gets when ``m`` are read at once (Bonferroni)."""
    return student_t.ppf(1 - 0.025 / m, n - 1) / student_t.ppf(0.975, n - 1)


def test_the_sentence_names_a_kind_only_where_the_intervals_tell_it_apart():
    clear = metric.answer(table([("move", 50, 40, 0.07, 0.06, 0.08), ("extra throw", 5, 5, 0.02, 0.01, 0.03)]))
    assert "In Toy, over 1,000 games, 38% of decisions are forced [95% CI 36%, 40%]." in clear
    assert "The choice at a move decision matters most: +0.070" in clear
    close = metric.answer(table([("move", 50, 40, 0.05, 0.03, 0.07), ("extra throw", 5, 5, 0.045, 0.025, 0.065)]))
    assert "matters most" not in close and "not enough to tell it from extra throw (+0.045)" in close
    # n * ((half_move + half_throw) / gap) ** 2, the halves widened for 2 kinds: 1,000 * (0.04 c / 0.005) ** 2
    assert f"about {int(np.ceil(1000 * (0.04 * corrected(2) / 0.005) ** 2 / 100) * 100):,} games would tell" in close


def test_the_kinds_it_cannot_be_told_from_are_those_whose_intervals_overlap():
    """Three kinds: A is told apart from B, the runner-up by estimate, but not from C, whose interval is wide;
    the sentence names C alone, and the games that would tell are counted against C."""
    rows = [("A", 10, 10, 0.10, 0.09, 0.11), ("B", 10, 10, 0.05, 0.045, 0.055), ("C", 10, 10, 0.04, -0.03, 0.11)]
    said = metric.answer(table(rows))
    need = 1000 * ((0.01 + 0.07) * corrected(3) / 0.06) ** 2
    assert "The A decision has the largest estimated impact (+0.100 [+0.090, +0.110]), but 1,000 games are not " \
           f"enough to tell it from C (+0.040); about {int(np.ceil(need / 100) * 100):,} games would tell." in said
    assert "B (+0.050)" not in said
    narrow = metric.answer(table(rows[:2] + [("C", 10, 10, 0.04, 0.03, 0.05)]))  # the control: C narrow as well
    assert "The choice at an A decision matters most: +0.100" in narrow


def test_a_kind_is_called_busywork_only_by_what_it_gains_over_a_whole_game():
    """"Could cut" asks the upper bound of the kind's gains summed over a game, corrected for the kinds
    judged, to be below MEANINGLESS: a kind worth little a decision but met 40 times a game is not busywork."""
    move = ("move", 50, 40, 0.07, 0.06, 0.08)
    cut = metric.answer(table([move, ("extra throw", 5, 0.5, 0.004, 0.0, 0.012, 0.002, -0.002, 0.006)]))
    widened = 0.002 + 0.004 * corrected(2)
    assert f"Choosing well at every extra throw decision of a game gains at most {widened:+.3f} win probability" in cut
    assert "corrected for the 2 kinds judged" in cut and "could cut it" in cut
    often = metric.answer(table([move, ("extra throw", 5, 40, 0.002, -0.001, 0.005, 0.08, -0.04, 0.2)]))
    assert "could cut it" not in often  # the control: +0.005 a decision at most, but 40 of them a game
    uncorrected = metric.answer(table([move, ("extra throw", 5, 0.5, 0.004, 0.0, 0.012, 0.002, -0.002, 0.0095)]))
    assert "could cut it" not in uncorrected  # below 0.01 alone, not once widened for the two kinds compared
    # small by the estimate but not shown small: said as a possibility, with its corrected bound and the games
    # that would show it: n * ((upper - g) / (0.01 - g)) ** 2
    upper = 0.002 + 0.0075 * corrected(2)
    need = int(np.ceil(1000 * ((upper - 0.002) / 0.008) ** 2 / 100) * 100)
    assert (f"The extra throw decision may be busywork: its gains summed over a game are estimated at +0.002, at most "
            f"{upper:+.3f} (95% upper bound, corrected for the 2 kinds judged); 1,000 games cannot show they are "
            f"below 0.01, about {need:,} would if the estimate holds.") in uncorrected
    assert "may be busywork" not in cut and "may be busywork" not in often  # shown small; and not small
    assert "could cut it" not in metric.answer(table([move, ("extra throw", 5, 5, 0.02, 0.01, 0.03)]))
    top = metric.answer(table([("move", 50, 0.05, 0.07, 0.06, 0.08, 0.0035, 0.0, 0.012), ("extra throw", 5, 5, 0.02,
                                                                                        0.01, 0.03)]))
    assert "The choice at a move decision matters most" in top and "may be busywork" not in top  # one or the other


def test_gains_surely_below_zero_are_the_judges_failing_not_a_decision_to_cut():
    """A kind whose gains summed over a game lie below zero even at their corrected upper bound: the judge's
    picks lose to random ones, so the answer says the judge is too weak, not "gains at most -0.4 ... could
    cut it" (issue 50: Walhalla's board decision at mcts:8:0:flat, before the ties were broken fairly).
    The control: the same estimate with an upper bound above zero is a decision that could be cut."""
    move = ("move", 50, 40, 0.07, 0.06, 0.08)
    worse = metric.answer(table([move, ("board", 5, 30, -0.02, -0.03, -0.01, -0.6, -0.9, -0.3)]))
    upper = -0.6 + 0.3 * corrected(2)
    assert (f"At the board decision the mcts:200 judge's picks do worse than random choices: -0.600 summed over "
            f"a game, at most {upper:+.3f} (95% upper bound, corrected for the 2 kinds judged); a judge this weak "
            f"cannot rate it: judge with more iterations.") in worse
    assert "could cut it" not in worse
    near = metric.answer(table([move, ("board", 5, 30, -0.0001, -0.0002, 0.0002, -0.003, -0.009, 0.003)]))
    assert "Choosing well at every board decision" in near and "do worse than random" not in near


def test_the_first_searchs_ties_are_broken_at_random_not_to_the_first_option(monkeypatch):
    """A flat search that finds every option alike picks the first in canonical order; read as "choosing
    well", that pick made the gain negative wherever the first options are poor.  By hand, in Pig: the first
    search ties both options, the rater rates option 0 at 0 and option 1 at 1; over 200 decisions the pick
    falls on each about half the time, so the gain averages about 0, not -0.5 (the first option every time).
    The control: a first search that prefers option 0 outright is rated -0.5 every time."""
    state = {"tie": True}

    def root_statistics(self, policy="mcts:1000", twin=False):
        codes = tuple(self.options())
        if self.rs[1 + self.seat] == first_word[0]:  # the first search: the game's own stream
            wins = (5.0, 5.0) if state["tie"] else (6.0, 5.0)
            return mcts.RootStatistics(policy, self.seat, codes, (10, 10), wins, 0)
        return mcts.RootStatistics(policy, self.seat, codes, (10, 10), (0.0, 10.0), 1)  # the rater

    monkeypatch.setattr(KernelGame, "root_statistics", root_statistics)
    spec = metric.get_spec("pig")
    gains = {True: [], False: []}
    for g in range(200):
        game = KernelGame(spec.kernel, spec.Rules(), ("random", "random"), 0, g)
        while game.advance() >= 0 and len(game.options()) < 2:
            game.apply(game.options()[0])
        first_word = [game.rs[1 + game.seat]]
        for tie in (True, False):
            state["tie"] = tie
            gains[tie].append(metric._judge(game, "mcts:20:0:flat", 0.02)[1])
    assert set(gains[True]) == {-0.5, 0.5} and abs(np.mean(gains[True])) < 0.1
    assert set(gains[False]) == {-0.5}


def test_a_kind_that_never_had_a_choice_is_said_to_ask_nothing():
    rows = [("move", 50, 40, 0.07, 0.06, 0.08), ("discard", 2, 0, np.nan, np.nan, np.nan)]
    said = metric.answer(table(rows, games=[1000, 0]))
    assert "Every discard decision in these games had a single option: it asks the player nothing." in said
    assert "Every move decision" not in said and "too few to judge" not in said


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
    few = metric.answer(table(rows, n_games=metric.MIN_GAMES - 1, games=[metric.MIN_GAMES - 1] * 2))
    assert f"{metric.MIN_GAMES - 1} games are too few to judge the move decision" in few
    assert "Choosing well" not in few and "matters most" not in few
    three = metric.answer(table(rows + [("bid", 5, 5, 0.01, 0.005, 0.015)], games=[1000, 3, 1000]))
    assert "The choice at a move decision matters most of the kinds judged: +0.070" in three


def test_intervals_over_few_games_use_students_t():
    """The mean over games and the ratio estimator take Student's t with n - 1 degrees of freedom: with 20
    games 2.093 standard errors, not 1.96 (the gains are skewed; the normal's interval is too narrow)."""
    assert metric.t95(20) == pytest.approx(2.093, abs=1e-3) and metric.t95(10_000) == pytest.approx(Z95, abs=1e-3)
    values = np.array([0.0, 0.0, 0.1, 0.0, 0.3, 0.0, 0.0, 0.05, 0.0, 0.0])
    mean, low, high = metric._mean(values)
    half = metric.t95(10) * values.std(ddof=1) / np.sqrt(10)
    assert mean == pytest.approx(0.045) and (low, high) == pytest.approx((0.045 - half, 0.045 + half))
    assert high - mean > Z95 * values.std(ddof=1) / np.sqrt(10)  # the control: wider than the normal's
    ratio, r_low, r_high = metric._ratio(values, np.ones(10))  # one decision a game: the same interval
    assert (ratio, r_low, r_high) == pytest.approx((mean, low, high))


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
