"""Herrlof in words and pictures (issue 38): each decision in words and each position as plain data.

The spec ``docs/rules/herrlof.md`` has seven decision points (§5): bid, card,
trade, trade discard, steal, swap and give.  :func:`describe` names an option
the way the deciding player would say it; :func:`position` copies the
reference game into a frozen :class:`Position`, which ``viz.draw`` draws.

Wording the spec leaves open, decided here:

- The spec names no suits ("ids 0..3; names are cosmetic", §2.1), so a
  suit is the reference's letter (``Cards.name``: ``"7a"``): a card is
  ``"the 7 of suit a"``, and the specials are ``"a Valknut"`` and
  ``"a Hagalaz"`` (§2.1).
- DP-2 says ``"lead ..."`` for the leader and ``"play ..."`` for the
  follower, and marks a trump card ``"(trump)"``.  The follower sees the led
  card, so its text also says how the trick ends (R-3.3): ``"play the 7 of
  suit a, winning the trick"``, ``"..., losing the trick"`` or ``"...,
  destroying the trick"``.  The leader's text says nothing of the outcome,
  which hangs on the follower's hidden hand, except that a led Valknut
  destroys the trick whatever follows (R-3.3.1).
- DP-3/5/6 are ``(yes, decline)`` (§5): ``"trade: draw the top stock card,
  then discard one"``, ``"steal the opponent's last trick (the 4 of suit a
  and a Hagalaz)"`` (R-4.2 takes the most recent one; its cards were played
  face up), ``"swap: take a random card from the opponent's hand, then give
  one of yours"``; the declines are ``"decline the trade"`` and so on.
- DP-4 is ``"discard the 7 of suit a"`` (face down, R-4.1).  DP-7 is
  ``"give the 7 of suit a"``, or ``"give back the 7 of suit a just taken"``
  for the card the 6 took: the taker saw it.
- The chance of §5 that a :class:`Position` records is the deal (the
  ``indicator`` turned, ``first_dealer``) and the 6-effect take
  (``taken``).  The trade draw is no chance event (the stock was shuffled
  at the deal), and the reference does not keep it.

For example, the first decision of seed 7 is a bid, and the bidder holds 15 cards:

>>> from toolkit.core.protocol import first_decision
>>> game, decision = first_decision("herrlof", seed=7)
>>> DECISIONS[decision.kind], [describe(game, decision, option) for option in decision.options[3:5]]
('bid', ['bid 3', 'bid 4'])
>>> len(position(game, decision).hands[decision.seat])
15
"""

from __future__ import annotations

import dataclasses

from toolkit.games.herrlof import reference as ref

__all__ = ["DECISIONS", "Position", "card_name", "card_words", "describe", "position"]

DECISIONS = {1: "bid", 2: "card", 3: "trade", 4: "trade discard", 5: "steal", 6: "swap", 7: "give"}  # §5
SUIT_LETTERS = "abcd"  # the reference's suit names (Cards.name); the spec leaves them cosmetic


def card_name(face: int, max_rank: int, suits: int) -> str:
    """The short name of a face: ``"7a"``, ``"V"`` (Valknut) or ``"N"`` (Hagalaz), as ``Cards.name``."""
    suited = suits * max_rank
    if face >= suited:
        return "V" if face == suited else "N"
    return f"{face % max_rank + 1}{SUIT_LETTERS[face // max_rank]}"


def card_words(face: int, max_rank: int, suits: int) -> str:
    """A face in words: ``"the 7 of suit a"``, ``"a Valknut"`` or ``"a Hagalaz"``."""
    suited = suits * max_rank
    if face >= suited:
        return "a Valknut" if face == suited else "a Hagalaz"
    return f"the {face % max_rank + 1} of suit {SUIT_LETTERS[face // max_rank]}"


def describe(game, decision, option) -> str:
    """The words for ``option``, one of ``decision.options``, before it is applied.

    Parameters
    ----------
    game : reference.Game
        The game at this decision; only ``game.state`` is read.
    decision : reference.Decision
        A decision point of §5.
    option : int or str
        A bid, a face, or ``reference.YES`` / ``reference.DECLINE``.

    Returns
    -------
    str
        ``"bid 3"``, ``"lead the 9 of suit b (trump)"``, ``"play a Valknut,
        destroying the trick"``, ``"decline the trade"``, ``"discard the 2 of
        suit c"``, ``"give back the 6 of suit d just taken"``, ...
    """
    st, kind = game.state, decision.kind

    def words(face):
        return card_words(face, st.cards.max_rank, st.cards.suits)

    if kind == ref.DP_BID:
        return f"bid {option}"
    if kind == ref.DP_CARD:
        text = words(option) + (" (trump)" if ref.is_trump(st, option) else "")
        if not st.trick:  # a led Valknut destroys the trick whatever follows; other leads wait
            return "lead " + text + (", destroying the trick" if option == st.cards.V else "")
        outcome = ref.trick_winner(st, st.trick[0], option)  # the led card is on the table: no secret
        ending = {ref.DESTROYED: "destroying", 0: "losing", 1: "winning"}[outcome]
        return f"play {text}, {ending} the trick"
    if kind == ref.DP_TRADE_DISCARD:
        return "discard " + words(option)
    if kind == ref.DP_GIVE:
        back = option == st.taken
        return f"give {'back ' if back else ''}{words(option)}{' just taken' if back else ''}"
    if option == ref.DECLINE:
        return "decline the " + DECISIONS[kind]
    if kind == ref.DP_TRADE:
        return "trade: draw the top stock card, then discard one"
    if kind == ref.DP_STEAL:
        lead, follow = st.won[1 - decision.seat][-1]  # the opponent's most recent trick
        return f"steal the opponent's last trick ({words(lead)} and {words(follow)})"
    return "swap: take a random card from the opponent's hand, then give one of yours"  # DP-6; the take is chance


