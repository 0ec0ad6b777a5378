"""Walhalla's data files (spec §2.1-§2.3) and their loaders: the checked properties, and every refusal."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from toolkit.games.walhalla.data import (
    CARD_TYPES,
    DATA_DIR,
    DEFAULT_ACTION_CARDS,
    DEFAULT_DRAGONS,
    DEFAULT_TILES,
    FIELD_TYPES,
    load_action_cards,
    load_dragons,
    load_tiles,
)

V, F, C, W = range(4)


# ============================================================ §2.1 tiles


def test_s2_1_field_type_codes():
    assert FIELD_TYPES == ("village", "forest", "cult", "wheat")
    assert [FIELD_TYPES.index(t) for t in FIELD_TYPES] == [V, F, C, W]


def test_s2_1_the_designed_tile_set():
    tiles = load_tiles()
    assert tiles.n == 18
    # canonical order: the spec's listing V-F, V-C, V-W, F-C, F-W, C-W, three each, wheat 1, 2, 3
    assert tiles.ids == ("VF1", "VF2", "VF3", "VC1", "VC2", "VC3", "VW1", "VW2", "VW3",
                         "FC1", "FC2", "FC3", "FW1", "FW2", "FW3", "CW1", "CW2", "CW3")
    pairs = [(V, F), (V, C), (V, W), (F, C), (F, W), (C, W)]
    assert tiles.types == tuple(p for p in pairs for _ in range(3))
    wheat = [0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 1, 2, 3, 1, 2, 3]
    assert tiles.values == tuple((0, w) if w else (0, 0) for w in wheat)


def test_s2_1_checked_properties():
    tiles = load_tiles()
    types, values = tiles.tile_types, tiles.tile_values
    assert types.shape == values.shape == (18, 2)
    assert types.dtype == values.dtype == np.int64
    assert all(types[t, 0] != types[t, 1] for t in range(18))  # two different types per tile
    assert Counter(types.ravel().tolist()) == {V: 9, F: 9, C: 9, W: 9}  # 36 fields, 9 of each type
    assert Counter(tuple(sorted(row)) for row in types.tolist()) == {
        (a, b): 3 for a in range(4) for b in range(a + 1, 4)}  # each of the 6 pairs 3 times
    assert np.all((values > 0) == (types == W))  # a value exactly on wheat fields
    assert Counter(values[types == W].tolist()) == {1: 3, 2: 3, 3: 3}
    for other in (V, F, C):
        on_pair = [int(values[t].max()) for t in range(18) if set(types[t].tolist()) == {other, W}]
        assert sorted(on_pair) == [1, 2, 3]
    assert int(values.sum()) == 18


def test_tile_file_says_what_it_is():
    data = json.loads((DATA_DIR / DEFAULT_TILES).read_text())
    assert "designed" in data["about"] and "§2.1" in data["about"]


# ============================================================ §2.2 dragons


def test_s2_2_the_designed_dragon_set():
    dragons = load_dragons()
    assert dragons.n == 12
    assert dragons.ids == tuple(f"D_{c}_{j}" for c in range(4) for j in range(3))  # colour major, seat minor
    assert dragons.dragon_colour.tolist() == [c for c in range(4) for _ in range(3)]
    assert dragons.dragon_seat.tolist() == [0, 1, 2] * 4
    assert dragons.dragon_colour.dtype == dragons.dragon_seat.dtype == np.int64
    assert Counter(dragons.colours) == {c: 3 for c in range(4)}  # three dragons per colour [src:W6]
    assert set(zip(dragons.colours, dragons.seats)) == {(c, j) for c in range(4) for j in range(3)}
    assert "§2.2" in json.loads((DATA_DIR / DEFAULT_DRAGONS).read_text())["about"]


# ============================================================ §2.3 action cards


def test_s2_3_the_designed_action_deck():
    cards = load_action_cards()
    assert cards.ids == CARD_TYPES == ("axe", "shield", "horn", "walhalla", "plunder")
    assert cards.quantities == (8, 6, 8, 4, 6)
    assert cards.deck == {"axe": 8, "shield": 6, "horn": 8, "walhalla": 4, "plunder": 6}
    assert cards.total == 32  # [src:W3]
    assert cards.names == ("Axe", "Shield", "Battle Horn", "Walhalla", "Plunder")
    for text in cards.effects + cards.whens:
        assert text.strip() and "\n" not in text
    assert "horn_strength" in cards.effects[2] and "plunder_vp" in cards.effects[4]


# ============================================================ loading


def test_loaders_are_cached_and_arrays_are_fresh():
    assert load_tiles() is load_tiles()
    assert load_dragons() is load_dragons()
    assert load_action_cards() is load_action_cards()
    types = load_tiles().tile_types
    types[:] = -1  # the caller's copy; the loaded set is unchanged
    assert load_tiles().tile_types.min() == 0
    assert hash(load_tiles()) == hash(load_tiles(DATA_DIR / DEFAULT_TILES))


def test_a_file_name_in_data_or_a_path():
    assert load_tiles(DEFAULT_TILES) == load_tiles()
    assert load_dragons(str(DATA_DIR / DEFAULT_DRAGONS)) == load_dragons()
    assert load_action_cards(DATA_DIR / DEFAULT_ACTION_CARDS) == load_action_cards()


@pytest.mark.parametrize("loader", [load_tiles, load_dragons, load_action_cards])
def test_missing_file(loader):
    with pytest.raises(ValueError, match=r"Walhalla data file 'nowhere\.json' does not exist"):
        loader("nowhere.json")


# ============================================================ refusals


def _write(tmp_path, default, change):
    """A copy of a data file with ``change(data)`` applied, written to ``tmp_path``."""
    data = json.loads((DATA_DIR / default).read_text())
    change(data)
    path = tmp_path / default
    path.write_text(json.dumps(data))
    return path


def _tile(t, **fields):
    """Change tile t's keys; a value ``None`` removes the key."""

    def change(data):
        for key, value in fields.items():
            if value is None:
                data["tiles"][t].pop(key, None)
            else:
                data["tiles"][t][key] = value
    return change


