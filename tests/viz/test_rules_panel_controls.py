"""The rules panel's controls a person can use (issue 14, point 3).

- a mapping (Halali's ``tile_counts``, ``capture_matrix``, Walhalla's
  ``action_deck``) is a grid of labelled number boxes, or of checkboxes for a
  set per key, and one cell changes one key;
- a set (Halali's ``exit_squares``, Valhalla's ``safe_squares``) shows every
  allowed option, and ticking one adds it to the others;
- the fields are grouped under headings declared with ``param(group=...)``.

Every control still round-trips: ``kind.from_widget(make_control(kind, value).value) == value``.
"""

from __future__ import annotations

import dataclasses

import pytest

ipywidgets = pytest.importorskip("ipywidgets")

from toolkit.core.params import ChoiceSet, Int, IntSet, Mapping_, param, params_of  # noqa: E402
from toolkit.viz.controls import control as make_control  # noqa: E402
from toolkit.core.runner import get_spec  # noqa: E402
from toolkit.games import GAMES  # noqa: E402
from toolkit.games.halali.rules import EXIT_CHOICES, KINDS  # noqa: E402
from toolkit.viz import widgets  # noqa: E402
from toolkit.viz.widgets import CheckboxGrid, CheckboxMatrix, ControlGrid, MappingGrid  # noqa: E402

GAME_NAMES = ["valhalla", "herrlof", "halali", "attila", "walhalla"]

# The headings each game's panel shows, in the order the groups first appear among its fields.
EXPECTED_GROUPS = {
    "valhalla": ["throws", "set-up", "special squares", "blockades", "moves", "bearing off", "end"],
    "herrlof": ["deck", "deal", "tricks", "card effects", "scoring", "end"],
    "halali": ["set-up", "scoring", "moves and captures", "end phase and exits", "end"],
    "attila": ["set-up", "wars", "influence", "turn", "scoring", "end"],
    "walhalla": ["set-up", "raids", "scoring", "action cards", "reinforcement"],
}


def _panel(game, seen=None, **kwargs):
    return widgets.rules_panel(game, (seen if seen is not None else []).append, refresh=False, **kwargs)


def _changed_keys(before, after) -> set:
    """Keys whose value differs between two mappings over the same keys."""
    return {k for k in before if before[k] != after[k]}


def test_changed_keys_checker():
    assert _changed_keys({"a": 1, "b": 2}, {"a": 1, "b": 2}) == set()
    assert _changed_keys({"a": 1, "b": 2}, {"a": 3, "b": 4}) == {"a", "b"}  # negative control: both seen


def test_the_five_games_are_covered():
    assert set(GAME_NAMES) <= set(GAMES)


# ------------------------------------------------------------------ round trips


def _all_presets(game):
    Rules = get_spec(game).Rules
    return [(name, Rules.preset(name)) for name in Rules.PRESETS]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_field_of_every_preset_round_trips_through_its_control(game):
    for preset, rules in _all_presets(game):
        for name, spec in params_of(type(rules)).items():
            value = getattr(rules, name)
            control = make_control(spec.kind, name, value, spec.doc)
            assert isinstance(control, ipywidgets.ValueWidget), name
            assert spec.kind.from_widget(name, control.value) == value, (preset, name)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_sets_and_mappings_get_grids(game):
    """Every set with few enough options is a checkbox grid, every mapping a grid; none is a text box."""
    rules = get_spec(game).Rules.preset("standard")
    for name, spec in params_of(type(rules)).items():
        control = make_control(spec.kind, name, getattr(rules, name))
        if isinstance(spec.kind, ChoiceSet) or isinstance(spec.kind, IntSet) and spec.kind.options():
            assert isinstance(control, CheckboxGrid), name
        elif isinstance(spec.kind, IntSet):
            assert isinstance(control, ipywidgets.IntsInput), name
        elif isinstance(spec.kind, Mapping_):
            assert isinstance(control, (MappingGrid, CheckboxMatrix)), name


