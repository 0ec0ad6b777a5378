"""The designer report (``toolkit report --html DIR``): one self-contained page per game with its
tables as CSV beside it, the metrics of the report's own default run, and the plain report unchanged
without ``html_dir``.

Valhalla (two seats: ordered pairs, Elo) and Attila (four seats: the field format, OpenSkill) cover
both tournament layouts.  Attila's lookahead is slow, so its page sizes are cut here to a few games
with ``lookahead:1``; Valhalla's are capped at ``n_games`` as in any small run."""

from __future__ import annotations

import base64
import dataclasses
import html
import re

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.analysis.metrics import design_metrics, label, skill_gap
from toolkit.cli import main
from toolkit.core.game import PageRuns, with_presentation
from toolkit.games import GAMES
from toolkit.report import html_sizes, report
from toolkit.viz import report_html

pytestmark = pytest.mark.slow  # about 16 s of CI: started early (tests/conftest.py), so the suite ends on short modules

N = 200
SEED = 3
GAMES_HERE = ("valhalla", "attila")
TINY_ATTILA = PageRuns(tournament=6, skill=6, lookahead="lookahead:1", ladder=4, ladder_policies=("random", "greedy"),
                       decisions=4)
# Valhalla's page keeps its runs and its kinds of rung (a tree search too, mcts:20 for its mcts:100: a fifth of
# the section's time), its ladder at 10 games a pairing (40 by default) and its decisions judged in 20 games (200)
SMALL_VALHALLA = dataclasses.replace(GAMES["valhalla"].presentation.page_runs, ladder=10, decisions=20,
                                     ladder_policies=("random", "greedy", "lookahead", "mcts:20"))
TINY_VALHALLA = PageRuns(tournament=20, skill=20, ladder=4, ladder_policies=("random", "greedy"), decisions=4)
CSV_NAMES = ("metrics", "tournament", "matrix", "ratings", "seat_advantage", "odds", "ladder", "tuning", "decisions")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, "attila", with_presentation(GAMES["attila"], page_runs=TINY_ATTILA))
        mp.setitem(GAMES, "valhalla", with_presentation(GAMES["valhalla"], page_runs=SMALL_VALHALLA))
        table = report(list(GAMES_HERE), n_games=N, seed=SEED, out_dir=out / "out", html_dir=out / "html",
                       progress=False)
    return table, out / "out", out / "html"


def page(html_dir, game) -> str:
    return (html_dir / f"{game}.html").read_text(encoding="utf-8")


def default_run(game):
    spec = GAMES[game]
    return toolkit.simulate(game, n_games=N, seed=SEED, policies=spec.default_policies(spec.Rules()), progress=False)


@pytest.mark.parametrize("game", GAMES_HERE)
def test_one_page_and_every_csv_per_game(written, game):
    _, _, html_dir = written
    assert (html_dir / f"{game}.html").is_file()
    for name in CSV_NAMES:
        frame = pd.read_csv(html_dir / f"{game}_{name}.csv")
        assert len(frame) > 0, name
    matrix = pd.read_csv(html_dir / f"{game}_matrix.csv")
    assert matrix.columns.tolist() == ["policy", "opponent", "win_rate", "ci_low", "ci_high", "wins", "games"]
    assert len(matrix) == 9  # random, greedy, lookahead against each
    assert ((matrix["ci_low"] <= matrix["win_rate"]) & (matrix["win_rate"] <= matrix["ci_high"])).all()
    odds = pd.read_csv(html_dir / f"{game}_odds.csv")
    assert odds["quantity"].tolist() == GAMES[game].odds(GAMES[game].Rules())["quantity"].tolist()


