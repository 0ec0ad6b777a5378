"""Exact Valhalla throw odds (spec ``docs/rules/valhalla.md`` §3) and a Monte Carlo check
of the reference sticks against them."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import pytest

from toolkit.core.rng import Stream
from toolkit.games.valhalla import odds
from toolkit.games.valhalla.reference import Sticks, evaluate_sticks
from toolkit.games.valhalla.rules import Rules

STANDARD = Rules.preset("standard")
ALTERNATIVE = Rules.preset("alternative")
RUNES_EXTRA = Rules(extra_throw_enabled=True)  # runes mode with the default extra-throw classes

# §3.4, row by row: runes up -> (runes value, natural?, simplified value, natural one?)
SPEC_TABLE = {
    "none": (5, True, 5, False),
    "S": (1, True, 1, True),
    "T": (1, True, 1, True),
    "G": (1, True, 1, True),
    "H": (0, False, 1, False),
    "ST": (2, True, 2, False),
    "SG": (2, True, 2, False),
    "TG": (2, True, 2, False),
    "GH": (2, True, 2, False),
    "SH": (0, False, 2, False),
    "TH": (0, False, 2, False),
    "STG": (3, True, 3, False),
    "SGH": (3, True, 3, False),
    "TGH": (3, True, 3, False),
    "STH": (1, False, 3, False),
    "STGH": (4, True, 4, False),
}

# §3.4 value distributions
RUNES_VALUES = {0: F(3, 16), 1: F(4, 16), 2: F(4, 16), 3: F(3, 16), 4: F(1, 16), 5: F(1, 16)}
SIMPLIFIED_VALUES = {1: F(4, 16), 2: F(6, 16), 3: F(4, 16), 4: F(1, 16), 5: F(1, 16)}


def _sticks_of(runes_up: str) -> tuple[int, int, int, int]:
    return tuple(int(n in runes_up) for n in "STGH") if runes_up != "none" else (0, 0, 0, 0)


# ------------------------------------------------------------------ the §3.4 table


def test_runes_table_matches_spec_every_row():
    rows = {r["runes_up"]: r for r in odds.outcomes(STANDARD)}
    assert set(rows) == set(SPEC_TABLE)
    for runes_up, (value, natural, _, natural_one) in SPEC_TABLE.items():
        row = rows[runes_up]
        assert row["value"] == value, runes_up
        assert row["natural"] is natural, runes_up
        assert row["natural_one"] is natural_one, runes_up
        assert row["probability"] == F(1, 16), runes_up
        assert isinstance(row["probability"], F)
        assert row["class"] == odds.throw_class(value, natural_one)


def test_simplified_table_matches_spec_every_row():
    rows = {r["runes_up"]: r for r in odds.outcomes(ALTERNATIVE)}
    assert set(rows) == set(SPEC_TABLE)
    for runes_up, (_, _, value, natural_one) in SPEC_TABLE.items():
        row = rows[runes_up]
        assert row["value"] == value, runes_up
        assert row["natural_one"] is natural_one, runes_up
        assert row["probability"] == F(1, 16), runes_up
        assert isinstance(row["probability"], F)


def test_outcome_order_follows_stick_bits():
    # outcome k has stick i rune-up iff bit i of k is set (S, T, G, H = bits 0..3)
    names = [r["runes_up"] for r in odds.outcomes(STANDARD)]
    assert names[0] == "none" and names[1] == "S" and names[2] == "T" and names[4] == "G"
    assert names[8] == "H" and names[15] == "STGH"
    for k, name in enumerate(names):
        assert _sticks_of(name) == tuple((k >> i) & 1 for i in range(4))


@pytest.mark.parametrize("rules", [STANDARD, ALTERNATIVE], ids=["runes", "simplified"])
def test_throw_table_frame(rules):
    df = odds.throw_table(rules)
    assert len(df) == 16
    assert {"runes_up", "value", "natural", "natural_one", "class", "probability", "p"} <= set(df.columns)
    assert sum(df["probability"]) == 1
    assert df["p"].sum() == pytest.approx(1.0)
    assert list(df["p"]) == [1 / 16] * 16


def test_classes():
    assert odds.throw_class(1, True) == "natural_one"
    assert odds.throw_class(1, False) == "unnatural_one"
    assert odds.throw_class(0, False) == "0"
    assert odds.throw_class(5, True) == "5"
    assert odds.class_distribution(STANDARD) == {
        "5": F(1, 16), "natural_one": F(3, 16), "0": F(3, 16), "unnatural_one": F(1, 16),
        "2": F(4, 16), "3": F(3, 16), "4": F(1, 16)}
    assert odds.class_distribution(ALTERNATIVE) == {
        "5": F(1, 16), "natural_one": F(3, 16), "unnatural_one": F(1, 16),
        "2": F(6, 16), "3": F(4, 16), "4": F(1, 16)}


# ------------------------------------------------------------------ distributions


def test_value_distribution_runes():
    dist = odds.value_distribution(STANDARD)
    assert dist == RUNES_VALUES
    assert list(dist) == sorted(dist)
    assert all(isinstance(p, F) for p in dist.values())
    assert odds.mean_value(STANDARD) == F(30, 16)


def test_value_distribution_simplified():
    dist = odds.value_distribution(ALTERNATIVE)
    assert dist == SIMPLIFIED_VALUES
    assert dist.get(0, 0) == 0
    assert odds.mean_value(ALTERNATIVE) == F(37, 16)


@pytest.mark.parametrize("rules", [STANDARD, ALTERNATIVE, RUNES_EXTRA,
                                   Rules(throw_mode="simplified")], ids=["std", "alt", "runes+extra", "simpl"])
def test_p_natural_one_is_3_16(rules):
    assert odds.p_natural_one(rules) == F(3, 16)


@pytest.mark.parametrize("rules", [ALTERNATIVE, RUNES_EXTRA], ids=["simplified", "runes"])
def test_p_extra_is_5_16(rules):
    assert rules.extra_throw_enabled
    assert odds.p_extra_throw(rules) == F(5, 16)


def test_p_extra_zero_when_disabled():
    assert odds.p_extra_throw(STANDARD) == 0
    assert odds.throws_per_turn(STANDARD) == 1
    assert odds.expected_pips_per_turn(STANDARD) == F(30, 16)


def test_p_extra_other_classes():
    r = Rules.from_assignments(["safe_squares=1,2,3,4,5,29", "extra_throw_values=natural_one,4"],
                               preset="alternative")
    assert odds.p_extra_throw(r) == F(4, 16)
    both_ones = Rules(extra_throw_enabled=True, extra_throw_values=("natural_one", "unnatural_one"))
    assert odds.p_extra_throw(both_ones) == F(4, 16)
    zeros = Rules(extra_throw_enabled=True, extra_throw_values=("2",))
    assert odds.p_extra_throw(zeros) == F(4, 16)
    assert odds.p_extra_throw(zeros.replace(throw_mode="simplified")) == F(6, 16)
    assert odds.p_extra_throw(Rules(extra_throw_enabled=True, extra_throw_values=())) == 0


@pytest.mark.parametrize("rules", [ALTERNATIVE, RUNES_EXTRA], ids=["simplified", "runes"])
def test_throws_per_turn(rules):
    assert odds.throws_per_turn(rules) == F(16, 11)
    assert odds.throws_per_turn(rules, F(1, 2)) == F(32, 27)
    assert odds.throws_per_turn(rules, 0.5) == F(32, 27)  # float 1/2 taken exactly
    assert odds.throws_per_turn(rules, 0) == 1


def test_expected_pips_per_turn():
    assert odds.expected_pips_per_turn(ALTERNATIVE) == F(37, 16) * F(16, 11) == F(37, 11)
    assert odds.expected_pips_per_turn(RUNES_EXTRA) == F(30, 11)
    assert odds.expected_pips_per_turn(ALTERNATIVE, F(1, 2)) == F(37, 16) * F(32, 27) == F(74, 27)
    assert odds.expected_pips_per_turn(RUNES_EXTRA, F(1, 2)) == F(30, 16) * F(32, 27) == F(20, 9)


@pytest.mark.parametrize("rules", [STANDARD, ALTERNATIVE], ids=["runes", "simplified"])
def test_p_seat0_starts(rules):
    assert rules.start_player_rule == "first_natural_one"
    assert odds.p_seat0_starts(rules) == F(3, 16) / (1 - F(13, 16) ** 2) == F(16, 29)
    assert odds.p_seat0_starts(rules.replace(start_player_rule="seat0")) == 1
    assert odds.p_seat0_starts(rules.replace(start_player_rule="random")) == F(1, 2)


def test_hagalaz_alone_minus_one():
    r = Rules(hagalaz_alone_value=-1)
    dist = odds.value_distribution(r)
    assert dist[0] == F(2, 16)
    assert dist[-1] == F(1, 16)
    assert dist == {-1: F(1, 16), 0: F(2, 16), 1: F(4, 16), 2: F(4, 16), 3: F(3, 16), 4: F(1, 16),
                    5: F(1, 16)}
    assert list(dist)[0] == -1
    assert odds.mean_value(r) == F(29, 16)
    rows = {row["runes_up"]: row for row in odds.outcomes(r)}
    assert rows["H"]["value"] == -1 and rows["H"]["class"] == "-1" and not rows["H"]["natural"]
    assert rows["SH"]["value"] == 0 and rows["TH"]["value"] == 0
    assert odds.p_natural_one(r) == F(3, 16)
    # no effect in simplified mode
    assert odds.value_distribution(r.replace(throw_mode="simplified")) == SIMPLIFIED_VALUES


def test_zero_runes_value():
    r = Rules(zero_runes_value=6, extra_throw_enabled=True, extra_throw_values=("6",))
    assert odds.value_distribution(r)[6] == F(1, 16)
    assert 5 not in odds.value_distribution(r)
    assert odds.p_extra_throw(r) == F(1, 16)
    assert odds.mean_value(r) == F(31, 16)


# ------------------------------------------------------------------ a non-default stick probability


def _brute_force(p: F, mode: str, zero_value: int = 5, hagalaz_alone: int = 0):
    """Independent enumeration of §3.1-§3.3: {value: P}, P(natural one), {class: P}."""
    values: dict[int, F] = {}
    classes: dict[str, F] = {}
    natural_one = F(0)
    for s, t, g, h in itertools.product((0, 1), repeat=4):
        prob = F(1)
        for bit in (s, t, g, h):
            prob *= p if bit == 1 else (1 - p)
        count = s + t + g + h
        if count == 0:
            value = zero_value
        elif mode == "simplified":
            value = count
        else:
            value = s + t + g
            if h == 1:
                value = value + 1 if g == 1 else value - 1
            if value == -1:
                value = hagalaz_alone
        is_natural_one = count == 1 and h == 0
        values[value] = values.get(value, F(0)) + prob
        if is_natural_one:
            natural_one += prob
        klass = ("natural_one" if is_natural_one else "unnatural_one") if value == 1 else str(value)
        classes[klass] = classes.get(klass, F(0)) + prob
    return values, natural_one, classes


@pytest.mark.parametrize("p_text, p", [("0.3", F(3, 10)), ("0.5", F(1, 2)), ("0.85", F(17, 20))])
@pytest.mark.parametrize("mode", ["runes", "simplified"])
@pytest.mark.parametrize("hagalaz", [0, -1])
def test_non_default_probability_against_brute_force(p_text, p, mode, hagalaz):
    r = Rules.from_assignments([f"stick_rune_up_probability={p_text}", f"throw_mode={mode}",
                                f"hagalaz_alone_value={hagalaz}", "extra_throw_enabled=true"])
    values, natural_one, classes = _brute_force(p, mode, hagalaz_alone=hagalaz)
    assert odds.value_distribution(r) == values
    assert odds.p_natural_one(r) == natural_one == 3 * p * (1 - p) ** 3
    assert odds.class_distribution(r) == classes
    assert sum(odds.value_distribution(r).values()) == 1
    extra = classes.get("natural_one", 0) + classes.get("4", 0) + classes.get("5", 0)
    assert odds.p_extra_throw(r) == extra
    assert odds.throws_per_turn(r) == 1 / (1 - extra)
    mean = sum(v * q for v, q in values.items())
    assert odds.mean_value(r) == mean
    assert odds.expected_pips_per_turn(r) == mean / (1 - extra)
    assert odds.expected_pips_per_turn(r, F(1, 2)) == mean / (1 - extra / 2)
    assert odds.p_seat0_starts(r) == natural_one / (1 - (1 - natural_one) ** 2) == 1 / (2 - natural_one)


def test_probability_0_3_is_exact():
    r = Rules(stick_rune_up_probability=0.3)
    rows = odds.outcomes(r)
    assert rows[0]["probability"] == F(7, 10) ** 4 == F(2401, 10000)  # none
    assert rows[15]["probability"] == F(3, 10) ** 4  # all four
    assert rows[1]["probability"] == F(3, 10) * F(7, 10) ** 3  # S alone
    assert odds.p_natural_one(r) == F(3087, 10000)
    assert odds.value_distribution(r)[5] == F(2401, 10000)
    # runes: 0 = H, SH, TH
    assert odds.value_distribution(r)[0] == F(3, 10) * F(7, 10) ** 3 + 2 * F(3, 10) ** 2 * F(7, 10) ** 2


# ------------------------------------------------------------------ the reference agrees


@pytest.mark.parametrize("mode", ["runes", "simplified"])
@pytest.mark.parametrize("hagalaz", [0, -1])
@pytest.mark.parametrize("zero_value", [5, 1])
def test_reference_evaluate_sticks_agrees(mode, hagalaz, zero_value):
    r = Rules(throw_mode=mode, hagalaz_alone_value=hagalaz, zero_runes_value=zero_value)
    for k in range(16):
        sticks = tuple((k >> i) & 1 for i in range(4))
        throw = evaluate_sticks(r, sticks)
        value, _, natural_one = odds.stick_value(sticks, mode, zero_value, hagalaz)
        assert throw.value == value, (mode, sticks)
        assert throw.natural_one == natural_one, (mode, sticks)
        assert throw.klass == odds.throw_class(value, natural_one), (mode, sticks)


@pytest.mark.parametrize("rules", [STANDARD, ALTERNATIVE], ids=["runes", "simplified"])
def test_reference_matches_spec_table(rules):
    col = 0 if rules.throw_mode == "runes" else 2
    for runes_up, row in SPEC_TABLE.items():
        throw = evaluate_sticks(rules, _sticks_of(runes_up))
        assert throw.value == row[col], runes_up
        assert throw.natural_one == row[3], runes_up


def test_reference_cumulative_table_matches_exact():
    for rules in (STANDARD, ALTERNATIVE, Rules(stick_rune_up_probability=0.3)):
        sticks = Sticks(rules, Stream(seed=1, game=0, stream=0))
        exact = odds.outcomes(rules)
        cumulative = F(0)
        for (cum, throw), row in zip(sticks.outcomes, exact):
            cumulative += row["probability"]
            assert cum == pytest.approx(float(cumulative), abs=1e-12)
            assert throw.value == row["value"]


# ------------------------------------------------------------------ Monte Carlo


N_THROWS = 200_000


@pytest.mark.parametrize("rules", [STANDARD, ALTERNATIVE], ids=["runes", "simplified"])
def test_monte_carlo_value_frequencies(rules):
    sticks = Sticks(rules, Stream(seed=123, game=0, stream=0))
    counts: dict[int, int] = {}
    natural_ones = 0
    for _ in range(N_THROWS):
        throw = sticks.throw()
        counts[throw.value] = counts.get(throw.value, 0) + 1
        natural_ones += throw.natural_one
    exact = odds.value_distribution(rules)
    assert set(counts) <= set(exact)
    for value, p in exact.items():
        p = float(p)
        sigma = math.sqrt(N_THROWS * p * (1 - p))
        got = counts.get(value, 0)
        assert abs(got - N_THROWS * p) <= 4 * sigma, (value, got, N_THROWS * p, sigma)
    q = float(odds.p_natural_one(rules))
    assert abs(natural_ones - N_THROWS * q) <= 4 * math.sqrt(N_THROWS * q * (1 - q))
    if rules.throw_mode == "simplified":
        assert 0 not in counts  # probability exactly 0


def test_monte_carlo_is_deterministic():
    a = Sticks(STANDARD, Stream(seed=123, game=0, stream=0))
    b = Sticks(STANDARD, Stream(seed=123, game=0, stream=0))
    assert [a.throw() for _ in range(1000)] == [b.throw() for _ in range(1000)]
