"""The Attila map picture: nodes, borders, markers and shading as drawn; the fallback layout; war logs."""

from __future__ import annotations

import json

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from toolkit.games.attila.reference import play_game  # noqa: E402
from toolkit.games.attila.rules import TRIBES  # noqa: E402
from toolkit.games.attila.viz import (  # noqa: E402
    MIN_DISTANCE, POSITIONS, TRIBE_COLOURS, draw_map, layout, main, spring_layout, war_frequencies, war_heatmap,
    war_log, war_logs,
)

RULES = toolkit.rules("attila", num_players=3)
BOARD = RULES.board
SMALL_MAP = {
    "provinces": [{"id": p, "name": f"Province {p}"} for p in "ABCDEFG"],
    "start_provinces": ["A", "B"],
    "land_borders": [["A", "B"], ["B", "C"], ["C", "D"], ["D", "E"], ["E", "A"], ["C", "F"]],
    "sea_links": [["F", "G"]],
}


@pytest.fixture(autouse=True)
def close_figures(monkeypatch):
    def no_show(*args, **kwargs):
        raise AssertionError("plt.show() called")

    monkeypatch.setattr(plt, "show", no_show)
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def logged_game():
    return war_log(RULES, seed=2024, game_index=0)


@pytest.fixture
def small_rules(tmp_path):
    path = tmp_path / "small_map.json"
    path.write_text(json.dumps(SMALL_MAP))
    return toolkit.rules("attila", num_players=2, map=str(path))


def _collection(ax, gid):
    found = [c for c in ax.collections if c.get_gid() == gid]
    return found[0] if found else None


def _texts(ax, gid):
    return [t.get_text() for t in ax.texts if t.get_gid() == gid]


def _segments(ax, gid):
    collection = _collection(ax, gid)
    return [] if collection is None else collection.get_segments()


def test_default_map_nodes_borders_labels_and_start_rings():
    ax = draw_map(BOARD)
    assert isinstance(ax, matplotlib.axes.Axes)
    assert len(_collection(ax, "provinces").get_paths()) == 25
    # a bare Board does not tell sea links from land borders: all 40 adjacencies drawn alike
    assert len(_segments(ax, "borders")) == 33 + 7
    assert _collection(ax, "sea_links") is None
    assert _texts(ax, "label") == list(BOARD.ids)
    assert len(_collection(ax, "start").get_paths()) == 6
    assert _collection(ax, "figures") is None and _collection(ax, "pacified") is None


def test_rules_give_dashed_sea_links_from_the_map_file():
    ax = draw_map(RULES)
    assert len(_segments(ax, "borders")) == 33
    sea = _segments(ax, "sea_links")
    assert len(sea) == 7
    pos = layout(BOARD)
    ends = {tuple(sorted((BOARD.ids[int(np.argmin(np.linalg.norm(pos - s[0], axis=1)))],
                          BOARD.ids[int(np.argmin(np.linalg.norm(pos - s[1], axis=1)))]))) for s in sea}
    assert ends == {("BEL", "BRI"), ("BRI", "LUG"), ("BAE", "MAU"), ("AFR", "ITS"), ("ITS", "MAC"),
                    ("ACH", "CRE"), ("ASI", "THR")}


def test_border_segments_join_the_centres_of_neighbours():
    pos = layout(BOARD)
    ax = draw_map(BOARD)
    drawn = set()
    for start, end in _segments(ax, "borders"):
        a = int(np.argmin(np.linalg.norm(pos - start, axis=1)))
        b = int(np.argmin(np.linalg.norm(pos - end, axis=1)))
        assert np.allclose(pos[a], start) and np.allclose(pos[b], end)
        drawn.add((min(a, b), max(a, b)))
    assert drawn == {(a, b) for a in range(BOARD.n) for b in BOARD.neighbours[a] if a < b}


