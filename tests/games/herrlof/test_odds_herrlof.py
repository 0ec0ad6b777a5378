"""Exact Herrlof deal odds (spec ``docs/rules/herrlof.md`` §2, R-2): checked against
brute-force enumeration of small decks, against an explicit multivariate
hypergeometric sum over suit compositions, and against deals made by the
reference (``shuffled_deck`` + ``new_round_state``) at fixed seeds."""

from __future__ import annotations

import doctest
import functools
import itertools
import math
from collections import Counter
from fractions import Fraction as F

import pytest

import toolkit
from toolkit.core.rng import Stream
from toolkit.games.herrlof import odds
from toolkit.games.herrlof import reference as ref
from toolkit.games.herrlof.rules import Rules

MODES = ("no_trump", "redraw")
DEFAULT = Rules()
REDRAW = Rules(special_indicator_means="redraw")


def _small(**kw) -> Rules:
    return Rules(consolation_range=frozenset(), **kw)


# small decks for brute force: (suits, valknut_count, hagalaz_count, hand_size); max_rank = 9
SMALL = {
    "1suit_h2": dict(suits=1, valknut_count=1, hagalaz_count=1, hand_size=2),  # D = 11
    "1suit_h4": dict(suits=1, valknut_count=1, hagalaz_count=1, hand_size=4),  # D = 11, 3 leftovers
    "2suits_h2": dict(suits=2, valknut_count=1, hagalaz_count=2, hand_size=2),  # D = 21
    "2suits_nospecial": dict(suits=2, valknut_count=0, hagalaz_count=0, hand_size=2),  # D = 18
}


# ---------------------------------------------------------------------- brute force


@functools.lru_cache(maxsize=None)
def _first_suited(counts: tuple, n_special: int) -> dict:
    """Turn cards one by one from leftovers with ``counts[s]`` suited cards of suit s and
    ``n_special`` specials, sending specials to the bottom (R-2.2 redraw): law of the suit turned."""
    n = sum(counts) + n_special
    out: dict[int, F] = {}
    for s, c in enumerate(counts):
        if c:
            out[s] = out.get(s, F(0)) + F(c, n)
    if n_special:
        assert sum(counts) > 0  # validation: a suited card is always found
        for s, p in _first_suited(counts, n_special - 1).items():
            out[s] = out.get(s, F(0)) + F(n_special, n) * p
    return out


def _indicator_outcomes(rules, leftover_suits: list) -> dict:
    """Law of the trump suit (-1 = none) given the leftover cards (suit of each, -1 = special)."""
    counts = tuple(leftover_suits.count(s) for s in range(rules.suits))
    n_special = leftover_suits.count(-1)
    if rules.special_indicator_means == "redraw":
        return _first_suited(counts, n_special)
    n = len(leftover_suits)
    law = {s: F(c, n) for s, c in enumerate(counts) if c}
    if n_special:
        law[-1] = F(n_special, n)
    return law


