"""The design-metric columns of Halali: ``decisions``, ``options``, ``lead_changes``, ``decisive_turn``.

- The kernel and the reference agree on them game by game (the full equality
  suite, ``tests/conformance/test_equality.py``, compares every column of
  ``SPEC.columns``, so these four too; here a quick run per configuration,
  the two-game match and the lookahead included).
- An independent count from outside the reference: the observer of
  ``play_game`` sees every decision point (and every pass) and lists the
  options again with ``legal_actions`` on a copy of the position; a wrapper
  round each policy counts the times it is asked.  The lead changes and the
  decisive turn are recomputed from the scores the observer saw, with the
  definition of ``core.lead`` written out again here.
- The lead measure (the points scored so far) on a hand-built position, in a
  scripted end phase, and in the kernel along a replayed reference game.
- Sanity of the four columns on a few hundred kernel games per configuration.
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from halali_configs import CONFIGS  # the shared rule configurations, beside this file
from toolkit.core import rng
from toolkit.games.halali import SPEC, policies
from toolkit.games.halali import kernel as K
from toolkit.games.halali import reference as ref
from toolkit.games.halali.rules import BEAR, BLUE, BROWN, DUCK, FOX, HUNTER, LUMBERJACK, TREE, Rules

METRICS = ["decisions", "options", "lead_changes", "decisive_turn"]
N, E, S, W = range(4)


def test_metric_columns_follow_plies_in_both_implementations():
    columns = list(K.COLUMNS)
    at = columns.index("plies")
    assert columns[at + 1:at + 5] == METRICS
    row = ref.record_row(CONFIGS["standard"], ref.play_game(CONFIGS["standard"], 1, 0))
    assert set(row) == set(columns)


# ---------------------------------------------------------------- kernel <=> reference


def kernel_rows(rules, seed, n_games, policies_):
    return toolkit.simulate("halali", rules=rules, n_games=n_games, seed=seed, policies=policies_, progress=False,
                            check=True)


@pytest.mark.parametrize("config,pols,n_games", [
    ("standard", ("random", "random"), 100),
    ("standard", ("greedy", "random"), 60),
    ("variant_a", ("random", "greedy"), 40),  # two-game matches: the lead runs through both games
    ("variant_b", ("random", "random"), 60),  # end-phase passes
    ("variant_c", ("random", "random"), 60),
    ("standard", ("lookahead", "greedy"), 10),
])
def test_kernel_equals_reference_on_metric_columns(config, pols, n_games):
    rules = CONFIGS[config]
    df = kernel_rows(rules, 17, n_games, pols)
    for g in range(n_games):
        expected = SPEC.play_reference(rules, 17, g, pols)
        got = {c: int(df[c].iloc[g]) for c in ["turns", "plies", "winner", *METRICS]}
        assert got == {c: expected[c] for c in got}, f"game {g}"


# ---------------------------------------------------------------- independent count


def lead_by_definition(values, winner):
    """``(lead_changes, decisive_turn)`` straight from the definition (``core.lead``'s docstring)."""
    leaders = []
    for v in values:
        top = max(v)
        leaders.append(v.index(top) if v.count(top) == 1 else -1)
    changes, last = 0, -1
    for who in leaders:
        if who != -1:
            changes += last != -1 and who != last
            last = who
    if winner < 0 or not leaders:
        return changes, 0
    if leaders[-1] != winner:
        return changes, len(leaders)
    t = len(leaders)
    while t > 1 and leaders[t - 2] == winner:
        t -= 1
    return changes, t


class CountingPolicy:
    def __init__(self, policy, counts):
        self.policy, self.counts = policy, counts

    def choose(self, view, options):
        self.counts["asked"] += 1
        return self.policy.choose(view, options)


def observed_game(monkeypatch, rules, seed, g, names):
    counts = {"asked": 0, "decisions": 0, "options": 0, "turns": 0}
    scores = []  # match points after every turn
    earlier = [0, 0]
    pending = []  # a decision is scored once its action is applied: at the next observation or the end
    current = {}

    def flush():
        while pending:
            st = pending.pop()
            scores.append([earlier[s] + st.score(s) for s in (0, 1)])

    def observer(st, seat, options, action):
        if current.get("st") is not None and current["st"] is not st:  # a new game of the match began
            flush()
            earlier[0] += current["st"].score(0)
            earlier[1] += current["st"].score(1)
        current["st"] = st
        flush()
        counts["turns"] += 1
        if options is None:  # an automatic pass: seen after it, no decision point
            scores.append([earlier[s] + st.score(s) for s in (0, 1)])
            return
        counts["decisions"] += 1
        again = ref.legal_actions(st.copy(), seat)
        assert again == options
        counts["options"] += len(again)
        pending.append(st)

    real = policies.make_policy
    with monkeypatch.context() as patch:
        patch.setattr(policies, "make_policy",
                      lambda name, rules_, stream: CountingPolicy(real(name, rules_, stream), counts))
        games = ref.play_game(rules, seed, g, names, observer=observer)
    flush()
    return counts, scores, ref.record_row(rules, games)


@pytest.mark.parametrize("config,pols,n_games", [
    ("standard", ("random", "random"), 15),
    ("standard", ("greedy", "random"), 10),
    ("standard", ("lookahead", "random"), 3),
    ("variant_a", ("random", "random"), 6),
    ("variant_b", ("greedy", "random"), 10),
])
def test_independent_count_of_decisions_options_and_lead(monkeypatch, config, pols, n_games):
    rules = CONFIGS[config]
    for g in range(n_games):
        counts, scores, row = observed_game(monkeypatch, rules, 3, g, pols)
        assert row == SPEC.play_reference(rules, 3, g, pols)  # the wrappers change nothing
        assert row["decisions"] == counts["decisions"] == counts["asked"], f"game {g}"
        assert row["options"] == counts["options"], f"game {g}"
        assert row["turns"] == counts["turns"] == len(scores)
        assert scores[-1] == [row["score_0"], row["score_1"]]
        assert (row["lead_changes"], row["decisive_turn"]) == lead_by_definition(scores, row["winner"])


# ---------------------------------------------------------------- the lead measure


def test_lead_measure_is_the_points_so_far():
    rules = Rules()
    st = ref.State(rules=rules, grid=[None] * 49, colour=[BLUE, BROWN], to_move=0)
    st.captured = [[HUNTER, LUMBERJACK, DUCK], [BEAR, TREE, TREE]]
    st.rescued = [[FOX], []]
    assert (ref.lead_measure(st, 0), ref.lead_measure(st, 1)) == (5 + 5 + 2 + 5, 10 + 2 + 2)
    assert (ref.lead_measure(st, 0, 3), ref.lead_measure(st, 1, 9)) == (20, 23)  # plus the earlier game


def _tile(kind, tid, gun=-1):
    return ref.Tile(kind, tid, face_up=True, dir=gun)


class Script:
    """Plays the given actions in order (both seats share the list)."""

    plan: list = []

    def __init__(self, *args):
        pass

    def choose(self, view, options):
        action = Script.plan.pop(0)
        assert action in options
        return action


def test_scripted_end_phase_lead(monkeypatch):
    """End phase, two actions each, all tiles face up; Blue (seat 0) to move.

    Blue: fox d2, bear b2.  Brown: hunter b3 (gun S), lumberjack f6.  A duck on d5.

    turn 1  Blue fox d2 -> d5 takes the duck      2 : 0    Blue leads
    turn 2  Brown hunter b3 shoots S, takes bear  2 : 10   Brown leads (one change)
    turn 3  Blue fox d5 -> out through d7         7 : 10   Brown; Blue has no tile left: early end (H-5)
    """
    rules = Rules(end_phase_moves=2)
    grid = [None] * 49
    for name, tile in {"d2": _tile(FOX, 0), "b2": _tile(BEAR, 1), "b3": _tile(HUNTER, 2, S),
                       "f6": _tile(LUMBERJACK, 3), "d5": _tile(DUCK, 4)}.items():
        grid[ref.parse_square(name)] = tile
    st = ref.State(rules=rules, grid=grid, colour=[BLUE, BROWN], to_move=0, phase="end", end_left=[2, 2],
                   face_down=0)
    monkeypatch.setattr(ref, "setup", lambda rules_, chance, colour0=BLUE: st.copy())
    monkeypatch.setattr(policies, "make_policy", lambda name, rules_, stream: Script())
    Script.plan = [(ref.MOVE, ref.parse_square("d2"), N, 3), (ref.MOVE, ref.parse_square("b3"), S, 1),
                   (ref.MOVE, ref.parse_square("d5"), N, 3)]
    games = ref.play_game(rules, 1, 0)
    row = ref.record_row(rules, games)
    assert not Script.plan and games[0].end_reason == "early_end"
    assert (row["score_0"], row["score_1"], row["winner"], row["turns"]) == (7, 10, 1, 3)
    assert row["decisions"] == 3
    assert (row["lead_changes"], row["decisive_turn"]) == (1, 2)


@pytest.mark.parametrize("pols", [("random", "random"), ("greedy", "greedy")])
def test_kernel_lead_measure_along_a_replayed_game(pols):
    """The kernel's lead measure equals the reference's after every action of a reference game."""
    rules = CONFIGS["standard"]
    seed, game = 11, 2
    actions = []
    ref.play_game(rules, seed, game, pols,
                  observer=lambda st, seat, options, action: actions.append((seat, action)))
    ip = K.to_kernel(rules)
    st = np.zeros(K.STATE_SIZE, np.int64)
    rs = np.zeros(3, np.uint64)
    rng.seed_streams(rs, seed, game)
    K.start(ip, st, rs)
    mirror = ref.setup(rules, ref.Stream(seed, game, ref.CHANCE), BLUE)
    for seat, action in actions:
        if action is None:
            K.apply_pass(ip, st, seat)
            ref.apply_pass(mirror, seat)
        else:
            K.apply_action(ip, st, seat, ref.action_code(action))
            ref.apply_action(mirror, seat, action)
        for s in (0, 1):
            assert K.lead_measure(st, s, 7) == ref.lead_measure(mirror, s, 7)
    assert max(mirror.score(0), mirror.score(1)) > 0 and st[K.S_OVER] == 1


# ---------------------------------------------------------------- sanity on kernel games


@pytest.mark.parametrize("config,pols", [
    ("standard", "random,random"),
    ("standard", "greedy,greedy"),
    ("variant_a", "random,random"),
    ("variant_b", "greedy,random"),
    ("variant_c", "random,greedy"),
])
def test_metric_columns_are_sane(config, pols):
    df = kernel_rows(CONFIGS[config], 5, 300, pols)
    assert (df["decisive_turn"] >= 0).all() and (df["decisive_turn"] <= df["turns"]).all()
    assert ((df["decisive_turn"] == 0) == (df["winner"] == -1)).all()
    assert (df["options"] >= df["decisions"]).all()
    assert (df["decisions"] >= 1).all()
    assert (df["lead_changes"] >= 0).all()
    assert (df["decisions"] == df["plies"]).all()
    assert (df["decisions"] == df["turns"] - df["passes_0"] - df["passes_1"]).all()  # a pass is no decision
