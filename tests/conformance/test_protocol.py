"""Conformance, part 5: the kernel and the reference step through the same game, decision point by
decision point (issue 15, point 5).

For every registered game on the decision-point protocol, every preset, seat count and line-up
(random, greedy, lookahead), a few seeded games are played in lock step: the kernel through
:class:`toolkit.core.protocol.KernelGame`, the reference through its ``new_game``.  At every
decision point both must name the same seat and decision kind, list the same options in the same
order (the reference's options turned into the kernel's codes by its ``option_code``), pick the same
one, and have drawn the same chance (the chance stream's state) and the same decisions (each seat's
decision stream, where the reference's policy keeps one); at the end their §6 rows are equal.

The kernel's own ``play_game`` is checked against these games too: the row it writes for the same
seed equals the one stepped here, so the protocol stepped from Python is the one the driver runs.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import toolkit
from game_data import game_configs
from toolkit.core.protocol import KernelGame, implements_protocol

pytestmark = pytest.mark.slow  # about two minutes: tests/conftest.py starts it with the other long modules

# the games whose kernel and reference both implement the protocol
ON_PROTOCOL = set(toolkit.GAMES)  # every game: kernel and reference both on the protocol
SEED = 20261202
GAMES_PER_LINEUP = {"random": 2, "greedy": 2, "lookahead": 1}


def lineup_policy(name: str, lineup: str) -> str:
    """The policy the seats of ``lineup`` play: the game's ``PROTOCOL_LINEUP`` (in its configs) names one where
    the line-up is too slow as it is (the same code paths), else the line-up's own."""
    return getattr(game_configs(name), "PROTOCOL_LINEUP", {}).get(lineup, lineup)


def modules(name):
    spec = toolkit.GAMES[name]
    return spec.kernel, (importlib.import_module(spec.reference) if spec.reference else None)


def on_protocol(name) -> bool:
    kernel, reference = modules(name)
    return (implements_protocol(kernel) and reference is not None and hasattr(reference, "new_game") and hasattr(reference, "option_code"))


def cases():
    for name in sorted(ON_PROTOCOL):
        spec = toolkit.GAMES[name]
        counts = spec.seat_counts()
        for preset in spec.Rules.PRESETS:
            for seats in counts:
                for lineup in ("random", "greedy", "lookahead"):
                    yield name, preset, (seats if len(counts) > 1 else None), lineup


def rules_for(name, preset, seats):
    return toolkit.rules(name, preset, **({"num_players": seats} if seats else {}))


def lockstep(name, rules, policies, seed, game, tamper=None) -> str | None:
    """Play one game in both implementations; the first difference, or None.

    ``tamper(step, codes, index)`` (a negative control) may replace the option code the kernel
    applies after both chose the same one."""
    kernel, reference = modules(name)
    kg = KernelGame(kernel, rules, policies, seed, game)
    ref = reference.new_game(rules, seed, game, policies)
    ref.start()
    step = 0
    while True:
        decision, seat = ref.advance(), kg.advance()
        if ref.chance.state != int(kg.rs[0]):
            return f"decision {step}: the chance streams differ"
        if decision is None or seat < 0:
            if (decision is None) != (seat < 0):
                return f"decision {step}: one game is over, the other is not (reference {decision}, kernel seat {seat})"
            break
        if (seat, kg.kind()) != (decision.seat, decision.kind):
            return f"decision {step}: kernel seat {seat} DP-{kg.kind()}, reference seat {decision.seat} DP-{decision.kind}"
        codes = [reference.option_code(decision, option) for option in decision.options]
        if kg.options() != codes:
            return f"decision {step}: kernel options {kg.options()}, reference {codes}"
        option = ref.choose(decision)
        index = kg.choose()
        if codes[index] != reference.option_code(decision, option):
            return f"decision {step}: kernel chose {codes[index]}, reference {reference.option_code(decision, option)}"
        for s, player in enumerate(ref.players):
            stream = getattr(player, "stream", None)
            if stream is not None and stream.state != int(kg.rs[1 + s]):
                return f"decision {step}: seat {s}'s decision streams differ"
        ref.apply(decision, option)
        kg.apply(codes[index] if tamper is None else tamper(step, codes, index))
        step += 1
    row = ref.row()  # the kernel's columns (a reference row may hold more, e.g. Halali's per-game details)
    expected = {c: int(row[c]) for c in kernel.COLUMNS}
    got = dict(zip(kernel.COLUMNS, kg.record().tolist()))
    if got != expected:
        wrong = [c for c in got if got[c] != expected[c]]
        return f"the records differ in {wrong}"
    if step == 0:
        return "no decision point was played"
    return None


def test_the_games_on_the_protocol_are_the_ones_listed():
    """A game that implements the protocol is checked here; one that stops implementing it fails."""
    assert {name for name in toolkit.GAMES if on_protocol(name)} == ON_PROTOCOL


@pytest.mark.parametrize("name,preset,seats,lineup", list(cases()))
def test_kernel_and_reference_agree_at_every_decision_point(name, preset, seats, lineup):
    rules = rules_for(name, preset, seats)
    policies = (lineup_policy(name, lineup),) * toolkit.GAMES[name].seats(rules)
    for game in range(GAMES_PER_LINEUP[lineup]):
        assert lockstep(name, rules, policies, SEED, game) is None, (preset, seats, lineup, game)


def test_every_kernel_implements_the_protocol():
    assert [name for name, spec in toolkit.GAMES.items() if not implements_protocol(spec.kernel)] == []


@pytest.mark.parametrize("name", list(toolkit.GAMES))
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


@pytest.mark.parametrize("name", sorted(ON_PROTOCOL))
def test_a_kernel_that_strays_is_caught(name):
    """Negative control: the kernel plays another option than the one both chose, once, in the middle
    of the game; the lock step must notice later (the options, the streams or the record differ)."""
    rules = toolkit.rules(name)
    policies = ("random",) * toolkit.GAMES[name].seats(rules)

    def tamper(step, codes, index):  # the first choice among several from the 10th decision on
        if step >= 10 and len(codes) > 1 and not done:
            done.append(step)
            return codes[(index + 1) % len(codes)]
        return codes[index]

    for game in range(4):
        done = []
        assert lockstep(name, rules, policies, SEED, game) is None
        found = lockstep(name, rules, policies, SEED, game, tamper)
        assert done and found is not None, game
        assert found.startswith("the records differ") or int(found.split(":")[0].split()[1]) > done[0], found


def test_kernel_game_names_what_a_kernel_lacks():
    class Half:
        __name__ = "half"
        start = advance = None

    with pytest.raises(ValueError, match="does not implement the protocol: no kind, count"):
        KernelGame(Half, None, (), 0, 0)
