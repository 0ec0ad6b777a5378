"""Sentences that notebooks and reports build from results (so that no hand-typed number goes stale).

Examples
--------
>>> pct(0.3614, 0.358, 0.3642)
'36.1% (35.8% to 36.4%)'
>>> pct(0.0004, digits=3)
'0.040%'
"""

from __future__ import annotations


def pct(rate, low=None, high=None, digits: int = 1) -> str:
    """``36.1%``, or ``36.1% (35.8% to 36.4%)`` with its interval."""
    text = f"{rate:.{digits}%}"
    return text if low is None else f"{text} ({low:.{digits}%} to {high:.{digits}%})"


def caution(k: int) -> str:
    """What reading ``k`` 95% intervals at once means (counted as if they were independent), in italics.

    >>> caution(14).split(":")[0]
    '*14 intervals are read at once'
    >>> "about 51% of runs" in caution(14)
    True
    """
    return (f"*{k} intervals are read at once: if none of these differences were real, at least one interval "
            f"would still exclude zero (or 50%) in about {1 - 0.95 ** k:.0%} of runs, so a lone interval that "
            "just clears it is weak evidence.*")


def edge(who: str, rate: float, low: float, high: float, of: str = "games", fair: float = 0.5) -> str:
    """Whether ``who`` wins more or less than the ``fair`` share, in words that say only what the 95% interval
    ``[low, high]`` supports.

    >>> edge("the first player", 0.55, 0.52, 0.58)
    'the first player **has an advantage**: it wins 55.0% of games'
    >>> edge("the first dealer", 0.51, 0.47, 0.55, of="the decided games")
    'no advantage can be seen: the first dealer wins 51.0%, and 50% is inside the interval'
    """
    if low > fair:
        return f"{who} **has an advantage**: it wins {rate:.1%} of {of}"
    if high < fair:
        return f"{who} is **at a disadvantage**: it wins only {rate:.1%} of {of}"
    return f"no advantage can be seen: {who} wins {rate:.1%}, and {fair:.0%} is inside the interval"
