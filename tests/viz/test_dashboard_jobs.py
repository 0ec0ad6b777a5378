"""The dashboard's work off the page's thread (issue 36, points 2-4): stale runs cancelled, only the latest
drawn, long jobs with progress and a cancel, a pinned baseline read back as paired differences.

The page in Chromium is tests/browser/test_app_browser.py; here the same Dashboard runs outside a kernel
with ``background=True`` (its slots play in threads, ``slot.wait()`` waits)."""

from __future__ import annotations

import html
import threading
import time

from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.analysis import paired
from toolkit.viz import background
from toolkit.viz.dashboard import Dashboard, job_games

pytestmark = pytest.mark.slow  # about 18 s of CI: started early (tests/conftest.py), so the suite ends on short modules

BIG = 150_000  # games a run: seconds of play, so three quick changes all land while the first still plays


def _recording(board):
    shown = []
    keep = board._shown
    board.panel.on_result = lambda view: (shown.append(view.rules.zero_runes_value), keep(view))
    return shown


def test_three_quick_changes_draw_only_the_last_setting():
    board = Dashboard("valhalla", n_games=BIG, threads=1, refresh=False, background=True)
    board.seat_policies[0].value = board.seat_policies[1].value = "random"  # no run yet: refresh=False, auto on
    board.run_slot.wait(60)
    shown = _recording(board)
    cancelled = board.run_slot.cancelled
    started = []
    start = board.run_slot.start
    board.run_slot.start = lambda *args, **kwargs: started.append(start(*args, **kwargs)) or started[-1]
    for value in (3, 4, 6):
        board.panel.widgets["zero_runes_value"].value = value  # returns at once: the page stays live
    assert board.run_slot.running
    assert board.run_slot.wait(120)
    assert shown == [6] and board.rules.zero_runes_value == 6  # the stale runs were never drawn
    assert board.run_slot.cancelled - cancelled == 2 and len(started) == 3
    assert all(job.done < BIG for job in started[:2]) and started[2].done == BIG  # and stopped, not played out
    expected = toolkit.simulate("valhalla", board.rules, BIG, seed=0, policies=("random", "random"), threads=1,
                                keep="summary", progress=False)
    assert int(board.frame["win_0"].sum()) == int(round(expected.sums[expected.columns.index("win_0")]))


def test_without_the_background_every_change_is_drawn_in_turn():
    board = Dashboard("valhalla", n_games=500, threads=1, refresh=False, background=False)  # the control
    shown = _recording(board)
    for value in (3, 4, 6):
        board.panel.widgets["zero_runes_value"].value = value
    assert shown == [3, 4, 6] and board.run_slot.cancelled == 0


def test_a_bad_value_stops_the_run_it_makes_stale_and_says_so_at_once():
    board = Dashboard("valhalla", n_games=BIG, threads=1, refresh=False, background=True)
    shown = _recording(board)
    board.panel.widgets["zero_runes_value"].value = 6
    start = time.perf_counter()
    board.panel.widgets["blockade_zone"].value = "25,99"
    assert time.perf_counter() - start < 1.0  # the message does not wait for the run
    assert "blockade_zone" in board.panel.messages["blockade_zone"].value
    assert board.run_slot.wait(60)
    assert shown == [] and board.frame is None  # the run for the old value was not drawn


def test_a_tournament_can_be_cancelled_and_the_page_stays_free():
    board = Dashboard("valhalla", n_games=200, threads=1, refresh=False, background=True, tournament_games=400_000)
    job = board.run_tournament()
    while job.done == 0:
        time.sleep(0.01)
    assert not board.tournament_slot.wait(0.3)  # the control: left alone, it is still playing
    assert "of" in board.tournament_progress.label.value and "games" in board.tournament_progress.label.value
    board.panel.widgets["zero_runes_value"].value = 6  # a rule run meanwhile: drawn while the tournament plays
    assert board.run_slot.wait(60) and board.rules.zero_runes_value == 6 and board.tournament_slot.running
    asked = time.perf_counter()
    board.tournament_progress.cancel_button.click()
    assert board.tournament_slot.wait(5)
    assert time.perf_counter() - asked < 5  # within a chunk's time (loose: the CPU is shared in CI)
    assert board.tournament is None and "cancelled" in board.tournament_progress.label.value
    assert 0 < job.done < job.total


