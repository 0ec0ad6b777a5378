"""Hidden information in the Numba policies: decisions do not change when what a seat cannot see moves.

The reference policies are tested in ``test_hidden_info_walhalla.py``.  Here
mid-game states come from the kernel itself: :func:`mid_game_states` plays
seeded games with the kernel's own steps (``setup``, ``turn``, ``score_raid``,
``preparation``, in ``play_game``'s order; a test checks it ends in
``play_game``'s final state) and hands out copies of the state before some
turns, before each card phase and before each preparation.

For the seat judged, what it cannot see -- the other hands
(``S_HAND + 5 p + card``), the action deck (``S_DECK + S_DECK_HEAD ..``,
``S_DECK_N`` cards) and the order of the dragon deck (``S_DRAGONS +
S_DRAGON_HEAD .. 12``; before a turn the top dragon is left alone: it is
drawn and revealed before the turn's first decision) -- is permuted: re-dealt
as one pool keeping every hand size and the deck size with the dragons
shuffled (``redeal``), among the other hands only (``swap``), the deck order
only (``deck``) or the dragon order only (``dragons``).  The decisions, with
the judged seat ``greedy`` and every other seat ``random`` (whose draws come
from its own stream, blind to the board), must be the same, and so must the
stream states they leave behind:

- DP-1 and DP-2: ``turn_start`` (the seats boarded, Midgard, the plies, the
  legal fjords), judged as the active player and as the colour seat's owner;
- DP-3: the fjord ``turn`` moors in (``S_MOORED``: chosen before anything
  hidden can happen in the turn); ``greedy_nets`` after boarding;
- DP-4..DP-7: ``option_value``, ``land_gain``, ``seat_net`` and ``stake`` on
  every field and fjord; DP-5 through ``combat`` (the Axes played);
- DP-8: ``card_phase`` (the seat's horns, Walhalla cards and hand);
- DP-9: ``preparation`` (the seat's sale, hand, Asgard and Midgard; greedy
  never sells, see the test);
- ``worth`` with and without horns;
- ``lookahead_fjord`` (``lookahead:2``) after boarding, with identical copies
  of the streams: the chosen index and the rollout total of every fjord.

Controls: decision functions that read an opponent's hand, the top card of
the deck or the next dragon, and a lookahead that rolls out the true game
instead of guesses, all change under the same permutations.
"""

from __future__ import annotations

import collections
import random

import numpy as np
import pytest

from toolkit.core import rng
from toolkit.games.walhalla import kernel as K

from walhalla_configs import CONFIGS  # the shared rule configurations, beside this file

N_CARDS = K.N_CARDS
MODES = ("redeal", "swap", "deck", "dragons")
# (configuration, policies that play up to the states, game indices, a state before every stride-th turn)
GAMES = [
    ("standard_4p", ("greedy", "random", "greedy", "random"), range(3), 3),
    ("standard_3p", ("random", "greedy", "greedy"), range(3), 3),
    ("variable_4p", ("greedy",) * 4, range(2), 3),
    ("variable_3p", ("random",) * 3, range(2), 3),
    ("cards_4p", ("random", "greedy", "random", "greedy"), range(3), 3),
    ("cards_3p", ("greedy", "random", "greedy"), range(3), 3),
]
SEED = 77


