"""Conformance: the protocol's ``evaluate`` and ``determinize`` in every game's kernel (issue 15, point 2),
and the hidden-information test over the protocol for every policy of every game (point 5).

``determinize(params, st, rs, seat, world, scratch)`` writes a full state consistent with what ``seat``
knows, drawn from its decision stream.  Over seeded games of every seat count, at every decision point
of a non-random seat:

- the world has the same decision point for that seat: the same kind and the same options;
- every policy of the game (greedy, lookahead) makes the same choice in the world as in the real
  position, with the same decision stream: a policy that read what its seat cannot see (another hand,
  the stock, a face-down tile, a secret bid) would choose differently in some world;
- ``determinize`` is a function of the seat's stream (the same stream state gives the same world) and,
  in a game with hidden information, changes the state somewhere (a copy would make the test above
  vacuous); in Valhalla, where nothing is hidden, the world is the state itself.

Negative controls: a chooser that reads the whole state (what its seat cannot see included) is caught,
and a determinization that copies the state is reported as changing nothing.  What ``determinize`` must
change is tested from outside it by the per-game harnesses (``tests/games/<game>/test_hidden_info_*``),
whose permutations of the hidden cards and tiles are written independently of the kernel.

``evaluate(params, st, seat)`` is a heuristic value of the position for ``seat``: at the end of a game
the winner's is at least every other seat's (and above the losers' in a game a seat won outright), and
with two seats it is zero-sum.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import toolkit
from conformance_games import NAMES, SPECS, games_until
from toolkit.core.protocol import KernelGame

SEED = 20261203
GAMES = 2  # per seat count and policy, at least: more until MIN_CHECKS decision points are checked
MIN_CHECKS = 10
MAX_CHECKS = 60  # decision points checked per game (the first ones of each non-random seat)


def sampled(name, policy, seats):
    """``policy`` with 2 samples where the game takes a sample count (a fast lookahead)."""
    kernel = toolkit.GAMES[name].kernel
    try:
        kernel.policy_ids((f"{policy}:2",) * seats)
        return f"{policy}:2"
    except (KeyError, ValueError):
        return policy


def configs(name):
    spec = toolkit.GAMES[name]
    for seats in spec.seat_counts():
        rules = toolkit.rules(name, **({"num_players": seats} if len(spec.seat_counts()) > 1 else {}))
        for policy in spec.policies[1:]:
            yield rules, (sampled(name, policy, seats),) * seats


def choose(game: KernelGame) -> int:
    return game.choose()


def hidden_info_problems(name, rules, lineup, seed, games=GAMES, chooser=choose, determinize=None):
    """(problems, worlds checked, worlds that differ from the state) over ``games`` seeded games, and more until
    :data:`MIN_CHECKS` decision points with a choice are checked (``games_until``: a short game is sampled in
    more games).

    ``chooser(game) -> index`` stands for the seats' policies and ``determinize(game, seat) -> world``
    for the kernel's (negative controls replace them)."""
    kernel = toolkit.GAMES[name].kernel
    determinize = determinize or (lambda game, seat: game.determinize(seat))
    problems, checked, changed = [], 0, 0
    for g in games_until(lambda: checked >= MIN_CHECKS, games, f"{MIN_CHECKS} decision points with a choice"):
        game = KernelGame(kernel, rules, lineup, seed, g)
        step = 0
        while (seat := game.advance()) >= 0:
            options = game.options()
            if checked < MAX_CHECKS * (g + 1) and len(options) > 1:
                world = determinize(game.copy(), seat)
                twin = game.copy()
                twin.st[:] = world
                checked += 1
                changed += not np.array_equal(world, game.st)
                if (twin.kind(), twin.options()) != (game.kind(), options):
                    problems.append(f"game {g} decision {step}: the world's decision point differs "
                                    f"(DP-{twin.kind()} {twin.options()}, real DP-{game.kind()} {options})")
                elif chooser(twin.copy()) != chooser(game.copy()):
                    problems.append(f"game {g} decision {step}: seat {seat} ({lineup[seat]}) chooses differently "
                                    f"in a world it cannot tell from the real one")
            game.apply(options[game.choose()])
            step += 1
    return problems, checked, changed


@pytest.mark.parametrize("name", sorted(NAMES))
def test_policies_decide_on_what_their_seat_knows(name):
    spec = toolkit.GAMES[name]
    for rules, lineup in configs(name):
        problems, checked, changed = hidden_info_problems(name, rules, lineup, SEED)
        assert problems == [], (lineup, problems[:3])
        assert checked >= MIN_CHECKS, (lineup, checked)
        if spec.hidden_information:
            assert changed >= checked // 2, f"{lineup}: determinize changed only {changed} of {checked} states"
        else:
            assert changed == 0, f"{lineup}: nothing is hidden, yet {changed} worlds differ from the state"


