"""A small tree search finds the only move that does not lose in an Attila endgame (issue 16).

Attila has no win in one (its game ends with the scoring of the last war, not with a seat's move), so
the position is the one option that keeps the win.  It is not drawn by hand but pinned: a scan of the
last DP-6 decisions of 30 seeded two-player random games (seed 11) for one option far ahead of all the
others in random playouts over worlds the seat cannot tell apart found it in game 29, at its 102nd
decision point (ply 101).  Seat 1 has just placed a figure; DP-6 (A, ``second_figure_option``) offers
``influence`` (code 0) or a second figure in one of 11 provinces.  After influence seat 1 wins all the
playouts below; after any second figure, none.  ``mcts`` with 10 + 8 iterations per option (so that
every option is tried: with fewer, UCB1's ties would hand it the first option, influence, for nothing)
must take influence on every stream tried; ``random``, the negative control, never does on those streams.
"""

from __future__ import annotations

import numpy as np

import toolkit
from toolkit.core.protocol import KernelGame
from toolkit.games.attila import kernel

SEED, GAME, PLY = 11, 29, 101


def position() -> KernelGame:
    game = KernelGame(kernel, toolkit.rules("attila", num_players=2), ("random", "random"), seed=SEED, game=GAME)
    for _ in range(PLY):
        game.advance()
        game.apply(game.options()[game.choose()])
    assert game.advance() == 1
    return game


def playouts_won(game: KernelGame, option: int, playouts: int = 16) -> float:
    """Seat 1's share of random playouts after ``option``, each in a world ``determinize`` draws (what the
    seat cannot see redrawn) under other chance and decision streams."""
    won = 0.0
    for k in range(playouts):
        trial = game.copy()
        trial.rs[2] = np.uint64(0x9E3779B97F4A7C15 * (k + 1) % (1 << 64))
        trial.st[:] = trial.determinize(1)
        for q in range(len(trial.rs)):
            trial.rs[q] = np.uint64((0xD1B54A32D192ED03 * (k + 7 + 13 * q)) % (1 << 64))
        trial.apply(option)
        while trial.advance() >= 0:
            trial.apply(trial.options()[trial.choose()])
        returns = trial.returns()
        won += returns[1] / sum(returns)
    return won / playouts


def test_the_position_is_what_it_claims():
    game = position()
    options = game.options()
    assert game.kind() == 6 and len(options) == 12 and options[0] == kernel.INFLUENCE
    assert playouts_won(game, kernel.INFLUENCE) >= 0.9
    for second_figure in options[1:]:
        assert playouts_won(game, second_figure, 8) <= 0.15, second_figure


def test_a_small_search_takes_influence():
    game = position()
    options = game.options()
    budget = 10 + 8 * len(options)
    for stream in range(5):
        trial = game.copy()
        trial.rs[2] = np.uint64(1000 + stream)
        assert options[trial.search(budget)] == kernel.INFLUENCE, stream


def test_random_play_misses_it():
    game = position()
    options = game.options()
    picks = []
    for stream in range(8):
        trial = game.copy()
        trial.rs[2] = np.uint64(1000 + stream)
        picks.append(options[trial.choose()])
    assert kernel.INFLUENCE not in picks