def mid_game_states(rules, policies, games, stride):
    """(phase, rule vector, state, stream states, seat to move) during seeded kernel games: ``"turn"`` before
    every ``stride``-th turn, ``"card_phase"`` before each raid's card phase and ``"preparation"`` before
    each preparation.  The steps are ``play_game``'s (random and greedy seats: ``turn`` is ``turn_top``)."""
    ip = K.to_kernel(rules)
    pol = K.policy_ids(policies)
    n = rules.num_players
    for g in games:
        rs = np.empty(2 * K.N_STREAMS, np.uint64)
        rng.seed_streams(rs, SEED, g)
        work = np.zeros(K.WORK_SIZE, np.int64)
        st = np.zeros(K.STATE_SIZE, np.int64)
        K.setup(ip, st, rs, work)
        turns = 0
        for r in range(rules.raids):
            st[K.S_RAID] = r
            active = int(st[K.S_START])
            while not K.raid_over(ip, st):
                if turns % stride == g % stride:
                    yield "turn", ip, st.copy(), rs.copy(), active
                K.turn(ip, st, rs, active, pol, work)
                turns += 1
                active = (active + 1) % n
            yield "card_phase", ip, st.copy(), rs.copy(), -1
            K.score_raid(ip, st, rs, pol, work)
            if r < rules.raids - 1:
                yield "preparation", ip, st.copy(), rs.copy(), -1
                K.preparation(ip, st, rs, pol, work)
        yield "end", ip, st.copy(), rs.copy(), -1


# ---------------------------------------------------------------------- the hidden parts


def hand(st, p):
    return st[K.S_HAND + N_CARDS * p:K.S_HAND + N_CARDS * (p + 1)]


def deck_slice(st):
    head = K.S_DECK + st[K.S_DECK_HEAD]
    return slice(head, head + st[K.S_DECK_N])


def card_counts(st, n):
    """Cards of each type in the hands, the deck and the discard pile."""
    out = np.array(st[K.S_DISCARD:K.S_DISCARD + N_CARDS])
    for p in range(n):
        out += hand(st, p)
    out += np.bincount(st[deck_slice(st)], minlength=N_CARDS)
    return out


def permute_hidden(st, n, seat, rnd: random.Random, mode: str, top_drawn: bool):
    """A copy of ``st`` with what ``seat`` cannot see permuted (module docstring); returns (copy, changed).
    ``top_drawn``: the dragon deck's top is hidden too (after the turn's dragon was drawn)."""
    out = st.copy()
    pool, slots = [], []
    if mode in ("redeal", "swap"):
        for p in range(n):
            if p != seat:
                pool += [c for c in range(N_CARDS) for _ in range(hand(st, p)[c])]
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
            hand(out, p)[:] = np.bincount(np.array(part, np.int64), minlength=N_CARDS)
    first = K.S_DRAGONS + st[K.S_DRAGON_HEAD] + (0 if top_drawn else 1)
    if mode in ("redeal", "dragons"):
        dragons = out[first:K.S_DRAGONS + K.N_DRAGONS].tolist()
        rnd.shuffle(dragons)
        out[first:K.S_DRAGONS + K.N_DRAGONS] = dragons
    assert np.array_equal(card_counts(out, n), card_counts(st, n))
    assert all(hand(out, p).sum() == hand(st, p).sum() for p in range(n))
    assert np.array_equal(hand(out, seat), hand(st, seat))
    assert sorted(out[first:K.S_DRAGONS + K.N_DRAGONS]) == sorted(st[first:K.S_DRAGONS + K.N_DRAGONS])
    hidden = list(range(K.S_HAND, K.S_HAND + N_CARDS * n)) + list(range(K.S_DECK, K.S_DECK + K.MAX_DECK)) + \
        list(range(first, K.S_DRAGONS + K.N_DRAGONS))
    assert np.array_equal(np.delete(out, hidden), np.delete(st, hidden)), "only hidden parts move"
    return out, not np.array_equal(out, st)


# ---------------------------------------------------------------------- the decisions


def judged_policies(seat, name="greedy"):
    """The policy vector: ``seat`` plays ``name``, every other seat ``random``."""
    names = ["random"] * K.MAX_SEATS
    names[seat] = name
    return K.policy_ids(names)


def fields(st):
    return [(k, j) for k in range(3) for j in range(2 * int(st[K.S_LEN + k]))]


def legal_fjords(legal):
    return [f for f in range(4) if legal >> f & 1]


