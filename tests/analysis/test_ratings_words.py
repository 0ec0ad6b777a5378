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
    # two claims held together at 95% (z 2.241): 190 +- 2.241 * 14.14 = 158 .. 222; 10 ** (190 / 400) -> 75%
    assert said == ("lookahead is about 190 Elo (95% for the 2 together: 158 to 222) above greedy; it wins about 75% "
                    "of their games; greedy and random cannot be told apart: greedy is 5 Elo (95% for the 2 "
                    "together: -27 to 37) above.")


def test_openskill_differences_in_words():
    """Three or more seats: the words come from the win rates against a field (issue 50), and ratings
    without those counts are refused rather than read by their mu."""
    table = pd.DataFrame({"mu": [30.0, 25.0], "sigma": [1.0, 1.0]}, index=["greedy", "random"])
    table.attrs.update(rating="openskill", seats=3, field={("greedy", "random"): (150, 300),
                                                          ("random", "greedy"): (30, 300)})
    assert ratings.in_words(table) == (
        "greedy is stronger than random: greedy wins 0.500 [0.436, 0.564] of its games against a field of random, "
        "random wins 0.100 [0.068, 0.146] against a field of greedy (the fair share 0.333; 95% intervals for the 2 "
        "together).")
    del table.attrs["field"]
    with pytest.raises(ValueError, match="openskill_ratings"):
        ratings.in_words(table)


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
