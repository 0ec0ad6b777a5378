"""Exact Attila odds (spec ``docs/rules/attila.md`` §2, A-1, A-3.5, A-5): checked against
brute-force enumeration of small decks, against deals made by the reference
(``reference.Game`` deals at construction) at fixed seeds, and the scoring
table against the reference's ``Game.scoring`` on positions of seeded games."""

from __future__ import annotations

import copy
import doctest
import itertools
import math
import random
from collections import Counter
from fractions import Fraction as F

import pytest

from toolkit.games.attila import odds
from toolkit.games.attila import reference as ref
from toolkit.games.attila.rules import TRIBES, Rules

DEFAULT = Rules()
# small decks for brute force: (cards_per_tribe, hand_size, num_players)
SMALL = {"c1_h3": (1, 3, 2), "c2_h3": (2, 3, 4), "c2_h4": (2, 4, 3), "c3_h5": (3, 5, 3)}


def _small(name) -> Rules:
    c, h, n = SMALL[name]
    return Rules(cards_per_tribe=c, hand_size=h, num_players=n)


def _brute_hands(c: int, h: int):
    """Every hand (as a count vector) of the D = 6c physical cards, each with weight 1."""
    for hand in itertools.combinations(range(6 * c), h):
        yield tuple(sum(1 for card in hand if card // c == t) for t in range(6))


def _brute(c: int, h: int) -> dict:
    return Counter(_brute_hands(c, h))


# ---------------------------------------------------------------------- doctests and sums


def test_doctests():
    result = doctest.testmod(odds, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("rules", [DEFAULT, Rules(hand_size=10), Rules(cards_per_tribe=1, num_players=2, hand_size=3),
                                   Rules(cards_per_tribe=30, hand_size=8)], ids=["default", "h10", "c1", "c30"])
def test_distributions_sum_to_one(rules):
    assert sum(odds.tribe_count_distribution(rules).values()) == 1
    assert sum(odds.distinct_tribes_distribution(rules).values()) == 1
    assert sum(odds.composition_distribution(rules).values()) == 1
    assert all(isinstance(p, F) for p in odds.distinct_tribes_distribution(rules).values())
    assert odds.p_at_least(rules, 0) == 1
    assert odds.p_at_least(rules, rules.hand_size + 1) == 0
    assert odds.expected_tribe_cards(rules) == F(rules.hand_size, 6)
    # the composition law's marginal is the one-tribe law
    marg = Counter()
    for k, p in odds.composition_distribution(rules).items():
        marg[k[3]] += p
    assert {k: marg[k] for k in range(rules.hand_size + 1)} == odds.tribe_count_distribution(rules)


def test_default_numbers():
    assert odds.p_at_least(DEFAULT, 1) == 1 - F(math.comb(45, 6), math.comb(54, 6)) == F(168401, 245973)
    assert odds.p_at_least(DEFAULT, 2) == F(318394, 1229865)
    assert odds.p_at_least(DEFAULT, 3) == F(62974, 1229865)
    assert odds.distinct_tribes_distribution(DEFAULT)[6] == F(9 ** 6, math.comb(54, 6))
    assert odds.distinct_tribes_distribution(DEFAULT)[0] == 0
    assert odds.p_has_all(DEFAULT, range(6)) == odds.distinct_tribes_distribution(DEFAULT)[6]
    assert odds.p_has_all(DEFAULT, []) == 1
    assert odds.p_has_all(DEFAULT, ["goths"]) == odds.p_at_least(DEFAULT, 1)
    # two tribes' cards together count as one kind of 18 cards
    assert odds.p_at_least(DEFAULT, 1, tribe_cards=18) == 1 - F(math.comb(36, 6), math.comb(54, 6))


def test_summary_shape():
    df = odds.summary(DEFAULT)
    assert list(df.columns) == ["quantity", "exact", "value"]
    assert df.loc[0, "exact"] == "168401/245973"
    rows = dict(zip(df.quantity, df.exact))
    assert rows["expected cards of a given tribe in a hand"] == "1"
    assert sum(F(v) for q, v in rows.items() if q.startswith("P(distinct tribes in a hand =")) == 1
    assert sum(F(v) for q, v in rows.items() if q.startswith("P(cards of a given tribe in a hand =")) == 1


def test_bad_arguments():
    with pytest.raises(ValueError, match="draws=5"):
        odds.p_refill_brings(DEFAULT, 0, 5, [1, 1, 1, 1, 0, 0])
    with pytest.raises(ValueError, match="tribe="):
        odds.p_refill_brings(DEFAULT, "romans", 1, [1, 1, 1, 1, 0, 0])
    with pytest.raises(ValueError, match="deck_counts="):
        odds.p_refill_brings(DEFAULT, 0, 1, [1, 1, 1])
    with pytest.raises(ValueError, match="influence"):
        odds.scoring_table(DEFAULT, [[0] * 6] * 3, [[0] * 6] * 25)


# ---------------------------------------------------------------------- brute force


@pytest.mark.parametrize("name", list(SMALL))
def test_hands_brute_force(name):
    rules = _small(name)
    c, h, _ = SMALL[name]
    hands = _brute(c, h)
    total = sum(hands.values())
    assert total == math.comb(6 * c, h)
    compositions = {k: F(w, total) for k, w in hands.items()}
    assert odds.composition_distribution(rules) == dict(sorted(compositions.items()))
    for t in range(6):
        law = Counter()
        for k, w in hands.items():
            law[k[t]] += F(w, total)
        assert odds.tribe_count_distribution(rules) == {j: law[j] for j in range(h + 1)}
        for k in range(h + 2):
            assert odds.p_at_least(rules, k) == sum((p for j, p in law.items() if j >= k), F(0))
    distinct = Counter()
    for k, w in hands.items():
        distinct[sum(1 for j in k if j)] += F(w, total)
    assert odds.distinct_tribes_distribution(rules) == {j: distinct[j] for j in range(7)}
    for size in range(7):
        for s in itertools.combinations(range(6), size):
            want = sum((F(w, total) for k, w in hands.items() if all(k[t] for t in s)), F(0))
            assert odds.p_has_all(rules, s) == want
            assert odds.p_has_all(rules, [TRIBES[t] for t in s]) == want


@pytest.mark.parametrize("counts", [(2, 0, 1, 3, 1, 0), (1, 1, 1, 1, 1, 1), (0, 0, 0, 0, 0, 4), (3, 2, 0, 0, 2, 1)])
def test_refill_brute_force(counts):
    cards = [t for t in range(6) for _ in range(counts[t])]
    n = len(cards)
    for draws in range(n + 1):
        drawn = list(itertools.combinations(range(n), draws))
        for t in range(6):
            hits = Counter(sum(1 for i in d if cards[i] == t) for d in drawn)
            law = {k: F(hits[k], len(drawn)) for k in range(draws + 1)}
            assert odds.refill_distribution(DEFAULT, t, draws, counts) == law
            assert odds.p_refill_brings(DEFAULT, t, draws, counts) == 1 - law[0]
        # ordered draws (a uniform deck order, drawn from the front) give the same law
        if draws and n <= 6:
            orders = list(itertools.permutations(cards))
            for t in range(6):
                got = F(sum(1 for o in orders if t in o[:draws]), len(orders))
                assert odds.p_refill_brings(DEFAULT, TRIBES[t], draws, counts) == got


# ---------------------------------------------------------------------- simulation (the reference's deal)


def _z_ok(hits: int, n: int, p: F, sigmas: float = 4.5) -> bool:
    p = float(p)
    if p in (0.0, 1.0):
        return hits == n * p
    return abs(hits - n * p) <= sigmas * math.sqrt(n * p * (1 - p))


def test_reference_deals_match():
    rules, n_deals, draws = DEFAULT, 20_000, 3
    seats = (0, rules.num_players - 1)
    at_least = {(s, t, k): 0 for s in seats for t in range(6) for k in (1, 2, 3)}
    distinct = {(s, j): 0 for s in seats for j in range(7)}
    has_two = dict.fromkeys(seats, 0)
    refill_hits, refill_expected, refill_var = 0, 0.0, 0.0
    for g in range(n_deals):
        game = ref.Game(rules, 2024, g, ["random"] * rules.num_players)
        for s in seats:
            hand = game.hands[s]
            assert sum(hand) == rules.hand_size
            for t in range(6):
                for k in (1, 2, 3):
                    at_least[s, t, k] += hand[t] >= k
            distinct[s, sum(1 for x in hand if x)] += 1
            has_two[s] += bool(hand[0] and hand[1])
        # refill: given the deck's counts, the next `draws` cards bring tribe g % 6 with p_refill_brings
        t = g % 6
        counts = [game.deck.count(u) for u in range(6)]
        p = float(odds.p_refill_brings(rules, t, draws, counts))
        refill_hits += t in game.deck[:draws]
        refill_expected += p
        refill_var += p * (1 - p)
    for (s, t, k), hits in at_least.items():
        assert _z_ok(hits, n_deals, odds.p_at_least(rules, k)), (s, t, k, hits)
    law = odds.distinct_tribes_distribution(rules)
    for (s, j), hits in distinct.items():
        assert _z_ok(hits, n_deals, law[j]), (s, j, hits)
    for s, hits in has_two.items():
        assert _z_ok(hits, n_deals, odds.p_has_all(rules, (0, 1))), (s, hits)
    assert abs(refill_hits - refill_expected) <= 4.5 * math.sqrt(refill_var)


# ---------------------------------------------------------------------- scoring vs the reference


def _reference_scoring(game, influence=None, only_tribe=None) -> list:
    """Run the reference's ``Game.scoring`` on a copy of ``game`` with zero VP (optionally with
    other influence, or with the influence of every tribe but ``only_tribe`` set to 0)."""
    clone = copy.copy(game)  # scoring reads rules/board/n/figures/influence, writes vp and a tally
    clone.vp = [0] * game.n
    inf = copy.deepcopy(game.influence if influence is None else influence)
    if only_tribe is not None:
        inf = [[v if t == only_tribe else 0 for t, v in enumerate(row)] for row in inf]
    clone.influence = inf
    clone.figures = copy.deepcopy(game.figures)
    ref.Game.scoring(clone)
    return clone.vp


def _check_position(game, influence=None) -> None:
    rules = game.rules
    inf = copy.deepcopy(game.influence if influence is None else influence)
    figs = copy.deepcopy(game.figures)
    table = odds.scoring_table(rules, inf, figs)
    assert len(table) == 6 * rules.num_players
    assert odds.scoring_vp(rules, inf, figs) == _reference_scoring(game, inf)
    for t in range(6):
        rows = table[table.tribe_id == t]
        assert rows.player.tolist() == list(range(rules.num_players))
        assert rows.vp.tolist() == _reference_scoring(game, inf, only_tribe=t)
        assert (rows.N_fig == sum(row[t] for row in figs)).all()
        assert (rows.N_prov == sum(1 for row in figs if row[t])).all()
        assert ((rows["rank"] == 0) == (rows.influence == 0)).all()
        assert ((rows.place == "ineligible") == (rows.influence == 0)).all()


CONFIGS = [(n, rounding, gap) for n in (2, 3, 4, 5) for rounding in ("down", "up")
           for gap in ((2, None, 0) if n == 2 else (None,))]


@pytest.mark.parametrize("players,rounding,gap", CONFIGS)
def test_scoring_table_matches_reference(players, rounding, gap):
    rules = Rules(num_players=players, tie_rounding=rounding, two_player_second_place_gap=gap)
    rng = random.Random(players * 100 + (rounding == "up") * 10 + (gap or 0))
    checked = [0]

    def observer(game, decision, choice):
        if game.plies % 9:
            return
        _check_position(game)
        # the same board with small random influence: many ties, 0s and close second places
        _check_position(game, [[rng.choice((0, 0, 1, 2, 3, 4, 5)) for _ in range(6)] for _ in range(game.n)])
        checked[0] += 1

    for g in range(2):
        game = ref.play_game(rules, 77, g, observer=observer)
        _check_position(game)  # the final position too
    assert checked[0] >= 20


def test_scoring_table_hand_cases():
    figs = [[3, 1, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]] + [[0] * 6] * 22
    # N_fig(franks) = 6, N_prov = 3; goths 1 and 1
    cases = [
        # (players, rounding, gap, influence of franks per player, franks VP)
        (4, "down", None, [3, 3, 0, 1], [4, 4, 0, 0]),  # tied first: floor(9 / 2), no second place
        (4, "up", None, [3, 3, 0, 1], [5, 5, 0, 0]),  # ceil(9 / 2)
        (4, "down", None, [4, 2, 2, 1], [6, 1, 1, 0]),  # second place split: floor(3 / 2)
        (4, "up", None, [4, 2, 2, 1], [6, 2, 2, 0]),
        (3, "down", None, [5, 5, 5], [3, 3, 3]),  # three-way tie: floor(9 / 3)
        (5, "down", None, [0, 0, 0, 0, 7], [0, 0, 0, 0, 6]),  # a sole eligible player
        (4, "down", None, [0, 0, 0, 0], [0, 0, 0, 0]),  # nobody eligible
        (2, "down", 2, [5, 3], [6, 3]),  # gap 2 reached
        (2, "down", 2, [6, 3], [6, 0]),  # gap 3 > 2
        (2, "down", None, [9, 1], [6, 3]),  # no gap rule
        (2, "down", 0, [4, 4], [4, 4]),  # a tie is not a second place
    ]
    for players, rounding, gap, franks, want in cases:
        rules = Rules(num_players=players, tie_rounding=rounding, two_player_second_place_gap=gap)
        inf = [[franks[p], 0, 0, 0, 0, 0] for p in range(players)]
        table = odds.scoring_table(rules, inf, figs)
        rows = table[table.tribe_id == 0]
        assert rows.vp.tolist() == want, (players, rounding, gap, franks)
        assert (rows.N_fig == 6).all() and (rows.N_prov == 3).all()
        assert odds.scoring_vp(rules, inf, figs) == want
    # ranks and tie groups
    rules = Rules()
    table = odds.scoring_table(rules, [[4, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]],
                               figs)
    rows = table[table.tribe_id == 0]
    assert rows["rank"].tolist() == [1, 2, 2, 3]
    assert rows.tie.tolist() == [1, 2, 2, 1]
    assert rows.place.tolist() == ["first", "second", "second", "none"]
