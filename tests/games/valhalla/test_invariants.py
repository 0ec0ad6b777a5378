"""Spec ``docs/rules/valhalla.md`` §7 invariants, checked on every game of test runs.

Three independent layers:

(a) the kernel's own debug checks: ``simulate(..., check=True)`` raises
    ``AssertionError`` on the first §7.1-7.8 violation; 20,000 games per
    configuration;
(b) an observer over the pure-Python reference, written here from the spec
    (not from either implementation), that checks §7.1-7.7 after every move
    resolution on a few hundred games per configuration, and §7.8 from the
    record and the throws it saw;
(c) record-level checks on the kernel frames: §7.9 (turn alternation) in the
    exact form derived below, §6 field consistency, and the ply count of §5.

§7.9 derived from §6.  Turns alternate between seats, the start seat playing
turns 1, 3, 5, ... (extra throws stay inside a turn), so over ``turns`` turns
the start seat plays ceil(turns / 2) and the other floor(turns / 2).  Every
turn makes one throw plus the extra throws taken in it, except a throwless
turn 1 (``alternating_blocks`` with a ``random`` or ``seat0`` start, whose
turn 1 is only the automatic 12 -> 13).  The opening natural one of
``first_natural_one`` is a throw of turn 1 (§6 ``throws``).  Hence, per seat,

    throws[s] = turns_played[s] - throwless_opening[s] + extra_throws[s],

and with extra throws off (``extra_throws = 0``) that is exactly strict
alternation: throws[start] - throws[other] is turns % 2 (minus 1 for a
throwless opening).
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pytest

import toolkit
from valhalla_configs import CONFIGS  # the shared rule configurations, beside this file
from toolkit.games.valhalla import reference
from toolkit.games.valhalla.rules import Rules

HOME, VALHALLA, OFF = 0, 36, 37

RUNS = [  # (config, policies)
    ("standard", ("random", "random")),
    ("standard", ("greedy", "random")),
    ("alternative", ("random", "random")),
    ("alternative", ("greedy", "random")),
    ("variant_a", ("random", "random")),
    ("variant_b", ("random", "random")),
    ("variant_c", ("random", "greedy")),
    ("variant_d", ("random", "random")),
]
RUN_IDS = [f"{c}-{p[0]}-{p[1]}" for c, p in RUNS]


def throwless_opening(rules) -> bool:
    return rules.setup == "alternating_blocks" and rules.start_player_rule != "first_natural_one"


def home_is_monotone(rules) -> bool:
    """§7.6 applies: entry squares 1..5 are safe and no throw exceeds 5."""
    return set(range(1, 6)) <= set(rules.safe_squares) and rules.zero_runes_value <= 5


def allowed_values(rules) -> set:
    """§3: the range of throw values of the mode."""
    if rules.throw_mode == "simplified":
        return {1, 2, 3, 4, rules.zero_runes_value}
    return {rules.hagalaz_alone_value, 0, 1, 2, 3, 4, rules.zero_runes_value}


def gate_allows(rules, pos_before, off_before, seat) -> bool:
    """V-7, from the spec: may ``seat`` bear off in the position before the move?"""
    if rules.bear_off_gate == "none":
        return True
    if rules.bear_off_gate == "first_only" and off_before > 0:
        return True
    if any(1 <= p <= 12 for p in pos_before):
        return False
    return not (rules.unentered_count_as_row1 and HOME in pos_before)


# ---------------------------------------------------------------- (a) kernel check mode


@functools.lru_cache(maxsize=None)
def checked_frame(config, policies) -> pd.DataFrame:
    """20,000 games with the kernel's §7 checks on (also the frames of the record-level tests)."""
    return toolkit.simulate("valhalla", rules=CONFIGS[config], n_games=20_000, seed=101, policies=policies,
                            check=True, progress=False)