def _swap_wheat(a, b):
    def change(data):
        data["tiles"][a]["wheat"], data["tiles"][b]["wheat"] = data["tiles"][b]["wheat"], data["tiles"][a]["wheat"]
    return change


TILE_ERRORS = [
    ("missing-key", lambda d: d.pop("tiles"), "the key 'tiles' is missing"),
    ("not-a-list", lambda d: d.update(tiles={"a": 1}), "'tiles' must be a list of objects"),
    ("too-few", lambda d: d["tiles"].pop(), "there must be 18 tiles, not 17"),
    ("too-many", lambda d: d["tiles"].append(dict(d["tiles"][0], id="X")), "there must be 18 tiles, not 19"),
    ("no-id", _tile(0, id=None), "needs a non-empty string 'id'"),
    ("repeated-id", _tile(1, id="VF1"), "the id 'VF1' appears more than once"),
    ("one-field", _tile(0, fields=["village"]), "tile 'VF1': 'fields' must list exactly 2 field types"),
    ("unknown-type", _tile(0, fields=["village", "swamp"]), "tile 'VF1': unknown field type 'swamp'"),
    ("same-types", _tile(0, fields=["forest", "forest"]), "tile 'VF1': its two fields must have different types"),
    ("wheat-value-missing", _tile(6, wheat=None), "tile 'VW1': its wheat field needs a printed value"),
    ("wheat-value-4", _tile(6, wheat=4), "printed value 'wheat' in 1..3 (got 4)"),
    ("wheat-value-bool", _tile(6, wheat=True), "(got True)"),
    ("wheat-value-text", _tile(6, wheat="1"), "(got '1')"),
    ("wheat-without-wheat-field", _tile(0, wheat=2), "tile 'VF1': has a 'wheat' value but no wheat field"),
    ("type-counts", _tile(0, fields=["village", "cult"]), "9 of each type (found forest 8, cult 10)"),
    ("wheat-values-overall", _tile(6, wheat=2), "three of each (found 1: 2, 2: 4, 3: 3)"),
    ("wheat-values-per-pair", _swap_wheat(6, 13),
     "the village-wheat tiles must carry wheat values 1, 2, 3 (they carry [2, 2, 3])"),
]


@pytest.mark.parametrize("case_id, change, words", TILE_ERRORS, ids=[c[0] for c in TILE_ERRORS])
def test_bad_tile_files_are_refused(tmp_path, case_id, change, words):
    path = _write(tmp_path, DEFAULT_TILES, change)
    with pytest.raises(ValueError) as info:
        load_tiles(path)
    message = str(info.value)
    assert message.startswith(f"Walhalla tile file {str(path)!r} is not valid: ")
    assert words in message


def test_pair_counts_are_checked_even_with_9_fields_of_each_type(tmp_path):
    def swapped(data):
        # V-F + C-W1 become V-W1 + F-C: still 9 fields of each type and wheat 1, 2, 3 three times each,
        # but V-F x2, V-W x4, F-C x4, C-W x2
        data["tiles"][0].update(fields=["village", "wheat"], wheat=1)
        data["tiles"][15] = {"id": "CW1", "fields": ["forest", "cult"]}

    path = _write(tmp_path, DEFAULT_TILES, swapped)
    with pytest.raises(ValueError, match=r"each type pair must appear 3 times; village-forest appears 2 times"):
        load_tiles(path)


