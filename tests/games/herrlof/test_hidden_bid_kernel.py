"""Hidden information in the Numba policies, part two: the opponent's secret bid (issue 15, point 6).

Bids are secret until the round is scored (spec ``docs/rules/herrlof.md``
§3 step 4, R-2.4), so no decision of the round may depend on the
opponent's bid.  ``test_hidden_info_kernel_herrlof.py`` permutes only the
unseen cards: a kernel lookahead that kept the opponent's real bid in its
determinized worlds passed it (only the lookahead equality test caught the
difference from the reference).  Here the harness of that file (its
positions from seeded reference games, copied into the kernel's state
array) is extended: the opponent's bid, once made, is changed to another
value in 0..``hand_size`` (any value is consistent with what the seat can
see, as the reference's ``observe`` confirms), alone and together with a
permutation of the unseen cards, and the kernel's ``greedy`` and
``lookahead`` must decide the same from the same decision stream.
(``random`` reads nothing but its stream and the number of options.)

Negative controls: a lookahead built from the kernel's own pieces that
keeps the opponent's real bid in its worlds (the bug above), and a greedy
that leads high when the opponent bid high, are both caught by the same
harness.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from test_hidden_info_kernel_herrlof import (  # the card harness, beside this file
    OPTION, decision_points, determinize_differences, kernel_decide, kernel_options, permute_unseen,
    to_kernel_state)
from toolkit.core import rng
from toolkit.games.herrlof import kernel as K
from toolkit.games.herrlof import reference as ref
from toolkit.games.herrlof.rules import Rules

SAMPLES = 4
RULES = [Rules(max_rounds=2),
         Rules(max_rounds=2, effect_3="mandatory", effect_6="mandatory", trump_anytime=True)]


def change_opponent_bid(st: ref.State, seat: int, rnd: random.Random) -> ref.State:
    """A copy in which the opponent of ``seat``, if it has bid, bid another value of 0..hand_size."""
    out = st.copy()
    out.cards = st.cards  # the copy's own Cards would not compare equal in the views
    opp = 1 - seat
    if st.bids[opp] is not None:
        h = st.rules.hand_size
        out.bids[opp] = (st.bids[opp] + 1 + rnd.randrange(h)) % (h + 1)
        assert out.bids[opp] != st.bids[opp] and 0 <= out.bids[opp] <= h
    assert ref.observe(out, seat) == ref.observe(st, seat), "the bid change shows in the seat's view"
    return out


def hidden_variants(st, d, rnd):
    """What ``d.seat`` cannot tell apart from ``st``: another opponent bid, alone and with the unseen
    cards permuted too."""
    bid_only = change_opponent_bid(st, d.seat, rnd)
    permuted = permute_unseen(st, d.seat, rnd)
    permuted.cards = st.cards
    both = change_opponent_bid(permuted, d.seat, rnd)
    assert ref.observe(both, d.seat) == ref.observe(st, d.seat)
    return bid_only, both


def compare(decide, rules, rnd) -> dict:
    """Run ``decide(st, d)`` on every decision point of the seeded games and on its hidden variants."""
    out = {"checks": 0, "mismatches": 0, "bid_changed": 0, "bid_decisions": 0, "card_decisions": 0}
    for st, d in decision_points(rules, 3):
        before = decide(st, d)
        for other in hidden_variants(st, d, rnd):
            after = decide(other, d)
            out["checks"] += 1
            out["mismatches"] += after != before
            out["bid_changed"] += other.bids[1 - d.seat] != st.bids[1 - d.seat]
            if st.bids[1 - d.seat] is not None and d.kind in (ref.DP_BID, ref.DP_CARD):
                out["bid_decisions" if d.kind == ref.DP_BID else "card_decisions"] += 1
    return out


def kernel_policy(policy):
    return lambda st, d: kernel_decide(policy, st, d, seed=99)


@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
@pytest.mark.parametrize("rules", RULES, ids=["standard", "effects"])
def test_kernel_policy_ignores_the_opponents_bid(policy, rules):
    out = compare(kernel_policy(policy), rules, random.Random(8))
    assert out["mismatches"] == 0, f"{policy}: {out['mismatches']} of {out['checks']} decisions read hidden information"
    # the harness reached decisions made after the opponent's bid, at bidding and at card play
    assert out["bid_changed"] >= 0.8 * out["checks"] and out["checks"] >= 200, out
    assert out["bid_decisions"] >= 6 and out["card_decisions"] >= 100, out


def test_the_state_copy_carries_the_changed_bid():
    """The kernel's state array holds the changed bid (so the kernel really sees the variant)."""
    rnd = random.Random(3)
    for st, d in decision_points(RULES[0], 1):
        other = change_opponent_bid(st, d.seat, rnd)
        opp = 1 - d.seat
        k, k_other = to_kernel_state(st, d), to_kernel_state(other, d)
        expected = -1 if other.bids[opp] is None else other.bids[opp]
        assert k_other[K.S_BID + opp] == expected
        differ = np.flatnonzero(k != k_other)
        assert set(differ) <= {K.S_BID + opp}, differ


