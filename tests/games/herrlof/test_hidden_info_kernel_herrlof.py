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


# ---------------------------------------------------------------------- the protocol's determinize


def kernel_world(determinize_fn, st: ref.State, d: ref.Decision):
    """(world, stream states after it): ``determinize_fn(params, st, rs, seat, base, scratch)`` for the
    deciding seat at the reference state ``st``, its streams seeded as the kernels seed a game's
    (``rng.seed_streams(rs, 99, 0)``: the same for every state)."""
    rs = np.zeros(K.RS_SIZE, np.uint64)
    rng.seed_streams(rs, 99, 0)
    base = np.zeros(K.STATE_SIZE, np.int64)
    determinize_fn(K.to_kernel(st.rules), to_kernel_state(st, d), rs, d.seat, base,
                   np.zeros(max(K.SCRATCH_SIZE, 1), np.int64))
    return base, rs


def determinize_differences(determinize_fn, cases) -> list:
    """The cases ``(st, d, other)`` (``other``: ``st`` with what ``d.seat`` cannot see changed) in which
    ``determinize_fn`` for ``d.seat``, from identical streams, builds another world from ``other`` than
    from ``st`` (anywhere in the state array) or leaves the streams elsewhere: (decision, round, tricks
    played, the first state entries that differ)."""
    out = []
    for st, d, other in cases:
        world, rs = kernel_world(determinize_fn, st, d)
        world_other, rs_other = kernel_world(determinize_fn, other, d)
        if not (np.array_equal(world, world_other) and np.array_equal(rs, rs_other)):
            out.append((d.name, st.round_no, st.tricks_played, np.flatnonzero(world != world_other)[:6].tolist()))
    return out


def unseen_permutations(seed=9):
    """(state, decision, state with the unseen cards permuted) at every decision point of seeded games,
    under both rule sets of the tests above (the second with mandatory 3s: buried cards to permute)."""
    rnd = random.Random(seed)
    return [(st, d, permute_unseen(st, d.seat, rnd))
            for rules in (Rules(max_rounds=2), Rules(max_rounds=2, effect_3="mandatory", effect_6="mandatory",
                                                      trump_anytime=True))
            for st, d in decision_points(rules, 2)]


def test_determinize_reads_only_what_the_seat_knows():
    """The kernel's ``determinize`` for the deciding seat builds the same world -- the whole state array --
    and leaves the same stream states from the real position and from one with the unseen cards permuted
    (the opponent's hand beyond ``known``, the stock, the opponent's 3-discards): it deals from what the
    seat can see only.  (The opponent's secret bid: ``test_hidden_bid_kernel.py``.)"""
    cases = unseen_permutations()
    moved = sum(not np.array_equal(to_kernel_state(st, d), to_kernel_state(other, d)) for st, d, other in cases)
    assert len(cases) >= 250 and moved >= 0.95 * len(cases), (len(cases), moved)
    differences = determinize_differences(K.determinize, cases)
    assert differences == [], f"{len(differences)} of {len(cases)}: {differences[:3]}"


def test_negative_control_a_determinization_that_reads_the_opponents_hand_is_caught():
    """The kernel's ``determinize`` with the opponent's real hand put back into the world (hand bits,
    Valknut and Hagalaz counts, size): every permutation that moved a card of that hand is reported."""
    def peeking(params, st, rs, seat, base, scratch):
        K.determinize(params, st, rs, seat, base, scratch)
        for field in (K.S_HBITS, K.S_VC, K.S_NC, K.S_HN):
            base[field + 1 - seat] = st[field + 1 - seat]

    cases = unseen_permutations()
    hand_moved = sum(sorted(other.hands[1 - d.seat]) != sorted(st.hands[1 - d.seat]) for st, d, other in cases)
    assert hand_moved >= 0.8 * len(cases), (hand_moved, len(cases))
    assert len(determinize_differences(peeking, cases)) >= hand_moved
