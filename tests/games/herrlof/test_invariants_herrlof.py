"""The §7 invariants of ``docs/rules/herrlof.md``, on every test game.

Two independent checkers:

- the kernel's own checks (``check=True``: §7.1 card conservation, §7.2 hand
  sizes, §7.3 tricks per round, §7.4 round points, §7.5 scores, §7.6 rounds,
  §7.7 trump and indicator, §7.8 follow rule, §7.9 stock; code 10 = a bid or
  trick count out of bounds) run over many games of every configuration;
- a pure-Python checker (:func:`check_state`) observes every decision point
  of reference games and checks the same invariants on the full state.

A corrupted state must be caught (negative controls), so the checkers can fail.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import toolkit
from herrlof_configs import CONFIGS
from toolkit.games.herrlof import kernel as K
from toolkit.games.herrlof import reference as ref


def check_state(st: ref.State) -> list[str]:
    """The invariants that hold between actions; returns the violated ones."""
    rules, c = st.rules, st.cards
    bad = []
    # after resolution the trick's cards are in a won pile or the discard (``st.trick`` keeps them for R-4)
    on_table = st.trick if st.phase == "follow" else []
    cards = (st.hands[0] + st.hands[1] + st.stock + [st.indicator] + on_table + st.discard + st.buried[0]
             + st.buried[1] + [f for seat in (0, 1) for trick in st.won[seat] for f in trick])
    if Counter(cards) != Counter(c.deck()):  # §7.1
        bad.append("7.1")
    if st.phase == "lead" or st.phase == "round_end":  # §7.2 after k tricks and their effects
        left = rules.hand_size - st.tricks_played
        if len(st.hands[0]) != left or len(st.hands[1]) != left:
            bad.append("7.2")
    if (st.trump == ref.NO_TRUMP) != (st.indicator >= c.suited):  # §7.7
        bad.append("7.7")
    if len(st.stock) > st.stock_at_round_start:  # §7.9
        bad.append("7.9")
    return bad


class Checker:
    """An observer for ``reference.play_game`` that checks every step and round."""

    def __init__(self, rules):
        self.rules = rules
        self.violations = []
        self.stock = None
        self.scores = [0, 0]
        self.rounds = 0
        self.decisions = 0

    def __call__(self, st, decision, option):
        if decision is None:  # a scored round
            self.rounds += 1
            h = self.rules.hand_size
            destroyed = st.destroyed_tricks - self.destroyed_at_start
            if len(st.won[0]) + len(st.won[1]) + destroyed != h:  # §7.3
                self.violations.append("7.3")
            for seat in (0, 1):
                if not 0 <= st.bids[seat] <= h:
                    self.violations.append("bid")
                if self.rules == CONFIGS["standard"] and not 0 <= st.round_points[seat] <= 25:  # §7.4
                    self.violations.append("7.4")
                if st.scores[seat] < self.scores[seat]:  # §7.5 (all points >= 0 in the configs used)
                    self.violations.append("7.5")
            if self.rounds > 1 and max(self.scores) >= self.rules.target_score:  # §7.6: should have ended
                self.violations.append("7.6")
            self.scores = list(st.scores)
            self.stock = None
            return
        self.decisions += 1
        if self.stock is None or st.round_no != self.round_no:
            self.round_no = st.round_no
            self.destroyed_at_start = st.destroyed_tricks
        self.violations += check_state(st)
        if self.stock is not None and len(st.stock) > self.stock:  # §7.9 within the round
            self.violations.append("7.9")
        self.stock = len(st.stock)
        if decision.kind == ref.DP_CARD:
            assert option in decision.options
            if st.trick:  # §7.8: the follower's card is legal for the hand it came from
                led = st.cards.suit(st.trick[0])
                hand = st.hands[decision.seat]
                if led >= 0 and any(st.cards.suit(f) == led for f in hand) and st.cards.suit(option) != led:
                    special = option >= st.cards.suited and self.rules.specials_always_playable
                    trump = self.rules.trump_anytime and ref.is_trump(st, option)
                    if not (special or trump):
                        self.violations.append("7.8")


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("policies", [("random", "random"), ("greedy", "random"), ("lookahead:2", "greedy")])
def test_reference_games_keep_every_invariant(config, policies):
    rules = CONFIGS[config]
    n = 15 if "lookahead:2" in policies else 75  # 30 and 150 before issue 49
    if "lookahead:2" in policies:
        rules = rules.replace(max_rounds=2)
    for g in range(n):
        checker = Checker(rules)
        record = ref.play_game(rules, 11, g, policies, observer=checker)
        assert checker.violations == [], f"game {g}: {checker.violations}"
        assert checker.rounds == record.rounds <= rules.max_rounds
        assert checker.decisions == record.plies


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("policies", ["random,random", "greedy,random", "greedy,greedy"])
def test_kernel_games_keep_every_invariant(config, policies):
    """``check=True`` raises AssertionError on the first violated §7 invariant."""
    rules = CONFIGS[config]
    df = toolkit.simulate("herrlof", rules, 5_000, seed=3, policies=policies, check=True, progress=False)
    h = rules.hand_size
    # §6 record consistency and §7.3 / §7.6, from the outcome rows
    assert (df["turns"] == df["rounds"] * h).all()
    assert (df["tricks_won_0"] + df["tricks_won_1"] + df["destroyed_tricks"] == df["turns"]).all()
    assert (df["rounds"].between(1, rules.max_rounds)).all()
    ended_early = df["rounds"] < rules.max_rounds
    assert (df.loc[ended_early, ["score_0", "score_1"]].max(axis=1) >= rules.target_score).all()
    assert (df[["exact_bids_0", "exact_bids_1"]].le(df["rounds"], axis=0)).all().all()
    assert (df["no_trump_rounds"] <= df["rounds"]).all()
    # the winner has the higher score, or the tie-break
    diff = df["score_0"] - df["score_1"]
    assert ((diff > 0) <= (df["winner"] == 0)).all() and ((diff < 0) <= (df["winner"] == 1)).all()
    tied = diff == 0
    if rules.tiebreak == "draw":
        assert (df.loc[tied, "winner"] == -1).all()
    else:
        eb = df["exact_bids_0"] - df["exact_bids_1"]
        assert (df.loc[tied & (eb > 0), "winner"] == 0).all()
        assert (df.loc[tied & (eb == 0), "winner"] == -1).all()


def _dealt_state(rules):
    ip = K.to_kernel(rules)
    st = np.zeros(K.STATE_SIZE, np.int64)
    rs = np.zeros(3, np.uint64)
    from toolkit.core import rng

    rng.seed_streams(rs, 1, 0)
    K.deal_round(ip, st, st[K.S_DECK:K.S_DECK + K.MAX_DECK], 0, rs)
    st[K.S_PHASE] = K.PH_LEAD
    return ip, st


def _decision(st, kind, seat):
    """``before`` for ``K.check_step``: ``st`` at a decision point of ``kind`` for ``seat``."""
    before = st.copy()
    before[K.S_DKIND], before[K.S_DSEAT] = kind, seat
    return before


def test_kernel_check_catches_a_lost_card():
    """Negative control: the kernel's §7.1, §7.2, §7.7 and §7.8 checks (the protocol's ``check_step``)
    fail on a corrupted state or an illegal card."""
    ip, st = _dealt_state(CONFIGS["standard"])
    assert K.check_step(ip, _decision(st, K.DP_BID, 1), st, 0) == 0
    st[K.S_STOCK_HEAD] += 1  # a stock card vanishes
    assert K.check_step(ip, _decision(st, K.DP_BID, 1), st, 0) == K.INV_CARDS
    ip, st = _dealt_state(CONFIGS["standard"])
    f = int(np.flatnonzero([(st[K.S_HBITS] >> b) & 1 for b in range(36)])[0])
    K.hand_remove(ip, st, 0, f)  # move a card from seat 0's hand to seat 1's: all cards there, sizes wrong
    K.hand_add(ip, st, 1, f) if f >= 36 else None
    st[K.S_HBITS + 1] |= 1 << f
    st[K.S_HN + 1] += 1
    assert K.check_step(ip, _decision(st, K.DP_BID, 1), st, 0) == K.INV_HAND_SIZES
    ip, st = _dealt_state(CONFIGS["standard"])
    mine = int(np.flatnonzero([(st[K.S_HBITS] >> b) & 1 for b in range(36)])[0])
    theirs = int(np.flatnonzero([(st[K.S_HBITS + 1] >> b) & 1 for b in range(36)])[0])
    assert K.check_step(ip, _decision(st, K.DP_CARD, 0), st, mine) == 0  # seat 0 leads a card it holds
    assert K.check_step(ip, _decision(st, K.DP_CARD, 0), st, theirs) == K.INV_FOLLOW  # ... one it does not
    assert K.check_step(ip, _decision(st, K.DP_BID, 0), st, theirs) == 0  # (a bid is no card)
    st[K.S_TRUMP] = -1 if st[K.S_TRUMP] >= 0 else 0
    assert K.check_step(ip, _decision(st, K.DP_BID, 1), st, 0) == K.INV_TRUMP


def test_kernel_check_catches_a_bad_round_end():
    """Negative control: the round-end checks (§7.3, §7.6, the bounds) fail on a corrupted round."""
    rules = CONFIGS["standard"]
    h = rules.hand_size
    ip, st = _dealt_state(rules)
    st[K.S_BID], st[K.S_BID + 1] = 1, 2
    st[K.S_WON_N], st[K.S_WON_N + 1] = h - 3, 3
    st[K.S_ROUND] = 1
    assert K.check_round(ip, st) == 0
    st[K.S_WON_N + 1] = 2  # a trick vanishes
    assert K.check_round(ip, st) == K.INV_TRICKS
    st[K.S_WON_N + 1] = 3
    st[K.S_BID + 1] = h + 1
    assert K.check_round(ip, st) == K.INV_BOUNDS
    st[K.S_BID + 1] = 2
    st[K.S_ROUND] = rules.max_rounds + 1
    assert K.check_round(ip, st) == K.INV_ROUNDS


def test_python_checker_catches_a_lost_card():
    rules = CONFIGS["standard"]
    from toolkit.core.rng import Stream

    st = ref.new_round_state(rules, ref.shuffled_deck(rules, Stream(1, 0, 0)), dealer=0)
    st.phase = "lead"
    assert check_state(st) == []
    st.stock.pop()
    assert "7.1" in check_state(st)
