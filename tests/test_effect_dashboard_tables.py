"""Every table and matrix the dashboard renders, read back cell by cell from its HTML against the frame it
shows (issue 36, point 8).

The dashboard's run shows the design metrics and the exact odds beside the simulated ones, and, against a
pinned baseline, the paired differences; its tournament the heat map of the matrix and the ratings; its
ladder the ladder's table.  Each is parsed from the page's HTML (``html.parser``, the helpers of
``tests/test_effect_report_tables.py``) and each cell compared with the frame computed in Python from the
same games: ``design_metrics`` of the run, ``simulated_odds``, ``paired.before_after`` of the baseline and
the run, ``ratings`` and ``matrix`` of ``compare``, ``ladder`` (the value and its interval to the digits
printed; the row and column labels in order).  The heat map is read from its figure, each value at the
cell of its row and column.

Valhalla with greedy against random (seats that differ, so a row or a seat shown for another shows), a
few hundred games, the tournament and the ladder at 20 games a pairing on random, greedy and lookahead.

Negative controls (one-line bugs in ``toolkit/viz/dashboard.py`` in a scratch copy, each caught here; the
old dashboard tests missed all but the odds one): the metrics of the baseline's frame once one is pinned, the
ratings table without its index, the differences' baseline column showing the run, the odds' simulated
column shifted by a row, the ladder's table transposed.

The sentences beside the tables are read back from the HTML as well (issue 50), by the checkers of
``tests/sentences.py``: on Valhalla's page the paired sentences, the ratings in words and the ladder's trend;
on Attila's at three seats (the field's win rates) the tournament's words, which decisions matter, the
sentences played until settled and the tuning's answer.  Breaks seen red: the ratings' words from standard
errors of 1; the decisions' sentences from upper bounds equal to the estimates (a one-sided reading).
"""

from __future__ import annotations

import base64
import dataclasses
import io
import re

import numpy as np
import pandas as pd
import pytest
from sentences import (check_before_after, check_decisions, check_ratings, check_settled, check_trend, check_tuning,
                       paragraph, paragraphs)
from test_effect_report_tables import assert_heat_map_shows, assert_shows, header, html_tables

from toolkit.core.game import with_presentation
import toolkit
from toolkit.analysis import paired
from toolkit.analysis.metrics import design_metrics, label
from toolkit.analysis.ratings import ratings
from toolkit.analysis.strength import PLAY_METRICS, ladder
from toolkit.analysis.tournament import compare, matrix
from toolkit.games import GAMES
from toolkit.viz import report_html
from toolkit.viz.words import column as column_words
from toolkit.core.params import RAW_NAME
from toolkit.viz.dashboard import Dashboard, job_players, simulated_odds

N = 300
JOB_GAMES = 20
PLAYERS = ("greedy", "random")