def test_default_layout_is_the_hand_made_one_and_nodes_do_not_overlap():
    pos = layout(BOARD)
    assert np.array_equal(pos, np.array([POSITIONS[p] for p in BOARD.ids]))
    gaps = np.linalg.norm(pos[:, None] - pos[None], axis=2)[~np.eye(BOARD.n, dtype=bool)]
    assert gaps.min() >= MIN_DISTANCE
    # roughly geographic: Britannia north-west of Africa, Asia the easternmost, the start provinces north
    ids = list(BOARD.ids)
    assert pos[ids.index("BRI"), 1] > pos[ids.index("AFR"), 1]
    assert pos[ids.index("ASI"), 0] == pos[:, 0].max()
    assert pos[list(BOARD.start), 1].mean() > pos[:, 1].mean()


def test_total_shading_counts_figures_and_pips_match_the_position(logged_game):
    game, log = logged_game
    figures = np.array(game.figures)
    ax = draw_map(RULES, game.figures, game.pacified, wars=log["province"])
    nodes = _collection(ax, "provinces")
    assert np.array_equal(np.asarray(nodes.get_array()), figures.sum(axis=1))
    assert nodes.norm.vmin == 0 and nodes.norm.vmax >= 5
    pips = _collection(ax, "figures")
    assert len(pips.get_paths()) == figures.sum()
    # the pips' colours are the tribes' colours, as many of each as that tribe has figures
    expected = {matplotlib.colors.to_hex(TRIBE_COLOURS[t]): int(figures[:, i].sum()) for i, t in enumerate(TRIBES)}
    drawn = [matplotlib.colors.to_hex(c) for c in pips.get_facecolors()]
    assert {c: drawn.count(c) for c in expected} == expected
    assert len(_collection(ax, "pacified").get_paths()) == sum(game.pacified)
    assert sorted(map(int, _texts(ax, "war_number"))) == list(range(1, len(log) + 1))


def test_tribe_and_pacified_shading(logged_game):
    game, _ = logged_game
    figures = np.array(game.figures)
    huns = draw_map(RULES, game.figures, shade="huns", legend=False)
    assert np.array_equal(np.asarray(_collection(huns, "provinces").get_array()), figures[:, 5])
    teutons = draw_map(RULES, game.figures, shade=4, legend=False)
    assert np.array_equal(np.asarray(_collection(teutons, "provinces").get_array()), figures[:, 4])
    peace = draw_map(RULES, game.figures, game.pacified, shade="pacified")
    assert np.array_equal(np.asarray(_collection(peace, "provinces").get_array()), np.array(game.pacified, float))
    plain = draw_map(RULES, shade="none")
    assert _collection(plain, "provinces").get_array() is None


def test_custom_values_are_written_with_annotate():
    values = np.linspace(0, 1, BOARD.n)
    ax = draw_map(BOARD, shade=values, annotate=True, fmt="{:.0%}", vmax=1.0, value_label="share")
    assert np.allclose(np.asarray(_collection(ax, "provinces").get_array()), values)
    assert _texts(ax, "value") == [f"{v:.0%}" for v in values]
    assert ax.figure.axes[-1].get_xlabel() == "share"  # the colour bar, below the map


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match="figures"):
        draw_map(BOARD, figures=np.zeros((24, 6)))
    with pytest.raises(ValueError, match="shade"):
        draw_map(BOARD, shade="romans")
    with pytest.raises(ValueError, match="shade"):
        draw_map(BOARD, shade=np.zeros(3))
    with pytest.raises(ValueError, match="pacified"):
        draw_map(BOARD, pacified=[True])
    with pytest.raises(ValueError, match="positions"):
        layout(BOARD, positions={"GIN": (0, 0)})