def test_a_changed_control_does_not_round_trip_to_the_old_value():
    """Negative control of the round trip: the check would see a control that lost a change."""
    kind = params_of(get_spec("halali").Rules)["capture_matrix"].kind
    default = get_spec("halali").Rules().capture_matrix
    matrix = make_control(kind, "capture_matrix", default)
    matrix.checkboxes["bear", "fox"].value = True
    assert kind.from_widget("capture_matrix", matrix.value) != default


# ------------------------------------------------------------------ mappings


def _mapping_fields():
    for game in GAME_NAMES:
        for name, spec in params_of(get_spec(game).Rules).items():
            if isinstance(spec.kind, Mapping_):
                yield game, name


MAPPING_FIELDS = list(_mapping_fields())


def test_the_mapping_fields_are_found():
    assert ("halali", "tile_counts") in MAPPING_FIELDS and ("halali", "capture_matrix") in MAPPING_FIELDS
    assert ("walhalla", "action_deck") in MAPPING_FIELDS


@pytest.mark.parametrize("game, name", MAPPING_FIELDS, ids=[f"{g}-{n}" for g, n in MAPPING_FIELDS])
def test_one_cell_of_a_mapping_changes_that_key_only(game, name):
    panel = _panel(game)
    kind = panel.params[name].kind
    control = panel.widgets[name]
    before = panel.values()[name]
    assert set(before) == set(kind.keys)  # a cell per key
    for key in kind.keys:
        if isinstance(control, CheckboxMatrix):
            column = control.columns[0]
            cell, new = control.checkboxes[key, column], not control.checkboxes[key, column].value
            expected = frozenset(before[key]) ^ {column}
        else:
            cell = control.cells[key]
            new = before[key] + 1 if before[key] < kind.value.high else before[key] - 1
            expected = new
        old = cell.value
        cell.value = new
        after = panel.values()[name]
        assert _changed_keys(before, after) == {key}, key
        assert (frozenset(after[key]) if isinstance(control, CheckboxMatrix) else after[key]) == expected
        cell.value = old
        assert panel.values()[name] == before  # put back, nothing else moved


def test_halali_tile_counts_cells_change_the_rules():
    seen = []
    panel = _panel("halali", seen)
    counts = panel.widgets["tile_counts"]
    assert isinstance(counts, MappingGrid) and list(counts.cells) == list(KINDS)
    assert [counts.cells[k].value for k in KINDS] == [2, 6, 2, 8, 8, 7, 15]
    counts.cells["bear"].value = 3  # 49 tiles: refused with the rule's message, the last run kept
    assert "tile_counts" in panel.last_error and "sum to 48" in panel.last_error
    assert "sum to 48" in panel.messages["tile_counts"].value and seen == []
    counts.cells["tree"].value = 14
    assert panel.last_error is None
    rules = panel.rules()
    assert _changed_keys(type(rules)().tile_counts, rules.tile_counts) == {"bear", "tree"}
    assert rules.tile_counts["bear"] == 3 and rules.tile_counts["tree"] == 14
    assert seen[-1] == rules


def test_halali_points_cell_changes_exactly_that_key_in_the_rules():
    panel = _panel("halali")
    default = panel.rules().points
    panel.widgets["points"].cells["duck"].value = -4
    rules = panel.rules()
    assert _changed_keys(default, rules.points) == {"duck"} and rules.points["duck"] == -4
    assert rules == type(rules)(points={**default, "duck": -4})


def test_walhalla_action_deck_cell_changes_exactly_that_key_in_the_rules():
    panel = _panel("walhalla")
    default = panel.rules().action_deck
    key = next(iter(default))
    panel.widgets["action_deck"].cells[key].value = default[key] + 2
    deck = panel.rules().action_deck
    assert _changed_keys(default, deck) == {key} and deck[key] == default[key] + 2