def test_a_judging_of_decisions_counts_its_games_and_a_cancel_stops_it():
    """Issue 49: "which decisions matter?" shows games judged of those planned, and its cancel stops the judging
    (it once went on in its threads, uncounted, after the page said "cancelled"); the page says so in its
    progress line and its output, and nothing is shown.  The control: left alone, it is still judging."""
    board = Dashboard("valhalla", n_games=200, threads=1, refresh=False, background=True)
    board.decision_games.value, board.decision_judge.value = 20_000, "mcts:10:0:flat"
    job = board.run_decisions()
    deadline = time.monotonic() + 30
    while job.done == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert job.total == 20_000 and not board.decisions_slot.wait(0.3)
    assert " of 20,000 games" in board.decisions_progress.label.value
    board.decisions_progress.cancel_button.click()
    assert board.decisions_slot.wait(10) and 0 < job.done < job.total
    assert board.decisions is None and board.decisions_progress.label.value == "judging decisions: cancelled"
    assert "cancelled: nothing to show" in board.decisions_output.outputs[0]["data"]["text/html"]


def test_a_run_cancelled_by_hand_is_said_so_in_the_status_line():
    """The status line said "running …" for good after the run's cancel; now it says the run was cancelled and
    the plots are the last finished run's (issue 49, found by clicking the run's cancel in the browser)."""
    board = Dashboard("valhalla", n_games=200, threads=1, background=True)
    assert board.run_slot.wait(60)
    shown = board.panel.status.value
    board.panel.n_games.value = BIG
    while board.run_slot.job.done == 0:
        time.sleep(0.01)
    assert board.panel.status.value == "running …"
    board.run_progress.cancel_button.click()
    assert board.run_slot.wait(10)
    assert board.panel.status.value == ("cancelled: the plots below are the last finished run's (players "
                                        "greedy,greedy)") != shown
    assert board.run_progress.label.value == "playing: cancelled" and len(board.frame) == 200


def test_the_progress_counts_every_game_of_the_plan():
    board = Dashboard("valhalla", n_games=200, threads=1, refresh=False, tournament_games=30)
    reports = []
    show = board.tournament_progress.show
    board.tournament_progress.show = lambda job: (reports.append((job.done, job.total)), show(job))
    job = board.run_tournament()
    assert job.done == job.total == 9 * 30  # three players, every ordered pair
    assert reports and all(total == 9 * 30 for _, total in reports)  # the whole plan from the first report
    assert board.tournament_progress.box.layout.display == "none"  # hidden once done


def test_default_job_sizes_follow_the_game_and_the_player_count():
    board = Dashboard("attila", n_games=20, threads=1, refresh=False)
    spec = board.spec
    four = board.tournament_games.value
    assert four == job_games(spec, spec.Rules(), "tournament") == spec.presentation.page_runs.tournament
    board.panel.widgets["num_players"].value = 5
    board.panel.refresh()
    assert board.tournament_games.value == job_games(spec, spec.Rules(num_players=5), "tournament") < four
    board.panel.widgets["num_players"].value = 2
    board.panel.refresh()
    assert board.tournament_games.value > four


# -- before and after on common seeds (point 2) -------------------------------------------------------------


def test_a_pinned_baseline_shows_the_paired_differences_of_the_next_run():
    board = Dashboard("valhalla", n_games=3_000, threads=1)
    assert "Against the baseline" not in board.panel.last_result.data
    baseline = board.pin_baseline()
    assert baseline.frame is board.frame
    board.panel.widgets["zero_runes_value"].value = 6
    table = board.differences
    before = toolkit.simulate("valhalla", None, 3_000, seed=0, policies="greedy", threads=1, progress=False)
    after = toolkit.simulate("valhalla", {"zero_runes_value": 6}, 3_000, seed=0, policies="greedy", threads=1,
                             progress=False)
    row = table.set_index("quantity").loc["game length (turns)"]
    d = after["turns"].to_numpy(float) - before["turns"].to_numpy(float)
    together = len(table)  # the quantities' intervals held together at 95% (issue 50)
    half = NormalDist().inv_cdf(1 - 0.025 / together) * d.std(ddof=1) / np.sqrt(d.size)
    assert together == 4 and (table["together"] == together).all()
    assert row["difference"] == pytest.approx(d.mean()) and row["baseline"] == pytest.approx(before["turns"].mean())
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((d.mean() - half, d.mean() + half))
    first = table.set_index("quantity").loc["the first player's win rate"]
    won_first = lambda f: f[["win_0", "win_1"]].to_numpy()[np.arange(len(f)), f["first_seat"].to_numpy()]  # noqa: E731
    assert first["difference"] == pytest.approx(won_first(after).mean() - won_first(before).mean())
    shown = board.panel.last_result.data
    assert "Against the baseline" in shown
    for sentence in table["sentence"]:
        assert html.escape(sentence) in shown
    board.clear_baseline()
    board.panel.widgets["zero_runes_value"].value = 5
    assert board.differences is None and "Against the baseline" not in board.panel.last_result.data


