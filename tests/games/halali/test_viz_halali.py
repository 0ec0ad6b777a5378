"""The Halali board picture and the 7x7 heat map: artists present, axes labelled, nothing shown."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from toolkit.core.mcts import policy_codes as mcts_codes  # noqa: E402
from toolkit.games.halali import reference as ref  # noqa: E402
from toolkit.games.halali.replay import positions  # noqa: E402
from toolkit.games.halali.rules import HUNTER  # noqa: E402
from toolkit.games.halali.viz import capture_heatmap, draw_board  # noqa: E402

STANDARD = toolkit.rules("halali")


@pytest.fixture(autouse=True)
def close_figures(monkeypatch):
    def no_show(*args, **kwargs):
        raise AssertionError("plt.show() called")

    monkeypatch.setattr(plt, "show", no_show)
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def game():
    return positions(STANDARD, seed=2024, game_index=0, policies=("greedy", "random"))


def _gids(ax, gid):
    return [p for p in ax.patches if p.get_gid() == gid]


def _texts(ax, gid):
    return [t for t in ax.texts if t.get_gid() == gid]


def _check(ax, position, exits=4):
    grid = position.grid if hasattr(position, "grid") else position
    cells = [None if t is None else (t.kind, t.face_up, t.dir) if hasattr(t, "kind") else t for t in grid]
    face_up = [c for c in cells if c is not None and c[1]]
    face_down = [c for c in cells if c is not None and not c[1]]
    hunters = sum(c[0] == HUNTER for c in face_up)
    assert isinstance(ax, matplotlib.axes.Axes)
    assert len(_gids(ax, "tile")) == len(face_up)
    assert len(_gids(ax, "back")) == len(face_down)
    assert len(_gids(ax, "gun")) == hunters
    assert len(_gids(ax, "exit")) == exits
    assert len(_gids(ax, "gun")) + len(_gids(ax, "exit")) == hunters + exits
    assert len(_gids(ax, "centre")) == 1
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("file", "rank")
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcdefg")
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(r) for r in range(1, 8)]
    return ax


def test_start_position(game):
    ax = _check(draw_board(game[0], STANDARD), game[0])
    assert not _gids(ax, "tile") and len(_gids(ax, "back")) == 48
    assert not _gids(ax, "last")  # nothing happened yet
    assert "start" in ax.get_title()
    assert ax.get_legend() is not None


@pytest.mark.parametrize("where", [0.25, 0.5, 0.75, 1.0])
def test_mid_game_and_end_positions(game, where):
    snap = game[min(len(game) - 1, int(where * len(game)))]
    ax = _check(draw_board(snap), snap)
    assert snap.action in ax.get_title()
    assert 1 <= len(_gids(ax, "last")) <= 2  # the squares of the last action (one for an exit or reveal)


def test_final_position_has_no_backs(game):
    ax = _check(draw_board(game[-1], STANDARD, legend=False), game[-1])
    assert not _gids(ax, "back") and ax.get_legend() is None


def test_a_position_with_face_up_hunters_draws_their_guns(game):
    snap = max(game, key=lambda s: sum(t is not None and t[1] and t[0] == HUNTER for t in s.grid))
    ax = _check(draw_board(snap), snap)
    assert len(_gids(ax, "gun")) >= 2
    # every gun arrow starts on a face-up hunter and points along its direction
    for arrow in _gids(ax, "gun"):
        (x0, y0), (x1, y1) = arrow._posA_posB
        s = int(round(x0)) + 7 * int(round(y0))
        kind, face_up, gun = snap.grid[s]
        assert kind == HUNTER and face_up
        step = ((0, 1), (1, 0), (0, -1), (-1, 0))[gun]
        assert np.sign(x1 - x0) == step[0] and np.sign(y1 - y0) == step[1]


def test_exit_arrows_follow_the_rules():
    rules = toolkit.rules("halali", exit_squares=("a1:S", "a1:W", "g7:N"))
    snap = positions(rules, seed=3)[0]
    ax = _check(draw_board(snap, rules), snap, exits=3)
    for arrow in _gids(ax, "exit"):  # all point away from the board
        (x0, y0), (x1, y1) = arrow._posA_posB
        assert not (-0.5 < x1 < 6.5 and -0.5 < y1 < 6.5)


def test_other_position_forms_and_hidden_letters(game):
    st = ref.play_game(STANDARD, 5, 0, ("random", "random"))[0]
    _check(draw_board(st, STANDARD), st)
    snap = game[len(game) // 3]
    as_list = list(snap.grid)
    ax = _check(draw_board(as_list), as_list)
    assert not _gids(ax, "last") and ax.get_title() == ""
    ax = _check(draw_board(snap, show_hidden=True, title="a title"), snap)
    assert len(_texts(ax, "hidden")) == snap.face_down
    assert ax.get_title() == "a title"
    with pytest.raises(ValueError, match="49 squares"):
        draw_board(as_list[:48])


def test_several_boards_share_one_figure(game):
    fig, axes = plt.subplots(1, 3)
    for ax, snap in zip(axes, (game[0], game[len(game) // 2], game[-1])):
        assert draw_board(snap, ax=ax) is ax
    fig.canvas.draw()  # renders without error


def test_capture_heatmap():
    counts = np.arange(49).reshape(7, 7)
    ax = capture_heatmap(counts)
    assert isinstance(ax, matplotlib.axes.Axes) and len(ax.images) == 1
    image = ax.images[0]
    assert image.get_array().shape == (7, 7) and image.origin == "lower"  # rank 1 at the bottom
    assert image.get_array()[0, 0] == 0 and image.get_array()[6, 3] == 45  # [y, x]: d7 = 7 * 6 + 3
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("file", "rank")
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(r) for r in range(1, 8)]
    assert len(ax.figure.axes) == 2  # the colour bar
    assert ax.figure.axes[1].get_ylabel() == "captures"
    assert len(ax.texts) == 49


def test_capture_heatmap_per_game_and_flat_input():
    ax = capture_heatmap(np.full(49, 10), per=4, title="t", annotate=False, vmin=None)
    assert np.allclose(ax.images[0].get_array(), 2.5)
    assert ax.figure.axes[1].get_ylabel() == "captures per game" and ax.get_title() == "t"
    assert not ax.texts
    with pytest.raises(ValueError, match="49 values"):
        capture_heatmap(np.zeros((6, 7)))
    with pytest.raises(ValueError, match="per"):
        capture_heatmap(np.zeros((7, 7)), per=0)


def test_capture_heatmap_from_the_kernel():
    from toolkit.games.halali import kernel

    heat, rows = kernel.capture_heat(kernel.to_kernel(STANDARD), kernel.policy_ids(("greedy", "random")), 1, 0, 50)
    ax = capture_heatmap(heat, per=50)
    assert np.allclose(ax.images[0].get_array() * 50, heat)
    assert heat.sum() == rows[:, [i for i, c in enumerate(kernel.COLUMNS) if c.startswith("captures_")]].sum()


def test_capture_heat_with_a_search_plays_the_games_simulate_plays():
    """A line-up with a tree search runs the heat map's searching copy (``core.driver.variants``): its rows
    are ``toolkit.simulate``'s, and its captures add up to theirs.  Negative control: ``random`` in the
    searching seat's place gives other rows."""
    from toolkit.games.halali import kernel

    policies = ("mcts:20", "greedy")
    heat, rows = kernel.capture_heat(kernel.to_kernel(STANDARD), mcts_codes(kernel, policies), 3, 0, 6)
    frame = toolkit.simulate("halali", rules=STANDARD, n_games=6, seed=3, policies=policies, progress=False)
    columns = [c for c in kernel.COLUMNS if c.startswith("captures_")]
    np.testing.assert_array_equal(rows[:, [kernel.COLUMNS.index(c) for c in columns]], frame[columns].to_numpy())
    assert heat.sum() == frame[columns].to_numpy().sum()
    _, other = kernel.capture_heat(kernel.to_kernel(STANDARD), mcts_codes(kernel, ("random", "greedy")), 3, 0, 6)
    assert not np.array_equal(other, rows)
