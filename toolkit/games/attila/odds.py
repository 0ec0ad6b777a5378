"""Exact Attila odds (spec ``docs/rules/attila.md`` §2, A-1, A-3.5, A-5) in exact fractions.

Every probability here is a :class:`fractions.Fraction` computed with
:func:`math.comb` (hypergeometric arithmetic), never by sampling, and every
score is an exact ``int``.  The results hold for any valid
:class:`~toolkit.games.attila.rules.Rules`, which is what a function's ``rules``
is (its entry in a docstring says which fields are read, where that matters).

Notation: ``c`` = ``cards_per_tribe``, ``D = 6 * c`` (the whole deck, §2),
``h`` = ``hand_size``.

Derivations
-----------
**Hands (A-1.3).**  The deck is shuffled uniformly and each seat gets a block
of ``h`` consecutive cards, so one seat's hand is a uniform ``h``-subset of
the ``D`` physical cards, whichever seat it is.  Hence:

- the cards of one given tribe in a hand are hypergeometric,
  ``P(k) = comb(c, k) * comb(D - c, h - k) / comb(D, h)``
  (:func:`tribe_count_distribution`, :func:`p_at_least`); the mean is
  ``h * c / D = h / 6`` (:func:`expected_tribe_cards`);
- the hand's count vector ``(k_0, ..., k_5)`` is multivariate hypergeometric,
  ``P(k) = prod_t comb(c, k_t) / comb(D, h)`` over the vectors with
  ``sum k_t = h`` (:func:`composition_distribution`); summing it by the
  number of nonzero ``k_t`` gives :func:`distinct_tribes_distribution`;
- a hand has a card of every tribe of a set ``S`` with probability, by
  inclusion-exclusion over the tribes of ``S`` that are missing,
  ``sum_{J <= S} (-1)^|J| comb(D - |J| c, h) / comb(D, h)``
  (:func:`p_has_all`; the tests check it against the enumeration).

**Refill (A-3.5).**  Given the deck's per-tribe counts (and nothing else),
the deck's order is uniform, so the next ``d`` cards are a uniform
``d``-subset of the ``N`` cards in it: the number of cards of tribe ``t``
drawn is hypergeometric (``K = counts[t]`` of ``N``, ``d`` drawn) and
``P(at least one) = 1 - comb(N - K, d) / comb(N, d)``
(:func:`p_refill_brings`, :func:`refill_distribution`).  A refill longer
than the deck would reshuffle the discard pile (A-3.5); that is not modelled,
so ``d`` may not exceed ``N``.

**Scoring (A-5).**  :func:`scoring_table` is the deterministic VP each player
would get from a scoring of the given position (influence tracks and figures),
tribe by tribe and player by player, with the first and second places, their
tie groups, the 0-influence ineligibility, ``tie_rounding`` and the 2-player
second-place gap; :func:`scoring_vp` is its per-player total.  Both are
checked against the reference's ``Game.scoring`` on positions of seeded games.

:func:`summary` is the game's ``odds`` table (``toolkit odds``, the report).

Examples
--------
>>> from toolkit.games.attila.rules import Rules
>>> p_at_least(Rules(), 1)
Fraction(168401, 245973)
>>> expected_tribe_cards(Rules())
Fraction(1, 1)
>>> p_refill_brings(Rules(), 0, 2, [1, 0, 0, 0, 0, 3])
Fraction(1, 2)
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd

from toolkit.core.deals import Streams, replayed_games, sample_means
from toolkit.core.exact import hypergeometric, index_of, odds_table
from toolkit.core.exact import mean as _mean, tail as _tail  # noqa: F401 (re-exported)

from toolkit.games.attila.rules import TRIBES

N_TRIBES = len(TRIBES)
PLACES = ("first", "second", "none", "ineligible")
GIVEN_TRIBES = (0, 1)  # "a given tribe" is tribe 0; "two given tribes" are tribes 0 and 1
# Games replayed for the simulated odds, fewer than toolkit.core.deals.SAMPLE_DEALS: the reference
# Game's set-up (start player, shuffle, deal, its board and tallies) took about 0.06 ms, so 10,000
# took 0.55-0.7 s (measured) and 8,000 about 0.5 s; first_hands replays the 8,000 at once in about
# 10 ms (kept at 8,000: the numbers shown stay the same)
DEALS_REPLAYED = 8_000

# The rows of summary; simulated builds its keys from the same templates
AT_LEAST = "P(at least {k} card{s} of a given tribe in a hand)"
MEAN_TRIBE = "expected cards of a given tribe in a hand"
TRIBE_CARDS = "P(cards of a given tribe in a hand = {k})"
DISTINCT = "P(distinct tribes in a hand = {j})"
MEAN_DISTINCT = "expected distinct tribes in a hand"
TWO_TRIBES = "P(a hand holds two given tribes)"


def _at_least(k: int) -> str:
    return AT_LEAST.format(k=k, s="s" if k > 1 else "")


# ---------------------------------------------------------------------- helpers


def deck_size(rules) -> int:
    """The whole deck, ``D = 6 * cards_per_tribe`` (§2, A-1.3).

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> deck_size(Rules())
    54
    """
    return N_TRIBES * rules.cards_per_tribe


def _hand(rules, hand) -> int:
    h = rules.hand_size if hand is None else hand
    if not 0 <= h <= deck_size(rules):
        raise ValueError(f"hand={h} is not allowed: it must be in 0..{deck_size(rules)} (the deck size)")
    return h


# ---------------------------------------------------------------------- hands


def tribe_count_distribution(rules, tribe_cards: int | None = None, hand: int | None = None) -> dict[int, Fraction]:
    """Law of the number of cards of one given tribe in a fresh hand.

    Parameters
    ----------
    rules : Rules
        Attila rules (the deck is ``6 * cards_per_tribe`` cards).
    tribe_cards : int, optional
        Cards of the counted tribe in the deck (default ``cards_per_tribe``);
        e.g. ``2 * cards_per_tribe`` counts the cards of either of two tribes.
    hand : int, optional
        Cards in the hand (default ``hand_size``).

    Returns
    -------
    dict[int, Fraction]
        ``P(k)`` for ``k = 0..hand``.

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> tribe_count_distribution(Rules(cards_per_tribe=1, hand_size=3, num_players=2))
    {0: Fraction(1, 2), 1: Fraction(1, 2), 2: Fraction(0, 1), 3: Fraction(0, 1)}
    """
    d = deck_size(rules)
    k = rules.cards_per_tribe if tribe_cards is None else tribe_cards
    return hypergeometric(d, k, _hand(rules, hand))


def p_at_least(rules, k: int, tribe_cards: int | None = None, hand: int | None = None) -> Fraction:
    """P(a fresh hand holds at least ``k`` cards of a given tribe).

    Parameters
    ----------
    k : int
        The threshold (``k <= 0`` gives 1).
    tribe_cards, hand : int, optional
        As in :func:`tribe_count_distribution`.

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> p_at_least(Rules(), 2)
    Fraction(318394, 1229865)
    """
    return _tail(tribe_count_distribution(rules, tribe_cards, hand), k)


def expected_tribe_cards(rules, hand: int | None = None) -> Fraction:
    """Expected cards of a given tribe in a fresh hand: ``hand * c / D = hand / 6``.

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> expected_tribe_cards(Rules(hand_size=8))
    Fraction(4, 3)
    """
    return _mean(tribe_count_distribution(rules, hand=hand))


def composition_distribution(rules, hand: int | None = None, deck_counts=None) -> dict[tuple, Fraction]:
    """The multivariate hypergeometric law of a hand's count vector ``(k_0, ..., k_5)``.

    Parameters
    ----------
    hand : int, optional
        Cards drawn (default ``hand_size``).
    deck_counts : sequence of 6 ints, optional
        Cards of each tribe in the deck drawn from (default ``cards_per_tribe`` each).

    Returns
    -------
    dict[tuple, Fraction]
        One entry per possible vector (all with probability > 0),
        lexicographically ascending.

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> composition_distribution(Rules(), hand=1, deck_counts=[1, 0, 0, 0, 0, 3])
    {(0, 0, 0, 0, 0, 1): Fraction(3, 4), (1, 0, 0, 0, 0, 0): Fraction(1, 4)}
    """
    counts = [rules.cards_per_tribe] * N_TRIBES if deck_counts is None else [int(c) for c in deck_counts]
    if len(counts) != N_TRIBES or min(counts) < 0:
        raise ValueError(f"deck_counts={list(deck_counts)} is not allowed: 6 counts >= 0, one per tribe")
    n = sum(counts)
    h = rules.hand_size if hand is None else hand
    if not 0 <= h <= n:
        raise ValueError(f"hand={h} is not allowed: it must be in 0..{n} (the cards in the deck)")
    return dict(_compositions(tuple(counts), int(h)))


@functools.lru_cache(maxsize=64)
def _compositions(counts: tuple, h: int) -> tuple:
    """:func:`composition_distribution`'s pairs for a deck of ``counts`` and a hand of ``h``.  Kept per
    deck and hand: a dashboard redraws the odds after every change of a rule (about 10 ms without it)."""
    total = comb(sum(counts), h)
    out = []
    for k in itertools.product(*(range(min(c, h) + 1) for c in counts)):
        if sum(k) != h:
            continue
        ways = 1
        for c, j in zip(counts, k):
            ways *= comb(c, j)
        out.append((k, Fraction(ways, total)))
    return tuple(out)


def distinct_tribes_distribution(rules, hand: int | None = None) -> dict[int, Fraction]:
    """Law of the number of distinct tribes in a fresh hand (by enumerating the count vectors).

    Returns
    -------
    dict[int, Fraction]
        ``P(j distinct tribes)`` for ``j = 0..6``.

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> distinct_tribes_distribution(Rules())[6]
    Fraction(59049, 2869685)
    """
    out = {j: Fraction(0) for j in range(N_TRIBES + 1)}
    for k, p in composition_distribution(rules, _hand(rules, hand)).items():
        out[sum(1 for j in k if j > 0)] += p
    return out


def p_has_all(rules, tribes, hand: int | None = None) -> Fraction:
    """P(a fresh hand holds at least one card of every tribe in ``tribes``) (inclusion-exclusion).

    Parameters
    ----------
    tribes : iterable of tribe ids or names
        The set (duplicates are ignored; the empty set gives 1).
    hand : int, optional
        Cards in the hand (default ``hand_size``).

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> p_has_all(Rules(), ["franks", "huns"])
    Fraction(14023, 31535)
    """
    s = sorted({index_of("tribe", t, TRIBES) for t in tribes})
    d, c, h = deck_size(rules), rules.cards_per_tribe, _hand(rules, hand)
    total = sum((-1) ** j * comb(len(s), j) * comb(d - j * c, h) for j in range(len(s) + 1))
    return Fraction(total, comb(d, h))


# ---------------------------------------------------------------------- refill


def _deck(deck_counts, draws) -> tuple[list, int]:
    counts = [int(c) for c in deck_counts]
    if len(counts) != N_TRIBES or min(counts) < 0:
        raise ValueError(f"deck_counts={list(deck_counts)} is not allowed: 6 counts >= 0, one per tribe")
    n = sum(counts)
    if not 0 <= draws <= n:
        raise ValueError(f"draws={draws} is not allowed: it must be in 0..{n} (the cards in the deck); "
                         "a reshuffle of the discard pile is not modelled")
    return counts, n


def refill_distribution(rules, tribe, draws: int, deck_counts) -> dict[int, Fraction]:
    """Law of the cards of ``tribe`` among the next ``draws`` cards of a deck with the given counts.

    Parameters
    ----------
    rules : Rules
        Attila rules (not needed by the arithmetic; kept for a uniform signature).
    tribe : int or str
        Tribe id 0..5 or name.
    draws : int
        Cards drawn, ``0..sum(deck_counts)``.
    deck_counts : sequence of 6 ints
        Cards of each tribe left in the deck.

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> refill_distribution(Rules(), "huns", 2, [1, 0, 0, 0, 0, 3])
    {0: Fraction(0, 1), 1: Fraction(1, 2), 2: Fraction(1, 2)}
    """
    counts, n = _deck(deck_counts, draws)
    return hypergeometric(n, counts[index_of("tribe", tribe, TRIBES)], draws)


def p_refill_brings(rules, tribe, draws: int, deck_counts) -> Fraction:
    """P(drawing ``draws`` cards from a deck with ``deck_counts`` brings at least one card of ``tribe``).

    ``1 - comb(N - K, draws) / comb(N, draws)`` with ``N = sum(deck_counts)``,
    ``K = deck_counts[tribe]`` (without replacement, from the counts only).

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> p_refill_brings(Rules(), 0, 3, [2, 2, 2, 2, 2, 2])
    Fraction(5, 11)
    """
    counts, n = _deck(deck_counts, draws)
    k = counts[index_of("tribe", tribe, TRIBES)]
    return 1 - Fraction(comb(n - k, draws), comb(n, draws))


# ---------------------------------------------------------------------- scoring


def scoring_table(rules, influence, figures) -> pd.DataFrame:
    """The VP each player would get from a scoring (A-5) of this position, per tribe and player.

    Parameters
    ----------
    rules : Rules
        Attila rules (``num_players``, ``tie_rounding``, ``two_player_second_place_gap``).
    influence : sequence of ``num_players`` sequences of 6 ints
        ``influence[p][t]``.
    figures : sequence of sequences of 6 ints
        ``figures[x][t]``, one row per province (pacified provinces included).

    Returns
    -------
    pandas.DataFrame
        One row per (tribe, player), tribes in id order then players:
        ``tribe_id``, ``tribe``, ``player``, ``influence``, ``N_fig``, ``N_prov``,
        ``rank`` (dense rank among the eligible players, 1 = most influence;
        0 = not eligible), ``tie`` (eligible players sharing that influence;
        0 = not eligible), ``place`` (``first``, ``second``, ``none`` or
        ``ineligible``) and ``vp`` (an int).  ``place = none`` covers the
        players below second place, the lower players when first place is
        tied, and a 2-player second place outside the gap.

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> figs = [[2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]] + [[0] * 6] * 23
    >>> inf = [[3, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [0] * 6]
    >>> t = scoring_table(Rules(), inf, figs)
    >>> t[t.tribe_id == 0][["player", "rank", "tie", "place", "vp"]].values.tolist()
    [[0, 1, 1, 'first', 3], [1, 2, 2, 'second', 1], [2, 2, 2, 'second', 1], [3, 0, 0, 'ineligible', 0]]
    """
    n = rules.num_players
    if len(influence) != n or any(len(row) != N_TRIBES for row in influence):
        raise ValueError(f"influence is not allowed: {n} rows (num_players={n}) of 6 values each")
    if any(len(row) != N_TRIBES for row in figures):
        raise ValueError("figures is not allowed: one row of 6 values per province")
    up = rules.tie_rounding == "up"

    def share(total, k):
        return -(-total // k) if up else total // k

    gap = rules.two_player_second_place_gap
    rows = []
    for t in range(N_TRIBES):
        n_fig = sum(int(row[t]) for row in figures)
        n_prov = sum(1 for row in figures if row[t] > 0)
        inf = [int(influence[p][t]) for p in range(n)]
        levels = sorted({v for v in inf if v > 0}, reverse=True)
        tie = {v: inf.count(v) for v in levels}
        place, vp = ["ineligible" if v <= 0 else "none" for v in inf], [0] * n
        if levels:
            top = levels[0]
            if tie[top] >= 2:  # a shared first place; no second place
                for p in range(n):
                    if inf[p] == top:
                        place[p], vp[p] = "first", share(n_fig + n_prov, tie[top])
            else:
                for p in range(n):
                    if inf[p] == top:
                        place[p], vp[p] = "first", n_fig
                if len(levels) >= 2:
                    second = levels[1]
                    if not (n == 2 and gap is not None and top - second > gap):
                        for p in range(n):
                            if inf[p] == second:
                                place[p], vp[p] = "second", share(n_prov, tie[second])
        for p in range(n):
            eligible = inf[p] > 0
            rows.append({"tribe_id": t, "tribe": TRIBES[t], "player": p, "influence": inf[p],
                         "N_fig": n_fig, "N_prov": n_prov,
                         "rank": levels.index(inf[p]) + 1 if eligible else 0,
                         "tie": tie[inf[p]] if eligible else 0, "place": place[p], "vp": vp[p]})
    return pd.DataFrame(rows, columns=["tribe_id", "tribe", "player", "influence", "N_fig", "N_prov",
                                       "rank", "tie", "place", "vp"])


def scoring_vp(rules, influence, figures) -> list[int]:
    """The VP each player would get from a scoring (A-5) of this position: :func:`scoring_table` summed.

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> figs = [[2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]] + [[0] * 6] * 23
    >>> scoring_vp(Rules(num_players=2), [[5, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]], figs)
    [3, 0]
    >>> scoring_vp(Rules(num_players=2), [[4, 0, 0, 0, 0, 0], [4, 0, 0, 0, 0, 0]], figs)
    [2, 2]
    """
    table = scoring_table(rules, influence, figures)
    return [int(v) for v in table.groupby("player")["vp"].sum().reindex(range(rules.num_players), fill_value=0)]


# ---------------------------------------------------------------------- summary


def summary(rules) -> pd.DataFrame:
    """The exact deal odds (``toolkit odds attila``, the report), in the table of
    :func:`toolkit.core.exact.odds_table`.

    Rows: P(at least k cards of a given tribe in a hand) for k = 1..3, the
    expected cards of a given tribe, the law of the cards of a given tribe,
    the law of the number of distinct tribes in a hand and its mean, and
    P(a hand holds two given tribes).  Zero-probability entries of the
    distributions are left out.

    Examples
    --------
    >>> from toolkit.games.attila.rules import Rules
    >>> summary(Rules()).loc[0, ["quantity", "exact"]].tolist()
    ['P(at least 1 card of a given tribe in a hand)', '168401/245973']
    """
    rows = [(_at_least(k), p_at_least(rules, k)) for k in (1, 2, 3)]
    rows.append((MEAN_TRIBE, expected_tribe_cards(rules)))
    rows += [(TRIBE_CARDS.format(k=k), p) for k, p in tribe_count_distribution(rules).items() if p > 0]
    distinct = distinct_tribes_distribution(rules)
    rows += [(DISTINCT.format(j=j), p) for j, p in distinct.items() if p > 0]
    rows.append((MEAN_DISTINCT, _mean(distinct)))
    rows.append((TWO_TRIBES, p_has_all(rules, GIVEN_TRIBES)))
    return odds_table(rows)


# ---------------------------------------------------------------------- the run's deals, replayed


def deals(frame, rules, policies, limit: int = DEALS_REPLAYED):
    """The reference ``Game`` of each of the run's first ``limit`` games, set up (A-1) and not played.

    ``Game(rules, seed, g, policies)`` is where ``play_game`` starts: on the
    game's chance stream it draws the start player, shuffles and deals
    (``toolkit.core.deals``), so its hands are the run's own.
    """
    from toolkit.games.attila.reference import Game

    seed, games = replayed_games(frame, rules, policies, limit)
    for g in games:
        yield Game(rules, seed, int(g), policies)


def first_hands(frame, rules, policies, limit: int = DEALS_REPLAYED) -> np.ndarray:
    """Seat 0's hand as dealt in each of :func:`deals` (``hands[game, tribe]``: its cards of each tribe),
    replayed for every game at once.

    The draws are ``Game``'s set-up (A-1) in its order, made with
    :class:`toolkit.core.deals.Streams`: the start player, then the shuffle;
    seat 0 is dealt first, the top ``hand_size`` cards.

    Examples
    --------
    >>> from toolkit.core.deals import games_frame
    >>> from toolkit.games.attila.rules import Rules
    >>> frame = games_frame(300, seed=4)
    >>> rules, policies = Rules(num_players=3), ("random",) * 3
    >>> first_hands(frame, rules, policies).tolist() == [g.hands[0] for g in deals(frame, rules, policies)]
    True
    """
    seed, games = replayed_games(frame, rules, policies, limit)
    chance = Streams(seed, games)
    if rules.start_player == "random":
        chance.below(rules.num_players)  # the start player, not needed here
    deck = np.repeat(np.arange(N_TRIBES), rules.cards_per_tribe)  # core.cards.deal: canonical order, top first
    deck = chance.shuffle(np.tile(deck, (len(games), 1)))
    top = deck[:, :rules.hand_size]
    return (top[:, :, None] == np.arange(N_TRIBES)).sum(axis=1)


def samples(frame, rules, policies, limit: int = DEALS_REPLAYED) -> dict[str, np.ndarray]:
    """One value per replayed game for each row of :func:`summary`: an indicator for a probability,
    the count for a mean.

    "A hand" is seat 0's hand as dealt (A-1.3: it is dealt first, always in
    full; :func:`first_hands`); "a given tribe" is tribe 0 and "two given
    tribes" tribes 0 and 1 (:data:`GIVEN_TRIBES`).
    """
    hands = first_hands(frame, rules, policies, limit)
    tribe = hands[:, GIVEN_TRIBES[0]]
    distinct = (hands > 0).sum(axis=1)
    out = {_at_least(k): tribe >= k for k in (1, 2, 3)}
    out[MEAN_TRIBE] = tribe
    out |= {TRIBE_CARDS.format(k=k): tribe == k for k in range(rules.hand_size + 1)}
    out |= {DISTINCT.format(j=j): distinct == j for j in range(N_TRIBES + 1)}
    out[MEAN_DISTINCT] = distinct
    out[TWO_TRIBES] = (hands[:, list(GIVEN_TRIBES)] > 0).all(axis=1)
    return out


def simulated(frame, rules, policies) -> dict[str, float]:
    """Every row of :func:`summary`, measured on the run's own deals (the dashboard shows them side by side).

    The set-ups of the frame's first :data:`DEALS_REPLAYED` games (8,000, not
    ``SAMPLE_DEALS``, since the reference ``Game`` sets up more than the deal)
    are replayed as the reference's ``Game`` deals on their chance streams
    (:func:`deals`, all at once in :func:`first_hands`), so the hands are those
    the run's games were dealt; each row is the share (probability rows) or the
    mean of its quantity over seat 0's hands (:func:`samples`).
    """
    return sample_means(samples(frame, rules, policies), summary(rules)["quantity"])
