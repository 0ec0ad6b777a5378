"""Intervals and comparisons for simulated outcomes.

Every rate comes with a Wilson score interval (good near 0 and 1, unlike the
normal approximation); every mean with its standard error.  Paired
comparisons use games played on common seeds, so each game of variant A has
a twin in variant B that saw the same chance stream.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

Z95 = 1.959963984540054


def bonferroni_z(m: int) -> float:
    """The z of ``m`` intervals that hold all together with 95% (each at 1 - 0.05/m, two-sided).

    Examples
    --------
    >>> round(bonferroni_z(1), 4), round(bonferroni_z(48), 3)
    (1.96, 3.279)
    """
    from statistics import NormalDist

    if m < 1:
        raise ValueError(f"m={m} is not allowed: the number of intervals is at least 1")
    return NormalDist().inv_cdf(1 - 0.025 / m)


def wilson(successes, n, z: float = Z95):
    """Rate and Wilson score interval ``(rate, low, high)``.

    Examples
    --------
    >>> r, lo, hi = wilson(55, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.452, 0.644)
    >>> wilson(0, 50)[1], wilson(50, 50)[2]
    (0.0, 1.0)
    """
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the bounds are exactly 0 and 1 at no and at all successes (not 1e-18 from rounding)
    low = np.where(successes == 0, 0.0, centre - half)
    high = np.where(successes == n, 1.0, centre + half)
    if p.ndim == 0:
        return float(p), float(low), float(high)
    return p, low, high


def mean_se(values) -> tuple[float, float]:
    """Mean and its standard error (``ddof=1``)."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return math.nan, math.nan
    se = x.std(ddof=1) / math.sqrt(x.size) if x.size > 1 else math.nan
    return float(x.mean()), float(se)


def mean_se_from_moments(n: int, total: float, total_sq: float) -> tuple[float, float]:
    """Mean and standard error from streaming sums (``keep="summary"``)."""
    if n == 0:
        return math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan
    var = max(total_sq - n * mean * mean, 0.0) / (n - 1)
    return mean, math.sqrt(var / n)


def win_rates(df: pd.DataFrame, seats: int | None = None) -> pd.DataFrame:
    """Win rate per seat with a Wilson 95% interval, from a per-game frame."""
    seats = seats if seats is not None else sum(1 for c in df.columns if c.startswith("win_"))
    n = len(df)
    rows = []
    for s in range(seats):
        wins = int(df[f"win_{s}"].sum())
        rate, lo, hi = wilson(wins, n)
        rows.append({"seat": s, "games": n, "wins": wins, "win_rate": rate, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def paired_difference(a, b, z: float = Z95) -> dict:
    """Compare two equal-length per-game series played on common seeds.

    Returns the mean of ``a - b`` with its standard error and 95% interval;
    for 0/1 outcomes also the discordant counts (``a`` only, ``b`` only)
    used by McNemar's test.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired series must have equal length, got {a.size} and {b.size}")
    d = a - b
    mean, se = mean_se(d)
    out = {"games": int(d.size), "mean_a": float(a.mean()), "mean_b": float(b.mean()),
           "difference": mean, "se": se, "ci_low": mean - z * se, "ci_high": mean + z * se}
    if set(np.unique(a)) <= {0.0, 1.0} and set(np.unique(b)) <= {0.0, 1.0}:
        out["a_only"] = int(((a == 1) & (b == 0)).sum())
        out["b_only"] = int(((a == 0) & (b == 1)).sum())
    unpaired_se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size) if a.size > 1 else math.nan
    out["se_unpaired"] = unpaired_se
    return out


def quantiles(values, qs=(0.05, 0.25, 0.5, 0.75, 0.95)) -> dict:
    x = np.asarray(values)
    return {f"q{round(q * 100):02d}": float(np.quantile(x, q)) for q in qs}


def quantiles_from_histogram(counts: np.ndarray, qs=(0.05, 0.25, 0.5, 0.75, 0.95)) -> dict:
    """Quantiles (lower, as ``np.quantile(method='inverted_cdf')``) of integer data given by counts."""
    cdf = np.cumsum(counts)
    total = cdf[-1] if cdf.size else 0
    out = {}
    for q in qs:
        # the first value whose cumulative count reaches q * total (at least one game, so q = 0 is the minimum)
        target = max(q * total, 1)
        out[f"q{round(q * 100):02d}"] = float(np.searchsorted(cdf, target, side="left")) if total else math.nan
    return out


# -- always-valid intervals (a confidence sequence: look after every batch, keep the error rate) -----------


def mixture_rho2(t_opt: float, alpha: float = 0.05) -> float:
    """The normal mixture's tuning ``rho²`` that makes :func:`always_valid_margin` narrowest near ``t_opt``
    observations (the closed-form approximation given with the boundary by Waudby-Smith et al. 2024).

    >>> round(mixture_rho2(1000) * 1000, 3)
    7.936
    """
    if not t_opt > 0 or not 0 < alpha < 1:
        raise ValueError(f"t_opt={t_opt!r}, alpha={alpha!r} are not allowed: t_opt > 0 and 0 < alpha < 1")
    log_term = 2 * math.log(1 / alpha)
    return (log_term + math.log(1 + log_term)) / t_opt


def always_valid_margin(n, sd, alpha: float = 0.05, t_opt: float = 10_000):
    """Half-width of the always-valid ``1 - alpha`` interval of a mean after ``n`` observations of
    standard deviation ``sd``: the interval ``mean ± margin`` holds at every ``n`` at once, so it can be
    read after every batch and a run stopped as soon as it settles, with the error rate kept.

    The two-sided normal-mixture boundary (Robbins 1970; Howard, Ramdas, McAuliffe and Sekhon, "Time-uniform,
    nonparametric, nonasymptotic confidence sequences", Ann. Statist. 49 (2021)), with the sample
    standard deviation in place of the known one: the asymptotic confidence sequence of Waudby-Smith, Arbour,
    Sinha, Kennedy and Ramdas, "Time-uniform central limit theory and asymptotic confidence sequences",
    Ann. Statist. (2024), arXiv:2103.06476::

        margin = sd * sqrt( 2 (n rho² + 1) / (n² rho²) * log( sqrt(n rho² + 1) / alpha ) )

    with ``rho²`` from :func:`mixture_rho2` (narrowest near ``t_opt``).  At ``t_opt`` it is about 1.55 times
    the fixed-sample 95% half-width (3.04 sd/sqrt(n) against 1.96): the price of looking as often as one likes.

    >>> m = always_valid_margin(1000, 1.0, t_opt=1000)
    >>> round(m * math.sqrt(1000), 2)
    3.04
    """
    rho2 = mixture_rho2(t_opt, alpha)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        margin = np.asarray(sd, dtype=float) * np.sqrt(
            2 * (n * rho2 + 1) / (n * n * rho2) * np.log(np.sqrt(n * rho2 + 1) / alpha))
    return float(margin) if margin.ndim == 0 else margin
