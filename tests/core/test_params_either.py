"""``IntList(..., named=...)``: a list of integers, or one of a few named words instead.

Walhalla's ``peninsula_tiles`` is ``6,6,6`` or ``draw_18`` (spec walhalla.md W-2.1).
This is an option of ``IntList`` rather than a separate ``Either`` kind: the
value is a tuple of ints or a ``str``, and every form (``--set`` text, JSON,
widget) keeps the word as it is.  Without ``named`` nothing changes.
"""

from __future__ import annotations

import dataclasses
import json

import ipywidgets
import pytest

from toolkit.core.params import IntList, Mapping_, RulesBase, param, params_of
from toolkit.viz.controls import control as make_control

KIND = IntList(5, 8, length=3, named=("draw_18", "random"))


@pytest.mark.parametrize("value, text", [
    ((6, 6, 6), "6,6,6"),
    ((5, 6, 7), "5,6,7"),
    ("draw_18", "draw_18"),
    ("random", "random"),
])
def test_text_json_and_widget_round_trips(value, text):
    parsed = KIND.parse("p", text)
    assert parsed == value and type(parsed) is type(value)
    assert KIND.format(value) == text
    assert KIND.check("p", KIND.check("p", value)) == value
    obj = KIND.to_json(value)
    assert json.loads(json.dumps(obj)) == obj
    assert obj == (value if isinstance(value, str) else list(value))
    back = KIND.from_json("p", obj)
    assert back == value and type(back) is type(value)
    widget = make_control(KIND, "p", value, "a parameter")
    assert isinstance(widget, ipywidgets.Text) and widget.value == text
    assert KIND.from_widget("p", widget.value) == value


@pytest.mark.parametrize("text, value", [
    (" draw_18 ", "draw_18"),
    ("[5, 6, 7]", (5, 6, 7)),
    ("8, 5,5", (8, 5, 5)),
])
def test_lenient_parsing(text, value):
    assert KIND.parse("p", text) == value


def test_allowed_names_the_words():
    assert KIND.allowed() == "a list of 3 integers in 5..8, or draw_18 or random"
    assert IntList(5, 8, length=3, named=("draw_18",)).allowed() == "a list of 3 integers in 5..8, or draw_18"


@pytest.mark.parametrize("raw, via", [
    ("draw_19", "parse"),
    ("Draw_18", "parse"),  # words are exact
    ("4,6,6", "parse"),
    ("5,6", "parse"),
    ("5,6,7,8", "parse"),
    ("", "parse"),
    ("none", "parse"),
    ("draw_17", "json"),
    ([5, 6, 9], "json"),
    (18, "json"),
    (None, "json"),
])
def test_bad_values_name_the_parameter_and_the_words(raw, via):
    with pytest.raises(ValueError) as info:
        KIND.parse("my_param", raw) if via == "parse" else KIND.from_json("my_param", raw)
    message = str(info.value)
    assert message.startswith(f"my_param={raw!r} is not allowed: ")
    assert message.endswith(KIND.allowed())


def test_without_named_nothing_changes():
    plain = IntList(5, 8, length=3)
    assert plain.named == ()
    assert plain.allowed() == "a list of 3 integers in 5..8"
    with pytest.raises(ValueError, match=r"^p='draw_18' is not allowed: a list of 3 integers in 5\.\.8$"):
        plain.parse("p", "draw_18")
    assert plain.to_json((5, 6, 7)) == [5, 6, 7]
    assert plain.format((5, 6, 7)) == "5,6,7"


def test_named_inside_a_mapping():
    kind = Mapping_(("a", "b"), IntList(0, 9, named=("all",)))
    value = kind.parse("p", "a:1/2,b:all")
    assert value == {"a": (1, 2), "b": "all"}
    assert kind.format(value) == "a:1/2,b:all"
    assert kind.to_json(value) == {"a": [1, 2], "b": "all"}
    assert kind.from_json("p", kind.to_json(value)) == value


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """A throwaway game with one list-or-word parameter."""

    GAME = "toy_either"
    PRESETS = {"standard": {}, "drawn": {"lengths": "draw_18"}}

    lengths: object = param([6, 6, 6], IntList(5, 8, length=3, named=("draw_18",)), "Peninsula lengths")


def test_through_rules():
    assert Rules().lengths == (6, 6, 6)
    assert Rules.from_assignments(["lengths=draw_18"]).lengths == "draw_18"
    assert Rules.from_assignments(["lengths=5,5,8"]).lengths == (5, 5, 8)
    drawn = Rules.preset("drawn")
    assert drawn.preset_name() == "drawn" and Rules().preset_name() == "standard"
    assert drawn.to_json() == {"lengths": "draw_18"}
    assert Rules.from_json(json.loads(json.dumps(drawn.to_json()))) == drawn
    assert drawn.changed() == {"lengths": "draw_18"}
    assert hash(drawn) == hash(Rules.from_json({"lengths": "draw_18"}))
    row = Rules.describe()[0]
    assert row["default"] == "6,6,6" and row["allowed"] == "a list of 3 integers in 5..8, or draw_18"
    spec = params_of(Rules)["lengths"]
    assert spec.kind.from_widget("lengths", make_control(spec.kind, "lengths", "draw_18").value) == "draw_18"
    with pytest.raises(ValueError, match=r"^lengths='draw' is not allowed"):
        Rules.from_assignments(["lengths=draw"])
