"""Walhalla ``Rules`` (spec §9): every default and preset against the spec's table, the player-count
defaults, every refusal, the ``--set`` forms and the JSON round trip."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from toolkit.core.params import FrozenMap, params_of
from toolkit.viz.controls import control as make_control
from toolkit.games.walhalla.data import load_action_cards, load_dragons, load_tiles
from toolkit.games.walhalla.rules import DRAW_18, DRAW_18_COMBINATIONS, Rules

# §9.2, in the table's order, with 4 players
SPEC_DEFAULTS = {
    "num_players": 4,
    "peninsula_tiles": (6, 6, 6),
    "raids": 3,
    "vikings_per_colour": 14,
    "start_midgard": 7,
    "initial_walhalla_source": "asgard",
    "initial_action_cards": 1,
    "forest_vp": 2,
    "cult_cards": 1,
    "village_bonus": 1,
    "landing_mandatory": True,
    "winner_loses_hero": True,
    "action_deck": {"axe": 8, "shield": 6, "horn": 8, "walhalla": 4, "plunder": 6},
    "horn_strength": 2,
    "plunder_vp": 2,
    "walhalla_card_bonus": 2,
    "sell_cards_for_vikings": True,
    "reinforcement_table": (8, 7, 6, 5),
    "walhalla_final_vp": (6, 4),
    "final_vp_per_occupied_field": 1,
    "tie_rounding": "up",
    "peninsula_eligibility_min_vikings": 1,
    "start_player": "random",
    "tiebreak": "shared",
}
THREE_PLAYERS = {"start_midgard": 9, "reinforcement_table": (10, 9, 8)}


# ============================================================ defaults and presets


def test_s9_2_every_parameter_in_the_spec_order():
    assert list(params_of(Rules)) == list(SPEC_DEFAULTS)
    assert [f.name for f in dataclasses.fields(Rules)] == list(SPEC_DEFAULTS)


def test_s9_2_defaults():
    r = Rules()
    for name, value in SPEC_DEFAULTS.items():
        assert getattr(r, name) == value, name
    assert isinstance(r.action_deck, FrozenMap) and sum(r.action_deck.values()) == 32  # [src:W3]
    assert r.action_deck == load_action_cards().deck  # the default comes from the data file


@pytest.mark.parametrize("choices, name", [
    (("asgard", "midgard"), "initial_walhalla_source"),
    (("up", "down"), "tie_rounding"),
    (("random", "seat0"), "start_player"),
    (("shared", "walhalla_then_fields"), "tiebreak"),
])
def test_s9_2_choices(choices, name):
    assert params_of(Rules)[name].kind.choices == choices
    for choice in choices:
        assert getattr(Rules.from_assignments([f"{name}={choice}"]), name) == choice


def test_s9_1_presets():
    assert set(Rules.PRESETS) == {"standard", "variable"}
    standard, variable = Rules.preset("standard"), Rules.preset("variable")
    assert standard == Rules() and standard.peninsula_tiles == (6, 6, 6)
    assert variable.peninsula_tiles == DRAW_18 == "draw_18"
    assert variable.replace(peninsula_tiles=(6, 6, 6)) == standard  # all else at the defaults
    assert standard.preset_name() == "standard" and variable.preset_name() == "variable"
    assert variable.changed() == {"peninsula_tiles": "draw_18"}
    assert Rules.preset("variable", num_players=3).preset_name() == "variable"


def test_w2_1_draw_18_combinations():
    assert set(DRAW_18_COMBINATIONS) == {(5, 5, 8), (5, 6, 7), (6, 6, 6)}
    for combination in DRAW_18_COMBINATIONS:
        assert sum(combination) == 18
        assert Rules(peninsula_tiles=combination).peninsula_tiles == combination


# ============================================================ player-count defaults


@pytest.mark.parametrize("players, midgard, table", [(3, 9, (10, 9, 8)), (4, 7, (8, 7, 6, 5))])
def test_by_players_defaults(players, midgard, table):
    for r in (Rules(num_players=players), Rules.from_assignments([f"num_players={players}"]),
              Rules.preset("variable", num_players=players)):
        assert r.start_midgard == midgard and r.reinforcement_table == table
        assert len(r.reinforcement_table) == r.num_players
    assert Rules(num_players=players).changed() == {}


def test_w2_5_setup_arithmetic():
    # 4 players: Midgard 7, Walhalla 1, Asgard 6; 3 players: Midgard 9, Walhalla 1, Asgard 4
    for players, asgard in ((4, 6), (3, 4)):
        r = Rules(num_players=players)
        assert r.vikings_per_colour - r.start_midgard - 1 == asgard


def test_by_players_defaults_follow_replace():
    three = Rules().replace(num_players=3)
    assert three == Rules(num_players=3)
    assert (three.start_midgard, three.reinforcement_table) == (9, (10, 9, 8))
    four = three.replace(num_players=4)
    assert four == Rules() and (four.start_midgard, four.reinforcement_table) == (7, (8, 7, 6, 5))
    assert Rules.preset("variable").replace(num_players=3).preset_name() == "variable"


def test_replace_keeps_a_set_value():
    r = Rules(start_midgard=5).replace(num_players=3)
    assert r.start_midgard == 5 and r.reinforcement_table == (10, 9, 8)
    # an explicit 4-entry table does not follow the player count: refused for 3 players
    custom = Rules(reinforcement_table=(9, 7, 5, 3))
    with pytest.raises(ValueError, match=r"^reinforcement_table=9,7,5,3 is not allowed with num_players=3: "
                                         r"a list of 3 integers"):
        custom.replace(num_players=3)
    assert custom.replace(num_players=3, reinforcement_table=(9, 7, 5)).reinforcement_table == (9, 7, 5)


# ============================================================ --set forms


def test_peninsula_tiles_assignments():
    assert Rules.from_assignments(["peninsula_tiles=5,6,7"]).peninsula_tiles == (5, 6, 7)
    assert Rules.from_assignments(["peninsula_tiles=draw_18"]).peninsula_tiles == "draw_18"
    assert Rules.from_assignments(["peninsula_tiles=draw_18"]).preset_name() == "variable"
    assert Rules.from_assignments(["peninsula_tiles=6,6,6"], preset="variable").preset_name() == "standard"
    assert Rules.from_assignments(["peninsula_tiles=5,5,5"]).peninsula_tiles == (5, 5, 5)  # 15 <= 18


def test_other_assignments():
    r = Rules.from_assignments(["num_players=3", "start_midgard=10", "reinforcement_table=12,10,8",
                                "walhalla_final_vp=8,3", "action_deck=axe:10,plunder:0", "tie_rounding=down",
                                "landing_mandatory=false", "initial_walhalla_source=midgard", "raids=5"])
    assert (r.num_players, r.start_midgard, r.reinforcement_table) == (3, 10, (12, 10, 8))
    assert r.walhalla_final_vp == (8, 3)
    # card types left out keep their default count
    assert r.action_deck == {"axe": 10, "shield": 6, "horn": 8, "walhalla": 4, "plunder": 0}
    assert list(r.action_deck) == ["axe", "shield", "horn", "walhalla", "plunder"]
    assert (r.tie_rounding, r.landing_mandatory, r.initial_walhalla_source, r.raids) == ("down", False, "midgard", 5)


# ============================================================ refusals


BAD_SINGLE_VALUES = [
    "num_players=2", "num_players=5",
    "peninsula_tiles=4,6,6", "peninsula_tiles=9,5,5", "peninsula_tiles=6,6", "peninsula_tiles=6,6,6,6",
    "peninsula_tiles=draw_17", "peninsula_tiles=random",
    "raids=0", "raids=6",
    "vikings_per_colour=1", "vikings_per_colour=41",
    "start_midgard=0", "start_midgard=40",
    "initial_walhalla_source=valhalla",
    "initial_action_cards=-1", "initial_action_cards=11",
    "forest_vp=-1", "forest_vp=11", "cult_cards=6", "village_bonus=11",
    "landing_mandatory=maybe", "winner_loses_hero=2",
    "horn_strength=11", "plunder_vp=-1", "walhalla_card_bonus=11",
    "sell_cards_for_vikings=sometimes",
    "reinforcement_table=8,7,6,41", "reinforcement_table=8,7,x,5",
    "walhalla_final_vp=6", "walhalla_final_vp=6,4,2", "walhalla_final_vp=31,4",
    "final_vp_per_occupied_field=11",
    "tie_rounding=nearest",
    "peninsula_eligibility_min_vikings=0", "peninsula_eligibility_min_vikings=17",
    "start_player=seat1",
    "tiebreak=vp",
]


@pytest.mark.parametrize("assignment", BAD_SINGLE_VALUES)
def test_bad_single_values_name_the_parameter(assignment):
    name, _, raw = assignment.partition("=")
    with pytest.raises(ValueError) as info:
        Rules.from_assignments([assignment])
    message = str(info.value)
    assert message == f"{name}={raw!r} is not allowed: {params_of(Rules)[name].kind.allowed()}"


def test_every_parameter_has_a_bad_value():
    assert {a.partition("=")[0] for a in BAD_SINGLE_VALUES} == set(SPEC_DEFAULTS) - {"action_deck"}


@pytest.mark.parametrize("assignment, pattern", [
    ("action_deck=axe:41", r"^action_deck\[axe\]='41' is not allowed: an integer in 0\.\.40$"),
    ("action_deck=axe:-1", r"^action_deck\[axe\]='-1' is not allowed"),
    ("action_deck=sword:2", r"^action_deck='sword' is not allowed: keys must be among axe, shield, horn, "
                            r"walhalla, plunder$"),
    ("action_deck=axe", r"^action_deck='axe' is not allowed: .*key:value"),
])
def test_bad_action_deck(assignment, pattern):
    with pytest.raises(ValueError, match=pattern):
        Rules.from_assignments([assignment])


def test_exact_messages():
    with pytest.raises(ValueError, match=r"^peninsula_tiles='4,6,6' is not allowed: a list of 3 integers in "
                                         r"5\.\.8, or draw_18$"):
        Rules.from_assignments(["peninsula_tiles=4,6,6"])
    with pytest.raises(ValueError, match=r"^num_players=5 is not allowed: an integer in 3\.\.4$"):
        Rules(num_players=5)


CROSS_FIELD = [
    # (rules, the message start (parameter=value and the other fields), the allowed range)
    (dict(peninsula_tiles=(7, 7, 7)), "peninsula_tiles=7,7,7 is not allowed",
     "sum to at most 18, the number of tiles (they sum to 21)"),
    (dict(peninsula_tiles=(8, 8, 5)), "peninsula_tiles=8,8,5 is not allowed", "(they sum to 21)"),
    (dict(peninsula_tiles=(5, 6, 8)), "peninsula_tiles=5,6,8 is not allowed", "(they sum to 19)"),
    (dict(start_midgard=14), "start_midgard=14 is not allowed with vikings_per_colour=14 and "
     "initial_walhalla_source='asgard'", "at most 13"),
    (dict(num_players=3, vikings_per_colour=9), "start_midgard=9 is not allowed with vikings_per_colour=9",
     "at most 8"),
    (dict(start_midgard=15, initial_walhalla_source="midgard"),
     "start_midgard=15 is not allowed with vikings_per_colour=14 and initial_walhalla_source='midgard'",
     "at most 14"),
    (dict(reinforcement_table=(10, 9, 8)), "reinforcement_table=10,9,8 is not allowed with num_players=4",
     "a list of 4 integers in 0..40, one per rank"),
    (dict(num_players=3, reinforcement_table=(8, 7, 6, 5)),
     "reinforcement_table=8,7,6,5 is not allowed with num_players=3", "a list of 3 integers"),
    (dict(action_deck={"axe": 0, "shield": 0, "horn": 0, "walhalla": 0, "plunder": 0}),
     "action_deck=axe:0,shield:0,horn:0,walhalla:0,plunder:0 is not allowed", "at least 1 card"),
    (dict(initial_action_cards=9), "initial_action_cards=9 is not allowed with num_players=4 and action_deck=",
     "the deck (32 cards) must hold every starting hand, so at most 8"),
    (dict(num_players=3, initial_action_cards=2, action_deck={"axe": 5, "shield": 0, "horn": 0, "walhalla": 0,
                                                              "plunder": 0}),
     "initial_action_cards=2 is not allowed with num_players=3 and action_deck=axe:5,shield:0",
     "the deck (5 cards) must hold every starting hand, so at most 1"),
]


@pytest.mark.parametrize("values, start, allowed", CROSS_FIELD, ids=[c[1].split(" ")[0] for c in CROSS_FIELD])
def test_cross_field_errors_name_parameter_value_and_range(values, start, allowed):
    with pytest.raises(ValueError) as info:
        Rules(**values)
    message = str(info.value)
    assert message.startswith(start), message
    assert allowed in message, message


def test_cross_field_errors_through_assignments_and_json():
    with pytest.raises(ValueError, match=r"^peninsula_tiles=8,8,8 is not allowed"):
        Rules.from_assignments(["peninsula_tiles=8,8,8"])
    with pytest.raises(ValueError, match=r"^reinforcement_table=8,7,6 is not allowed with num_players=4"):
        Rules.from_json({"reinforcement_table": [8, 7, 6]})
    with pytest.raises(ValueError, match=r"^start_midgard=14 is not allowed"):
        Rules.preset("variable", start_midgard=14)


def test_cross_field_edges_allowed():
    assert Rules(peninsula_tiles=(8, 5, 5)).peninsula_tiles == (8, 5, 5)
    assert Rules(start_midgard=13).start_midgard == 13
    assert Rules(start_midgard=14, initial_walhalla_source="midgard").start_midgard == 14
    assert Rules(num_players=3, vikings_per_colour=10).start_midgard == 9
    assert Rules(initial_action_cards=8).initial_action_cards == 8
    single = {"axe": 0, "shield": 0, "horn": 1, "walhalla": 0, "plunder": 0}
    assert sum(Rules(action_deck=single, initial_action_cards=0).action_deck.values()) == 1
    assert Rules(reinforcement_table=(0, 0, 0, 0)).reinforcement_table == (0, 0, 0, 0)


# ============================================================ JSON, description, widgets


@pytest.mark.parametrize("preset", ["standard", "variable"])
@pytest.mark.parametrize("players", [3, 4])
def test_json_round_trip_of_every_preset(preset, players):
    r = Rules.preset(preset, num_players=players)
    obj = r.to_json()
    assert list(obj) == list(SPEC_DEFAULTS)
    reloaded = json.loads(json.dumps(obj))
    assert reloaded == obj
    back = Rules.from_json(reloaded)
    assert back == r and hash(back) == hash(r)
    assert back.preset_name() == preset


def test_to_json_values():
    obj = Rules.preset("variable", num_players=3).to_json()
    assert obj["peninsula_tiles"] == "draw_18"
    assert obj["reinforcement_table"] == [10, 9, 8]
    assert obj["start_midgard"] == 9
    assert obj["walhalla_final_vp"] == [6, 4]
    assert obj["action_deck"] == {"axe": 8, "shield": 6, "horn": 8, "walhalla": 4, "plunder": 6}
    assert Rules().to_json()["peninsula_tiles"] == [6, 6, 6]
    assert Rules.from_json({}) == Rules()


def test_a_custom_rule_set_round_trips():
    r = Rules.from_assignments(["num_players=3", "peninsula_tiles=8,5,5", "action_deck=shield:12",
                                "reinforcement_table=7,7,7", "walhalla_final_vp=10,0", "tiebreak=walhalla_then_fields"])
    assert Rules.from_json(json.loads(json.dumps(r.to_json()))) == r
    assert r.preset_name() is None
    assert r.changed() == {"peninsula_tiles": [8, 5, 5],
                           "action_deck": {"axe": 8, "shield": 12, "horn": 8, "walhalla": 4, "plunder": 6},
                           "reinforcement_table": [7, 7, 7], "walhalla_final_vp": [10, 0],
                           "tiebreak": "walhalla_then_fields"}


def test_describe_one_row_per_parameter():
    rows = Rules.describe()
    assert [row["name"] for row in rows] == list(SPEC_DEFAULTS)
    by_name = {row["name"]: row for row in rows}
    assert by_name["start_midgard"]["default"] == "3 players: 9; 4 players: 7"
    assert by_name["reinforcement_table"]["default"] == "3 players: (10, 9, 8); 4 players: (8, 7, 6, 5)"
    assert by_name["peninsula_tiles"]["default"] == "6,6,6"
    assert by_name["peninsula_tiles"]["allowed"] == "a list of 3 integers in 5..8, or draw_18"
    assert by_name["action_deck"]["default"] == "axe:8,shield:6,horn:8,walhalla:4,plunder:6"
    assert all(row["doc"] and row["basis"] for row in rows)
    for row in rows:  # every doc points at the spec
        assert re.search(r"W-\d|§\d", row["doc"]), row["name"]


@pytest.mark.parametrize("preset", ["standard", "variable"])
def test_every_field_widget_round_trip(preset):
    r = Rules.preset(preset, num_players=3)
    for name, spec in params_of(Rules).items():
        value = getattr(r, name)
        widget = make_control(spec.kind, name, value, spec.doc)
        assert spec.kind.from_widget(name, widget.value) == value, name


def test_rules_are_frozen_and_hashable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().raids = 2  # type: ignore[misc]
    table = {Rules(): "standard", Rules.preset("variable"): "variable"}
    assert table[Rules.from_json(Rules.preset("variable").to_json())] == "variable"


def test_fixed_components():
    r = Rules()
    assert r.tiles is load_tiles() and r.tiles.n == 18
    assert r.dragons is load_dragons() and r.dragons.n == 12
    assert r.cards is load_action_cards() and r.cards.ids == tuple(r.action_deck)
