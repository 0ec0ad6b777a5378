"""Herrlof, the readable pure-Python reference (spec ``docs/rules/herrlof.md``).

This module is written to be read beside the spec.  It is the oracle for the
scenario tests and the baseline the Numba kernel (``kernel.py``) must match
game for game.  A round is a small state machine: :func:`next_decision` runs
every automatic step (resolution, effects without a choice, scoring) up to
the next decision point of §5 and returns it; :func:`apply_decision` applies
the chosen option.  The same two functions serve the game, the scenario
tests (which script the choices) and the ``lookahead`` policy's rollouts
(which copy a state and play it on).  :class:`Game` plays a whole game on
them round after round (dealing, scoring, the lead measure, the round log)
and is the game's side of the decision-point protocol
(``docs/architecture.md``, "The reference side": :func:`new_game`,
:func:`option_code`); :func:`play_game` is a loop over it.
Of the kernel's modules it imports only ``layout.py``: the decision points'
codes and the record's per-seat fields.

Cards (§2.2).  A card is an int *face*: suited faces ``suit * max_rank +
rank - 1`` in (suit, rank) order, then the Valknut face ``V`` and the
Hagalaz face ``N``.  A hand is a sorted list of faces (V and N may repeat).

Order of random draws (shared with the kernel):

- chance stream (0): ``first_dealer = random`` -> one ``below(2)`` at the
  start of the game.  Each round's shuffle is a Fisher-Yates pass over the
  deck in canonical order (``for i = D-1 .. 1: j = below(i + 1)``, swap).
  The shuffled deck is dealt in blocks: cards ``0 .. h-1`` to the
  non-dealer, ``h .. 2h-1`` to the dealer, card ``2h`` is the indicator and
  the rest is the stock, top first.  The 6-effect take (a chance event,
  §5) draws ``below(size of the opponent's hand)`` and takes that card of
  the opponent's sorted hand (uniform over physical cards).
- decision stream of seat ``s`` (1 + s): ``random`` draws one ``below(n)``
  per decision point with ``n >= 2`` options; a decision point with one
  option is a ply (§5) but draws nothing.  ``greedy`` draws nothing.
  ``lookahead`` draws its determinizations and the 6-effect takes of its
  rollouts from this stream (never from the chance stream).

Choices the spec leaves open, decided here:

- The deal order above (the spec fixes only that the shuffle is uniform).
- The options of DP-3/5/6 are ``(yes, decline)`` in this order, as listed in §5.
- A 3 is "the leader's" or "the follower's" by who played it; with
  ``three_trigger = won`` only the winner's 3 of a trick won with a 3 trades.
- §6 ``trades`` counts each 3-draw; ``swaps`` each executed swap; ``steals``
  each stolen trick; ``trump_changes`` each double-Valknut replacement with a
  non-empty stock.
- ``tricks_won`` is counted at each round end (after steals) and summed.
- A game with equal scores and equal exact-bid counts under
  ``most_correct_bids_then_draw`` is a draw (R-6.3); ``winner = -1``.

Design metrics (columns after ``plies``, not in §6):

- ``decisions``: the decision points of §5 the real game presents to a
  policy (all seats).  §5 makes every DP-1 to DP-7 a decision point "even if
  it has one option", so a DP-2 with a single legal face, a DP-4 after the
  last trick and the like all count; ``decisions`` therefore equals
  ``plies``.  The automatic steps (a mandatory 3-draw, steal or 6-take, an
  effect whose trigger fails, the next leader, scoring) are no decision.
  The ``lookahead`` policy's rollouts play copies through
  :func:`next_decision` / :func:`apply_decision` and are not counted.
- ``options``: the sum over those decisions of ``len(decision.options)``,
  the list the ``random`` policy draws from (bids 0..hand_size, distinct
  legal faces, yes/decline, distinct faces in hand).
- ``lead_changes`` and ``decisive_turn`` (``toolkit.core.lead``), from
  :func:`lead_measure`: each seat's cumulative score of the hands already
  scored.  That is what is public: the bids are secret until a hand is
  scored (R-2.4), so the points of the hand in progress, which depend on the
  bid through the exact-bid bonus, are not known to the opponent.  A turn is
  one trick (§6).  The measure is reported once per trick: after a trick
  that is not the hand's last (scores do not change within a hand, so its
  R-4 effects change nothing), and after the hand's last trick once the
  hand is scored (R-5), so the last turn of the game sees the final scores.
  The exact-bid tiebreak (R-6.3) is not part of the measure, so a game won
  on it has ``decisive_turn = turns``.
"""

from __future__ import annotations

import copy
import dataclasses