@pytest.fixture(scope="module")
def board():
    """Valhalla's dashboard: a run pinned as the baseline, a run with ``zero_runes_value=4`` beside it, a
    tournament and a ladder (of random, greedy and lookahead: the page's mcts rung left out to keep it
    short).  Returns the dashboard, the baseline run's HTML and the heat map's figure."""
    figures = []
    figure_uri = report_html.figure_uri

    def keep_figure(fig):
        figures.append(fig)
        return figure_uri(fig)

    spec = GAMES["valhalla"]
    runs = dataclasses.replace(spec.presentation.page_runs, ladder_policies=("random", "greedy", "lookahead"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(report_html, "figure_uri", keep_figure)
        mp.setitem(GAMES, "valhalla", with_presentation(spec, page_runs=runs))
        shown = Dashboard("valhalla", n_games=N, threads=1, tournament_games=JOB_GAMES, background=False)
        shown.seat_policies[1].value = "random"  # a run: greedy against random
        assert shown.policies == PLAYERS
        first = shown.panel.last_result.data
        shown.pin_baseline()
        shown.panel.widgets["zero_runes_value"].value = 4  # a run beside the baseline
        figures.clear()
        shown.run_tournament()
        heat = next(f for f in figures if any(ax.images for ax in f.axes))
        shown.ladder_games.value = JOB_GAMES
        shown.run_ladder()
        assert job_players(GAMES["valhalla"], "ladder") == ["random", "greedy", "lookahead"]
    return shown, first, heat


def _run_html(board) -> str:
    return board.panel.last_result.data


def test_the_runs_are_the_games_they_show(board):
    shown, _, _ = board
    assert shown.rules == toolkit.rules("valhalla", zero_runes_value=4)
    expected = toolkit.simulate("valhalla", shown.rules, N, seed=0, policies=PLAYERS, threads=1, progress=False)
    pd.testing.assert_frame_equal(shown.frame, expected)
    baseline = toolkit.simulate("valhalla", toolkit.rules("valhalla"), N, seed=0, policies=PLAYERS, threads=1,
                                progress=False)
    pd.testing.assert_frame_equal(shown.baseline.frame, baseline)


@pytest.mark.parametrize("which", ["baseline", "run"])
def test_the_metrics_table(board, which):
    shown, first, _ = board
    text, frame = (first, shown.baseline.frame) if which == "baseline" else (_run_html(shown), shown.frame)
    table = next(t for t in html_tables(text) if header(t)[:1] == ["metric"])
    expected = design_metrics(frame)
    assert header(table) == ["metric", "value [95% interval]", "description"]
    assert [row[0] for row in table.body] == [label(m) for m in expected.index]
    for row, (name, m) in zip(table.body, expected.iterrows()):
        if name == "games":
            assert row[1] == f"{int(m['value']):,}"
        else:
            assert_shows(row[1], m["value"], m["ci_low"], m["ci_high"], name)
        assert row[2] == " ".join(m["description"].split())


def test_the_odds_table(board):
    shown, _, _ = board
    table = next(t for t in html_tables(_run_html(shown)) if header(t)[:2] == ["quantity", "exact"])
    expected = simulated_odds(shown.spec, shown.rules, shown.frame, shown.policies)
    assert header(table) == ["quantity", "exact", "value", "simulated"]
    assert [row[0] for row in table.body] == list(expected["quantity"])
    for row, (_, r) in zip(table.body, expected.iterrows()):
        assert row[1] == str(r["exact"])
        assert_shows(row[2], r["value"], what=row[0])
        assert_shows(row[3], r["simulated"], what=row[0])
    assert expected["simulated"].notna().sum() >= 2  # measured rows: a shift would show


def test_the_differences_table(board):
    """The run beside the baseline: each quantity's baseline, this run's value and the paired difference."""
    shown, _, _ = board
    table = next(t for t in html_tables(_run_html(shown)) if header(t)[-1].startswith("difference [95%"))
    expected = paired.before_after(shown.baseline.frame, shown.frame)
    assert header(table) == ["quantity", "baseline", "this run", "difference [95%, 4 together]"]
    assert [row[0] for row in table.body] == list(expected["quantity"])
    for row, (_, r) in zip(table.body, expected.iterrows()):
        assert_shows(row[1], r["baseline"], what=row[0])
        assert_shows(row[2], r["now"], what=row[0])
        assert_shows(row[3], r["difference"], r["ci_low"], r["ci_high"], row[0])
    assert (expected["baseline"] != expected["now"]).any()  # the rule moved something: a swap would show


def test_the_ratings_table(board):
    shown, _, _ = board
    names = job_players(GAMES["valhalla"], "tournament")
    table = compare("valhalla", names, JOB_GAMES, seed=0, rules=shown.rules, threads=1, progress=False)
    pd.testing.assert_frame_equal(shown.tournament, table)
    expected = ratings(table)
    (rated,) = html_tables(shown.tournament_output.outputs[0]["data"]["text/html"])
    assert header(rated)[1:] == [column_words(c) for c in expected.columns]  # in words (issue 52)
    assert not any(RAW_NAME.search(h) for h in header(rated))
    assert [row[0] for row in rated.body] == list(expected.index)
    for row, (policy, r) in zip(rated.body, expected.iterrows()):
        for column, cell in zip(expected.columns, row[1:]):
            assert_shows(cell, r[column], what=(policy, column))
    assert expected.iloc[:, 0].nunique() == len(expected)


def test_the_heat_map_writes_each_cell_where_its_row_and_column_are(board):
    shown, _, figure = board
    m = matrix(shown.tournament)
    assert_heat_map_shows(figure, m)
    rates = m["win_rate"].to_numpy()
    assert np.abs(rates - rates.T).max() > 0.1


def test_the_ladder_table(board):
    """The measures a designer reads, in words, one column a player (the report's table, issue 52); every
    column of the ladder in the CSV the page links."""
    shown, _, _ = board
    expected = ladder("valhalla", shown.rules, policies=("random", "greedy", "lookahead"), n_games=JOB_GAMES, seed=0,
                      threads=1, progress=False)
    pd.testing.assert_frame_equal(shown.ladder, expected)
    text = shown.ladder_output.outputs[0]["data"]["text/html"]
    (table,) = html_tables(text)
    assert header(table)[1:] == list(expected.index)
    measures = (("rating", "Elo rating"), *PLAY_METRICS, ("skill_gap", "skill gap vs random"))
    labels = {label: column for column, label in measures}
    assert [labels[row[0]] for row in table.body] == [c for c in labels.values() if not expected[c].isna().all()]
    for row in table.body:
        column = labels[row[0]]
        for policy, cell in zip(expected.index, row[1:]):
            assert_shows(cell, expected.at[policy, column], expected.at[policy, f"{column}_low"],
                         expected.at[policy, f"{column}_high"], (row[0], policy))
    assert not any(RAW_NAME.search(h) for h in [*header(table), *(row[0] for row in table.body)])
    link = re.search(r'<a download="ladder.csv" href="data:text/csv;base64,([^"]+)"', text)
    every = pd.read_csv(io.StringIO(base64.b64decode(link.group(1)).decode()), index_col="policy")
    assert list(every.columns) == list(expected.columns) and len(expected.columns) == 25
    pd.testing.assert_frame_equal(every, expected, check_dtype=False, check_exact=False, rtol=1e-12)


# -- the sentences beside the tables (issue 50, point 2) -----------------------------------------------------------


def _html(output) -> str:
    return output.outputs[0]["data"]["text/html"]


def _items(page: str) -> list:
    """The sentences of a page's ``<li>`` items (the paired sentences), in order."""
    return paragraphs("".join(re.findall(r"<li>.*?</li>", page, flags=re.S)))


def test_the_runs_tournaments_and_ladders_sentences_agree_with_their_tables(board):
    """Valhalla (two seats): each sentence beside the baseline's differences, the ratings in words and the
    ladder's trend, read from the page's HTML, against the frame its table shows (the tests above)."""
    shown, _, _ = board
    differences = paired.before_after(shown.baseline.frame, shown.frame)
    assert check_before_after(differences, _items(_run_html(shown)))
    said = paragraph(_html(shown.tournament_output), " Elo ")
    assert check_ratings(ratings(shown.tournament), said, 2)
    said = paragraph(_html(shown.ladder_output), "first player's edge")
    assert check_trend(shown.ladder, said)


@pytest.fixture(scope="module")
def jobs():
    """Attila at three seats (the field's win rates) on the dashboard, with greedy in every seat: a
    tournament, a judging of decisions, a run pinned and another played until settled against it, and a
    tuning, each small; the dashboard (its outputs hold the HTML)."""
    spec = GAMES["attila"]
    runs = dataclasses.replace(spec.presentation.page_runs, ladder_policies=("random", "greedy"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, "attila", with_presentation(spec, page_runs=runs))
        shown = Dashboard("attila", n_games=200, threads=1, tournament_games=10, background=False)  # the least
        shown.panel.widgets["num_players"].value = 3
        shown.run_tournament()
        shown.decision_games.value, shown.decision_judge.value = 60, "mcts:8:0:flat"  # 50 games judge a kind
        shown.run_decisions()
        shown.pin_baseline()
        shown.panel.widgets["finish_round"].value = not shown.panel.widgets["finish_round"].value
        shown.settle_games.value = 2_000
        shown.run_settle()
        shown.tune_rules.value = ("later_seat_vp",)
        shown.tune_trials.value, shown.tune_games.value = 3, 200
        shown.run_tuning()
    return shown


def test_the_jobs_sentences_agree_with_their_tables(jobs):
    """Attila at three seats: the ratings in words (the field's win rates), which decisions matter, the
    sentences played until settled and the tuning's answer, each read from the job's HTML, against the frame
    the job computed (the tables beside them render these frames: ``tests/viz/test_dashboard_jobs.py``)."""
    assert jobs.spec.seats(jobs.rules) == 3
    rated = ratings(jobs.tournament)
    said = paragraph(_html(jobs.tournament_output), "the fair share")
    assert check_ratings(rated, said, 3)
    from toolkit.analysis import decisions as judged

    said = paragraph(_html(jobs.decisions_output), "^In ")
    assert check_decisions(jobs.decisions, said) & {"largest", "most", "gains"}  # kinds judged, not only counted
    assert check_settled(jobs.settled, _items(_html(jobs.settle_output)))
    said = paragraph(_html(jobs.tune_output), "^Tuned \\(").split("): ", 1)[1]
    assert check_tuning(jobs.tuning, said) == jobs.tuning.verdict
