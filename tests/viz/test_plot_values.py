"""The bars of the per-seat plots have the heights of the data they were drawn from (issue 15, point 6).

The other plot tests check labels, bins and layout; none read a bar's height, so ``win_rates_bar``
drawing the seats in reverse passed them all.  Here each plot is drawn from a real run with clearly
unequal seats (greedy against random in Valhalla; four random players in Attila, whose seats still
differ), and the drawn artists are read back: every bar's x position, its tick label (or legend
label), its height, its error bar's two ends and its printed value, and the reference lines.  The
expected values come from the frame's own columns (``win_<seat>``, the first mover's column,
``score_<seat>``, ``turns``) and ``stats.wilson``, not from the tables the plots were given, so a
plot that mixes up seats, heights or interval ends fails, whichever table fed it.

Plots covered: ``win_rates_bar`` (from ``toolkit.win_rates`` of a frame and from a streaming
``Summary``; its dashed line at the fair share 1 / seats, or at ``fair=``), ``seat_advantage_bar``
(by seat and by place in the turn order), ``score_distribution`` (its side-by-side bars per seat)
and ``length_histogram`` (its shares per value and its mean band).

Negative controls, each a one-line bug applied to a scratch copy of the code (the other plot, report
and analysis tests stayed green with all but the third, sixth and seventh): the rates of
``win_rates_bar`` reversed, the rates of ``seat_advantage_bar`` reversed, the tick labels of
``win_rates_bar`` off by one, the two ends of every error bar swapped, ``seat_advantage`` at
z = 1.645, the places counted the wrong way round the table (caught by the 4-seat Attila run only: with
two seats it changes nothing), each seat's score shares divided by the number of seats, and the mean
band of ``length_histogram`` drawn with the standard deviation instead of the standard error.
"""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.container import BarContainer, ErrorbarContainer  # noqa: E402
from matplotlib.patches import StepPatch  # noqa: E402

import toolkit  # noqa: E402
from toolkit.analysis.metrics import seat_advantage  # noqa: E402
from toolkit.core import stats  # noqa: E402
from toolkit.viz import plots  # noqa: E402

TOL = 1e-9

# (game, rules keyword arguments, policies, seed, games); the column naming the seat that moved first
RUNS = {
    "valhalla-greedy-random": ("valhalla", {}, "greedy,random", 1, 400),
    "attila-4-random": ("attila", {"num_players": 4}, "random", 1, 400),
}
FIRST_MOVER = {"valhalla": "start_seat", "attila": "start_player"}


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


_FRAMES: dict = {}


def _run(name: str, keep: str = "games"):
    """The frame (or streaming summary) of one of ``RUNS``; each is simulated once per session."""
    if (name, keep) not in _FRAMES:
        game, rules_kw, policies, seed, n_games = RUNS[name]
        _FRAMES[name, keep] = toolkit.simulate(game, rules=toolkit.rules(game, **rules_kw), n_games=n_games,
                                               seed=seed, policies=policies, keep=keep, progress=False)
    return _FRAMES[name, keep]


def _seat_wins(frame: pd.DataFrame) -> np.ndarray:
    seats = sum(1 for c in frame.columns if re.fullmatch(r"win_\d+", c))
    return np.array([int(frame[f"win_{s}"].sum()) for s in range(seats)])


def _place_wins(frame: pd.DataFrame, game: str) -> np.ndarray:
    """Wins by place in the turn order: a win of seat ``s`` in a game seat ``f`` began is place ``(s - f) % seats``."""
    seats = len(_seat_wins(frame))
    first = frame[FIRST_MOVER[game]].to_numpy(np.int64)
    wins = np.zeros(seats, np.int64)
    for s in range(seats):
        won = frame[f"win_{s}"].to_numpy() == 1
        wins += np.bincount((s - first[won]) % seats, minlength=seats)
    return wins


def _centre(patch) -> float:
    return patch.get_x() + patch.get_width() / 2


def _ticks(ax) -> dict:
    """Tick position -> its label's text."""
    return dict(zip(ax.get_xticks(), (t.get_text() for t in ax.get_xticklabels())))


def _bars(ax) -> list[tuple[str, list]]:
    """(label, patches) of every bar series drawn on ``ax``."""
    return [(c.get_label(), list(c.patches)) for c in ax.containers if isinstance(c, BarContainer)]


def _error_segments(ax) -> dict:
    """Error-bar x -> (lower end, upper end), over every error bar on ``ax``."""
    ends = {}
    for container in ax.containers:
        if isinstance(container, ErrorbarContainer):
            for collection in container.lines[2]:
                for segment in collection.get_segments():
                    (x0, y0), (x1, y1) = segment
                    assert abs(x0 - x1) < TOL, "a vertical error bar"
                    ends[float(x0)] = (min(y0, y1), max(y0, y1))
    return ends


