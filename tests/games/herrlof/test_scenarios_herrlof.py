"""Scenario tests for Herrlof: a hand-built position for every numbered rule of ``docs/rules/herrlof.md``.

Every expected value is taken from the spec (the contract), never computed by
the reference.  Positions are built by :func:`position`: hands, stock,
indicator and won tricks are written as card names (``"9a"`` is rank 9 of suit
a, ``"V"`` a Valknut, ``"N"`` a Hagalaz); every card not placed goes to the
discard so that card conservation (§7.1) holds and can be asserted after the
scenario.  The number of tricks already played is ``hand_size - cards in
hand``, so a one-card hand is the last trick of the round.

The rule number is in each test name (``r3_3_1`` is R-3.3.1, ``dp`` is §5).
"""

from __future__ import annotations

import collections

import pytest

from toolkit.core.rng import CHANCE, Stream
from toolkit.games.herrlof import reference as ref
from toolkit.games.herrlof.rules import Rules

STD = Rules()
C = ref.Cards(STD)
# the resolution and next-leader tables: no 1/3/6 effect can interfere
QUIET = STD.replace(effect_1="off", effect_3="off", effect_6="off")

CARD, BID = ref.DP_CARD, ref.DP_BID
TRADE, DISCARD, STEAL, SWAP, GIVE = ref.DP_TRADE, ref.DP_TRADE_DISCARD, ref.DP_STEAL, ref.DP_SWAP, ref.DP_GIVE
YES, NO = ref.YES, ref.DECLINE
L, F, X = "leader", "follower", "destroyed"


def cards(text: str) -> list:
    """``"5a V N"`` -> faces (in the given order)."""
    return [C.parse(t) for t in text.split()]


def f(text: str) -> int:
    return C.parse(text)


def position(rules=STD, hands=("", ""), stock="", indicator="5d", leader=0, won=((), ()), bids=(0, 0),
             dealer=None):
    """A state in the ``lead`` phase, bids made; unplaced cards go to the discard."""
    c = ref.Cards(rules)
    dealer = 1 - leader if dealer is None else dealer
    st = ref.new_round_state(rules, c.deck(), dealer)
    st.hands = [sorted(cards(h)) for h in hands]
    assert len(st.hands[0]) == len(st.hands[1]), "the position must have equal hands"
    st.stock = cards(stock)
    st.indicator = f(indicator)
    st.trump = c.suit(st.indicator)
    st.won = [[tuple(cards(t)) for t in pile] for pile in won]
    st.trick, st.buried = [], [[], []]
    used = collections.Counter(st.hands[0] + st.hands[1] + st.stock + [st.indicator]
                               + [x for pile in st.won for t in pile for x in t])
    deck = collections.Counter(c.deck())
    assert not used - deck, f"a card is placed twice: {used - deck}"
    st.discard = sorted((deck - used).elements())
    st.bids, st.bid_turn, st.phase, st.leader = list(bids), 2, "lead", leader
    st.tricks_played = rules.hand_size - len(st.hands[0])
    return st


def all_cards(st) -> collections.Counter:
    """§7.1: every physical card, wherever it is.

    After resolution, while the R-4 effects run, the reference keeps the resolved
    trick in ``st.trick`` (the next-leader rule reads it) although its cards are
    already in ``won`` or ``discard``; it is counted only while unresolved."""
    trick = st.trick if st.phase in ("lead", "follow") else []
    out = collections.Counter(st.hands[0] + st.hands[1] + st.stock + [st.indicator] + trick + st.discard
                              + st.buried[0] + st.buried[1])
    out.update(x for pile in st.won for t in pile for x in t)
    return out


def assert_conserved(st):
    assert all_cards(st) == collections.Counter(ref.Cards(st.rules).deck())


def stream(seed=0) -> Stream:
    return Stream(seed, 0, CHANCE)


def expect(st, rs, kind, seat, options=None) -> ref.Decision:
    """The next decision point must be ``kind`` for ``seat`` (and have ``options``)."""
    d = ref.next_decision(st, rs)
    assert d is not None, f"expected {ref.DP_NAMES[kind]} for seat {seat}, the round ended"
    assert (d.name, d.seat) == (ref.DP_NAMES[kind], seat), d
    if options is not None:
        assert d.options == options
    return d


def act(st, rs, kind, seat, option, options=None) -> ref.Decision:
    d = expect(st, rs, kind, seat, options)
    assert option in d.options, (option, d.options)
    ref.apply_decision(st, d, option, rs)
    return d


def play_trick(st, rs, lead: str, follow: str):
    """The leader plays ``lead``, the follower ``follow`` (both must be legal)."""
    d = ref.next_decision(st, rs)  # runs the previous trick's effects and sets the leader
    assert d is not None and d.kind == CARD and st.phase == "lead", d
    leader = d.seat
    assert f(lead) in d.options
    ref.apply_decision(st, d, f(lead), rs)
    act(st, rs, CARD, 1 - leader, f(follow))
    return leader


def round_ends(st, rs):
    assert ref.next_decision(st, rs) is None
    assert st.phase == "round_end"


# ============================================================ R-1 game setup


@pytest.mark.parametrize("mode, seat", [("seat0", 0), ("seat1", 1)])
def test_r1_1_first_dealer_fixed_seat(mode, seat):
    rules = STD.replace(first_dealer=mode, max_rounds=2)
    for game in range(6):
        first_bids = []

        def observer(st, d, option):
            if d is not None and d.kind == BID and st.round_no == 1 and st.bid_turn == 0:
                first_bids.append((st.dealer, d.seat))

        rec = ref.play_game(rules, 7, game, observer=observer)
        assert rec.first_dealer == seat
        # the dealer of round 1 is that seat, so the other seat bids first
        assert first_bids == [(seat, 1 - seat)]


def test_r1_1_first_dealer_random_is_uniform():
    rules = STD.replace(max_rounds=1)
    n = 400
    zeros = sum(ref.play_game(rules, 3, g).first_dealer == 0 for g in range(n))
    assert abs(zeros - n / 2) < 4 * (n / 4) ** 0.5  # 4 sigma


def test_r1_2_scores_and_exact_bids_start_at_zero():
    st = ref.new_round_state(STD, C.deck(), 0)
    assert st.scores == [0, 0] and st.exact_bids == [0, 0]
    assert st.round_no == 1
    seen = []
    ref.play_game(STD.replace(max_rounds=1), 5, 0,
                  observer=lambda s, d, o: seen.append(list(s.scores)) if d is not None else None)
    assert seen and seen[0] == [0, 0] and seen[-1] == [0, 0]  # unchanged until the round is scored


# ============================================================ R-2 round setup


