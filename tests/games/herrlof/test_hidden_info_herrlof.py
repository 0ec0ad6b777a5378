"""Hidden information (spec ``docs/rules/herrlof.md`` §3, §5): the policies decide only on what their seat may know.

Seeded games are played with the policy under test in both seats.  At every
decision point a copy of the state is made in which everything the deciding
seat cannot see is reshuffled among itself: the opponent's hand (except the
cards ``known[seat]`` says are there), the stock order and the opponent's
buried 3-discards (pile sizes kept); the opponent's secret bid (R-2.4) is
also changed.  A fresh policy with an identically seeded decision stream must
then make the same decision on both states.

The negative control is a policy that peeks at the true opponent hand: the
same harness must catch it.
"""

from __future__ import annotations

import collections
import random

import pytest

from toolkit.core.rng import CHANCE, Stream
from toolkit.games.herrlof import reference as ref
from toolkit.games.herrlof.policies import greedy_choice, make_policy
from toolkit.games.herrlof.rules import Rules

STD = Rules()
VARIANT = STD.replace(effect_1="mandatory", effect_6="mandatory", special_indicator_means="redraw",
                      trump_anytime=True, three_trigger="won")


def knowledge_is_sound(st, seat):
    """What ``seat`` believes about the opponent's hand is true (the permutation relies on it)."""
    opp = st.hands[1 - seat]
    held = collections.Counter(opp)
    for face, n in enumerate(st.known[seat]):
        assert held[face] >= n, f"seat {seat} 'knows' {n} x face {face} in a hand holding {held[face]}"
    for suit in st.void[seat]:
        assert all(st.cards.suit(x) != suit for x in opp), f"seat {seat} believes the opponent void in {suit}"


def permute_hidden(st, seat, rng: random.Random):
    """A copy of ``st`` with what ``seat`` cannot see reshuffled; returns (copy, changed)."""
    out = st.copy()
    out.cards = st.cards
    opp = 1 - seat
    known = list(st.known[seat])
    keep, hidden = [], []
    for x in st.hands[opp]:
        if known[x] > 0:
            known[x] -= 1
            keep.append(x)
        else:
            hidden.append(x)
    pool = hidden + list(st.stock) + list(st.buried[opp])
    rng.shuffle(pool)
    n_hand, n_stock = len(hidden), len(st.stock)
    out.hands[opp] = sorted(keep + pool[:n_hand])
    out.stock = pool[n_hand:n_hand + n_stock]
    out.buried[opp] = pool[n_hand + n_stock:]
    if st.bids[opp] is not None:
        out.bids[opp] = (st.bids[opp] + 1 + rng.randrange(st.rules.hand_size)) % (st.rules.hand_size + 1)
    assert collections.Counter(out.hands[opp] + out.stock + out.buried[opp]) == \
        collections.Counter(st.hands[opp] + st.stock + st.buried[opp])
    changed = out.hands[opp] != st.hands[opp] or out.stock != st.stock or out.buried[opp] != st.buried[opp]
    return out, changed


def snapshot(st):
    return (tuple(map(tuple, st.hands)), tuple(st.stock), tuple(map(tuple, st.buried)), tuple(st.bids),
            tuple(map(tuple, st.won)), tuple(st.trick), tuple(st.discard), st.phase, st.indicator)


class Peeking:
    """A cheating policy: greedy, except that it leads into the suit the opponent truly holds least of."""

    def __init__(self, state_ref):
        self.state_ref = state_ref  # a one-element list holding the true state

    def choose(self, view, d):
        st = self.state_ref[0]
        if d.kind == ref.DP_CARD and not view.trick and len(d.options) > 1:
            opp = collections.Counter(st.cards.suit(x) for x in st.hands[1 - view.seat])
            return min(d.options, key=lambda x: (opp[st.cards.suit(x)], x))
        return greedy_choice(view, d)