from toolkit.core.lead import LeadTracker, leader as top_seat  # the seat with the strictly highest value, or -1
from toolkit.core.policy import players as core_players
from toolkit.core.rng import CHANCE, Stream
# the decision points' kind codes (§5) and the record's per-seat fields, shared with the kernel
from toolkit.games.herrlof.layout import (
    DP_BID, DP_CARD, DP_GIVE, DP_STEAL, DP_SWAP, DP_TRADE, DP_TRADE_DISCARD, SEAT_FIELDS,
)

DP_NAMES = {DP_BID: "bid", DP_CARD: "card", DP_TRADE: "trade", DP_TRADE_DISCARD: "trade_discard",
            DP_STEAL: "steal", DP_SWAP: "swap", DP_GIVE: "give"}
YES, DECLINE = "yes", "decline"  # the two options of DP-3 (trade), DP-5 (steal), DP-6 (swap)
NO_TRUMP = -1
DESTROYED = -1  # trick winner of a destroyed trick


# ---------------------------------------------------------------------- §2 cards


class Cards:
    """The faces of a deck under ``rules`` (§2.2)."""

    def __init__(self, rules):
        self.suits = rules.suits
        self.max_rank = rules.max_rank
        self.suited = rules.suits * rules.max_rank
        self.V = self.suited  # Valknut face
        self.N = self.suited + 1  # Hagalaz face
        self.n_faces = self.suited + 2
        self.count = [1] * self.suited + [rules.valknut_count, rules.hagalaz_count]

    def deck(self) -> list:
        """All D physical cards in canonical order."""
        return [f for f in range(self.n_faces) for _ in range(self.count[f])]

    def card(self, suit: int, rank: int) -> int:
        return suit * self.max_rank + rank - 1

    def suit(self, face: int) -> int:
        """Suit of a suited face, -1 for V and N."""
        return face // self.max_rank if face < self.suited else -1

    def rank(self, face: int) -> int:
        """Rank of a suited face, 0 for V and N."""
        return face % self.max_rank + 1 if face < self.suited else 0

    def name(self, face: int) -> str:
        if face == self.V:
            return "V"
        if face == self.N:
            return "N"
        return f"{self.rank(face)}{'abcd'[self.suit(face)]}"

    def parse(self, text: str) -> int:
        """``"V"``, ``"N"`` or rank + suit letter (``"9a"``, ``"3d"``)."""
        if text in ("V", "N"):
            return self.V if text == "V" else self.N
        return self.card("abcd".index(text[-1]), int(text[:-1]))


# ---------------------------------------------------------------------- §3 state


@dataclasses.dataclass
class Decision:
    """A decision point (§5): who decides what, among which options (canonical order)."""

    kind: int
    seat: int
    options: list

    @property
    def name(self) -> str:
        return DP_NAMES[self.kind]


@dataclasses.dataclass
class State:
    """The full state of a game (§3), including what each seat has learned.

    Knowledge (for policies, never for the rules): ``seen[p]`` counts the
    faces ``p`` has seen leave play (cards played to tricks, every indicator,
    ``p``'s own 3-discards); ``known[p]`` the faces ``p`` knows are in the
    opponent's hand (cards ``p`` gave by a 6 or saw taken from itself);
    ``void[p]`` the suits ``p`` knows the opponent lacks (shown by a failure to
    follow).  A 3-trade by the opponent clears ``known`` and ``void`` (the
    drawn and the buried card are unseen).
    """

    rules: object
    cards: Cards
    hands: list  # hands[seat]: sorted faces
    stock: list  # face down, stock[0] is the top
    indicator: int
    trump: int  # suit, or NO_TRUMP
    won: list  # won[seat]: list of tricks (leader's face, follower's face), oldest first
    trick: list  # faces on the table this trick, leader's first
    discard: list  # face up: destroyed tricks and replaced indicators
    buried: list  # buried[seat]: that seat's 3-discards, face down
    bids: list
    scores: list
    exact_bids: list
    dealer: int
    leader: int
    round_no: int = 1
    tricks_played: int = 0  # in this round
    # the trick being resolved and its pending effects
    trick_leader: int = -1
    trick_winner: int = DESTROYED
    winning_face: int = -1
    threes: list = dataclasses.field(default_factory=list)  # seats whose 3 still has to trade
    threes_owner: int = -1  # the seat that drew for a 3 and must discard (DP-4)
    taken: int = -1  # the face taken by the last 6-swap (DP-7 may give it back)
    phase: str = "bid"  # bid, lead, follow, three, three_discard, one, six, give, next_leader, round_end, over
    bid_turn: int = 0  # 0: the non-dealer bids next, 1: the dealer, 2: done
    # knowledge
    seen: list = None
    known: list = None
    void: list = None
    # §6 tallies
    plies: int = 0
    seat_plies: list = dataclasses.field(default_factory=lambda: [0, 0])  # decision points per seat
    turns: int = 0
    tricks_won: list = dataclasses.field(default_factory=lambda: [0, 0])
    destroyed_tricks: int = 0
    steals: list = dataclasses.field(default_factory=lambda: [0, 0])
    trades: list = dataclasses.field(default_factory=lambda: [0, 0])
    swaps: list = dataclasses.field(default_factory=lambda: [0, 0])
    trump_changes: int = 0
    no_trump_rounds: int = 0
    first_dealer: int = 0
    round_points: list = dataclasses.field(default_factory=lambda: [0, 0])  # of the last scored round
    stock_at_round_start: int = 0

    def copy(self) -> "State":
        rules = self.rules
        self.rules = None
        out = copy.deepcopy(self)
        self.rules = rules
        out.rules = rules
        return out

    def opponent(self, seat: int) -> int:
        return 1 - seat


