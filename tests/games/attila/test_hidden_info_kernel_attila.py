"""Hidden information in the Numba policies: decisions do not change when unseen cards move.

The reference policies are tested in ``test_hidden_info_attila.py``.  Here
mid-game states come from the kernel itself: ``play_game`` with
``max_turns = k`` stops the game as aborted at the end of turn k and leaves
the state in ``work[:STATE_SIZE]`` (``S_OVER`` is set back to 0 before asking
for decisions).  For the seat to move, the cards it cannot see (the other
hands and the deck, ``S_DECK + S_DECK_HEAD ..``) are permuted -- re-dealt as
one pool keeping every hand size and the deck size, shuffled among the other
hands only, or the deck order only -- and the decision functions must decide
the same: ``greedy_tile`` (DP-1, also with a tile it never uses),
``greedy_plus_two`` (DP-2), the tile window with the exchange (DP-1..3),
``greedy_play`` (DP-4), ``forced_discard`` (DP-5), ``greedy_bonus`` (DP-6,
after greedy's play), ``lookahead_play`` (with identical copies of the
streams) and, in a war started by that play, each seat's support (DP-7),
while the earlier seats lay random cards from their (permuted) hands.  A
control shows that a decision function reading an opponent's hand or the top
of the deck does change under the same permutations.
"""

from __future__ import annotations

import collections
import random

import numpy as np
import pytest

from toolkit.core import rng
from toolkit.games.attila import kernel as K
from toolkit.games.attila.rules import Rules

N_TRIBES = K.N_TRIBES
MODES = ("redeal", "swap", "deck")
SHORT = Rules(num_players=4, influence_track_max=8, war_threshold=3, figures_per_tribe=4,
              peace_tiles_per_century=(3, 3, 3, 3), hand_size=4, cards_per_tribe=3)
# (rules, policies that play up to the state, seeds)
CONFIGS = [
    (Rules(num_players=2), ("greedy", "random"), range(4)),
    (Rules(num_players=3), ("random", "greedy", "greedy"), range(4)),
    (Rules(num_players=4), ("greedy",) * 4, range(4)),
    (Rules(num_players=5), ("random", "greedy", "random", "greedy", "random"), range(4)),
    (SHORT, ("random", "greedy", "random", "greedy"), range(6)),
]
TURNS = (1, 2, 3, 5, 8, 12, 17, 23, 30, 40)


def mid_game_states(rules, policies, seeds):
    """(rule vector, state, stream states, seat to move) at the end of turn k of seeded kernel games, for k
    in TURNS.  The rule vector returned is the uncapped one: with ``max_turns = k`` the lookahead's
    rollouts would stop at once."""
    ip = K.to_kernel(rules)
    pol = K.policy_ids(policies)
    for seed in seeds:
        for k in TURNS:
            ipk = K.to_kernel(rules.replace(max_turns=k))
            rs = np.empty(2 * K.N_STREAMS, np.uint64)
            work = np.zeros(K.WORK_SIZE, np.int64)
            row = np.zeros(K.N_COLUMNS, np.int32)
            K.play_game(ipk, pol, 77, seed, row, False, rs, work)
            st = work[:K.STATE_SIZE].copy()
            if st[K.S_END_REASON] != 3 or st[K.S_TURNS] != k:  # the game ended on its own before turn k
                continue
            st[K.S_OVER] = 0
            yield ip, st, rs.copy(), int((st[K.S_START] + k) % rules.num_players)


# ---------------------------------------------------------------------- the hidden cards


def hand(st, p):
    return st[K.S_HAND + N_TRIBES * p:K.S_HAND + N_TRIBES * (p + 1)]


def deck_slice(st):
    head = K.S_DECK + st[K.S_DECK_HEAD]
    return slice(head, head + st[K.S_DECK_N])


def card_counts(st, n):
    """Cards of each tribe in the hands, the deck and the discard pile (§7.2 between turns)."""
    out = np.array(st[K.S_DISCARD:K.S_DISCARD + N_TRIBES])
    for p in range(n):
        out += hand(st, p)
    out += np.bincount(st[deck_slice(st)], minlength=N_TRIBES)
    return out


