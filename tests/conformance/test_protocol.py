"""Conformance, part 5: the kernel and the reference step through the same game, decision point by
decision point (issue 15, point 5), compared as a whole there (issue 53, point 3).

For every game of the suite (the registered ones and the test-only Tiny, ``conformance_games.py``), every
preset, seat count and line-up (random, greedy, lookahead), a few seeded games are played in lock step
(``lockstep.py``): the kernel through :class:`toolkit.core.protocol.KernelGame`, the reference through its
``new_game``.  At every decision point both must name the same seat and decision kind, list the same options in
the same order (the reference's options turned into the kernel's codes by its ``option_code``), pick the same
one, have drawn the same chance (the chance stream's state) and the same decisions (each seat's decision stream,
where the reference's policy keeps one), and hold the same position (the reference's ``kernel_state``, the game's
state in the kernel's layout, against the kernel's state); at the end their §6
rows are equal.

The kernel's own ``play_game`` is checked against these games too: the row it writes for the same
seed equals the one stepped here, so the protocol stepped from Python is the one the driver runs.

The negative control: a kernel that applies another option than the one both chose, once, is found at the
very next decision point (or at the end, after the last), at the first, a middle and the last decision with a
choice of a few seeded games, in every game (each reference states its position).
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import toolkit
from conformance_games import NAMES, SPECS, games_until
from game_data import game_configs
from lockstep import found_at, lockstep as lockstep_game, states_position
from toolkit.core.protocol import KernelGame, implements_protocol

pytestmark = pytest.mark.slow  # about two minutes: tests/conftest.py starts it with the other long modules

# the games whose kernel and reference both implement the protocol
ON_PROTOCOL = set(NAMES)  # every game: kernel and reference both on the protocol
SEED = 20261202
GAMES_PER_LINEUP = {"random": 2, "greedy": 2, "lookahead": 1}


def lineup_policy(name: str, lineup: str) -> str:
    """The policy the seats of ``lineup`` play: the game's ``PROTOCOL_LINEUP`` (in its configs) names one where
    the line-up is too slow as it is (the same code paths), else the line-up's own."""
    return getattr(game_configs(name), "PROTOCOL_LINEUP", {}).get(lineup, lineup)


def modules(name):
    spec = SPECS[name]
    return spec.kernel, (importlib.import_module(spec.reference) if spec.reference else None)


def on_protocol(name) -> bool:
    kernel, reference = modules(name)
    return (implements_protocol(kernel) and reference is not None and hasattr(reference, "new_game") and hasattr(reference, "option_code"))


def cases():
    for name in sorted(ON_PROTOCOL):
        spec = SPECS[name]
        counts = spec.seat_counts()
        for preset in spec.Rules.PRESETS:
            for seats in counts:
                for lineup in ("random", "greedy", "lookahead"):
                    yield name, preset, (seats if len(counts) > 1 else None), lineup


def rules_for(name, preset, seats):
    return toolkit.rules(name, preset, **({"num_players": seats} if seats else {}))


def lockstep(name, rules, policies, seed, game, tamper=None, whole=True) -> str | None:
    """Play one game in both implementations; the first difference, or None (``lockstep.lockstep``)."""
    return lockstep_game(toolkit.GAMES[name], rules, policies, seed, game, tamper, whole)


def test_the_games_on_the_protocol_are_the_ones_listed():
    """A game that implements the protocol is checked here; one that stops implementing it fails."""
    assert {name for name in NAMES if on_protocol(name)} == ON_PROTOCOL


@pytest.mark.parametrize("name,preset,seats,lineup", list(cases()))
def test_kernel_and_reference_agree_at_every_decision_point(name, preset, seats, lineup):
    rules = rules_for(name, preset, seats)
    policies = (lineup_policy(name, lineup),) * toolkit.GAMES[name].seats(rules)
    for game in range(GAMES_PER_LINEUP[lineup]):
        assert lockstep(name, rules, policies, SEED, game) is None, (preset, seats, lineup, game)


