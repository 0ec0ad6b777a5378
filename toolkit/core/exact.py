"""What the games' ``odds`` modules share: exact laws (integers and fractions only), the
``summary`` table every game returns, and the reading of an argument given by name or by index."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pandas as pd


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


def odds_table(rows) -> pd.DataFrame:
    """The table a game's ``odds.summary(rules)`` returns, one row per ``(quantity, exact value)``.

    Every game's exact odds reach ``toolkit odds GAME``, the report and the
    dashboard in this one shape: columns ``quantity`` (the text saying what
    is measured), ``exact`` (the value written as a fraction) and ``value``
    (the same as a float).  A game's ``simulated`` odds are keyed by the same
    ``quantity`` strings.

    Parameters
    ----------
    rows : iterable of (str, Fraction or int)
        The quantities in the order they are shown, each with its exact value.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> odds_table([("P(heads)", Fraction(1, 2)), ("expected heads in 3 tosses", Fraction(3, 2))])
                         quantity exact  value
    0                    P(heads)   1/2    0.5
    1  expected heads in 3 tosses   3/2    1.5
    """
    rows = list(rows)
    return pd.DataFrame({"quantity": [r[0] for r in rows], "exact": [str(r[1]) for r in rows],
                         "value": [float(r[1]) for r in rows]})


def index_of(name: str, key, names) -> int:
    """The index in ``names`` of an odds function's argument ``name``, given by name or by index.

    Raises
    ------
    ValueError
        Naming the argument, its value and what is allowed, if ``key`` is
        neither one of ``names`` nor an index into them.

    Examples
    --------
    >>> index_of("tribe", "huns", ("franks", "huns")), index_of("tribe", 1, ("franks", "huns"))
    (1, 1)
    """
    if isinstance(key, str):
        if key in names:
            return names.index(key)
    elif 0 <= int(key) < len(names):
        return int(key)
    raise ValueError(f"{name}={key!r} is not allowed: one of {', '.join(names)} or an index 0..{len(names) - 1}")
