"""Every table and matrix of the designer report (``toolkit report --html``), read back cell by cell from
the HTML against the frame it shows (issue 36, point 8).

A table of the report was checked only through the CSV written beside it, so a page that showed a matrix
transposed, a column under another's header or another run's numbers passed.  Here each page's HTML is
parsed (``html.parser``: no lxml needed) and every cell is compared with the frame it shows: the value and
both ends of its interval to the precision printed, the row and column labels in their order, so rows and
columns cannot be swapped unnoticed.  The heat map is read from its figure (the text in cell (row, column)
against the frame's cell).  The frames the page was given are checked against the API's own
(``compare``, ``matrix``, ``ratings``, ``ladder``, ``seat_advantage``, ``odds``, ``design_metrics``) from
the same rules, seed and sizes, so the chain from the games to the page is closed.

The pages: Valhalla's on the ``alternative`` preset (two seats: ordered pairs and Elo; values that differ
from the defaults, so a value column swapped with the default column shows) and Attila's on 3 players
(the field format and OpenSkill), each with a few games per run (:data:`TINY`), built by
``report.designer_report`` as ``toolkit report --html`` builds them.  ``tests/test_report_html.py``'s
report is not reused: a fixture is shared only through a conftest, and these pages cost about 4 s.

Negative controls (one-line bugs in a scratch copy, each caught here; the old report and plot tests missed
all but the last): in ``report_html.py`` the matrix transposed, the ladder's policy headers reversed over
their cells, the seat table's places shifted by one, the two-seat pairings showing the other seat's win
rate, the ratings' se shown as the score, an odds column in reverse row order, the rules' value column
showing the default; in ``plots.comparison_matrix`` each value written in the transposed cell.

The sentences each section leads with are read back too (issue 50): the ratings in words, the ladder's trend,
which decisions matter and the tuning's answer, against the frames the tables show, by the checkers of
``tests/sentences.py``.  Break seen red: the tuning section stating its answer as if the change had moved the
metric (``dataclasses.replace(t, verdict="moved").answer()``).
"""

from __future__ import annotations

import dataclasses
import html
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from sentences import check_decisions, check_ratings, check_trend, check_tuning, paragraphs

import toolkit
from toolkit.analysis import decisions as judged
from toolkit.analysis.metrics import design_metrics, label, seat_advantage
from toolkit.analysis.ratings import ratings
from toolkit.analysis.strength import PLAY_METRICS, ladder
from toolkit.analysis.tournament import compare, matrix
from toolkit.core.game import PageRuns, with_presentation
from toolkit.core.params import params_of
from toolkit.games import GAMES
from toolkit.report import HTML_POLICIES, designer_report, html_sizes
from toolkit.viz import report_html

N = 120
SEED = 4
TINY = {"valhalla": PageRuns(tournament=40, skill=30, ladder=8, ladder_policies=("random", "greedy"), decisions=50),
        "attila": PageRuns(tournament=4, skill=4, lookahead="lookahead:1", ladder=3,
                           ladder_policies=("random", "greedy"), decisions=8)}
PAGES = {"valhalla": ("preset", "alternative"), "attila": ("num_players", 3)}


# --------------------------------------------------------------------- reading the HTML


@dataclasses.dataclass
class Table:
    section: str | None  # the id of the <section> it is in
    head: list  # rows of header cells (texts)
    body: list  # rows of cells (texts; a row's <th> first when the table shows its index)


