"""The game viewer and a person's seat in a notebook (``toolkit.viz.viewer``, issue 38), driven as a person
would: the buttons, the slider, the checkboxes."""

from __future__ import annotations

import re

import pytest

import toolkit
from toolkit.core.session import Session, playthrough
from toolkit.viz.viewer import FIND_SWINGS, SWING_JUDGE, options_html, picture, play, viewer


def test_the_viewer_steps_back_and_forth_through_the_simulated_game():
    v = viewer("pig", seed=4, game_index=2, policies=("greedy", "random"))
    game = playthrough(toolkit.GAMES["pig"], toolkit.rules("pig"), ("greedy", "random"), 4, 2)
    assert [s.codes for s in v.steps] == [s.codes for s in game.steps]
    first = v.image.value
    v.forward.click()
    assert v.index == 1 and v.slider.value == 2 and "Decision 2:" in v.options.value and v.image.value != first
    v.back.click()  # the slider counts decisions from 1, as the caption does (issue 52)
    assert v.index == 0 and v.slider.value == 1 and v.image.value == first
    v.slider.value = len(v.steps)
    assert v.index == len(v.steps) - 1 and "The game is over" in v.options.value
    v.forward.click()
    assert v.index == len(v.steps) - 1  # clipped at the end
    step = v.steps[3]
    v.show(3)
    marked = re.findall(r"&#9654; ([^<]+)", v.options.value)
    assert marked == [step.options[step.chosen]]  # the chosen option, and only it, is marked
    assert f"seat {step.seat}" in v.options.value and step.kind_name in v.options.value


def test_the_viewer_shows_the_searchs_estimates_for_each_option():
    v = viewer("pig", seed=4, policies=("greedy", "random"), judge="mcts:300")
    index = next(s.index for s in v.steps if len(s.options) > 1)
    v.show(index)
    assert "win probability" not in v.options.value
    v.search.value = True
    stats = v.steps[index].root_statistics("mcts:300")
    mean, low, high = stats.estimates()
    for i in range(len(stats.codes)):
        assert f"{mean[i]:.2f} [{low[i]:.2f}, {high[i]:.2f}] ({stats.visits[i]:,} visits)" in v.options.value
    assert v.options.value.count("the search's pick") == 1
    assert sum(stats.visits) == 300


def test_the_jump_list_names_the_decisions_that_swung_the_game():
    """Issue 49: a person chooses "find the decisions that swung the game" in "jump to" (setting the list's
    label is what choosing an entry does), then one of them; after stepping away, the same entry again.  On
    the old list, whose only entry was already selected, the choice changed nothing and no entry appeared."""
    v = viewer("pig", seed=4, policies=("greedy", "random"))
    game = playthrough(toolkit.GAMES["pig"], toolkit.rules("pig"), ("greedy", "random"), 4, 0)
    assert v.jump.label == "choose …" and FIND_SWINGS in v.jump.options[1]
    v.jump.label = FIND_SWINGS
    jumps = [value for _, value in v.jump.options if value >= 0]
    assert jumps == [i for i, _, _ in game.swings(SWING_JUDGE)] and 1 <= len(jumps) <= 5
    assert all(0 <= i < len(v.steps) - 1 for i in jumps)
    assert v.jump.label.startswith(f"choose one of the {len(jumps)} decisions") and v.index == 0
    v.jump.value = jumps[0]
    assert v.index == v.slider.value - 1 == jumps[0] and f"Decision {jumps[0] + 1}:" in v.options.value
    v.back.click()
    assert v.index == jumps[0] - 1 and v.jump.label.startswith("choose one")  # away from it: the placeholder
    v.jump.value = jumps[0]  # the same entry again is a change
    assert v.index == jumps[0]