@functools.lru_cache(maxsize=None)
def brute_force(rules) -> dict:
    """Every deal of the physical deck: both hands as combinations, then the indicator process.

    Returns per-seat laws of trump count, special counts (both / V / N), rank-1 and
    rank-9 counts, P(no trump), and P(trump = s | seat-0 hand's suit and special counts)."""
    cards = ref.Cards(rules)
    deck = cards.deck()  # physical cards (V and N faces repeat)
    d, h = len(deck), rules.hand_size
    suit = [cards.suit(f) for f in deck]
    weight = F(1, math.comb(d, h) * math.comb(d - h, h))
    laws = {key: Counter() for key in ("trumps0", "trumps1", "special0", "special1", "V0", "N0", "rank1_0",
                                       "rank9_1")}
    no_trump = F(0)
    by_hand = {}  # (suit counts, specials) of seat 0 -> Counter of trump suit
    everything = set(range(d))
    for a in itertools.combinations(range(d), h):
        rest_a = sorted(everything - set(a))
        a_suits = [suit[i] for i in a]
        key = (tuple(a_suits.count(s) for s in range(rules.suits)), a_suits.count(-1))
        cond = by_hand.setdefault(key, Counter())
        for b in itertools.combinations(rest_a, h):
            b_set = set(b)
            b_suits = [suit[i] for i in b]
            left = [suit[i] for i in rest_a if i not in b_set]
            for trump, p in _indicator_outcomes(rules, left).items():
                w = weight * p
                cond[trump] += w
                laws["trumps0"][a_suits.count(trump) if trump >= 0 else 0] += w
                laws["trumps1"][b_suits.count(trump) if trump >= 0 else 0] += w
                if trump < 0:
                    no_trump += w
            laws["special0"][a_suits.count(-1)] += weight
            laws["special1"][b_suits.count(-1)] += weight
            laws["V0"][sum(deck[i] == cards.V for i in a)] += weight
            laws["N0"][sum(deck[i] == cards.N for i in a)] += weight
            laws["rank1_0"][sum(cards.rank(deck[i]) == 1 for i in a)] += weight
            laws["rank9_1"][sum(cards.rank(deck[i]) == 9 for i in b)] += weight
    out = {k: {j: v[j] for j in range(h + 1)} for k, v in laws.items()}
    out["no_trump"] = no_trump
    out["given_hand"] = {key: {s: c[s] / sum(c.values()) for s in list(range(rules.suits)) + [-1]}
                         for key, c in by_hand.items()}
    return out


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(SMALL))
def test_brute_force_small_decks(name, mode):
    rules = _small(**SMALL[name], special_indicator_means=mode)
    bf = brute_force(rules)
    for law in bf.values():
        if isinstance(law, dict) and all(isinstance(k, int) for k in law):
            assert sum(law.values()) == 1
    assert odds.p_no_trump(rules) == bf["no_trump"]
    trumps = odds.trump_count_distribution(rules)
    assert trumps == bf["trumps0"] == bf["trumps1"]  # both seats, exactly
    assert odds.special_count_distribution(rules) == bf["special0"] == bf["special1"]
    assert odds.special_count_distribution(rules, "V") == bf["V0"]
    assert odds.special_count_distribution(rules, "N") == bf["N0"]
    assert odds.rank_count_distribution(rules, 1) == bf["rank1_0"]
    assert odds.rank_count_distribution(rules, 9) == bf["rank9_1"]
    for k in range(rules.hand_size + 2):
        assert odds.p_at_least_trumps(rules, k) == sum(p for j, p in bf["trumps0"].items() if j >= k)
    for (suit_counts, n_special), law in bf["given_hand"].items():
        assert odds.trump_given_hand(rules, suit_counts, n_special) == law, (suit_counts, n_special)


def test_brute_force_hand_values():
    # 1 suit of 9, one V, one N, hands of 2 (D = 11): a few numbers by hand
    nt = _small(**SMALL["1suit_h2"])
    rd = nt.replace(special_indicator_means="redraw")
    assert odds.p_no_trump(nt) == F(2, 11)
    assert odds.p_no_trump(rd) == 0
    # no_trump: 0 trumps = no-trump round, or a suited indicator and both hand cards special
    assert odds.trump_count_distribution(nt)[0] == F(2, 11) + F(9, 11) * F(1, math.comb(10, 2))
    # redraw: one suit, so every suited card in the hand is a trump
    assert odds.trump_count_distribution(rd) == odds.hypergeometric(11, 9, 2)


# ---------------------------------------------------------------------- composition enumeration


def _compositions(total: int, parts: int, cap: int):
    if parts == 0:
        if total == 0:
            yield ()
        return
    for a in range(min(total, cap) + 1):
        for rest in _compositions(total - a, parts - 1, cap):
            yield (a,) + rest


def composition_trump_law(rules) -> dict:
    """Multivariate hypergeometric over (a_0..a_{suits-1}, specials) of one hand, with the
    trump suit weighted by :func:`odds.trump_given_hand` (the brief's direct method)."""
    d, h, m, n_sp = rules.deck_size, rules.hand_size, rules.max_rank, odds.specials(rules)
    total = math.comb(d, h)
    law = {k: F(0) for k in range(h + 1)}
    for b in range(min(h, n_sp) + 1):
        for comp in _compositions(h - b, rules.suits, m):
            p = F(math.comb(n_sp, b) * math.prod(math.comb(m, a) for a in comp), total)
            given = odds.trump_given_hand(rules, comp, b)
            law[0] += p * given[-1]
            for s, a in enumerate(comp):
                law[a] += p * given[s]
    return law


def _trump_given_hand_direct(rules, comp, b):
    # written out from, independently of the module
    m = rules.max_rank
    if rules.special_indicator_means == "redraw":
        return {s: F(m - a, rules.suited_cards - sum(comp)) for s, a in enumerate(comp)} | {-1: F(0)}
    rest = rules.deck_size - rules.hand_size
    return {s: F(m - a, rest) for s, a in enumerate(comp)} | {-1: F(odds.specials(rules) - b, rest)}


