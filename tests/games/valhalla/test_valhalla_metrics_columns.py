"""The design-metric columns of Valhalla: ``decisions``, ``options``, ``lead_changes``, ``decisive_turn``.

- The kernel and the reference agree on them game by game (the full equality
  suite, ``tests/conformance/test_equality.py``, compares every column of ``SPEC.columns``, so
  these four too; here a quick run on each rule path that matters to them:
  the opening turn, optional and forced extra throws, aborted games, the
  lookahead).
- An independent count from outside the reference: every real throw is seen
  through a wrapper round the sticks, and the DP-1 options are listed for it
  with ``legal_moves`` on the position of that moment; DP-2 is seen through a
  wrapper round the policy.  The lookahead's imagined throws never reach the
  sticks, so they cannot be counted.
- The lead measure (minus the pips still to travel) on hand-built positions,
  in both implementations, and a scripted game whose leader is known turn by
  turn.
- Sanity of the four columns on a few hundred kernel games per configuration.
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from valhalla_configs import CONFIGS  # the shared rule configurations, beside this file
from toolkit.core.rng import CHANCE, Stream
from toolkit.games.valhalla import SPEC, kernel, reference
from toolkit.games.valhalla.policies import make_policy
from toolkit.games.valhalla.reference import Game, ScriptedSticks, State, Throw, lead_measure, record_row
from toolkit.games.valhalla.rules import Rules

METRICS = ["decisions", "options", "lead_changes", "decisive_turn"]


def test_metric_columns_follow_plies_in_both_implementations():
    columns = list(kernel.COLUMNS)
    at = columns.index("plies")
    assert columns[at + 1:at + 5] == METRICS
    assert list(SPEC.columns) == columns
    row = record_row(reference.play_game(CONFIGS["standard"], 1, 0))
    assert list(row)[:len(columns)] == columns  # record_row lists the columns in the same order


# ---------------------------------------------------------------- kernel <=> reference


def kernel_rows(rules, seed, n_games, policies):
    return toolkit.simulate("valhalla", rules=rules, n_games=n_games, seed=seed, policies=policies, progress=False)


@pytest.mark.parametrize("config,policies,n_games", [
    ("standard", ("random", "random"), 150),
    ("standard", ("greedy", "random"), 100),
    ("alternative", ("random", "greedy"), 150),  # opening 12 -> 13 on the natural one, optional extra throws (DP-2)
    ("variant_a", ("random", "random"), 150),  # backward attacks, rock hits, dock releases: the measures' updates
    ("variant_b", ("random", "random"), 30),  # forced extra throws, aborted games
    ("variant_c", ("random", "random"), 100),  # the throwless opening turn
    ("variant_d", ("random", "random"), 100),
    ("standard", ("lookahead", "greedy"), 6),
    ("alternative", ("lookahead", "random"), 6),  # the lookahead's DP-2 rollouts
])
def test_kernel_equals_reference_on_metric_columns(config, policies, n_games):
    rules = CONFIGS[config]
    df = kernel_rows(rules, 31, n_games, policies)
    for g in range(n_games):
        expected = SPEC.play_reference(rules, 31, g, policies)
        got = {c: int(df[c].iloc[g]) for c in ["turns", "plies", "winner", *METRICS]}
        assert got == {c: expected[c] for c in got}, f"game {g}"


# ---------------------------------------------------------------- independent count


class CountingGame(Game):
    """A reference game that counts what its sticks and policies see (``game.seat`` is the seat
    whose turn it is, None during the set-up)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen_decisions = 0
        self.seen_options = 0


class CountingSticks:
    """The real sticks; after each throw inside a turn, list that throw's DP-1 options (§5)."""

    def __init__(self, sticks):
        self.sticks = sticks
        self.game = None

    def throw(self):
        throw = self.sticks.throw()
        game = self.game
        if game.seat is not None:  # start throws (V-3) are no decision points
            moves = reference.legal_moves(game.rules, game.state, game.seat, throw)
            if moves:
                game.seen_decisions += 1
                game.seen_options += len(moves)
        return throw


class CountingPolicy:
    """The real policy; every DP-2 it is asked is one decision of two options."""

    def __init__(self, policy):
        self.policy = policy

    def choose_move(self, game, seat, throw, moves):
        return self.policy.choose_move(game, seat, throw, moves)

    def choose_extra_throw(self, game, seat):
        game.seen_decisions += 1
        game.seen_options += 2
        return self.policy.choose_extra_throw(game, seat)


def counted_game(rules, seed, g, policies):
    chance = Stream(seed, g, CHANCE)
    players = [CountingPolicy(make_policy(name, rules, Stream(seed, g, 1 + s)))
               for s, name in enumerate(policies)]
    sticks = CountingSticks(reference.Sticks(rules, chance))
    game = CountingGame(rules, players, sticks, chance=chance)
    sticks.game = game
    record = game.play()
    return game, record


@pytest.mark.parametrize("config,policies,n_games", [
    ("standard", ("random", "random"), 40),
    ("standard", ("greedy", "random"), 30),
    ("alternative", ("random", "greedy"), 40),
    ("alternative", ("lookahead", "random"), 3),
    ("standard", ("lookahead", "lookahead"), 3),
    ("variant_b", ("random", "random"), 10),
    ("variant_c", ("random", "random"), 30),
])
def test_independent_count_of_decisions_and_options(config, policies, n_games):
    rules = CONFIGS[config]
    for g in range(n_games):
        game, record = counted_game(rules, 7, g, policies)
        # the wrappers change nothing in the game
        assert record_row(record) == record_row(reference.play_game(rules, 7, g, policies))
        assert (record.decisions, record.options) == (game.seen_decisions, game.seen_options), f"game {g}"
        assert record.decisions == record.plies  # every §5 DP is a ply in Valhalla
        assert record.options >= record.decisions


