"""Conformance, part 2: every registered game gives the same games whatever the threads, the chunks,
the number of games played and where the run starts (architecture decision 2).

For each game and each line-up (every seat ``random``; every seat ``greedy``; ``lookahead`` in seat 0
with a cheap setting against ``random``; every seat the tree search ``mcts:3``, whose tree is the
block's work, used again game after game), one run on two threads is the reference; the same games
must come back, row for row and bit for bit, from one thread with small chunks, from a shorter run
(a prefix) and from a run that starts in the middle.  The runs are a few hundred games (the searching
line-up 150), several times the driver's 32 blocks on two threads (``BLOCKS_PER_THREAD``), so blocks
hold several games (``toolkit.core.driver``).
"""

from __future__ import annotations

import numba
import pandas as pd
import pytest

import toolkit
from conformance_games import NAMES
from toolkit.core.driver import BLOCKS_PER_THREAD

pytestmark = pytest.mark.slow  # about 15 s of CI: started early (tests/conftest.py), so the suite ends on short modules

GAMES = NAMES  # the registered games and the test-only ones (conformance_games.py)
SEED = 23
SIZES = {"random": 700, "greedy": 400, "lookahead": 260, "mcts": 150}


def lineups(game):
    spec = toolkit.GAMES[game]
    seats = spec.seats(spec.Rules())
    cheap = "lookahead" if spec.policy_parser is None else "lookahead:1"
    return {"random": ("random",) * seats, "greedy": ("greedy",) * seats,
            "lookahead": (cheap,) + ("random",) * (seats - 1), "mcts": ("mcts:3",) * seats}


CASES = [(game, kind) for game in GAMES for kind in ("random", "greedy", "lookahead", "mcts")]


def run(game, kind, n, **kwargs) -> pd.DataFrame:
    return toolkit.simulate(game, n_games=n, seed=kwargs.pop("seed", SEED), policies=lineups(game)[kind],
                            progress=False, **kwargs)


def same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True), check_exact=True)


@pytest.fixture(scope="module")
def reference_runs():
    return {}


def reference(reference_runs, game, kind):
    if (game, kind) not in reference_runs:
        reference_runs[game, kind] = run(game, kind, SIZES[kind], threads=2)
    return reference_runs[game, kind]


def test_two_threads_are_there():
    """The thread tests below need two Numba threads; on a one-core runner they must fail, not pass
    by running one thread twice."""
    assert numba.config.NUMBA_NUM_THREADS >= 2, "these tests need NUMBA_NUM_THREADS >= 2"
    assert min(SIZES.values()) >= 4 * 2 * BLOCKS_PER_THREAD  # blocks of several games on two threads


@pytest.mark.parametrize("game,kind", CASES)
def test_one_thread_and_small_chunks_give_the_same_games(game, kind, reference_runs):
    same(reference(reference_runs, game, kind), run(game, kind, SIZES[kind], threads=1, chunk_size=97))


@pytest.mark.parametrize("game,kind", CASES)
def test_a_shorter_run_is_a_prefix_and_a_later_start_a_slice(game, kind, reference_runs):
    full = reference(reference_runs, game, kind)
    third = SIZES[kind] // 3
    same(full.iloc[:third], run(game, kind, third, threads=2))
    middle = run(game, kind, third, threads=2, first_game=third)
    assert middle["game_index"].tolist() == list(range(third, 2 * third))
    same(full.iloc[third:2 * third], middle)


@pytest.mark.parametrize("game", GAMES)
def test_negative_control_another_seed_gives_other_games(game, reference_runs):
    """The comparison above can fail: the same games on another seed differ."""
    full = reference(reference_runs, game, "random")
    other = run(game, "random", SIZES["random"], threads=2, seed=SEED + 1)
    with pytest.raises(AssertionError):
        same(full.drop(columns="game_index"), other.drop(columns="game_index"))
