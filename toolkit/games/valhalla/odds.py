"""Exact Valhalla odds: the stick-throw table (spec §3) in exact fractions.

Everything here is enumeration over the 16 stick outcomes, with the stick
probability taken exactly (``0.5`` -> 1/2, ``0.3`` -> 3/10), so every number
is a :class:`fractions.Fraction`.

Examples
--------
>>> from toolkit.games.valhalla.rules import Rules
>>> p_natural_one(Rules())
Fraction(3, 16)
>>> expected_pips_per_turn(Rules.preset("alternative"))
Fraction(37, 11)
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from toolkit.core.exact import odds_table

STICKS = ("S", "T", "G", "H")  # Sowulo, Tiewaz, Gebo, Hagalaz; outcome bit i = stick i rune-up


def _exact(p) -> Fraction:
    return p if isinstance(p, Fraction) else Fraction(repr(float(p)))


def stick_value(sticks: tuple[int, int, int, int], throw_mode: str = "runes",
                zero_runes_value: int = 5, hagalaz_alone_value: int = 0) -> tuple[int, bool, bool]:
    """``(value, natural, natural_one)`` of one stick outcome (§3.2, §3.3)."""
    s, t, g, h = sticks
    up = s + t + g + h
    natural_one = up == 1 and h == 0
    if up == 0:
        return zero_runes_value, True, False
    if throw_mode == "simplified":
        return up, True, natural_one
    value = s + t + g + ((1 if g else -1) if h else 0)
    if value < 0:
        value = hagalaz_alone_value
    natural = not (h == 1 and g == 0)
    return value, natural, natural_one


def throw_class(value: int, natural_one: bool) -> str:
    """V-2: ``natural_one`` / ``unnatural_one`` for a 1, else the value."""
    if value == 1:
        return "natural_one" if natural_one else "unnatural_one"
    return str(value)


def outcomes(rules) -> list[dict]:
    """The 16 stick outcomes, with value, class and exact probability."""
    p = _exact(rules.stick_rune_up_probability)
    rows = []
    for k in range(16):
        sticks = tuple((k >> i) & 1 for i in range(4))
        value, natural, natural_one = stick_value(sticks, rules.throw_mode, rules.zero_runes_value,
                                                  rules.hagalaz_alone_value)
        prob = Fraction(1)
        for bit in sticks:
            prob *= p if bit else 1 - p
        rows.append({
            "runes_up": "".join(n for n, b in zip(STICKS, sticks) if b) or "none",
            "value": value, "natural": natural, "natural_one": natural_one,
            "class": throw_class(value, natural_one), "probability": prob,
        })
    return rows


def float_outcomes(rules) -> list[tuple[float, tuple[int, int, int, int], int, bool]]:
    """``(probability, sticks, value, natural_one)`` of outcomes k = 0..15 in float arithmetic.

    The probability is the product over sticks S, T, G, H in that order, as the
    reference's ``Sticks`` computes it, so the simulators' cumulative tables
    agree bit for bit (the exact values are :func:`outcomes`)."""
    p = float(rules.stick_rune_up_probability)
    rows = []
    for k in range(16):
        sticks = tuple((k >> i) & 1 for i in range(4))
        prob = 1.0
        for up in sticks:
            prob *= p if up else 1.0 - p
        value, _, natural_one = stick_value(sticks, rules.throw_mode, rules.zero_runes_value,
                                            rules.hagalaz_alone_value)
        rows.append((prob, sticks, value, natural_one))
    return rows


def throw_table(rules) -> pd.DataFrame:
    """The 16-row table of §3.4 for these rules (probability as Fraction and float)."""
    df = pd.DataFrame(outcomes(rules))
    df["p"] = df["probability"].astype(float)
    return df


def value_distribution(rules) -> dict[int, Fraction]:
    """P(value) for each throw value, ascending."""
    dist: dict[int, Fraction] = {}
    for row in outcomes(rules):
        dist[row["value"]] = dist.get(row["value"], Fraction(0)) + row["probability"]
    return dict(sorted(dist.items()))


def class_distribution(rules) -> dict[str, Fraction]:
    """P(class) for each throw class of V-2."""
    dist: dict[str, Fraction] = {}
    for row in outcomes(rules):
        dist[row["class"]] = dist.get(row["class"], Fraction(0)) + row["probability"]
    return dist


def p_natural_one(rules) -> Fraction:
    """Exact probability that one throw is a natural one (both modes)."""
    return sum((r["probability"] for r in outcomes(rules) if r["natural_one"]), Fraction(0))


def p_qualifies(rules) -> Fraction:
    """P(a throw's class is in ``extra_throw_values``), whether or not extra throws are on."""
    wanted = set(rules.extra_throw_values)
    return sum((r["probability"] for r in outcomes(rules) if r["class"] in wanted), Fraction(0))


def p_extra_throw(rules) -> Fraction:
    """P(a throw earns an extra throw): :func:`p_qualifies`, or 0 when extra throws are off."""
    return p_qualifies(rules) if rules.extra_throw_enabled else Fraction(0)


def mean_value(rules) -> Fraction:
    return sum((v * p for v, p in value_distribution(rules).items()), Fraction(0))


def throws_per_turn(rules, take_probability=Fraction(1)) -> Fraction:
    """Expected throws per turn when each qualifying extra throw is taken with
    ``take_probability`` (1: always; 1/2: the ``random`` policy), ignoring the game end."""
    q = p_extra_throw(rules) * _exact(take_probability)
    return 1 / (1 - q)


def expected_pips_per_turn(rules, take_probability=Fraction(1)) -> Fraction:
    """Expected sum of throw values in one turn (every qualifying extra throw
    taken by default), ignoring blocked moves and the game end."""
    return mean_value(rules) * throws_per_turn(rules, take_probability)


def p_seat0_starts(rules) -> Fraction:
    """P(seat 0 starts) under the start-player rule (V-3.2)."""
    if rules.start_player_rule == "seat0":
        return Fraction(1)
    if rules.start_player_rule == "random":
        return Fraction(1, 2)
    q = p_natural_one(rules)
    return q / (1 - (1 - q) ** 2)


def summary(rules) -> pd.DataFrame:
    """The headline exact numbers (``toolkit odds valhalla``), in the table of
    :func:`toolkit.core.exact.odds_table`."""
    rows = [
        ("P(natural one)", p_natural_one(rules)),
        ("P(throw's class is an extra-throw class)", p_qualifies(rules)),
        ("P(extra throw)" + ("" if rules.extra_throw_enabled else " (extra throws off)"), p_extra_throw(rules)),
        ("mean throw value", mean_value(rules)),
        ("throws per turn (every extra throw taken)", throws_per_turn(rules)),
        ("throws per turn (random policy)", throws_per_turn(rules, Fraction(1, 2))),
        ("expected pips per turn (every extra throw taken)", expected_pips_per_turn(rules)),
        ("P(seat 0 starts)", p_seat0_starts(rules)),
    ]
    return odds_table(rows)


def simulated(frame: pd.DataFrame, rules, policies) -> dict[str, float]:
    """The rows of :func:`summary` that a run's records also measure (the dashboard shows them side by side).

    - ``P(seat 0 starts)``: the share of games with ``start_seat`` 0;
    - ``P(natural one)``, under ``start_player_rule=first_natural_one``: the opening
      throws are independent throws that stop at the first natural one, so the
      share is games / (games + the throws before it, ``start_throws``);
    - ``throws per turn (random policy)``, when every seat plays ``random``:
      throws over turns, leaving out the automatic opening turn when there is
      one (V-3: the natural one that chose the start player, or the alternating
      blocks' fixed first move, which throws nothing).  The exact value ignores
      the game's end, which can cut a turn's extra throws short, so the two
      differ slightly when extra throws are on.
    """
    games = len(frame)
    if games == 0:
        return {}
    found = {"P(seat 0 starts)": float((frame["start_seat"] == 0).mean())}
    if rules.start_player_rule == "first_natural_one":
        found["P(natural one)"] = games / (games + float(frame["start_throws"].sum()))
    if all(p == "random" for p in policies):
        natural_start = rules.start_player_rule == "first_natural_one"
        opening = natural_start or rules.setup == "alternating_blocks"  # turn 1 is automatic
        throws = float(frame["throws_0"].sum() + frame["throws_1"].sum()) - games * natural_start
        found["throws per turn (random policy)"] = throws / (float(frame["turns"].sum()) - games * opening)
    return found