# ---------------------------------------------------------------- the lead measure


def kernel_state(rules, state: State) -> np.ndarray:
    st = np.zeros(kernel.STATE_SIZE, np.int64)
    st[kernel.REP] = -1
    for seat in (0, 1):
        for ship, p in enumerate(state.pos[seat]):
            if p == reference.HOME:
                st[kernel.HOME_N + seat] += 1
            elif p == reference.VALHALLA:
                st[kernel.VAL_N + seat] += 1
            elif p == reference.OFF:
                st[kernel.OFF + seat] += 1
            else:
                st[seat] |= 1 << p
                if state.repairing[seat][ship]:
                    st[kernel.REP] = seat
    return st


@pytest.mark.parametrize("seat0,seat1,expected", [
    ([0] * 6, [0] * 6, (-222, -222)),  # everyone at home: 6 x 37 pips
    ([37, 37, 36, 20, 0, 0], [1, 2, 3, 4, 5, 6], (-92, -201)),  # 0 + 0 + 1 + 17 + 37 + 37; 36 + ... + 31
    ([37] * 6, [36, 35, 34, 33, 19, 9], (0, -(1 + 2 + 3 + 4 + 18 + 28))),  # borne off counts 0
])
def test_lead_measure_is_minus_the_pips_to_go(seat0, seat1, expected):
    rules = Rules()
    repairing = (1, 19) if 19 in seat1 else None  # a repairing ship still counts its square
    state = State.from_positions(seat0, seat1, repairing)
    assert (lead_measure(state, 0), lead_measure(state, 1)) == expected
    ip = kernel.to_kernel(rules)[0]
    st = kernel_state(rules, state)
    assert (kernel.lead_measure(ip, st, 0), kernel.lead_measure(ip, st, 1)) == expected


class NoChoice:
    def choose_move(self, game, seat, throw, moves):
        raise AssertionError("every DP-1 of this script has one option")

    def choose_extra_throw(self, game, seat):
        raise AssertionError("no extra throws in this script")


def test_scripted_race_lead_changes_and_decisive_turn():
    """One ship each; seat 0 on 31 (6 pips), seat 1 on 33 (4 pips), seat 0 to move.

    turn 1  seat 0 throws 4: 31 -> 35     pips 2 v 4   seat 0 leads
    turn 2  seat 1 throws 3: 33 -> 36     pips 2 v 1   seat 1 leads (change 1)
    turn 3  seat 0 throws 1: 35 -> 36     pips 1 v 1   tied
    turn 4  seat 1 throws 0: no move      pips 1 v 1   tied (no DP)
    turn 5  seat 0 throws 2: 36 -> off    pips 0 v 1   seat 0 leads (change 2) and wins
    """
    rules = Rules(ships_per_player=1, start_player_rule="seat0")
    seen = []
    game = Game(rules, [NoChoice(), NoChoice()],
                ScriptedSticks([Throw(4, False), Throw(3, False), Throw(1, True), Throw(0, False), Throw(2, False)]),
                state=State.from_positions([31], [33]))
    original = game._turn_ended

    def spy():
        seen.append((lead_measure(game.state, 0), lead_measure(game.state, 1)))
        original()

    game._turn_ended = spy
    record = game.play()
    assert seen == [(-2, -4), (-2, -1), (-1, -1), (-1, -1), (0, -1)]
    assert record.winner == 0 and record.turns == 5
    assert (record.decisions, record.options) == (4, 4)  # four single-option DP-1s; the 0 is none
    assert (record.lead_changes, record.decisive_turn) == (2, 5)


def test_opening_turn_is_reported():
    """``first_natural_one``: turn 1 is the automatic opening, and it is a turn of the lead tracker."""
    rules = Rules(ships_per_player=1)
    game = Game(rules, [NoChoice(), NoChoice()],
                ScriptedSticks([Throw(2, False), Throw(1, True), Throw(0, False)]))
    game.setup()  # seat 0 throws a 2, seat 1 the natural one: seat 1 enters square 1
    assert game.record.turns == 1 and game.lead.turn == 1
    assert game.lead.current == 1  # 36 pips to 37


# ---------------------------------------------------------------- sanity on kernel games


@pytest.mark.parametrize("config,policies", [
    ("standard", "random,random"),
    ("standard", "greedy,greedy"),
    ("alternative", "random,random"),
    ("variant_b", "random,random"),
    ("variant_d", "greedy,random"),
])
def test_metric_columns_are_sane(config, policies):
    df = kernel_rows(CONFIGS[config], 5, 400, policies)
    assert (df["decisive_turn"] >= 0).all() and (df["decisive_turn"] <= df["turns"]).all()
    assert ((df["decisive_turn"] == 0) == (df["winner"] == -1)).all()
    assert (df["options"] >= df["decisions"]).all()
    assert (df["decisions"] >= 1).all()
    assert (df["lead_changes"] >= 0).all()
    assert (df["decisions"] == df["plies"]).all()
    if config == "variant_b":
        assert (df["winner"] == -1).any()  # the aborted path is exercised
