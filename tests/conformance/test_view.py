"""Conformance: every game says its options in words and draws its positions, and a session plays the
``simulate`` game (issue 38; ``toolkit.core.session``).

Over the registry, for every preset and player count:

- a seeded :func:`~toolkit.core.session.playthrough` is row ``g`` of ``simulate`` with the same seed and
  line-up (the session's kernel makes the choices as the driver does; the reference, in lock step, says
  them);
- every decision has a kind the game names (its ``view.DECISIONS``: the spec's §5), and every option a
  description, no two options of one decision alike;
- a person's seat (:class:`~toolkit.core.session.Session` with ``humans``) that makes the choices a policy
  made plays the same game to the same record, and another choice at one decision plays another game (the
  negative control);
- the drawing hook runs on one seeded game, open and as each seat sees it.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from conformance_games import NAMES, SPECS, games_until  # noqa: E402
from toolkit.core.session import Session, playthrough  # noqa: E402

SEED = 20261206


def cases():
    for name in sorted(NAMES):
        spec = SPECS[name]
        counts = spec.seat_counts()
        for preset in spec.Rules.PRESETS:
            for seats in counts:
                yield pytest.param(name, preset, seats if len(counts) > 1 else None, id=f"{name}-{preset}-{seats}")


def rules_for(name, preset, seats):
    return toolkit.rules(name, preset, **({"num_players": seats} if seats else {}))


def lineup(name, rules):
    """Greedy and random seats in turn: both kinds of choice, cheap enough for every preset."""
    return tuple("greedy" if s % 2 == 0 else "random" for s in range(toolkit.GAMES[name].seats(rules)))


@pytest.mark.parametrize("name,preset,seats", list(cases()))
def test_a_playthrough_is_the_simulated_game_and_every_option_has_words(name, preset, seats):
    spec = toolkit.GAMES[name]
    rules = rules_for(name, preset, seats)
    policies = lineup(name, rules)
    games = 2
    out = np.zeros((games, len(spec.columns)), np.int32)
    violations = np.zeros(games, np.int32)
    spec.play_many(*spec.prepare(rules, policies), SEED, 0, out, violations, True)
    names = spec.view_module().DECISIONS
    seen = set()
    for g in range(games):
        game = playthrough(spec, rules, policies, SEED, g)
        assert game.row == dict(zip(spec.columns, out[g].tolist())), (name, preset, seats, g)
        *decisions, end = game.steps
        assert end.seat == -1 and end.options == () and decisions
        for step in decisions:
            assert step.kind in names and step.kind_name == names[step.kind]
            assert len(step.options) == len(step.codes) >= 1
            assert all(isinstance(text, str) and text.strip() for text in step.options), step
            assert len(set(step.options)) == len(step.options), (step.kind_name, step.options)
            assert step.chosen is not None and 0 <= step.chosen < len(step.options)
            assert step.by == policies[step.seat]
            seen.add(step.kind)
    assert seen, name


@pytest.mark.parametrize("name", sorted(NAMES))
def test_a_persons_seat_plays_the_game_its_choices_make(name):
    """Seat 0 is a person who makes, click by click, the choices seat 0's policy made in a policy game:
    the same game, decision for decision, to the same record.  Negative control: another option at one
    decision with a choice gives another game (the history or the record differ; the next games are played where
    the person has no choice in this one)."""
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    policies = lineup(name, rules)
    game = playthrough(spec, rules, policies, SEED, 1)
    played = Session(spec, rules, policies, SEED, 1, humans=(0,))
    clicks = 0
    while not played.over:
        step = played.step
        recorded = game.steps[step.index]
        assert (step.seat, step.options, step.codes) == (0, recorded.options, recorded.codes)
        played.play(recorded.chosen)
        clicks += 1
    assert clicks == sum(step.seat == 0 for step in game.steps[:-1])
    assert played.row() == game.row
    assert [(s.seat, s.codes, s.chosen) for s in played.history] == [(s.seat, s.codes, s.chosen)
                                                                     for s in game.steps[:-1]]
    assert all(s.by == "you" for s in played.history if s.seat == 0)
    changed = False  # the same game, or the next ones where the person has no choice in it (a short game)
    for k in games_until(lambda: changed, 1, "a decision with a choice for seat 0"):
        game = game if k == 0 else playthrough(spec, rules, policies, SEED, 1 + k)
        other = Session(spec, rules, policies, SEED, 1 + k, humans=(0,))
        while not other.over:
            step = other.step
            recorded = game.steps[step.index] if step.index < len(game.steps) else None
            if not changed and len(step.options) > 1 and recorded is not None:
                other.play((recorded.chosen + 1) % len(step.options))
                changed = True
            else:
                other.play(0)
    assert other.row() != game.row or [s.codes for s in other.history] != [s.codes for s in game.steps[:-1]]


@pytest.mark.parametrize("name", sorted(NAMES))
def test_a_bad_click_and_a_bad_seat_are_refused_by_name(name):
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    session = Session(spec, rules, lineup(name, rules), SEED, 0, humans=(0,))
    with pytest.raises(ValueError, match="option=99 is not allowed"):
        session.play(99)
    with pytest.raises(ValueError, match="humans=.* is not allowed"):
        Session(spec, rules, lineup(name, rules), SEED, 0, humans=(9,))


@pytest.mark.parametrize("name", sorted(NAMES))
def test_a_game_is_drawn_open_and_as_each_seat_sees_it(name):
    """The registry's drawing hook on one seeded game: eight decisions spread over it and the end, open and
    as each seat sees it, on the Axes it is given.  (Each game's own ``tests/games/<game>/test_view_<game>.py``
    draws every decision of a seeded game and reads the drawn values back; every tenth decision here drew
    Walhalla 150 times, 14 s of CI.)"""
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    game = playthrough(spec, rules, lineup(name, rules), SEED, 0)
    draw = spec.hook("draw")
    seats = spec.seats(rules)
    fig, ax = plt.subplots()
    try:
        for step in [*game.steps[:-1:max(1, len(game.steps) // 8)], game.steps[-1]]:
            for seat in (None, *range(seats)):
                ax.clear()
                assert draw(step.position, seat=seat, ax=ax) is ax
                assert ax.get_title() or ax.texts, (name, step.index)
    finally:
        plt.close(fig)
