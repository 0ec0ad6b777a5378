"""Conformance: the tree search written once (``toolkit.core.mcts``), in every game (issue 16, first part).

- it returns the index of a legal option, and the same search from the same streams returns the same;
- it draws only from the deciding seat's decision stream (the chance stream and the other seats' are
  left as they were) and leaves the real state alone;
- it decides on what its seat knows: in a world ``determinize`` draws for the seat (everything hidden
  drawn again), from the same decision stream, it chooses the same;
- it plays: ``mcts:200`` against ``random`` wins most of a few seeded games in every game (each seat
  in turn).
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.core.protocol import KernelGame

SEED = 20261205


def search(game: KernelGame, seat: int, iterations: int) -> int:
    return int(game.kernel.mcts(game.params, game.st, game.rs, seat, iterations, 1.4))


def decision_points(name, games=2, every=7):
    """Seeded random games' decision points with more than one option (every ``every``-th)."""
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    seats = spec.seats(rules)
    for g in range(games):
        game = KernelGame(spec.kernel, rules, ("random",) * seats, SEED, g)
        step = 0
        while (seat := game.advance()) >= 0:
            options = game.options()
            if len(options) > 1 and step % every == 0:
                yield game, seat, options
            game.apply(options[game.choose()])
            step += 1


@pytest.mark.parametrize("name", sorted(toolkit.GAMES))
def test_a_search_is_legal_repeatable_and_draws_from_its_seat_only(name):
    checked = 0
    for game, seat, options in decision_points(name):
        a, b = game.copy(), game.copy()
        i = search(a, seat, 40)
        assert 0 <= i < len(options)
        assert search(b, seat, 40) == i and np.array_equal(a.rs, b.rs)
        assert np.array_equal(a.st, game.st)
        moved = np.flatnonzero(a.rs != game.rs).tolist()
        assert moved == [1 + seat], moved
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", sorted(name for name, spec in toolkit.GAMES.items() if spec.hidden_information))
def test_a_search_decides_on_what_its_seat_knows(name):
    checked = 0
    for game, seat, options in decision_points(name, every=11):
        world = game.copy().determinize(seat)  # drawn from a copy: the real stream stays as it is
        twin = game.copy()
        twin.st[:] = world
        assert twin.options() == options
        assert search(twin, seat, 30) == search(game.copy(), seat, 30)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", sorted(toolkit.GAMES))
def test_mcts_beats_random(name):
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    seats = spec.seats(rules)
    games = 2 * seats
    won = 0
    for g in range(games):
        me = g % seats
        game = KernelGame(spec.kernel, rules, ("random",) * seats, SEED, g)
        while (seat := game.advance()) >= 0:
            options = game.options()
            i = search(game, seat, 200) if seat == me and len(options) > 1 else game.choose()
            game.apply(options[i])
        won += game.returns()[me]
    assert won >= games - 1, f"mcts:200 won {won} of {games} against random (fair share {games / seats:.1f})"