def test_fallback_layout_for_a_custom_map(small_rules):
    board = small_rules.board
    pos = layout(board)
    assert pos.shape == (7, 2)
    assert np.array_equal(pos, layout(board))  # deterministic
    gaps = np.linalg.norm(pos[:, None] - pos[None], axis=2)[~np.eye(7, dtype=bool)]
    assert gaps.min() >= MIN_DISTANCE - 1e-9
    # turned so that the start provinces A and B are on top
    assert pos[list(board.start), 1].mean() > pos[:, 1].mean()
    # neighbours end up closer than non-neighbours, on average
    near = [np.linalg.norm(pos[a] - pos[b]) for a in range(7) for b in board.neighbours[a] if a < b]
    far = [np.linalg.norm(pos[a] - pos[b]) for a in range(7) for b in range(a + 1, 7) if b not in board.neighbours[a]]
    assert np.mean(near) < np.mean(far)

    ax = draw_map(small_rules, title="a small map")
    assert len(_collection(ax, "provinces").get_paths()) == 7
    assert len(_segments(ax, "borders")) == 6 and len(_segments(ax, "sea_links")) == 1
    assert _texts(ax, "label") == list("ABCDEFG")
    assert len(_collection(ax, "start").get_paths()) == 2
    assert ax.get_title() == "a small map"
    named = draw_map(small_rules, names=True, legend=False)
    assert _texts(named, "label") == [f"Province {p}" for p in "ABCDEFG"]


def test_spring_layout_small_graphs():
    assert spring_layout([]).shape == (0, 2)
    assert np.array_equal(spring_layout([[]]), np.zeros((1, 2)))
    two = spring_layout([[1], [0]])
    assert np.linalg.norm(two[0] - two[1]) > 0


def test_war_log_matches_the_reference_game(logged_game):
    game, log = logged_game
    again = play_game(RULES, 2024, 0, ("greedy",) * 3)
    assert again.figures == game.figures and again.vp == game.vp
    assert len(log) == game.wars
    assert list(log["war"]) == list(range(1, game.wars + 1))
    assert sorted(log["province"]) == [x for x in range(BOARD.n) if game.pacified[x]]
    assert log["turn"].is_monotonic_increasing and log["turn"].between(1, game.turns).all()
    # 1 + 2 + 3 + 4 peace tiles: wars 1, 2-3, 4-6, 7-10 fall in centuries IV, V, VI, VII
    centuries = dict(zip(log["war"], log["century"]))
    expected = {1: "IV", 2: "V", 3: "V", 4: "VI", 5: "VI", 6: "VI", 7: "VII", 8: "VII", 9: "VII", 10: "VII"}
    assert centuries == {k: expected[k] for k in centuries}
    # the war that ended a century happened in the turn the kernel records for it
    row = toolkit.simulate("attila", RULES, 1, seed=2024, policies="greedy", progress=False).iloc[0]
    for c, last in ((0, 1), (1, 3), (2, 6), (3, 10)):
        if last <= len(log):
            assert log.loc[last - 1, "turn"] == row[f"century_end_turn_{c}"]


def test_war_frequencies_and_heatmap():
    rules = toolkit.rules("attila", num_players=2)
    table = war_frequencies(rules, n_games=6, seed=5, policies=("random", "random"))
    assert list(table.index) == list(BOARD.ids)
    assert (table["games"] == 6).all()
    assert table["wars"].between(0, 6).all()
    assert np.allclose(table["share"], table["wars"] / 6)
    assert (table[["IV", "V", "VI", "VII"]].sum(axis=1) == table["wars"]).all()
    ax = war_heatmap(rules, frequencies=table)
    assert np.allclose(np.asarray(_collection(ax, "provinces").get_array()), table["share"])
    assert _collection(ax, "provinces").norm.vmax == 1.0
    assert len(_texts(ax, "value")) == 25
    assert "6 games" in ax.get_title()


def test_frequencies_from_logs_equal_a_replay():
    rules = toolkit.rules("attila", num_players=5)
    logs = war_logs(rules, 4, seed=9, policies=("random",) * 5)
    assert [game.vp for game, _ in logs] == [play_game(rules, 9, g, ("random",) * 5).vp for g in range(4)]
    from_logs = war_frequencies(rules, logs=logs)
    assert from_logs.equals(war_frequencies(rules, 4, seed=9, policies=("random",) * 5))
    assert from_logs["wars"].sum() == sum(game.wars for game, _ in logs)
    with pytest.raises(ValueError, match="n_games"):
        war_logs(rules, 0)


def test_main_writes_the_readme_picture(tmp_path, capsys):
    path = tmp_path / "attila_map.png"
    assert main([str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(path) in capsys.readouterr().out