def _at(mapping: dict, x: float):
    """The value of ``mapping`` whose key is ``x`` (to ``TOL``); exactly one."""
    found = [v for k, v in mapping.items() if abs(k - x) < TOL]
    assert len(found) == 1, f"{len(found)} entries at x={x} in {sorted(mapping)}"
    return found[0]


def _annotations(ax) -> dict:
    """Annotation x -> (its text, its anchor's y)."""
    return {float(t.xy[0]): (t.get_text(), float(t.xy[1])) for t in ax.texts if hasattr(t, "xy")}


def _dashed(ax) -> list:
    return [line for line in ax.get_lines() if line.get_linestyle() == "--"]


# ------------------------------------------------------------------ win_rates_bar


@pytest.mark.parametrize("keep", ["games", "summary"])
@pytest.mark.parametrize("name", RUNS)
def test_win_rates_bar_heights_are_each_seats_win_rate(name, keep):
    frame = _run(name)
    data = _run(name, keep)
    table = toolkit.win_rates(data) if keep == "games" else data.win_rates()
    ax = plots.win_rates_bar(table)

    wins = _seat_wins(frame)
    n = len(frame)
    seats = len(wins)
    assert len(set(wins)) == seats, f"equal seats would hide a mix-up: {wins}"
    [(_, patches)] = _bars(ax)
    assert len(patches) == seats
    ticks, errors, notes = _ticks(ax), _error_segments(ax), _annotations(ax)
    seen = set()
    for patch in patches:
        x = _centre(patch)
        label = _at(ticks, x)
        assert re.fullmatch(r"seat \d+", label), label
        seat = int(label.split()[1])
        seen.add(seat)
        rate, low, high = stats.wilson(int(wins[seat]), n)
        assert abs(patch.get_y()) < TOL
        assert abs(patch.get_height() - rate) < TOL, f"{label}: bar {patch.get_height()}, win rate {rate}"
        y0, y1 = _at(errors, x)
        assert abs(y0 - low) < TOL and abs(y1 - high) < TOL, f"{label}: error bar {y0, y1}, Wilson {low, high}"
        text, anchor = _at(notes, x)
        assert text == f"{rate:.3f}\n[{low:.3f}, {high:.3f}]" and abs(anchor - high) < TOL, (label, text)
    assert seen == set(range(seats))
    assert [line.get_ydata()[0] for line in _dashed(ax)] == [1 / seats]  # the fair share


@pytest.mark.parametrize("keep", ["games", "summary"])
@pytest.mark.parametrize("name, seats, label", [
    ("valhalla-greedy-random", 2, "0.5 (fair)"),
    ("attila-4-random", 4, "0.25 (fair: 1 / 4 seats)"),
])
def test_win_rates_bar_fair_line_is_one_over_the_seats_unless_given(name, seats, label, keep):
    """The dashed line sits at 1 / seats of the table it draws (0.5 only with two seats, with the
    label every 2-seat picture has had), and ``fair=`` puts it anywhere, for a table that is not
    one row per seat."""
    data = _run(name, keep)
    table = toolkit.win_rates(data) if keep == "games" else data.win_rates()
    assert len(table) == seats
    [line] = _dashed(plots.win_rates_bar(table))
    assert list(line.get_ydata()) == [1 / seats, 1 / seats] and line.get_label() == label
    [line] = _dashed(plots.win_rates_bar(table, fair=0.3))
    assert list(line.get_ydata()) == [0.3, 0.3] and line.get_label() == "0.3 (fair)"
    [line] = _dashed(plots.win_rates_bar(table, fair=0.5))
    assert list(line.get_ydata()) == [0.5, 0.5] and line.get_label() == "0.5 (fair)"
    for bad in (0, 1, 1.5, -0.1, True, "0.5"):
        with pytest.raises(ValueError, match="fair="):
            plots.win_rates_bar(table, fair=bad)


def test_win_rates_bar_labels_follow_the_table():
    """Given labels name the bars in the table's order: the greedy seat's bar is the tall one."""
    frame = _run("valhalla-greedy-random")
    ax = plots.win_rates_bar(toolkit.win_rates(frame), labels=frame.attrs["policies"])
    heights = {_at(_ticks(ax), _centre(p)): p.get_height() for p in _bars(ax)[0][1]}
    assert heights["greedy"] == pytest.approx(frame["win_0"].mean(), abs=TOL) and heights["greedy"] > 0.8
    assert heights["random"] == pytest.approx(frame["win_1"].mean(), abs=TOL) and heights["random"] < 0.2


# ------------------------------------------------------------------ seat_advantage_bar

GROUPS = {"by seat number": ("seat", -0.2), "by place in the turn order (0 = moved first)": ("place", 0.2)}


