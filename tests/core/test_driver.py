"""The drivers' copies (``core.driver``): a random loop without the game's policies, a plain loop without
the tree search compiled in, and one that can search, picked by the line-up."""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.core.driver import Searching

GAMES = list(toolkit.GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_the_plain_loop_has_no_search_and_the_other_has_the_games(name):
    """The plain copy's ``decide`` is compiled without the search (its scope has none: a search seat
    reaching it would be a typing error, not a silent miss), the searching copy's with the game's."""
    kernel = toolkit.GAMES[name].kernel
    plain, searching = kernel.play_game.decide, kernel.play_game.searching.decide
    assert plain.py_func.__globals__["search"] is None and not plain.py_func.__globals__["SEARCH"]
    assert searching.py_func.__globals__["search"] is kernel.mcts and searching.py_func.__globals__["SEARCH"]
    assert isinstance(kernel.play_many, Searching)
    assert kernel.play_many.plain.py_func.__globals__["run"] is kernel.play_game.run
    assert kernel.play_many.searching.py_func.__globals__["run"] is kernel.play_game.searching.run
    assert kernel.play_game.run is not kernel.play_game.searching.run
    # the random copy has neither the search nor the game's policies compiled in
    random = kernel.play_game.random.decide.py_func.__globals__
    assert random["search"] is None and not random["SEARCH"] and random["choose"] is None and not random["CHOOSE"]
    assert plain.py_func.__globals__["choose"] is kernel.choose and plain.py_func.__globals__["CHOOSE"]
    assert kernel.play_many.random.py_func.__globals__["run"] is kernel.play_game.random.run
    # the plain and random copies inline the steps where the kernel says so, the searching copy calls them
    # (the random copy once inherited the searching copy's calls: half Valhalla's speed)
    steps = kernel.advance if getattr(kernel, "INLINE_STEPS", True) else kernel.advance_called
    for copy in (kernel.play_game, kernel.play_game.random):
        assert copy.run.py_func.__globals__["advance"] is steps
    assert kernel.play_game.searching.run.py_func.__globals__["advance"] is kernel.advance_called


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, *args):
        self.calls.append(args)
        return len(self.calls)


@pytest.mark.parametrize("codes, copy", [([0, 0], "random"), ([0, 0, 0, 0], "random"), ([0, 1], "plain"),
                                         ([0, 0, 3], "plain"), ([-200, 1], "search"), ([-200, 0], "search"),
                                         ([2, 0, -(5 + (3 << 20))], "search")])
def test_blocks_pick_the_copy_by_the_line_up(codes, copy):
    """Every seat random: the random copy; a seat searching: the searching copy; else the plain one."""
    assert toolkit.GAMES["valhalla"].play_many.copy(np.array(codes, np.int64)) == copy


@pytest.mark.parametrize("codes, copy", [([0, 1], "plain"), ([0, 0, 3], "plain"), ([-200, 1], "searching"),
                                         ([2, 0, -(5 + (3 << 20))], "searching")])
def test_searching_picks_the_copy_by_the_line_up(codes, copy):
    plain, searching = Recorder(), Recorder()
    loop = Searching(plain, searching)
    assert loop("params", np.array(codes, np.int64), 7, "out") == 1
    called = {"plain": plain, "searching": searching}[copy]
    other = searching if copy == "plain" else plain
    assert len(called.calls) == 1 and not other.calls
    assert called.calls[0][0] == "params" and called.calls[0][2:] == (7, "out")


def test_copies_of_a_template_at_one_line_are_named_by_their_scopes():
    """Numba names cache files by qualified name and line: two copies of one template made at the same
    line over different compiled functions must not share a name (one would load the other's code), and
    the same scope gives the same name (the cache is found again in the next process).  That the code
    is current is the cache directory's digest (tests/core/test_cache.py)."""
    import sys

    from toolkit.core import driver
    from toolkit.core.jit import njit

    kernel = toolkit.GAMES["valhalla"].kernel
    assert kernel.mcts.py_func.__qualname__.startswith("mcts_")
    assert kernel.mcts.py_func.__code__.co_filename == kernel.__file__  # filed beside the kernel
    here = sys._getframe(0)

    def loop(x):
        return step(x)  # noqa: F821  (the copy's scope gives it)

    def one(x):
        return x + 1

    def two(x):
        return x + 2

    copies = [driver.from_template(loop, "loop", {"step": njit(f)}, here) for f in (one, two, one)]
    assert {c.__name__ for c in copies} == {"loop"}
    assert copies[0].__qualname__ != copies[1].__qualname__
    assert copies[0].__qualname__ == copies[2].__qualname__  # negative control