def _empty_knowledge(cards):
    return [[0] * cards.n_faces for _ in range(2)], [[0] * cards.n_faces for _ in range(2)], [set(), set()]


def new_round_state(rules, deck_order, dealer, previous: State | None = None) -> State:
    """R-2: deal a shuffled deck (list of faces, top first) and set trump.

    ``previous`` is the state at the end of the last round: scores, exact
    bids and the §6 tallies carry over."""
    cards = Cards(rules)
    h = rules.hand_size
    non_dealer = 1 - dealer
    hands = [None, None]
    hands[non_dealer] = sorted(deck_order[:h])
    hands[dealer] = sorted(deck_order[h:2 * h])
    rest = list(deck_order[2 * h:])
    indicator = rest.pop(0)
    if rules.special_indicator_means == "redraw":  # bottom of the stock, turn the next
        while indicator >= cards.suited:
            rest.append(indicator)
            indicator = rest.pop(0)
    seen, known, void = _empty_knowledge(cards)
    for p in (0, 1):
        seen[p][indicator] += 1
    st = State(rules=rules, cards=cards, hands=hands, stock=rest, indicator=indicator,
               trump=cards.suit(indicator), won=[[], []], trick=[], discard=[], buried=[[], []],
               bids=[None, None], scores=[0, 0], exact_bids=[0, 0], dealer=dealer,
               leader=non_dealer, seen=seen, known=known, void=void)
    if previous is not None:
        st.round_no = previous.round_no + 1
        for name in ("plies", "turns", "destroyed_tricks", "trump_changes", "no_trump_rounds", "first_dealer"):
            setattr(st, name, getattr(previous, name))
        for name in ("scores", "exact_bids", "tricks_won", "steals", "trades", "swaps", "seat_plies"):
            setattr(st, name, list(getattr(previous, name)))
    else:
        st.first_dealer = dealer
    st.no_trump_rounds += st.trump == NO_TRUMP
    st.stock_at_round_start = len(st.stock)
    return st


def draw_first_dealer(rules, chance: Stream) -> int:
    """R-1.1: the first round's dealer (one ``below(2)`` from the chance stream when it is random)."""
    if rules.first_dealer == "random":
        return chance.below(2)
    return 0 if rules.first_dealer == "seat0" else 1


def shuffled_deck(rules, chance: Stream) -> list:
    """R-2.1: a uniform shuffle of the canonical deck (Fisher-Yates, top first)."""
    deck = Cards(rules).deck()
    return chance.shuffle(deck)


# ---------------------------------------------------------------------- R-3 tricks


def is_trump(st: State, face: int) -> bool:
    return st.trump != NO_TRUMP and st.cards.suit(face) == st.trump


def legal_cards(st: State, seat: int) -> list:
    """R-3.1 / R-3.2: the distinct faces ``seat`` may play now, canonical order."""
    hand = st.hands[seat]
    faces = sorted(set(hand))
    if not st.trick:  # the leader plays any card
        return faces
    c, rules = st.cards, st.rules
    led = c.suit(st.trick[0])
    if led < 0 or not any(c.suit(f) == led for f in hand):  # led special, or void: anything
        return faces
    legal = []
    for f in faces:
        if c.suit(f) == led:
            legal.append(f)
        elif f >= c.suited and rules.specials_always_playable:
            legal.append(f)
        elif rules.trump_anytime and is_trump(st, f):
            legal.append(f)
    return legal


def trick_winner(st: State, lead: int, follow: int) -> int:
    """R-3.3: 0 if the leader wins, 1 if the follower wins, DESTROYED for a Valknut."""
    c = st.cards
    if lead == c.V or follow == c.V:
        return DESTROYED
    if lead == c.N and follow == c.N:
        return 0 if st.rules.double_hagalaz_winner == "first_played" else 1
    if lead == c.N:  # the other card's player wins
        return 1
    if follow == c.N:
        return 0
    if c.suit(lead) == c.suit(follow):
        return 0 if c.rank(lead) > c.rank(follow) else 1
    if is_trump(st, follow):
        return 1
    return 0


