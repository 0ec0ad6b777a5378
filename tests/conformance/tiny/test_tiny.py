"""Tiny's own tests (its spec, ``RULES.md``): each rule on a hand-built position, in the kernel and the
reference alike; the §7 checks with a negative control each; the exact odds against enumeration; and the case
the conformance suite's lock step was rebuilt for (issue 53, point 3): a stray move that a later capture undoes,
which only a comparison of whole positions sees.

The conformance suite itself (``tests/conformance``) runs over Tiny as over every game; Tiny is registered
while this module runs (``tests/conformance/conftest.py``).
"""

from __future__ import annotations

import doctest
import importlib
import itertools
from fractions import Fraction

import numpy as np
import pytest

import toolkit
from lockstep import found_at, lockstep
from tiny import kernel, odds, reference
from tiny.layout import S_CAPTURES, S_OVER, S_PLIES, S_ROLL, S_SEAT, S_SQUARE, S_TURNS, S_WINNER
from tiny.rules import Rules
from toolkit.core.protocol import KernelGame

RULES = Rules()  # track 9, a d6, 4 rounds, a lead of 1 a draw


def positions(square, seat=0, roll=3, turns=1, rules=RULES):
    """The same hand-built decision point in the kernel and the reference: the pawns on ``square``, ``seat`` to
    move with ``roll``, in turn ``turns`` (the turns before it played)."""
    kg = KernelGame(kernel, rules, ("random", "random"), 1, 0)
    kg.st[S_SQUARE:S_SQUARE + 2] = square
    kg.st[S_SEAT], kg.st[S_ROLL], kg.st[S_TURNS], kg.st[S_PLIES] = seat, roll, turns, turns - 1
    kg.seat = seat
    game = reference.new_game(rules, 1, 0)
    game.square, game.seat, game.roll, game.turns, game.plies = list(square), seat, roll, turns, turns - 1
    return kg, game


def both_options(square, seat=0, roll=3, rules=RULES):
    kg, game = positions(square, seat, roll, rules=rules)
    return kg.options(), list(game.advance().options)


def both_after(square, option, seat=0, roll=3, turns=1, rules=RULES):
    """Both sides after ``option``: (kernel squares, captures, over, winner), the reference's the same."""
    kg, game = positions(square, seat, roll, turns, rules)
    kg.apply(option)
    game.apply(game.advance(), option)
    st = kg.st
    return ((st[S_SQUARE:S_SQUARE + 2].tolist(), st[S_CAPTURES:S_CAPTURES + 2].tolist(), bool(st[S_OVER]),
             int(st[S_WINNER])), (game.square, game.captures, game.over, game.winner))


def test_t2_2_options_are_the_squares_to_move_and_waiting_is_not_on_the_start():
    assert both_options((3, 0), roll=4) == ([0, 1, 2, 3, 4], [0, 1, 2, 3, 4])
    assert both_options((0, 5), roll=4) == ([1, 2, 3, 4], [1, 2, 3, 4])  # a pawn on the start must move
    assert both_options((0, 5), roll=1) == ([1], [1])  # the single option: the driver never asks a policy
    assert both_options((7, 0), roll=6) == ([0, 1, 2], [0, 1, 2])  # no overshooting home (§8)


def test_t3_1_a_pawn_that_lands_on_or_passes_the_other_sends_it_back():
    for option in (2, 3):  # onto it, past it
        kernel_side, reference_side = both_after((2, 4), option)
        assert kernel_side == reference_side == ([2 + option, 0], [1, 0], False, -1)
    kernel_side, reference_side = both_after((2, 4), 1)  # short of it: nothing happens to it
    assert kernel_side == reference_side == ([3, 4], [0, 0], False, -1)


def test_t3_2_a_pawn_on_the_start_is_never_captured():
    kernel_side, reference_side = both_after((0, 0), 3)
    assert kernel_side == reference_side == ([3, 0], [0, 0], False, -1)