def helper_values(ip, st, seat) -> dict:
    """The greedy helpers on every field, fjord and peninsula, for ``seat``."""
    work = np.zeros(K.WORK_SIZE, np.int64)
    out = {}
    out["option_value"] = tuple(int(K.option_value(ip, st, seat, k, j, work)) for k, j in fields(st))
    out["land_gain"] = tuple(int(K.land_gain(ip, st, seat, k, j, work)) for k, j in fields(st))
    out["stake"] = tuple(int(K.stake(ip, st, seat, k, j, work)) for k, j in fields(st)
                         if st[K.S_OCC + K.MAX_FIELDS * k + j] == seat)
    horns = int(ip[K.P_HORN] * hand(st, seat)[K.HORN])
    out["worth"] = tuple(int(K.worth(ip, st, seat, k, a, work)) for k in range(-1, 3) for a in (0, 1, horns))
    legal = int(K.greedy_nets(ip, st, seat, work))
    out["greedy_nets"] = (legal, tuple(int(work[K.W_NET + 3 * f + j]) for f in legal_fjords(legal) for j in range(3)))
    out["seat_net"] = tuple(int(K.seat_net(ip, st, seat, f, j, work)) for f in legal_fjords(legal) for j in range(3))
    return out


def turn_decisions(ip, st, rs, active, seat, samples=2) -> dict:
    """DP-1..DP-3 and the lookahead of the turn about to start, judged for ``seat`` (active or colour owner)."""
    before = st.copy()
    n = int(ip[K.P_PLAYERS])
    out = {}
    pol = judged_policies(seat)
    work = np.zeros(K.WORK_SIZE, np.int64)
    started, rs1 = st.copy(), rs.copy()
    legal = int(K.turn_start(ip, started, rs1, active, pol, work))
    out["turn_start"] = (legal, tuple(started[K.S_ABOARD:K.S_ABOARD + 3].tolist()),
                         tuple(started[K.S_MIDGARD:K.S_MIDGARD + n].tolist()), int(started[K.S_PLIES]),
                         tuple(rs1.tolist()))
    if seat == active:
        out["greedy_nets_aboard"] = helper_values(ip, started, seat)["greedy_nets"]
        played, rs2 = st.copy(), rs.copy()
        K.turn(ip, played, rs2, active, pol, work)
        out["dp3_moored"] = tuple((played[K.S_MOORED:K.S_MOORED + 4] - st[K.S_MOORED:K.S_MOORED + 4]).tolist())
        if len(legal_fjords(legal)) > 1:
            look = judged_policies(seat, f"lookahead:{samples}")
            rs3 = rs1.copy()
            i = int(K.lookahead_fjord(ip, started, rs3, seat, legal, look, work))
            out["lookahead"] = (i, tuple(work[K.W_TOTALS + f] for f in legal_fjords(legal)), tuple(rs3.tolist()))
    assert np.array_equal(st, before), "a decision function changed the state"
    return out


def combat_axes(ip, st, rs, seat) -> tuple:
    """DP-5 through ``combat``: the Axes ``seat`` plays attacking each field another colour holds."""
    if hand(st, seat)[K.AXE] == 0:
        return ()
    pol = judged_policies(seat)
    work = np.zeros(K.WORK_SIZE, np.int64)
    out = []
    for k, j in fields(st):
        o = st[K.S_OCC + K.MAX_FIELDS * k + j]
        if o >= 0 and o != seat:
            fought = st.copy()
            K.combat(ip, fought, rs.copy(), seat, k, j, pol, work)
            out.append(int(fought[K.S_AXES + seat] - st[K.S_AXES + seat]))
    return tuple(out)


def card_phase_choice(ip, st, rs, seat) -> tuple:
    """DP-8 through ``card_phase``: what ``seat`` laid (its horns per peninsula, Walhalla cards, hand)."""
    last = st[K.S_RAID] == ip[K.P_RAIDS] - 1
    phase, rs1 = st.copy(), rs.copy()
    K.card_phase(ip, phase, rs1, last, judged_policies(seat), np.zeros(K.WORK_SIZE, np.int64))
    return (tuple(phase[K.S_HORNS + 3 * seat:K.S_HORNS + 3 * seat + 3].tolist()), int(phase[K.S_WCARDS + seat]),
            tuple(hand(phase, seat).tolist()), int(rs1[1 + seat]))


