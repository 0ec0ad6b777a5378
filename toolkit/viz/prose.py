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