CONFIGS = {
    "default": {},
    "3suits": dict(suits=3, hand_size=12),
    "max_rank15": dict(max_rank=15, hand_size=20),
    "no_specials": dict(valknut_count=0, hagalaz_count=0, hand_size=10),
    "many_specials": dict(valknut_count=12, hagalaz_count=5, hand_size=12),
    "1suit": dict(suits=1, max_rank=12, hand_size=5),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(CONFIGS))
def test_composition_enumeration_agrees(name, mode):
    rules = Rules(special_indicator_means=mode, **CONFIGS[name])
    law = odds.trump_count_distribution(rules)
    assert list(law) == list(range(rules.hand_size + 1))
    assert sum(law.values()) == 1
    assert all(isinstance(p, F) and p >= 0 for p in law.values())
    assert law == composition_trump_law(rules)
    # trump_given_hand against the rule written out, on every composition of a hand without specials
    n_sp = odds.specials(rules)
    for b in {0, min(rules.hand_size, n_sp)}:
        for comp in itertools.islice(_compositions(rules.hand_size - b, rules.suits, rules.max_rank), 50):
            given = odds.trump_given_hand(rules, comp, b)
            assert given == _trump_given_hand_direct(rules, comp, b)
            assert sum(given.values()) == 1
    for dist in [odds.special_count_distribution(rules, k) for k in odds.SPECIAL_KINDS] + \
            [odds.rank_count_distribution(rules, r) for r in (1, 3, 6, 9)]:
        assert list(dist) == list(range(rules.hand_size + 1)) and sum(dist.values()) == 1


# ---------------------------------------------------------------------- closed forms and API


def test_default_numbers():
    assert DEFAULT.deck_size == 42 and DEFAULT.special_indicator_means == "no_trump"
    assert odds.p_no_trump(DEFAULT) == F(6, 42) == F(1, 7)
    assert odds.p_special_indicator(REDRAW) == F(1, 7) and odds.p_no_trump(REDRAW) == 0
    # no_trump: E = (C / D) * h * (M - 1) / (D - 1)
    assert odds.mean_trumps(DEFAULT) == F(36, 42) * 15 * F(8, 41) == F(720, 287)
    assert odds.mean_trumps(REDRAW) == F(144, 49)
    assert odds.p_at_least_trumps(DEFAULT, 4) == F(923536, 3429937)
    assert odds.p_at_least_trumps(DEFAULT, 9) == 0 and odds.p_at_least_trumps(REDRAW, 9) == 0
    assert odds.p_at_least_trumps(DEFAULT, 0) == 1 == odds.p_at_least_trumps(DEFAULT, -3)
    assert odds.trump_count_distribution(DEFAULT)[0] > odds.p_no_trump(DEFAULT)
    spec = odds.special_count_distribution(DEFAULT)
    assert sum(k * p for k, p in spec.items()) == F(15 * 6, 42)
    assert spec[0] == F(math.comb(36, 15), math.comb(42, 15))
    assert odds.rank_count_distribution(DEFAULT, 1)[4] == F(math.comb(38, 11), math.comb(42, 15)) == F(1, 82)


def test_tail_is_tail_of_distribution():
    for rules in (DEFAULT, REDRAW):
        law = odds.trump_count_distribution(rules)
        for k in range(rules.hand_size + 1):
            assert odds.p_at_least_trumps(rules, k) == sum(law[j] for j in range(k, rules.hand_size + 1))


def test_hypergeometric():
    assert odds.hypergeometric(4, 2, 2) == {0: F(1, 6), 1: F(2, 3), 2: F(1, 6)}
    assert odds.hypergeometric(10, 0, 3) == {0: 1, 1: 0, 2: 0, 3: 0}
    assert sum(odds.hypergeometric(42, 9, 15).values()) == 1


def test_bad_arguments():
    with pytest.raises(ValueError, match="rank=10"):
        odds.rank_count_distribution(DEFAULT, 10)
    with pytest.raises(ValueError, match="rank=0"):
        odds.rank_count_distribution(DEFAULT, 0)
    assert sum(odds.rank_count_distribution(Rules(max_rank=15), 15).values()) == 1
    with pytest.raises(ValueError, match="kind"):
        odds.special_count_distribution(DEFAULT, "Valknut")
    with pytest.raises(ValueError, match="suit_counts"):
        odds.trump_given_hand(DEFAULT, [5, 5, 5])
    with pytest.raises(ValueError, match="hand_size"):
        odds.trump_given_hand(DEFAULT, [5, 5, 5, 5])