@pytest.mark.parametrize("game", GAMES_HERE)
def test_page_is_self_contained(written, game):
    text = page(written[2], game)
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    lowered = text.lower()
    for needle in ('src="http', "src='http", "<link", "<script", "@import", "url(", "<iframe"):
        assert needle not in lowered, needle
    # every src is an embedded image, every href an anchor on the page or a CSV file beside it (issue 51)
    assert all(src.startswith("data:image/png;base64,") for src in re.findall(r'src="([^"]*)"', text))
    hrefs = re.findall(r'href="([^"]*)"', text)
    beside = [h for h in hrefs if not h.startswith("#")]
    assert beside and all("/" not in h and h.endswith(".csv") and (written[2] / h).is_file() for h in beside), beside


@pytest.mark.parametrize("game", GAMES_HERE)
def test_page_has_every_section(written, game):
    text = page(written[2], game)
    headings = re.findall(r"<h2>\d+\. ([^<]+)</h2>", text)
    assert headings == [name for key, name in report_html.SECTIONS if key != "baseline"]  # a variant's alone
    assert f"<h1>{GAMES[game].title}: designer report</h1>" in text
    for words in ("Provenance", "Rules", "Design metrics", "Tournament", "Ratings", "Strength ladder",
                  "Which decisions matter", "Seat advantage", "Game length", "Final scores", "Exact odds"):
        assert words in text, words


@pytest.mark.parametrize("game", GAMES_HERE)
def test_images_are_base64_pngs(written, game):
    text = page(written[2], game)
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', text)
    assert len(images) == 7  # heat map, ladder, decisions, tuning, seat advantage, length, scores
    for encoded in images:
        raw = base64.b64decode(encoded, validate=True)
        assert raw[:8] == PNG_SIGNATURE and raw[12:16] == b"IHDR"
        width, height = int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")
        assert 200 < width < 2000 and 150 < height < 2000


@pytest.mark.parametrize("game", GAMES_HERE)
def test_metrics_are_those_of_the_default_run(written, game):
    _, _, html_dir = written
    expected = design_metrics(default_run(game))
    got = pd.read_csv(html_dir / f"{game}_metrics.csv").set_index("metric")
    assert list(got.index[: len(expected)]) == list(expected.index)
    assert list(got.index[len(expected):]) == ["skill_gap", "luck", "skill"]
    for column in ("value", "ci_low", "ci_high"):
        np.testing.assert_allclose(got.loc[expected.index, column].to_numpy(float),
                                   expected[column].to_numpy(float), rtol=1e-12, equal_nan=True, err_msg=column)
    text = page(html_dir, game)
    for name, row in expected.iterrows():  # the page shows the same numbers, as "value [low, high]"
        shown = (f"{int(row['value']):,}" if name == "games" else
                 report_html.interval(row["value"], row["ci_low"], row["ci_high"],
                                      report_html.digits_for(row["value"])))
        cell = "<td class=\"ci\">" if "[" in shown else "<td>"  # a value with its interval: one line
        assert f"<td>{label(name)}</td>\n      {cell}{shown}</td>" in text, name  # the metric in words


def test_skill_gap_and_luck_rows_use_the_page_sizes(written):
    _, _, html_dir = written
    got = pd.read_csv(html_dir / "attila_metrics.csv").set_index("metric")
    gap = skill_gap("attila", None, TINY_ATTILA.skill, seed=SEED, skilled="lookahead:1",
                    unskilled="random", progress=False)
    assert got.loc["skill_gap", "value"] == pytest.approx(gap["skill_gap"])
    assert got.loc["skill_gap", "ci_low"] == pytest.approx(gap["skill_gap_low"])
    text = page(html_dir, "attila")
    assert "lookahead:1" in text and "6 games per seating" in text


def test_tournament_layouts_and_ratings(written):
    _, _, html_dir = written
    two = pd.read_csv(html_dir / "valhalla_tournament.csv")
    assert {"seat0_policy", "seat1_policy", "win_rate_0"} <= set(two.columns)
    assert (two["games"] == html_sizes("valhalla", N)["tournament"]).all()
    field = pd.read_csv(html_dir / "attila_tournament.csv")
    assert {"tested_policy", "field_policy", "win_rate"} <= set(field.columns)
    assert (field["seats"] == 4).all() and (field["games"] == TINY_ATTILA.tournament).all()
    assert "elo" in pd.read_csv(html_dir / "valhalla_ratings.csv").columns
    assert "mu" in pd.read_csv(html_dir / "attila_ratings.csv").columns
    assert "fair share 1/4" in page(html_dir, "attila")


