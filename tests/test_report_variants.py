"""The designer report of rule variants (issue 51, point 3): ``toolkit report --rules A.toml [--rules B.toml]
[--baseline PRESET|FILE]``.

Each variant gets a page with every section of a game's page, for its rules, and a section "Against the
baseline": its default run beside the baseline's on the same seed and players, every headline quantity's
paired difference with an interval (held together for the quantities), read back here against
``paired.before_after`` of the same runs computed apart, and its sentences read back by the checkers of
``tests/sentences.py``.  An index page links every page; the CSV files beside a page are links that resolve.
"""

from __future__ import annotations

import re

import pytest
from sentences import check_before_after, paragraphs
from test_effect_report_tables import assert_shows, header, html_tables

import toolkit
from toolkit.analysis import paired
from toolkit.cli import main
from toolkit.core.game import PageRuns, with_presentation
from toolkit.games import GAMES
from toolkit.report import report

N = 150
SEED = 5
TINY = PageRuns(tournament=6, skill=6, ladder=4, ladder_policies=("random", "greedy"), decisions=4)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Two Valhalla variants reported against the standard preset, and the second against the first."""
    folder = tmp_path_factory.mktemp("variants")
    four = toolkit.save_rules(toolkit.rules("valhalla", zero_runes_value=4), folder / "four.toml", "four for zero",
                              "a throw with no rune up counts 4")
    six = toolkit.save_rules(toolkit.rules("valhalla", ships_per_player=5, zero_runes_value=6), folder / "six.toml")
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, "valhalla", with_presentation(GAMES["valhalla"], page_runs=TINY))
        table = report(variants=[four, six], n_games=N, seed=SEED, out_dir=folder / "out", html_dir=folder / "html",
                       threads=1, progress=False)
        against = report(variants=[six], baseline=str(four), n_games=N, seed=SEED, out_dir=folder / "out2",
                         html_dir=folder / "html2", threads=1, progress=False)
        index = (folder / "html" / "index.html").read_text()
        mp.setitem(GAMES, "pig", with_presentation(GAMES["pig"], page_runs=TINY))
        report(["pig"], n_games=N, seed=SEED, out_dir=folder / "out3", html_dir=folder / "html", threads=1,
               progress=False)  # a later report into the same folder
    return folder, table, against, index


def _section(page: str, key: str) -> str:
    return re.search(rf'<section id="{key}">(.*?)</section>', page, flags=re.S).group(1)


@pytest.mark.parametrize("name, changes", [("four", {"zero_runes_value": 4}),
                                           ("six", {"ships_per_player": 5, "zero_runes_value": 6})])
def test_each_variant_is_set_against_the_baseline_on_the_same_seed(written, name, changes):
    folder, table, _, _ = written
    page = (folder / "html" / f"valhalla--{name}.html").read_text()
    rules = toolkit.rules("valhalla", **changes)
    policies = GAMES["valhalla"].default_policies(rules)
    base = toolkit.simulate("valhalla", None, N, seed=SEED, policies=policies, threads=1, progress=False)
    now = toolkit.simulate("valhalla", rules, N, seed=SEED, policies=policies, threads=1, progress=False)
    expected = paired.before_after(base, now)
    part = _section(page, "baseline")
    (shown,) = html_tables(part)
    assert header(shown) == ["quantity", "baseline", "this variant", "difference [95%, 4 together]"]
    assert [row[0] for row in shown.body] == list(expected["quantity"])
    for row, r in zip(shown.body, expected.itertuples()):
        assert_shows(row[1], r.baseline, what=row[0])
        assert_shows(row[2], r.now, what=row[0])
        assert_shows(row[3], r.difference, r.ci_low, r.ci_high, row[0])
    items = paragraphs("".join(re.findall(r"<li>.*?</li>", part, flags=re.S)))
    assert check_before_after(expected, items)
    assert "the standard preset" in part and f"{N:,} games each" in part
    assert table.loc[f"valhalla--{name}", "games"] == N


def test_the_page_is_the_variants_whole_page(written):
    """Every section of a game's page, for the variant's rules: the rules table shows its values, the title
    and the lead name the variant and its note, the tuning starts from its file."""
    folder, _, _, _ = written
    page = (folder / "html" / "valhalla--four.html").read_text()
    ids = re.findall(r'<section id="(\w+)">', page)
    assert ids == ["provenance", "rules", "baseline", "metrics", "tournament", "ladder", "decisions", "tuning",
                   "seats", "distributions", "odds"]
    rules_table = html_tables(_section(page, "rules"))[0]
    row = next(r for r in rules_table.body if r[-1].startswith("zero_runes_value="))
    assert row[1:3] == ["4", "5"] and row[-1] == "zero_runes_value=4"  # the variant's value, then the default
    assert "designer report of the variant four for zero" in page and "a throw with no rune up counts 4" in page
    assert f"--rules {folder / 'four.toml'}" in _section(page, "tuning")
    game_page_ids = [k for k in ids if k != "baseline"]  # a game's page has every other section
    assert len(game_page_ids) == 10


def test_the_index_links_every_page_and_every_csv_link_resolves(written):
    """The index links every page of the report; a later report into the same folder (Pig's) adds its page
    and keeps the earlier ones linked."""
    folder, _, _, first = written
    html_dir = folder / "html"
    assert re.findall(r'<a href="([^"]+)">', first) == ["valhalla--four.html", "valhalla--six.html"]
    index = (html_dir / "index.html").read_text()
    links = re.findall(r'<a href="([^"]+)">', index)
    assert links == ["pig.html", "valhalla--four.html", "valhalla--six.html"]
    assert "Valhalla: designer report of the variant four for zero" in index  # an earlier page by its title
    links = links[1:]
    for link in links:
        page = (html_dir / link).read_text()
        footer = re.search(r"<footer>(.*?)</footer>", page, flags=re.S).group(1)
        files = re.findall(r'<a href="([^"]+)">', footer)
        assert files and all((html_dir / f).is_file() for f in files), files
        assert f"{link[:-5]}_baseline.csv" in files


def test_a_variant_file_as_the_baseline(written):
    """``--baseline FILE``: six against four, both on the same seed."""
    folder, _, _, _ = written
    part = _section((folder / "html2" / "valhalla--six.html").read_text(), "baseline")
    assert "the variant four for zero" in part
    rules4, rules6 = toolkit.rules("valhalla", zero_runes_value=4), toolkit.rules("valhalla", ships_per_player=5,
                                                                                   zero_runes_value=6)
    policies = GAMES["valhalla"].default_policies(rules6)
    base = toolkit.simulate("valhalla", rules4, N, seed=SEED, policies=policies, threads=1, progress=False)
    now = toolkit.simulate("valhalla", rules6, N, seed=SEED, policies=policies, threads=1, progress=False)
    expected = paired.before_after(base, now)
    (shown,) = html_tables(part)
    for row, r in zip(shown.body, expected.itertuples()):
        assert_shows(row[3], r.difference, r.ci_low, r.ci_high, row[0])


def test_bad_variants_and_baselines_are_refused_before_any_game(tmp_path, capsys):
    other = toolkit.save_rules(toolkit.rules("pig", second_player_bonus=2), tmp_path / "pig.toml")
    mine = toolkit.save_rules(toolkit.rules("valhalla", zero_runes_value=4), tmp_path / "v.toml")
    cases = [(["--rules", str(tmp_path / "nope.toml")], "no such file"),
             (["--rules", str(mine), "--baseline", str(other)], "the file is for pig, not valhalla"),
             (["--rules", str(mine), "--baseline", "standrd"], "a preset of valhalla"),
             (["--baseline", "standard"], "--baseline standard is not allowed without --rules FILE")]
    for argv, words in cases:
        assert main(["report", *argv, "--out", str(tmp_path / "out"), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()