def permute_hidden(st, n, seat, rnd: random.Random, mode: str):
    """A copy of ``st`` with the cards ``seat`` cannot see permuted; returns (copy, changed).

    ``redeal``: the other hands and the deck as one pool, re-dealt keeping every hand size and the deck
    size; ``swap``: among the other hands only; ``deck``: the deck order only."""
    out = st.copy()
    others = [p for p in range(n) if p != seat]
    pool, slots = [], []
    if mode in ("redeal", "swap"):
        for p in others:
            pool += [t for t in range(N_TRIBES) for _ in range(hand(st, p)[t])]
            slots.append((p, int(hand(st, p).sum())))
    if mode in ("redeal", "deck"):
        pool += st[deck_slice(st)].tolist()
        slots.append((None, int(st[K.S_DECK_N])))
    rnd.shuffle(pool)
    i = 0
    for p, size in slots:
        part, i = pool[i:i + size], i + size
        if p is None:
            out[deck_slice(st)] = part
        else:
            hand(out, p)[:] = np.bincount(np.array(part, np.int64), minlength=N_TRIBES)
    assert np.array_equal(card_counts(out, n), card_counts(st, n))
    assert all(hand(out, p).sum() == hand(st, p).sum() for p in range(n))
    assert np.array_equal(hand(out, seat), hand(st, seat))
    changed = not np.array_equal(out, st)
    assert np.array_equal(np.delete(out, list(range(K.S_HAND, K.S_HAND + N_TRIBES * n)) +
                                    list(range(K.S_DECK, K.S_DECK + K.MAX_DECK))),
                          np.delete(st, list(range(K.S_HAND, K.S_HAND + N_TRIBES * n)) +
                                    list(range(K.S_DECK, K.S_DECK + K.MAX_DECK)))), "only hidden cards move"
    return out, changed


# ---------------------------------------------------------------------- the decisions


def play_options(ip, st, seat):
    work = np.zeros(K.WORK_SIZE, np.int64)
    opts = work[K.W_OPTS:K.W_OPTS + K.MAX_PROVINCES * N_TRIBES * 2]
    n = int(K.list_plays(ip, st, seat, opts))
    return work, opts, n


def apply_card(ip, st, seat, t, x):
    """The card of A-3.2 and its figure (no bonus): the position of DP-6 and of a war it starts."""
    out = st.copy()
    out[K.S_HAND + N_TRIBES * seat + t] -= 1
    out[K.S_DISCARD + t] += 1
    K.place(ip, out, seat, t, x)
    return out


def decisions(ip, st, rs, seat, samples=2) -> dict:
    """Every decision of the seat to move at ``st`` (the state is left unchanged)."""
    before = st.copy()
    n_players = int(ip[K.P_PLAYERS])
    out = {}
    tiles = st[K.S_TILES + seat]
    usable = tiles & (K.TILE_DOUBLE | K.TILE_PLUS_TWO)
    if tiles & K.TILE_EXCHANGE and hand(st, seat).sum() > 0:
        usable |= K.TILE_EXCHANGE
    if usable:
        out["dp1_tile"] = tuple(int(K.greedy_tile(ip, st, seat, usable, w)) for w in (0, K.TILE_PLUS_TWO))
    out["dp2_plus_two"] = int(K.greedy_plus_two(ip, st, rs.copy(), seat))
    if st[K.S_DECK_N] >= ip[K.P_HAND]:  # no reshuffle during the exchange: its draws come from the deck
        window = st.copy()
        work = np.zeros(K.WORK_SIZE, np.int64)
        plays = K.tile_window(ip, window, rs.copy(), seat, work, 1, 0)
        exchanged = window[K.S_DISCARD:K.S_DISCARD + N_TRIBES] - st[K.S_DISCARD:K.S_DISCARD + N_TRIBES]
        out["dp1_3_window"] = (int(plays), int(window[K.S_TILES + seat]), tuple(exchanged.tolist()),
                               tuple(window[K.S_INF + N_TRIBES * seat:K.S_INF + N_TRIBES * (seat + 1)].tolist()))
    work, opts, n = play_options(ip, st, seat)
    if n == 0:
        if hand(st, seat).sum() > 0:
            discarded = st.copy()
            K.forced_discard(ip, discarded, rs.copy(), seat, 1)
            out["dp5_discard"] = tuple((hand(st, seat) - hand(discarded, seat)).tolist())
        assert np.array_equal(st, before)
        return out
    i = int(K.greedy_play(ip, st, rs.copy(), seat, opts, n))
    t, x = int(opts[2 * i]), int(opts[2 * i + 1])
    out["dp4_play"] = (t, x)
    if n > 1:
        policies = K.policy_ids([f"lookahead:{samples}"] * n_players)
        K.lookahead_play(ip, st, rs.copy(), seat, work, policies, n)
        out["dp4_lookahead"] = (int(work[K.W_OPTS]), int(work[K.W_OPTS + 1]))
    placed = apply_card(ip, st, seat, t, x)
    bits = K.legal_mask(ip, placed, t)
    out["dp6_bonus"] = int(K.greedy_bonus(ip, placed, rs.copy(), seat, t, bits))
    assert np.array_equal(st, before), "a decision function changed the state"
    return out