class _Tables(HTMLParser):
    """Every ``<table>`` of a page with the section it is in; cells as their text, whitespace collapsed."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.section, self.part = [], None, None
        self.row = self.cell = None

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            self.section = dict(attrs).get("id")
        elif tag == "table":
            self.tables.append(Table(self.section, [], []))
            self.part = "body"
        elif tag == "thead":
            self.part = "head"
        elif tag == "tbody":
            self.part = "body"
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            (self.tables[-1].head if self.part == "head" else self.tables[-1].body).append(self.row)
            self.row = None
        elif tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def html_tables(text: str, section: str | None = None) -> list:
    parser = _Tables()
    parser.feed(text)
    return [t for t in parser.tables if section is None or t.section == section]


NUMBER = re.compile(r"[−-]?\d[\d,]*(?:\.(\d+))?")


def shown_numbers(cell: str) -> list:
    """``"0.512 [0.507, 0.517]"`` -> ``[(0.512, 3), (0.507, 3), (0.517, 3)]``: each number and its decimals."""
    return [(float(m.group().replace("−", "-").replace(",", "")), len(m.group(1) or ""))
            for m in NUMBER.finditer(cell)]


def assert_shows(cell: str, value, low=None, high=None, what="") -> None:
    """``cell`` shows ``value`` (and its interval ``[low, high]`` when both are finite) to the precision
    printed; a missing value is shown as an en dash."""
    if value is None or not np.isfinite(float(value)):
        assert cell in ("–", "nan"), (what, cell, value)
        return
    expected = [float(value)]
    if low is not None and high is not None and np.isfinite(float(low)) and np.isfinite(float(high)):
        expected += [float(low), float(high)]
    got = shown_numbers(cell)
    assert len(got) == len(expected), (what, cell, expected)
    for (number, decimals), want in zip(got, expected):
        assert abs(number - want) <= 0.5 * 10.0 ** -decimals + 1e-9, (what, cell, expected)


def header(table: Table) -> list:
    """The column labels: the header row that names them (pandas adds a row for the index's name)."""
    return next(row for row in table.head if any(row))


# --------------------------------------------------------------------- the report's pages


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """``{game: (DesignerData, html, heat-map figure, every figure)}`` for the two pages, as ``toolkit report --html`` builds
    them, with the frames each page was given (``report_html.render``'s argument)."""
    out = tmp_path_factory.mktemp("pages")
    shown, figures = {}, []
    render, figure_uri = report_html.render, report_html.figure_uri

    def keep_data(d):
        shown[d.spec.name] = d
        return render(d)

    def keep_figure(fig):
        figures.append(fig)
        return figure_uri(fig)

    built = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(report_html, "render", keep_data)
        mp.setattr(report_html, "figure_uri", keep_figure)
        for game, (name, value) in PAGES.items():
            spec = with_presentation(GAMES[game], page_runs=TINY[game])
            mp.setitem(GAMES, game, spec)
            rules = spec.Rules.preset(value) if name == "preset" else spec.Rules(**{name: value})
            frame = toolkit.simulate(spec, rules, N, seed=SEED, policies=spec.default_policies(rules), progress=False)
            figures.clear()
            page = designer_report(spec, rules, frame, out / game, n_games=N, seed=SEED)
            heat = next(f for f in figures if any(ax.images for ax in f.axes))  # the matrix: the one heat map
            built[game] = (shown[game], page.read_text(encoding="utf-8"), heat, list(figures))
    return built


def _rules_of(game):
    name, value = PAGES[game]
    return GAMES[game].Rules.preset(value) if name == "preset" else GAMES[game].Rules(**{name: value})


@pytest.mark.parametrize("game", PAGES)
def test_the_page_frames_are_the_apis(pages, game):
    """The frames the page was given are those the API computes from the same rules, seed and sizes."""
    d, *_ = pages[game]
    spec, rules = GAMES[game], _rules_of(game)
    sizes = dataclasses.asdict(TINY[game])
    policies = (*HTML_POLICIES, sizes["lookahead"])
    assert d.rules == rules and len(d.frame) == N and d.frame.attrs["seed"] == SEED
    table = compare(game, policies, sizes["tournament"], seed=SEED, rules=rules, progress=False)
    pd.testing.assert_frame_equal(d.tournament, table)
    pd.testing.assert_frame_equal(d.matrix, matrix(table))
    pd.testing.assert_frame_equal(d.ratings, ratings(table))
    pd.testing.assert_frame_equal(d.seat_advantage, seat_advantage(d.frame))
    pd.testing.assert_frame_equal(d.odds, spec.odds(rules))
    expected = design_metrics(d.frame)
    pd.testing.assert_frame_equal(d.metrics.loc[expected.index, expected.columns], expected)
    rungs = ladder(game, rules, policies=sizes["ladder_policies"], n_games=sizes["ladder"], seed=SEED, progress=False)
    pd.testing.assert_frame_equal(d.ladder, rungs)
    table = judged.decisions(game, rules, n_games=sizes["decisions"], seed=SEED, policies=spec.default_policies(rules),
                             progress=False)
    pd.testing.assert_frame_equal(d.decisions, table)
    assert d.decisions.attrs["n_games"] == sizes["decisions"] and d.decisions.attrs["rules"] == rules.to_json()
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, game, with_presentation(GAMES[game], page_runs=TINY[game]))
        assert html_sizes(game, N)["tournament"] == sizes["tournament"]