def test_play_on_until_settled_answers_with_the_settle_table_of_the_page_and_its_baseline():
    """Issue 50, point 4 on the page: Pig pinned with a head start of 1 for the second seat, then 3, "play on
    until settled": the page shows settle()'s table for the page's rules and players against the baseline's
    (the same numbers and sentences), the button is off without a baseline, and clearing it clears the answer."""
    from toolkit.analysis.settle import settle

    board = Dashboard("pig", n_games=2_000, threads=1, background=True)
    board.run_slot.wait(60)
    assert board.settle_button.disabled and board.run_settle() is None
    assert "pin a run as the baseline first" in board.settle_output.outputs[0]["data"]["text/html"]
    board.panel.widgets["second_player_bonus"].value = 1
    board.run_slot.wait(60)
    board.pin_baseline()
    assert not board.settle_button.disabled and board.baseline.rules.second_player_bonus == 1
    board.panel.widgets["second_player_bonus"].value = 3
    board.run_slot.wait(60)
    board.settle_tolerance.value = 0.02
    board.settle_games.value = 60_000
    board.run_settle()
    board.settle_slot.wait(120)
    table = board.settled
    expected = settle("pig", {"second_player_bonus": 3}, {"second_player_bonus": 1}, policies=board.policies,
                      baseline_policies=board.baseline.policies, quantities="all", tolerance=0.02, max_games=60_000,
                      threads=1, progress=False)
    assert table[["difference", "ci_low", "ci_high", "games"]].equals(expected[["difference", "ci_low", "ci_high",
                                                                               "games"]])
    assert table.attrs["looks"] == expected.attrs["looks"] and list(table["tolerance"])[0] == 0.02
    shown = board.settle_output.outputs[0]["data"]["text/html"]
    head = "Settled" if expected.attrs["settled"] else "Not settled"
    assert f"<p>{head} after {expected.attrs['games']:,} games a side" in shown
    for sentence in expected["sentence"]:
        assert html.escape(sentence) in shown
    board.clear_baseline()
    assert board.settle_button.disabled and board.settle_output.outputs == ()


def test_the_sentence_says_no_measurable_change_when_the_interval_holds_zero():
    a = toolkit.simulate("valhalla", None, 2_000, seed=1, progress=False)
    same = paired.before_after(a, a)
    assert not same["measurable"].any() and all("no measurable change at 2,000 games" in s for s in same["sentence"])
    b = toolkit.simulate("valhalla", {"zero_runes_value": 6}, 2_000, seed=1, progress=False)
    moved = paired.before_after(a, b).set_index("quantity").loc["game length (turns)"]
    assert moved["measurable"] and moved["sentence"].startswith("your change moved game length (turns) from ")
    other_seed = toolkit.simulate("valhalla", {"zero_runes_value": 6}, 2_000, seed=2, progress=False)
    unpaired = paired.before_after(a, other_seed).set_index("quantity").loc["game length (turns)"]
    assert not unpaired["paired"] and unpaired["ci_high"] - unpaired["ci_low"] > moved["ci_high"] - moved["ci_low"]


def test_the_axes_only_widen_from_run_to_run():
    board = Dashboard("valhalla", n_games=2_000, threads=1)
    first = dict(board.limits)
    board.panel.widgets["zero_runes_value"].value = 6
    for key, (xlim, ylim) in first.items():
        new_x, new_y = board.limits[key]
        assert new_x[0] <= xlim[0] and new_x[1] >= xlim[1] and new_y[0] <= ylim[0] and new_y[1] >= ylim[1]
    fresh = Dashboard("valhalla", n_games=2_000, threads=1, refresh=False)
    fresh.panel.widgets["zero_runes_value"].value = 6  # the control: alone, the second run's own axes differ
    assert any(fresh.limits[key] != board.limits[key] for key in first)


def test_a_slot_shows_a_failure_that_is_not_a_refusal_as_a_defect():
    slot = background.Slot(True)
    caught = []
    done = threading.Event()
    slot.start(lambda: 1 / 0, lambda _: None, lambda error: (caught.append(error), done.set()))
    assert done.wait(10) and isinstance(caught[0], ZeroDivisionError)