@dataclasses.dataclass(frozen=True)
class Position:
    """What the picture of a Herrlof position shows, copied out of the reference game (§3).

    Cards are faces (``reference.Cards``): suited ``suit * max_rank + rank - 1``,
    then V, then N; :meth:`name` gives ``"7a"``.  Seats are 0 and 1.  Hidden
    cards are here too (hands, stock, 3-discards, bids); the drawing hides them.

    Attributes
    ----------
    suits, max_rank, hand_size, target_score, max_rounds : int
        The rules the picture needs.
    round_no, dealer, first_dealer : int
        The round (from 1), its dealer, the dealer of round 1 (R-1.1, chance).
    hands : tuple
        ``hands[seat]``: sorted faces.
    stock : tuple
        Face down, top first.
    indicator, trump : int
        The face-up indicator (R-2.2) and the trump suit, -1 for no trump.
    trick : tuple
        The faces on the table, leader's first (kept while the R-4 effects run).
    trick_leader : int
        The seat that led ``trick`` (-1 when the table is empty).
    trick_winner : int
        Once ``trick`` holds two cards: the seat that won it, or -1 if it was
        destroyed; -2 while it is open.
    won : tuple
        ``won[seat]``: the tricks taken this round, ``(leader's face,
        follower's face)``, oldest first.
    discard, buried : tuple
        Face up out of play (destroyed tricks, replaced indicators); per seat
        its face-down 3-discards.
    bids : tuple
        Per seat the secret bid (R-2.4), -1 before it is made.
    scores, exact_bids, round_points : tuple
        Per seat: the score, the rounds bid exactly, the last scored round's points.
    tricks_played : int
        Tricks resolved this round.
    taken : int
        At DP-7, the face the 6 took (chance, §5); else -1.
    seat, kind : int
        The deciding seat and its DP number, or -1 and 0.
    decision : str
        The DP name (:data:`DECISIONS`), or ``""``.
    over : bool
        The game is over: the last round is scored and its bids are revealed.
    winner : int
        Once over, the winning seat (R-6.3) or -1 for a draw; else -1.
    """

    suits: int
    max_rank: int
    hand_size: int
    target_score: int
    max_rounds: int
    round_no: int
    dealer: int
    first_dealer: int
    hands: tuple
    stock: tuple
    indicator: int
    trump: int
    trick: tuple
    trick_leader: int
    trick_winner: int
    won: tuple
    discard: tuple
    buried: tuple
    bids: tuple
    scores: tuple
    exact_bids: tuple
    round_points: tuple
    tricks_played: int
    taken: int
    seat: int
    kind: int
    decision: str
    over: bool
    winner: int

    def name(self, face: int) -> str:
        """``"7a"``, ``"V"`` or ``"N"``."""
        return card_name(face, self.max_rank, self.suits)


def position(game, decision=None) -> Position:
    """A snapshot of ``game`` (a ``reference.Game``) at ``decision``, or at the end when None.

    Every list is copied into tuples, so later moves leave it unchanged.
    """
    st, rules = game.state, game.rules
    complete = len(st.trick) == 2  # resolved: the trick stays on the table while its R-4 effects run
    return Position(
        suits=rules.suits, max_rank=rules.max_rank, hand_size=rules.hand_size, target_score=rules.target_score,
        max_rounds=rules.max_rounds, round_no=st.round_no, dealer=st.dealer, first_dealer=st.first_dealer,
        hands=tuple(tuple(h) for h in st.hands), stock=tuple(st.stock), indicator=st.indicator, trump=st.trump,
        trick=tuple(st.trick), trick_leader=st.leader if st.trick else -1,
        trick_winner=st.trick_winner if complete else -2,
        won=tuple(tuple(tuple(t) for t in pile) for pile in st.won), discard=tuple(st.discard),
        buried=tuple(tuple(b) for b in st.buried), bids=tuple(-1 if b is None else b for b in st.bids),
        scores=tuple(st.scores), exact_bids=tuple(st.exact_bids), round_points=tuple(st.round_points),
        tricks_played=st.tricks_played, taken=st.taken if st.phase == "give" else -1,
        seat=-1 if decision is None else decision.seat, kind=0 if decision is None else decision.kind,
        decision="" if decision is None else DECISIONS[decision.kind], over=bool(game.over),
        winner=ref.winner(rules, st.scores, st.exact_bids) if game.over else -1)
