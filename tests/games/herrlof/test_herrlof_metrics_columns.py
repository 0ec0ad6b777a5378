"""The design-metric columns of Herrlof: ``decisions``, ``options``, ``lead_changes``, ``decisive_turn``.

Kernel and reference agree on them game by game in ``tests/conformance/test_equality.py``
(which compares every column of ``SPEC.columns``).  Here they are checked
against independent counts:

- ``decisions`` / ``options`` against an observer that sees every decision
  point of the real game (the ``lookahead`` policy's rollouts never reach it);
- the lead measure (each seat's score of the hands already scored, spec R-2.4:
  bids are secret until the hand is scored) on hand-built positions in both
  implementations;
- ``lead_changes`` / ``decisive_turn`` of two-hand games against a formula
  worked out by hand from the two hands' points (a turn is one trick, §6; the
  hand's last trick is reported once the hand is scored);
- sanity bounds on a few hundred kernel games.
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from herrlof_configs import CONFIGS  # the shared rule configurations, beside this file
from toolkit.core.rng import Stream
from toolkit.games.herrlof import SPEC, round_log
from toolkit.games.herrlof import kernel as K
from toolkit.games.herrlof import reference as ref
from toolkit.games.herrlof.rules import Rules

NEW = ("decisions", "options", "lead_changes", "decisive_turn")


def test_columns_follow_plies_in_both_implementations():
    cols = list(K.COLUMNS)
    i = cols.index("plies")
    assert cols[i + 1:i + 5] == list(NEW)
    assert list(SPEC.result_columns(Rules())) == cols
    row = ref.record_row(ref.play_game(Rules(max_rounds=1), 1, 0))
    assert list(row) == cols  # record_row lists the columns in the kernel's order
    for name, c in (("decisions", K.C_DECISIONS), ("options", K.C_OPTIONS), ("lead_changes", K.C_LEAD_CHANGES),
                    ("decisive_turn", K.C_DECISIVE_TURN), ("destroyed_tricks", K.C_DESTROYED),
                    ("score_0", K.C_SEAT), ("plies_0", K.C_SEAT_PLIES)):
        assert cols[c] == name


# ---------------------------------------------------------------------- decisions and options


class Counter:
    """Counts the decision points of a real game from outside, by kind."""

    def __init__(self, rules):
        self.rules = rules
        self.decisions = 0
        self.options = 0
        self.by_kind = {}

    def __call__(self, st, d, option):
        if d is None:  # a scored round
            return
        n = len(d.options)
        assert option in d.options
        # the option lists of §5, checked independently of the reference's code
        if d.kind == ref.DP_BID:
            assert d.options == list(range(self.rules.hand_size + 1))
        elif d.kind in (ref.DP_TRADE, ref.DP_STEAL, ref.DP_SWAP):
            assert d.options == [ref.YES, ref.DECLINE]
        else:  # card, trade discard, give: distinct faces of the hand, canonical order, at least one
            hand = st.hands[d.seat]
            assert 1 <= n <= len(set(hand)) and d.options == sorted(set(d.options)) and set(d.options) <= set(hand)
            if d.kind in (ref.DP_TRADE_DISCARD, ref.DP_GIVE) or not st.trick:
                assert d.options == sorted(set(hand))
        self.decisions += 1
        self.options += n
        self.by_kind[d.kind] = self.by_kind.get(d.kind, 0) + 1


@pytest.mark.parametrize("config,policies,n_games", [
    ("standard", ("random", "random"), 40),
    ("standard", ("greedy", "random"), 40),
    ("publisher", ("greedy", "greedy"), 20),
    ("variant_a", ("random", "greedy"), 30),
    ("variant_b", ("random", "random"), 30),
    ("variant_c", ("greedy", "random"), 20),
])
def test_decisions_and_options_equal_an_outside_count(config, policies, n_games):
    rules = CONFIGS[config]
    kinds = set()
    for g in range(n_games):
        seen = Counter(rules)
        record = ref.play_game(rules, 11, g, policies, observer=seen)
        row = ref.record_row(record)
        assert row["decisions"] == seen.decisions
        assert row["options"] == seen.options
        assert row["decisions"] == row["plies"] == row["plies_0"] + row["plies_1"]  # §5: every DP is a ply
        kinds |= set(seen.by_kind)
    assert {ref.DP_BID, ref.DP_CARD} <= kinds


@pytest.mark.parametrize("policies", [("lookahead:2", "random"), ("greedy", "lookahead:3")])
def test_lookahead_rollouts_are_not_counted(policies):
    """The rollouts play many decision points on copies; only the real game's count."""
    rules = Rules(max_rounds=1)
    for g in range(3):
        seen = Counter(rules)
        row = ref.record_row(ref.play_game(rules, 12, g, policies, observer=seen))
        assert (row["decisions"], row["options"]) == (seen.decisions, seen.options)
        assert row["decisions"] == row["plies"]
    # and the kernel plays the same games (its rollouts do not count either)
    df = toolkit.simulate("herrlof", rules=rules, n_games=3, seed=12, policies=policies, progress=False)
    expected = [ref.record_row(ref.play_game(rules, 12, g, policies)) for g in range(3)]
    for c in NEW:
        assert df[c].tolist() == [e[c] for e in expected]