def test_seen_by_is_offered_only_where_something_is_hidden():
    """A game without hidden information draws the same picture for every seat: the viewer offers no "seen
    by" there (a list whose choice changes nothing); a game with hidden information offers it, starting
    at the seat asked for (shown selected, not an empty list)."""
    pig = viewer("pig", seed=4, policies=("greedy", "random"))
    assert pig.eyes not in pig.widget.children[1].children
    herrlof = viewer("herrlof", seed=1, seat=1)
    assert herrlof.eyes in herrlof.widget.children[1].children and herrlof.eyes.label == "seat 1"
    shown = herrlof.image.value
    herrlof.eyes.label = "open (everything)"
    assert herrlof.image.value != shown and herrlof.seen_by is None
    opened = viewer("herrlof", seed=1).eyes
    # a value, not None: None selects no entry, and the browser showed an empty list (issue 52)
    assert opened.label == "open (everything)" and opened.value is not None and opened.index == 0


def test_a_person_clicks_through_a_game_and_it_is_the_scripted_game():
    """Seat 1 of Herrlof is a person who clicks the first option every time: the same game as a session whose
    seat 1 plays the same choices from a script, to the same record; the picture is drawn as seat 1 sees it
    (the other hand face down), not open (the negative control: the open picture differs)."""
    spec, rules = toolkit.GAMES["herrlof"], toolkit.rules("herrlof", max_rounds=3)  # ten rounds: 9 s of CI
    person = play("herrlof", rules, policies=("greedy", "greedy"), seed=5, seat=1, forced=False)
    position = person.session.step.position
    assert person.image.value == picture(spec, position, 1) != picture(spec, position, None)
    clicks = 0
    while not person.session.over:
        assert person.session.step.seat == 1 and len(person.buttons.children) == len(person.session.step.options)
        person.buttons.children[0].click()
        clicks += 1
    assert "The game is over" in person.last.value and not person.buttons.children
    assert "Session" not in person.last.value and "the same seed and game number" in person.last.value
    script = Session(spec, rules, ("greedy", "greedy"), 5, 0, humans=(1,))
    while not script.over:
        script.play(0, by="script")
    assert person.session.row() == script.row() and clicks == sum(s.seat == 1 for s in script.history)


def test_forced_moves_are_played_for_you_and_said_so():
    """Issue 52: with the toggle on (the default) a decision of yours with one option is played for you and
    listed; only decisions with a choice get buttons; the game is the same as when every one is clicked
    (the control: the toggle off, a forced decision waits for its click)."""
    spec, rules = toolkit.GAMES["herrlof"], toolkit.rules("herrlof", max_rounds=3)
    person = play("herrlof", rules, policies=("greedy", "greedy"), seed=5, seat=1)
    assert person.forced.value
    said = 0
    while not person.session.over:
        assert not person.session.step.forced and len(person.session.step.options) > 1
        said += person.last.value.count("your only option, played for you")
        person.buttons.children[0].click()
    said += person.last.value.count("your only option, played for you")
    assert person.played_for_you and said == len(person.played_for_you)
    script = Session(spec, rules, ("greedy", "greedy"), 5, 0, humans=(1,))
    while not script.over:
        script.play(0, by="script")
    assert person.session.row() == script.row()
    assert len(person.played_for_you) == sum(s.seat == 1 and s.forced for s in script.history) > 0
    waiting = play("herrlof", rules, policies=("greedy", "greedy"), seed=5, seat=1, forced=False)
    while not waiting.session.step.forced:
        waiting.buttons.children[0].click()
    assert len(waiting.buttons.children) == 1 and not waiting.played_for_you  # the control
    waiting.forced.value = True  # turned on: played at once
    assert waiting.played_for_you and not waiting.session.step.forced


def test_a_forced_decision_and_the_end_say_so():
    game = playthrough(toolkit.GAMES["valhalla"], toolkit.rules("valhalla"), ("greedy", "random"), 1, 0)
    forced = next(s for s in game.steps if s.seat >= 0 and s.forced)
    assert "(forced: one option)" in options_html(forced)
    assert options_html(game.steps[-1]) == "<p><b>The game is over.</b></p>"
    with pytest.raises(ValueError, match="the end of the game has no options"):
        game.steps[-1].root_statistics()
