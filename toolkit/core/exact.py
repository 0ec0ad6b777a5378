"""Exact probability helpers shared by the games' ``odds`` modules (integers and fractions only)."""

from __future__ import annotations

from fractions import Fraction
from math import comb


def hypergeometric(population: int, successes: int, draws: int) -> dict[int, Fraction]:
    """Exact hypergeometric law, keyed ``k = 0..draws`` (impossible ``k`` have probability 0).

    Parameters
    ----------
    population : int
        Cards in the deck.
    successes : int
        Cards of the counted kind in the deck.
    draws : int
        Cards drawn (without replacement); at most ``population``.

    Returns
    -------
    dict[int, Fraction]
        ``P(k of the counted kind among the drawn cards)``.

    Examples
    --------
    >>> hypergeometric(4, 2, 2)
    {0: Fraction(1, 6), 1: Fraction(2, 3), 2: Fraction(1, 6)}
    """
    if not 0 <= successes <= population:
        raise ValueError(f"successes={successes} is not allowed: it must be in 0..population={population}")
    if not 0 <= draws <= population:
        raise ValueError(f"draws={draws} is not allowed: it must be in 0..population={population}")
    total = comb(population, draws)
    return {k: Fraction(comb(successes, k) * comb(population - successes, draws - k), total)
            for k in range(draws + 1)}


def tail(dist: dict[int, Fraction], k: int) -> Fraction:
    """P(X >= k) of a law given as ``{value: probability}``."""
    return sum((p for j, p in dist.items() if j >= k), Fraction(0))


def mean(dist: dict[int, Fraction]) -> Fraction:
    """The exact mean of a law given as ``{value: probability}``."""
    return sum((k * p for k, p in dist.items()), Fraction(0))
