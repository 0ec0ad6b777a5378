"""The ratings in words (issue 36, point 11): each policy against the next one down, the difference with
its 95% interval, the win share it means on the Elo scale, or that two cannot be told apart."""

from __future__ import annotations

import html

import pandas as pd
import pytest

from toolkit.analysis import ratings, tournament
from toolkit.cli import main


def elo_table(rows):
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["elo", "se"])
    table.attrs["rating"] = "elo"
    return table


def test_elo_differences_in_words():
    said = ratings.in_words(elo_table({"greedy": (1500.0, 10.0), "lookahead": (1690.0, 10.0),
                                       "random": (1495.0, 10.0)}))
    # 190 +- 1.96 * 14.14 = 162 .. 218; 10 ** (190 / 400) -> 75%
    assert said == ("lookahead is about 190 Elo (95%: 162 to 218) above greedy; it wins about 75% of their games; "
                    "greedy and random cannot be told apart: greedy is 5 Elo (95%: -23 to 33) above.")


def test_openskill_differences_in_words():
    table = pd.DataFrame({"mu": [30.0, 25.0], "sigma": [1.0, 1.0]}, index=["greedy", "random"])
    table.attrs["rating"] = "openskill"
    assert ratings.in_words(table) == "greedy is about 5.0 mu (95%: 2.2 to 7.8) above random."


@pytest.fixture(scope="module")
def rated():
    return ratings.ratings(tournament.compare("valhalla", "random,greedy", 100, seed=3, progress=False))


def test_the_cli_the_dashboard_and_the_report_say_it(capsys, rated):
    from toolkit.viz.dashboard import Dashboard

    sentence = ratings.in_words(rated)
    assert sentence.startswith("greedy is about ") and "above random" in sentence
    assert main(["compare", "valhalla", "--policies", "random,greedy", "-n", "100", "--seed", "3",
                 "--no-progress"]) == 0
    assert sentence in capsys.readouterr().out
    board = Dashboard("valhalla", n_games=50, threads=1, tournament_games=100, seed=3, refresh=False)
    board.tournament_games.value = 100
    board.seed = 3
    board.run_tournament()
    table = board.tournament
    shown = board.tournament_output.outputs[0]["data"]["text/html"]
    assert html.escape(ratings.in_words(ratings.ratings(table))) in shown