def _remove(hand: list, face: int) -> None:
    hand.remove(face)


def _add(hand: list, face: int) -> None:
    hand.append(face)
    hand.sort()


def play_card(st: State, seat: int, face: int) -> None:
    """Play ``face`` from ``seat``'s hand to the trick; update what the opponent learns."""
    c, rules, opp = st.cards, st.rules, 1 - seat
    if st.trick:  # a follower who does not follow when it would have to is void
        led = c.suit(st.trick[0])
        exempt = (face >= c.suited and rules.specials_always_playable) or (rules.trump_anytime and is_trump(st, face))
        if led >= 0 and c.suit(face) != led and not exempt:
            st.void[opp].add(led)
    _remove(st.hands[seat], face)
    st.trick.append(face)
    for p in (0, 1):
        st.seen[p][face] += 1
    if st.known[opp][face] > 0:
        st.known[opp][face] -= 1


def resolve_trick(st: State) -> None:
    """R-3.3 to R-3.5 and the start of R-4: who won, with what, and which 3s trade."""
    rules, c = st.rules, st.cards
    lead, follow = st.trick
    leader = st.leader
    w = trick_winner(st, lead, follow)
    st.trick_leader = leader
    st.turns += 1
    st.tricks_played += 1
    if w == DESTROYED:
        st.trick_winner = DESTROYED
        st.winning_face = -1
        st.destroyed_tricks += 1
        st.discard.extend(st.trick)
        if lead == c.V and follow == c.V and rules.double_valknut_changes_trump and st.stock:
            change_trump(st)
    else:
        winner = leader if w == 0 else 1 - leader
        st.trick_winner = winner
        st.winning_face = lead if w == 0 else follow
        st.won[winner].append((lead, follow))
    # the 3s that trade, the leader's first
    st.threes = []
    if rules.effect_3 != "off":
        for seat, face in ((leader, lead), (1 - leader, follow)):
            if c.rank(face) != 3:
                continue
            if rules.three_trigger == "played" or (st.trick_winner == seat):
                st.threes.append(seat)
    st.phase = "three"


def change_trump(st: State) -> None:
    """R-3.3.1: the indicator goes to the discard, the top stock card replaces it."""
    st.discard.append(st.indicator)
    st.indicator = st.stock.pop(0)
    st.trump = st.cards.suit(st.indicator)  # a special means no trump, even with redraw
    for p in (0, 1):
        st.seen[p][st.indicator] += 1
    st.trump_changes += 1


# ---------------------------------------------------------------------- R-4 effects


def _draw_for_trade(st: State, seat: int) -> None:
    """R-4.1: the top stock card goes into the hand (DP-4 then discards one)."""
    face = st.stock.pop(0)
    _add(st.hands[seat], face)
    st.trades[seat] += 1
    opp = 1 - seat
    st.known[opp] = [0] * st.cards.n_faces  # the opponent no longer knows this hand
    st.void[opp] = set()
    st.phase = "three_discard"
    st.threes_owner = seat


def _effect_due(st: State, rank: int, setting: str, piles: list, decide: str) -> bool:
    """R-4.2 / R-4.3: whether the trick's winner takes the effect of the ``rank`` it won with now: the rule's
    ``setting`` is on, the trick was not destroyed, its winning card is a suited ``rank`` and the opponent's
    ``piles`` entry (tricks won, or hand) is not empty.  An ``optional`` effect is first the winner's
    decision: the phase becomes ``decide`` and the answer is False."""
    w, face = st.trick_winner, st.winning_face
    if (w == DESTROYED or setting == "off" or face >= st.cards.suited or st.cards.rank(face) != rank
            or not piles[1 - w]):
        return False
    if setting == "optional":
        st.phase = decide
        return False
    return True


def _steal(st: State, winner: int) -> None:
    """R-4.2: the opponent's most recently won trick moves to the winner."""
    st.won[winner].append(st.won[1 - winner].pop())
    st.steals[winner] += 1


def _take_for_swap(st: State, winner: int, rs: Stream) -> None:
    """R-4.3.1: take a uniformly random physical card of the opponent's hand."""
    opp = 1 - winner
    i = rs.below(len(st.hands[opp]))
    face = st.hands[opp].pop(i)
    _add(st.hands[winner], face)
    st.swaps[winner] += 1
    st.taken = face
    # the winner saw the card; the loser knows what it lost, so it is now known to be in the winner's hand
    if st.known[winner][face] > 0:
        st.known[winner][face] -= 1
    st.known[opp][face] += 1
    st.void[opp].discard(st.cards.suit(face))
    st.phase = "give"