@pytest.mark.parametrize("config,policies", RUNS, ids=RUN_IDS)
def test_kernel_check_mode(config, policies):
    df = checked_frame(config, policies)
    assert len(df) == 20_000


@pytest.mark.parametrize("config", ["standard", "alternative", "variant_a"])
def test_kernel_check_mode_lookahead(config):
    toolkit.simulate("valhalla", rules=CONFIGS[config], n_games=1_000, seed=102,
                     policies=("lookahead", "greedy"), check=True, progress=False)


# ---------------------------------------------------------------- (b) reference observer


class Observer:
    """Checks §7.1-7.7 after every move resolution of one reference game."""

    def __init__(self, rules):
        self.rules = rules
        self.previous = None  # (pos, repairing) after the last resolution, or the setup
        self.moves = [0, 0]  # moves made after a throw, per seat (§7.8)
        self.events = 0

    def mover(self, game) -> int:
        # turns alternate, the start seat playing the odd turns (see the module docstring)
        start = game.record.start_seat
        return start if game.record.turns % 2 == 1 else 1 - start

    def initial(self, game):
        """The position before turn 1 (setup of V-3.1)."""
        rules, n = self.rules, self.rules.ships_per_player
        start = game.record.start_seat
        if rules.setup == "alternating_blocks":
            pos = {start: [7, 8, 9, 10, 11, 12], 1 - start: [1, 2, 3, 4, 5, 6]}
            return [sorted(pos[0]), sorted(pos[1])]
        return [[HOME] * n, [HOME] * n]

    def __call__(self, game, event):
        rules, state = self.rules, game.state
        self.events += 1
        seat = self.mover(game)
        if event == "opening":
            assert game.record.turns == 1
            if rules.start_player_rule == "first_natural_one":
                self.moves[seat] += 1  # the opening natural one is a throw with a move
            before = self.initial(game)
        else:
            assert event == "move"
            self.moves[seat] += 1
            before = self.previous if self.previous is not None else self.initial(game)  # no opening move
        n = rules.ships_per_player
        where = f"turn {game.record.turns}, event {event}, pos {state.pos}"
        # §7.1 ship count and range
        for s in (0, 1):
            assert len(state.pos[s]) == n, where
            assert all(0 <= p <= OFF for p in state.pos[s]), where
        # §7.2 single occupancy of 1..35
        on_track = [p for s in (0, 1) for p in state.pos[s] if 1 <= p <= 35]
        assert len(on_track) == len(set(on_track)), where
        # §7.3 the rock is empty
        assert rules.rock_square not in on_track, where
        # §7.4 at most one repairing ship, on the dock
        repairing = [(s, p) for s in (0, 1) for p, r in zip(state.pos[s], state.repairing[s]) if r]
        assert len(repairing) <= 1, where
        assert all(p == rules.dock_square for _, p in repairing), where
        for s in (0, 1):
            off_before, off_now = before[s].count(OFF), state.pos[s].count(OFF)
            # §7.5 borne-off count never decreases
            assert off_now >= off_before, where
            # §7.6 home count never increases (under its conditions)
            if home_is_monotone(rules):
                assert state.pos[s].count(HOME) <= before[s].count(HOME), where
            # §7.7 a ship reaches 37 only through an open gate
            if off_now > off_before:
                assert s == seat and off_now == off_before + 1, where
                assert gate_allows(rules, before[s], off_before, s), f"gate closed: {before[s]} -> {where}"
        self.previous = [list(state.pos[0]), list(state.pos[1])]


@pytest.fixture
def throw_log(monkeypatch):
    """Every value the reference's sticks produce (the §7.8 value-range check)."""
    log = []
    original = reference.Sticks.throw

    def logged(self):
        throw = original(self)
        log.append(throw.value)
        return throw

    monkeypatch.setattr(reference.Sticks, "throw", logged)
    return log


