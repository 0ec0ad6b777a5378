"""Hidden information in the Numba policies: decisions do not change when unseen cards move.

The reference policies are tested in ``test_hidden_info_herrlof.py``.  Here
positions from seeded reference games are copied into the kernel's state
array (:func:`to_kernel_state`), the cards the deciding seat cannot see (the
opponent's hand beyond what it knows, the stock, the opponent's 3-discards)
are permuted, and the kernel's ``greedy`` and ``lookahead`` must decide the
same from the same decision stream.  A control shows the permutation does
change what a peeking rule would see.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from toolkit.core import rng
from toolkit.games.herrlof import kernel as K
from toolkit.games.herrlof import reference as ref
from toolkit.games.herrlof.rules import Rules

PHASE = {"bid": K.PH_BID, "lead": K.PH_LEAD, "follow": K.PH_FOLLOW, "three": K.PH_THREE,
         "three_discard": K.PH_THREE_DISCARD, "one": K.PH_ONE, "one_decide": K.PH_ONE_DECIDE, "six": K.PH_SIX,
         "six_decide": K.PH_SIX_DECIDE, "give": K.PH_GIVE, "next_leader": K.PH_NEXT_LEADER}
OPTION = {ref.YES: K.YES, ref.DECLINE: K.DECLINE}


def to_kernel_state(st: ref.State, d: ref.Decision) -> np.ndarray:
    """The kernel's ``st`` array for a reference state at decision ``d``."""
    k = np.zeros(K.STATE_SIZE, np.int64)
    ip = K.to_kernel(st.rules)
    for seat in (0, 1):
        for f in st.hands[seat]:
            K.hand_add(ip, k, seat, f)
        k[K.S_WON_N + seat] = len(st.won[seat])
        for j, (a, b) in enumerate(st.won[seat]):
            k[K.S_WON + (seat * K.MAX_TRICKS + j) * 2] = a
            k[K.S_WON + (seat * K.MAX_TRICKS + j) * 2 + 1] = b
        k[K.S_BURIED_N + seat] = len(st.buried[seat])
        k[K.S_BID + seat] = -1 if st.bids[seat] is None else st.bids[seat]
        k[K.S_SCORE + seat] = st.scores[seat]
        k[K.S_VOID + seat] = sum(1 << s for s in st.void[seat])
        for f in range(st.cards.n_faces):
            k[K.S_SEEN + seat * K.MAX_FACES + f] = st.seen[seat][f]
            k[K.S_KNOWN + seat * K.MAX_FACES + f] = st.known[seat][f]
    for i, f in enumerate(st.stock):
        k[K.S_STOCK + i] = f
    k[K.S_STOCK_HEAD], k[K.S_STOCK_TAIL] = 0, len(st.stock)
    k[K.S_IND], k[K.S_TRUMP] = st.indicator, st.trump
    k[K.S_TRICK_N] = len(st.trick) if st.phase == "follow" else (2 if len(st.trick) == 2 else 0)
    if st.trick:
        k[K.S_LEAD] = st.trick[0]
    if len(st.trick) == 2:
        k[K.S_FOLLOW] = st.trick[1]
    k[K.S_DEALER], k[K.S_LEADER], k[K.S_ROUND] = st.dealer, st.leader, st.round_no
    k[K.S_TRICKS_PLAYED] = st.tricks_played
    k[K.S_TRICK_LEADER], k[K.S_TRICK_WINNER], k[K.S_WIN_FACE] = st.trick_leader, st.trick_winner, st.winning_face
    k[K.S_THREE_N] = len(st.threes)
    for i, seat in enumerate(st.threes):
        k[K.S_THREE_Q + i] = seat
    k[K.S_THREES_OWNER] = st.threes_owner
    k[K.S_PHASE], k[K.S_BID_TURN] = PHASE[st.phase], st.bid_turn
    k[K.S_DKIND], k[K.S_DSEAT] = d.kind, d.seat
    return k


def permute_unseen(st: ref.State, seat: int, rnd: random.Random) -> ref.State:
    """A copy with the cards ``seat`` cannot see shuffled among the hidden places."""
    out = st.copy()
    opp = 1 - seat
    known = list(st.known[seat])
    fixed, loose = [], []
    for f in st.hands[opp]:
        if known[f] > 0:
            known[f] -= 1
            fixed.append(f)
        else:
            loose.append(f)
    hidden = loose + list(st.stock) + list(st.buried[opp])
    rnd.shuffle(hidden)
    out.hands[opp] = sorted(fixed + hidden[:len(loose)])
    out.stock = hidden[len(loose):len(loose) + len(st.stock)]
    out.buried[opp] = hidden[len(loose) + len(st.stock):]
    return out


def kernel_options(st, d):
    opts = np.zeros(K.MAX_FACES, np.int64)
    for i, o in enumerate(d.options):
        opts[i] = OPTION.get(o, o)
    return opts, len(d.options)


def kernel_decide(policy, st, d, seed):
    ip = K.to_kernel(st.rules)
    k = to_kernel_state(st, d)
    opts, n = kernel_options(st, d)
    if policy == "greedy":
        return int(K.greedy_choice(ip, k, opts, n))
    rs = np.zeros(3, np.uint64)
    rng.seed_streams(rs, seed, 0)
    scratch = np.zeros(K.SCRATCH_SIZE, np.int64)
    return int(K.lookahead_choice(ip, k, opts, n, 4, rs, scratch))


def decision_points(rules, n_games, policies=("random", "random")):
    """(state copy, decision) at every decision point of some seeded reference games."""
    points = []

    def observe(st, d, option):
        if d is not None and len(d.options) > 1:
            points.append((st.copy(), d))

    for g in range(n_games):
        ref.play_game(rules, 31, g, policies, observer=observe)
    return points


@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
@pytest.mark.parametrize("rules", [Rules(max_rounds=2), Rules(max_rounds=2, effect_3="mandatory", effect_6="mandatory",
                                                                trump_anytime=True)])
def test_kernel_policy_ignores_unseen_cards(policy, rules):
    points = decision_points(rules, 3)
    rnd = random.Random(5)
    step = 1 if policy == "greedy" else 7  # the lookahead is slower: every 7th decision point
    checked = 0
    for st, d in points[::step]:
        before = kernel_decide(policy, st, d, seed=99)
        for _ in range(3):
            after = kernel_decide(policy, permute_unseen(st, d.seat, rnd), d, seed=99)
            assert after == before, (d.name, st.round_no, st.tricks_played)
        checked += 1
    assert checked >= 20


def test_kernel_state_matches_the_reference_decision():
    """The conversion is faithful: the kernel's greedy decides what the reference greedy decides."""
    from toolkit.games.herrlof.policies import greedy_choice

    points = decision_points(Rules(max_rounds=2), 3)
    for st, d in points:
        expected = greedy_choice(ref.observe(st, d.seat), d)
        assert kernel_decide("greedy", st, d, 0) == OPTION.get(expected, expected)


def test_permutation_changes_what_a_peeking_policy_would_see():
    """Control: the permutation really moves hidden cards (so the test above can fail)."""
    points = decision_points(Rules(max_rounds=1), 2)
    rnd = random.Random(6)
    moved = sum(permute_unseen(st, d.seat, rnd).hands[1 - d.seat] != st.hands[1 - d.seat] for st, d in points)
    assert moved > len(points) // 2