@pytest.mark.parametrize("game", PAGES)
def test_the_provenance_table(pages, game):
    d, text, *_ = pages[game]
    (table,) = html_tables(text, "provenance")
    assert table.body == [[k, " ".join(str(v).split())] for k, v in d.provenance.items()]


@pytest.mark.parametrize("game", PAGES)
def test_the_rules_table(pages, game):
    """Each rule's row, in declaration order and in words: the rule's declared meaning, the value these rules use
    and the default in words (a choice's declared words, yes or no), what is allowed, the basis, and the
    ``--set`` text, which reads back as the value these rules use."""
    d, text, *_ = pages[game]
    (table,) = html_tables(text, "rules")
    assert header(table) == ["rule", "value", "default", "allowed", "basis", "set with"]
    declared = params_of(type(d.rules))
    assert [row[-1].split("=")[0] for row in table.body] == list(declared)
    for row, (name, param) in zip(table.body, declared.items()):
        value, kind = getattr(d.rules, name), param.kind
        said = row[-1].split("=", 1)[1]
        assert (None if said == "none" else kind.parse(name, said)) == value, row
        assert row[0] == " ".join(param.doc.split()) and row[4] == " ".join(str(param.basis).split()), row
        assert row[1] == ("none" if value is None else " ".join(kind.word(value).split())), row
        if getattr(kind, "words", ()):  # a choice is read in its words, never as its --set text
            chosen = [row[1]] if isinstance(value, str) else [] if row[1] == "none" else row[1].split(", ")
            assert all(c in kind.words for c in chosen) and all(w in row[3] for w in kind.words), row
    assert any(row[1] != row[2] for row in table.body)  # not the defaults: a value column swapped would show


@pytest.mark.parametrize("game", PAGES)
def test_the_metrics_table(pages, game):
    d, text, *_ = pages[game]
    (table,) = html_tables(text, "metrics")
    assert header(table) == ["metric", "value [95% interval]", "run", "description"]
    assert [row[0] for row in table.body] == [label(m) for m in d.metrics.index]
    for row, (name, m) in zip(table.body, d.metrics.iterrows()):
        if name == "games":
            assert row[1] == f"{int(m['value']):,}"
        else:
            assert_shows(row[1], m["value"], m["ci_low"], m["ci_high"], name)
        assert row[2] == m["run"].split(":")[0] and row[3] == " ".join(m["description"].split()), row


@pytest.mark.parametrize("game", PAGES)
def test_the_matrix_table_row_policy_against_column_policy(pages, game):
    d, text, *_ = pages[game]
    table = html_tables(text, "tournament")[0]
    m = d.matrix
    names = list(m["win_rate"].index)
    assert header(table)[1:] == list(m["win_rate"].columns) == names
    assert [row[0] for row in table.body] == names
    for row in table.body:
        for column, cell in zip(names, row[1:]):
            assert_shows(cell, m["win_rate"].loc[row[0], column], m["ci_low"].loc[row[0], column],
                         m["ci_high"].loc[row[0], column], (row[0], column))
    # the orientation is visible: the rows differ from the columns
    rates = m["win_rate"].to_numpy()
    assert np.abs(rates - rates.T).max() > 0.1