# ---------------------------------------------------------------------- negative controls


def peeking_lookahead(st, d):
    """``K.lookahead_choice`` step for step (same candidates, streams and rollouts), except that every
    determinized world keeps the opponent's real bid instead of the estimate ``determinize`` makes."""
    ip = K.to_kernel(st.rules)
    k = to_kernel_state(st, d)
    opts, n = kernel_options(st, d)
    if n == 1:
        return int(opts[0])
    rs = np.zeros(3, np.uint64)
    rng.seed_streams(rs, 99, 0)
    scratch = np.zeros(K.SCRATCH_SIZE, np.int64)
    me = int(k[K.S_DSEAT])
    base = scratch[K.W_BASE:K.W_BASE + K.STATE_SIZE]
    world = scratch[K.W_WORLD:K.W_WORLD + K.STATE_SIZE]
    if k[K.S_DKIND] == K.DP_BID:
        g = K.greedy_bid(ip, k, me)
        cands = [int(o) for o in opts[:n] if abs(int(o) - g) <= K.BID_WINDOW]
    else:
        cands = [int(o) for o in opts[:n]]
    codes = np.array(cands, np.int64)
    totals = [0] * len(cands)
    for _ in range(SAMPLES):
        K.determinize(ip, k, rs, me, base, scratch)
        base[K.S_BID + 1 - me] = k[K.S_BID + 1 - me]  # the cheat
        for i in range(len(cands)):
            world[:K.COPY_SIZE] = base[:K.COPY_SIZE]
            totals[i] += K.rollout_value(ip, world, rs, me, codes, i, scratch)
    return cands[int(np.argmax(totals))]  # the first best, as the kernel


def test_the_peeking_lookahead_is_the_kernels_lookahead_before_the_opponent_bids():
    """The control differs from the kernel's lookahead only in the cheat: where the opponent has not
    bid yet (nothing to peek at) both decide alike."""
    checked = 0
    for st, d in decision_points(RULES[0], 2):
        if st.bids[1 - d.seat] is None:
            assert peeking_lookahead(st, d) == kernel_decide("lookahead", st, d, seed=99)
            checked += 1
    assert checked >= 4


def test_negative_control_a_lookahead_that_keeps_the_real_bid_is_caught():
    out = compare(peeking_lookahead, RULES[0], random.Random(8))
    assert out["mismatches"] >= 5, out


def test_negative_control_a_greedy_that_reads_the_bid_is_caught():
    def bid_reading_greedy(st, d):
        opp_bid = st.bids[1 - d.seat]
        if d.kind == ref.DP_CARD and not st.trick and opp_bid is not None and opp_bid > st.rules.hand_size // 3:
            return OPTION.get(d.options[-1], d.options[-1])  # lead the top card against a high bid
        return kernel_decide("greedy", st, d, seed=99)

    out = compare(bid_reading_greedy, RULES[0], random.Random(8))
    assert out["mismatches"] >= 5, out


# ---------------------------------------------------------------------- the protocol's determinize


def bid_variants(seed=10):
    """(state, decision, variant) for both variants of :func:`hidden_variants` (the opponent's bid changed,
    alone and with the unseen cards permuted) at every decision point of seeded games, both rule sets."""
    rnd = random.Random(seed)
    return [(st, d, other) for rules in RULES for st, d in decision_points(rules, 2)
            for other in hidden_variants(st, d, rnd)]


def test_determinize_does_not_read_the_opponents_bid():
    """The kernel's ``determinize`` for the deciding seat builds the same world -- the whole state array,
    the opponent's bid included (greedy's bid on the dealt hand where the opponent has bid, else -1) --
    and leaves the same stream states whatever the opponent's secret bid and wherever the unseen cards
    lie."""
    cases = bid_variants()
    changed = sum(other.bids[1 - d.seat] != st.bids[1 - d.seat] for st, d, other in cases)
    assert len(cases) >= 500 and changed >= 0.7 * len(cases), (len(cases), changed)
    differences = determinize_differences(K.determinize, cases)
    assert differences == [], f"{len(differences)} of {len(cases)}: {differences[:3]}"


def test_negative_control_a_determinization_that_keeps_the_real_bid_is_caught():
    """The kernel's ``determinize`` with the opponent's real bid put back (the bug the module docstring
    tells of): every variant whose bid was changed is reported."""
    def keeping_the_bid(params, st, rs, seat, base, scratch):
        K.determinize(params, st, rs, seat, base, scratch)
        base[K.S_BID + 1 - seat] = st[K.S_BID + 1 - seat]

    cases = bid_variants()
    changed = sum(other.bids[1 - d.seat] != st.bids[1 - d.seat] for st, d, other in cases)
    assert changed >= 300 and len(determinize_differences(keeping_the_bid, cases)) >= changed, changed