def _give(st: State, winner: int, face: int) -> None:
    """R-4.3.2: the winner gives any card, possibly the one just taken."""
    opp = 1 - winner
    _remove(st.hands[winner], face)
    _add(st.hands[opp], face)
    st.known[winner][face] += 1
    st.void[winner].discard(st.cards.suit(face))
    if st.known[opp][face] > 0:
        st.known[opp][face] -= 1


def next_leader(st: State) -> int:
    """R-4.4: who leads the next trick."""
    rules, c = st.rules, st.cards
    leader = st.trick_leader
    lead, follow = st.trick
    has_n = lead == c.N or follow == c.N
    if st.trick_winner == DESTROYED:
        if not rules.valknut_overrides_hagalaz_lead and has_n:
            return leader if lead == c.N else 1 - leader
        rule = rules.destroyed_trick_next_leader
        if rule == "same_leader":
            return leader
        if rule == "valknut_player":
            return leader if lead == c.V else 1 - leader
        return 1 - leader
    if has_n:  # the trick's loser leads
        return 1 - st.trick_winner
    if rules.effect_9 and c.rank(st.winning_face) == 9 and st.winning_face < c.suited:
        return 1 - st.trick_winner
    return st.trick_winner


# ---------------------------------------------------------------------- scoring


def round_points(rules, won: int, bid: int) -> int:
    """R-5: the points of one player for one round."""
    in_range = won in rules.consolation_range
    bonus = 0
    if won == bid:
        bonus = rules.consolation_bonus if (rules.consolation_requires_exact_bid and in_range) else rules.exact_bid_bonus
    if not rules.consolation_requires_exact_bid and in_range:
        bonus += rules.consolation_bonus
    return rules.points_per_trick * won + bonus


def score_round(st: State) -> None:
    for seat in (0, 1):
        won = len(st.won[seat])
        pts = round_points(st.rules, won, st.bids[seat])
        st.round_points[seat] = pts
        st.scores[seat] += pts
        st.exact_bids[seat] += won == st.bids[seat]
        st.tricks_won[seat] += won


def game_over(st: State) -> bool:
    """R-6.2: after the scoring of a round."""
    return max(st.scores) >= st.rules.target_score or st.round_no >= st.rules.max_rounds


def lead_measure(st: State) -> list:
    """Each seat's lead measure (Design metrics): the score of the hands scored so far."""
    return list(st.scores)


def winner(rules, scores, exact_bids) -> int:
    """R-6.3: the winning seat, or -1 for a draw."""
    if scores[0] == scores[1] and rules.tiebreak == "most_correct_bids_then_draw":
        return top_seat(exact_bids)
    return top_seat(scores)


# ---------------------------------------------------------------------- the state machine (§5)


def next_decision(st: State, rs: Stream) -> Decision | None:
    """Run the automatic steps up to the next decision point; None at the round's end.

    ``rs`` is the stream of the 6-effect take (the chance stream in a real game).
    """
    rules, c = st.rules, st.cards
    while True:
        phase = st.phase
        if phase == "bid":  # DP-1, the non-dealer first
            if st.bid_turn < 2:
                seat = 1 - st.dealer if st.bid_turn == 0 else st.dealer
                return Decision(DP_BID, seat, list(range(rules.hand_size + 1)))
            st.phase = "lead"
        elif phase == "lead":
            return Decision(DP_CARD, st.leader, legal_cards(st, st.leader))
        elif phase == "follow":
            return Decision(DP_CARD, 1 - st.leader, legal_cards(st, 1 - st.leader))
        elif phase == "three":  # one 3 at a time
            if not st.threes:
                st.phase = "one"
                continue
            seat = st.threes[0]
            if not st.stock:  # checked when each 3 is handled
                st.threes.pop(0)
                continue
            if rules.effect_3 == "optional":
                return Decision(DP_TRADE, seat, [YES, DECLINE])
            st.threes.pop(0)
            _draw_for_trade(st, seat)
        elif phase == "three_discard":  # DP-4
            seat = st.threes_owner
            return Decision(DP_TRADE_DISCARD, seat, sorted(set(st.hands[seat])))
        elif phase == "one":  # a trick won with a 1 steals one
            st.phase = "six"
            if _effect_due(st, 1, rules.effect_1, st.won, "one_decide"):
                _steal(st, st.trick_winner)
        elif phase == "one_decide":
            return Decision(DP_STEAL, st.trick_winner, [YES, DECLINE])
        elif phase == "six":  # a trick won with a 6 takes a card for a swap
            st.phase = "next_leader"
            if _effect_due(st, 6, rules.effect_6, st.hands, "six_decide"):
                _take_for_swap(st, st.trick_winner, rs)
        elif phase == "six_decide":
            return Decision(DP_SWAP, st.trick_winner, [YES, DECLINE])
        elif phase == "give":  # DP-7
            w = st.trick_winner
            return Decision(DP_GIVE, w, sorted(set(st.hands[w])))
        elif phase == "next_leader":
            st.leader = next_leader(st)
            st.trick = []
            st.phase = "lead" if st.tricks_played < rules.hand_size else "round_end"
        else:  # round_end / over
            return None