def assert_heat_map_shows(figure, m) -> None:
    """The heat map in ``figure`` writes each cell of the matrix ``m`` (win_rate, ci_low, ci_high) where
    its row and column are, and nothing else."""
    ax = next(a for a in figure.axes if a.images)
    rows = [t.get_text() for t in ax.get_yticklabels()]
    columns = [t.get_text() for t in ax.get_xticklabels()]
    assert rows == list(m["win_rate"].index) and columns == list(m["win_rate"].columns)
    assert len(ax.texts) == len(rows) * len(columns)
    for text in ax.texts:
        x, y = text.get_position()
        a, b = rows[round(y)], columns[round(x)]
        assert_shows(text.get_text(), m["win_rate"].loc[a, b], m["ci_low"].loc[a, b], m["ci_high"].loc[a, b], (a, b))


@pytest.mark.parametrize("game", PAGES)
def test_the_heat_map_writes_each_cell_where_its_row_and_column_are(pages, game):
    d, _, figure, _ = pages[game]
    assert_heat_map_shows(figure, d.matrix)


@pytest.mark.parametrize("game", PAGES)
def test_the_ratings_table(pages, game):
    d, text, *_ = pages[game]
    table = html_tables(text, "tournament")[1]
    r = d.ratings
    if game == "valhalla":
        assert header(table) == ["policy", "Elo [95% interval]", "se", "score", "games"]
        cells = lambda x: [(x.elo, x.ci_low, x.ci_high), (x.se,), (x.score,), (x.games,)]  # noqa: E731
    else:
        assert header(table) == ["policy", "mu [mu ± 1.96 sigma]", "sigma", "ordinal (mu − 3 sigma)", "games"]
        cells = lambda x: [(x.mu, x.ci_low, x.ci_high), (x.sigma,), (x.ordinal,), (x.games,)]  # noqa: E731
    assert [row[0] for row in table.body] == list(r.index)
    for row, x in zip(table.body, r.itertuples()):
        for cell, values in zip(row[1:], cells(x)):
            assert_shows(cell, *values, what=(x.Index, cell))
    assert len(set(r.iloc[:, 0])) == len(r)  # distinct ratings: a row shown for another would show


@pytest.mark.parametrize("game", PAGES)
def test_the_pairings_table(pages, game):
    d, text, *_ = pages[game]
    table = html_tables(text, "tournament")[2]
    t = d.tournament
    assert len(table.body) == len(t)
    turns = lambda r: (r.mean_turns, r.mean_turns - 1.96 * r.se_turns, r.mean_turns + 1.96 * r.se_turns)  # noqa: E731
    if game == "valhalla":
        assert header(table) == ["seat 0", "seat 1", "games", "seat 0 win rate", "seat 1 win rate", "no winner",
                                 "mean turns"]
        for row, (_, r) in zip(table.body, t.iterrows()):
            assert row[:2] == [r.seat0_policy, r.seat1_policy] and row[2] == f"{r.games:,}"
            for s in (0, 1):
                assert_shows(row[3 + s], r[f"win_rate_{s}"], r[f"ci_low_{s}"], r[f"ci_high_{s}"], (row[:2], s))
            assert row[5] == f"{r.no_winner:,}"
            assert_shows(row[6], *turns(r), what=row[:2])
        assert (t["win_rate_0"] != t["win_rate_1"]).any()  # seats swapped would show
    else:
        seats = int(t["seats"].iloc[0])
        assert header(table) == ["tested", "field", "games per seating",
                                 *[f"win rate in seat {s}" for s in range(seats)], "win rate, all seatings",
                                 "no winner", "shared wins", "mean turns"]
        for row, (_, r) in zip(table.body, t.iterrows()):
            assert row[:2] == [r.tested_policy, r.field_policy] and row[2] == f"{r.games:,}"
            for s in range(seats):
                assert_shows(row[3 + s], r[f"win_rate_{s}"], r[f"ci_low_{s}"], r[f"ci_high_{s}"], (row[:2], s))
            assert_shows(row[3 + seats], r.win_rate, r.ci_low, r.ci_high, row[:2])
            assert row[4 + seats:6 + seats] == [f"{r.no_winner:,}", f"{r.shared_wins:,}"]
            assert_shows(row[6 + seats], *turns(r), what=row[:2])


