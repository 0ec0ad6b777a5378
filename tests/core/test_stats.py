"""Tests for ``toolkit.core.stats`` against known values and independent formulas."""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np
import pandas as pd
import pytest

from toolkit.core import stats
from toolkit.core.stats import Z95, mean_se, mean_se_from_moments, paired_difference, quantiles_from_histogram, wilson


def wilson_by_quadratic(k: int, n: int, z: float = Z95):
    """Wilson's interval as the roots in p of (k/n - p)^2 = z^2 p (1 - p) / n.

    Expanded: (1 + z^2/n) p^2 - (2 k/n + z^2/n) p + (k/n)^2 = 0.  Written
    independently of the centre +- half-width form the toolkit uses, and
    solved in 50-digit decimals (the discriminant cancels badly in floats
    near p = 0 or 1)."""
    with localcontext() as ctx:
        ctx.prec = 50
        zd, nd = Decimal(z), Decimal(n)
        phat = Decimal(k) / nd
        a = 1 + zd * zd / nd
        b = -(2 * phat + zd * zd / nd)
        c = phat * phat
        disc = (b * b - 4 * a * c).sqrt()
        return float((-b - disc) / (2 * a)), float((-b + disc) / (2 * a))


# ---------------------------------------------------------------- Wilson


def test_z95():
    # Phi^-1(0.975)
    assert Z95 == pytest.approx(1.959963984540054, abs=1e-15)
    assert 0.5 * math.erfc(-Z95 / math.sqrt(2)) == pytest.approx(0.975, abs=1e-15)


def test_wilson_known_value():
    rate, lo, hi = wilson(55, 100)
    assert rate == 0.55
    assert (round(lo, 3), round(hi, 3)) == (0.452, 0.644)


@pytest.mark.parametrize("k,n", [(0, 10), (10, 10), (1, 10), (55, 100), (3, 7), (500, 1000), (1, 100_000),
                                 (99_999, 100_000), (0, 1), (1, 1)])
def test_wilson_matches_quadratic_roots(k, n):
    rate, lo, hi = wilson(k, n)
    qlo, qhi = wilson_by_quadratic(k, n)
    assert rate == k / n
    assert lo == pytest.approx(qlo, abs=1e-12)
    assert hi == pytest.approx(qhi, abs=1e-12)
    assert lo <= rate <= hi or math.isclose(lo, rate, abs_tol=1e-12) or math.isclose(hi, rate, abs_tol=1e-12)


def test_wilson_edges():
    z2 = Z95 * Z95
    _, lo, hi = wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-15)
    assert hi == pytest.approx(z2 / (10 + z2), rel=1e-12)  # 0.2775
    assert hi == pytest.approx(0.2775, abs=1e-4)
    _, lo, hi = wilson(10, 10)
    assert lo == pytest.approx(10 / (10 + z2), rel=1e-12)  # 0.7225
    assert hi == pytest.approx(1.0, abs=1e-15)
    # the interval stays inside [0, 1]
    for k, n in [(0, 10), (10, 10), (0, 1), (1, 1), (0, 10**6), (10**6, 10**6)]:
        _, lo, hi = wilson(k, n)
        assert -1e-12 <= lo <= hi <= 1 + 1e-12