def test_halali_capture_matrix_is_a_checkbox_per_pair():
    panel = _panel("halali")
    matrix = panel.widgets["capture_matrix"]
    assert isinstance(matrix, CheckboxMatrix)
    assert matrix.rows == KINDS and matrix.columns == KINDS and len(matrix.checkboxes) == 49
    default = panel.rules().capture_matrix
    ticked = {(r, c) for (r, c), box in matrix.checkboxes.items() if box.value}
    assert ticked == {(r, c) for r in KINDS for c in default[r]}
    matrix.checkboxes["tree", "duck"].value = True  # trees now capture ducks
    rules = panel.rules()
    assert _changed_keys(default, rules.capture_matrix) == {"tree"}
    assert rules.capture_matrix["tree"] == ("duck",)


def test_bad_mapping_entry_names_the_parameter_and_keeps_the_last_run():
    seen = []
    panel = _panel("halali", seen)
    panel.refresh()
    assert panel.runs == 1
    panel.widgets["ranges"].cells["bear"].value = 9  # ranges are 0..7
    assert panel.last_error == "ranges[bear]=9 is not allowed: an integer in 0..7"
    assert "ranges[bear]=9" in panel.messages["ranges"].value and "#b00020" in panel.messages["ranges"].value
    assert panel.runs == 1 and len(seen) == 1
    with pytest.raises(ValueError, match=r"ranges\[bear\]=9"):
        panel.rules()
    panel.widgets["ranges"].cells["bear"].value = 2
    assert panel.last_error is None and seen[-1].ranges["bear"] == 2


def test_mapping_control_set_from_code_changes_the_cells_once():
    """Setting ``value`` writes the cells without echo: one event for the panel, cells show it."""
    seen = []
    panel = _panel("halali", seen)
    panel.widgets["points"].value = {"bear": 7, "fox": 1}  # keys left out keep their cells
    assert len(seen) == 1
    assert panel.widgets["points"].cells["bear"].value == 7 and panel.widgets["points"].cells["fox"].value == 1
    assert seen[-1].points["duck"] == 2 and seen[-1].points["bear"] == 7


def test_mapping_with_an_unknown_key_is_refused_by_name():
    kind = params_of(get_spec("halali").Rules)["points"].kind
    grid = make_control(kind, "points", get_spec("halali").Rules().points)
    grid.value = {"wolf": 3}
    with pytest.raises(ValueError, match=r"points='wolf' is not allowed: keys must be among bear"):
        kind.from_widget("points", grid.value)


# ------------------------------------------------------------------ sets


def _shows_every_option(control, kind) -> bool:
    return isinstance(control, CheckboxGrid) and list(control.checkboxes) == list(kind.options())


def test_shows_every_option_checker():
    kind = ChoiceSet(("a", "b", "c"))
    assert _shows_every_option(make_control(kind, "p", ("a",)), kind)
    assert not _shows_every_option(CheckboxGrid(("a", "b"), ("a",)), kind)  # negative control: one missing


def test_halali_exit_squares_shows_all_28_exits_and_a_tick_adds_one():
    seen = []
    panel = _panel("halali", seen)
    exits = panel.widgets["exit_squares"]
    kind = panel.params["exit_squares"].kind
    assert _shows_every_option(exits, kind) and len(exits.checkboxes) == 28 == len(EXIT_CHOICES)
    assert [b.description for b in exits.checkboxes.values()] == list(EXIT_CHOICES)  # each labelled
    default = set(panel.rules().exit_squares)
    assert {o for o, b in exits.checkboxes.items() if b.value} == default
    exits.checkboxes["a1:S"].value = True
    assert set(seen[-1].exit_squares) == default | {"a1:S"}
    exits.checkboxes["d7:N"].value = False
    assert set(seen[-1].exit_squares) == default - {"d7:N"} | {"a1:S"}
    assert len(seen) == 2


@pytest.mark.parametrize("name, count", [("safe_squares", 35), ("protected_run_lengths", 35),
                                         ("extra_throw_values", 7)])