@pytest.mark.parametrize("rules", [DEFAULT, REDRAW, _small(**SMALL["1suit_h4"])], ids=["default", "redraw", "small"])
def test_summary_frame(rules, capsys):
    df = odds.summary(rules)
    assert list(df.columns) == ["quantity", "exact", "value"]  # the shape of Valhalla's summary
    assert df["quantity"].is_unique
    rows = dict(zip(df["quantity"], df["exact"]))
    for exact, value in zip(df["exact"], df["value"]):
        assert float(F(exact)) == pytest.approx(value, rel=1e-12, abs=1e-15)
    assert F(rows["P(no trump)"]) == odds.p_no_trump(rules)
    assert F(rows["mean trumps in a hand"]) == odds.mean_trumps(rules)
    law = odds.trump_count_distribution(rules)
    assert sum(F(rows[f"P(trumps in a hand = {k})"]) for k in law if law[k]) == 1
    if "P(trumps in a hand >= 4)" in rows:
        assert F(rows["P(trumps in a hand >= 4)"]) == odds.p_at_least_trumps(rules, 4)
    assert F(rows["P(at least one V or N card in a hand)"]) == 1 - odds.special_count_distribution(rules)[0]
    # printable by the CLI's table printer, and no per-outcome tables declared
    from toolkit import cli

    cli._print_table(df)
    assert "P(no trump)" in capsys.readouterr().out
    assert dict(toolkit.GAMES["herrlof"].extra_odds) == {}  # the CLI prints no per-outcome table before it