def test_single_option_decision_points_count():
    """§5: a DP with one option is still a DP, e.g. the last card of a hand (DP-2)."""
    rules = Rules(max_rounds=1, effect_1="off", effect_3="off", effect_6="off")
    seen = Counter(rules)
    singles = []

    def observer(st, d, option):
        seen(st, d, option)
        if d is not None and len(d.options) == 1:
            singles.append(d)

    row = ref.record_row(ref.play_game(rules, 3, 0, observer=observer))
    # 2 bids + 2 cards per trick, nothing else with the effects off
    assert row["decisions"] == 2 + 2 * rules.hand_size == seen.decisions
    assert len(singles) >= 2  # at least the two last cards of the hand
    assert row["options"] >= row["decisions"]


# ---------------------------------------------------------------------- the lead measure


def _scored_position(scores, won=((), ())):
    """A state in the middle of a hand, earlier hands scored as ``scores``, ``won`` this hand's piles."""
    rules = Rules()
    c = ref.Cards(rules)
    st = ref.new_round_state(rules, c.deck(), dealer=1)  # unshuffled: hands 1a..6b and 7b..4d
    st.bids, st.bid_turn, st.phase = [5, 0], 2, "lead"
    st.scores = list(scores)
    for seat in (0, 1):
        for text in won[seat]:  # tricks moved from the hands to the piles, keeping the hands equal
            lead, follow = (c.parse(t) for t in text.split())
            st.hands[0].remove(lead if lead in st.hands[0] else follow)
            st.hands[1].remove(follow if follow in st.hands[1] else lead)
            st.won[seat].append((lead, follow))
            st.tricks_played += 1
    return st


def _kernel_measure(st):
    """The kernel's lead_measure on a state array holding the same scores and piles."""
    k = np.zeros(K.STATE_SIZE, np.int64)
    for seat in (0, 1):
        k[K.S_SCORE + seat] = st.scores[seat]
        k[K.S_WON_N + seat] = len(st.won[seat])
        k[K.S_BID + seat] = st.bids[seat]
    values = np.full(2, -99, np.int64)
    K.lead_measure(k, values)
    return values.tolist()


@pytest.mark.parametrize("scores,leader", [((12, 7), 0), ((3, 40), 1), ((21, 21), -1), ((0, 0), -1)])
def test_lead_measure_is_the_score_of_scored_hands(scores, leader):
    from toolkit.core.lead import leader as lead_of

    st = _scored_position(scores)
    assert ref.lead_measure(st) == list(scores)
    assert _kernel_measure(st) == list(scores)
    assert lead_of(ref.lead_measure(st)) == leader


def test_lead_measure_ignores_the_hand_in_progress():
    """Seat 1 has won every trick so far this hand, seat 0 none: the bids are secret, so
    nobody can tell yet who gains more this hand; the measure stays the scored hands'."""
    st = _scored_position((10, 8), won=((), ("1a 7b", "2a 8b", "3a 9b")))
    assert [len(p) for p in st.won] == [0, 3] and len(st.hands[0]) == len(st.hands[1]) == 12
    assert ref.lead_measure(st) == [10, 8]
    assert _kernel_measure(st) == [10, 8]
    # the next trick changes the piles, not the measure
    rs = Stream(1, 0, 0)
    for _ in range(2):
        d = ref.next_decision(st, rs)
        ref.apply_decision(st, d, d.options[-1], rs)
    assert st.turns == 1 and ref.lead_measure(st) == [10, 8]