def preparation_choice(ip, st, rs, seat) -> tuple:
    """DP-9 through ``preparation``: the seat's sale and what it leaves."""
    prepared, rs1 = st.copy(), rs.copy()
    K.preparation(ip, prepared, rs1, judged_policies(seat), np.zeros(K.WORK_SIZE, np.int64))
    return (int(prepared[K.S_SOLD + seat] - st[K.S_SOLD + seat]), tuple(hand(prepared, seat).tolist()),
            int(prepared[K.S_ASGARD + seat]), int(prepared[K.S_MIDGARD + seat]), int(rs1[1 + seat]))


def decisions(phase, ip, st, rs, active, seat) -> dict:
    out = {}
    if phase == "turn":
        d = int(st[K.S_DRAGONS + st[K.S_DRAGON_HEAD]])
        owner = int(ip[K.P_DRAGON_COLOUR + d])
        if seat in (active, owner):
            out.update(turn_decisions(ip, st, rs, active, seat))
        out.update(helper_values(ip, st, seat))
        out["dp5_combat"] = combat_axes(ip, st, rs, seat)
    elif phase == "card_phase":
        out["dp8_card_phase"] = card_phase_choice(ip, st, rs, seat)
    elif phase == "preparation":
        out["dp9_preparation"] = preparation_choice(ip, st, rs, seat)
    return out


# ---------------------------------------------------------------------- the tests


def test_the_state_driver_follows_play_game():
    """:func:`mid_game_states` takes ``play_game``'s steps: its last state is ``play_game``'s."""
    for config, policies, games, stride in GAMES:
        rules = CONFIGS[config]
        ends = [s for phase, _, s, _, _ in mid_game_states(rules, policies, games, stride) if phase == "end"]
        for g, end in zip(games, ends):
            work = np.zeros(K.WORK_SIZE, np.int64)
            row = np.zeros(K.N_COLUMNS, np.int32)
            K.play_game(K.to_kernel(rules), K.policy_ids(policies), SEED, g, row, False,
                        np.empty(2 * K.N_STREAMS, np.uint64), work)
            assert np.array_equal(work[:K.STATE_SIZE], end), (config, g)


def test_kernel_decisions_ignore_hidden_information():
    rnd = random.Random(11)
    counts, mismatches = collections.Counter(), []
    for config, policies, games, stride in GAMES:
        rules = CONFIGS[config]
        n = rules.num_players
        for phase, ip, st, rs, active in mid_game_states(rules, policies, games, stride):
            if phase == "end":
                continue
            counts[phase] += 1
            for seat in range(n):
                base = decisions(phase, ip, st, rs, active, seat)
                counts.update(k for k, v in base.items() if v != ())
                for mode in MODES:
                    other, moved = permute_hidden(st, n, seat, rnd, mode, top_drawn=phase != "turn")
                    counts[f"permutations_{mode}"] += 1
                    counts[f"changed_{mode}"] += moved
                    got = decisions(phase, ip, other, rs, active, seat)
                    diff = {k: (base[k], got[k]) for k in base if base[k] != got[k]}
                    if diff:
                        mismatches.append((config, phase, int(st[K.S_TURNS]), seat, mode, diff))
                if "lookahead" in base:
                    counts["lookahead_choices"] += len(set(base["lookahead"][1])) > 1
                if phase == "card_phase":
                    counts["dp8_laid"] += base["dp8_card_phase"][2] != tuple(hand(st, seat).tolist())
                if phase == "preparation":
                    counts["dp9_sold"] += base["dp9_preparation"][0] > 0
                counts["dp5_axe_played"] += sum(base.get("dp5_combat", ()))
    assert not mismatches, mismatches[:5]
    assert counts["turn"] >= 150, counts
    # the permutations really moved something (a lone dragon, or hands of one card type, cannot move)
    assert counts["changed_redeal"] >= 0.98 * counts["permutations_redeal"], counts
    assert all(counts[f"changed_{mode}"] >= 400 for mode in MODES), counts
    assert counts["turn_start"] >= 250 and counts["dp3_moored"] >= 150 and counts["lookahead"] >= 150, counts
    assert counts["lookahead_choices"] >= 100, counts  # the rollout totals differ between fjords
    assert counts["stake"] >= 500 and counts["dp5_combat"] >= 150 and counts["dp5_axe_played"] >= 500, counts
    assert counts["dp8_laid"] >= 80 and counts["dp9_preparation"] >= 100, counts
    # greedy's DP-9 rule (sell the Walhalla cards before the last raid) never fires: its DP-8 lays every
    # Walhalla card in the card phase just before, so it holds none when it could sell them
    assert counts["dp9_sold"] == 0, counts