def war_start(ip, st, seat):
    """A position with a war pending: the seat's first play that fills a province, or None."""
    _, opts, n = play_options(ip, st, seat)
    for i in range(n):
        t, x = int(opts[2 * i]), int(opts[2 * i + 1])
        if st[K.S_TOTAL + x] + 1 == ip[K.P_THRESHOLD]:
            return apply_card(ip, st, seat, t, x), x
    return None, -1


def support(ip, st, rs, active, x, judged):
    """A-4 in ``x`` with seat ``judged`` greedy and the others random: what each seat laid."""
    n = int(ip[K.P_PLAYERS])
    policies = np.zeros(3 * K.MAX_SEATS, np.int64)
    policies[judged] = 1
    out = st.copy()
    K.war(ip, out, rs.copy(), active, x, np.zeros(K.WORK_SIZE, np.int64), policies)
    return [tuple((hand(st, p) - hand(out, p)).tolist()) for p in range(n)]


# ---------------------------------------------------------------------- the tests


def test_kernel_decisions_ignore_hidden_cards():
    rnd = random.Random(11)
    counts, changed, mismatches = collections.Counter(), 0, []
    for rules, policies, seeds in CONFIGS:
        n = rules.num_players
        for ip, st, rs, seat in mid_game_states(rules, policies, seeds):
            base = decisions(ip, st, rs, seat)
            counts.update(base.keys())
            counts["states"] += 1
            for mode in MODES:
                if mode == "swap" and n == 2:  # one other hand: nothing to swap
                    continue
                other, moved = permute_hidden(st, n, seat, rnd, mode)
                changed += moved
                counts["permutations"] += 1
                got = decisions(ip, other, rs, seat)
                diff = {k: (base.get(k), got.get(k)) for k in base.keys() | got.keys() if base.get(k) != got.get(k)}
                if diff:
                    mismatches.append((n, int(st[K.S_TURNS]), seat, mode, diff))
    assert not mismatches, mismatches[:5]
    assert counts["states"] >= 150, counts
    assert changed >= 0.9 * counts["permutations"], (changed, counts)  # the permutations really moved cards
    for kind in ("dp1_tile", "dp2_plus_two", "dp1_3_window", "dp4_play", "dp4_lookahead", "dp6_bonus"):
        assert counts[kind] >= 50, (kind, counts)
    assert counts["dp5_discard"] >= 1, counts


def test_kernel_support_ignores_hidden_cards_and_earlier_support():
    """DP-7 in the kernel's ``war``: each seat's support is the same when the cards it cannot see move,
    including the cards the earlier (random) seats lay face down from their permuted hands."""
    rnd = random.Random(12)
    counts = collections.Counter()
    for rules, policies, seeds in CONFIGS:
        n = rules.num_players
        for ip, st, rs, seat in mid_game_states(rules, policies, seeds):
            at_war, x = war_start(ip, st, seat)
            if at_war is None:
                continue
            counts["wars"] += 1
            for i in range(n):
                judged = (seat + i) % n
                base = support(ip, at_war, rs, seat, x, judged)
                for mode in ("redeal", "swap"):
                    other, _ = permute_hidden(at_war, n, judged, rnd, mode)
                    got = support(ip, other, rs, seat, x, judged)
                    assert got[judged] == base[judged], (n, int(st[K.S_TURNS]), judged, mode, base, got)
                    earlier = [(seat + j) % n for j in range(i)]
                    counts["checks"] += 1
                    counts["laid"] += sum(base[judged]) > 0
                    counts["earlier_changed"] += any(got[p] != base[p] for p in earlier)
    assert counts["wars"] >= 60, counts
    assert counts["laid"] >= 100, counts  # the judged seat did lay cards, not only decline
    assert counts["earlier_changed"] >= 200, counts  # the earlier seats' face-down cards really differed


def peek_hand_play(ip, st, seat, opts, n):
    """Control: the play of the tribe the next seat holds most of (it reads a hidden hand)."""
    held = hand(st, (seat + 1) % int(ip[K.P_PLAYERS]))
    return max(range(n), key=lambda i: (held[opts[2 * i]], -i))


def peek_deck_play(ip, st, seat, opts, n):
    """Control: the first play of the tribe on top of the deck (it reads the hidden deck)."""
    top = st[K.S_DECK + st[K.S_DECK_HEAD]] if st[K.S_DECK_N] > 0 else -1
    return next((i for i in range(n) if opts[2 * i] == top), 0)


