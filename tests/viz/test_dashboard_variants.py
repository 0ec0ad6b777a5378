"""Rule variants on the dashboard (issue 51, point 2): save the page's rules as a named variant file, open one
in a fresh page, reset to the preset, apply the tuned rules, compare up to three variants side by side, sweep
one rule; each read back from what it changed (the file, the panel's rules, the games and the tables).

The browser test (``tests/browser/test_app_browser.py::test_a_variant_is_saved_reopened_compared_and_swept``)
clicks the same controls in Chromium; here every effect is checked against the API.
"""

from __future__ import annotations

import html
import re
import time

import pandas as pd
import pytest

import toolkit
from toolkit.analysis import paired
from toolkit.analysis.sweep import sweep
from toolkit.cli import main
from toolkit.core import variants
from toolkit.viz.dashboard import Dashboard

N = 400


@pytest.fixture
def board(tmp_path):
    board = Dashboard("valhalla", n_games=N, threads=1, background=False, variants=str(tmp_path))
    yield board
    board._clear_seeing()


def test_a_saved_variant_reopens_in_a_fresh_page_and_plays_the_same_games(board, tmp_path):
    board.panel.widgets["zero_runes_value"].value = 4
    board.panel.widgets["extra_throw_enabled"].value = True
    board.variant_name.value = "four for zero"
    path = board.save_variant()
    assert path == tmp_path / "four-for-zero.toml"
    saved = variants.read(path, "valhalla")
    assert saved.name == "four for zero" and saved.rules == board.panel.rules() == board.rules
    assert saved.changes() == {"zero_runes_value": "4", "extra_throw_enabled": "true"}
    assert f"--rules {path}" in board.variant_note.value
    assert board.variant_menu.options == ((f"four for zero (four-for-zero.toml)", str(path)),)
    fresh = Dashboard("valhalla", n_games=N, threads=1, background=False, variants=str(tmp_path))
    assert fresh.panel.rules() != saved.rules  # the control: a fresh page starts from the standard preset
    fresh.open_variant()
    assert fresh.panel.rules() == saved.rules and fresh.variant_name.value == "four for zero"
    pd.testing.assert_frame_equal(fresh.frame, board.frame)  # the same seed, players and rules: the same games
    fresh.reset_rules()
    assert fresh.panel.rules() == toolkit.rules("valhalla") and fresh.frame["turns"].tolist() != board.frame[
        "turns"].tolist()


def test_saving_is_refused_without_a_name_or_a_folder(board, tmp_path):
    assert board.save_variant() is None and "give the variant a name first" in board.variant_note.value
    board.variant_name.value = "x"
    board.variant_folder.value = str(tmp_path / "nope")
    assert board.save_variant() is None and "does not exist" in board.variant_note.value
    assert list(tmp_path.iterdir()) == []


def test_the_menu_lists_only_this_games_variants(board, tmp_path):
    toolkit.save_rules(toolkit.rules("pig", second_player_bonus=2), tmp_path / "pig.toml")
    toolkit.save_rules(toolkit.rules("valhalla", ships_per_player=5), tmp_path / "five.toml", "five ships")
    (tmp_path / "broken.toml").write_text("game = valhalla\n")
    board._variant_menus()
    assert board.variant_menu.options == (("five ships (five.toml)", str(tmp_path / "five.toml")),)


def test_side_by_side_is_each_variants_paired_differences_held_together(board, tmp_path):
    """The page's rules beside two variants on the same seed and players: each column is ``before_after`` of
    the page's run and the variant's, its intervals held together over the 4 quantities of both (8)."""
    one = toolkit.save_rules(toolkit.rules("valhalla", zero_runes_value=4), tmp_path / "one.toml")
    two = toolkit.save_rules(toolkit.rules("valhalla", zero_runes_value=6), tmp_path / "two.toml")
    board._variant_menus()
    board.compare_variants.value = (str(one), str(two))
    board.compare_games.value = 3_000
    reports, show = [], board.compare_progress.show
    board.compare_progress.show = lambda job: (reports.append((job.done, job.total)), show(job))
    job = board.run_compare()
    # the three runs' games in the count from its first report on (each run's used to add up as it started)
    assert reports[0] == (0, 3 * 3_000) and job.done == job.total == 3 * 3_000
    policies = board.policies
    base = toolkit.simulate("valhalla", None, 3_000, seed=0, policies=policies, threads=1, progress=False)
    for path, rules in ((one, toolkit.rules("valhalla", zero_runes_value=4)),
                        (two, toolkit.rules("valhalla", zero_runes_value=6))):
        now = toolkit.simulate("valhalla", rules, 3_000, seed=0, policies=policies, threads=1, progress=False)
        expected = paired.before_after(base, now, comparisons=2)
        got = board.compared[variants.read(path).name]
        pd.testing.assert_frame_equal(got, expected)
        assert (got["together"] == 8).all()
    text = board.compare_output.outputs[0]["data"]["text/html"]
    assert "[95% for the 8 intervals together]" in text
    assert re.search(r"game length \(turns\)</td>\s*<td>[\d.]+</td>\s*<td>[\d.]+: [+-]", text)
    board.compare_variants.value = ()
    assert board.run_compare() is None and "choose 1 to 3" in board.compare_output.outputs[0]["data"]["text/html"]


