"""Issue 52, point 4: what a designer reads on a page is in words, declared with the rule.

Every choice of every rule that is not already a plain word has declared words; every rule's label and
every "matters only while …" hint names no rule by its raw name; a control shows the words and keeps
the choice itself as its value (the ``--set`` text)."""

from __future__ import annotations

import pytest

import toolkit
from toolkit.core import params as P
from toolkit.core.params import RAW_NAME, params_of, raw_choices

GAME_NAMES = sorted(toolkit.GAMES)


def _choice_kinds(kind):
    """The Choice and ChoiceSet kinds inside ``kind`` (an Optional's, a mapping's values)."""
    if isinstance(kind, (P.Choice, P.ChoiceSet)):
        yield kind
    for inner in (getattr(kind, "inner", None), getattr(kind, "value", None)):
        if isinstance(inner, P.Kind):
            yield from _choice_kinds(inner)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_choice_label_and_hint_is_in_words(game):
    fields = params_of(toolkit.GAMES[game].Rules)
    for name, param in fields.items():
        for kind in _choice_kinds(param.kind):
            assert raw_choices(kind) == [], (name, raw_choices(kind))
            assert all(not RAW_NAME.search(kind.word(c)) for c in kind.choices if isinstance(kind, P.Choice))
        assert not RAW_NAME.search(param.label), (name, param.label)
        if param.applies is not None:
            hint = param.applies.words(fields)
            assert not any(field in hint for field in fields), (name, hint)


def test_raw_choices_are_found_and_words_are_shown():
    """The checker's control: a choice in snake_case or a word glued to a number is raw until its words
    are declared; a board square ("d7:N"), "duck/pheasant" and plain words are not."""
    assert raw_choices(P.Choice(("first_only", "none"))) == ["first_only"]
    assert raw_choices(P.Choice(("seat0", "duck/pheasant", "random"))) == ["seat0"]
    assert raw_choices(P.ChoiceSet(("d7:N", "up", "2"))) == []
    kind = P.Choice(("first_only", "none"), ("at the first only", "never"))
    assert raw_choices(kind) == [] and kind.word("first_only") == "at the first only"
    with pytest.raises(TypeError, match="1 words for 2 choices"):
        P.Choice(("a_b", "c"), ("one",))
    assert P.Bool().word(True) == "yes" and P.ChoiceSet(("a_b", "c"), ("A", "C")).word(("a_b", "c")) == "A, C"
    hint = P.When("extra_throw_enabled", True)
    assert hint.words() == "while extra_throw_enabled is true"  # the tooltip's form
    assert hint.words(params_of(toolkit.GAMES["valhalla"].Rules)) == "while “Extra throws exist” is yes"


def test_a_choice_control_shows_the_words_and_holds_the_choice():
    from toolkit.viz.controls import control

    fields = params_of(toolkit.GAMES["valhalla"].Rules)
    menu = control(fields["valhalla_entry"].kind, "valhalla_entry", "exact_or_over")
    assert menu.options == (("stops on square 36", "exact_or_over"), ("not allowed: exact throws only", "exact"),
                            ("straight off the board", "direct_off"))
    assert menu.value == "exact_or_over" and menu.label == "stops on square 36"
    grid = control(fields["extra_throw_values"].kind, "extra_throw_values", ("natural_one", "4"))
    assert grid.checkboxes["natural_one"].description == "natural 1" and grid.value == ("natural_one", "4")
    assert grid.checkboxes["natural_one"].tooltip == "natural_one"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_misspelt_player_is_told_every_kind_of_player_and_the_closest_name(game):
    """Issue 52, point 4: ``mcst:100`` was answered "one of random, greedy, lookahead", without ``mcts``."""
    spec = toolkit.GAMES[game]
    for typed, closest in [("mcst:100", "mcts:100"), ("mcst:300", "mcts:300"), ("greedyy", "greedy"),
                           ("Random", "random")]:
        with pytest.raises(ValueError) as error:
            spec.check_policy_name(typed)
        message = str(error.value)
        assert message.startswith(f"policy={typed!r} is not allowed: a player is one of ")
        assert all(kind in message for kind in spec.policies) and "mcts:N" in message and "mcts:100" in message
        assert message.endswith(f"the closest is {closest!r}")
    with pytest.raises(ValueError) as error:  # the control: nothing near, no guess
        spec.check_policy_name("xyzzy")
    assert "closest" not in str(error.value)
    with pytest.raises(ValueError) as error:  # a bad search is told how a search is written, in words
        spec.check_policy_name("mcts:abc")
    assert "a tree search is written mcts:N, with N iterations a decision" in str(error.value)
    assert "[" not in str(error.value)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_metric_a_menu_offers_has_its_words(game):
    """The tuning's and the sweep's menus show each metric by :func:`metrics.label`, the name as the value;
    every metric of every player count has words (an unknown name would come back raw)."""
    from toolkit.analysis import metrics, tuning

    spec = toolkit.GAMES[game]
    for seats in spec.seat_counts():
        rules = spec.Rules.preset("standard") if len(spec.seat_counts()) == 1 else toolkit.rules(game,
                                                                                                num_players=seats)
        for name in tuning.metric_names(spec, rules):
            assert not RAW_NAME.search(metrics.label(name)), (name, metrics.label(name))
    assert metrics.label("win_rate_2") == "seat 2's win rate" and metrics.label("no_such_metric") == "no_such_metric"
    assert set(metrics.DESCRIPTIONS) <= set(metrics.LABELS)


def test_a_map_is_chosen_from_the_shipped_maps_or_typed():
    """Issue 52, point 4: Attila's map was a bare text box; it offers the shipped maps in a menu and still
    takes the path of another file (the control: a kind that ships nothing offers nothing)."""
    from toolkit.core import datafiles
    from toolkit.viz.controls import control

    kind = params_of(toolkit.GAMES["attila"].Rules)["map"].kind
    box = control(kind, "map", "attila_map.json")
    assert list(box.options) == datafiles.packaged_names("toolkit.games.attila") == ["attila_map.json"]
    assert not box.ensure_option and kind.from_widget("map", "my/own_map.json") == "my/own_map.json"
    assert list(control(P.DataFile(), "map", "x.json").options) == []