def test_rules_table_lists_every_parameter(written):
    text = page(written[2], "attila")
    rules = GAMES["attila"].Rules()
    for row in type(rules).describe():
        assert f"<td>{row['name']}=" in text, row["name"]
    table = report_html.rules_table(rules)
    assert table.columns.tolist() == ["rule", "value", "default", "allowed", "basis", "set with"]
    assert table.set_index("set with").loc["num_players=4", "value"] == "4"
    assert table.set_index("set with").loc["start_player=random", "value"] == "at random"  # a choice in words


def test_seat_advantage_plot_draws_the_fair_share_not_one_half():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from toolkit.viz import plots

    table = pd.DataFrame({"by": ["seat"] * 4 + ["place"] * 4, "index": [0, 1, 2, 3] * 2,
                          "win_rate": [0.25] * 8, "ci_low": [0.2] * 8, "ci_high": [0.3] * 8, "fair": [0.25] * 8})
    ax = plots.seat_advantage_bar(table)
    dashed = [line.get_ydata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"]
    plt.close(ax.figure)
    assert dashed == [0.25]


def test_sizes_are_capped_by_n_games():
    assert html_sizes("valhalla", 200)["tournament"] == 200
    assert html_sizes("attila")["tournament"] == GAMES["attila"].presentation.page_runs.tournament == 50
    assert html_sizes("attila", 10)["skill"] == 10
    assert html_sizes("attila")["decisions"] == 100 and html_sizes("valhalla")["decisions"] == 200
    assert html_sizes("valhalla", 50)["decisions"] == 50
    assert html_sizes("valhalla", 1)["decisions"] == 2  # its intervals are counted over games: never fewer than 2


def test_report_without_html_dir_is_unchanged(written, tmp_path):
    table, out, _ = written
    plain = report(["valhalla"], n_games=N, seed=SEED, out_dir=tmp_path, progress=False)
    pd.testing.assert_frame_equal(plain.drop(columns="seconds"),
                                  table.loc[["valhalla"]].drop(columns="seconds").dropna(axis=1, how="all"),
                                  check_dtype=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["valhalla.csv", "valhalla.csv.json", "valhalla_odds.csv", "valhalla_win_rates.png", "valhalla_length.png",
         "summary.csv"])
    assert (tmp_path / "valhalla.csv").read_text() == (out / "valhalla.csv").read_text()


def test_cli_report_html(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(GAMES, "valhalla", with_presentation(GAMES["valhalla"], page_runs=TINY_VALHALLA))
    html_dir = tmp_path / "html"
    code = main(["report", "valhalla", "-n", str(N), "--out", str(tmp_path), "--html", str(html_dir),
                 "--no-progress"])
    assert code == 0
    assert (html_dir / "valhalla.html").is_file()
    assert sorted(p.name for p in html_dir.iterdir()) == sorted(
        ["index.html", "valhalla.html"] + [f"valhalla_{name}.csv" for name in CSV_NAMES])
    assert 'href="valhalla.html"' in (html_dir / "index.html").read_text()
    assert "valhalla" in capsys.readouterr().out


def test_the_ladder_section_is_the_ladder_of_the_page_runs(written):
    """The page's ladder is ``toolkit.analysis.ladder`` with the game's page sizes, on the report's seed."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, "valhalla", with_presentation(GAMES["valhalla"], page_runs=SMALL_VALHALLA))
        sizes = html_sizes("valhalla", N)
    assert sizes["ladder"] == 10 and "mcts:20" in sizes["ladder_policies"]
    expected = toolkit.analysis.ladder("valhalla", policies=sizes["ladder_policies"], n_games=sizes["ladder"],
                                       seed=SEED, progress=False)
    got = pd.read_csv(written[2] / "valhalla_ladder.csv").set_index("policy")
    assert got.index.tolist() == expected.index.tolist()  # weakest first by the rating measured
    assert set(got.index) == set(sizes["ladder_policies"])
    for column in ("rating", "first_player_advantage", "duration_turns", "skill_gap_high"):
        assert got[column].to_numpy() == pytest.approx(expected[column].to_numpy()), column
    assert expected.attrs["answer"].replace("'", "&#x27;") in page(written[2], "valhalla")
    # the rungs of the full ladder this page leaves out are named, with why (issue 36, point 6)
    assert "Not on this ladder: mcts:100, mcts:1000 (left out to keep the page&#x27;s runs within minutes" \
        in page(written[2], "valhalla")


def test_the_odds_have_one_number_format():
    """Issue 36, point 13: Herrlof's odds mixed ``0.142857`` and ``5.8e-05``."""
    shown = report_html.odds_table(GAMES["herrlof"].odds(GAMES["herrlof"].Rules()))
    values = shown["value"].tolist()
    assert all(re.fullmatch(r"\d+\.\d{6}", v) for v in values), values
    assert "0.000058" in values and "0.142857" in values


def test_the_ratings_are_said_in_words(written):
    """Issue 36, point 11: the ratings table comes with its sentence, made from the page's own ratings."""
    from toolkit.analysis.ratings import in_words

    rated = pd.read_csv(written[2] / "valhalla_ratings.csv").set_index("policy")
    rated.attrs["rating"] = "elo"
    sentence = in_words(rated)
    assert "Elo (95%" in sentence
    assert html.escape(sentence) in page(written[2], "valhalla")


@pytest.mark.parametrize("game", GAMES_HERE)
def test_the_tuning_section_answers_the_games_question(written, game):
    """Issue 36, point 6: the page shows the game's tuning question, answered by the same search run here
    (its trials and games capped at the report's N, its players and preset, the report's seed): the
    question, the answer in words, the base and tuned metrics with their intervals, the commands that
    play it again; the trials are written beside the page."""
    from toolkit.report import tune_command, tune_question

    _, _, html_dir = written
    text = page(html_dir, game)
    section = re.search(r'<section id="tuning">(.*?)</section>', text, re.S).group(1)
    spec = GAMES[game]
    found = tune_question(spec, n_games=N, seed=SEED, progress=False)
    assert found.settings["n_games"] == min(N, spec.presentation.tune_question.n_games)
    assert html.escape(spec.presentation.tune_question.question) in section
    assert html.escape(found.answer()) in section  # the same search: the same trials, finalists and verdict
    assert html.escape(tune_command(spec, found)) in section
    table = found.table()
    for metric, row in table.iterrows():
        assert report_html.interval(row["base"], row["base_low"], row["base_high"], 4) in section, metric
        assert report_html.interval(row["tuned"], row["tuned_low"], row["tuned_high"], 4) in section, metric
    trials = pd.read_csv(html_dir / f"{game}_tuning.csv")
    assert len(trials) == found.settings["trials"]
    assert np.allclose(trials["distance"].to_numpy(float), found.trials["distance"].to_numpy(float), equal_nan=True)


def test_the_tune_command_plays_the_same_search(tmp_path, capsys):
    """The command the page shows, run by the CLI, prints the page's answer."""
    from toolkit.report import tune_command, tune_question

    spec = GAMES["valhalla"]
    found = tune_question(spec, n_games=N, seed=SEED, progress=False)
    command = tune_command(spec, found).split()
    assert command[:3] == ["toolkit", "tune", "valhalla"]
    assert main(command[1:] + ["--no-progress"]) == 0
    assert found.answer() in capsys.readouterr().out