# ---------------------------------------------------------------------- controls


def peek_hand(ip, st, seat):
    """Control: the cards the next seat holds (a hidden hand)."""
    return tuple(hand(st, (seat + 1) % int(ip[K.P_PLAYERS])).tolist())


def peek_deck(ip, st, seat):
    """Control: the top card of the action deck."""
    return int(st[K.S_DECK + st[K.S_DECK_HEAD]]) if st[K.S_DECK_N] > 0 else -1


def peek_dragon(ip, st, seat):
    """Control: the dragon after the one about to be drawn."""
    head = int(st[K.S_DRAGON_HEAD]) + 1
    return int(st[K.S_DRAGONS + head]) if head < K.N_DRAGONS else -1


def peek_rollouts(ip, st, seat):
    """Control: a lookahead without guesses: the rest of the raid rolled out (greedy seats) on the true
    hands, deck and dragon order, for every legal fjord."""
    n = int(ip[K.P_PLAYERS])
    work = np.zeros(K.WORK_SIZE, np.int64)
    rs = np.empty(2 * K.N_STREAMS, np.uint64)
    rng.seed_streams(rs, 5, 5)
    started = st.copy()
    legal = int(K.turn_start(ip, started, rs, seat, judged_policies(seat), work))
    roll = K.policy_ids(("greedy",) * n)
    totals = []
    for f in legal_fjords(legal):
        world, rs2 = started.copy(), rs.copy()
        K.sail(ip, world, rs2, f, roll, work)
        K.run_turns(ip, world, rs2, (seat + 1) % n, roll, work)
        K.score_raid(ip, world, rs2, roll, work)
        totals.append(int(world[K.S_VP + seat] - max(world[K.S_VP + p] for p in range(n) if p != seat)))
    return tuple(totals)


@pytest.mark.parametrize("peek, modes", [(peek_hand, ("redeal", "swap")), (peek_deck, ("redeal", "deck")),
                                         (peek_dragon, ("redeal", "dragons")), (peek_rollouts, MODES)],
                         ids=["hand", "deck", "dragon", "rollouts"])
def test_negative_control_a_peeking_decision_changes(peek, modes):
    """The same states and permutations make a decision function that reads hidden parts change."""
    rnd = random.Random(13)
    checks = collections.Counter()
    changed = collections.Counter()
    for config, policies, games, stride in GAMES[:3]:
        rules = CONFIGS[config]
        for phase, ip, st, rs, active in mid_game_states(rules, policies, games, stride):
            if phase != "turn":
                continue
            base = peek(ip, st, active)
            for mode in modes:
                other, _ = permute_hidden(st, rules.num_players, active, rnd, mode, top_drawn=False)
                checks[mode] += 1
                changed[mode] += peek(ip, other, active) != base
    for mode in modes:
        assert checks[mode] >= 90 and changed[mode] >= 0.4 * checks[mode], (mode, changed, checks)