def test_docstring_examples():
    result = doctest.testmod(odds, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0


# ---------------------------------------------------------------------- the reference's deal


N_DEALS = 20_000
SEED = 20240601
Z = 4.5  # per-quantity bound in standard errors (fixed seed, so deterministic)


def _chi2_bound(df: int, z: float = Z) -> float:
    """Upper quantile of chi-square(df) at the normal tail ``z`` (Wilson-Hilferty)."""
    c = 2 / (9 * df)
    return df * (1 - c + z * math.sqrt(c)) ** 3


def _chi2(counts: Counter, law: dict, n: int) -> tuple[float, int]:
    """Pearson statistic with bins of expected count < 5 pooled into their neighbour; (stat, df)."""
    bins, cur_e, cur_o = [], 0.0, 0
    for k in sorted(law):
        cur_e += n * float(law[k])
        cur_o += counts.get(k, 0)
        if cur_e >= 5:
            bins.append((cur_o, cur_e))
            cur_e, cur_o = 0.0, 0
    if cur_e > 0 or cur_o:
        o, e = bins.pop()
        bins.append((o + cur_o, e + cur_e))
    return sum((o - e) ** 2 / e for o, e in bins), len(bins) - 1


def _assert_matches(counts: Counter, law: dict, n: int, what: str):
    assert set(counts) <= {k for k, p in law.items() if p > 0}, (what, counts)  # impossible values never seen
    for k, p in law.items():
        p = float(p)
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(counts.get(k, 0) - n * p) <= Z * sigma + 1e-9, (what, k, counts.get(k, 0), n * p, sigma)
    stat, df = _chi2(counts, law, n)
    assert stat <= _chi2_bound(df), (what, stat, df, _chi2_bound(df))
    mean = sum(k * float(p) for k, p in law.items())
    var = sum((k - mean) ** 2 * float(p) for k, p in law.items())
    got = sum(k * c for k, c in counts.items()) / n
    assert abs(got - mean) <= Z * math.sqrt(var / n), (what, got, mean)


@functools.lru_cache(maxsize=None)
def simulated(base: Rules) -> dict:
    """Tallies over N_DEALS reference deals of ``base`` in both indicator modes (same decks)."""
    cards = ref.Cards(base)
    out = {mode: {key: Counter() for key in ("trumps0", "trumps1", "special0", "V1", "N0", "rank1_0",
                                             "rank3_1", "rank6_0", "rank9_1", "no_trump")} for mode in MODES}
    rules = {mode: base.replace(special_indicator_means=mode) for mode in MODES}
    for g in range(N_DEALS):
        deck = ref.shuffled_deck(base, Stream(SEED, g, 0))
        for mode in MODES:
            st = ref.new_round_state(rules[mode], deck, dealer=g % 2)
            t = out[mode]
            t["no_trump"][st.trump == ref.NO_TRUMP] += 1
            for seat in (0, 1):
                n_trump = 0 if st.trump < 0 else sum(cards.suit(f) == st.trump for f in st.hands[seat])
                t[f"trumps{seat}"][n_trump] += 1
            h0, h1 = st.hands
            t["special0"][sum(f >= cards.suited for f in h0)] += 1
            t["V1"][h1.count(cards.V)] += 1
            t["N0"][h0.count(cards.N)] += 1
            t["rank1_0"][sum(cards.rank(f) == 1 for f in h0)] += 1
            t["rank3_1"][sum(cards.rank(f) == 3 for f in h1)] += 1
            t["rank6_0"][sum(cards.rank(f) == 6 for f in h0)] += 1
            t["rank9_1"][sum(cards.rank(f) == 9 for f in h1)] += 1
    return out


@pytest.mark.parametrize("mode", MODES)
def test_reference_deals_match_exact_odds(mode):
    rules = DEFAULT.replace(special_indicator_means=mode)
    t = simulated(DEFAULT)[mode]
    n = N_DEALS
    q = float(odds.p_no_trump(rules))
    if mode == "redraw":
        assert t["no_trump"][True] == 0  # exactly impossible
    else:
        assert abs(t["no_trump"][True] - n * q) <= Z * math.sqrt(n * q * (1 - q))
    law = odds.trump_count_distribution(rules)
    _assert_matches(t["trumps0"], law, n, "trumps seat 0")
    _assert_matches(t["trumps1"], law, n, "trumps seat 1")
    p4 = float(odds.p_at_least_trumps(rules, 4))
    got4 = sum(c for k, c in t["trumps0"].items() if k >= 4)
    assert abs(got4 - n * p4) <= Z * math.sqrt(n * p4 * (1 - p4))
    _assert_matches(t["special0"], odds.special_count_distribution(rules), n, "specials")
    _assert_matches(t["V1"], odds.special_count_distribution(rules, "V"), n, "V")
    _assert_matches(t["N0"], odds.special_count_distribution(rules, "N"), n, "N")
    for key in ("rank1_0", "rank3_1", "rank6_0", "rank9_1"):
        _assert_matches(t[key], odds.rank_count_distribution(rules, int(key[4])), n, key)


def _wrong_no_trump_models(rules):
    """Plausible mistakes in the no_trump derivation (each must be rejected by the check above)."""
    d, h, m = rules.deck_size, rules.hand_size, rules.max_rank
    q = odds.p_no_trump(rules)
    m_trumps = {k: (1 - q) * p for k, p in odds.hypergeometric(d, m, h).items()}  # forgot the indicator
    m_trumps[0] += q
    d_pool = {k: (1 - q) * p for k, p in odds.hypergeometric(d, m - 1, h).items()}  # pool D, not D - 1
    d_pool[0] += q
    return {"M trumps": m_trumps, "pool D": d_pool, "redraw law": odds.trump_count_distribution(
        rules.replace(special_indicator_means="redraw"))}


def test_simulation_check_has_power():
    # the same tallies reject the laws a plausible bug would give
    t = simulated(DEFAULT)["no_trump"]["trumps0"]
    for name, law in _wrong_no_trump_models(DEFAULT).items():
        assert sum(law.values()) == 1, name
        with pytest.raises(AssertionError):
            _assert_matches(t, law, N_DEALS, name)
    redraw = simulated(DEFAULT)["redraw"]["trumps0"]
    with pytest.raises(AssertionError):
        _assert_matches(redraw, odds.trump_count_distribution(DEFAULT), N_DEALS, "no_trump law on redraw deals")


def test_small_deck_reference_deals_redraw():
    # a small deck where the redraw happens often (3 specials among 17 leftovers)
    rules = _small(**SMALL["2suits_h2"], special_indicator_means="redraw")
    cards = ref.Cards(rules)
    n = 5_000
    tally = Counter()
    for g in range(n):
        st = ref.new_round_state(rules, ref.shuffled_deck(rules, Stream(SEED + 1, g, 0)), dealer=0)
        assert st.trump >= 0
        tally[sum(cards.suit(f) == st.trump for f in st.hands[1])] += 1
    _assert_matches(tally, odds.trump_count_distribution(rules), n, "small redraw")