@pytest.mark.parametrize("config,policies", RUNS, ids=RUN_IDS)
def test_reference_observer(config, policies, throw_log):
    rules = CONFIGS[config]
    n_games = 100  # 200 before issue 49, which caught no planted bug more
    values = allowed_values(rules)
    total_events = 0
    for g in range(n_games):
        throw_log.clear()
        observer = Observer(rules)
        record = reference.play_game(rules, 303, g, policies, observer=observer)
        total_events += observer.events
        # §7.8 throws = moves made after a throw + forfeits, per seat
        for s in (0, 1):
            assert record.throws[s] == observer.moves[s] + record.forfeits[s], (g, s)
        # every throw is one stick throw, in the range of the mode
        assert len(throw_log) == record.start_throws + record.throws[0] + record.throws[1], g
        assert set(throw_log) <= values, (g, set(throw_log) - values)
        # the record agrees with the final position seen by the observer
        final = observer.previous
        assert record.score == [final[0].count(OFF), final[1].count(OFF)], g
        if record.result == "win":
            assert record.score[record.winner] == rules.ships_per_player, g
            assert record.score[1 - record.winner] < rules.ships_per_player, g
        else:
            assert record.winner == -1
    assert total_events > n_games  # the observer really ran


class _FakeRecord:
    def __init__(self, turns=2, start_seat=0):
        self.turns, self.start_seat = turns, start_seat


class _FakeGame:
    def __init__(self, pos0, pos1, repairing=None, turns=2):
        self.state = reference.State.from_positions(pos0, pos1, repairing=repairing)
        self.record = _FakeRecord(turns)


@pytest.mark.parametrize("before,after,repairing", [
    (([0] * 6, [0] * 6), ([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]), None),  # §7.2 two ships on 1
    (([0] * 6, [0] * 6), ([30, 0, 0, 0, 0, 0], [0] * 6), None),  # §7.3 a ship on the rock
    (([0] * 6, [0] * 6), ([18, 0, 0, 0, 0, 0], [0] * 6), (0, 18)),  # §7.4 repairing off the dock
    (([37, 36, 36, 36, 36, 36], [0] * 6), ([36] * 6, [0] * 6), None),  # §7.5 a ship came back
    (([1, 0, 0, 0, 0, 0], [6, 0, 0, 0, 0, 0]), ([6, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]), None),  # §7.6
    (([36, 36, 36, 36, 36, 5], [0] * 6), ([37, 36, 36, 36, 36, 5], [0] * 6), None),  # §7.7 gate closed
    (([0] * 6, [0] * 6), ([0] * 5, [0] * 6), None),  # §7.1 a ship lost
])
def test_observer_detects_violations(before, after, repairing):
    """The observer is not vacuous: each hand-made violation is caught."""
    observer = Observer(Rules())
    observer.previous = [list(before[0]), list(before[1])]
    game = _FakeGame(after[0], after[1], repairing=repairing, turns=1 if after[0][0] == 37 else 2)
    game.record.start_seat = 0
    with pytest.raises(AssertionError):
        observer(game, "move")


def test_observer_accepts_legal_move():
    observer = Observer(Rules())
    observer.previous = [[36, 36, 36, 36, 36, 36], [0] * 6]
    game = _FakeGame([37, 36, 36, 36, 36, 36], [0] * 6, turns=1)
    observer(game, "move")


# ---------------------------------------------------------------- (c) record-level checks on kernel frames


@pytest.fixture(scope="module", params=RUNS, ids=RUN_IDS)
def frame(request):
    config, policies = request.param
    return CONFIGS[config], policies, checked_frame(config, policies)


def _turns_per_seat(df):
    start = df["start_seat"].to_numpy()
    odd = (df["turns"].to_numpy() + 1) // 2  # turns 1, 3, 5, ... are the start seat's
    even = df["turns"].to_numpy() // 2
    played = np.empty((len(df), 2), np.int64)
    played[np.arange(len(df)), start] = odd
    played[np.arange(len(df)), 1 - start] = even
    return played