def test_valhalla_sets_show_every_option_and_a_tick_adds_one(name, count):
    panel = _panel("valhalla")
    control = panel.widgets[name]
    kind = panel.params[name].kind
    assert _shows_every_option(control, kind) and len(control.checkboxes) == count
    default = set(getattr(panel.rules(), name))
    extra = next(o for o in kind.options() if o not in default)
    control.checkboxes[extra].value = True
    assert set(getattr(panel.rules(), name)) == default | {extra}


def test_herrlof_consolation_range_takes_typed_numbers():
    """0..100 is too many to tick: a tags box bounded to the range, one tag per trick count."""
    panel = _panel("herrlof")
    control = panel.widgets["consolation_range"]
    assert isinstance(control, ipywidgets.IntsInput) and (control.min, control.max) == (0, 100)
    assert control.value == [3, 4, 5]
    control.value = control.value + [7]
    assert panel.rules().consolation_range == frozenset({3, 4, 5, 7})


# ------------------------------------------------------------------ presets


def test_valhalla_preset_resets_the_checkbox_grids():
    seen = []
    panel = _panel("valhalla", seen)
    Rules = type(panel.rules())
    panel.widgets["safe_squares"].checkboxes[10].value = True
    panel.widgets["extra_throw_values"].checkboxes["6"].value = True
    panel.set_preset("alternative")
    assert seen[-1] == Rules.preset("alternative") and len(seen) == 3
    ticked = {o for o, b in panel.widgets["safe_squares"].checkboxes.items() if b.value}
    assert ticked == set(Rules.preset("alternative").safe_squares)
    assert not panel.widgets["extra_throw_values"].checkboxes["6"].value


def test_walhalla_preset_resets_the_number_grid():
    seen = []
    panel = _panel("walhalla", seen)
    Rules = type(panel.rules())
    key = next(iter(Rules().action_deck))
    panel.widgets["action_deck"].cells[key].value += 1
    panel.set_preset("variable")
    assert seen[-1] == Rules.preset("variable")
    assert panel.widgets["action_deck"].cells[key].value == Rules().action_deck[key]


def test_herrlof_preset_resets_the_tags():
    panel = _panel("herrlof")
    panel.widgets["consolation_range"].value = [0, 1]
    panel.set_preset("publisher")
    assert panel.widgets["consolation_range"].value == [3, 4]
    assert panel.rules() == type(panel.rules()).preset("publisher")


def test_the_preset_menu_follows_the_rules_so_the_preset_they_left_can_be_chosen_again():
    """Issue 49: the menu shows the preset the controls' rules are, and no entry for custom rules, so choosing
    the preset the rules came from (Halali's only one) is a change the menu hears and resets the controls; the
    old menu stayed on "standard", and choosing it did nothing."""
    seen = []
    panel = _panel("halali", seen)
    Rules = type(panel.rules())
    panel.widgets["progress_limit"].value = Rules().progress_limit + 1
    assert panel.preset.index is None and panel.rules() != Rules()
    runs = len(seen)
    panel.preset.value = "standard"  # as the browser sets it when a person chooses the entry
    assert panel.rules() == Rules() and panel.preset.value == "standard" and len(seen) == runs + 1
    valhalla = _panel("valhalla")
    rules = valhalla.rules()
    valhalla.widgets["zero_runes_value"].value = 4
    assert valhalla.preset.index is None
    valhalla.widgets["zero_runes_value"].value = rules.zero_runes_value  # back to the preset's value
    assert valhalla.preset.value == "standard" and valhalla.rules() == rules  # the menu follows, nothing reset
    valhalla.widgets["blockade_zone"].value = "99,100"  # a value not allowed: the menu stays where it was
    assert valhalla.preset.value == "standard"


