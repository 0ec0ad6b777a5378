"""Plots that do not mislead (issue 14, point 4).

1. Histograms of integer quantities: the bin width is 1 or even and the bins start on multiples of it,
   so a parity in the data (Valhalla's alternative preset: about 41% of the random games last an even
   number of turns) cannot draw a sawtooth; each bar covers exactly its integer values and the height
   stays the share per single value.
2. Matrix values are written at 9 points or more at the default size, and no label overlaps another.
3. No title of the designer report's figures is cut at the figure's edge.

Every number is read back from the drawn artists (``StepPatch.get_data()``, window extents after a
draw), never from the code that drew them.
"""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.figure  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.patches import StepPatch  # noqa: E402

import toolkit  # noqa: E402
from toolkit.analysis.metrics import seat_advantage  # noqa: E402
from toolkit.games import GAMES  # noqa: E402
from toolkit.report import DEFAULT_GAMES, html_sizes  # noqa: E402
from toolkit.viz import plots, report_html  # noqa: E402

pytestmark = pytest.mark.slow  # about 28 s of CI: started early (tests/conftest.py), so the suite ends on short modules


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


# ------------------------------------------------------------------ 1. integer histograms

# (function, the column it reads, its most bins, a range of values that made the old rule pick 3-wide bins)
HISTOGRAMS = {
    "length_histogram": (lambda frame, **kw: plots.length_histogram(frame, "turns", **kw), 150, (100, 519)),
    "score_distribution": (lambda frame, **kw: plots.score_distribution(frame, **kw), 100, (100, 349)),
}


def _frame(name: str, values, counts) -> pd.DataFrame:
    """One row per game: ``values[i]`` repeated ``counts[i]`` times, as turns or as both seats' scores."""
    column = np.repeat(np.asarray(values, np.int64), np.asarray(counts, np.int64))
    if name == "length_histogram":
        return pd.DataFrame({"turns": column})
    return pd.DataFrame({"score_0": column, "score_1": column})


def _bins(ax):
    """(heights, edges) of the first labelled outline drawn on ``ax``."""
    drawn = [p for p in ax.patches if isinstance(p, StepPatch) and not p.get_label().startswith("_")]
    assert drawn, "no stairs drawn"
    heights, edges, _ = drawn[0].get_data()
    return np.asarray(heights, float), np.asarray(edges, float)


def _parity(values, even: float, shape=None) -> np.ndarray:
    """Counts with ``even`` of the weight on even values (``1 - even`` on odd ones) times a smooth ``shape``."""
    values = np.asarray(values)
    smooth = np.ones(values.size) if shape is None else shape(values)
    return np.round(100_000 * smooth * np.where(values % 2 == 0, even, 1 - even)).astype(np.int64)


@pytest.mark.parametrize("name", HISTOGRAMS)
def test_a_parity_in_the_data_draws_no_sawtooth(name):
    """60% of the weight on even values, flat otherwise: every full bin is equally tall (3-wide bins
    alternated 1.6 : 1.4), and a smooth bell stays smooth from one bin to the next."""
    draw, _, (low, high) = HISTOGRAMS[name]
    values = np.arange(low, high + 1)

    def full_bins(counts):  # a bin at either end may reach past the data and hold fewer values
        heights, edges = _bins(draw(_frame(name, values, counts)))
        return heights[(edges[:-1] >= low - 0.5) & (edges[1:] <= high + 0.5)]

    flat = full_bins(_parity(values, 0.6))
    assert flat.size >= 50
    assert flat.max() - flat.min() < 1e-9 * flat.max(), "a flat distribution drawn with unequal bars"

    centre, spread = (low + high) / 2, (high - low) / 4
    heights = full_bins(_parity(values, 0.6, lambda v: np.exp(-0.5 * ((v - centre) / spread) ** 2)))
    # the bell's own slope moves a 4-wide bin by at most ~4% of the peak; 3-wide bins zigzagged by ~13%
    assert np.abs(np.diff(heights)).max() < 0.06 * heights.max()
    steps = np.sign(np.diff(heights))
    flips = np.sum(steps[1:] * steps[:-1] < 0)
    assert flips <= 4, f"the bars turn up and down {flips} times: a sawtooth"


SPANS = [1, 2, 3, 10, 25, 26, 99, 100, 101, 149, 150, 151, 152, 200, 299, 300, 301, 302, 303, 450, 451, 599,
         600, 601, 1_000, 1_499, 1_500, 1_501, 2_999, 3_000, 7_001, 15_000, 30_001, 99_999, 150_001]


