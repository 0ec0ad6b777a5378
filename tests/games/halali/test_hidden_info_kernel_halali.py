"""Hidden information in the Numba policies: decisions do not change when face-down tiles move.

The reference policies are tested in ``test_hidden_info_halali.py``.  Here
positions from seeded reference games are copied into the kernel's state
array, the face-down tiles are permuted among the face-down squares, and the
kernel's ``greedy`` and ``lookahead`` must choose the same action.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from toolkit.games.halali import kernel as K
from toolkit.games.halali import reference as ref
from toolkit.games.halali.policies import greedy_choice, lookahead_choice
from toolkit.games.halali.rules import KINDS, Rules


def to_kernel_state(st: ref.State) -> np.ndarray:
    k = np.zeros(K.STATE_SIZE, np.int64)
    for s in range(49):
        t = st.grid[s]
        if t is None:
            k[K.S_KIND + s], k[K.S_DIR + s], k[K.S_ID + s] = -1, -1, -1
            continue
        k[K.S_KIND + s], k[K.S_UP + s], k[K.S_DIR + s], k[K.S_ID + s] = t.kind, int(t.face_up), t.dir, t.id
        k[K.S_OCC_BITS] |= 1 << s
        if t.face_up:
            k[K.S_UP_BITS + K.owner_class(t.kind)] |= 1 << s
        else:
            k[K.S_DOWN_BITS] |= 1 << s
    k[K.S_COLOUR], k[K.S_COLOUR + 1] = st.colour
    k[K.S_TO_MOVE], k[K.S_LOCK] = st.to_move, st.lock
    k[K.S_PHASE] = 0 if st.phase == "main" else 1
    k[K.S_FACE_DOWN] = st.face_down
    for i, count in enumerate(ref.face_down_counts(st)):
        k[K.S_FD_COUNT + i] = count
    for seat in (0, 1):
        last = st.last_move[seat]
        k[K.S_LAST + 3 * seat:K.S_LAST + 3 * seat + 3] = (-1, 0, 0) if last is None else last
    return k


def permute_face_down(st: ref.State, rnd: random.Random) -> ref.State:
    out = st.copy()
    squares = [s for s, t in enumerate(st.grid) if t is not None and not t.face_up]
    tiles = [out.grid[s] for s in squares]
    rnd.shuffle(tiles)
    for s, t in zip(squares, tiles):
        out.grid[s] = t
        if rnd.random() < 0.5 and t.kind == KINDS.index("hunter"):
            t.dir = rnd.randrange(4)  # a face-down hunter's gun is unseen too
    return out


def kernel_choice(policy, st, options):
    ip = K.to_kernel(st.rules)
    k = to_kernel_state(st)
    opts = np.zeros(K.MAX_OPTIONS, np.int64)
    for i, a in enumerate(options):
        opts[i] = ref.action_code(a)
    choose = K.greedy_choice if policy == "greedy" else K.lookahead_choice
    before = k.copy()
    code = int(choose(ip, k, st.to_move, opts, len(options)))
    assert np.array_equal(k, before), "the policy left the board changed"
    return code


def decision_points(rules, n_games):
    points = []

    def observe(st, seat, options, action):
        if options is not None and len(options) > 1:
            points.append((st.copy(), options))

    for g in range(n_games):
        ref.play_game(rules, 41, g, ("random", "random"), observer=observe)
    return points


@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
@pytest.mark.parametrize("rules", [Rules(), Rules(hunter_direction_restricted_capture=False, forced_capture=True)])
def test_kernel_policy_ignores_face_down_tiles(policy, rules):
    rnd = random.Random(7)
    points = decision_points(rules, 2)[::3]
    reference_choice = greedy_choice if policy == "greedy" else lookahead_choice
    for st, options in points:
        code = kernel_choice(policy, st, options)
        # the conversion is faithful: the kernel agrees with the reference policy on this position
        assert code == ref.action_code(reference_choice(ref.observe(st, st.to_move), options))
        for _ in range(2):
            assert kernel_choice(policy, permute_face_down(st, rnd), options) == code
    assert len(points) >= 40


def test_permutation_moves_hidden_tiles():
    """Control: the permutation changes the hidden layout in most positions (so the test above can fail)."""
    rnd = random.Random(8)
    points = decision_points(Rules(), 1)
    changed = sum(any((a is not None and b is not None and (a.kind, a.dir) != (b.kind, b.dir))
                      for a, b in zip(st.grid, permute_face_down(st, rnd).grid)) for st, _ in points)
    assert changed > len(points) // 2