@pytest.mark.parametrize("game", PAGES)
def test_the_ladder_table_one_column_a_policy(pages, game):
    d, text, *_ = pages[game]
    (table,) = html_tables(text, "ladder")
    t = d.ladder
    assert header(table)[1:] == list(t.index)  # the policies across, weakest first
    kind = "Elo rating" if t.attrs["rating"] == "elo" else "skill μ (OpenSkill)"
    measures = (("rating", kind), *PLAY_METRICS, ("skill_gap", "skill gap vs random"))
    labels = {label: column for column, label in measures}
    shown = [c for c in labels.values() if c in t.columns and not t[c].isna().all()]
    assert [labels[row[0]] for row in table.body] == shown
    for row in table.body:
        column = labels[row[0]]
        for policy, cell in zip(t.index, row[1:]):
            assert_shows(cell, t.loc[policy, column], t.loc[policy, f"{column}_low"], t.loc[policy, f"{column}_high"],
                         (row[0], policy))


@pytest.mark.parametrize("game", PAGES)
def test_the_seat_table(pages, game):
    d, text, *_ = pages[game]
    (table,) = html_tables(text, "seats")
    sa = d.seat_advantage
    assert header(table) == ["by", "seat / place", "wins", "games", "win rate [95% interval]", "fair share"]
    assert len(table.body) == len(sa)
    for row, (_, r) in zip(table.body, sa.iterrows()):
        spec = toolkit.GAMES[game]
        name = spec.seat_name(d.rules, r["index"])
        place = (f"seat {r['index']}" + ("" if name == f"seat {r['index']}" else f" ({name})") if r["by"] == "seat"
                 else f"place {r['index']}")
        assert row[0] == r["by"] and row[1] == place + (" (moved first)" if place == "place 0" else "")
        assert row[2:4] == [f"{int(r['wins']):,}", f"{int(r['games']):,}"]
        assert_shows(row[4], r["win_rate"], r["ci_low"], r["ci_high"], row[:2])
        assert_shows(row[5], r["fair"], what=row[:2])
    by_seat = sa[sa["by"] == "seat"]["win_rate"].to_numpy()
    assert len(set(by_seat)) > 1  # seats told apart: a shifted row would show


@pytest.mark.parametrize("game", PAGES)
def test_the_odds_table(pages, game):
    d, text, *_ = pages[game]
    (table,) = html_tables(text, "odds")
    odds = d.odds
    assert header(table) == list(odds.columns)
    assert len(table.body) == len(odds)
    for row, (_, r) in zip(table.body, odds.iterrows()):
        for column, cell in zip(odds.columns, row):
            if pd.api.types.is_float_dtype(odds[column]):
                assert re.fullmatch(r"-?\d+\.\d{6}|–", cell), (column, cell)  # one format: six decimals
                assert_shows(cell, r[column], what=(r.iloc[0], column))
            else:
                assert cell == " ".join(str(r[column]).split()), (column, cell)