@pytest.mark.parametrize("name", HISTOGRAMS)
def test_default_width_is_one_or_even_with_aligned_half_integer_edges(name):
    draw, most, _ = HISTOGRAMS[name]
    for span, low in itertools.product(SPANS, (0, 7, 137, -13)):
        high = low + span - 1
        values = np.unique(np.linspace(low, high, 40).round().astype(np.int64))
        ax = draw(_frame(name, values, np.arange(1, values.size + 1)))
        if name == "score_distribution" and span <= 25:  # a handful of values: bars at each value
            assert all(p.get_width() < 1 for p in ax.patches)
            plt.close(ax.figure)
            continue
        heights, edges = _bins(ax)
        widths = np.diff(edges)
        width = int(widths[0])
        where = f"span {span} from {low}: width {width}"
        assert np.all(widths == width), where
        assert width == 1 or width % 2 == 0, where
        assert np.all(edges + 0.5 == np.round(edges + 0.5)), where  # edges at half-integers
        assert np.all((edges + 0.5) % width == 0), where  # bins start on multiples of the width
        assert edges[0] <= low - 0.5 and edges[-1] >= high + 0.5, where  # every value inside a bar
        assert heights.size <= most, where
        assert heights.sum() * width == pytest.approx(1.0, abs=1e-9), where
        plt.close(ax.figure)


@pytest.mark.parametrize("name", HISTOGRAMS)
@pytest.mark.parametrize("width", [1, 2, 4, 10, 50])
def test_a_chosen_width_keeps_the_share_per_value(name, width):
    draw, _, (low, high) = HISTOGRAMS[name]
    values = np.arange(low, high + 1)
    heights, edges = _bins(draw(_frame(name, values, _parity(values, 0.6)), bin_width=width))
    assert np.all(np.diff(edges) == width) and np.all((edges + 0.5) % width == 0)
    assert heights.sum() * width == pytest.approx(1.0, abs=1e-9)
    assert heights.max() < 1.0 / (high - low + 1) * 1.25  # a share per value, not per bin


@pytest.mark.parametrize("name", HISTOGRAMS)
def test_an_odd_width_above_one_is_refused(name):
    draw, _, (low, high) = HISTOGRAMS[name]
    frame = _frame(name, [low, high], [1, 1])
    for width in (3, 5, 25):
        with pytest.raises(ValueError, match="bin_width=.* even"):
            draw(frame, bin_width=width)


# ------------------------------------------------------------------ 2. matrix labels

MATRIX_NAMES = {3: ["random", "greedy", "lookahead:8"],
                5: ["random", "greedy", "lookahead", "lookahead:2", "lookahead:16"]}


def _tournament(names) -> pd.DataFrame:
    """A ``tournament.matrix``-shaped frame: win rates with their intervals, the diagonal 0.5."""
    rates = np.random.default_rng(1).uniform(0.02, 0.98, (len(names), len(names)))
    np.fill_diagonal(rates, 0.5)
    columns = pd.MultiIndex.from_product([["win_rate", "ci_low", "ci_high"], names], names=[None, "opponent"])
    return pd.DataFrame(np.hstack([rates, rates - 0.043, rates + 0.041]), index=pd.Index(names, name="policy"),
                        columns=columns)


def _overlaps(boxes) -> list:
    return [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(enumerate(boxes), 2)
            if box_a.overlaps(box_b)]


def _matrix(size: int, intervals: bool):
    table = _tournament(MATRIX_NAMES[size])
    if not intervals:
        table = table["win_rate"]
    ax = plots.comparison_matrix(table, title="row policy's win rate (1,000 games per pair)")
    ax.figure.canvas.draw()
    return ax


@pytest.mark.parametrize("intervals", [True, False], ids=["with intervals", "plain"])
@pytest.mark.parametrize("size", [3, 5])
def test_matrix_values_are_written_at_9_points_or_more(size, intervals):
    ax = _matrix(size, intervals)
    assert len(ax.texts) == size * size
    assert min(t.get_fontsize() for t in ax.texts) >= 9


@pytest.mark.parametrize("intervals", [True, False], ids=["with intervals", "plain"])
@pytest.mark.parametrize("size", [3, 5])
def test_matrix_labels_do_not_overlap(size, intervals):
    ax = _matrix(size, intervals)
    renderer = ax.figure.canvas.get_renderer()
    figure = ax.figure.bbox
    for ticks in (ax.get_xticklabels(), ax.get_yticklabels()):
        boxes = [t.get_window_extent(renderer) for t in ticks]
        assert len(boxes) == size
        assert not _overlaps(boxes), [t.get_text() for t in ticks]
    values = [t.get_window_extent(renderer) for t in ax.texts]
    assert not _overlaps(values)
    # each value lies inside its own cell, so no value runs into a neighbour's colour
    box = ax.get_window_extent(renderer)
    cell_width, cell_height = box.width / size, box.height / size
    for k, extent in enumerate(values):
        row, column = divmod(k, size)
        left, top = box.x0 + column * cell_width, box.y1 - row * cell_height
        assert left <= extent.x0 and extent.x1 <= left + cell_width, ax.texts[k].get_text()
        assert top - cell_height <= extent.y0 and extent.y1 <= top, ax.texts[k].get_text()
    for text in [*ax.get_xticklabels(), *ax.get_yticklabels(), *ax.texts, ax.title]:
        extent = text.get_window_extent(renderer)
        assert figure.x0 <= extent.x0 and extent.x1 <= figure.x1 and figure.y0 <= extent.y0 and extent.y1 <= figure.y1


