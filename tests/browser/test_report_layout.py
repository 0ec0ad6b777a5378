"""The designer report's tables fit the page in Chromium (issue 36, point 13).

Halali's rules table was 2,035 px wide on the 1,100 px page (its mappings and matrices as long values
without a space), and the metrics table wrapped every value with its interval over two lines.  Here the
Halali page (small runs) is opened at 1440x900: every table's right edge stays within the page's
content, and every value-with-interval cell (class ``ci``) is one line.  The negative control takes the
two CSS rules away and the rules table spills over the page again.
"""

from __future__ import annotations

import dataclasses

import pytest

from toolkit.core.game import PageRuns, with_presentation
from toolkit.games import GAMES
from toolkit.report import report

TINY = PageRuns(tournament=6, skill=6, lookahead="lookahead", ladder=4, ladder_policies=("random", "greedy"),
                decisions=4)
OVERFLOW = """() => {
    const right = document.body.getBoundingClientRect().right
        - parseFloat(getComputedStyle(document.body).paddingRight);
    return [...document.querySelectorAll("table")].map(t => t.getBoundingClientRect().right - right)
        .filter(d => d > 1);
}"""
WRAPPED = """() => [...document.querySelectorAll("td.ci")].filter(td => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;  // lines of its text
}).map(td => td.textContent)"""


@pytest.fixture(scope="module")
def halali_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, "halali", with_presentation(GAMES["halali"], page_runs=TINY))
        report(["halali"], n_games=500, seed=1, out_dir=out / "out", html_dir=out / "html", progress=False)
    return out / "html" / "halali.html"


def test_every_table_fits_the_page_and_no_interval_wraps(browser, halali_page):
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    try:
        page.goto(halali_page.as_uri())
        assert page.locator("td.ci").count() > 10  # the metrics, the tournament, the ladder, the seats
        assert page.evaluate(OVERFLOW) == []
        assert page.evaluate(WRAPPED) == []
        # the control: without the two rules the rules table is wider than the page again
        page.add_style_tag(content="td { overflow-wrap: normal !important; } "
                                   "td.ci { white-space: normal !important; }")
        assert page.evaluate(OVERFLOW) != []
        page.set_viewport_size({"width": 700, "height": 900})  # narrow: intervals now wrap (they can)
        assert page.evaluate(WRAPPED) != []
    finally:
        page.close()
