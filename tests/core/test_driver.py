"""The drivers' copies (``core.driver``): a random loop without the game's policies, a plain loop without
the tree search compiled in, one that can search, and in a game that leaves its lookahead out of those
(``choose_plain``) a whole one, picked by the line-up."""

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
    assert kernel.play_many.plain is kernel.play_game.block
    assert kernel.play_many.searching is kernel.play_game.searching.block
    assert kernel.play_game.block is not kernel.play_game.searching.block
    assert kernel.play_game.py_func.__globals__["play_block"] is kernel.play_game.block  # one loop, written once
    # the random copy has neither the search nor the game's policies compiled in
    random = kernel.play_game.random.decide.py_func.__globals__
    assert random["search"] is None and not random["SEARCH"] and random["choose"] is None and not random["CHOOSE"]
    # the plain and searching copies choose without the game's lookahead where the kernel leaves it out, and
    # the whole copy (else the searching one itself) with it
    own = getattr(kernel, "choose_plain", kernel.choose)
    assert plain.py_func.__globals__["choose"] is own and plain.py_func.__globals__["CHOOSE"]
    assert searching.py_func.__globals__["choose"] is own
    whole = kernel.play_game.whole
    assert whole.decide.py_func.__globals__["choose"] is kernel.choose and whole.decide.py_func.__globals__["SEARCH"]
    assert (whole is kernel.play_game.searching) == (own is kernel.choose)
    assert kernel.play_many.whole is whole.block
    assert kernel.play_many.random is kernel.play_game.random.block
    # the plain and random copies inline the steps where the kernel says so, the searching copy calls them
    # (the random copy once inherited the searching copy's calls: half Valhalla's speed)
    steps = kernel.advance if getattr(kernel, "INLINE_STEPS", True) else kernel.advance_called
    for copy in (kernel.play_game, kernel.play_game.random):
        assert copy.block.py_func.__globals__["advance"] is steps
    assert kernel.play_game.searching.block.py_func.__globals__["advance"] is kernel.advance_called


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


def _codes(spec, *names):
    """A line-up of ``names`` then ``random`` seats, as the driver's codes."""
    from toolkit.core.mcts import policy_codes

    seats = spec.seats(spec.Rules())
    return policy_codes(spec.kernel, names + ("random",) * (seats - len(names)))


@pytest.mark.parametrize("name", GAMES)
def test_each_line_up_runs_the_copy_that_plays_all_its_seats(name):
    """A ``greedy`` line-up runs the plain copy and an ``mcts`` seat the searching one; a ``lookahead`` seat
    the whole copy where the kernel leaves the lookahead out of the others (``choose_plain``), else the
    plain copy (or the searching one beside an ``mcts`` seat)."""
    spec = toolkit.GAMES[name]
    own = hasattr(spec.kernel, "choose_plain")
    assert spec.play_many.copy(_codes(spec, "random")) == "random"
    assert spec.play_many.copy(_codes(spec, "greedy", "greedy")) == "plain"
    assert spec.play_many.copy(_codes(spec, "lookahead")) == ("lookahead" if own else "plain")
    assert spec.play_many.copy(_codes(spec, "greedy", "lookahead")) == ("lookahead" if own else "plain")
    for n in (*range(2, 10), 254):  # an mcts code is negative, whatever its low bits (a lookahead id among them)
        assert spec.play_many.copy(_codes(spec, f"mcts:{n}", "greedy")) == "search", n
    assert spec.play_many.copy(_codes(spec, "mcts:10", "lookahead")) == ("lookahead" if own else "search")
    assert spec.kernel.play_game.copy_for(_codes(spec, "lookahead")) == ("lookahead" if own else "plain")


def test_attilas_tile_masks_are_not_taken_for_a_lookahead():
    """Attila's codes carry the unused tiles in bits 2-4 and the line-up's samples and masks after the
    seats: only a seat's own code says lookahead."""
    spec = toolkit.GAMES["attila"]
    assert spec.play_many.copy(_codes(spec, "greedy:no_exchange", "greedy:no_plus_two:no_double_turn")) == "plain"
    assert spec.play_many.copy(_codes(spec, "greedy", "lookahead:2:no_exchange")) == "lookahead"


def _play(spec, loop, names, n=24, seed=5):
    """``n`` checked games of the line-up ``names`` played by the compiled block loop ``loop``."""
    seats = spec.seats(spec.Rules())
    params, codes = spec.prepare(spec.Rules(), names + ("random",) * (seats - len(names)))
    out = np.zeros((n, len(spec.columns)), np.int32)
    violations = np.zeros(n, np.int32)
    spec.play_many._play(loop, spec.kernel.play_game.work_entries(codes), params, codes, seed, 0, out, violations,
                         True)
    assert not violations.any()
    return out


@pytest.mark.parametrize("name", [g for g in GAMES if hasattr(toolkit.GAMES[g].kernel, "choose_plain")])
def test_the_plain_choose_is_the_whole_one_without_the_lookahead(name):
    """A ``greedy`` line-up plays the same games in the plain and searching copies (``choose_plain``) as in
    the whole one (``choose``); a ``lookahead`` seat does not (negative control: the routing matters)."""
    spec = toolkit.GAMES[name]
    pm = spec.play_many
    greedy = ("greedy", "greedy")
    assert np.array_equal(_play(spec, pm.plain, greedy), _play(spec, pm.whole, greedy))
    assert np.array_equal(_play(spec, pm.searching, greedy), _play(spec, pm.whole, greedy))
    lookahead = ("lookahead:2", "greedy")
    assert not np.array_equal(_play(spec, pm.plain, lookahead), _play(spec, pm.whole, lookahead))


@pytest.mark.parametrize("given", ["choose_plain", "lookahead_in"])
def test_a_kernel_declares_the_plain_choose_with_its_test_or_neither(given):
    """``choose_plain`` without ``lookahead_in`` (or the reverse) would run a lookahead seat as greedy in
    the plain copy: ``finish_kernel`` refuses it by name."""
    from toolkit.core.wiring import PROTOCOL, finish_kernel

    g = {name: None for name in PROTOCOL} | {"__name__": "scratch.kernel", given: None}
    with pytest.raises(TypeError, match="scratch.kernel defines one of choose_plain and lookahead_in"):
        finish_kernel(g)
    del g[given]
    with pytest.raises(Exception) as raised:  # negative control: past the check, the dummies fail elsewhere
        finish_kernel(g)
    assert "choose_plain" not in str(raised.value)


def test_a_state_entry_reads_its_entry_and_is_filed_beside_its_caller():
    """``core.wiring.state_entry``: ``kind``/``count`` of a kernel that keeps them in its state."""
    from toolkit.core.wiring import state_entry

    first, third = state_entry("kind", 0, "The first."), state_entry("count", 2, "The third.")
    st = np.array([7, 8, 9], np.int64)
    assert first(None, st) == 7 and third(None, st) == 9  # each its own entry
    assert third.__doc__ == "The third." and third.py_func.__name__ == "count"
    assert third.py_func.__code__.co_filename == __file__  # Numba caches it beside the kernel that made it
    kernel = toolkit.GAMES["walhalla"].kernel
    assert kernel.count.py_func.__code__.co_filename == kernel.__file__