def test_wilson_symmetry_and_shrinking():
    _, lo, hi = wilson(30, 100)
    _, lo2, hi2 = wilson(70, 100)
    assert lo == pytest.approx(1 - hi2, abs=1e-12) and hi == pytest.approx(1 - lo2, abs=1e-12)
    widths = [wilson(n // 2, n)[2] - wilson(n // 2, n)[1] for n in (10, 100, 1000, 10_000)]
    assert widths == sorted(widths, reverse=True)


def test_wilson_vectorised():
    k = np.array([0, 55, 10])
    n = np.array([10, 100, 10])
    rate, lo, hi = wilson(k, n)
    for i in range(3):
        r, l_, h = wilson(int(k[i]), int(n[i]))
        assert (rate[i], lo[i], hi[i]) == pytest.approx((r, l_, h), abs=1e-15)


def test_wilson_coverage_known_regime():
    """Exact coverage of the 95% Wilson interval for n = 100, p = 0.5 (binomial enumeration)."""
    n, p = 100, 0.5
    cover = 0.0
    for k in range(n + 1):
        _, lo, hi = wilson(k, n)
        if lo <= p <= hi:
            cover += math.comb(n, k) * p**k * (1 - p) ** (n - k)
    assert 0.93 < cover < 0.98


# ---------------------------------------------------------------- means


def test_mean_se_vs_numpy():
    x = np.random.default_rng(1).normal(3.0, 2.0, size=1_000)
    mean, se = mean_se(x)
    assert mean == pytest.approx(x.mean(), rel=1e-14)
    assert se == pytest.approx(x.std(ddof=1) / math.sqrt(x.size), rel=1e-12)


def test_mean_se_edge_cases():
    assert all(math.isnan(v) for v in mean_se([]))
    mean, se = mean_se([4.0])
    assert mean == 4.0 and math.isnan(se)
    assert mean_se([2, 2, 2]) == (2.0, 0.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mean_se_from_moments_vs_numpy(seed):
    x = np.random.default_rng(seed).integers(0, 500, size=5_000).astype(float)
    mean, se = mean_se_from_moments(x.size, x.sum(), (x * x).sum())
    assert mean == pytest.approx(x.mean(), rel=1e-13)
    assert se == pytest.approx(x.std(ddof=1) / math.sqrt(x.size), rel=1e-9)
    assert (mean, se) == pytest.approx(mean_se(x), rel=1e-9)


def test_mean_se_from_moments_edges():
    assert all(math.isnan(v) for v in mean_se_from_moments(0, 0.0, 0.0))
    mean, se = mean_se_from_moments(1, 5.0, 25.0)
    assert mean == 5.0 and math.isnan(se)
    # constant data: rounding must not give a negative variance
    x = np.full(1_000, 0.1)
    mean, se = mean_se_from_moments(x.size, x.sum(), (x * x).sum())
    assert mean == pytest.approx(0.1) and se >= 0.0 and se < 1e-6


# ---------------------------------------------------------------- paired comparisons


def test_paired_difference_correlated():
    gen = np.random.default_rng(7)
    common = gen.normal(size=4_000)  # the shared "luck" of common random numbers
    a = common + gen.normal(0.0, 0.3, size=4_000) + 0.1
    b = common + gen.normal(0.0, 0.3, size=4_000)
    out = paired_difference(a, b)
    d = a - b
    assert out["games"] == 4_000
    assert out["difference"] == pytest.approx(d.mean(), rel=1e-12)
    assert out["se"] == pytest.approx(d.std(ddof=1) / math.sqrt(d.size), rel=1e-12)
    assert out["ci_low"] == pytest.approx(out["difference"] - Z95 * out["se"])
    assert out["ci_high"] == pytest.approx(out["difference"] + Z95 * out["se"])
    assert out["se_unpaired"] == pytest.approx(math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size))
    assert out["se"] < out["se_unpaired"] / 2
    assert out["mean_a"] == pytest.approx(a.mean()) and out["mean_b"] == pytest.approx(b.mean())
    assert "a_only" not in out  # not 0/1 data


def test_paired_difference_binary_discordant_counts():
    a = np.array([1, 1, 0, 0, 1, 0, 1, 1])
    b = np.array([1, 0, 1, 0, 0, 0, 1, 0])
    out = paired_difference(a, b)
    assert out["a_only"] == 3  # positions 1, 4, 7
    assert out["b_only"] == 1  # position 2
    assert out["difference"] == pytest.approx((3 - 1) / 8)


def test_paired_difference_accepts_series():
    a = pd.Series([1, 0, 1, 1])
    b = pd.Series([0, 0, 1, 0])
    out = paired_difference(a, b)
    assert (out["a_only"], out["b_only"]) == (2, 0)


def test_paired_difference_length_mismatch():
    with pytest.raises(ValueError, match="equal length"):
        paired_difference([1, 0, 1], [1, 0])


# ---------------------------------------------------------------- quantiles


@pytest.mark.parametrize("seed", range(5))
def test_quantiles_from_histogram_vs_numpy(seed):
    gen = np.random.default_rng(seed)
    x = gen.poisson(gen.uniform(1, 80), size=gen.integers(1, 3_000))
    counts = np.bincount(x)
    qs = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 1.0)
    got = quantiles_from_histogram(counts, qs)
    for q in qs:
        key = f"q{round(q * 100):02d}"
        assert got[key] == np.quantile(x, q, method="inverted_cdf"), (q, key)


def test_quantiles_from_histogram_exact_boundaries():
    # data 0,0,1,1: the median under inverted_cdf is the lower middle value
    counts = np.array([2, 2])
    got = quantiles_from_histogram(counts, (0.5, 0.51))
    assert got["q50"] == 0.0 == np.quantile([0, 0, 1, 1], 0.5, method="inverted_cdf")
    assert got["q51"] == 1.0


def test_quantile_zero_is_the_minimum():
    """q = 0 is the smallest observed value, as ``np.quantile(..., 0, method="inverted_cdf")``.

    Data 3, 4, 4 (counts [0, 0, 0, 1, 2]): the minimum is 3, not the first
    (empty) bin 0 that a search for ``cdf >= 0`` finds."""
    counts = np.array([0, 0, 0, 1, 2])
    assert np.quantile([3, 4, 4], 0.0, method="inverted_cdf") == 3
    assert quantiles_from_histogram(counts, (0.0,))["q00"] == 3.0


def test_quantiles_from_histogram_empty():
    assert all(math.isnan(v) for v in quantiles_from_histogram(np.zeros(0, np.int64)).values())
    assert all(math.isnan(v) for v in quantiles_from_histogram(np.zeros(5, np.int64)).values())


def test_quantiles_default_keys():
    assert list(quantiles_from_histogram(np.array([1, 2, 3]))) == ["q05", "q25", "q50", "q75", "q95"]
    assert list(stats.quantiles([1, 2, 3])) == ["q05", "q25", "q50", "q75", "q95"]


def test_quantile_keys_name_the_requested_percentile():
    """The key of quantile q is its percentile: 0.29 -> "q29", 0.57 -> "q57".

    ``int(q * 100)`` truncates the float product (0.29 * 100 = 28.999...),
    which would label the 29th percentile "q28"."""
    qs = (0.29, 0.57, 0.58)
    assert list(quantiles_from_histogram(np.array([1, 2, 3]), qs)) == ["q29", "q57", "q58"]
    assert list(stats.quantiles([1, 2, 3], qs)) == ["q29", "q57", "q58"]


def test_win_rates_from_frame():
    df = pd.DataFrame({"win_0": [1, 0, 1, 1], "win_1": [0, 1, 0, 0]})
    table = stats.win_rates(df)
    assert table["wins"].tolist() == [3, 1]
    assert table["win_rate"].tolist() == [0.75, 0.25]
    _, lo, hi = wilson(3, 4)
    assert (table.loc[0, "ci_low"], table.loc[0, "ci_high"]) == pytest.approx((lo, hi))