def test_t4_1_home_wins_at_once():
    kernel_side, reference_side = both_after((7, 8), 2, roll=2)
    assert kernel_side == reference_side == ([9, 0], [1, 0], True, 0)


def test_t4_2_after_the_rounds_a_lead_within_the_margin_is_a_draw():
    last = 2 * RULES.rounds
    assert both_after((3, 5), 1, turns=last)[0] == ([4, 5], [0, 0], True, -1)  # behind by 1: a draw
    assert both_after((3, 5), 0, turns=last)[0] == ([3, 5], [0, 0], True, 1)  # behind by 2: seat 1 wins
    kernel_side, reference_side = both_after((3, 5), 3, turns=last)  # past it: ahead by 6
    assert kernel_side == reference_side == ([6, 0], [1, 0], True, 0)


@pytest.mark.parametrize("broken,invariant", [
    (lambda st: st.__setitem__(S_SQUARE, st[S_SQUARE] + 1), 1),  # the mover went a square too far
    (lambda st: st.__setitem__(S_CAPTURES, 0), 2),  # a capture not counted
    (lambda st: st.__setitem__(S_SQUARE + 1, 4), 2),  # the pawn passed left where it was
])
def test_s7_the_checks_catch_a_broken_move(broken, invariant):
    kg, _ = positions((2, 4))
    before = kg.st.copy()
    kg.apply(3)
    assert kernel.check_step(kg.params, before, kg.st, 3) == 0
    broken(kg.st)
    assert kernel.check_step(kg.params, before, kg.st, 3) == invariant


def test_s7_4_the_end_check_catches_a_wrong_winner():
    kg, _ = positions((3, 5), turns=2 * RULES.rounds)
    kg.apply(0)
    assert kernel.check_end(kg.params, kg.st) == 0
    kg.st[S_WINNER] = 0
    assert kernel.check_end(kg.params, kg.st) == 4


def test_odds_are_the_enumerated_ones():
    for rules in (RULES, Rules.preset("short")):
        faces = range(1, rules.die_sides + 1)
        throws = list(itertools.product(faces, repeat=rules.rounds))
        home = Fraction(sum(sum(t) >= rules.track for t in throws), len(throws))
        assert odds.home_within_rounds(rules) == home
    table = odds.summary(RULES)
    assert table["exact"].tolist() == ["1/2", "1/6", "7/2", str(odds.home_within_rounds(RULES))]


@pytest.mark.parametrize("module", ["tiny.odds", "tiny.view", "conformance_games"])
def test_the_examples_run(module):
    """The docstring examples of Tiny's modules and of the suite's sampler (``tests/test_doctests.py`` runs the
    package's only)."""
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS, report=False)
    assert result.attempted > 0 and result.failed == 0, result


def undone_strays(games: int = 60) -> list:
    """Stray moves (the kernel applies the next option instead of the one both chose) that the comparison of what
    shows (the options, the streams, the record at the end) never sees, with where the whole lock step found
    them."""
    spec = toolkit.GAMES["tiny"]
    found = []
    for game in range(games):
        for step in range(2 * RULES.rounds):
            done = []

            def tamper(at, codes, index, step=step, done=done):
                if at == step and len(codes) > 1:
                    done.append(at)
                    return codes[(index + 1) % len(codes)]
                return codes[index]

            if lockstep(spec, RULES, ("random", "random"), 7, game, tamper, whole=False) is None and done:
                found.append((game, step, lockstep(spec, RULES, ("random", "random"), 7, game, tamper)))
    return found


def test_a_stray_move_a_capture_undoes_is_caught_at_the_next_decision():
    """The case the lock step was rebuilt for: the kernel moves its pawn otherwise than the reference, the other
    pawn then passes it in both games (T-3), both stray and right pawns go back to the start and the games end
    alike.  Comparing only what shows sees nothing; comparing positions finds it at the next decision point."""
    found = undone_strays()
    assert found, "no stray move undone in 60 games: the negative control tests nothing"
    for game, step, difference in found:
        assert difference is not None and found_at(difference) == step + 1, (game, step, difference)
        assert "the positions differ in square" in difference
