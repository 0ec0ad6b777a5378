"""The dashboard's "see and play" and "which decisions matter" sections (issue 38), driven through the page's
own widgets: the game shown is the one of the page's rules, seats and seed."""

from __future__ import annotations

import html
import re

import pandas as pd
import pytest
from test_effect_report_tables import assert_decisions_table, html_tables

import toolkit
from toolkit.analysis.decisions import answer, decisions
from toolkit.core.session import Session, playthrough
from toolkit.viz.dashboard import Dashboard


@pytest.fixture
def board():
    page = Dashboard("valhalla", n_games=200, background=False, seed=3)
    yield page
    page._clear_seeing()


def test_the_game_watched_is_the_one_of_the_pages_rules_and_seats(board):
    board.panel.widgets["throw_mode"].value = "simplified"
    board.seat_policies[1].value = "random"
    board.watch_index.value = 2
    viewer = board.watch()
    rules = toolkit.rules("valhalla", throw_mode="simplified")
    expected = playthrough(toolkit.GAMES["valhalla"], rules, ("greedy", "random"), 3, 2)
    assert board.see_box.children == (viewer.widget,)
    assert [(s.seat, s.codes, s.chosen) for s in viewer.steps] == [(s.seat, s.codes, s.chosen) for s in expected.steps]
    standard = playthrough(toolkit.GAMES["valhalla"], toolkit.rules("valhalla"), ("greedy", "random"), 3, 2)
    assert [s.codes for s in viewer.steps] != [s.codes for s in standard.steps]  # the control: the rule counts
    viewer.forward.click()
    assert viewer.index == 1


def test_a_person_plays_a_seat_of_the_page_and_gets_the_scripted_game(board):
    board.panel.widgets["ships_per_player"].value = 2  # the page's rules, a short game (six ships: 12 s of CI)
    board.play_seat.value = 1
    person = board.play()
    assert board.see_box.children == (person.widget,)
    while not person.session.over:
        person.buttons.children[-1].click()  # the last option, every time
    rules = toolkit.rules("valhalla", ships_per_player=2)
    script = Session(toolkit.GAMES["valhalla"], rules, ("greedy", "greedy"), 3, 0, humans=(1,))
    while not script.over:
        script.play(len(script.step.options) - 1)
    assert person.session.row() == script.row()
    board.game.value = "attila"
    assert list(board.play_seat.options) == list(range(toolkit.GAMES["attila"].seats(board.panel.rules())))
    assert board.see_box.children == ()  # another game: the old one is gone


def test_a_bad_player_is_refused_at_the_seats_and_nothing_is_shown(board):
    board.seat_policies[0].value = "nonsense"
    assert board.watch() is None and board.see_box.children == ()
    assert "nonsense" in board.see_note.value


def test_which_decisions_matter_is_the_analysis_of_the_page(board):
    board.decision_games.value = 12
    board.decision_judge.value = "mcts:40:0:flat"
    board.run_decisions()
    board.decisions_slot.wait()
    expected = decisions("valhalla", n_games=12, seed=3, policies=("greedy", "greedy"), judge="mcts:40:0:flat",
                         progress=False)
    pd.testing.assert_frame_equal(board.decisions, expected)
    shown = board.decisions_output.outputs[-1]["data"]["text/html"]
    assert html.unescape(re.match(r"<p>(.*?)</p>", shown, re.S).group(1)) == answer(expected)
    (table,) = html_tables(shown)
    assert_decisions_table(table, expected)  # every cell is the table's, row by row
    board.decision_judge.value = "greedy"
    assert board.run_decisions() is None
    assert "judge='greedy' is not allowed" in board.decisions_output.outputs[-1]["data"]["text/html"]