def apply_decision(st: State, decision: Decision, option, rs: Stream) -> None:
    """Apply ``option`` (one of ``decision.options``) and count the ply."""
    st.plies += 1
    kind, seat = decision.kind, decision.seat
    st.seat_plies[seat] += 1
    if kind == DP_BID:
        st.bids[seat] = option
        st.bid_turn += 1
    elif kind == DP_CARD:
        play_card(st, seat, option)
        if st.phase == "lead":
            st.phase = "follow"
        else:
            resolve_trick(st)
    elif kind == DP_TRADE:
        st.threes.pop(0)
        if option == YES:
            _draw_for_trade(st, seat)
    elif kind == DP_TRADE_DISCARD:
        _remove(st.hands[seat], option)
        st.buried[seat].append(option)
        st.seen[seat][option] += 1
        st.phase = "three"
    elif kind == DP_STEAL:
        st.phase = "six"
        if option == YES:
            _steal(st, seat)
    elif kind == DP_SWAP:
        st.phase = "next_leader"
        if option == YES:
            _take_for_swap(st, seat, rs)
    elif kind == DP_GIVE:
        _give(st, seat, option)
        st.phase = "next_leader"


# ---------------------------------------------------------------------- what a seat may see


@dataclasses.dataclass
class View:
    """What ``seat`` may know (the issue's hidden-information rule): its own hand,
    bid and 3-discards, everything played face up, the indicator, the sizes of
    the hidden piles, and what its own effects revealed (``known``, ``void``).
    Policies receive a View, never the State; the lists are the state's own
    (read-only by convention), so building a View copies nothing."""

    rules: object
    cards: Cards
    seat: int
    hand: list
    bid: int | None
    opp_hand_size: int
    stock_size: int
    opp_buried: int
    buried: list
    indicator: int
    trump: int
    trick: list
    won: list
    discard: list
    scores: list
    exact_bids: list
    dealer: int
    leader: int
    round_no: int
    tricks_played: int
    phase: str
    bid_turn: int
    trick_leader: int
    trick_winner: int
    winning_face: int
    threes: list
    taken: int  # the face this seat took by its 6, else -1
    seen: list
    known: list
    void: set


def observe(st: State, seat: int) -> View:
    opp = 1 - seat
    return View(rules=st.rules, cards=st.cards, seat=seat, hand=st.hands[seat], bid=st.bids[seat],
                opp_hand_size=len(st.hands[opp]), stock_size=len(st.stock), opp_buried=len(st.buried[opp]),
                buried=st.buried[seat], indicator=st.indicator, trump=st.trump, trick=st.trick, won=st.won,
                discard=st.discard, scores=st.scores, exact_bids=st.exact_bids, dealer=st.dealer, leader=st.leader,
                round_no=st.round_no, tricks_played=st.tricks_played, phase=st.phase, bid_turn=st.bid_turn,
                trick_leader=st.trick_leader, trick_winner=st.trick_winner, winning_face=st.winning_face,
                threes=st.threes, taken=st.taken if st.phase == "give" and st.trick_winner == seat else -1,
                seen=st.seen[seat], known=st.known[seat], void=st.void[seat])


# ---------------------------------------------------------------------- the game


@dataclasses.dataclass
class Record:
    """The outcome record of §6 (plus the per-round log for analysis)."""

    result: str
    winner: int
    first_dealer: int
    score: list
    rounds: int
    turns: int
    plies: int
    decisions: int  # decision points presented to a policy (Design metrics)
    options: int  # options offered at them, summed
    lead_changes: int
    decisive_turn: int
    exact_bids: list
    tricks_won: list
    destroyed_tricks: int
    steals: list
    trades: list
    swaps: list
    trump_changes: int
    no_trump_rounds: int
    seat_plies: list  # decision points presented to each seat (not in §6; benchmarks count a policy's decisions)
    round_log: list  # one dict per round and seat


