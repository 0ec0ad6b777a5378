"""The §7 invariants of ``docs/rules/halali.md``, on every test game.

Two independent checkers: the kernel's own (``check=True`` raises on the
first violated invariant) over many games of every configuration, and a
pure-Python checker that observes every action of reference games.  A
corrupted state must be caught (negative controls).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import toolkit
from halali_configs import CONFIGS
from toolkit.core import rng
from toolkit.games.halali import kernel as K
from toolkit.games.halali import reference as ref
from toolkit.games.halali.rules import COLOUR_OF_KIND, HUNTER, KINDS, TREE


class Checker:
    """Observer for ``reference.play_game``: checks §7 before every action and after the game."""

    def __init__(self, rules):
        self.rules = rules
        self.violations = []
        self.guns = None
        self.homes = None
        self.face_down = None

    def start(self, st):
        self.guns = {t.id: t.dir for t in st.grid if t is not None and t.kind == HUNTER}
        self.homes = {t.id: s for s, t in enumerate(st.grid) if t is not None and t.kind == TREE}
        self.face_down = 48
        if st.grid[ref.CENTRE] is not None:  # §7.2
            self.violations.append("7.2")

    def check(self, st):
        rules = self.rules
        on_board = Counter(t.kind for t in st.grid if t is not None)
        taken = Counter(k for seat in (0, 1) for k in st.captured[seat] + st.rescued[seat])
        expected = Counter({k: rules.tile_counts[KINDS[k]] for k in range(7)})
        if +(on_board + taken) != +expected:  # §7.1
            self.violations.append("7.1")
        down = sum(1 for t in st.grid if t is not None and not t.face_up)
        if down != st.face_down or down > self.face_down:  # §7.3
            self.violations.append("7.3")
        if (st.phase == "end") != (down == 0 and not st.over) and not (st.over and down == 0):
            self.violations.append("7.3 phase")
        self.face_down = down
        for s, t in enumerate(st.grid):  # §7.4
            if t is None:
                continue
            if t.kind == HUNTER and t.dir != self.guns[t.id]:
                self.violations.append("7.4 gun")
            if t.kind == TREE and self.homes[t.id] != s:
                self.violations.append("7.4 tree")
        for seat in (0, 1):  # §7.6
            points = sum(rules.points[KINDS[k]] for k in st.captured[seat] + st.rescued[seat])
            if points != st.score(seat):
                self.violations.append("7.6")
            if st.end_left[seat] < 0:  # §7.9
                self.violations.append("7.9")
        if st.phase == "main" and rules.progress_limit > 0 and st.since_progress > rules.progress_limit:
            self.violations.append("7.10")

    def __call__(self, st, seat, options, action):
        if self.guns is None or st.turns == 0:
            self.start(st)
        self.check(st)
        if action is None or action[0] == ref.REVEAL:
            return
        _, origin, d, n = action
        tile = st.grid[origin]
        owner = COLOUR_OF_KIND[tile.kind]
        if owner not in (st.colour[seat], -1):  # §7.7
            self.violations.append("7.7")
        for i in range(1, n + 1):  # §7.8
            sq = ref.step(origin, d, i)
            if sq < 0:
                break
            other = st.grid[sq]
            if other is not None and (i < n or not other.face_up):
                self.violations.append("7.8")
            if other is not None and i == n and KINDS[other.kind] not in self.rules.capture_matrix[KINDS[tile.kind]]:
                self.violations.append("7.5")


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("policies", [("random", "random"), ("greedy", "random"), ("lookahead", "greedy")])
def test_reference_games_keep_every_invariant(config, policies):
    rules = CONFIGS[config]
    n = 10 if "lookahead" in policies else 30  # 20 and 60 before issue 49
    for g in range(n):
        checker = Checker(rules)
        games = ref.play_game(rules, 13, g, policies, observer=checker)
        checker.check(games[-1])  # the final position (the checker holds the last game's guns and trees)
        for st in games:
            assert st.over and st.end_reason in ref.END_REASONS
        assert checker.violations == [], f"game {g}: {sorted(set(checker.violations))}"


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("policies", ["random,random", "greedy,random", "greedy,greedy"])
def test_kernel_games_keep_every_invariant(config, policies):
    rules = CONFIGS[config]
    df = toolkit.simulate("halali", rules, 3_000, seed=5, policies=policies, check=True, progress=False)
    games = rules.match_games
    # §6 record consistency
    assert (df["turns"] == df["main_turns"] + df["end_turns"]).all()
    # every game reveals all 48 tiles: the end phase and the early end (H-5) both need 0 face down
    assert (df["reveals_0"] + df["reveals_1"] == 48 * games).all()
    assert (df["end_turns"] <= 2 * rules.end_phase_moves * games).all()
    assert (df["result"] != "aborted").all()  # progress_limit > 0 in every configuration: H-7 bounds the game
    for seat in (0, 1):
        points = sum(rules.points[k] * (df[f"captures_{k}_{seat}"] + df[f"rescues_{k}_{seat}"]) for k in KINDS)
        assert (points == df[f"score_{seat}"]).all()
        tiles = sum(df[f"captures_{k}_{seat}"] + df[f"rescues_{k}_{seat}"] for k in KINDS)
        assert (tiles == df[f"tiles_{seat}"]).all()
    diff = df["score_0"] - df["score_1"]
    assert ((diff > 0) <= (df["winner"] == 0)).all() and ((diff < 0) <= (df["winner"] == 1)).all()


def test_kernel_check_catches_corruption():
    """Negative controls: the kernel's §7 checks (``check_end`` on a position, ``check_step`` on an action
    and the position after it) fail on corrupted states and actions."""
    rules = CONFIGS["standard"]
    ip = K.to_kernel(rules)
    st = np.zeros(K.STATE_SIZE, np.int64)
    rs = np.zeros(3, np.uint64)
    rng.seed_streams(rs, 1, 0)
    K.start(ip, st, rs)
    assert K.check_end(ip, st) == 0
    saved = st.copy()
    st[K.S_KIND + 0] = -1  # a tile vanishes
    assert K.check_end(ip, st) == K.INV_TILES
    st[:] = saved
    st[K.S_FACE_DOWN] = 47  # the counter disagrees with the board
    assert K.check_end(ip, st) == K.INV_FACE_DOWN
    st[:] = saved
    st[K.S_SCORE] = 5  # points from nowhere
    assert K.check_end(ip, st) == K.INV_SCORE
    st[:] = saved
    # an action: a reveal, checked against the position before it and the one after it
    seat = K.advance_called(ip, st, rs)
    assert seat >= 0 and K.kind(ip, st) == 1
    option = K.nth(ip, st, 0)
    before = st.copy()
    K.apply_called(ip, st, rs, option)
    assert K.check_step(ip, before, st, option) == 0
    after = st.copy()
    st[K.S_SCORE + 1] = 3
    assert K.check_step(ip, before, st, option) == K.INV_SCORE
    st[:] = after
    risen = before.copy()
    risen[K.S_FACE_DOWN] -= 2  # the face-down count rose from before to after
    assert K.check_step(ip, risen, st, option) == K.INV_FACE_DOWN
    # moves no DP lists: d2 -> d4 over the face-down tile on d3, and a tile of the other colour onto d4
    code = lambda origin, d, dist: 49 + 28 * origin + 7 * d + dist - 1  # noqa: E731
    assert before[K.S_KIND + 17] >= 0 and before[K.S_UP + 17] == 0
    assert K.check_step(ip, before, before, code(10, 0, 2)) == K.INV_FACE_DOWN_PASSED
    colour = before[K.S_COLOUR + seat]
    foreign = [o for o in (17, 23, 25, 31) if K.owner(before[K.S_KIND + o]) == 1 - colour]
    assert foreign, "the set-up has no opposing tile next to d4 (choose another seed)"
    o = foreign[0]
    d = {17: 0, 23: 1, 25: 3, 31: 2}[o]  # towards the empty d4
    assert K.check_step(ip, before, before, code(o, d, 1)) == K.INV_COLOUR


def test_python_checker_catches_corruption():
    from toolkit.core.rng import Stream

    rules = CONFIGS["standard"]
    st = ref.setup(rules, Stream(1, 0, 0))
    checker = Checker(rules)
    checker.start(st)
    checker.check(st)
    assert checker.violations == []
    st.grid[0] = None
    checker.check(st)
    assert "7.1" in checker.violations