def test_halali_preset_resets_the_matrix_grid_and_exits(monkeypatch):
    """Halali has one preset; a second one is added here to switch to."""
    Rules = get_spec("halali").Rules
    default = Rules()
    captures = dict(default.capture_matrix, pheasant=("duck",))
    monkeypatch.setattr(Rules, "PRESETS", {"standard": {}, "test": {
        "capture_matrix": captures, "exit_squares": ("a1:S",),
        "points": {"bear": 1}}})
    seen = []
    panel = _panel("halali", seen)
    panel.widgets["capture_matrix"].checkboxes["tree", "tree"].value = True
    panel.widgets["points"].cells["fox"].value = 9
    panel.set_preset("test")
    assert seen[-1] == Rules.preset("test") and len(seen) == 3
    assert panel.widgets["capture_matrix"].checkboxes["pheasant", "duck"].value
    assert not panel.widgets["capture_matrix"].checkboxes["tree", "tree"].value
    assert [o for o, b in panel.widgets["exit_squares"].checkboxes.items() if b.value] == ["a1:S"]
    assert panel.widgets["points"].cells["bear"].value == 1
    assert panel.widgets["points"].cells["fox"].value == default.points["fox"]
    panel.set_preset("standard")
    assert seen[-1] == default
    assert not panel.widgets["capture_matrix"].checkboxes["pheasant", "duck"].value


# ------------------------------------------------------------------ groups


def _shown_sections(panel):
    """(heading text, controls in its grid) for each section of the panel's box, top to bottom."""
    shown = []
    for child in panel.controls.children:  # the box is the controls, the status line and the output
        if child in panel.sections.values():
            heading, grid = child.children
            shown.append((heading.value, list(grid.children)))
    return shown


@pytest.mark.parametrize("game", GAME_NAMES)
def test_panel_shows_a_heading_per_group_in_order_and_every_field_once(game):
    panel = _panel(game)
    assert list(panel.groups) == EXPECTED_GROUPS[game]
    assert "other" not in panel.groups  # every field of the five games declares its group
    shown = _shown_sections(panel)
    assert len(shown) == len(EXPECTED_GROUPS[game])
    for (heading, controls), group in zip(shown, EXPECTED_GROUPS[game]):
        assert f">{group}<" in heading
        assert [params_of(panel.spec.Rules)[name].group for name in panel.groups[group]] == [group] * len(controls)
        # each control in its cell, with the place for its message under it
        assert controls == [panel.cells[name] for name in panel.groups[group]]
        assert [c.children[1] for c in controls] == [panel.widgets[name] for name in panel.groups[group]]
    placed = [id(c.children[1]) for _, controls in shown for c in controls]
    assert sorted(placed) == sorted(id(w) for w in panel.widgets.values())  # each field exactly once
    # the preset and the game count come first, above the groups
    children = list(panel.controls.children)
    assert list(panel.box.children) == [panel.controls, panel.status, panel.output]
    top = next(i for i, c in enumerate(children) if isinstance(c, ipywidgets.HBox)
               and panel.preset in c.children and any(panel.n_games in getattr(b, "children", ())
                                                      for b in c.children))
    assert top < min(children.index(s) for s in panel.sections.values())


def test_group_order_checker_sees_a_wrong_order():
    panel = _panel("valhalla")
    headings = [h for h, _ in _shown_sections(panel)]
    assert headings != list(reversed(headings))  # negative control: order is checked, not just the set
    assert [h for h in headings if ">throws<" in h] and not [h for h in headings if ">other<" in h]


def test_fields_without_a_group_go_under_other(monkeypatch):
    Rules = get_spec("valhalla").Rules
    declared = params_of(Rules)
    ungrouped = {name: dataclasses.replace(spec, group="") if name in ("max_turns", "setup") else spec
                 for name, spec in declared.items()}
    monkeypatch.setattr(widgets, "params_of", lambda cls: ungrouped)
    panel = _panel("valhalla")
    assert panel.groups["other"] == ["setup", "max_turns"]
    assert "end" not in panel.groups  # max_turns was its only field
    assert list(panel.groups)[:3] == ["throws", "set-up", "other"]  # where the first ungrouped field is
    assert sum(len(names) for names in panel.groups.values()) == len(declared)