class Game:
    """One game of Herrlof (R-1 to R-6) as a state machine over its decision points, round after round.

    :meth:`start` draws the first dealer and deals round 1 (R-1.1, R-2); :meth:`advance` runs the
    automatic steps up to the next :class:`Decision` and on through a round's end (R-5 scoring, the
    lead measure, the round log, R-6.2 the end of the game, R-6.1 the next deal), None once the game is
    over; :meth:`choose` is the option ``players[decision.seat]`` picks; :meth:`apply` carries one out;
    :meth:`result` is the §6 record.  ``state`` is the round being played; ``observer(state, None,
    None)``, if given, sees every scored round (:func:`play_game` shows it the decisions too).
    """

    def __init__(self, rules, players, chance: Stream, observer=None):
        self.rules = rules
        self.players = players  # one policy object per seat
        self.chance = chance
        self.observer = observer
        self.state: State | None = None  # the round being played
        self.dealer = -1
        self.pending: Decision | None = None  # the decision point reached and not yet applied
        self.over = False
        self.decisions = self.options = 0  # Design metrics: the decision points presented, their options
        self.lead = LeadTracker()
        self.round_log: list = []
        self._dealt = self._trump_dealt = self._tallies = None  # the round's deal, for its log row

    def start(self) -> None:
        """R-1.1: the first dealer; R-2: the first deal."""
        self.dealer = draw_first_dealer(self.rules, self.chance)
        self._deal()

    def _deal(self) -> None:
        """R-2: shuffle and deal a round (scores and tallies carry over from the last one)."""
        st = self.state = new_round_state(self.rules, shuffled_deck(self.rules, self.chance), self.dealer, self.state)
        self._tallies = {k: list(getattr(st, k)) for k in ("steals", "trades", "swaps")}
        self._dealt = [list(h) for h in st.hands]
        self._trump_dealt = st.trump

    def advance(self) -> Decision | None:
        """The next decision point (counted once, when it is reached), or None when the game is over."""
        while self.pending is None and not self.over:
            d = next_decision(self.state, self.chance)
            if d is None:
                self._end_round()
            else:
                self.decisions += 1
                self.options += len(d.options)
                self.pending = d
        return self.pending

    def _end_round(self) -> None:
        """R-5: score the round; report the lead (the hand's last trick); log it; R-6.2 or the next deal."""
        st = self.state
        score_round(st)
        self.lead.update(lead_measure(st))  # the hand's last trick, with the hand scored
        if self.observer is not None:
            self.observer(st, None, None)
        for seat in (0, 1):
            self.round_log.append(round_log_row(st, seat, self._dealt[seat], self._trump_dealt, self._tallies))
        if game_over(st):
            self.over = True
        else:
            self.dealer = 1 - self.dealer
            self._deal()

    def choose(self, decision: Decision):
        """The option the seat's player picks, from what the seat may see (a policy answers a single
        option without drawing)."""
        return self.players[decision.seat].choose(observe(self.state, decision.seat), decision)

    def apply(self, decision: Decision, option) -> None:
        """Carry out ``option``, one of ``decision.options``; a trick that is not the hand's last
        reports the lead at once."""
        st = self.state
        self.pending = None
        turns = st.turns
        apply_decision(st, decision, option, self.chance)
        if st.turns != turns and st.tricks_played < self.rules.hand_size:
            self.lead.update(lead_measure(st))  # a trick ended; the hand's last one is reported once scored

    def result(self) -> Record:
        """The §6 record of the finished game; R-6.3 decides the winner."""
        st = self.state
        w = winner(self.rules, st.scores, st.exact_bids)
        lead_changes, decisive_turn = self.lead.result(w)
        return Record(result="win" if w >= 0 else "draw", winner=w, first_dealer=st.first_dealer,
                      score=list(st.scores), rounds=st.round_no, turns=st.turns, plies=st.plies,
                      decisions=self.decisions, options=self.options, lead_changes=lead_changes,
                      decisive_turn=decisive_turn, exact_bids=list(st.exact_bids), tricks_won=list(st.tricks_won),
                      destroyed_tricks=st.destroyed_tricks, steals=list(st.steals), trades=list(st.trades),
                      swaps=list(st.swaps), trump_changes=st.trump_changes, no_trump_rounds=st.no_trump_rounds,
                      seat_plies=list(st.seat_plies), round_log=list(self.round_log))

    def row(self) -> dict:
        """The §6 record of the finished game as one row of result columns."""
        return record_row(self.result())


def option_code(decision: Decision, option) -> int:
    """The kernel's code of ``option``: DP-1 the bid, DP-2/4/7 the face, DP-3/5/6 1 for YES, 0 for DECLINE."""
    if decision.kind in (DP_TRADE, DP_STEAL, DP_SWAP):
        return 1 if option == YES else 0
    return option


