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

from toolkit.core import rng
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


# ---------------------------------------------------------------------- the protocol's determinize


def kernel_world(determinize_fn, st: ref.State):
    """(world, stream states after it): ``determinize_fn(params, st, rs, seat, base, scratch)`` for the
    seat to move at the reference state ``st``, its streams seeded as the kernels seed a game's
    (``rng.seed_streams(rs, 99, 0)``: the same for every state)."""
    rs = np.zeros(K.RS_SIZE, np.uint64)
    rng.seed_streams(rs, 99, 0)
    base = np.zeros(K.STATE_SIZE, np.int64)
    determinize_fn(K.to_kernel(st.rules), to_kernel_state(st), rs, st.to_move, base,
                   np.zeros(max(K.SCRATCH_SIZE, 1), np.int64))
    return base, rs


def determinize_differences(determinize_fn, cases) -> list:
    """The cases ``(st, other)`` (``other``: ``st`` with the face-down tiles permuted) in which
    ``determinize_fn`` for the seat to move, from identical streams, builds another world from ``other``
    than from ``st`` (anywhere in the state array) or leaves the streams elsewhere: (turns, the first
    state entries that differ)."""
    out = []
    for st, other in cases:
        world, rs = kernel_world(determinize_fn, st)
        world_other, rs_other = kernel_world(determinize_fn, other)
        if not (np.array_equal(world, world_other) and np.array_equal(rs, rs_other)):
            out.append((st.turns, np.flatnonzero(world != world_other)[:6].tolist()))
    return out


def face_down_permutations(seed=9):
    """(state, state with the face-down tiles and hunters' guns permuted) at every decision point of
    seeded games under both rule sets of the test above."""
    rnd = random.Random(seed)
    return [(st, permute_face_down(st, rnd))
            for rules in (Rules(), Rules(hunter_direction_restricted_capture=False, forced_capture=True))
            for st, _ in decision_points(rules, 1)]


def test_determinize_reads_only_what_the_seat_knows():
    """The kernel's ``determinize`` for the seat to move builds the same world -- the whole state array --
    and leaves the same stream states from the real position and from one with the face-down tiles
    permuted among the face-down squares and face-down hunters' guns turned: it deals from what the seat
    can see only (the face-down squares and the tiles not yet revealed, not which is where).  It caught
    the kernel listing the face-down tiles for its shuffle by square, i.e. in the real layout (now by
    tile id)."""
    cases = face_down_permutations()
    n, moved = len(cases), sum(not np.array_equal(to_kernel_state(st), to_kernel_state(other)) for st, other in cases)
    assert n >= 120 and moved >= 0.8 * n, (n, moved)  # late positions may have one face-down tile, or none
    differences = determinize_differences(K.determinize, cases)
    assert differences == [], f"{len(differences)} of {len(cases)}: {differences[:3]}"


def test_negative_control_a_determinization_that_keeps_the_truth_is_caught():
    """A ``determinize`` that hands back the real board: every permutation that moved a tile or a gun
    is reported."""
    def copying(params, st, rs, seat, base, scratch):
        base[:] = st

    cases = face_down_permutations()
    moved = sum(not np.array_equal(to_kernel_state(st), to_kernel_state(other)) for st, other in cases)
    assert len(determinize_differences(copying, cases)) == moved >= 100, moved


def kind_share_deviation(determinize_fn, worlds=480) -> float:
    """The largest gap, over the face-down squares of a new game and the kinds, between the share of
    ``worlds`` determinizations that put the kind on the square and the kind's share of the face-down
    tiles (H-1 deals them uniformly, so a sound determinization matches it)."""
    import toolkit
    from toolkit.core.protocol import KernelGame

    game = KernelGame(K, toolkit.rules("halali"), ("random", "random"), 5, 0)
    seat = game.advance()
    down = [s for s in range(49) if game.st[K.S_KIND + s] >= 0 and game.st[K.S_UP + s] == 0]
    counts = np.zeros((49, 7))
    for _ in range(worlds):
        world = determinize_fn(game, seat)
        for s in down:
            counts[s, world[K.S_KIND + s]] += 1
    fd = np.array([game.st[K.S_FD_COUNT + k] for k in range(7)], float)
    return float(np.abs(counts[down] / worlds - fd / fd.sum()).max())


def test_determinize_deals_the_face_down_tiles_uniformly():
    """Reading nothing hidden is not enough: a determinization that lays the tiles out in a fixed order
    (no shuffle) reads nothing either.  At the start each kind lies under each square with the kind's
    share of the tiles; 480 worlds put every share within 0.1 of it (5 standard deviations)."""
    assert kind_share_deviation(lambda game, seat: game.determinize(seat)) < 0.1


def test_negative_control_a_determinization_without_a_shuffle_is_caught():
    def unshuffled(game, seat):
        world = game.st.copy()
        down = [s for s in range(49) if game.st[K.S_KIND + s] >= 0 and game.st[K.S_UP + s] == 0]
        tiles = sorted(64 * game.st[K.S_KIND + s] + game.st[K.S_ID + s] for s in down)
        for s, code in zip(down, tiles):
            world[K.S_KIND + s], world[K.S_ID + s] = code // 64, code % 64
        return world
    assert kind_share_deviation(unshuffled) > 0.5