def test_the_same_variant_in_the_report_gives_the_same_numbers(board, tmp_path, capsys):
    """A variant saved on the page and reported by ``toolkit report --rules`` on the same seed: the page's
    side by side and the report's "Against the baseline" hold the same paired differences."""
    board.panel.widgets["zero_runes_value"].value = 4
    board.variant_name.value = "four"
    path = board.save_variant()
    board.reset_rules()
    board._variant_menus()
    board.compare_variants.value = (str(path),)
    board.compare_games.value = 500
    board.run_compare()
    table = board.compared["four"]
    out = tmp_path / "report"
    assert main(["report", "--rules", str(path), "-n", "500", "--out", str(out), "--threads", "1",
                 "--no-progress"]) == 0
    capsys.readouterr()
    games = toolkit.load(out / "valhalla--four.csv")
    policies = tuple(games.attrs["policies"])
    assert policies == board.policies  # the page's players are the report's default ones
    base = toolkit.simulate("valhalla", None, 500, seed=0, policies=policies, threads=1, progress=False)
    expected = paired.before_after(base, games)
    assert table[["quantity", "baseline", "now", "difference"]].equals(expected[["quantity", "baseline", "now",
                                                                              "difference"]])


def test_a_sweep_is_the_rule_over_its_range_on_common_seeds(board):
    board.sweep_rule.value = "zero_runes_value"
    board.sweep_metric.value = "first_player_win_rate"
    board.sweep_games.value = 300
    assert board.sweep_values("zero_runes_value") == [1, 2, 3, 4, 5, 6]
    assert board.sweep_values("extra_throw_enabled") == [False, True]
    assert board.sweep_values("stick_rune_up_probability") == pytest.approx([0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95])
    board.run_sweep()
    expected = sweep("valhalla", {"zero_runes_value": [1, 2, 3, 4, 5, 6]}, 300, seed=0, rules=board.panel.rules(),
                     policies=",".join(board.policies), threads=1, progress=False)
    pd.testing.assert_frame_equal(board.swept, expected)
    text = board.sweep_output.outputs[0]["data"]["text/html"]
    # in words (issue 52): the metric's label, the rule's
    assert "alt=\"first player's win rate against Value of a throw with no rune up\"" in html.unescape(text)
    assert "<th>Value of a throw with no rune up</th>" in text and "zero_runes_value" not in text
    for row in expected.itertuples():
        assert (f"<td>{row.zero_runes_value}</td>\n      <td>{row.first_player_win_rate:.3f} "
                f"[{row.first_player_win_rate_low:.3f}, {row.first_player_win_rate_high:.3f}]</td>") in text


def test_the_tuned_rules_are_applied_to_the_page(board):
    """A tuning that proposes a change (Pig's second seat's head start toward a first-player rate of 0.3, on a
    range that can reach it): "apply the tuned rules" puts them on the page; the control: without a proposal
    the button stays off."""
    pig = Dashboard("pig", n_games=N, threads=1, background=False)
    assert pig.apply_tuned_button.disabled
    pig.tune_metric.value = "first_player_win_rate"
    pig.tune_goal.value = "reach"
    pig.tune_value.value = 0.3
    pig.tune_rules.value = ("second_player_bonus",)
    pig.tune_trials.value, pig.tune_games.value = 4, 2_000
    pig.run_tuning()
    assert pig.tuning.proposed and not pig.apply_tuned_button.disabled
    text = pig.tune_output.outputs[0]["data"]["text/html"]
    assert f"toolkit simulate pig --preset standard --set second_player_bonus={pig.tuning.best_rules.second_player_bonus}" in text
    pig.apply_tuned()
    assert pig.panel.rules() == pig.tuning.best_rules != toolkit.rules("pig")


def test_a_page_in_a_kernel_lists_a_variant_saved_after_it_was_drawn(tmp_path, monkeypatch):
    """A preheated page (its dashboard built before anyone saved a variant) or a second page open beside the
    one that saves: the menus follow the folder within a look (``VARIANTS_EVERY``); the control: a page built
    outside a kernel does not look, and lists it only when its menus are rebuilt."""
    from toolkit.viz import dashboard

    monkeypatch.setattr(dashboard, "VARIANTS_EVERY", 0.05)
    watching = Dashboard("valhalla", n_games=N, threads=1, background=True, variants=str(tmp_path))
    watching.run_slot.wait()
    still = Dashboard("valhalla", n_games=N, threads=1, background=False, variants=str(tmp_path))
    assert watching.variant_menu.options == () == still.variant_menu.options
    path = variants.save(toolkit.rules("valhalla", throw_mode="simplified"), tmp_path / "later.toml", "later")
    deadline = time.monotonic() + 10
    while not watching.variant_menu.options and time.monotonic() < deadline:
        time.sleep(0.05)
    assert watching.variant_menu.options == (("later (later.toml)", str(path)),)
    assert watching.variant_menu.value == str(path)
    assert still.variant_menu.options == ()  # the control
    watching.box.close()  # a closed page stops looking