def _two_hand_expectation(points, winner, h):
    """Worked by hand: turns 1..h-1 are tied at 0-0; turn h (hand 1 scored) to 2h-1 show the
    first hand's scores a; turn 2h shows the final scores b."""
    a = points[0]
    b = (points[0][0] + points[1][0], points[0][1] + points[1][1])

    def lead(x):
        return -1 if x[0] == x[1] else (0 if x[0] > x[1] else 1)

    la, lb = lead(a), lead(b)
    changes = int(la != -1 and lb != -1 and la != lb)
    if winner < 0:
        return changes, 0
    if lb != winner:  # won on the exact-bid tiebreak: the measure never shows the winner ahead at the end
        return changes, 2 * h
    return changes, h if la == winner else 2 * h


def _points_by_round(log, game):
    g = log[log["game"] == game].sort_values(["round", "seat"])
    return [tuple(g.loc[g["round"] == r, "points"].tolist()) for r in sorted(g["round"].unique())]


@pytest.mark.parametrize("policies", [("random", "random"), ("greedy", "random")])
def test_two_hand_games_match_the_hand_worked_lead(policies):
    rules = Rules(max_rounds=2, target_score=1000)
    h = rules.hand_size
    n = 300
    df = toolkit.simulate("herrlof", rules=rules, n_games=n, seed=8, policies=",".join(policies), progress=False)
    log = round_log(rules, n_games=n, seed=8, policies=policies)
    assert (df["turns"] == 2 * h).all()
    seen = set()
    for g in range(n):
        points = _points_by_round(log, g)
        expected = _two_hand_expectation(points, int(df.at[g, "winner"]), h)
        assert (int(df.at[g, "lead_changes"]), int(df.at[g, "decisive_turn"])) == expected, g
        seen.add(expected)
    # the sample covers a lead change, a winner ahead from the first scoring, and one ahead only at the end
    assert any(c == 1 for c, _ in seen) and any(t == h for _, t in seen) and any(t == 2 * h for _, t in seen)
    # the reference agrees on the first games
    for g in range(40):
        row = SPEC.play_reference(rules, 8, g, policies)
        assert tuple(row[c] for c in NEW) == tuple(int(df.at[g, c]) for c in NEW)


def test_one_hand_games_are_decided_at_the_last_trick():
    """One hand: tricks 1..h-1 are tied (nothing scored), the scoring after trick h decides."""
    rules = Rules(max_rounds=1)
    df = toolkit.simulate("herrlof", rules=rules, n_games=300, seed=4, policies="random,random", progress=False)
    assert (df["lead_changes"] == 0).all()
    won = df["winner"] >= 0
    assert (df.loc[won, "decisive_turn"] == rules.hand_size).all()
    assert (df.loc[~won, "decisive_turn"] == 0).all()


# ---------------------------------------------------------------------- sanity


@pytest.mark.parametrize("config,policies", [
    ("standard", "random,random"),
    ("standard", "greedy,greedy"),
    ("variant_a", "greedy,random"),
    ("variant_b", "random,random"),
    ("variant_c", "random,greedy"),
])
def test_kernel_sanity(config, policies):
    df = toolkit.simulate("herrlof", rules=CONFIGS[config], n_games=400, seed=21, policies=policies,
                          progress=False, check=True)
    assert ((df["decisive_turn"] >= 0) & (df["decisive_turn"] <= df["turns"])).all()
    assert ((df["decisive_turn"] == 0) == (df["winner"] == -1)).all()
    assert (df["options"] >= df["decisions"]).all()
    assert (df["decisions"] >= 1).all()
    assert (df["lead_changes"] >= 0).all()
    assert (df["decisions"] == df["plies"]).all()  # every §5 DP is a ply
    assert (df["lead_changes"] < df["rounds"]).all()  # the measure moves only when a hand is scored
    assert (df["decisive_turn"] % CONFIGS[config].hand_size == 0).all()  # ... after a hand's last trick
