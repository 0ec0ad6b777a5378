"""One rule for verdicts, written once (issue 50): how the toolkit turns intervals into the words of a sentence.

Every feature that says something of its numbers (the tournament's ratings, the ladder's trend, tuning,
before/after and play-until-settled, which decisions matter) reads its intervals through these:

- **a difference** is stated only when its interval excludes the reference (zero, a fair share, a target)
  after the correction for the comparisons made: :func:`shown`, with intervals at :func:`together`'s z
  (Bonferroni: ``m`` intervals held together at 95%);
- **"no difference", "meets the target", "could cut"** are equivalence claims: the whole interval lies
  within the reference ± a tolerance (:func:`within`), a declared default per metric, settable by the
  caller; an interval that merely holds the reference claims nothing;
- **otherwise** the sentence says how many more games would tell (:func:`games_to_tell`: an interval
  narrows as one over the root of the games).

A conjunction of claims ("every target met", "every metric moved") needs no correction: it holds only if
each does (an intersection-union test); a list of separate claims does (:func:`together`).

>>> shown(0.02, 0.05), shown(-0.01, 0.03), shown(0.20, 0.30, reference=0.25)
(1, 0, 0)
>>> within(-0.004, 0.006, 0.01), within(-0.004, 0.012, 0.01)
(True, False)
>>> games_to_tell(1_000, half=0.03, wanted=0.01)
9000
>>> round(together(4), 3), level(1), level(4)
(2.498, '95%', '95% for the 4 together')
"""

from __future__ import annotations

import math

from toolkit.core.stats import Z95, bonferroni_z

__all__ = ["Z95", "together", "level", "shown", "within", "games_to_tell", "MOVED", "WITHIN", "OPEN", "verdict"]

MOVED, WITHIN, OPEN = "moved", "within tolerance", "not settled"


def together(m: int) -> float:
    """The z of ``m`` two-sided intervals held together at 95% (Bonferroni; 1.96 for one)."""
    return bonferroni_z(max(int(m), 1))


def level(m: int) -> str:
    """How a sentence names the level of ``m`` intervals read together."""
    return "95%" if m <= 1 else f"95% for the {m} together"


def shown(low: float, high: float, reference: float = 0.0) -> int:
    """+1 when the interval lies above ``reference``, -1 below, 0 when it holds it (nothing is shown)."""
    if low > reference:
        return 1
    if high < reference:
        return -1
    return 0


def within(low: float, high: float, tolerance: float, reference: float = 0.0) -> bool:
    """Whether the whole interval lies within ``reference ± tolerance``: an equivalence shown (no difference
    larger than the tolerance, a target met), not a difference missed."""
    return bool(reference - tolerance <= low and high <= reference + tolerance)


def games_to_tell(games: int, half: float, wanted: float) -> int:
    """About how many games would narrow an interval of half-width ``half`` at ``games`` games to
    ``wanted`` (half-widths shrink as one over the root of the games)."""
    if not (half > 0 and wanted > 0):
        raise ValueError(f"half={half!r}, wanted={wanted!r} are not allowed: half-widths above 0")
    return int(math.ceil(games * (half / wanted) ** 2))


def verdict(low: float, high: float, tolerance: float, reference: float = 0.0) -> str:
    """A comparison's verdict: :data:`MOVED` (the interval excludes the reference), :data:`WITHIN` (it lies
    within ± the tolerance) or :data:`OPEN` (neither: more games would tell)."""
    if shown(low, high, reference):
        return MOVED
    return WITHIN if within(low, high, tolerance, reference) else OPEN