def check_game(rules, seed, game, factory, rng, max_checks=None) -> collections.Counter:
    """Play one game; at each decision compare the choice on the true and on a permuted state.

    ``factory(seat, stream, state_ref)`` makes a policy.  The game stops after
    ``max_checks`` decisions.  Returns counts: checks, mismatches, changed (the
    permutation moved a card), known / void / buried (positions where the seat
    knew some opponent cards / voids, or the opponent had buried cards) and
    one count per decision kind."""
    chance = Stream(seed, game, CHANCE)
    dealer = chance.below(2)
    st, out = None, collections.Counter()
    while True:
        st = ref.new_round_state(rules, ref.shuffled_deck(rules, chance), dealer, st)
        while (d := ref.next_decision(st, chance)) is not None:
            seat = d.seat
            knowledge_is_sound(st, seat)
            other, changed = permute_hidden(st, seat, rng)
            assert ref.observe(other, seat) == ref.observe(st, seat), "the view shows hidden information"
            before = snapshot(st)
            sid = 1000 * game + out["checks"]  # a different (but shared) stream seed at each check
            a = factory(seat, Stream(seed, sid, 1 + seat), [st]).choose(ref.observe(st, seat), d)
            b = factory(seat, Stream(seed, sid, 1 + seat), [other]).choose(ref.observe(other, seat), d)
            assert snapshot(st) == before, "the policy changed the state"
            assert a in d.options and b in d.options
            out.update(checks=1, mismatches=int(a != b), changed=int(changed), known=int(any(st.known[seat])),
                       void=int(bool(st.void[seat])), buried=int(bool(st.buried[1 - seat])))
            out[ref.DP_NAMES[d.kind]] += 1
            if max_checks is not None and out["checks"] >= max_checks:
                return out
            ref.apply_decision(st, d, a, chance)
        ref.score_round(st)
        if ref.game_over(st):
            return out
        dealer = 1 - dealer


def policy_factory(name, rules):
    return lambda seat, stream, state_ref: make_policy(name, rules, stream)


@pytest.mark.parametrize("rules", [STD, VARIANT], ids=["standard", "variant"])
@pytest.mark.parametrize("name, games, max_checks", [("greedy", 6, None), ("lookahead:4", 2, 150)])
def test_policy_decisions_ignore_hidden_cards(rules, name, games, max_checks):
    rng = random.Random(12345)
    total = collections.Counter()
    for game in range(games):
        out = check_game(rules, 31, game, policy_factory(name, rules), rng, max_checks)
        assert out["mismatches"] == 0, f"{name}: {out['mismatches']} of {out['checks']} decisions depend on " \
                                       f"hidden information (game {game})"
        total.update(out)
    assert total["checks"] >= 250
    assert total["changed"] >= 0.9 * total["checks"]  # the permutation really moved hidden cards
    # positions where the known cards had to stay, where voids were known, with buried 3-discards
    assert min(total["known"], total["void"], total["buried"]) >= 20, total
    # the checks reached bids, card play and the effect decisions
    for kind in ("bid", "card", "trade_discard", "give") + (("trade", "swap") if rules is STD else ()):
        assert total[kind] > 0, (kind, total)


def test_negative_control_peeking_policy_is_caught():
    rng = random.Random(7)
    factory = lambda seat, stream, state_ref: Peeking(state_ref)  # noqa: E731
    out = check_game(STD, 31, 0, factory, rng)
    assert out["checks"] > 0 and out["mismatches"] > 0


def test_negative_control_view_leak_is_caught():
    """The view comparison in the harness catches a view that exposes the opponent's hand."""
    rules = STD
    chance = Stream(3, 0, CHANCE)
    st = ref.new_round_state(rules, ref.shuffled_deck(rules, chance), 0)
    other, changed = permute_hidden(st, 1, random.Random(1))
    assert changed
    assert ref.observe(other, 1) == ref.observe(st, 1)
    # a leaky view: the opponent's hand in place of the hand size
    leaky = lambda s, seat: (ref.observe(s, seat), tuple(s.hands[1 - seat]))  # noqa: E731
    assert leaky(other, 1) != leaky(st, 1)