@pytest.mark.parametrize("peek, modes", [(peek_hand_play, ("redeal", "swap")), (peek_deck_play, ("redeal", "deck"))])
def test_negative_control_a_peeking_decision_changes(peek, modes):
    """The same states and permutations make a decision function that reads hidden cards change."""
    rnd = random.Random(13)
    checks = changed = 0
    for rules, policies, seeds in CONFIGS[1:4]:
        n = rules.num_players
        for ip, st, rs, seat in mid_game_states(rules, policies, seeds):
            _, opts, n_opts = play_options(ip, st, seat)
            if n_opts < 2:
                continue
            base = peek(ip, st, seat, opts, n_opts)
            for mode in modes:
                other, _ = permute_hidden(st, n, seat, rnd, mode)
                checks += 1
                changed += peek(ip, other, seat, opts, n_opts) != base
    assert checks >= 150 and changed >= 0.3 * checks, (changed, checks)


# ---------------------------------------------------------------------- the protocol's determinize


def kernel_world(determinize_fn, ip, st, seat):
    """(world, stream states after it): ``determinize_fn(params, st, rs, seat, base, scratch)`` for
    ``seat``, its streams seeded as the kernels seed a game's (``rng.seed_streams(rs, 99, 0)``: the same
    for every state)."""
    rs = np.zeros(K.RS_SIZE, np.uint64)
    rng.seed_streams(rs, 99, 0)
    base = np.zeros(K.STATE_SIZE, np.int64)
    determinize_fn(ip, st, rs, seat, base, np.zeros(max(K.SCRATCH_SIZE, 1), np.int64))
    return base, rs


def determinize_differences(determinize_fn, cases) -> list:
    """The cases ``(ip, st, seat, mode, other)`` (``other``: ``st`` with what ``seat`` cannot see
    permuted) in which ``determinize_fn`` for ``seat``, from identical streams, builds another world from
    ``other`` than from ``st`` (every entry: the slots past the pile are cleared) or leaves the
    streams elsewhere: (seats, turn, seat, mode, the first state entries that differ)."""
    out = []
    for ip, st, seat, mode, other in cases:
        world, rs = kernel_world(determinize_fn, ip, st, seat)
        world_other, rs_other = kernel_world(determinize_fn, ip, other, seat)
        if not (np.array_equal(world, world_other) and np.array_equal(rs, rs_other)):
            out.append((int(ip[K.P_PLAYERS]), int(st[K.S_TURNS]), seat, mode,
                        np.flatnonzero(world != world_other)[:6].tolist()))
    return out


def hidden_permutations(seed=14):
    """(rule vector, state, seat to move, mode, permuted state) for every mode, at the mid-game states of
    the first two seeds of every configuration."""
    rnd = random.Random(seed)
    return [(ip, st, seat, mode, permute_hidden(st, rules.num_players, seat, rnd, mode)[0])
            for rules, policies, seeds in CONFIGS
            for ip, st, _, seat in mid_game_states(rules, policies, seeds[:2])
            for mode in MODES if not (mode == "swap" and rules.num_players == 2)]


def test_determinize_reads_only_what_the_seat_knows():
    """The kernel's ``determinize`` for the seat to move builds the same world -- every entry -- and leaves the
    same stream states from the real position and from one with the
    other hands and the deck permuted (each mode): it deals from what the seat can see only."""
    cases = hidden_permutations()
    moved = sum(not np.array_equal(st, other) for _, st, _, _, other in cases)
    assert len(cases) >= 200 and moved >= 0.9 * len(cases), (len(cases), moved)
    differences = determinize_differences(K.determinize, cases)
    assert differences == [], f"{len(differences)} of {len(cases)}: {differences[:3]}"


def test_negative_control_a_determinization_that_reads_a_hidden_hand_is_caught():
    """The kernel's ``determinize`` with the next seat's real hand put back into the world: every
    permutation that changed that hand is reported."""
    def peeking(params, st, rs, seat, base, scratch):
        K.determinize(params, st, rs, seat, base, scratch)
        nxt = (seat + 1) % params[K.P_PLAYERS]
        base[K.S_HAND + N_TRIBES * nxt:K.S_HAND + N_TRIBES * (nxt + 1)] = hand(st, nxt)

    cases = hidden_permutations()
    changed = sum(not np.array_equal(hand(st, (seat + 1) % int(ip[K.P_PLAYERS])),
                                     hand(other, (seat + 1) % int(ip[K.P_PLAYERS])))
                  for ip, st, seat, _, other in cases)
    assert changed >= 100 and len(determinize_differences(peeking, cases)) >= changed, changed
