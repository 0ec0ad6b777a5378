"""Hidden information (spec ``docs/rules/halali.md`` §2.4, §5): the policies decide only on what a seat may see.

Seeded games are played with the policy under test (the observer of
``play_game`` records every decision point).  At each recorded decision point
copies of the state are made in which the face-down tiles are reshuffled among
the face-down squares (the same squares stay face down; kinds, ids and gun
directions move, and the hunters' hidden gun directions are redrawn).  Then:

- ``observe()`` must give the same View (nothing hidden leaks into it);
- the legal options must be the same (face-down tiles are only obstacles);
- a fresh policy (same decision stream) must make the same decision.

The negative controls are policies that peek at the true grid: the same
harness must catch them.
"""

from __future__ import annotations

import random

import pytest

from toolkit.core.rng import Stream
from toolkit.games.halali import reference as ref
from toolkit.games.halali.policies import make_policy
from toolkit.games.halali.rules import BEAR, HUNTER, KINDS, Rules

STD = Rules()
VARIANT = STD.replace(forced_capture=True, neutral_lock="reveal_only", exits_only_in_end_phase=False,
                      rescue_neutrals=True, hunter_direction_restricted_capture=False, progress_limit=6)
MATCH = STD.replace(match_games=2, first_player="random")


def record_decisions(rules, seed, game, policy_names):
    """Play a game; return (state copy, seat, options, action, policy name) at every decision point."""
    out = []

    def observer(st, seat, options, action):
        if options is not None:
            out.append((st.copy(), seat, list(options), action, policy_names[seat]))

    ref.play_game(rules, seed, game, policy_names, observer=observer)
    return out


def permute_hidden(st, rng: random.Random):
    """A copy of ``st`` with the face-down tiles shuffled among the face-down squares; (copy, changed)."""
    out = st.copy()
    squares = [s for s in range(49) if out.grid[s] is not None and not out.grid[s].face_up]
    tiles = [out.grid[s] for s in squares]
    rng.shuffle(tiles)
    for s, t in zip(squares, tiles):
        out.grid[s] = t
        if t.kind == HUNTER:
            t.dir = rng.randrange(4)
    changed = any((out.grid[s].kind, out.grid[s].dir) != (st.grid[s].kind, st.grid[s].dir) for s in squares)
    assert [s for s in range(49) if out.grid[s] is not None and not out.grid[s].face_up] == squares
    assert out.face_down == st.face_down == len(squares)
    return out, changed


class PeekBear:
    """Negative control: reveal the square that really holds a face-down bear."""

    def choose_from_state(self, st, seat, options):
        for a in options:
            if a[0] == ref.REVEAL and st.grid[a[1]].kind == BEAR:
                return a
        return options[0]


class PeekGun:
    """Negative control: reveal a face-down hunter whose hidden gun points north, if any."""

    def choose_from_state(self, st, seat, options):
        for a in options:
            t = st.grid[a[1]]
            if a[0] == ref.REVEAL and t.kind == HUNTER and t.dir == 0:
                return a
        return options[-1]


PEEKERS = {"peek_bear": PeekBear, "peek_gun": PeekGun}


def decide(name, rules, seed, game, st, seat, options):
    """The decision of a fresh policy ``name`` for ``seat`` at ``st`` (views only, except the peekers)."""
    if name in PEEKERS:
        return PEEKERS[name]().choose_from_state(st, seat, options)
    policy = make_policy(name, rules, Stream(seed, game, 1 + seat))
    return policy.choose(ref.observe(st, seat), options)


def check(rules, seed, game, policy_names, name, n_perm=3, stride=1):
    """Run the harness for policy ``name``; returns (decision points checked with a real change, mismatches)."""
    rng = random.Random(seed * 1000 + game)
    changed_points = mismatches = 0
    records = record_decisions(rules, seed, game, policy_names)
    assert records
    for i, (st, seat, options, action, played) in enumerate(records):
        if i % stride:
            continue
        assert ref.legal_actions(st, seat) == options
        if played == name and name != "random":
            assert decide(name, rules, seed, game, st, seat, options) == action  # the harness reproduces play
        base = decide(name, rules, seed, game, st, seat, options)
        view = ref.observe(st, seat)
        any_change = False
        for _ in range(n_perm):
            other, changed = permute_hidden(st, rng)
            any_change |= changed
            assert ref.observe(other, seat) == view
            assert ref.legal_actions(other, seat) == options
            if decide(name, rules, seed, game, other, seat, options) != base:
                mismatches += 1
        changed_points += any_change
    return changed_points, mismatches


CASES = [
    # (rules, seed, game, policies in the two seats)
    (STD, 1, 0, ("greedy", "greedy")),
    (STD, 2, 5, ("greedy", "random")),
    (VARIANT, 3, 1, ("greedy", "greedy")),
    (MATCH, 4, 2, ("random", "greedy")),
]
LOOKAHEAD_CASES = [
    (STD, 1, 0, ("lookahead", "lookahead")),
    (VARIANT, 5, 3, ("lookahead", "greedy")),
    (MATCH, 6, 1, ("random", "lookahead")),
]


@pytest.mark.parametrize("rules, seed, game, names", CASES)
def test_greedy_decides_on_the_view_only(rules, seed, game, names):
    changed, mismatches = check(rules, seed, game, names, "greedy")
    assert changed >= 20  # the permutations really changed the hidden tiles
    assert mismatches == 0


@pytest.mark.parametrize("rules, seed, game, names", LOOKAHEAD_CASES)
def test_lookahead_decides_on_the_view_only(rules, seed, game, names):
    changed, mismatches = check(rules, seed, game, names, "lookahead", n_perm=3)
    assert changed >= 20
    assert mismatches == 0


def test_random_decides_on_the_view_only():
    changed, mismatches = check(STD, 7, 0, ("random", "random"), "random")
    assert changed >= 20 and mismatches == 0


def test_observe_shows_face_down_squares_and_counts_only():
    st = ref.setup(STD, Stream(3, 0, 0))
    view = ref.observe(st, 0)
    assert view.grid.count(ref.FACE_DOWN) == 48 and view.grid[24] is None
    assert view.face_down_counts == [2, 6, 2, 8, 8, 7, 15]
    ref.apply_action(st, 0, (ref.REVEAL, 0, 0, 0))
    t = st.grid[0]
    view = ref.observe(st, 1)
    assert view.grid[0] == (t.kind, t.id, t.dir)
    assert view.face_down_counts[t.kind] == STD.tile_counts[KINDS[t.kind]] - 1
    assert view.grid.count(ref.FACE_DOWN) == 47


@pytest.mark.parametrize("peeker", sorted(PEEKERS))
def test_negative_control_a_peeking_policy_is_caught(peeker):
    caught = 0
    for rules, seed, game, names in CASES[:2]:
        _, mismatches = check(rules, seed, game, names, peeker, n_perm=3, stride=3)
        caught += mismatches
    assert caught >= 1
