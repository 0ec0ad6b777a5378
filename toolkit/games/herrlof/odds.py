"""Exact Herrlof deal odds (spec ``docs/rules/herrlof.md`` §2 and R-2) in exact fractions.

Every number here is a :class:`fractions.Fraction` computed with
:func:`math.comb` (hypergeometric arithmetic), never by sampling.  The
results hold for any valid :class:`~toolkit.games.herrlof.rules.Rules`, which
is what a function's ``rules`` is (its entry in a docstring says which fields
are read, where that matters).

Notation: ``D`` = ``deck_size``, ``h`` = ``hand_size``, ``M`` = ``max_rank``
(cards per suit), ``C`` = ``suited_cards`` = ``suits * M``, ``S`` =
``valknut_count + hagalaz_count`` (the specials, V and N).

Derivations
-----------
The deck is shuffled uniformly (R-2.1), so one seat's hand is a uniform
``h``-subset of the ``D`` physical cards, whichever block of the deal it
comes from.  Hence the counts of one kind of card in a hand are
hypergeometric: with ``K`` cards of the kind in the deck,
``P(k) = comb(K, k) * comb(D - K, h - k) / comb(D, h)``.  This gives
:func:`special_count_distribution` (``K = S``, or one kind alone) and
:func:`rank_count_distribution` (``K = suits``: one card of each rank per
suit).

The indicator (R-2.2) is the card after both hands.  By exchangeability it is
a uniform card of the deck, and given the indicator the hand is a uniform
``h``-subset of the other ``D - 1`` cards.

- ``no_trump``: a special indicator means no trump, so
  ``P(no trump) = S / D`` (:func:`p_no_trump`).  A suited indicator
  (probability ``C / D``) leaves ``M - 1`` cards of the trump suit among the
  other ``D - 1`` cards, so the number ``k`` of trumps in a hand is
  ``P(k) = [k = 0] * S / D + (C / D) * comb(M - 1, k) * comb(D - M, h - k) / comb(D - 1, h)``
  (a no-trump round counts as 0 trumps).
- ``redraw``: specials go to the bottom of the stock until a suited card
  turns up, so the trump suit is the suit of the first suited card among the
  ``D - 2h`` leftover cards (validation guarantees one), and
  ``P(no trump) = 0``.  Given the hand, the other ``D - h`` cards are in
  uniform order, and swapping the identities of suited cards preserves that
  order's law, so the first leftover suited card is uniform over the
  ``C - t`` suited cards not in the hand (``t`` = suited cards in the hand):
  ``P(trump = s | hand) = (M - a_s) / (C - t)`` with ``a_s`` the hand's cards
  of suit ``s`` (:func:`trump_given_hand`).  Averaging over the hand: ``t`` is
  hypergeometric (``C`` suited of ``D``), and given ``t`` the suited cards of
  the hand are a uniform ``t``-subset of the ``C``, so ``a_s`` is
  hypergeometric (``M`` of ``C``, ``t`` drawn) and, by symmetry of the
  suits,
  ``P(k) = sum_t P(t) * suits * P(a_1 = k | t) * (M - k) / (C - t)``.
  This is the composition-by-composition sum of the multivariate
  hypergeometric, collapsed by suit symmetry (the tests check it against the
  explicit composition enumeration and against brute force).

Both seats have the same distributions (the deal is exchangeable); the
numbers are for "a given seat's hand".

:func:`summary` is the game's ``odds`` table (``toolkit odds``, the report).

Examples
--------
>>> from toolkit.games.herrlof.rules import Rules
>>> p_no_trump(Rules())
Fraction(1, 7)
>>> mean_trumps(Rules())
Fraction(720, 287)
>>> p_no_trump(Rules(special_indicator_means="redraw"))
Fraction(0, 1)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from toolkit.core.deals import SAMPLE_DEALS, Streams, replayed_games, sample_means
from toolkit.core.exact import hypergeometric, odds_table
from toolkit.core.exact import mean as _mean, tail as _tail  # noqa: F401 (re-exported)
from toolkit.core.rng import CHANCE, Stream

EFFECT_RANKS = (1, 3, 6, 9)  # the ranks with powers
SPECIAL_KINDS = ("both", "V", "N")
SPECIAL_LABELS = (("both", "V or N"), ("V", "V"), ("N", "N"))  # kind, its word in the rows

# The rows of summary; simulated builds its keys from the same templates
NO_TRUMP = "P(no trump)"
SPECIAL_INDICATOR = "P(first indicator is V or N)"
MEAN_TRUMPS = "mean trumps in a hand"
TRUMPS = "P(trumps in a hand = {k})"
TRUMPS_AT_LEAST = "P(trumps in a hand >= {k})"
MEAN_SPECIALS = "mean {label} cards in a hand"
SOME_SPECIAL = "P(at least one {label} card in a hand)"
SPECIALS = "P(V or N cards in a hand = {k})"
MEAN_EFFECT = "mean effect cards ({ranks}) in a hand"
ONE_RANK = "P(cards of one rank, e.g. 1s, in a hand = {k})"

# Deals replayed for the simulated odds: the full toolkit.core.deals.SAMPLE_DEALS (all at once in
# about 15 ms; through the reference, a shuffle and deal at a time, they took 0.35-0.45 s)
DEALS_REPLAYED = SAMPLE_DEALS


# ---------------------------------------------------------------------- helpers


def specials(rules) -> int:
    """Number of unsuited cards, ``S = valknut_count + hagalaz_count``.

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> specials(Rules())
    6
    """
    return rules.valknut_count + rules.hagalaz_count


def _effect_ranks(rules) -> list:
    """The ranks with powers that the deck has (R-4)."""
    return [r for r in EFFECT_RANKS if r <= rules.max_rank]


# ---------------------------------------------------------------------- trump


def p_special_indicator(rules) -> Fraction:
    """P(the first card turned as indicator is a V or N): ``S / D``, in both modes.

    Under ``redraw`` this is the probability that at least one redraw happens.

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> p_special_indicator(Rules(special_indicator_means="redraw"))
    Fraction(1, 7)
    """
    return Fraction(specials(rules), rules.deck_size)


def p_no_trump(rules) -> Fraction:
    """P(a round starts with no trump).

    ``S / D`` under ``special_indicator_means = no_trump``; 0 under ``redraw``
    (a suited card always turns up).

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> p_no_trump(Rules(valknut_count=2, hagalaz_count=1))
    Fraction(1, 13)
    """
    if rules.special_indicator_means == "redraw":
        return Fraction(0)
    return p_special_indicator(rules)


def trump_given_hand(rules, suit_counts, special_count: int = 0) -> dict[int, Fraction]:
    """P(trump suit | one seat's hand), keyed by suit, with ``-1`` for no trump.

    Parameters
    ----------
    suit_counts : sequence of int
        Cards of each suit ``0..suits-1`` in the hand.
    special_count : int, optional
        V and N cards in the hand (matters only under ``no_trump``).

    Returns
    -------
    dict[int, Fraction]
        ``{suit: P(trump = suit | hand), -1: P(no trump | hand)}``.  Under
        ``no_trump`` the indicator is uniform over the ``D - h`` cards outside
        the hand; under ``redraw`` the trump card is uniform over the suited
        cards outside the hand.

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> r = Rules(special_indicator_means="redraw")
    >>> trump_given_hand(r, [9, 6, 0, 0])[0], trump_given_hand(r, [9, 6, 0, 0])[2]
    (Fraction(0, 1), Fraction(3, 7))
    """
    if len(suit_counts) != rules.suits:
        raise ValueError(f"suit_counts needs {rules.suits} entries, got {len(suit_counts)}")
    if sum(suit_counts) + special_count != rules.hand_size:
        raise ValueError(f"the counts must add up to hand_size={rules.hand_size}")
    m = rules.max_rank
    if rules.special_indicator_means == "redraw":
        out = rules.suited_cards - sum(suit_counts)
        dist = {s: Fraction(m - a, out) for s, a in enumerate(suit_counts)}
        dist[-1] = Fraction(0)
        return dist
    out = rules.deck_size - rules.hand_size
    dist = {s: Fraction(m - a, out) for s, a in enumerate(suit_counts)}
    dist[-1] = Fraction(specials(rules) - special_count, out)
    return dist


def trump_count_distribution(rules) -> dict[int, Fraction]:
    """Law of the number of trump cards in a given seat's hand, keyed ``k = 0..hand_size``.

    A no-trump round counts as 0 trumps.  See the module docstring for the
    derivation in each ``special_indicator_means`` mode.

    Returns
    -------
    dict[int, Fraction]
        ``P(k trumps)`` for ``k = 0..hand_size`` (exact zeros included); sums to 1.

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> dist = trump_count_distribution(Rules())
    >>> sum(dist.values()), dist[3], dist[9]
    (Fraction(1, 1), Fraction(131560, 489991), Fraction(0, 1))
    """
    d, h, m, c = rules.deck_size, rules.hand_size, rules.max_rank, rules.suited_cards
    dist = {k: Fraction(0) for k in range(h + 1)}
    if rules.special_indicator_means == "redraw":
        for t, p_t in hypergeometric(d, c, h).items():
            if p_t == 0:
                continue
            # validation (D - 2h > S) gives h < C / 2, so C - t > 0 here
            given_t = hypergeometric(c, m, t)
            for k in range(min(t, m) + 1):
                dist[k] += p_t * rules.suits * given_t[k] * Fraction(m - k, c - t)
        return dist
    suited_indicator = Fraction(c, d)
    for k, p in hypergeometric(d - 1, m - 1, h).items():
        dist[k] += suited_indicator * p
    dist[0] += p_no_trump(rules)
    return dist


def mean_trumps(rules) -> Fraction:
    """Expected number of trump cards in a given seat's hand (0 in a no-trump round).

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> mean_trumps(Rules()), mean_trumps(Rules(special_indicator_means="redraw"))
    (Fraction(720, 287), Fraction(144, 49))
    """
    return _mean(trump_count_distribution(rules))


def p_at_least_trumps(rules, k: int) -> Fraction:
    """P(a given seat's hand holds at least ``k`` trump cards).

    Parameters
    ----------
    k : int
        Threshold; ``k <= 0`` gives 1.

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> p_at_least_trumps(Rules(), 0)
    Fraction(1, 1)
    >>> p_at_least_trumps(Rules(), 9)  # at most 8 trumps: the indicator is one of the 9
    Fraction(0, 1)
    """
    return _tail(trump_count_distribution(rules), k)


# ---------------------------------------------------------------------- hand contents (§2.1)


def special_count_distribution(rules, kind: str = "both") -> dict[int, Fraction]:
    """Law of the number of special cards in a given seat's hand, keyed ``k = 0..hand_size``.

    Parameters
    ----------
    kind : {"both", "V", "N"}, optional
        Count V and N together (default), only Valknuts or only Hagalaz cards.

    Returns
    -------
    dict[int, Fraction]
        Hypergeometric ``P(k)`` with ``K`` = the count of that kind in the deck.

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> special_count_distribution(Rules(), "V")[0]
    Fraction(585, 2296)
    >>> special_count_distribution(Rules())[6]
    Fraction(55, 57646)
    """
    if kind not in SPECIAL_KINDS:
        raise ValueError(f"kind={kind!r} is not allowed: one of {', '.join(SPECIAL_KINDS)}")
    count = {"both": specials(rules), "V": rules.valknut_count, "N": rules.hagalaz_count}[kind]
    return hypergeometric(rules.deck_size, count, rules.hand_size)


def rank_count_distribution(rules, rank: int) -> dict[int, Fraction]:
    """Law of the number of cards of ``rank`` (any suit) in a given seat's hand.

    There are ``suits`` cards of each rank 1..``max_rank``; 1, 3, 6 and 9 are
    the ranks with powers (R-4).

    Parameters
    ----------
    rank : int
        A rank in ``1..max_rank``.

    Returns
    -------
    dict[int, Fraction]
        ``P(k)`` for ``k = 0..hand_size`` (zero beyond ``suits``).

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> dist = rank_count_distribution(Rules(), 9)
    >>> dist[0], dist[4], dist[5]
    (Fraction(45, 287), Fraction(1, 82), Fraction(0, 1))
    """
    if not 1 <= rank <= rules.max_rank:
        raise ValueError(f"rank={rank} is not allowed: ranks are 1..max_rank={rules.max_rank}")
    return hypergeometric(rules.deck_size, rules.suits, rules.hand_size)


# ---------------------------------------------------------------------- the table


def summary(rules) -> pd.DataFrame:
    """The exact deal odds (``toolkit odds herrlof``, the report), in the table of
    :func:`toolkit.core.exact.odds_table`.

    The distributions are listed for every ``k`` with a nonzero probability.

    Examples
    --------
    >>> from toolkit.games.herrlof.rules import Rules
    >>> summary(Rules()).loc[0, ["quantity", "exact"]].tolist()
    ['P(no trump)', '1/7']
    """
    h = rules.hand_size
    trumps = trump_count_distribution(rules)
    rows = [
        (NO_TRUMP, p_no_trump(rules)),
        (SPECIAL_INDICATOR, p_special_indicator(rules)),
        (MEAN_TRUMPS, _mean(trumps)),
    ]
    rows += [(TRUMPS.format(k=k), p) for k, p in trumps.items() if p > 0]
    rows += [(TRUMPS_AT_LEAST.format(k=k), _tail(trumps, k)) for k in range(1, h + 1) if _tail(trumps, k) > 0]
    for kind, label in SPECIAL_LABELS:
        dist = special_count_distribution(rules, kind)
        rows.append((MEAN_SPECIALS.format(label=label), _mean(dist)))
        rows.append((SOME_SPECIAL.format(label=label), 1 - dist[0]))
    rows += [(SPECIALS.format(k=k), p) for k, p in special_count_distribution(rules).items() if p > 0]
    # every rank has the same law (one card per suit), so one table serves the 1, 3, 6 and 9
    effect = _effect_ranks(rules)
    rows.append((MEAN_EFFECT.format(ranks=", ".join(map(str, effect))),
                 Fraction(h * len(effect) * rules.suits, rules.deck_size)))
    dist = rank_count_distribution(rules, 1)
    rows += [(ONE_RANK.format(k=k), p) for k, p in dist.items() if p > 0]
    return odds_table(rows)


# ---------------------------------------------------------------------- the run's deals, replayed


def deals(frame, rules, policies=None, limit: int = DEALS_REPLAYED):
    """The first-round deal of each of the run's first ``limit`` games, replayed (``toolkit.core.deals``).

    Yields ``(deck, state)``: the shuffled deck (top first, card ``2 * hand_size``
    is the first indicator turned) and the reference's state at the start of
    round 1.  The draws are ``play_game``'s: the first dealer (R-1.1), then the
    shuffle (R-2.1).  ``policies`` play no part (they are only checked against
    the frame's).
    """
    from toolkit.games.herrlof.reference import draw_first_dealer, new_round_state, shuffled_deck

    seed, games = replayed_games(frame, rules, policies, limit)
    for g in games:
        chance = Stream(seed, int(g), CHANCE)
        dealer = draw_first_dealer(rules, chance)
        deck = shuffled_deck(rules, chance)
        yield deck, new_round_state(rules, deck, dealer)


def samples(frame, rules, policies=None, limit: int = DEALS_REPLAYED) -> dict[str, np.ndarray]:
    """One value per replayed deal for each row of :func:`summary`: an indicator for a probability,
    the count for a mean.

    Every row is about the first round (R-2: the trump and the first indicator)
    and "a given seat's hand" is seat 0's first hand; rows for every ``k`` are
    made, :func:`simulated` keeps the summary's.  The deals are :func:`deals`',
    drawn for every game at once (:class:`toolkit.core.deals.Streams`, the
    same draws in the same order: the first dealer, then the shuffle).

    Examples
    --------
    >>> from toolkit.core.deals import games_frame
    >>> from toolkit.games.herrlof.rules import Rules
    >>> frame = games_frame(300, seed=4)
    >>> for rules in (Rules(), Rules(special_indicator_means="redraw", first_dealer="seat1")):
    ...     dealt = [(st.hands[0], st.trump, st.cards) for _, st in deals(frame, rules)]
    ...     trumps = [sum(t >= 0 and c.suit(f) == t for f in hand) for hand, t, c in dealt]
    ...     print(samples(frame, rules)[MEAN_TRUMPS].tolist() == trumps)
    True
    True
    """
    from toolkit.games.herrlof.reference import NO_TRUMP as NONE, Cards

    seed, games = replayed_games(frame, rules, policies, limit)
    c, h = Cards(rules), rules.hand_size
    chance = Streams(seed, games)
    if rules.first_dealer == "random":  # R-1.1 (reference.draw_first_dealer)
        dealer = chance.below(2)
    else:
        dealer = np.full(len(games), 0 if rules.first_dealer == "seat0" else 1)
    deck = chance.shuffle(np.tile(np.array(c.deck(), np.int64), (len(games), 1)))  # top first
    # R-2 (reference.new_round_state): the non-dealer's hand is the first block, the dealer's the second
    hand = np.where(dealer[:, None] == 1, deck[:, :h], deck[:, h:2 * h])
    stock = deck[:, 2 * h:]
    indicator = stock[:, 0]
    if rules.special_indicator_means == "redraw":  # the stock's first suited card (validation: there is one)
        indicator = np.take_along_axis(stock, np.argmax(stock < c.suited, axis=1)[:, None], axis=1)[:, 0]
    trump = np.where(indicator < c.suited, indicator // c.max_rank, NONE)
    suited = hand < c.suited
    rank = np.where(suited, hand % c.max_rank + 1, 0)  # Cards.rank: 0 for V and N
    no_trump = (trump < 0).astype(np.int64)
    special = (stock[:, 0] >= c.suited).astype(np.int64)
    trumps = (suited & (trump[:, None] >= 0) & (hand // c.max_rank == trump[:, None])).sum(axis=1)
    valknuts, hagalaz = (hand == c.V).sum(axis=1), (hand == c.N).sum(axis=1)
    effect = _effect_ranks(rules)
    effects = (suited & np.isin(rank, effect)).sum(axis=1)
    ones = (suited & (rank == 1)).sum(axis=1)
    out = {NO_TRUMP: no_trump, SPECIAL_INDICATOR: special, MEAN_TRUMPS: trumps}
    out |= {TRUMPS.format(k=k): trumps == k for k in range(h + 1)}
    out |= {TRUMPS_AT_LEAST.format(k=k): trumps >= k for k in range(1, h + 1)}
    counts = {"both": valknuts + hagalaz, "V": valknuts, "N": hagalaz}
    for kind, label in SPECIAL_LABELS:
        out[MEAN_SPECIALS.format(label=label)] = counts[kind]
        out[SOME_SPECIAL.format(label=label)] = counts[kind] >= 1
    out |= {SPECIALS.format(k=k): counts["both"] == k for k in range(h + 1)}
    out[MEAN_EFFECT.format(ranks=", ".join(map(str, effect)))] = effects
    out |= {ONE_RANK.format(k=k): ones == k for k in range(h + 1)}
    return out


def simulated(frame, rules, policies=None) -> dict[str, float]:
    """Every row of :func:`summary`, measured on the run's own deals (the dashboard shows them side by side).

    The first-round deals of the frame's first :data:`DEALS_REPLAYED` games
    (``SAMPLE_DEALS``) are replayed with the reference's shuffle and deal on
    each game's chance stream (:func:`deals`, all at once in :func:`samples`),
    so they are the deals the run's games were played from; each row is the
    share (probability rows) or the mean over them of its quantity, with "a
    hand" seat 0's first hand.
    """
    return sample_means(samples(frame, rules, policies), summary(rules)["quantity"])