def test_param_group_is_optional():
    @dataclasses.dataclass(frozen=True)
    class Toy:
        n: int = param(2, Int(1, 3), "n")
        m: int = param(2, Int(1, 3), "m", "[design]", group="set-up")

    assert params_of(Toy)["n"].group == "" and params_of(Toy)["m"].group == "set-up"


def test_grids_take_a_whole_row_of_their_group():
    panel = _panel("halali")
    for name, control in panel.widgets.items():
        spans = panel.cells[name].layout.grid_column == "1 / -1"  # the control's cell, its message under it
        assert spans == isinstance(control, ControlGrid), name
        assert panel.cells[name].children == (panel.labels[name], control, panel.messages[name])


def test_a_refused_value_is_shown_at_its_field_and_cleared_by_a_good_one():
    """Issue 36, point 3: the message sits under the control it names, the status line points there; a
    message that names no control of the panel (the run's own refusal) stays in the status line."""
    seen = []
    panel = _panel("valhalla", seen)
    panel.refresh()
    panel.widgets["rock_square"].value = panel.widgets["dock_square"].value  # refused by validate()
    red = [name for name, html in panel.messages.items() if "b00020" in html.value]
    assert red == ["rock_square"] and "must differ from dock_square" in panel.messages["rock_square"].value
    assert "b00020" not in panel.status.value and "<b>The rocky coast</b>" in panel.status.value
    panel.widgets["rock_square"].value = 30
    assert all(html.value == "" for html in panel.messages.values()) and panel.last_error is None
    panel.n_games.value = 0
    assert "games=0 is not allowed" in panel.messages["games"].value
    panel.n_games.value = 10

    def refuse(rules, n_games):
        raise ValueError("policy='minimax' is not allowed: one of random, greedy")

    other = widgets.rules_panel("valhalla", refuse, n_games=10, auto=False)
    other.refresh()
    assert "policy='minimax' is not allowed" in other.status.value and "b00020" in other.status.value
    assert all(html.value == "" for html in other.messages.values())


def test_a_rule_that_does_not_matter_is_greyed_out():
    """Issue 36, point 12: Valhalla's hagalaz_alone_value counts only in runes mode, the extra throws'
    classes and option only with extra throws on; their controls are disabled otherwise, and come back."""
    panel = _panel("valhalla")
    hagalaz, classes, optional = (panel.widgets[n] for n in ("hagalaz_alone_value", "extra_throw_values",
                                                             "extra_throw_optional"))
    assert not hagalaz.disabled and classes.disabled and optional.disabled  # standard: runes, no extra throws
    assert all(box.disabled for box in classes._controls)  # a grid greys out every checkbox
    panel.widgets["throw_mode"].value = "simplified"
    panel.widgets["extra_throw_enabled"].value = True
    assert hagalaz.disabled and not classes.disabled and not optional.disabled
    assert not any(box.disabled for box in classes._controls)
    panel.set_preset("alternative")
    panel.set_preset("standard")
    assert not hagalaz.disabled and classes.disabled
    assert [n for n, p in params_of(GAMES["valhalla"].Rules).items() if p.applies] == [
        "hagalaz_alone_value", "backward_attacks_allowed", "unentered_count_as_row1", "extra_throw_values",
        "extra_throw_optional"]


