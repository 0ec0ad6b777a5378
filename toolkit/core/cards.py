"""Card piles kept as counts per kind of card, as the games with such decks keep them (Attila's tribes,
Walhalla's action cards): a hand and the discard pile are counts per kind, the deck is a list of kind codes,
top first.  :func:`deal` and :func:`draw_card` are the references'; :func:`deck_from_counts` and
:func:`split_evenly` the kernels' (njit, inlined into their callers)."""

from __future__ import annotations

from toolkit.core import rng
from toolkit.core.jit import njit_inline


def deal(counts, seats: int, hand_size: int, chance) -> tuple[list, list, list]:
    """A new game's cards: ``counts[k]`` cards of each kind ``k`` listed in canonical order and
    shuffled from ``chance``, then ``hand_size`` cards drawn by each seat in turn (:func:`draw_card`).

    Returns
    -------
    (deck, discard, hands)
        The deck left (top first), the empty discard pile and each seat's hand, both as counts
        per kind.

    Examples
    --------
    >>> from toolkit.core.rng import Stream
    >>> deck, discard, hands = deal([2, 2], 2, 1, Stream(1))
    >>> len(deck), discard, [sum(h) for h in hands]
    (2, [0, 0], [1, 1])
    """
    deck = [kind for kind, n in enumerate(counts) for _ in range(n)]
    chance.shuffle(deck)
    discard = [0] * len(counts)
    hands = [[0] * len(counts) for _ in range(seats)]
    for hand in hands:
        for _ in range(hand_size):
            draw_card(deck, discard, hand, chance)
    return deck, discard, hands


def draw_card(deck: list, discard: list, hand: list, chance) -> bool:
    """Draw the deck's top card into ``hand``; an empty deck is first rebuilt from the whole discard pile.

    The rebuilt deck lists the discarded cards in canonical order (kind 0 first) and is shuffled
    from ``chance``; the discard pile is then empty.  ``deck``, ``discard`` and ``hand`` are changed
    in place.

    Returns
    -------
    bool
        False, and nothing drawn, when the deck and the discard pile are both empty.

    Examples
    --------
    >>> from toolkit.core.rng import Stream
    >>> deck, discard, hand = [], [0, 2], [0, 0]
    >>> draw_card(deck, discard, hand, Stream(1)), deck, discard, hand
    (True, [1], [0, 0], [0, 1])
    """
    if not deck:
        if sum(discard) == 0:
            return False
        deck[:] = [kind for kind, n in enumerate(discard) for _ in range(n)]
        discard[:] = [0] * len(discard)
        chance.shuffle(deck)
    hand[deck.pop(0)] += 1
    return True


@njit_inline
def deck_from_counts(st, deck_at, counts_at, kinds, rs):
    """The kernels' deck: ``st[counts_at + k]`` cards of each kind ``k < kinds`` listed in canonical order
    at ``st[deck_at:]`` and shuffled from the chance stream, as :func:`deal` lists and shuffles them; returns
    how many cards it holds."""
    n = 0
    for k in range(kinds):
        for _ in range(st[counts_at + k]):
            st[deck_at + n] = k
            n += 1
    rng.shuffle(st, deck_at, n, rs, 0)
    return n


@njit_inline
def draw_into(st, rs, deck_at, head_at, count_at, discard_at, hand_at, kinds):
    """The kernels' :func:`draw_card`: the deck's top card ``c`` (``st[deck_at + st[head_at]]``, with
    ``st[count_at]`` cards left) goes to ``st[hand_at + c]``; an empty deck is first rebuilt from the
    discard pile's counts at ``st[discard_at:]`` (:func:`deck_from_counts`), which it empties.  With both
    empty nothing is drawn: False."""
    if st[count_at] == 0:
        total = 0
        for k in range(kinds):
            total += st[discard_at + k]
        if total == 0:
            return False
        st[count_at] = deck_from_counts(st, deck_at, discard_at, kinds, rs)
        st[head_at] = 0
        for k in range(kinds):
            st[discard_at + k] = 0
    c = st[deck_at + st[head_at]]
    st[head_at] += 1
    st[count_at] -= 1
    st[hand_at + c] += 1
    return True


@njit_inline
def split_evenly(total, k, round_up):
    """``total`` points shared by ``k`` tied places, rounded up or down (a majority scoring's tie)."""
    return (total + k - 1) // k if round_up else total // k