def test_matrix_centre_is_white_and_text_stays_readable():
    """With a field of four the fair share 1/4 is the white middle of the scale."""
    names = MATRIX_NAMES[3]
    table = pd.DataFrame([[0.25, 0.05, 0.9]] * 3, index=names, columns=names)
    ax = plots.comparison_matrix(table, centre=0.25)
    norm = ax.images[0].norm
    assert norm(0.25) == pytest.approx(0.5)
    assert [t.get_color() for t in ax.texts[:3]] == ["black", "white", "white"]
    with pytest.raises(ValueError, match="centre"):
        plots.comparison_matrix(table, centre=1.0)


# ------------------------------------------------------------------ 3. titles of the report's figures


def _designer_data(game: str) -> report_html.DesignerData:
    """What ``report_html._plots`` reads, cheaply: a small default run repeated to the report's default
    size (so the titles say "200,000 games", as long as a real page's), and a made-up 3x3 matrix with the
    page's policy names."""
    spec = GAMES[game]
    rules = spec.Rules()
    small = toolkit.simulate(game, n_games=40, seed=1, policies=spec.default_policies(rules), progress=False)
    frame = small.iloc[np.arange(DEFAULT_GAMES) % len(small)].reset_index(drop=True)
    frame.attrs = small.attrs
    names = ["random", "greedy", html_sizes(game)["lookahead"]]
    return report_html.DesignerData(spec=spec, rules=rules, frame=frame, metrics=None, tournament=None,
                                     matrix=_tournament(names), ratings=None, seat_advantage=seat_advantage(frame),
                                     odds=None, provenance={}, files=[])


def titles_checked_on_save(monkeypatch) -> list:
    """Wrap ``Figure.savefig``: each figure is drawn as it will be saved and every Axes title is noted
    as ``(title, lies inside the figure)`` in the list returned."""
    saved = []
    original = matplotlib.figure.Figure.savefig

    def check_then_save(fig, *args, **kwargs):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        for ax in fig.axes:
            if ax.get_title():
                extent, figure = ax.title.get_window_extent(renderer), fig.bbox
                saved.append((ax.get_title(), extent.x0 >= figure.x0 and extent.x1 <= figure.x1
                              and extent.y0 >= figure.y0 and extent.y1 <= figure.y1))
        return original(fig, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", check_then_save)
    return saved


@pytest.mark.parametrize("game", list(GAMES))
def test_report_titles_lie_inside_their_figures(game, monkeypatch):
    """Each figure is checked as it is handed to ``savefig``: drawn as it will be saved, every title's
    extent lies inside the figure's."""
    saved = titles_checked_on_save(monkeypatch)
    uris = report_html._plots(_designer_data(game))
    assert sorted(uris) == ["length", "matrix", "scores", "seats"]
    assert len(saved) == 4, saved  # one title per figure
    assert [title for title, inside in saved if not inside] == []
    assert all(GAMES[game].title in title for title, _ in saved)


@pytest.mark.parametrize("game, policies", [("herrlof", ("lookahead:16", "greedy")),
                                             ("walhalla", ("lookahead:4", "greedy", "greedy", "random"))])
def test_plain_report_titles_lie_inside_their_figures(game, policies, monkeypatch, tmp_path):
    """``toolkit report``'s PNG files (report._plots) fit their titles the same way (long policy names:
    a plain ``tight_layout`` cuts the length plot's one-line title)."""
    from toolkit import report

    saved = titles_checked_on_save(monkeypatch)
    frame = toolkit.simulate(game, n_games=40, policies="greedy", progress=False)
    frame = pd.concat([frame] * 5000, ignore_index=True)  # 200,000 rows: titles as long as a real run's
    frame.attrs["policies"] = policies
    written = report._plots(frame, GAMES[game], tmp_path)
    assert len(written) == 2 and [inside for _, inside in saved] == [True, True]


def test_fit_titles_wraps_a_long_title_and_keeps_a_short_one():
    fig, (left, right) = plt.subplots(1, 2, figsize=(5, 3))
    left.set_title("short")
    right.set_title("a title far too long for the right half of a figure five inches wide")
    report_html.fit_titles(fig)
    fig.canvas.draw()
    assert left.get_title() == "short"
    assert "\n" in right.get_title()
    assert right.get_title().replace("\n", " ") == "a title far too long for the right half of a figure five " \
                                                   "inches wide"
    extent = right.title.get_window_extent()
    assert extent.x0 >= fig.bbox.x0 and extent.x1 <= fig.bbox.x1