def test_every_kernel_implements_the_protocol():
    assert [name for name, spec in SPECS.items() if not implements_protocol(spec.kernel)] == []


@pytest.mark.parametrize("name", NAMES)
def test_the_stepped_game_is_the_one_play_game_plays(name):
    """A game stepped from Python through the kernel's protocol functions writes the row the compiled
    driver writes for the same seed (random and greedy seats), and with it the reference's where the
    reference is on the protocol too."""
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    seats = spec.seats(rules)
    policies = tuple("greedy" if s % 2 else "random" for s in range(seats))
    out = np.zeros((4, len(spec.columns)), np.int32)
    violations = np.zeros(4, np.int32)
    spec.play_many(*spec.prepare(rules, policies), SEED, 0, out, violations, True)
    assert violations.tolist() == [0] * 4
    for game in range(4):
        kg = KernelGame(spec.kernel, rules, policies, SEED, game)
        steps = 0
        while kg.advance() >= 0:
            kg.apply(kg.options()[kg.choose()])
            steps += 1
        row = dict(zip(spec.kernel.COLUMNS, kg.record().tolist()))
        assert steps > 0
        assert row == dict(zip(spec.columns, out[game].tolist())), game
        if name in ON_PROTOCOL:
            assert row == {c: int(v) for c, v in spec.play_reference(rules, SEED, game, policies).items()}


def choices(name, rules, policies, seed, game) -> tuple[list, int]:
    """The decision points of a game (as ``lockstep`` counts them) that offered several options, and how many
    decision points it had."""
    kernel = toolkit.GAMES[name].kernel
    kg = KernelGame(kernel, rules, policies, seed, game)
    found, step = [], 0
    while kg.advance() >= 0:
        options = kg.options()
        if len(options) > 1:
            found.append(step)
        kg.apply(options[kg.choose()])
        step += 1
    return found, step


def tamper_points(name, rules, policies, seed, game) -> list:
    """Where the negative control strays: the first, a middle and the last decision with a choice."""
    at, _ = choices(name, rules, policies, seed, game)
    return sorted({at[0], at[len(at) // 2], at[-1]}) if at else []


def stray(at: int, done: list):
    """A kernel that applies another option than the one both chose at decision ``at`` (the next in canonical
    order), once: a ``tamper`` for ``lockstep``."""
    def tamper(step, codes, index):
        if step == at:
            done.append(step)
            return codes[(index + 1) % len(codes)]
        return codes[index]
    return tamper


@pytest.mark.parametrize("name", sorted(ON_PROTOCOL))
def test_every_reference_states_its_position(name):
    """The lock step compares whole positions in every game: each reference gives ``kernel_state``."""
    assert states_position(importlib.import_module(SPECS[name].reference))


@pytest.mark.parametrize("name", sorted(ON_PROTOCOL))
def test_a_kernel_that_strays_is_caught_at_the_next_decision(name):
    """Negative control: the kernel plays another option than the one both chose, at one decision of a game
    played again for each of :func:`tamper_points` of 4 seeded games, and of more until it strayed 8 times; the
    lock step must find it at the very next decision point (the end, after the last), whatever happens later."""
    rules = toolkit.rules(name)
    policies = ("random",) * toolkit.GAMES[name].seats(rules)
    tampered = 0
    for game in games_until(lambda: tampered >= 8, 4, "8 decisions with a choice to stray at"):
        assert lockstep(name, rules, policies, SEED, game) is None
        for step in tamper_points(name, rules, policies, SEED, game):
            done = []
            found = lockstep(name, rules, policies, SEED, game, stray(step, done))
            assert done == [step] and found is not None, (game, step)
            assert found_at(found) == step + 1, (game, step, found)
            tampered += 1


def test_kernel_game_names_what_a_kernel_lacks():
    class Half:
        __name__ = "half"
        start = advance = None

    with pytest.raises(ValueError, match="does not implement the protocol: no kind, count"):
        KernelGame(Half, None, (), 0, 0)