def test_a_skill_gap_tuning_plays_the_questions_players():
    """Herrlof's question asks greedy against random: the dashboard's tuning plays those, not tune()'s
    default lookahead (which took minutes)."""
    from toolkit.analysis import tuning

    board = Dashboard("herrlof", n_games=20, threads=1, refresh=False)
    assert board.tune_metric.value == "skill_gap"
    board.tune_rules.value = ("effect_1",)
    board.tune_trials.value, board.tune_games.value = 2, 30
    board.run_tuning()
    expected = tuning.tune("herrlof", {"skill_gap": "max"}, {"effect_1": None}, 2, 30, rules=board.panel.rules(),
                           policies=board.policies or ("greedy", "greedy"), skilled="greedy", threads=1,
                           progress=False)
    assert board.tuning.settings["skill"] == ["greedy", "random"] == expected.settings["skill"]
    pd.testing.assert_frame_equal(board.tuning.trials, expected.trials)


def test_halali_seats_are_named_blue_and_brown_as_the_game_names_them(monkeypatch):
    """Issue 36, point 6: seat 0 plays Blue (H-1), so the paired sentences, the seat boxes and the plots'
    legends say Blue and Brown; in a two-game match the colours swap, so the names say "in game 1", and
    a baseline whose seats had other names falls back to the seat numbers."""
    a = toolkit.simulate("halali", None, 1_500, seed=3, progress=False)
    b = toolkit.simulate("halali", {"end_phase_moves": 1}, 1_500, seed=3, progress=False)
    table = paired.before_after(a, b).set_index("quantity")
    assert list(table.index[:2]) == ["Blue's win rate", "Brown's win rate"]
    for seat, name in enumerate(("Blue", "Brown")):  # the name is seat k's: its rates are win_k's
        assert table.loc[f"{name}'s win rate", "baseline"] == pytest.approx(a[f"win_{seat}"].mean())
        assert table.loc[f"{name}'s win rate", "now"] == pytest.approx(b[f"win_{seat}"].mean())
    match = toolkit.simulate("halali", {"match_games": 2}, 300, seed=3, progress=False)
    assert list(paired.before_after(match, match)["quantity"][:2]) == ["Blue in game 1's win rate",
                                                                       "Brown in game 1's win rate"]
    assert list(paired.before_after(a, match)["quantity"][:2]) == ["seat 0's win rate", "seat 1's win rate"]
    assert list(paired.before_after(*(toolkit.simulate("valhalla", None, 300, seed=1, progress=False),) * 2)
                ["quantity"][:2]) == ["seat 0's win rate", "seat 1's win rate"]  # a game that names none

    from toolkit.viz import report_html

    legends = []
    uri = report_html.figure_uri

    def reading(figure, *args, **kwargs):  # the legends of every figure the dashboard draws
        legends.extend(t.get_text() for ax in figure.axes if ax.get_legend() for t in ax.get_legend().get_texts())
        return uri(figure, *args, **kwargs)

    monkeypatch.setattr(report_html, "figure_uri", reading)
    board = Dashboard("halali", n_games=300, threads=1)
    assert [box.description for box in board.seat_policies] == ["Blue", "Brown"]
    assert any("0 = Blue, 1 = Brown" in t for t in legends) and any(t.startswith("Brown: mean ") for t in legends)
    board.panel.widgets["match_games"].value = 2
    assert [box.description for box in board.seat_policies] == ["Blue in game 1", "Brown in game 1"]


def test_a_cancelled_slow_line_up_says_whose_plots_are_shown_and_drops_its_estimate():
    """Issue 52, point 2: after a cancel, "running …" stayed on the page under plots titled "policies
    greedy,greedy" while seat 0 read mcts:1000, beside the cancelled run's time estimate.  Now the status
    names the shown run's players and the estimate is gone (the control: before the cancel both are there)."""
    board = Dashboard("valhalla", n_games=2_000, threads=1, background=True, ask_above=10 ** 9)  # never asked
    board.run_slot.wait()
    board.seat_policies[0].value = "mcts:1000"
    deadline = time.monotonic() + 60
    while "about" not in board.seat_message.value and time.monotonic() < deadline:
        time.sleep(0.1)
    assert board.panel.status.value.endswith(" …")  # running (or compiling the search first)
    assert "games of mcts:1000,greedy: about" in board.seat_message.value
    board.run_slot.cancel()
    board.run_slot.wait()
    assert board.panel.status.value == ("cancelled: the plots below are the last finished run's (players "
                                        "greedy,greedy)")
    assert board.seat_message.value == "" and board.policies == ("greedy", "greedy")
