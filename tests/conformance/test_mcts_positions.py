"""A small-budget tree search finds the win in one (issue 16).

The positions are found, not drawn by hand: the first decision points of seeded random games (every
game, a player count where they occur) where exactly one option ends the game at once with the deciding
seat the sole winner, whatever the chance stream holds and whatever the seat cannot see (checked on
several chance streams and worlds of ``determinize``), while every other option leaves the game open (the
seat wins at most 3 in 4 random playouts after it).  ``mcts`` with a budget of 10 + 4 iterations per option must play it; the
``random`` policy, the negative control, misses it in some of them.

Where to scan is each game's ``MCTS_SCAN``, beside its tests (``tests/game_data.py``); every
game declares one.  A game whose seeded games hold no such position names its own position test instead
(Valhalla: its last ship moves by one option only; Attila: its game ends with the last war's scoring), and
that file must exist.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import toolkit
from conformance_games import NAMES
from game_data import game_configs
from toolkit.core.protocol import KernelGame

REPO = Path(__file__).resolve().parents[2]
# game -> (overrides, seed, games), a path, or None where the configs forget it (then the test below fails by name)
SCANS = {name: getattr(game_configs(name), "MCTS_SCAN", None) for name in NAMES}
STREAMS = 4  # chance streams an option must win under


def wins_at_once(game: KernelGame, seat: int, option: int) -> bool:
    """``option`` wins at once in the real position and in worlds ``seat`` cannot tell from it (drawn by
    ``determinize``), under other chance streams."""
    for k in range(STREAMS):
        trial = game.copy()
        if k:
            trial.rs[1 + seat] = np.uint64(0x9E3779B97F4A7C15 * k % (1 << 64))
            trial.st[:] = trial.determinize(seat)
        trial.rs[0] = np.uint64(0xD1B54A32D192ED03 * (k + 1) % (1 << 64))  # another chance stream
        trial.apply(option)
        if trial.advance() >= 0 or trial.returns()[seat] != 1 or sum(trial.returns()) != 1:
            return False
    return True


def random_play_wins(game: KernelGame, seat: int, option: int, playouts: int = 20) -> float:
    """The share of random playouts after ``option`` (other chance streams and worlds) that ``seat`` wins."""
    won = 0
    for k in range(playouts):
        trial = game.copy()
        trial.rs[1 + seat] = np.uint64(0x9E3779B97F4A7C15 * (k + 1) % (1 << 64))
        trial.st[:] = trial.determinize(seat)
        trial.rs[0] = np.uint64(0xD1B54A32D192ED03 * (k + 1) % (1 << 64))
        trial.apply(option)
        while trial.advance() >= 0:
            trial.apply(trial.options()[trial.choose()])
        won += trial.returns()[seat]
    return won / playouts


@functools.lru_cache(maxsize=None)  # the tests below copy each game before they play it
def positions(name):
    overrides, seed, games = SCANS[name]
    spec = toolkit.GAMES[name]
    rules = spec.Rules.preset("standard", **overrides)
    seats = spec.seats(rules)
    found = []
    for g in range(games):
        game = KernelGame(spec.kernel, rules, ("random",) * seats, seed, g)
        while (seat := game.advance()) >= 0:
            options = game.options()
            if len(options) > 1:
                winning = [i for i, option in enumerate(options) if wins_at_once(game, seat, option)]
                if len(winning) == 1 and all(random_play_wins(game, seat, option) <= 0.75
                                             for i, option in enumerate(options) if i != winning[0]):
                    found.append((game.copy(), seat, winning[0], len(options)))
            game.apply(options[game.choose()])
    return found


@pytest.mark.parametrize("name", sorted(SCANS))
def test_every_game_declares_its_search_position(name):
    """A tuple to scan, or the game's own position test (a file of this repository that tests ``mcts``)."""
    scan = SCANS[name]
    assert scan is not None, f"{name}: tests/games/{name}/{name}_configs.py declares no MCTS_SCAN"
    if isinstance(scan, str):
        path = REPO / scan
        assert path.is_file() and "mcts" in path.read_text(encoding="utf-8"), f"{name}: MCTS_SCAN names {scan}"
    else:
        overrides, seed, games = scan
        assert games > 0 and isinstance(overrides, dict), scan


@pytest.mark.parametrize("name", sorted(n for n, scan in SCANS.items() if isinstance(scan, tuple)))
def test_a_small_search_plays_the_win_in_one(name):
    found = positions(name)
    assert found, f"{name}: no win-in-one position in the scanned games"
    random_found = 0
    for game, seat, winning, n in found:
        assert game.copy().search(10 + 4 * n) == winning, (name, n)
        random_found += game.copy().choose() == winning
    if len(found) > 1:
        assert random_found < len(found), "the negative control: random play finds every win too"


@pytest.mark.parametrize("name", sorted(n for n, scan in SCANS.items() if isinstance(scan, tuple)))
def test_the_search_rates_the_win_in_one_near_certain(name):
    """Issue 38: the root statistics of ``mcts:200`` at each win-in-one position rate the winning option at
    (nearly) 1 for the deciding seat, with an interval above 0.9 where it was played often, and choose it;
    the other options, which leave the game open, are rated lower (the negative control: the statistics
    tell the options apart)."""
    for game, seat, winning, n in positions(name):
        stats = game.copy().root_statistics("mcts:200")
        mean, low, _ = stats.estimates()
        assert stats.seat == seat and stats.choice == winning, (name, stats)
        assert mean[winning] >= 0.99, (name, mean[winning])
        if stats.visits[winning] >= 40:
            assert low[winning] > 0.9, (name, stats.visits[winning], low[winning])
        others = [m for i, m in enumerate(mean) if i != winning and not np.isnan(m)]
        assert others and max(others) < mean[winning], (name, mean)