@pytest.mark.parametrize("name", sorted(name for name, spec in SPECS.items() if spec.hidden_information))
def test_a_chooser_reading_hidden_state_is_caught(name):
    """Negative control: a choice made from a hash of the whole state (the hidden part included)."""
    def peeking(game):
        digest = hashlib.sha256(game.st.tobytes()).digest()
        return int.from_bytes(digest[:4], "little") % len(game.options())
    rules, lineup = next(configs(name))
    problems, checked, _ = hidden_info_problems(name, rules, lineup, SEED, games=1, chooser=peeking)
    assert len(problems) >= checked // 4 > 0, (checked, problems[:2])


@pytest.mark.parametrize("name", sorted(name for name, spec in SPECS.items() if spec.hidden_information))
def test_a_determinization_that_copies_the_state_is_reported(name):
    """Negative control: the truth handed back as the world changes nothing (the count the test asserts on)."""
    rules, lineup = next(configs(name))
    problems, checked, changed = hidden_info_problems(name, rules, lineup, SEED, games=1,
                                                      determinize=lambda game, seat: game.st.copy())
    assert problems == [] and checked > 0 and changed == 0


@pytest.mark.parametrize("name", sorted(NAMES))
def test_determinize_is_drawn_from_the_seat_stream(name):
    spec = toolkit.GAMES[name]
    kernel = spec.kernel
    rules = toolkit.rules(name)
    seats = spec.seats(rules)
    game = KernelGame(kernel, rules, ("random",) * seats, SEED, 0)
    seat = game.advance()
    for _ in range(6):  # a few decision points in (the last of a game that ends sooner)
        after = game.copy()
        after.apply(after.options()[after.choose()])
        if (next_seat := after.advance()) < 0:
            break
        game, seat = after, next_seat
    assert seat >= 0
    before = game.st.copy()
    a, b = game.copy(), game.copy()
    assert np.array_equal(a.determinize(seat), b.determinize(seat))  # the same stream: the same world
    assert np.array_equal(game.st, before)  # the real state is left alone
    if spec.hidden_information:
        worlds = {a.determinize(seat).tobytes() for _ in range(8)}  # the stream moves on: new worlds
        assert len(worlds) > 1
        assert a.rs[1 + seat] != game.rs[1 + seat] and np.array_equal(a.rs[0], game.rs[0])
    else:
        assert np.array_equal(a.determinize(seat), before) and np.array_equal(a.rs, game.rs)


def end_value(name, rules, lineup, g, evaluate):
    """(winner, every seat's evaluation) at the end of seeded game ``g``."""
    kernel = toolkit.GAMES[name].kernel
    game = KernelGame(kernel, rules, lineup, SEED, g)
    while game.advance() >= 0:
        game.apply(game.options()[game.choose()])
    return int(game.record()[list(kernel.COLUMNS).index("winner")]), [evaluate(game, s) for s in range(len(lineup))]


def evaluation_problems(name, evaluate=lambda game, seat: game.evaluate(seat)) -> list:
    """Over 6 seeded greedy games a seat count, and more until one was won outright (a game of many draws) or a
    problem is found."""
    spec = toolkit.GAMES[name]
    problems, outright = [], 0
    for seats in spec.seat_counts():
        rules = toolkit.rules(name, **({"num_players": seats} if len(spec.seat_counts()) > 1 else {}))
        for g in games_until(lambda: outright or problems, 6, "a game won outright"):
            winner, values = end_value(name, rules, ("greedy",) * seats, g, evaluate)
            if winner >= 0:
                if values[winner] < max(values):
                    problems.append(f"{seats} seats: the winner {winner} is valued {values[winner]}, below {max(values)}")
                outright += values[winner] > min(values)
            if seats == 2 and values[0] != -values[1]:
                problems.append(f"two seats: the values {values} are not zero-sum")
    if outright == 0:
        problems.append("no game's winner was valued above a loser")
    return problems


@pytest.mark.parametrize("name", sorted(NAMES))
def test_evaluate_ranks_the_winner_first(name):
    assert evaluation_problems(name) == []


@pytest.mark.parametrize("name", sorted(NAMES))
def test_a_reversed_evaluation_is_caught(name):
    """Negative control: the evaluation with its sign flipped."""
    assert evaluation_problems(name, lambda game, seat: -game.evaluate(seat)) != []