def new_game(rules, seed: int, game_index: int, policies=("random", "random"), observer=None) -> Game:
    """Game ``game_index`` of a run seeded ``seed``, not yet started (the kernel's streams)."""
    chance = Stream(seed, game_index, CHANCE)
    players = core_players("herrlof", policies, rules, seed, game_index)
    return Game(rules, players, chance, observer)


def play_game(rules, seed: int, game_index: int, policies=("random", "random"), observer=None) -> Record:
    """Play one game; ``observer(state, decision, option)`` sees every decision and,
    with ``decision = None``, every scored round (for tests)."""
    game = new_game(rules, seed, game_index, policies, observer)
    game.start()
    while (d := game.advance()) is not None:
        option = game.choose(d)
        if observer is not None:
            observer(game.state, d, option)
        game.apply(d, option)
    return game.result()


ROUND_LOG_FIELDS = ("round", "seat", "dealer", "bid", "tricks", "points", "strength", "trumps", "specials",
                    "ones", "threes", "sixes", "nines", "trump", "steals", "trades", "swaps")


def hand_strength(rules, hand, trump) -> int:
    """Expected tricks of a hand, in quarter tricks (integers, so the kernel agrees exactly): the round
    log's ``strength`` and the greedy bid's (``policies.greedy_bid``)."""
    r = rules.max_rank
    quarters = 0
    for f in hand:
        if f >= rules.suits * r:
            continue
        rank, suit = f % r + 1, f // r
        if suit == trump:
            quarters += 4 if rank >= r - 2 else (2 if rank >= r - 5 else 1)
        else:
            quarters += 3 if rank == r else (2 if rank == r - 1 else (1 if rank == r - 2 else 0))
    return quarters


def round_log_row(st: State, seat: int, hand: list, trump: int, tallies_before: dict) -> dict:
    """One row of the per-round log (analysis only, not part of §6)."""
    c = st.cards
    ranks = [c.rank(f) for f in hand]
    row = {"round": st.round_no, "seat": seat, "dealer": int(seat == st.dealer), "bid": st.bids[seat],
           "tricks": len(st.won[seat]), "points": st.round_points[seat],
           "strength": hand_strength(st.rules, hand, trump),
           "trumps": sum(1 for f in hand if trump != NO_TRUMP and c.suit(f) == trump),
           "specials": sum(1 for f in hand if f >= c.suited),
           "ones": ranks.count(1), "threes": ranks.count(3), "sixes": ranks.count(6), "nines": ranks.count(9),
           "trump": trump}
    for k, before in tallies_before.items():
        row[k] = getattr(st, k)[seat] - before[seat]
    return row


def record_row(record: Record) -> dict:
    """The record as one flat row (the kernel's COLUMNS)."""
    row = {"winner": record.winner, "win_0": int(record.winner == 0), "win_1": int(record.winner == 1),
           "result": 0 if record.result == "win" else 1, "first_dealer": record.first_dealer,
           "rounds": record.rounds, "turns": record.turns, "plies": record.plies,
           "decisions": record.decisions, "options": record.options, "lead_changes": record.lead_changes,
           "decisive_turn": record.decisive_turn,
           "destroyed_tricks": record.destroyed_tricks, "trump_changes": record.trump_changes,
           "no_trump_rounds": record.no_trump_rounds}
    for name in SEAT_FIELDS:
        for seat in (0, 1):
            row[f"{name}_{seat}"] = getattr(record, name)[seat]
    for seat in (0, 1):
        row[f"plies_{seat}"] = record.seat_plies[seat]
    return row


def kernel_state(game: Game) -> dict:
    """The position in the kernel's state layout (``layout.STATE``), as the kernel codes it: each hand (its suited
    faces as bits, its Valknuts, Hagalaz and size), the indicator and trump, the won and buried piles' sizes, the
    bids (-1: not yet), scores and exact bids, the dealer, the leader, the round and its tricks played; the lock
    step of the conformance suite compares it with the kernel's state at every decision point
    (``tests/conformance/lockstep.py``)."""
    st = game.state
    cards = st.cards
    return {"hbits": [sum(1 << f for f in hand if f < cards.suited) for hand in st.hands],
            "vc": [hand.count(cards.V) for hand in st.hands], "nc": [hand.count(cards.N) for hand in st.hands],
            "hn": [len(hand) for hand in st.hands], "ind": [st.indicator], "trump": [st.trump],
            "won_n": [len(pile) for pile in st.won], "buried_n": [len(pile) for pile in st.buried],
            "bid": [-1 if bid is None else bid for bid in st.bids], "score": st.scores, "exact": st.exact_bids,
            "dealer": [st.dealer], "leader": [st.leader], "round": [st.round_no], "tricks_played": [st.tricks_played]}