def test_s7_9_turns_alternate(frame):
    """§7.9 in the exact per-seat form derived in the module docstring."""
    rules, _, df = frame
    played = _turns_per_seat(df)
    start = df["start_seat"].to_numpy()
    throwless = np.zeros_like(played)
    if throwless_opening(rules):
        throwless[np.arange(len(df)), start] = 1
    for s in (0, 1):
        expected = played[:, s] - throwless[:, s] + df[f"extra_throws_{s}"].to_numpy()
        bad = np.flatnonzero(df[f"throws_{s}"].to_numpy() != expected)
        assert bad.size == 0, f"seat {s}: game {bad[:5]} throws {df[f'throws_{s}'].to_numpy()[bad[:5]]}"
    if not rules.extra_throw_enabled:
        assert (df["extra_throws_0"] == 0).all() and (df["extra_throws_1"] == 0).all()
        diff = np.where(start == 0, df["throws_0"] - df["throws_1"], df["throws_1"] - df["throws_0"])
        expected = df["turns"].to_numpy() % 2 - throwless.sum(axis=1)
        np.testing.assert_array_equal(diff, expected)


def test_s6_fields_consistent(frame):
    rules, _, df = frame
    n = rules.ships_per_player
    won = df["result"] == "win"
    assert (won == (df["winner"] >= 0)).all()
    assert ((df["win_0"] + df["win_1"]) == won.astype(int)).all()
    for s in (0, 1):
        assert ((df["winner"] == s) == (df[f"win_{s}"] == 1)).all()
        assert df[f"score_{s}"].between(0, n).all()
        assert (df.loc[df["winner"] == s, f"score_{s}"] == n).all()
        assert (df.loc[df["winner"] == s, f"score_{1 - s}"] < n).all()
        for f in ("captures", "rock_hits", "dock_releases", "extra_throws", "backward_moves", "forfeits"):
            assert (df[f"{f}_{s}"] >= 0).all(), f
            assert (df[f"{f}_{s}"] <= df[f"throws_{s}"]).all(), f
        # a ship released from the dock was first put there by the rock (of either seat)
    assert (df["dock_releases_0"] + df["dock_releases_1"] <= df["rock_hits_0"] + df["rock_hits_1"]).all()
    assert (df["turns"] <= rules.max_turns).all()
    # V-8: a game is aborted at max_turns, or earlier only by a turn of 1,000 throws
    early = df[~won & (df["turns"] < rules.max_turns)]
    assert (early[["throws_0", "throws_1"]].max(axis=1) >= 1_000).all()
    assert df["start_seat"].isin([0, 1]).all()
    if rules.start_player_rule == "seat0":
        assert (df["start_seat"] == 0).all()
    if rules.start_player_rule != "first_natural_one":
        assert (df["start_throws"] == 0).all()
    else:  # the start throws alternate from seat 0, so their count fixes the start seat (V-3.2)
        assert ((df["start_throws"] % 2) == df["start_seat"]).all()
    if rules.backward_rule == "none" and rules.hagalaz_alone_value == 0:
        assert (df["backward_moves_0"] + df["backward_moves_1"] == 0).all()


def test_s5_ply_count(frame):
    """§5: one ply per DP-1 (a move after a throw) and per DP-2 presented."""
    rules, policies, df = frame
    opening = 1 if rules.start_player_rule == "first_natural_one" else 0  # automatic, not a DP
    moves = (df["throws_0"] - df["forfeits_0"]) + (df["throws_1"] - df["forfeits_1"]) - opening
    dp2 = df["plies"] - moves
    extras = df["extra_throws_0"] + df["extra_throws_1"]
    if not (rules.extra_throw_enabled and rules.extra_throw_optional):
        assert (dp2 == 0).all()
    else:
        assert (dp2 >= extras).all()  # every extra throw taken was offered
        if set(policies) == {"greedy"}:  # greedy always throws again
            assert (dp2 == extras).all()