# every game's conditional rules (issue 36, point 12): the rule, the controlling field's value that makes
# it not matter, and the words its label then shows, the controlling rule named by its label, not its name
# (issue 52; that it truly does not matter: tests/core/test_applies.py)
GREYED = {
    "herrlof": [("three_trigger", "effect_3", "off", "while “A 3 trades a card with the stock” is not off"),
                ("double_hagalaz_winner", "hagalaz_count", 1, "while there are 2 Hagalaz cards or more"),
                ("double_valknut_changes_trump", "valknut_count", 0, "while there are 2 Valknut cards or more"),
                ("consolation_range", "consolation_bonus", 0, "while “Bonus for a trick count in the consolation range” is not 0")],
    "halali": [("no_return_applies_to_neutrals", "no_return_rule", False, "while “No moving an own tile back at once” is yes"),
               ("locked_neutral_capturable", "neutral_lock", "off", "while “A revealed or moved duck/pheasant is locked for the opponent” is not off"),
               ("exits_only_in_end_phase", "exit_squares", (), "while the board has an exit square"),
               ("rescue_neutrals", "exit_squares", (), "while the board has an exit square")],
    "attila": [("two_player_second_place_gap", "num_players", 3, "while there are 2 players")],  # 2 players: on
    "walhalla": [("horn_strength", "action_deck", {"horn": 0}, "while the action deck holds a Battle Horn"),
                 ("plunder_vp", "action_deck", {"plunder": 0}, "while the action deck holds a Plunder card"),
                 ("walhalla_card_bonus", "action_deck", {"walhalla": 0}, "while the action deck holds a Walhalla card")],
}


@pytest.mark.parametrize("game", sorted(GREYED))
def test_every_game_greys_out_the_rules_that_do_not_matter(game):
    panel = _panel(game)
    declared = params_of(GAMES[game].Rules)
    assert sorted(n for n, p in declared.items() if p.applies) == sorted(r for r, *_ in GREYED[game])
    if game == "attila":
        panel.widgets["num_players"].value = 2  # the standard 4 players: the 2-player gap does not matter
    for rule, field, value, words in GREYED[game]:
        assert not panel.widgets[rule].disabled, rule  # it matters
        assert "(matters only" not in panel.labels[rule].value and "matters only" in panel.labels[rule].value
        control = panel.widgets[field]
        before = control.value
        control.value = {**control.value, **value} if isinstance(value, dict) else value
        assert panel.widgets[rule].disabled, (rule, field, value)
        assert f"(matters only {words})" in panel.labels[rule].value  # the label says when it would
        control.value = before
        assert not panel.widgets[rule].disabled and "(matters only" not in panel.labels[rule].value


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_rule_is_labelled_in_words_with_its_name_in_the_tooltip(game):
    """Issue 36, point 6: the label is the declaration's doc without its spec reference; the name (used by
    --set) stays in the tooltip and in the status line's --set form."""
    panel = _panel(game)
    for name, declared in params_of(GAMES[game].Rules).items():
        html = panel.labels[name].value
        label = declared.label
        assert label and label != name, name
        assert f">{widgets._html_escape(label)}<" in html, (name, html)
        assert f'title="{name}: ' in html, name
        assert "§" not in label and not label.endswith(")") or "(" in label.rstrip(")"), (name, label)
        assert panel.widgets[name].description == ""  # the words above, not the name beside it
        assert f"toolkit-rule-{name}" in panel.cells[name]._dom_classes
    assert params_of(GAMES["valhalla"].Rules)["dock_release"].label == "Throw that releases a repairing ship"
    assert params_of(GAMES["valhalla"].Rules)["blockade_zone"].label == "First and last square where blockade runs protect"


def test_the_rules_outside_the_spec_are_marked():
    """Attila's two variants are the toolkit's own, not the spec's: their labels say so, no other does."""
    for game in GAME_NAMES:
        panel = _panel(game)
        marked = [n for n in panel.labels if "not in the spec" in panel.labels[n].value]
        assert marked == (["finish_round", "later_seat_vp"] if game == "attila" else []), game


def test_a_refused_value_names_the_rule_in_words_in_the_status():
    panel = _panel("valhalla")
    panel.widgets["blockade_zone"].value = "25,99"
    panel.refresh()
    assert "First and last square where blockade runs protect" in panel.status.value
    assert "blockade_zone=" in panel.messages["blockade_zone"].value  # the message itself names the --set name
