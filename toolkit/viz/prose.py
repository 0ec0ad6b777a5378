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


def _round(n: float) -> int:
    """``n`` to two significant figures (an estimate, not a count)."""
    digits = max(len(str(int(n))) - 2, 0)
    return int(round(n, -digits))


RESOLUTION = 0.01  # an edge known to within this of the fair share is "no edge larger than ..."


def edge(who: str, wins: int, games: int, comparisons: int = 1, of: str = "games", fair: float = 0.5,
         resolution: float = RESOLUTION) -> str:
    """Whether ``who``, winning ``wins`` of ``games``, wins more or less than the ``fair`` share, in words that
    claim only what its Wilson interval supports, corrected for the ``comparisons`` read at once (Bonferroni,
    docs/architecture.md decision 10); the sentence ends with the interval and the games.

    When the interval holds the fair share: "no edge larger than ..." if it is known to within
    ``resolution``, else "not enough games to tell" and about how many would tell (if the rate seen were the
    true one: the interval shrinks as one over the root of the games).

    >>> edge("the first player", 5_500, 10_000)
    'the first player **has an advantage**: it wins 55.0% of games (95% interval: 54.0% to 56.0%, 10,000 games)'
    >>> edge("the first dealer", 510, 1_000, of="the decided games")[:99]
    'not enough games to tell whether the first dealer has an edge: it wins 51.0% of the decided games ('
    >>> edge("seat 0", 510, 1_000).split("; ")[1]
    'about 9,600 games would tell if the rate seen is the true one'
    """
    from toolkit.analysis import verdicts
    from toolkit.core.stats import wilson

    rate, low, high = wilson(wins, games, z=verdicts.together(comparisons))
    joint = f", corrected for {comparisons} read at once" if comparisons > 1 else ""
    interval = f"(95% interval{joint}: {low:.1%} to {high:.1%}, {games:,} games)"
    side = verdicts.shown(low, high, fair)
    if side > 0:
        return f"{who} **has an advantage**: it wins {rate:.1%} of {of} {interval}"
    if side < 0:
        return f"{who} is **at a disadvantage**: it wins only {rate:.1%} of {of} {interval}"
    half = max(high - rate, rate - low)
    if half <= resolution:
        return (f"no edge larger than {max(fair - low, high - fair):.1%} either way for {who}: it wins "
                f"{rate:.1%} of {of} {interval}, and {fair:.0%} is inside")
    gap = abs(rate - fair)
    needed = ("; more games would tell only if the true rate is not the fair share" if gap < 1e-9 else
              f"; about {_round(verdicts.games_to_tell(games, half, gap)):,} games would tell if the rate seen is the "
              f"true one")
    return (f"not enough games to tell whether {who} has an edge: it wins {rate:.1%} of {of} {interval}, and "
            f"{fair:.0%} is inside{needed}")