def assert_decisions_table(table: Table, t: pd.DataFrame) -> None:
    """``table`` (parsed HTML) shows ``t`` (``toolkit.analysis.decisions.decisions``) row by row: the kind, its
    DP, decisions a game, games with a choice, then forced and trivial (in percent), the impact and its sum
    over a game, each with its interval."""
    assert header(table)[1:] == ["decision point (rules §5)", "per game", "games with a choice", "forced [95% CI]",
                                 f"trivial (within {t.attrs['epsilon']}) [95% CI]", "impact: best - random [95% CI]",
                                 "summed over a game [95% CI]"]
    assert [row[0] for row in table.body] == list(t.index)
    for row, (kind, r) in zip(table.body, t.iterrows()):
        assert row[1:4] == [f"DP{int(r['dp'])}", f"{r['decisions']:.1f}", f"{int(r['games']):,}"], kind
        for cell, column, scale in zip(row[4:], ("forced", "trivial", "impact", "game_impact"), (100, 100, 1, 1),
                                       strict=True):
            value, low, high = (r[column + suffix] * scale for suffix in ("", "_low", "_high"))
            assert_shows(cell, value, low, high, (kind, column))
    shown = [row[6] for row in table.body if row[6] != "–"]
    assert len(shown) < 2 or len(set(shown)) > 1  # kinds told apart: a shifted row shows


@pytest.mark.parametrize("game", PAGES)
def test_the_decisions_table_and_its_figure(pages, game):
    """The decisions section: its sentences are ``answer``'s, each row is its kind's (per game, games with a
    choice, and forced, trivial, impact and its sum over a game with their intervals), and the impact figure writes each rated
    kind's impact and interval on that kind's row."""
    d, text, *_ = pages[game]
    t = d.decisions
    assert html.unescape(re.search(r'<section id="decisions">.*?<p class="lead">(.*?)</p>', text, re.S).group(1)) \
        == judged.answer(t)
    (table,) = html_tables(text, "decisions")
    assert_decisions_table(table, t)
    figure = next(f for f in pages[game][3] if "what choosing well is worth" in f.axes[0].get_title())
    ax = figure.axes[0]
    rated = t[(t["with_choice"] > 0) & t["impact"].notna()]
    labels = [tick.get_text().split(" (in ")[0] for tick in ax.get_yticklabels()]
    assert labels == list(rated.index)
    written = [text_.get_text() for text_ in ax.texts]
    assert len(written) == len(rated)
    for text_, (kind, r) in zip(written, rated.iterrows()):
        assert_shows(text_, r["impact"], r["impact_low"], r["impact_high"], kind)


def lead(page: str, section: str) -> list:
    """The lead paragraphs (the sentences a designer reads first) of a section of a page."""
    part = re.search(rf'<section id="{section}">(.*?)</section>', page, flags=re.S)
    assert part, section
    return paragraphs("".join(re.findall(r'<p class="lead">.*?</p>', part.group(1), flags=re.S)))


@pytest.mark.parametrize("game", PAGES)
def test_the_pages_sentences_agree_with_its_tables(pages, game):
    """Issue 50: every sentence a section leads with, read from the page's HTML, against the frame its table
    shows (the tests above prove each table shows its frame): the ratings in words, the ladder's trend, which
    decisions matter and the tuning's answer, by the checkers of ``tests/sentences.py``.  Two seats (Elo) on
    Valhalla's page, three (the field's win rates) on Attila's."""
    d, text, *_ = pages[game]
    seats = d.spec.seats(d.rules)
    (said,) = lead(text, "tournament")
    assert check_ratings(d.ratings, said, seats)
    (said,) = lead(text, "ladder")
    assert check_trend(d.ladder, said) == "too few"  # the page's ladders have a handful of self-play games
    (said,) = lead(text, "decisions")
    assert check_decisions(d.decisions, said)
    question, found = lead(text, "tuning")
    assert question == d.spec.presentation.tune_question.question
    prefix = f"Found ({d.tuning.settings['trials']} trials of {d.tuning.settings['n_games']:,} games): "
    assert found.startswith(prefix) and check_tuning(d.tuning, found[len(prefix):]) == d.tuning.verdict
