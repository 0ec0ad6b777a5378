"""The Attila map (spec §2.1) and its loader: the checked properties, and every refusal."""

from __future__ import annotations

import json

import pytest

from toolkit.games.attila.board import DATA_DIR, load_map
from toolkit.games.attila.rules import Rules

def test_s2_1_checked_properties():
    board = load_map()
    assert board.n == 25 and board.start == (0, 1, 2, 3, 4, 5)
    assert [board.ids[x] for x in board.start] == ["GIN", "GSU", "RAE", "NOR", "PAN", "DAC"]
    for x, ns in enumerate(board.neighbours):
        assert x not in ns and len(set(ns)) == len(ns)
        for y in ns:
            assert x in board.neighbours[y]  # symmetric
    assert sum(len(ns) for ns in board.neighbours) == 2 * 40  # 33 land borders + 7 sea links
    assert sum(len(ns) for ns in board.neighbours) / board.n == pytest.approx(3.2)
    distance = {x: 0 for x in board.start}  # breadth-first from the start set
    frontier = list(board.start)
    while frontier:
        nxt = []
        for x in frontier:
            for y in board.neighbours[x]:
                if y not in distance:
                    distance[y] = distance[x] + 1
                    nxt.append(y)
        frontier = nxt
    assert len(distance) == 25 and max(distance.values()) <= 4


def test_sea_links_count_as_adjacency():
    board = load_map()
    assert board.index("CRE") in board.neighbours[board.index("ACH")]
    assert board.index("MAU") in board.neighbours[board.index("BAE")]


def _write(tmp_path, **changes):
    data = json.loads((DATA_DIR / "attila_map.json").read_text())
    data.update(changes)
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize("changes,words", [
    ({"land_borders": [["GIN", "GIN"]]}, "self-loop"),
    ({"sea_links": [["BRI", "BEL"], ["BEL", "BRI"]]}, "listed twice"),
    ({"start_provinces": ["XXX"]}, "start province 'XXX'"),
    ({"sea_links": []}, "not connected"),
    ({"land_borders": [["GIN", "ROM"]]}, "unknown province"),
])
def test_bad_maps_are_refused_naming_the_parameter(tmp_path, changes, words):
    path = _write(tmp_path, **changes)
    with pytest.raises(ValueError, match=f"map='.*' is not allowed: .*{words}"):
        Rules(map=path)


def test_missing_key_and_missing_file(tmp_path):
    data = json.loads((DATA_DIR / "attila_map.json").read_text())
    del data["sea_links"]
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="'sea_links' is missing"):
        Rules(map=str(path))
    with pytest.raises(ValueError, match="map='nowhere.json' is not allowed: no such file"):
        Rules(map="nowhere.json")


def test_another_board_can_be_loaded(tmp_path):
    path = _write(tmp_path, provinces=[{"id": "A", "name": "a"}, {"id": "B", "name": "b"}], start_provinces=["A"],
                  land_borders=[["A", "B"]], sea_links=[])
    board = Rules(map=path).board
    assert board.ids == ("A", "B") and board.neighbours == ((1,), (0,))


def test_two_player_gap_follows_the_player_count():
    assert Rules(num_players=2).two_player_second_place_gap == 2
    assert Rules(num_players=3).two_player_second_place_gap is None
    assert Rules(num_players=4).replace(num_players=2).two_player_second_place_gap == 2
    assert Rules(num_players=2, two_player_second_place_gap=None).two_player_second_place_gap is None


def test_the_deal_must_fit_the_deck():
    with pytest.raises(ValueError, match="cards_per_tribe=3 is not allowed"):
        Rules(cards_per_tribe=3, num_players=5, hand_size=10)
