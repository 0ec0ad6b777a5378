"""The designer report's tables fit their column in Chromium (issue 36, point 13; issue 52, point 6).

Halali's rules table was 2,035 px wide on the 1,100 px page (its mappings and matrices as long values
without a space), the metrics table wrapped every value with its interval over two lines, and Attila's
"every pairing" table (four seats of intervals) was 1,136 px wide with names broken mid-word ("rando m").
Here the Halali page and Attila's (four players; small runs) are opened at 1440x900: what a reader sees of
every table stays within the page's content (a table wider than its column scrolls inside its box), every
value-with-interval cell (class ``ci``) is one line, and no cell breaks a word.  The negative controls take
the rules away: the tables spill over the page, and words break again.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from toolkit.core.game import PageRuns, with_presentation
from toolkit.games import GAMES
from toolkit.report import report

TINY = PageRuns(tournament=6, skill=6, lookahead="lookahead", ladder=4, ladder_policies=("random", "greedy"),
                decisions=4)
# how far past the page's content each table shows: its box's edge where the box scrolls, else its own
OVERFLOW = """() => {
    const right = document.body.getBoundingClientRect().right
        - parseFloat(getComputedStyle(document.body).paddingRight);
    return [...document.querySelectorAll("table")].map(t => {
        const box = t.parentElement;
        const scrolls = box.matches("div.table") && getComputedStyle(box).overflowX !== "visible";
        return (scrolls ? box : t).getBoundingClientRect().right - right;
    }).filter(d => d > 1);
}"""
LINES = """cell => { const range = document.createRange(); range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }"""
WRAPPED = f"""() => [...document.querySelectorAll("td.ci")].filter(td => ({LINES})(td) > 1).map(td => td.textContent)"""
# a cell of one word (no space, no comma: a list may wrap after its commas) on more than one line: broken
BROKEN = f"""() => [...document.querySelectorAll("td, th")].filter(c => !/[\\s,]/.test(c.textContent.trim())
    && ({LINES})(c) > 1).map(c => c.textContent)"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as mp:
        for game, spec in GAMES.items():
            question = spec.presentation.tune_question  # a few trials: the page's words, not its search
            mp.setitem(GAMES, game, with_presentation(spec, page_runs=TINY, tune_question=question and dataclasses.replace(
                question, trials=4)))
        report(list(GAMES), n_games=300, seed=1, out_dir=out / "out", html_dir=out / "html", progress=False)
    return {game: out / "html" / f"{game}.html" for game in GAMES}


# the text a reader sees: every element's, without the command lines (code) and the --set texts (the rules
# table's "set with" column), which keep the names a command needs
READ = """() => {
    const body = document.body.cloneNode(true);
    for (const table of body.querySelectorAll("table")) {
        const heads = [...table.querySelectorAll("thead tr:first-child th")].map(th => th.textContent.trim());
        const at = heads.indexOf("set with");
        if (at < 0) continue;
        for (const row of table.querySelectorAll("tr")) row.children[at] && row.children[at].remove();
    }
    body.querySelectorAll("code, pre, script, style").forEach(e => e.remove());
    return body.innerText;
}"""


def labelled_names(spec) -> set:
    """The raw names that have words a page should show instead: the rules' names, their choices' values
    with declared words, the metrics' names and the analysis' columns (``toolkit.viz.words``)."""
    from toolkit.analysis.metrics import LABELS
    from toolkit.core.params import RAW_NAME, params_of
    from toolkit.viz.words import COLUMNS

    names = set(LABELS) | set(COLUMNS) | {f"{m}_{end}" for m in LABELS for end in ("low", "high")}
    for name, param in params_of(spec.Rules).items():
        names.add(name)
        for choice, word in zip(getattr(param.kind, "choices", ()), getattr(param.kind, "words", ())):
            if str(choice) != word:
                names.add(str(choice))
    return {n for n in names if RAW_NAME.fullmatch(n)}


@pytest.mark.parametrize("game", list(GAMES))
def test_no_name_that_has_words_is_read_on_a_report_page(browser, pages, game):
    """Issue 52, point 4: on every game's report page, the text a reader sees (headings, sentences, every
    table's headers and cells) holds no raw name that has words: a rule, a rule's choice, a metric, an
    analysis column.  The names stay in the command lines and the rules table's "set with" column.  The
    control: the "set with" column's text read too is found."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    try:
        page.goto(pages[game].as_uri())
        names = labelled_names(GAMES[game])
        read = set(re.findall(r"[A-Za-z0-9_]+", page.evaluate(READ)))
        assert sorted(read & names) == []
        every = set(re.findall(r"[A-Za-z0-9_]+", page.inner_text("body")))  # the control: with the --set texts
        assert read & names < every & names
    finally:
        page.close()


@pytest.mark.parametrize("game", ["halali", "attila"])
def test_every_table_fits_its_column_no_interval_wraps_and_no_word_breaks(browser, pages, game):
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    try:
        page.goto(pages[game].as_uri())
        assert page.locator("td.ci").count() > 10  # the metrics, the tournament, the ladder, the seats
        assert page.evaluate(OVERFLOW) == []
        assert page.evaluate(WRAPPED) == []
        assert page.evaluate(BROKEN) == []
        # the controls: cells that may break anywhere break names again (Attila's pairings, Halali's
        # mappings); a box that does not scroll lets a table too wide for the column spill over the page
        page.add_style_tag(content="div.table { overflow-x: visible !important; } "
                                   "td { overflow-wrap: anywhere !important; }")
        assert page.evaluate(BROKEN) != []
        page.add_style_tag(content="td { overflow-wrap: normal !important; white-space: nowrap !important; }")
        assert page.evaluate(OVERFLOW) != []  # cells on one line each, in a box that does not scroll: spilled
        page.add_style_tag(content="td.ci { white-space: normal !important; }")
        page.set_viewport_size({"width": 700, "height": 900})  # narrow: intervals now wrap (they can)
        assert page.evaluate(WRAPPED) != []
    finally:
        page.close()