def _dragon(d, **fields):
    def change(data):
        data["dragons"][d].update(fields)
    return change


DRAGON_ERRORS = [
    ("missing-key", lambda d: d.pop("dragons"), "the key 'dragons' is missing"),
    ("too-few", lambda d: d["dragons"].pop(), "there must be 12 dragons, not 11"),
    ("colour-4", _dragon(0, colour=4), "dragon 'D_0_0': 'colour' must be an integer in 0..3 (got 4)"),
    ("colour-bool", _dragon(0, colour=False), "(got False)"),
    ("seat-3", _dragon(2, seat=3), "dragon 'D_0_2': 'seat' must be an integer in 0..2 (got 3)"),
    ("seat-missing", lambda d: d["dragons"][2].pop("seat"), "(got None)"),
    ("twice-the-same", _dragon(1, seat=0),
     "one dragon per colour and coloured seat; colour 0 on seat 0 has 2"),
    ("wrong-id", _dragon(0, id="D_9_9"), "dragon 'D_9_9': its id must be D_0_0"),
    ("repeated-id", _dragon(1, id="D_0_0"), "the id 'D_0_0' appears more than once"),
    ("empty-object", lambda d: d.clear(), "the key 'dragons' is missing"),
]


@pytest.mark.parametrize("case_id, change, words", DRAGON_ERRORS, ids=[c[0] for c in DRAGON_ERRORS])
def test_bad_dragon_files_are_refused(tmp_path, case_id, change, words):
    path = _write(tmp_path, DEFAULT_DRAGONS, change)
    with pytest.raises(ValueError) as info:
        load_dragons(path)
    message = str(info.value)
    assert message.startswith(f"Walhalla dragon file {str(path)!r} is not valid: ")
    assert words in message


def _card(c, **fields):
    def change(data):
        data["cards"][c].update(fields)
    return change


CARD_ERRORS = [
    ("missing-key", lambda d: d.pop("cards"), "the key 'cards' is missing"),
    ("order", lambda d: d["cards"].reverse(),
     "exactly axe, shield, horn, walhalla, plunder in this order (found plunder, walhalla, horn, shield, axe)"),
    ("missing-type", lambda d: d["cards"].pop(1), "(found axe, horn, walhalla, plunder)"),
    ("extra-type", lambda d: d["cards"].append(dict(d["cards"][0], id="sword")),
     "(found axe, shield, horn, walhalla, plunder, sword)"),
    ("renamed-type", _card(2, id="trumpet"), "(found axe, shield, trumpet, walhalla, plunder)"),
    ("negative", _card(0, quantity=-1), "card 'axe': 'quantity' must be an integer >= 0 (got -1)"),
    ("fraction", _card(0, quantity=2.5), "(got 2.5)"),
    ("bool", _card(0, quantity=True), "(got True)"),
    ("empty-effect", _card(3, effect=" "), "card 'walhalla': 'effect' must be one non-empty line of text"),
    ("two-line-effect", _card(3, effect="a\nb"), "'effect' must be one non-empty line"),
    ("no-when", lambda d: d["cards"][4].pop("when"), "card 'plunder': 'when' must be one non-empty line"),
    ("empty-deck", lambda d: [c.update(quantity=0) for c in d["cards"]], "the deck must hold at least 1 card"),
]


@pytest.mark.parametrize("case_id, change, words", CARD_ERRORS, ids=[c[0] for c in CARD_ERRORS])
def test_bad_action_card_files_are_refused(tmp_path, case_id, change, words):
    path = _write(tmp_path, DEFAULT_ACTION_CARDS, change)
    with pytest.raises(ValueError) as info:
        load_action_cards(path)
    message = str(info.value)
    assert message.startswith(f"Walhalla action card file {str(path)!r} is not valid: ")
    assert words in message


@pytest.mark.parametrize("loader, what", [(load_tiles, "tile"), (load_dragons, "dragon"),
                                          (load_action_cards, "action card")])
@pytest.mark.parametrize("text, words", [("{not json", "not readable JSON"),
                                         ("[1, 2]", "the file must hold a JSON object")])
def test_unreadable_files_are_refused(tmp_path, loader, what, text, words):
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=f"Walhalla {what} file .*broken.json' is not valid: {words}"):
        loader(path)


def test_other_quantities_load(tmp_path):
    path = _write(tmp_path, DEFAULT_ACTION_CARDS, _card(0, quantity=0))
    assert load_action_cards(path).deck["axe"] == 0 and load_action_cards(path).total == 24
