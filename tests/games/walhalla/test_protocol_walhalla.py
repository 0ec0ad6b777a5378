"""Walhalla's kernel protocol (docs/architecture.md, "The game protocol"): the options and their codes.

- at every decision point of real games, ``options`` lists ``count`` codes, each ``nth``'s, and ``kind``
  is the §5 number;
- a DP-8 with more count vectors than ``MAX_OPTIONS`` (a hand of dozens of cards) lists the first
  ``MAX_OPTIONS - 3`` and then greedy's candidates, still in the spec's order, and greedy's choice is
  among them.
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.games.walhalla import kernel as K
from toolkit.games.walhalla.rules import Rules


def _canonical(code):
    return tuple(int(code) >> (K.VEC_BITS * c) & 255 for c in range(K.N_CARDS))


def test_options_are_count_and_nth_at_every_decision_point():
    rules = Rules(action_deck={"axe": 12, "shield": 12, "horn": 8, "walhalla": 6, "plunder": 6}, cult_cards=2,
                  initial_action_cards=2)
    ip, pol = K.to_kernel(rules), K.policy_ids(("greedy", "random", "greedy", "random"))
    opts = np.zeros(K.MAX_OPTIONS, np.int64)
    scratch = np.zeros(K.SCRATCH_SIZE, np.int64)
    kinds = set()
    for g in range(3):
        rs = np.empty(2 * K.N_STREAMS, np.uint64)
        rng.seed_streams(rs, 3, g)
        st = np.zeros(K.STATE_SIZE, np.int64)
        K.start(ip, st, rs)
        while (seat := int(K.advance_called(ip, st, rs))) >= 0:
            kind = int(K.kind(ip, st))
            kinds.add(kind)
            n = int(K.options(ip, st, opts))
            assert n == K.count(ip, st) >= 1
            codes = [int(K.nth(ip, st, i)) for i in range(n)]
            assert opts[:n].tolist() == codes and len(set(codes)) == n
            if kind >= K.DP_8:
                assert [_canonical(c) for c in codes] == sorted(_canonical(c) for c in codes)
            i = K.choose(ip, pol[seat], st, rs, seat, opts, n, scratch) if pol[seat] else \
                (rng.below(rs, 1 + seat, n) if n > 1 else 0)
            K.apply_called(ip, st, rs, opts[i])
    assert kinds == set(range(1, 10)), kinds


def test_a_vector_decision_point_beyond_max_options():
    ip = K.to_kernel(Rules())
    work = np.zeros(K.WORK_SIZE, np.int64)
    row = np.zeros(K.N_COLUMNS, np.int32)
    K.play_game(ip, K.policy_ids(("random",) * 4), 5, 0, row, False, np.empty(2 * K.N_STREAMS, np.uint64), work)
    st = work[:K.STATE_SIZE].copy()
    st[K.S_RAID], st[K.S_LAST] = 0, 0
    st[K.S_HAND:K.S_HAND + K.N_CARDS] = (0, 0, 20, 10, 10)  # 20 Horns, 10 Walhalla cards, 10 Plunder
    st[K.S_PHASE], st[K.S_SEAT] = K.DP_8, 0
    limits = np.array([20, 20, 20, 10, 10], np.int64)
    n = int(K.nth_vector(limits, 3, 20, 1 << 30, -1, np.zeros(K.N_CARDS, np.int64)))
    assert n == 1771 * 11 * 11 > K.MAX_OPTIONS  # C(23, 3) horn splits
    st[K.S_N] = n
    opts = np.zeros(K.MAX_OPTIONS, np.int64)
    m = int(K.options(ip, st, opts))
    assert K.MAX_OPTIONS - 3 < m <= K.MAX_OPTIONS
    head = K.MAX_OPTIONS - 3
    assert [int(opts[i]) for i in range(0, head, 97)] == [int(K.nth(ip, st, i)) for i in range(0, head, 97)]
    keys = [_canonical(c) for c in opts[:m]]
    assert keys == sorted(set(keys))  # the spec's order, no repeats
    assert {(0, 0, 20, 10, 10), (0, 20, 0, 10, 10), (20, 0, 0, 10, 10)} <= set(keys)
    rs = np.zeros(2 * K.N_STREAMS, np.uint64)
    scratch = np.zeros(K.SCRATCH_SIZE, np.int64)
    want = int(K.greedy_option(ip, st, rs.copy(), 0, scratch))
    i = int(K.choose(ip, K.policy_ids(("greedy",) * 4)[0], st, rs.copy(), 0, opts, m, scratch))
    assert int(opts[i]) == want and _canonical(want)[3:] == (10, 10)
