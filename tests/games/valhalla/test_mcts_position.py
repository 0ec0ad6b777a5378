"""A small tree search finds Valhalla's only safe move on a hand-built position (issue 16).

Valhalla has no win in one (its last ship has a single option), so the position is the one move that
does not lose.  Black (seat 0) has two ships left, on 26 and 33, and throws a 4; White's last ship
stands on 24.  33 -> 36 (V-5.2, ``exact_or_over``) keeps the race; 26 -> 30 ends on the rock, which
sends the ship to the dock, repairing until a natural one (V-6.3, V-5.3).  Random playouts (200, fixed
streams) show the gap: Black wins 0.46 of them after 33 and 0.26 after the rock.  ``mcts`` with 60
iterations must take 33 on every stream tried; the ``random`` policy, the negative control, takes 26 on
some of its streams.
"""

from __future__ import annotations

import numpy as np

from test_valhalla_metrics_columns import kernel_state  # beside this file
from toolkit.core.protocol import KernelGame
from toolkit.games.valhalla import kernel
from toolkit.games.valhalla.reference import OFF, State
from toolkit.games.valhalla.rules import Rules

BLACK, WHITE = [26, 33, OFF, OFF, OFF, OFF], [24, OFF, OFF, OFF, OFF, OFF]
BOARD = [0, 1, *(kernel.HOME_N + s for s in (0, 1)), *(kernel.VAL_N + s for s in (0, 1)),
         *(kernel.OFF + s for s in (0, 1)), kernel.REP]


def position(seed: int = 1) -> KernelGame:
    """Black to move the throw 4 (not a natural one) on the board above; everything else as after
    ``start`` of game 0 of ``seed`` (turn counters, streams)."""
    rules = Rules()
    game = KernelGame(kernel, rules, ("random", "random"), seed=seed, game=0)
    board = kernel_state(rules, State.from_positions(BLACK, WHITE))
    st, ip = game.st, game.params[0]
    st[BOARD] = board[BOARD]
    st[kernel.S_SEAT], st[kernel.S_PHASE], st[kernel.S_VALUE], st[kernel.S_NATURAL] = 0, kernel.PH_MOVE, 4, 0
    moves, distance = kernel.option_set(ip, st, 0, 4, False)
    st[kernel.S_MOVES], st[kernel.S_DISTANCE] = moves, distance
    for seat in (0, 1):
        st[kernel.S_LEAD_VALUES + seat] = kernel.lead_measure(ip, st, seat)
    game.seat = 0
    return game


def random_play_wins(game: KernelGame, option: int, playouts: int = 200) -> float:
    won = 0
    for k in range(playouts):
        trial = game.copy()
        trial.rs[0] = np.uint64(0xD1B54A32D192ED03 * (k + 1) % (1 << 64))
        trial.rs[1] = np.uint64(0x9E3779B97F4A7C15 * (k + 1) % (1 << 64))
        trial.rs[2] = np.uint64(0xBF58476D1CE4E5B9 * (k + 1) % (1 << 64))
        trial.apply(option)
        while trial.advance() >= 0:
            trial.apply(trial.options()[trial.choose()])
        won += trial.returns()[0]
    return won / playouts


def test_the_position_is_what_it_claims():
    game = position()
    assert game.options() == [26, 33]
    rock = game.copy()
    rock.apply(26)
    assert rock.st[kernel.REP] == 0 and (rock.st[0] >> 19) & 1 and not (rock.st[0] >> 30) & 1
    # the safe move keeps the race open; the rock loses most of it (0.46 and 0.26 in these playouts)
    safe, lost = random_play_wins(game, 33), random_play_wins(game, 26)
    assert safe >= 0.4 and lost <= 0.3, (safe, lost)


def test_a_small_search_plays_the_only_safe_move():
    for seed in range(1, 6):  # other decision streams
        assert position(seed).search(60) == 1, seed


def test_negative_control_random_play_takes_the_rock():
    assert {position(seed).choose() for seed in range(1, 9)} == {0, 1}