@pytest.mark.parametrize("dealer", [0, 1])
def test_r2_1_deal_blocks_non_dealer_first(dealer):
    deck = list(reversed(C.deck()))  # any fixed order, top first
    st = ref.new_round_state(STD, deck, dealer)
    assert st.hands[1 - dealer] == sorted(deck[:15])
    assert st.hands[dealer] == sorted(deck[15:30])
    assert st.indicator == deck[30]
    assert len(st.hands[0]) == len(st.hands[1]) == 15
    assert_conserved(st)


def test_r2_1_shuffle_is_a_permutation_and_roughly_uniform():
    chance = Stream(11, 0, CHANCE)
    n, top_v, pos_of_9a = 4200, 0, collections.Counter()
    for _ in range(n):
        deck = ref.shuffled_deck(STD, chance)
        assert sorted(deck) == C.deck()
        top_v += deck[0] == C.V
        pos_of_9a[deck.index(f("9a")) // 14] += 1  # thirds of the deck
    p = 3 / 42
    assert abs(top_v - n * p) < 4 * (n * p * (1 - p)) ** 0.5
    for third in range(3):
        assert abs(pos_of_9a[third] - n / 3) < 4 * (n * 2 / 9) ** 0.5


def test_r2_2_suited_indicator_sets_trump():
    deck = C.deck()
    i = deck.index(f("4c"))
    deck[30], deck[i] = deck[i], deck[30]
    st = ref.new_round_state(STD, deck, 0)
    assert st.indicator == f("4c") and st.trump == 2
    assert st.no_trump_rounds == 0


@pytest.mark.parametrize("special", ["V", "N"])
def test_r2_2_special_indicator_means_no_trump(special):
    deck = C.deck()
    i = deck.index(f(special))
    deck[30], deck[i] = deck[i], deck[30]
    st = ref.new_round_state(STD, deck, 1)
    assert st.indicator == f(special)
    assert st.trump == ref.NO_TRUMP
    assert st.no_trump_rounds == 1  # §6
    assert len(st.stock) == 11


def test_r2_2_redraw_moves_specials_to_the_bottom_until_a_suited_card():
    rules = STD.replace(special_indicator_means="redraw")
    rest = cards("V N V 7b 1a 2a 3a 4a 5a 6a 7a 8a")  # the 12 leftovers, top first
    hands = sorted((collections.Counter(C.deck()) - collections.Counter(rest)).elements())
    assert len(hands) == 30
    st = ref.new_round_state(rules, hands + rest, 0)
    assert st.indicator == f("7b") and st.trump == 1
    assert st.stock == cards("1a 2a 3a 4a 5a 6a 7a 8a V N V")  # the specials at the bottom, in turn order
    assert st.no_trump_rounds == 0
    assert_conserved(st)
    # the same leftovers under no_trump: the V is the indicator
    st = ref.new_round_state(STD, hands + rest, 0)
    assert st.indicator == C.V and st.trump == ref.NO_TRUMP
    assert st.stock == cards("N V 7b 1a 2a 3a 4a 5a 6a 7a 8a")


def test_r2_2_redraw_validation_needs_enough_leftovers():
    with pytest.raises(ValueError):  # 42 - 36 = 6 leftovers, 6 specials
        STD.replace(special_indicator_means="redraw", hand_size=18, consolation_range=frozenset({3, 4, 5}))
    STD.replace(special_indicator_means="redraw", hand_size=17)  # 8 leftovers: allowed


def test_r2_3_stock_is_the_other_eleven_cards_in_order():
    deck = C.deck()
    st = ref.new_round_state(STD, deck, 0)
    assert st.stock == deck[31:]
    assert len(st.stock) == 11


@pytest.mark.parametrize("dealer", [0, 1])
def test_r2_4_bids_0_to_hand_size_non_dealer_first(dealer):
    rs = stream()
    st = ref.new_round_state(STD, C.deck(), dealer)
    act(st, rs, BID, 1 - dealer, 15, options=list(range(16)))
    act(st, rs, BID, dealer, 0, options=list(range(16)))
    assert st.bids[1 - dealer] == 15 and st.bids[dealer] == 0
    # bids are secret: a seat's view holds only its own bid
    assert ref.observe(st, dealer).bid == 0 and ref.observe(st, 1 - dealer).bid == 15
    small = STD.replace(hand_size=6)
    st = ref.new_round_state(small, C.deck(), dealer)
    expect(st, rs, BID, 1 - dealer, options=[0, 1, 2, 3, 4, 5, 6])


@pytest.mark.parametrize("dealer", [0, 1])
def test_r2_5_non_dealer_leads_the_first_trick(dealer):
    rs = stream()
    st = ref.new_round_state(STD, C.deck(), dealer)
    act(st, rs, BID, 1 - dealer, 3)
    act(st, rs, BID, dealer, 3)
    expect(st, rs, CARD, 1 - dealer, options=sorted(set(st.hands[1 - dealer])))


# ============================================================ R-3 tricks


def test_r3_1_leader_may_play_any_card_distinct_faces():
    for rules in (STD, STD.replace(specials_always_playable=False, trump_anytime=True)):
        st = position(rules, hands=("N V V 2a 9c 5d", "1a 2b 3c 4d 5a 6b"), indicator="7d")
        expect(st, stream(), CARD, 0, options=cards("2a 9c 5d V N"))


# follower hand for the follow-rule table: led suit a (not trump), trump d
FOLLOWER = "2a 8a 4b 6d V N"


@pytest.mark.parametrize("specials, anytime, legal", [
    (True, False, "2a 8a V N"),
    (False, False, "2a 8a"),
    (True, True, "2a 8a 6d V N"),
    (False, True, "2a 8a 6d"),
])
def test_r3_2_must_follow_suit_branches(specials, anytime, legal):
    rules = STD.replace(specials_always_playable=specials, trump_anytime=anytime)
    st = position(rules, hands=("5a 1b 2b 3b 5b 7b", FOLLOWER), indicator="5d")
    act(st, stream(), CARD, 0, f("5a"))
    expect(st, stream(), CARD, 1, options=cards(legal))
    assert ref.legal_cards(st, 1) == cards(legal)


@pytest.mark.parametrize("specials", [True, False])
def test_r3_2_trump_anytime_without_trump_adds_nothing(specials):
    rules = STD.replace(specials_always_playable=specials, trump_anytime=True)
    st = position(rules, hands=("5a 1b 2b 3b 5b 7b", FOLLOWER), indicator="N")  # no trump
    act(st, stream(), CARD, 0, f("5a"))
    expect(st, stream(), CARD, 1, options=cards("2a 8a V N" if specials else "2a 8a"))


@pytest.mark.parametrize("specials", [True, False])
@pytest.mark.parametrize("anytime", [True, False])
def test_r3_2_trump_led_follow_trump(specials, anytime):
    rules = STD.replace(specials_always_playable=specials, trump_anytime=anytime)
    st = position(rules, hands=("3d 1b 2b 3b 5b 7b", FOLLOWER), indicator="5d")
    act(st, stream(), CARD, 0, f("3d"))
    expect(st, stream(), CARD, 1, options=cards("6d V N" if specials else "6d"))


@pytest.mark.parametrize("specials", [True, False])
@pytest.mark.parametrize("anytime", [True, False])
def test_r3_2_void_follower_may_play_anything(specials, anytime):
    rules = STD.replace(specials_always_playable=specials, trump_anytime=anytime)
    st = position(rules, hands=("5c 1b 2b 3b 5b 7b", FOLLOWER), indicator="5d")
    act(st, stream(), CARD, 0, f("5c"))
    expect(st, stream(), CARD, 1, options=cards("2a 8a 4b 6d V N"))


@pytest.mark.parametrize("led", ["V", "N"])
@pytest.mark.parametrize("specials", [True, False])
def test_r3_2_led_special_follower_may_play_anything(led, specials):
    rules = STD.replace(specials_always_playable=specials)
    st = position(rules, hands=(f"{led} 1b 2b 3b 5b 7b", "2a 8a 4b 6d V N"), indicator="5d")
    act(st, stream(), CARD, 0, f(led))
    expect(st, stream(), CARD, 1, options=cards("2a 8a 4b 6d V N"))


# (lead, follow, expected, indicator); trump is the indicator's suit (d for "5d")
RESOLUTION = [
    ("7a", "5a", L, "5d"),  # same suit, leader higher
    ("5a", "7a", F, "5d"),  # same suit, follower higher
    ("9a", "1a", L, "5d"),
    ("7a", "9b", L, "5d"),  # off-suit, not trump
    ("9a", "2d", F, "5d"),  # follower trumps
    ("2d", "9a", L, "5d"),  # trump led, follower off-suit
    ("2d", "7d", F, "5d"),  # both trump
    ("7d", "2d", L, "5d"),
    ("2a", "9b", L, "N"),  # no trump: off-suit loses
    ("2a", "9d", L, "V"),  # no trump: suit d is nothing special
    ("V", "5a", X, "5d"),  # a Valknut with every card type
    ("5a", "V", X, "5d"),
    ("V", "2d", X, "5d"),
    ("2d", "V", X, "5d"),
    ("V", "N", X, "5d"),
    ("N", "V", X, "5d"),
    ("V", "V", X, "5d"),
    ("N", "5a", F, "5d"),  # exactly one N: the other card's player wins
    ("5a", "N", L, "5d"),
    ("N", "2d", F, "5d"),
    ("2d", "N", L, "5d"),
    ("N", "1a", F, "V"),
    ("9a", "N", L, "V"),
]


def _play_resolution(rules, lead, follow, indicator, leader=0):
    rs = stream()
    hands = [None, None]
    hands[leader], hands[1 - leader] = lead, follow
    st = position(rules, hands=hands, indicator=indicator, leader=leader)
    play_trick(st, rs, lead, follow)
    round_ends(st, rs)
    return st


@pytest.mark.parametrize("lead, follow, expected, indicator", RESOLUTION)
@pytest.mark.parametrize("leader", [0, 1])
def test_r3_3_resolution_every_card_type_pair(lead, follow, expected, indicator, leader):
    st = _play_resolution(QUIET, lead, follow, indicator, leader)
    code = {L: 0, F: 1, X: ref.DESTROYED}[expected]
    assert ref.trick_winner(st, f(lead), f(follow)) == code
    trick = (f(lead), f(follow))
    if expected == X:  # counts for nobody, the cards go to the discard
        assert st.won == [[], []]
        assert st.discard[-2:] == [f(lead), f(follow)]
        assert st.destroyed_tricks == 1
    else:  # the winner adds the trick (both cards)
        winner = leader if expected == L else 1 - leader
        assert st.won[winner] == [trick] and st.won[1 - winner] == []
        assert st.destroyed_tricks == 0
    assert_conserved(st)


@pytest.mark.parametrize("rule, expected", [("first_played", L), ("second_played", F)])
@pytest.mark.parametrize("leader", [0, 1])
def test_r3_3_2_double_hagalaz_winner(rule, expected, leader):
    rules = QUIET.replace(double_hagalaz_winner=rule)
    st = _play_resolution(rules, "N", "N", "5d", leader)
    winner = leader if expected == L else 1 - leader
    assert st.won[winner] == [(C.N, C.N)] and st.won[1 - winner] == []
    assert ref.trick_winner(st, C.N, C.N) == (0 if expected == L else 1)


def test_r3_3_1_double_valknut_turns_the_top_stock_card():
    rs = stream()
    st = position(QUIET, hands=("V 9a", "V 2a"), stock="3c 8b 1b", indicator="5d")
    play_trick(st, rs, "V", "V")
    assert st.indicator == f("3c") and st.trump == 2
    assert st.stock == cards("8b 1b")
    assert st.discard.count(f("5d")) == 1  # the old indicator is discarded
    assert st.trump_changes == 1 and st.destroyed_tricks == 1
    assert_conserved(st)
    # the new trump (c) applies from the next trick; the old one (d) is gone
    assert ref.trick_winner(st, f("9a"), f("2c")) == 1
    assert ref.trick_winner(st, f("9a"), f("2d")) == 0


def test_r3_3_1_double_valknut_same_suit_still_counts_as_a_trump_change():
    # §6 trump_changes counts replacements whether or not the trump differs
    rs = stream()
    st = position(QUIET, hands=("V 9a", "V 2a"), stock="2d", indicator="5d")
    play_trick(st, rs, "V", "V")
    assert st.indicator == f("2d") and st.trump == 3 and st.stock == []
    assert st.trump_changes == 1


@pytest.mark.parametrize("means", ["no_trump", "redraw"])
@pytest.mark.parametrize("top", ["V", "N"])
def test_r3_3_1_double_valknut_special_means_no_trump_even_under_redraw(means, top):
    rules = QUIET.replace(special_indicator_means=means)
    rs = stream()
    st = position(rules, hands=("V 9a", "V 2a"), stock=f"{top} 8b", indicator="5d")
    play_trick(st, rs, "V", "V")
    assert st.indicator == f(top) and st.trump == ref.NO_TRUMP
    assert st.stock == cards("8b")
    assert st.trump_changes == 1
    assert st.no_trump_rounds == 0  # §6 counts rounds that *started* without trump
    assert_conserved(st)


def test_r3_3_1_double_valknut_empty_stock_changes_nothing():
    rs = stream()
    st = position(QUIET, hands=("V 9a", "V 2a"), stock="", indicator="5d")
    play_trick(st, rs, "V", "V")
    assert st.indicator == f("5d") and st.trump == 3
    assert st.trump_changes == 0 and st.destroyed_tricks == 1
    assert_conserved(st)


def test_r3_3_1_double_valknut_switch_off_changes_nothing():
    rs = stream()
    st = position(QUIET.replace(double_valknut_changes_trump=False), hands=("V 9a", "V 2a"), stock="3c 8b",
                  indicator="5d")
    play_trick(st, rs, "V", "V")
    assert st.indicator == f("5d") and st.trump == 3 and st.stock == cards("3c 8b")
    assert st.trump_changes == 0


@pytest.mark.parametrize("lead, follow", [("V", "5a"), ("5a", "V"), ("V", "N"), ("N", "V")])
def test_r3_3_1_single_valknut_never_changes_trump(lead, follow):
    rs = stream()
    st = position(QUIET, hands=(f"{lead} 9a", f"{follow} 2a"), stock="3c 8b", indicator="5d")
    play_trick(st, rs, lead, follow)
    assert st.indicator == f("5d") and st.stock == cards("3c 8b") and st.trump_changes == 0


def test_r3_5_trick_is_won_with_the_winners_card_not_any_card_in_it():
    # the leader wins with a 6 over a follower's off-suit 1: a swap (6), no steal (the 1 lost)
    rs = stream()
    st = position(STD, hands=("6a 9c", "1b 2c"), won=((), ("4b 5b",)), leader=0)
    play_trick(st, rs, "6a", "1b")
    expect(st, rs, SWAP, 0)
    # the leader wins with a 1 because the follower played N: a steal
    st = position(STD, hands=("1a 9c", "N 2c"), won=((), ("4b 5b",)), leader=0)
    play_trick(st, rs, "1a", "N")
    expect(st, rs, STEAL, 0)


# ============================================================ R-4.1 the 3-effect


def test_r4_1_played_trigger_lost_three_trades_yes_then_discard_the_drawn_card():
    rs = stream()
    st = position(STD, hands=("3a 8b", "5a 8c"), stock="2d 4d", leader=0)
    play_trick(st, rs, "3a", "5a")  # the follower wins; the leader's 3 lost
    act(st, rs, TRADE, 0, YES, options=[YES, NO])
    act(st, rs, DISCARD, 0, f("2d"), options=cards("8b 2d"))  # DP-4 includes the drawn card
    assert st.hands[0] == cards("8b") and st.buried[0] == cards("2d")
    assert st.stock == cards("4d") and st.trades == [1, 0]
    expect(st, rs, CARD, 1)  # the winner leads
    assert_conserved(st)


def test_r4_1_trade_then_discard_another_card_keeps_the_drawn_one():
    rs = stream()
    st = position(STD, hands=("3a 8b", "5a 8c"), stock="2d 4d", leader=0)
    play_trick(st, rs, "3a", "5a")
    act(st, rs, TRADE, 0, YES)
    act(st, rs, DISCARD, 0, f("8b"))
    assert st.hands[0] == cards("2d") and st.buried[0] == cards("8b")
    assert_conserved(st)


def test_r4_1_decline_changes_nothing():
    rs = stream()
    st = position(STD, hands=("3a 8b", "5a 8c"), stock="2d 4d", leader=0)
    play_trick(st, rs, "3a", "5a")
    act(st, rs, TRADE, 0, NO)
    assert st.hands[0] == cards("8b") and st.stock == cards("2d 4d") and st.trades == [0, 0]
    expect(st, rs, CARD, 1)


def test_r4_1_played_trigger_includes_a_destroyed_trick():
    rs = stream()
    st = position(STD, hands=("3a 8b", "V 8c"), stock="2d", leader=1)
    play_trick(st, rs, "V", "3a")  # seat 1 leads V, seat 0 follows 3a
    act(st, rs, TRADE, 0, YES)
    act(st, rs, DISCARD, 0, f("2d"))
    expect(st, rs, CARD, 1)  # same_leader


def test_r4_1_won_trigger_lost_three_does_not_trade():
    rs = stream()
    st = position(STD.replace(three_trigger="won"), hands=("3a 8b", "5a 8c"), stock="2d", leader=0)
    play_trick(st, rs, "3a", "5a")
    expect(st, rs, CARD, 1)
    assert st.stock == cards("2d")


def test_r4_1_won_trigger_destroyed_three_does_not_trade():
    rs = stream()
    st = position(STD.replace(three_trigger="won"), hands=("3a 8b", "V 8c"), stock="2d", leader=0)
    play_trick(st, rs, "3a", "V")
    expect(st, rs, CARD, 0)


def test_r4_1_won_trigger_winning_three_trades():
    rs = stream()
    st = position(STD.replace(three_trigger="won"), hands=("3a 8b", "2a 8c"), stock="2d", leader=0)
    play_trick(st, rs, "3a", "2a")
    act(st, rs, TRADE, 0, YES)


@pytest.mark.parametrize("trigger, traders", [("played", [1, 0]), ("won", [1])])
def test_r4_1_two_threes_leaders_first(trigger, traders):
    # seat 1 leads 3a, seat 0 follows 3b (off-suit, trump d): the leader wins
    rs = stream()
    st = position(STD.replace(three_trigger=trigger), hands=("3b 8b", "3a 8c"), stock="2d 4d", leader=1)
    play_trick(st, rs, "3a", "3b")
    for seat in traders:
        act(st, rs, TRADE, seat, YES)
        act(st, rs, DISCARD, seat, st.hands[seat][-1])
    expect(st, rs, CARD, 1)
    assert st.trades == [int(0 in traders), 1]


def test_r4_1_stock_checked_per_three_last_card_taken_by_the_leader():
    rs = stream()
    st = position(STD, hands=("3b 8b", "3a 8c"), stock="2d", leader=1)
    play_trick(st, rs, "3a", "3b")
    act(st, rs, TRADE, 1, YES)
    act(st, rs, DISCARD, 1, f("2d"))
    assert st.stock == []
    expect(st, rs, CARD, 1)  # the follower's 3 finds the stock empty: no DP-3
    assert st.trades == [0, 1]


def test_r4_1_stock_checked_per_three_leader_declines_follower_may_trade():
    rs = stream()
    st = position(STD, hands=("3b 8b", "3a 8c"), stock="2d", leader=1)
    play_trick(st, rs, "3a", "3b")
    act(st, rs, TRADE, 1, NO)
    act(st, rs, TRADE, 0, YES)
    act(st, rs, DISCARD, 0, f("2d"))
    assert st.trades == [1, 0]


def test_r4_1_empty_stock_no_dp():
    rs = stream()
    st = position(STD, hands=("3b 8b", "3a 8c"), stock="", leader=1)
    play_trick(st, rs, "3a", "3b")
    expect(st, rs, CARD, 1)


def test_r4_1_mandatory_draws_without_dp3_and_checks_the_stock_per_three():
    rs = stream()
    st = position(STD.replace(effect_3="mandatory"), hands=("3b 8b", "3a 8c"), stock="2d", leader=1)
    play_trick(st, rs, "3a", "3b")
    act(st, rs, DISCARD, 1, f("8c"), options=cards("8c 2d"))
    expect(st, rs, CARD, 1)  # the stock is now empty: the follower's 3 does nothing
    assert st.trades == [0, 1] and st.hands[1] == cards("2d")


def test_r4_1_off_ignores_threes():
    rs = stream()
    st = position(STD.replace(effect_3="off"), hands=("3b 8b", "3a 8c"), stock="2d", leader=1)
    play_trick(st, rs, "3a", "3b")
    expect(st, rs, CARD, 1)
    assert st.stock == cards("2d") and st.trades == [0, 0]


@pytest.mark.parametrize("mode", ["optional", "mandatory"])
def test_r4_1_after_the_last_trick_draw_and_forced_discard(mode):
    rs = stream()
    st = position(STD.replace(effect_3=mode), hands=("3a", "5a"), stock="2d 7b", leader=0)
    play_trick(st, rs, "3a", "5a")
    if mode == "optional":
        act(st, rs, TRADE, 0, YES)
    plies = st.plies
    act(st, rs, DISCARD, 0, f("2d"), options=cards("2d"))  # a single option, still a ply (§5)
    assert st.plies == plies + 1
    round_ends(st, rs)
    assert st.hands == [[], []] and st.buried[0] == cards("2d") and st.stock == cards("7b")
    assert st.tricks_played == 15
    assert_conserved(st)


# ============================================================ R-4.2 the 1-effect


def _steal_position(rules, opp_won=("2b 4b", "7b 8b")):
    # trump d; seat 0 leads 5a, seat 1 wins with the trump 1d
    return position(rules, hands=("5a 9c", "1d 2c"), won=(opp_won, ()), leader=0)


def test_r4_2_steal_moves_the_most_recent_trick():
    rs = stream()
    st = _steal_position(STD)
    play_trick(st, rs, "5a", "1d")
    act(st, rs, STEAL, 1, YES, options=[YES, NO])
    assert st.won[0] == [tuple(cards("2b 4b"))]
    assert st.won[1] == [tuple(cards("5a 1d")), tuple(cards("7b 8b"))]
    assert st.steals == [0, 1]
    expect(st, rs, CARD, 1)
    assert_conserved(st)


def test_r4_2_stolen_trick_is_the_most_recently_added_one():
    # seat 1 wins (5a 1d) with a 1 and steals (7b 8b); seat 0 then wins with a 1 and steals back the
    # trick most recently added to seat 1's pile: the stolen (7b 8b), not the one seat 1 won itself
    rs = stream()
    st = position(STD, hands=("5a 1a 9b", "1d N 8c"), won=(("2b 4b", "7b 8b"), ()), leader=0)
    play_trick(st, rs, "5a", "1d")
    act(st, rs, STEAL, 1, YES)
    assert st.won[1] == [tuple(cards("5a 1d")), tuple(cards("7b 8b"))]
    play_trick(st, rs, "N", "1a")  # seat 1 leads N, seat 0 wins with its 1a
    act(st, rs, STEAL, 0, YES)
    assert st.won[1] == [tuple(cards("5a 1d"))]
    assert st.won[0] == [tuple(cards("2b 4b")), tuple(cards("N 1a")), tuple(cards("7b 8b"))]
    assert st.steals == [1, 1]
    expect(st, rs, CARD, 1)  # the N trick's loser leads
    assert_conserved(st)


def test_r4_2_steal_declined():
    rs = stream()
    st = _steal_position(STD)
    play_trick(st, rs, "5a", "1d")
    act(st, rs, STEAL, 1, NO)
    assert len(st.won[0]) == 2 and len(st.won[1]) == 1 and st.steals == [0, 0]


def test_r4_2_steal_mandatory_without_dp():
    rs = stream()
    st = _steal_position(STD.replace(effect_1="mandatory"))
    play_trick(st, rs, "5a", "1d")
    expect(st, rs, CARD, 1)
    assert st.won[0] == [tuple(cards("2b 4b"))] and st.won[1][-1] == tuple(cards("7b 8b"))
    assert st.steals == [0, 1]


def test_r4_2_steal_off():
    rs = stream()
    st = _steal_position(STD.replace(effect_1="off"))
    play_trick(st, rs, "5a", "1d")
    expect(st, rs, CARD, 1)
    assert len(st.won[0]) == 2 and st.steals == [0, 0]


@pytest.mark.parametrize("mode", ["optional", "mandatory"])
def test_r4_2_no_opponent_tricks_no_steal(mode):
    rs = stream()
    st = _steal_position(STD.replace(effect_1=mode), opp_won=())
    play_trick(st, rs, "5a", "1d")
    expect(st, rs, CARD, 1)
    assert st.steals == [0, 0] and len(st.won[1]) == 1


def test_r4_2_a_one_in_a_destroyed_trick_steals_nothing():
    rs = stream()
    st = position(STD, hands=("1a 9c", "V 2c"), won=((), ("2b 4b",)), leader=0)
    play_trick(st, rs, "1a", "V")
    expect(st, rs, CARD, 0)


def test_r4_2_steal_on_the_last_trick_counts_at_scoring():
    rs = stream()
    st = position(STD, hands=("5a", "1d"), won=(("2b 4b",), ()), leader=0, bids=(1, 2))
    play_trick(st, rs, "5a", "1d")
    act(st, rs, STEAL, 1, YES)
    round_ends(st, rs)
    ref.score_round(st)
    # tricks are counted after steals: seat 1 holds 2 tricks = its bid, seat 0 none
    assert st.scores == [0, 2 + 10] and st.exact_bids == [0, 1]


# ============================================================ R-4.3 the 6-effect


def _swap_position(rules, follower="2a 4c N"):
    # seat 0 leads 6a and wins over 2a
    return position(rules, hands=("6a 9b V", follower), leader=0)


def test_r4_3_swap_take_then_give_another_card():
    rs = stream(4)
    st = _swap_position(STD)
    play_trick(st, rs, "6a", "2a")
    act(st, rs, SWAP, 0, YES, options=[YES, NO])
    taken = st.taken
    assert taken in cards("4c N")
    assert st.hands[0] == sorted(cards("9b V") + [taken])  # the taken card is in the winner's hand
    act(st, rs, GIVE, 0, C.V, options=sorted({f("9b"), C.V, taken}))  # DP-7 includes the taken card
    assert st.hands[0] == sorted([f("9b"), taken])
    assert st.hands[1] == sorted([C.V] + [x for x in cards("4c N") if x != taken])
    assert st.swaps == [1, 0]
    expect(st, rs, CARD, 0)
    assert_conserved(st)


@pytest.mark.parametrize("seed", range(4))
def test_r4_3_give_back_the_taken_card_is_still_a_swap(seed):
    rs = stream(seed)
    st = _swap_position(STD)
    play_trick(st, rs, "6a", "2a")
    act(st, rs, SWAP, 0, YES)
    taken = st.taken
    assert taken in cards("4c N")
    d = expect(st, rs, GIVE, 0)
    assert taken in d.options
    plies = st.plies
    ref.apply_decision(st, d, taken, rs)
    assert st.plies == plies + 1
    assert st.hands == [cards("9b V"), cards("4c N")] and st.swaps == [1, 0]


def test_r4_3_take_is_uniform_over_physical_cards():
    base = position(STD, hands=("6a 9b 8b 7b", "2a 2b V V"), leader=0)
    play_trick(base, stream(), "6a", "2a")
    assert base.hands[1] == cards("2b V V")  # two physical V, one 2b
    n, taken = 3000, collections.Counter()
    for seed in range(n):
        st = base.copy()
        act(st, Stream(seed, 1, CHANCE), SWAP, 0, YES)
        taken[st.taken] += 1
    assert set(taken) == {f("2b"), C.V}
    p = 2 / 3
    assert abs(taken[C.V] - n * p) < 4 * (n * p * (1 - p)) ** 0.5


def test_r4_3_declined_swap():
    rs = stream()
    st = _swap_position(STD)
    play_trick(st, rs, "6a", "2a")
    act(st, rs, SWAP, 0, NO)
    assert st.hands == [cards("9b V"), cards("4c N")] and st.swaps == [0, 0]
    expect(st, rs, CARD, 0)


def test_r4_3_mandatory_swap_goes_straight_to_give():
    rs = stream()
    st = _swap_position(STD.replace(effect_6="mandatory"))
    play_trick(st, rs, "6a", "2a")
    act(st, rs, GIVE, 0, f("9b"))
    assert st.swaps == [1, 0] and f("9b") in st.hands[1]
    assert len(st.hands[0]) == len(st.hands[1]) == 2


def test_r4_3_off_no_swap():
    rs = stream()
    st = _swap_position(STD.replace(effect_6="off"))
    play_trick(st, rs, "6a", "2a")
    expect(st, rs, CARD, 0)
    assert st.swaps == [0, 0]


@pytest.mark.parametrize("mode", ["optional", "mandatory"])
def test_r4_3_empty_opponent_hand_no_swap(mode):
    rs = stream()
    st = position(STD.replace(effect_6=mode), hands=("2a", "6a"), leader=0)
    play_trick(st, rs, "2a", "6a")  # the follower wins the last trick with a 6
    round_ends(st, rs)
    assert st.swaps == [0, 0]


def test_r4_3_a_six_in_a_destroyed_or_lost_trick_swaps_nothing():
    rs = stream()
    st = position(STD, hands=("6a 9b 8b", "V 4c 2c"), leader=0)
    play_trick(st, rs, "6a", "V")
    expect(st, rs, CARD, 0)
    play_trick(st, rs, "9b", "4c")  # the leader wins with 9 (void follower)...
    expect(st, rs, CARD, 1)  # ...and cedes the lead
    st = position(STD, hands=("6a 9b", "8a 2c"), leader=0)
    play_trick(st, rs, "6a", "8a")  # the follower wins with 8: the 6 lost
    expect(st, rs, CARD, 1)


# ============================================================ R-4.4 next leader


@pytest.mark.parametrize("rule, lead, follow, nxt", [
    ("same_leader", "5a", "V", L),
    ("same_leader", "V", "5a", L),
    ("same_leader", "V", "V", L),
    ("valknut_player", "V", "5a", L),
    ("valknut_player", "5a", "V", F),
    ("valknut_player", "V", "V", L),
    ("other_player", "5a", "V", F),
    ("other_player", "V", "5a", F),
    ("other_player", "V", "V", F),
    # valknut_overrides_hagalaz_lead = true (default): the Valknut rule, whatever the N
    ("same_leader", "V", "N", L),
    ("valknut_player", "N", "V", F),
    ("other_player", "N", "V", F),
])
@pytest.mark.parametrize("leader", [0, 1])
def test_r4_4_1_destroyed_trick_next_leader(rule, lead, follow, nxt, leader):
    rs = stream()
    rules = QUIET.replace(destroyed_trick_next_leader=rule)
    hands = [None, None]
    hands[leader], hands[1 - leader] = f"{lead} 9b", f"{follow} 9c"
    st = position(rules, hands=hands, leader=leader)
    play_trick(st, rs, lead, follow)
    expect(st, rs, CARD, leader if nxt == L else 1 - leader)


@pytest.mark.parametrize("rule", ["same_leader", "valknut_player", "other_player"])
@pytest.mark.parametrize("lead, follow, nxt", [("N", "V", L), ("V", "N", F)])
def test_r4_4_1_hagalaz_player_leads_when_valknut_does_not_override(rule, lead, follow, nxt):
    rs = stream()
    rules = QUIET.replace(destroyed_trick_next_leader=rule, valknut_overrides_hagalaz_lead=False)
    st = position(rules, hands=(f"{lead} 9b", f"{follow} 9c"), leader=0)
    play_trick(st, rs, lead, follow)
    expect(st, rs, CARD, 0 if nxt == L else 1)


@pytest.mark.parametrize("lead, follow, double, nxt", [
    ("N", "5a", "first_played", L),  # the follower wins, the N player (loser) leads
    ("5a", "N", "first_played", F),
    ("N", "9a", "first_played", L),
    ("9a", "N", "first_played", F),
    ("N", "N", "first_played", F),  # the first N wins, the second player (loser) leads
    ("N", "N", "second_played", L),
])
@pytest.mark.parametrize("nine", [True, False])
def test_r4_4_2_hagalaz_trick_loser_leads(lead, follow, double, nxt, nine):
    rs = stream()
    rules = QUIET.replace(double_hagalaz_winner=double, effect_9=nine)
    st = position(rules, hands=(f"{lead} 9b", f"{follow} 9c"), leader=0)
    play_trick(st, rs, lead, follow)
    expect(st, rs, CARD, 0 if nxt == L else 1)


@pytest.mark.parametrize("lead, follow, nine, nxt", [
    ("9a", "2a", True, F),  # the leader wins with a 9: the follower leads
    ("9a", "2a", False, L),
    ("2a", "9a", True, L),  # the follower wins with a 9: the leader leads
    ("2a", "9a", False, F),
    ("9a", "5b", True, F),  # won with a 9 over an off-suit card
    ("5a", "9b", True, L),  # a 9 that lost does nothing: the winner leads
    ("9a", "2d", True, F),  # trumped 9: the winner (follower) leads
    ("9d", "2a", True, F),  # a trump 9 cedes too
])
def test_r4_4_3_nine_cedes_the_lead(lead, follow, nine, nxt):
    rs = stream()
    st = position(QUIET.replace(effect_9=nine), hands=(f"{lead} 8b", f"{follow} 8c"), leader=0)
    play_trick(st, rs, lead, follow)
    expect(st, rs, CARD, 0 if nxt == L else 1)


@pytest.mark.parametrize("lead, follow, nxt", [("7a", "5a", L), ("5a", "7a", F), ("7a", "2d", F), ("2d", "8a", L)])
@pytest.mark.parametrize("leader", [0, 1])
def test_r4_4_4_winner_leads(lead, follow, nxt, leader):
    rs = stream()
    hands = [None, None]
    hands[leader], hands[1 - leader] = f"{lead} 8b", f"{follow} 8c"
    st = position(QUIET, hands=hands, leader=leader)
    play_trick(st, rs, lead, follow)
    expect(st, rs, CARD, leader if nxt == L else 1 - leader)


def test_r4_effect_order_three_then_one_then_next_leader():
    # trump d; seat 0 leads 3a, seat 1 wins with the trump 1d; seat 0 holds a won trick
    rs = stream()
    st = position(STD, hands=("3a 9c", "1d 2c"), stock="7b", won=(("2b 4b",), ()), leader=0)
    play_trick(st, rs, "3a", "1d")
    act(st, rs, TRADE, 0, YES)
    act(st, rs, DISCARD, 0, f("7b"))
    act(st, rs, STEAL, 1, YES)
    expect(st, rs, CARD, 1)


def test_r4_effect_order_three_then_six_then_next_leader():
    rs = stream()
    st = position(STD, hands=("3a 9c", "6d 2c"), stock="7b", leader=0)
    play_trick(st, rs, "3a", "6d")
    act(st, rs, TRADE, 0, YES)
    act(st, rs, DISCARD, 0, f("9c"))  # the 3-discard happens before the take
    assert st.hands[0] == cards("7b")
    act(st, rs, SWAP, 1, YES)
    assert st.taken == f("7b")  # the only card left: the one just drawn
    act(st, rs, GIVE, 1, f("2c"))
    expect(st, rs, CARD, 1)
    assert st.hands == [cards("2c"), cards("7b")]
    assert_conserved(st)


def test_r4_1_effect_order_both_mandatory_threes_leader_first():
    rs = stream()
    # trump d: seat 1 leads 3a, seat 0 trumps with 3d and wins; both 3s draw, the leader's first
    st = position(STD.replace(effect_3="mandatory"), hands=("3d 9c", "3a 2c"), stock="7b 8b", leader=1)
    play_trick(st, rs, "3a", "3d")
    act(st, rs, DISCARD, 1, f("7b"))  # the leader's 3 first
    act(st, rs, DISCARD, 0, f("8b"))
    expect(st, rs, CARD, 0)


def spec_follow_options(st, seat) -> list:
    """R-3.2 written out from the spec, for random positions."""
    c, rules, hand = st.cards, st.rules, st.hands[seat]
    led = st.trick[0]
    faces = sorted(set(hand))
    if led >= c.suited or not any(c.suit(x) == c.suit(led) for x in hand):
        return faces
    return [x for x in faces if c.suit(x) == c.suit(led)
            or (x >= c.suited and rules.specials_always_playable)
            or (rules.trump_anytime and st.trump != ref.NO_TRUMP and c.suit(x) == st.trump)]


# ============================================================ R-4.5 tricks per round, with §7 invariants


@pytest.mark.parametrize("config", [
    {},
    {"effect_1": "mandatory", "effect_3": "mandatory", "effect_6": "mandatory"},
    {"three_trigger": "won", "special_indicator_means": "redraw", "trump_anytime": True},
    {"specials_always_playable": False, "destroyed_trick_next_leader": "other_player",
     "valknut_overrides_hagalaz_lead": False, "double_hagalaz_winner": "second_played"},
    {"hand_size": 5, "valknut_count": 6, "hagalaz_count": 6},
])
def test_r4_5_a_round_has_exactly_hand_size_tricks(config):
    rules = STD.replace(**config)
    h, c = rules.hand_size, ref.Cards(rules)
    for seed in range(12):
        chance, pick = Stream(seed, 0, CHANCE), Stream(seed, 0, 1)
        st = ref.new_round_state(rules, ref.shuffled_deck(rules, chance), seed % 2)
        stock0 = len(st.stock)
        tricks = 0
        while (d := ref.next_decision(st, chance)) is not None:
            assert_conserved(st)
            assert len(st.stock) <= stock0  # §7.9
            assert (st.trump == ref.NO_TRUMP) == (st.indicator >= c.suited)  # §7.7
            if d.kind == CARD and st.phase == "lead":
                # §7.2: between tricks both hands hold hand_size - k cards
                assert len(st.hands[0]) == len(st.hands[1]) == h - st.tricks_played
                tricks = st.tricks_played
            if d.kind == CARD and st.phase == "follow":
                assert d.options == spec_follow_options(st, d.seat)  # §7.8
            ref.apply_decision(st, d, d.options[pick.below(len(d.options))], chance)
        assert st.tricks_played == h == st.turns and tricks == h - 1
        assert st.hands == [[], []]
        assert len(st.won[0]) + len(st.won[1]) + st.destroyed_tricks == h  # §7.3
        assert_conserved(st)


# ============================================================ R-5 scoring

# (won, bid, standard, publisher, consolation_requires_exact_bid)
SCORES = [
    (0, 0, 10, 10, 10),
    (0, 1, 0, 0, 0),
    (2, 2, 12, 12, 12),
    (2, 3, 2, 2, 2),
    (3, 3, 18, 18, 8),
    (3, 2, 8, 8, 3),
    (4, 4, 19, 19, 9),
    (4, 0, 9, 9, 4),
    (5, 5, 20, 15, 10),
    (5, 4, 10, 5, 5),
    (6, 6, 16, 16, 16),
    (6, 5, 6, 6, 6),
    (15, 15, 25, 25, 25),
    (15, 0, 15, 15, 15),
]


@pytest.mark.parametrize("won, bid, standard, publisher, exact_only", SCORES)
def test_r5_round_points_table(won, bid, standard, publisher, exact_only):
    assert ref.round_points(STD, won, bid) == standard
    assert ref.round_points(Rules.preset("publisher"), won, bid) == publisher
    assert ref.round_points(STD.replace(consolation_requires_exact_bid=True), won, bid) == exact_only


def test_r5_round_points_parameters():
    rules = STD.replace(points_per_trick=2, exact_bid_bonus=7, consolation_bonus=-1,
                        consolation_range=frozenset({0, 1}))
    assert ref.round_points(rules, 1, 1) == 2 + 7 - 1
    assert ref.round_points(rules, 3, 3) == 6 + 7
    assert ref.round_points(rules, 0, 2) == -1


@pytest.mark.parametrize("rules, expected", [
    (STD, [3 + 10 + 5, 6]),
    (Rules.preset("publisher"), [3 + 10 + 5, 6]),
    (STD.replace(consolation_requires_exact_bid=True), [3 + 5, 6]),
])
def test_r5_score_round_on_a_finished_round(rules, expected):
    st = position(rules, hands=("", ""), won=(("1a 2a", "3a 4a", "5a 6a"), ("1b 2b", "3b 4b", "5b 6b", "7b 8b",
                                                                             "9b 1c", "2c 3c")), bids=(3, 2))
    st.scores, st.exact_bids = [40, 1], [2, 0]
    ref.score_round(st)
    assert st.round_points == expected
    assert st.scores == [40 + expected[0], 1 + expected[1]]
    assert st.exact_bids == [3, 0]


# ============================================================ R-6 rounds and end of game


@pytest.mark.parametrize("first", ["seat0", "seat1", "random"])
def test_r6_1_dealer_alternates(first):
    rules = STD.replace(first_dealer=first, target_score=10_000, max_rounds=6)
    for game in range(3):
        dealers, first_bidders = [], []

        def observer(st, d, option):
            if d is None:
                dealers.append(st.dealer)
            elif d.kind == BID and st.bid_turn == 0:
                first_bidders.append(d.seat)

        rec = ref.play_game(rules, 13, game, observer=observer)
        assert rec.rounds == 6
        assert dealers == [rec.first_dealer, 1 - rec.first_dealer] * 3
        assert first_bidders == [1 - x for x in dealers]


def test_r6_2_game_over_checked_at_round_end():
    st = position(STD, hands=("", ""))
    for scores, round_no, over in [([49, 49], 9, False), ([50, 0], 1, True), ([0, 50], 3, True),
                                   ([10, 12], 10, True), ([-5, 0], 10, True), ([49, 0], 9, False)]:
        st.scores, st.round_no = scores, round_no
        assert ref.game_over(st) == over, (scores, round_no)


@pytest.mark.parametrize("target, max_rounds", [(50, 10), (20, 10), (10_000, 3), (1, 10)])
def test_r6_2_game_ends_at_the_first_round_reaching_target_or_max_rounds(target, max_rounds):
    rules = STD.replace(target_score=target, max_rounds=max_rounds)
    for game in range(15):
        after = []
        rec = ref.play_game(rules, 21, game,
                            observer=lambda st, d, o: after.append(list(st.scores)) if d is None else None)
        assert len(after) == rec.rounds <= max_rounds
        assert after[-1] == rec.score
        assert all(max(s) < target for s in after[:-1])  # no earlier round end reached the target
        assert all(a[i] <= b[i] for a, b in zip(after, after[1:]) for i in (0, 1))  # §7.5
        assert max(after[-1]) >= target or rec.rounds == max_rounds
        assert rec.turns == rec.rounds * rules.hand_size  # §6


@pytest.mark.parametrize("tiebreak", ["most_correct_bids_then_draw", "draw"])
def test_r6_3_winner_table(tiebreak):
    rules = STD.replace(tiebreak=tiebreak)
    by_bids = tiebreak == "most_correct_bids_then_draw"
    assert ref.winner(rules, [51, 50], [0, 5]) == 0
    assert ref.winner(rules, [40, 55], [3, 0]) == 1
    assert ref.winner(rules, [50, 50], [2, 1]) == (0 if by_bids else -1)
    assert ref.winner(rules, [50, 50], [1, 2]) == (1 if by_bids else -1)
    assert ref.winner(rules, [50, 50], [2, 2]) == -1


@pytest.mark.parametrize("seed, exact_winner", [(1453, 0), (1663, 1)])
def test_r6_3_tied_game_record_under_both_tiebreaks(seed, exact_winner):
    # seeds found by search: one round, equal scores, different exact-bid counts
    rules = STD.replace(max_rounds=1)
    rec = ref.play_game(rules, seed, 0)
    assert rec.score[0] == rec.score[1] and rec.exact_bids[exact_winner] > rec.exact_bids[1 - exact_winner]
    assert (rec.result, rec.winner) == ("win", exact_winner)
    rec = ref.play_game(rules.replace(tiebreak="draw"), seed, 0)
    assert rec.score[0] == rec.score[1]
    assert (rec.result, rec.winner) == ("draw", -1)


def test_r6_3_full_tie_is_a_draw_under_the_default():
    rec = ref.play_game(STD.replace(max_rounds=1), 1, 0)
    assert rec.score[0] == rec.score[1] and rec.exact_bids[0] == rec.exact_bids[1]
    assert (rec.result, rec.winner) == ("draw", -1)


# ============================================================ §5 decision points


def test_dp_single_option_counts_as_a_ply():
    rs = stream()
    rules = STD.replace(specials_always_playable=False)
    st = position(rules, hands=("5a 9b", "2a V"), leader=0)
    act(st, rs, CARD, 0, f("5a"))
    plies = st.plies
    act(st, rs, CARD, 1, f("2a"), options=cards("2a"))
    assert st.plies == plies + 1


def test_dp_plies_equal_decisions_presented_in_a_game():
    count = [0]

    def observer(st, d, option):
        if d is not None:
            count[0] += 1
            assert option in d.options
            assert d.options == sorted(set(d.options)) or d.options == [YES, NO]

    rec = ref.play_game(STD, 8, 0, observer=observer)
    assert rec.plies == count[0] > 0


def test_dp_card_options_are_distinct_faces():
    rs = stream()
    st = position(STD, hands=("V V N N 2a 9b", "V 1c 2c 3c 4c 5c"), leader=0)
    act(st, rs, CARD, 0, C.V, options=cards("2a 9b V N"))
    act(st, rs, CARD, 1, C.V, options=cards("1c 2c 3c 4c 5c V"))  # led V: anything, one V option
    assert st.hands[0] == cards("2a 9b V N N")  # one of the two V was played


def test_dp_trade_discard_and_give_options_are_distinct_faces():
    rs = stream()
    st = position(STD.replace(effect_3="mandatory"), hands=("3a V 2b", "5a 1c 2c"), stock="V", leader=0)
    play_trick(st, rs, "3a", "5a")
    act(st, rs, DISCARD, 0, C.V, options=cards("2b V"))  # two physical V, one option
    st = position(STD.replace(effect_6="mandatory"), hands=("6a V V", "2a 1c 2c"), leader=0)
    play_trick(st, rs, "6a", "2a")
    d = expect(st, rs, GIVE, 0)
    assert d.options == sorted(set(st.hands[0])) and d.options.count(C.V) == 1
