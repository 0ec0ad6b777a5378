"""Tests for ``toolkit.core.params``: the rule-field kinds and ``RulesBase``.

For every kind: the ``--set`` text form (``parse``/``format``), the JSON form
(``to_json``/``from_json``), the notebook widget (``widget``/``from_widget``)
and the error messages of bad values.  Then a throwaway ``Rules`` using every
kind (with ``ByPlayers`` defaults), and the real Valhalla ``Rules``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import ipywidgets
import pytest

from toolkit.core.params import (
    Bool,
    ByPlayers,
    Choice,
    ChoiceSet,
    DataFile,
    Float,
    FrozenMap,
    Int,
    IntList,
    IntSet,
    Kind,
    Mapping_,
    Optional,
    RulesBase,
    param,
    params_of,
)
from toolkit.viz.controls import control as make_control
from toolkit.games.valhalla.rules import EXTRA_THROW_CLASSES
from toolkit.games.valhalla.rules import Rules as ValhallaRules

THIS_FILE = str(Path(__file__).resolve())


# ============================================================ kind cases
#
# (id, kind, value, text): ``value`` is the normalised value, ``text`` its
# canonical ``--set`` form, so ``parse(text) == value`` and ``format(value) == text``.

KIND_CASES = [
    ("int-bounded", Int(1, 6), 4, "4"),
    ("int-bounded-low-edge", Int(1, 6), 1, "1"),
    ("int-wide", Int(1, 1_000_000), 10_000, "10000"),
    ("int-unbounded-negative", Int(), -12, "-12"),
    ("float-open-unit", Float(0.0, 1.0, low_open=True, high_open=True), 0.3, "0.3"),
    ("float-closed", Float(0.0, 10.0), 10.0, "10.0"),
    ("bool-true", Bool(), True, "true"),
    ("bool-false", Bool(), False, "false"),
    ("choice-str", Choice(("runes", "simplified")), "simplified", "simplified"),
    ("choice-int", Choice((0, -1)), -1, "-1"),
    ("choice-int-zero", Choice((0, -1)), 0, "0"),
    ("optional-none", Optional(Int(0, 10)), None, "none"),
    ("optional-int", Optional(Int(0, 10)), 3, "3"),
    ("optional-choice", Optional(Choice(("a", "b"))), "b", "b"),
    ("intset", IntSet(1, 35), frozenset({1, 2, 3, 29}), "1,2,3,29"),
    ("intset-empty", IntSet(1, 35), frozenset(), ""),
    ("choiceset", ChoiceSet(EXTRA_THROW_CLASSES), ("natural_one", "4"), "natural_one,4"),
    ("choiceset-empty", ChoiceSet(EXTRA_THROW_CLASSES), (), ""),
    ("intlist-fixed", IntList(1, 35, length=2), (25, 35), "25,35"),
    ("intlist-free", IntList(0, None), (5, 6, 7, 5), "5,6,7,5"),
    ("mapping-animals", Mapping_(("bear", "fox"), Int(0, 9)),
     FrozenMap({"bear": 2, "fox": 6}), "bear:2,fox:6"),
    ("mapping-players", Mapping_((2, 3, 4), Int(0, 50)),
     FrozenMap({2: 10, 3: 8, 4: 6}), "2:10,3:8,4:6"),
    ("mapping-of-lists", Mapping_(("bear", "fox"), IntList(0, 9)),
     FrozenMap({"bear": (1, 2, 3), "fox": (4,)}), "bear:1/2/3,fox:4"),
    ("mapping-partial", Mapping_(("bear", "fox", "owl"), Int(0, 9), complete=False),
     FrozenMap({"fox": 1}), "fox:1"),
    ("datafile-json", DataFile(), "maps/attila_map.json", "maps/attila_map.json"),
    ("datafile-existing", DataFile(suffix=".py"), THIS_FILE, THIS_FILE),
]
CASE_IDS = [c[0] for c in KIND_CASES]


@pytest.mark.parametrize("case_id, kind, value, text", KIND_CASES, ids=CASE_IDS)
def test_parse_of_text_gives_value(case_id, kind, value, text):
    parsed = kind.parse("p", text)
    assert parsed == value
    assert type(parsed) is type(value)


@pytest.mark.parametrize("case_id, kind, value, text", KIND_CASES, ids=CASE_IDS)
def test_format_is_inverse_of_parse(case_id, kind, value, text):
    assert kind.format(value) == text
    assert kind.parse("p", kind.format(value)) == value


@pytest.mark.parametrize("case_id, kind, value, text", KIND_CASES, ids=CASE_IDS)
def test_check_is_idempotent(case_id, kind, value, text):
    once = kind.check("p", value)
    assert once == value
    assert kind.check("p", once) == once


@pytest.mark.parametrize("case_id, kind, value, text", KIND_CASES, ids=CASE_IDS)
def test_json_round_trip(case_id, kind, value, text):
    obj = kind.to_json(value)
    # must be plain JSON (what the CSV sidecar stores), and survive a dump/load
    reloaded = json.loads(json.dumps(obj))
    assert reloaded == obj
    back = kind.from_json("p", reloaded)
    assert back == value
    assert type(back) is type(value)


@pytest.mark.parametrize("case_id, kind, value, text", KIND_CASES, ids=CASE_IDS)
def test_widget_round_trip(case_id, kind, value, text):
    widget = make_control(kind, "p", value, description="a parameter")
    assert isinstance(widget, ipywidgets.Widget)
    assert isinstance(widget, ipywidgets.ValueWidget)
    assert widget.description == "p"
    assert kind.from_widget("p", widget.value) == value


def test_widget_types():
    from toolkit.viz.widgets import CheckboxGrid, CheckboxMatrix, MappingGrid

    assert isinstance(make_control(Int(1, 6), "p", 3), ipywidgets.IntSlider)
    # a wide range is a plain box: BoundedIntText would clamp 0 to 1 without a word; the box passes it on
    box = make_control(Int(1, 1_000_000), "p", 3)
    assert isinstance(box, ipywidgets.IntText) and not isinstance(box, ipywidgets.BoundedIntText)
    box.value = 0
    with pytest.raises(ValueError, match=r"p=0 is not allowed: an integer in 1\.\.1000000"):
        Int(1, 1_000_000).from_widget("p", box.value)
    assert isinstance(make_control(Float(0, 1), "p", 0.5), ipywidgets.FloatSlider)
    assert isinstance(make_control(Bool(), "p", True), ipywidgets.Checkbox)
    assert isinstance(make_control(Choice(("a", "b")), "p", "a"), ipywidgets.Dropdown)
    # a set shows every option as a checkbox, unless there are too many to tick one by one
    assert isinstance(make_control(ChoiceSet(("a", "b")), "p", ("a",)), CheckboxGrid)
    assert isinstance(make_control(IntSet(1, 35), "p", frozenset({1})), CheckboxGrid)
    assert isinstance(make_control(IntSet(0, 100), "p", frozenset({1})), ipywidgets.IntsInput)
    assert isinstance(make_control(IntSet(), "p", frozenset({1})), ipywidgets.IntsInput)
    # a mapping is a grid: number boxes, or a matrix of checkboxes for a set per key
    assert isinstance(make_control(Mapping_(("a",), Int()), "p", FrozenMap({"a": 1})), MappingGrid)
    assert isinstance(make_control(Mapping_(("a",), ChoiceSet(("x", "y"))), "p", FrozenMap({"a": ("x",)})), CheckboxMatrix)
    for kind, value in [(Optional(Int(0, 3)), None), (IntList(), (1, 2)), (DataFile(), "x.json")]:
        assert isinstance(make_control(kind, "p", value), ipywidgets.Text)


# Allowed values at the edge of what a widget can hold.  The contract of
# ``Kind.widget`` is that ``from_widget(widget.value)`` gives the value back.
WIDGET_EXTREMES = [
    ("float-unbounded-negative", Float(), -5.0),
    ("float-low-bound-only-large", Float(0.0), 150.0),
    ("float-open-near-bound", Float(0.0, 1.0, low_open=True, high_open=True), 0.005),
    ("int-unbounded-huge", Int(), 10**10),
]


@pytest.mark.parametrize("case_id, kind, value", WIDGET_EXTREMES, ids=[c[0] for c in WIDGET_EXTREMES])
def test_widget_keeps_allowed_extreme_values(case_id, kind, value):
    assert kind.check("p", value) == value  # the value is allowed
    widget = make_control(kind, "p", value)
    assert kind.from_widget("p", widget.value) == value


def test_chosen_values_through_widgets():
    kind = ChoiceSet(EXTRA_THROW_CLASSES)
    widget = make_control(kind, "extra_throw_values", ("natural_one",))
    widget.value = ("5", "natural_one")  # user clicks; order comes back canonical
    assert kind.from_widget("extra_throw_values", widget.value) == ("natural_one", "5")
    grid = make_control(Mapping_(("bear", "fox"), Int(0, 9)), "counts", FrozenMap({"bear": 1, "fox": 2}))
    grid.value = {"fox": 3, "bear": 4}
    assert Mapping_(("bear", "fox"), Int(0, 9)).from_widget("counts", grid.value) == {"bear": 4, "fox": 3}
    # the text form still reads, as from the text box the grid replaced
    assert Mapping_(("bear", "fox"), Int(0, 9)).from_widget("counts", "fox:3, bear:4") == {"bear": 4, "fox": 3}


# ------------------------------------------------------------ lenient parsing


@pytest.mark.parametrize("kind, text, value", [
    (Int(1, 6), " 5 ", 5),
    (Float(0, 1), " 0.25", 0.25),
    (Float(0, 1), "1", 1.0),
    (Bool(), "YES", True),
    (Bool(), "off", False),
    (Bool(), "1", True),
    (Choice(("a", "b")), " b ", "b"),
    (Optional(Int(0, 5)), "None", None),
    (Optional(Int(0, 5)), "null", None),
    (Optional(Int(0, 5)), "", None),
    (IntSet(1, 35), "1..5,29", frozenset({1, 2, 3, 4, 5, 29})),
    (IntSet(1, 35), "{3, 1, 3}", frozenset({1, 3})),
    (ChoiceSet(EXTRA_THROW_CLASSES), "5,natural_one,5", ("natural_one", "5")),
    (IntList(), "[3, 1, 2]", (3, 1, 2)),
    (Mapping_(("bear", "fox"), Int(0, 9)), "fox:6, bear:2", {"bear": 2, "fox": 6}),
    (Mapping_(("bear", "fox"), Int(0, 9)), '{"bear": 2, "fox": 6}', {"bear": 2, "fox": 6}),
    (Mapping_(("bear", "fox"), IntList()), "bear:1;2,fox:3", {"bear": (1, 2), "fox": (3,)}),
    (DataFile(), " a/b.json ", "a/b.json"),
])
def test_parse_variants(kind, text, value):
    assert kind.parse("p", text) == value


def test_mapping_keeps_declared_key_order():
    kind = Mapping_(("bear", "fox"), Int(0, 9))
    assert list(kind.parse("p", "fox:6,bear:2")) == ["bear", "fox"]
    assert kind.format(kind.parse("p", "fox:6,bear:2")) == "bear:2,fox:6"


def test_json_forms_are_plain():
    assert IntSet(1, 35).to_json(frozenset({29, 1, 3})) == [1, 3, 29]
    assert ChoiceSet(EXTRA_THROW_CLASSES).to_json(("natural_one", "4")) == ["natural_one", "4"]
    assert IntList().to_json((1, 2)) == [1, 2]
    assert Optional(IntSet(1, 5)).to_json(frozenset({2, 1})) == [1, 2]
    assert Optional(IntSet(1, 5)).to_json(None) is None
    assert Mapping_((2, 3), IntList()).to_json(FrozenMap({2: (1,), 3: (2, 3)})) == {"2": [1], "3": [2, 3]}


# ============================================================ bad values
#
# (id, kind, raw value, how it enters, fragment naming the bad value, fragment
# naming what is allowed).  ``None`` fragments default to ``repr(raw)`` and
# ``kind.allowed()``.

BAD_CASES = [
    ("int-high", Int(1, 6), "7", "parse", None, "an integer in 1..6"),
    ("int-low", Int(1, 6), "0", "parse", None, None),
    ("int-text", Int(1, 6), "six", "parse", None, None),
    ("int-decimal-text", Int(1, 6), "2.5", "parse", None, None),
    ("int-float-json", Int(1, 6), 2.5, "json", None, None),
    ("int-bool-json", Int(0, 6), True, "json", None, None),
    ("int-null-json", Int(0, 6), None, "json", None, None),
    ("float-open-low", Float(0.0, 1.0, low_open=True, high_open=True), "0", "parse", None, "(0.0, 1.0)"),
    ("float-open-high", Float(0.0, 1.0, low_open=True, high_open=True), "1.0", "parse", None, None),
    ("float-closed-high", Float(0.0, 1.0), "1.5", "parse", None, "[0.0, 1.0]"),
    ("float-nan", Float(), "nan", "parse", None, None),
    ("float-inf", Float(), "inf", "parse", None, None),
    ("float-text", Float(0.0, 1.0), "half", "parse", None, None),
    ("float-bool-json", Float(0.0, 1.0), True, "json", None, None),
    ("bool-text", Bool(), "maybe", "parse", None, "true or false"),
    ("bool-two-json", Bool(), 2, "json", None, None),
    ("choice-unknown", Choice(("runes", "simplified")), "rune", "parse", None, "one of runes, simplified"),
    ("choice-int", Choice((0, -1)), "1", "parse", None, "one of 0, -1"),
    ("optional-inner", Optional(Int(0, 10)), "11", "parse", None, "none or an integer in 0..10"),
    ("optional-text", Optional(Int(0, 10)), "many", "parse", None, None),
    ("intset-out-of-range", IntSet(1, 35), "0,1", "parse", None, None),
    ("intset-range-too-far", IntSet(1, 35), "30..40", "parse", None, None),
    ("intset-bad-range", IntSet(1, 35), "1..x", "parse", None, None),
    ("intset-text", IntSet(1, 35), "a,b", "parse", None, None),
    ("intset-too-small", IntSet(1, 5, min_size=1), "", "parse", None, "at least 1 element"),
    ("intset-scalar-json", IntSet(1, 35), 5, "json", None, None),
    ("choiceset-unknown", ChoiceSet(EXTRA_THROW_CLASSES), "natural_one,7", "parse", None,
     "a subset of {natural_one, unnatural_one, 2, 3, 4, 5, 6}"),
    ("choiceset-scalar-json", ChoiceSet(EXTRA_THROW_CLASSES), 4, "json", None, None),
    ("intlist-too-long", IntList(1, 35, length=2), "1,2,3", "parse", None, None),
    ("intlist-too-short", IntList(1, 35, length=2), "25", "parse", None, None),
    ("intlist-element", IntList(1, 35, length=2), "0,5", "parse", None, None),
    ("mapping-unknown-key", Mapping_(("bear", "fox"), Int(0, 9)), "bear:2,wolf:3", "parse",
     "'wolf'", "bear, fox"),
    ("mapping-missing-key", Mapping_(("bear", "fox"), Int(0, 9)), "bear:2", "parse", None, "missing ['fox']"),
    ("mapping-bad-value", Mapping_(("bear", "fox"), Int(0, 9)), "bear:x,fox:1", "parse",
     "'x'", "an integer in 0..9"),
    ("mapping-no-colon", Mapping_(("bear", "fox"), Int(0, 9)), "bear2", "parse", None, "key:value"),
    ("mapping-bad-json-text", Mapping_(("bear", "fox"), Int(0, 9)), '{"bear": 2,', "parse", None, None),
    ("mapping-list-json", Mapping_(("bear", "fox"), Int(0, 9)), [2, 6], "json", None, None),
    ("mapping-bad-json-value", Mapping_(("bear", "fox"), Int(0, 9)), {"bear": 2, "fox": 10}, "json",
     "10", "an integer in 0..9"),
    ("datafile-suffix", DataFile(), "map.txt", "parse", None, "a path to an existing .json file"),
    ("datafile-number-json", DataFile(), 5, "json", None, None),
]


@pytest.mark.parametrize("case_id, kind, raw, via, bad_fragment, allowed_fragment", BAD_CASES,
                         ids=[c[0] for c in BAD_CASES])
def test_bad_value_message(case_id, kind, raw, via, bad_fragment, allowed_fragment):
    with pytest.raises(ValueError) as info:
        if via == "parse":
            kind.parse("my_param", raw)
        else:
            kind.from_json("my_param", raw)
    message = str(info.value)
    assert re.search(r"my_param(\[\w+\])?=", message), message
    if bad_fragment is not None:
        assert bad_fragment in message
    else:
        _assert_names_bad_value(message, raw)
    assert (kind.allowed() if allowed_fragment is None else allowed_fragment) in message
    assert "not allowed" in message


def _assert_names_bad_value(message, raw):
    """The message shows the bad value: its repr, or (for text split into items) every item."""
    if repr(raw) in message:
        return
    assert isinstance(raw, str), message
    for token in re.split(r"[,:]", raw):
        if token.strip():
            assert repr(token.strip()) in message or token.strip() in message, (token, message)


@pytest.mark.parametrize("kind, raw", [
    (Choice((0, -1)), False),
    (Choice((0, -1)), True),
    (Choice((1, 2)), True),
    (Mapping_(("a",), Choice((0, 1))), {"a": False}),
])
def test_int_choice_rejects_bools(kind, raw):
    # Int rejects bools (``Int(0, 6).check('x', True)`` raises); an int Choice should too,
    # otherwise JSON ``false`` silently becomes 0 (e.g. ``hagalaz_alone_value``).
    with pytest.raises(ValueError, match="my_param"):
        kind.check("my_param", raw)


def test_allowed_texts():
    assert Int(1, 6).allowed() == "an integer in 1..6"
    assert Int().allowed() == "an integer in -inf..inf"
    assert Float(0.0, 1.0, low_open=True, high_open=True).allowed() == "a number in (0.0, 1.0)"
    assert Float(0.0).allowed() == "a number in [0.0, inf)"
    assert Optional(Bool()).allowed() == "none or true or false"
    assert IntSet(1, 35).allowed() == "a set of integers in 1..35, comma-separated (a..b for a range)"
    assert IntList(1, 35, length=2).allowed() == "a list of 2 integers in 1..35"
    assert Mapping_(("bear", "fox"), Int(0, 9)).allowed() == "a mapping {bear, fox} -> an integer in 0..9"


# ============================================================ FrozenMap


def test_frozen_map():
    m = FrozenMap({"bear": 2, "fox": 6})
    assert m == {"bear": 2, "fox": 6}
    assert m == FrozenMap({"fox": 6, "bear": 2})
    assert hash(m) == hash(FrozenMap({"fox": 6, "bear": 2}))
    assert m != {"bear": 2}
    assert len(m) == 2 and m["fox"] == 6 and list(m) == ["bear", "fox"]
    with pytest.raises(TypeError):
        m["bear"] = 3  # type: ignore[index]
    assert {m: 1}[FrozenMap({"bear": 2, "fox": 6})] == 1


# ============================================================ a throwaway Rules


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """Uses every kind, with defaults that depend on the player count."""

    GAME = "toy"
    RULES_VERSION = 3
    PRESETS = {
        "standard": {},
        "family": {"board": "small", "bonus_round": True, "counts": {"bear": 1, "fox": 3}},
    }

    num_players: int = param(2, Int(2, 4), "Players")
    second_place_gap: object = param(ByPlayers({2: 2, 3: None, 4: None}), Optional(Int(0, 10)),
                                     "Gap for second place (2 players only)", "[src]")
    hand_size: int = param(ByPlayers({2: 7, 3: 6, 4: 5}), Int(1, 10), "Cards in hand", "[design]")
    start_vp: object = param({2: 10, 3: 8, 4: 6}, Mapping_((2, 3, 4), Int(0, 50)),
                             "Starting victory points by player count")
    stick_p: float = param(0.5, Float(0.0, 1.0, low_open=True, high_open=True), "A probability")
    bonus_round: bool = param(False, Bool(), "Play a bonus round")
    board: str = param("large", Choice(("small", "large")), "Board size")
    penalty: int = param(0, Choice((0, -1)), "Penalty value")
    safe: frozenset = param(frozenset({1, 2, 29}), IntSet(1, 35), "Safe squares")
    bonuses: tuple = param(("natural_one", "4"), ChoiceSet(EXTRA_THROW_CLASSES), "Bonus classes")
    tiles: tuple = param([5, 6, 7], IntList(1, 9), "Tiles")
    counts: object = param({"bear": 2, "fox": 6}, Mapping_(("bear", "fox"), Int(0, 9)), "Animal counts")
    extras: object = param({"bear": 1, "fox": 1}, Mapping_(("bear", "fox"), Int(0, 9), complete=False),
                           "Extra animals (keys may be left out)")
    map: str = param("maps/toy_map.json", DataFile(), "Map file")

    def validate(self):
        if self.board == "small" and self.num_players > 3:
            raise ValueError(f"board={self.board!r} is not allowed with num_players={self.num_players}: "
                             "at most 3 players")


def test_toy_defaults_are_normalised():
    r = Rules()
    assert r.num_players == 2
    assert r.second_place_gap == 2
    assert r.hand_size == 7
    assert r.start_vp == {2: 10, 3: 8, 4: 6} and isinstance(r.start_vp, FrozenMap)
    assert r.safe == frozenset({1, 2, 29})
    assert r.tiles == (5, 6, 7)  # list default -> tuple
    assert r.counts == {"bear": 2, "fox": 6} and isinstance(r.counts, FrozenMap)
    assert r.map == "maps/toy_map.json"


@pytest.mark.parametrize("players, gap, hand", [(2, 2, 7), (3, None, 6), (4, None, 5)])
def test_by_players_defaults_resolve(players, gap, hand):
    r = Rules(num_players=players)
    assert r.second_place_gap == gap
    assert r.hand_size == hand
    assert Rules.from_assignments([f"num_players={players}"]) == r


def test_by_players_default_can_be_overridden():
    assert Rules(num_players=3, second_place_gap=4).second_place_gap == 4
    assert Rules(num_players=2, second_place_gap=0).second_place_gap == 0
    assert Rules.from_assignments(["num_players=4", "hand_size=9"]).hand_size == 9


def test_by_players_default_can_be_overridden_to_none():
    # Attila: "with 2 players and two_player_second_place_gap set (default 2)" -- so
    # ``--set gap=none`` must switch the rule off for 2 players.
    assert Rules(num_players=2, second_place_gap=None).second_place_gap is None
    assert Rules.from_assignments(["second_place_gap=none"]).second_place_gap is None


def test_partial_mapping_keeps_default_for_missing_keys():
    # Mapping_ docstring: "otherwise missing keys keep the default's value".
    r = Rules.from_assignments(["extras=bear:3"])
    assert r.extras == {"bear": 3, "fox": 1}


def test_toy_json_round_trip_every_player_count():
    custom = ["stick_p=0.3", "bonus_round=true", "board=small", "penalty=-1", "safe=1..5,29",
              "bonuses=5,natural_one", "tiles=9,1,9", "counts=fox:0,bear:9", "start_vp=2:1,3:2,4:3",
              "extras=fox:4", "map=other/map.json"]
    cases = [Rules.from_assignments([f"num_players={n}"]) for n in (2, 3, 4)]
    cases += [Rules.from_assignments([f"num_players={n}"] + custom) for n in (2, 3)]
    cases += [Rules.from_assignments(["num_players=4", "second_place_gap=3"])]
    for r in cases:
        obj = r.to_json()
        assert list(obj) == list(params_of(Rules))
        reloaded = json.loads(json.dumps(obj))
        assert reloaded == obj
        back = Rules.from_json(reloaded)
        assert back == r
        assert hash(back) == hash(r)


def test_toy_to_json_values():
    obj = Rules(num_players=3).to_json()
    assert obj["second_place_gap"] is None
    assert obj["hand_size"] == 6
    assert obj["safe"] == [1, 2, 29]
    assert obj["bonuses"] == ["natural_one", "4"]
    assert obj["tiles"] == [5, 6, 7]
    assert obj["counts"] == {"bear": 2, "fox": 6}
    assert obj["start_vp"] == {"2": 10, "3": 8, "4": 6}
    assert obj["map"] == "maps/toy_map.json"
    json.dumps(obj)  # serialisable


def test_toy_from_assignments_every_kind():
    r = Rules.from_assignments([
        "num_players=3", "second_place_gap=1", "hand_size=4", "start_vp=2:0,3:0,4:50", "stick_p=0.75",
        "bonus_round=yes", "board=small", "penalty=-1", "safe=3..5", "bonuses=6,unnatural_one",
        "tiles=1,1,2", "counts=bear:0,fox:9", "extras=bear:2,fox:2", "map=maps/x.json",
    ])
    assert (r.num_players, r.second_place_gap, r.hand_size) == (3, 1, 4)
    assert r.start_vp == {2: 0, 3: 0, 4: 50}
    assert r.stick_p == 0.75 and r.bonus_round is True and r.board == "small" and r.penalty == -1
    assert r.safe == frozenset({3, 4, 5})
    assert r.bonuses == ("unnatural_one", "6")
    assert r.tiles == (1, 1, 2)
    assert r.counts == {"bear": 0, "fox": 9}
    assert r.map == "maps/x.json"


def test_toy_bad_assignment_names_parameter():
    with pytest.raises(ValueError, match=r"hand_size='11' is not allowed: an integer in 1\.\.10"):
        Rules.from_assignments(["hand_size=11"])
    with pytest.raises(ValueError, match=r"start_vp\[3\]='x' is not allowed"):
        Rules.from_assignments(["start_vp=2:1,3:x,4:1"])
    with pytest.raises(ValueError, match=r"start_vp=.*missing \[4\]"):
        Rules.from_assignments(["start_vp=2:1,3:1"])
    with pytest.raises(ValueError, match="num_players"):
        Rules.from_assignments(["num_players=5"])
    with pytest.raises(ValueError, match=r"map='map\.yaml' is not allowed"):
        Rules.from_assignments(["map=map.yaml"])


def test_toy_direct_construction_is_validated():
    with pytest.raises(ValueError, match="safe="):
        Rules(safe=frozenset({0}))
    with pytest.raises(ValueError, match="board='small' is not allowed with num_players=4"):
        Rules(num_players=4, board="small")
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().board = "small"  # type: ignore[misc]


def test_toy_presets_and_preset_name():
    fam = Rules.preset("family")
    assert fam.board == "small" and fam.bonus_round is True and fam.counts == {"bear": 1, "fox": 3}
    assert fam.preset_name() == "family"
    assert Rules().preset_name() == "standard"
    assert Rules(num_players=3).preset_name() == "standard"
    assert Rules.preset("family", num_players=3).preset_name() == "family"
    assert Rules(tiles=(1,)).preset_name() is None
    assert Rules.preset("family", hand_size=2).hand_size == 2
    # a preset impossible for 4 players is skipped, not an error
    assert Rules(num_players=4, bonus_round=True).preset_name() is None


def test_toy_changed():
    assert Rules().changed() == {}
    assert Rules(num_players=3).changed() == {}  # ByPlayers defaults follow the player count
    assert Rules(num_players=3, second_place_gap=2).changed() == {"second_place_gap": 2}
    assert Rules(safe=frozenset({4}), counts={"bear": 0, "fox": 6}).changed() == {
        "safe": [4], "counts": {"bear": 0, "fox": 6}}
    assert Rules.preset("family").changed() == {
        "bonus_round": True, "board": "small", "counts": {"bear": 1, "fox": 3}}


def test_toy_describe():
    rows = Rules.describe()
    assert [r["name"] for r in rows] == [f.name for f in dataclasses.fields(Rules)]
    by_name = {r["name"]: r for r in rows}
    for row in rows:
        assert set(row) == {"name", "type", "default", "allowed", "doc", "basis"}
    assert by_name["second_place_gap"]["default"] == "2 players: 2; 3 players: None; 4 players: None"
    assert by_name["second_place_gap"]["type"] == "optional"
    assert by_name["second_place_gap"]["basis"] == "[src]"
    assert by_name["hand_size"]["default"] == "2 players: 7; 3 players: 6; 4 players: 5"
    assert by_name["safe"]["default"] == "1,2,29"
    assert by_name["tiles"]["default"] == "5,6,7"
    assert by_name["counts"]["default"] == "bear:2,fox:6"
    assert by_name["start_vp"]["default"] == "2:10,3:8,4:6"
    assert by_name["bonuses"]["default"] == "natural_one,4"
    assert by_name["bonus_round"]["default"] == "false"
    assert by_name["map"]["type"] == "data file"
    assert by_name["counts"]["allowed"] == "a mapping {bear, fox} -> an integer in 0..9"


def test_toy_unknown_names_and_presets():
    with pytest.raises(ValueError, match=r"unknown parameter 'colour' for toy: one of num_players, "):
        Rules.from_assignments(["colour=red"])
    with pytest.raises(ValueError, match=r"unknown parameter 'colour' for toy"):
        Rules.from_json({"colour": "red"})
    with pytest.raises(ValueError, match=r"unknown parameter 'colour' for toy"):
        Rules.preset("standard", colour="red")
    with pytest.raises(ValueError, match=r"preset='expert' is not allowed: one of standard, family"):
        Rules.preset("expert")
    with pytest.raises(ValueError, match=r"--set 'board' is not allowed: write NAME=VALUE"):
        Rules.from_assignments(["board"])


def test_every_toy_field_widget_round_trip():
    r = Rules.from_assignments(["num_players=3", "second_place_gap=4", "safe=1..3", "extras=fox:2"])
    for name, spec in params_of(Rules).items():
        value = getattr(r, name)
        widget = make_control(spec.kind, name, value, spec.doc)
        assert spec.kind.from_widget(name, widget.value) == value, name


def test_toy_kinds_cover_every_kind():
    used = {type(spec.kind) for spec in params_of(Rules).values()}
    kinds = {Int, Float, Bool, Choice, Optional, IntSet, ChoiceSet, IntList, Mapping_, DataFile}
    assert kinds <= used
    assert set(Kind.__subclasses__()) <= kinds


# ============================================================ the real Valhalla Rules


def test_valhalla_from_assignments_on_alternative():
    r = ValhallaRules.from_assignments(
        ["safe_squares=1,2,3,4,5,29", "extra_throw_values=natural_one,4"], preset="alternative")
    assert r.throw_mode == "simplified"
    assert r.setup == "alternating_blocks"
    assert r.extra_throw_enabled is True
    assert r.safe_squares == frozenset({1, 2, 3, 4, 5, 29})
    assert r.extra_throw_values == ("natural_one", "4")
    # untouched parameters keep their defaults
    assert r.ships_per_player == 6 and r.rock_square == 30 and r.blockade_zone == (25, 35)
    assert r.preset_name() is None
    assert r.changed() == {
        "throw_mode": "simplified", "setup": "alternating_blocks", "extra_throw_enabled": True,
        "safe_squares": [1, 2, 3, 4, 5, 29], "extra_throw_values": ["natural_one", "4"],
    }
    assert ValhallaRules.from_json(r.to_json()) == r


def test_valhalla_assignment_overrides_preset_and_keyword():
    r = ValhallaRules.from_assignments(["throw_mode=runes"], preset="alternative", max_turns=7)
    assert r.throw_mode == "runes" and r.max_turns == 7 and r.setup == "alternating_blocks"


@pytest.mark.parametrize("assignment, fragment", [
    ("ship_count=5", "unknown parameter 'ship_count' for valhalla"),
    ("throwmode=runes", "unknown parameter 'throwmode' for valhalla"),
])
def test_valhalla_unknown_parameter(assignment, fragment):
    with pytest.raises(ValueError) as info:
        ValhallaRules.from_assignments([assignment])
    message = str(info.value)
    assert fragment in message
    assert "throw_mode" in message and "max_turns" in message  # lists what exists


def test_valhalla_unknown_parameter_in_json_and_preset():
    with pytest.raises(ValueError, match="unknown parameter 'ships' for valhalla"):
        ValhallaRules.from_json({"ships": 3})
    with pytest.raises(ValueError, match="unknown parameter 'ships' for valhalla"):
        ValhallaRules.preset("standard", ships=3)


def test_valhalla_unknown_preset():
    with pytest.raises(ValueError, match=r"preset='advanced' is not allowed: one of standard, alternative"):
        ValhallaRules.preset("advanced")
    with pytest.raises(ValueError, match=r"preset='advanced'"):
        ValhallaRules.from_assignments([], preset="advanced")


@pytest.mark.parametrize("assignment", [
    "ships_per_player=7",
    "ships_per_player=0",
    "stick_rune_up_probability=1",
    "stick_rune_up_probability=0",
    "zero_runes_value=7",
    "hagalaz_alone_value=-2",
    "throw_mode=rune",
    "setup=random",
    "safe_squares=0,1",
    "safe_squares=30..36",
    "extra_throw_values=natural_one,1",
    "blockade_zone=25",
    "blockade_zone=25,36",
    "protected_run_lengths=0",
    "extra_throw_enabled=sometimes",
    "dock_square=35",
    "rock_square=1",
    "max_turns=0",
])
def test_valhalla_bad_single_values(assignment):
    name, _, raw = assignment.partition("=")
    with pytest.raises(ValueError) as info:
        ValhallaRules.from_assignments([assignment])
    message = str(info.value)
    assert message.startswith(f"{name}=")
    _assert_names_bad_value(message, raw)
    assert "is not allowed: " + params_of(ValhallaRules)[name].kind.allowed() in message


def test_valhalla_bad_value_message_exact():
    with pytest.raises(ValueError, match=r"^ships_per_player='7' is not allowed: an integer in 1\.\.6$"):
        ValhallaRules.from_assignments(["ships_per_player=7"])
    with pytest.raises(ValueError,
                       match=r"^stick_rune_up_probability='1' is not allowed: a number in \(0\.0, 1\.0\)$"):
        ValhallaRules.from_assignments(["stick_rune_up_probability=1"])
    with pytest.raises(ValueError, match=r"^hagalaz_alone_value=-2 is not allowed: one of 0, -1$"):
        ValhallaRules(hagalaz_alone_value=-2)


@pytest.mark.parametrize("build, names", [
    (lambda: ValhallaRules.from_assignments(["ships_per_player=5"], preset="alternative"),
     ["ships_per_player=5", "setup=alternating_blocks"]),
    (lambda: ValhallaRules(setup="alternating_blocks", ships_per_player=5),
     ["ships_per_player=5", "setup=alternating_blocks"]),
    (lambda: ValhallaRules.from_assignments(["rock_square=19"]), ["rock_square=19", "dock_square=19"]),
    (lambda: ValhallaRules.from_assignments(["rock_square=12", "dock_square=12"]),
     ["rock_square=12", "dock_square=12"]),
    (lambda: ValhallaRules.from_assignments(["rock_square=13"], preset="alternative"),
     ["rock_square=13", "setup=alternating_blocks"]),
    (lambda: ValhallaRules.from_assignments(["blockade_zone=35,25"]), ["blockade_zone=35,25"]),
    (lambda: ValhallaRules.from_json({"blockade_zone": [30, 26]}), ["blockade_zone=30,26"]),
])
def test_valhalla_cross_field_errors(build, names):
    with pytest.raises(ValueError) as info:
        build()
    message = str(info.value)
    for name in names:
        assert name in message
    assert "is not allowed" in message


def test_valhalla_cross_field_edges_allowed():
    assert ValhallaRules.from_assignments(["rock_square=14"], preset="alternative").rock_square == 14
    assert ValhallaRules.from_assignments(["blockade_zone=25,25"]).blockade_zone == (25, 25)
    assert ValhallaRules(ships_per_player=5).ships_per_player == 5  # empty_board: any count
    assert ValhallaRules(rock_square=2, dock_square=1).rock_square == 2


@pytest.mark.parametrize("preset", ["standard", "alternative"])
def test_valhalla_json_round_trip(preset):
    r = ValhallaRules.preset(preset)
    obj = r.to_json()
    assert json.loads(json.dumps(obj)) == obj
    assert ValhallaRules.from_json(obj) == r
    assert ValhallaRules.from_json(json.loads(json.dumps(obj))) == r
    assert ValhallaRules.from_json(obj).preset_name() == preset
    assert list(obj) == [f.name for f in dataclasses.fields(ValhallaRules)]


def test_valhalla_to_json_values():
    obj = ValhallaRules().to_json()
    assert obj["safe_squares"] == [1, 2, 3, 4, 5, 29, 32, 34]
    assert obj["blockade_zone"] == [25, 35]
    assert obj["protected_run_lengths"] == [2, 4, 6]
    assert obj["extra_throw_values"] == ["natural_one", "4", "5"]
    assert obj["stick_rune_up_probability"] == 0.5
    assert obj["hagalaz_alone_value"] == 0
    assert ValhallaRules.from_json({}) == ValhallaRules()


def test_valhalla_rules_are_hashable():
    a = ValhallaRules.preset("alternative")
    b = ValhallaRules.from_json(a.to_json())
    c = ValhallaRules.from_assignments(["safe_squares=1,2,3,4,5,29"])
    assert hash(a) == hash(b)
    table = {a: "alt", ValhallaRules(): "std", c: "custom"}
    assert table[b] == "alt"
    assert table[ValhallaRules.preset("standard")] == "std"
    assert len({a, b, ValhallaRules(), ValhallaRules()}) == 2


def test_valhalla_preset_name_and_replace():
    assert ValhallaRules().preset_name() == "standard"
    assert ValhallaRules.preset("alternative").preset_name() == "alternative"
    r = ValhallaRules.preset("alternative").replace(max_turns=5)
    assert r.max_turns == 5 and r.preset_name() is None
    with pytest.raises(ValueError, match="ships_per_player=4"):
        ValhallaRules.preset("alternative").replace(ships_per_player=4)


def test_valhalla_describe_one_row_per_field():
    rows = ValhallaRules.describe()
    fields = dataclasses.fields(ValhallaRules)
    assert len(rows) == len(fields) == 25
    assert [r["name"] for r in rows] == [f.name for f in fields]
    by_name = {r["name"]: r for r in rows}
    assert by_name["safe_squares"]["default"] == "1,2,3,4,5,29,32,34"
    assert by_name["blockade_zone"]["default"] == "25,35"
    assert by_name["extra_throw_values"]["default"] == "natural_one,4,5"
    assert by_name["repairing_ship_protected"]["default"] == "true"
    assert by_name["throw_mode"]["allowed"] == "one of runes, simplified"
    assert by_name["stick_rune_up_probability"]["allowed"] == "a number in (0.0, 1.0)"
    assert all(r["doc"] for r in rows) and all(r["basis"] for r in rows)


def test_valhalla_every_field_widget_round_trip():
    r = ValhallaRules.from_assignments(["safe_squares=1,2,3,4,5,29", "extra_throw_values=natural_one,4",
                                        "hagalaz_alone_value=-1", "stick_rune_up_probability=0.3"],
                                       preset="alternative")
    for name, spec in params_of(ValhallaRules).items():
        value = getattr(r, name)
        widget = make_control(spec.kind, name, value, spec.doc)
        assert spec.kind.from_widget(name, widget.value) == value, name