@pytest.mark.parametrize("keep", ["games", "summary"])
@pytest.mark.parametrize("name", RUNS)
def test_seat_advantage_bar_heights_are_the_rates_by_seat_and_by_place(name, keep):
    game = RUNS[name][0]
    frame = _run(name)
    ax = plots.seat_advantage_bar(seat_advantage(_run(name, keep)))

    n = len(frame)
    expected = {"seat": _seat_wins(frame), "place": _place_wins(frame, game)}
    seats = len(expected["seat"])
    assert len(set(expected["seat"])) == seats, f"equal seats would hide a mix-up: {expected['seat']}"
    assert list(expected["seat"]) != list(expected["place"]), "seats and places must differ to be told apart"
    bars = _bars(ax)
    assert sorted(label for label, _ in bars) == sorted(GROUPS)
    ticks, errors, notes = _ticks(ax), _error_segments(ax), _annotations(ax)
    assert len(errors) == 2 * seats
    for label, patches in bars:
        group, offset = GROUPS[label]
        assert len(patches) == seats
        seen = set()
        for patch in patches:
            x = _centre(patch)
            index = int(_at(ticks, x - offset))  # a group's bars sit beside their tick, seats left, places right
            seen.add(index)
            rate, low, high = stats.wilson(int(expected[group][index]), n)
            assert abs(patch.get_height() - rate) < TOL, f"{group} {index}: bar {patch.get_height()}, rate {rate}"
            y0, y1 = _at(errors, x)
            assert abs(y0 - low) < TOL and abs(y1 - high) < TOL, f"{group} {index}: {y0, y1}, Wilson {low, high}"
            text, anchor = _at(notes, x)
            assert text == f"{rate:.3f}" and abs(anchor - high) < TOL
        assert seen == set(range(seats))
    assert [line.get_ydata()[0] for line in _dashed(ax)] == [pytest.approx(1 / seats, abs=TOL)]


# ------------------------------------------------------------------ score_distribution and length_histogram


def test_score_distribution_bars_are_each_seats_score_shares():
    """Valhalla's scores (ships borne off, 0..6) are drawn as bars side by side, one series per seat."""
    frame = _run("valhalla-greedy-random")
    ax = plots.score_distribution(frame)
    n = len(frame)
    bars = _bars(ax)
    assert len(bars) == 2
    means = [frame[f"score_{s}"].mean() for s in range(2)]
    assert abs(means[0] - means[1]) > 1, f"the seats' scores must differ to be told apart: {means}"
    for k, (label, patches) in enumerate(bars):
        seat = int(re.match(r"seat (\d+): ", label)[1])
        scores = frame[f"score_{seat}"].to_numpy(np.int64)
        values = []
        for patch in patches:
            value = _centre(patch) + 0.4 - 0.8 / len(bars) * (k + 0.5)
            assert abs(value - round(value)) < TOL, f"seat {seat}'s bar at {_centre(patch)} is off its slot {k}"
            values.append(round(value))
            share = float((scores == round(value)).mean())
            assert abs(patch.get_height() - share) < TOL, f"seat {seat}, score {round(value)}"
        assert values == list(range(scores.min(), scores.max() + 1))
        # the legend's mean and 95% half-width, and the dashed line at the mean in the seat's colour
        half = stats.Z95 * scores.std(ddof=1) / np.sqrt(n)
        assert label == f"seat {seat}: mean {scores.mean():.2f} ± {half:.2f} (95%)"
        [line] = [line for line in _dashed(ax) if matplotlib.colors.same_color(line.get_color(),
                                                                               patches[0].get_facecolor())]
        assert abs(line.get_xdata()[0] - scores.mean()) < TOL


def test_length_histogram_heights_are_the_share_of_games_per_value():
    frame = _run("valhalla-greedy-random")
    ax = plots.length_histogram(frame, "turns")
    turns = frame["turns"].to_numpy(np.int64)
    n = turns.size
    outlines = [p for p in ax.patches if isinstance(p, StepPatch)]
    assert outlines
    for outline in outlines:  # the outline and its fill
        heights, edges, _ = outline.get_data()
        width = edges[1] - edges[0]
        assert np.allclose(np.diff(edges), width, atol=TOL)
        for height, left in zip(heights, edges[:-1]):
            inside = (turns >= left + 0.5) & (turns <= left + width - 0.5)
            assert abs(height - inside.sum() / n / width) < TOL, f"turns {left + 0.5}..{left + width - 0.5}"
        assert edges[0] < turns.min() < turns.max() < edges[-1]
    mean = turns.mean()
    half = stats.Z95 * turns.std(ddof=1) / np.sqrt(n)
    [mean_line] = [line for line in ax.get_lines() if line.get_label().startswith("mean ")]
    assert abs(mean_line.get_xdata()[0] - mean) < TOL
    assert mean_line.get_label() == f"mean {mean:.1f} ± {half:.1f} (95%)"
    [median_line] = [line for line in ax.get_lines() if line.get_label().startswith("median ")]
    assert median_line.get_xdata()[0] == np.quantile(turns, 0.5, method="inverted_cdf")
    [band] = [p for p in ax.patches if not isinstance(p, StepPatch)]
    left, right = sorted((band.get_x(), band.get_x() + band.get_width()))  # axvspan: a Rectangle
    assert abs(left - (mean - half)) < TOL and abs(right - (mean + half)) < TOL
