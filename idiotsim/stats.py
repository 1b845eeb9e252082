"""Every interval and test the project prints: one home for each formula and constant.

- ``Moments``: exact integer sums (count, sum, sum of squares) of a series.
- ``mean_interval``: the mean of per-cluster sums with a t interval over clusters
  (or a normal interval at a given alpha, for sequential looks) and a two-sided
  normal-approximation p-value against 0.
- ``welch_difference``: the difference of two independent means.
- ``wilson``: the Wilson score interval of a proportion.
- ``ratio_ci`` and ``ratio_difference_ci``: cluster-robust ratio estimates
  sum(y) / sum(n) (linearised standard error, t quantile over clusters).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from statistics import NormalDist

import numpy as np

ALPHA = 0.05
Z95 = 1.959963984540054  # the two-sided 95% normal quantile
NAN = float("nan")

T95_TABLE = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
             10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000, 120: 1.980}


def t95(df: int) -> float:
    """Two-sided 95% t quantile (exact to 3 decimals from 1 to infinity degrees of freedom)."""
    if df <= 0:
        return NAN
    table = T95_TABLE
    if df in table:
        return table[df]
    keys = sorted(table)
    if df > keys[-1]:
        return Z95 + (table[120] - Z95) * 120 / df
    lo = max(k for k in keys if k < df)
    hi = min(k for k in keys if k > df)
    w = (1 / lo - 1 / df) / (1 / lo - 1 / hi)  # interpolate in 1/df
    return table[lo] + w * (table[hi] - table[lo])


def normal_quantile(alpha: float) -> float:
    """The two-sided (1 - alpha) normal quantile."""
    return NormalDist().inv_cdf(1 - alpha / 2)


def two_sided_p(mean: float, se: float) -> float:
    """Normal-approximation p-value of `mean` against 0; with se 0, 1 at 0 and 0 elsewhere."""
    if se == 0:
        return 1.0 if mean == 0 else 0.0
    return math.erfc(abs(mean) / se / math.sqrt(2))


class Moments:
    """Count, sum and sum of squares of an integer series (Python ints: exact, order-free)."""
    __slots__ = ("n", "s1", "s2")

    def __init__(self):
        self.n = self.s1 = self.s2 = 0

    def add(self, x: np.ndarray) -> None:
        x = np.asarray(x, dtype=np.int64)
        self.n += int(x.size)
        self.s1 += int(x.sum())
        self.s2 += int((x * x).sum())

    def mean(self) -> float:
        return self.s1 / self.n if self.n else NAN

    def var(self) -> float:
        """Sample variance, computed exactly as a fraction then rounded once."""
        if self.n < 2:
            return NAN
        return (self.n * self.s2 - self.s1 * self.s1) / (self.n * (self.n - 1))


@dataclass(frozen=True)
class Interval:
    """An estimate with its confidence interval, half-width, standard error and p-value against 0."""
    mean: float
    lo: float = NAN
    hi: float = NAN
    half: float = NAN
    p: float = NAN
    se: float = NAN

    def with_p(self, p: float) -> Interval:
        return replace(self, p=p)

    def excludes_zero(self) -> bool:
        return not (math.isnan(self.lo) or math.isnan(self.hi)) and (self.lo > 0 or self.hi < 0)


def mean_interval(m: Moments, scale: float, alpha: float | None = None) -> Interval:
    """Mean of the per-cluster sums in `m`, divided by `scale`, with its CI and p-value.

    `alpha` None: the 95% t interval over the m.n clusters; else a normal (1 - alpha)
    interval (a sequential look)."""
    mean = m.mean() / scale
    var = m.var()
    if m.n < 2 or math.isnan(var):
        return Interval(mean)
    se = math.sqrt(max(var, 0.0) / m.n) / scale
    q = t95(m.n - 1) if alpha is None else normal_quantile(alpha)
    half = q * se
    return Interval(mean, mean - half, mean + half, half, two_sided_p(mean, se), se)


def welch_difference(a: Interval, b: Interval, alpha: float | None = None) -> Interval:
    """a - b for independent estimates: normal interval on the combined standard error."""
    diff = a.mean - b.mean
    se = math.hypot(a.se, b.se)
    q = Z95 if alpha is None else normal_quantile(alpha)
    p = math.erfc(abs(diff) / se / math.sqrt(2)) if se > 0 else NAN
    return Interval(diff, diff - q * se, diff + q * se, q * se, p, se)


def wilson(successes, n) -> tuple[float, float]:
    """Wilson score 95% interval of successes / n."""
    if n == 0:
        return NAN, NAN
    p = successes / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return centre - half, centre + half


def ratio_ci(y: np.ndarray, n: np.ndarray) -> tuple[float, float, float]:
    """Cluster-robust ratio estimate sum(y)/sum(n) with its 95% interval (y, n per cluster)."""
    keep = n > 0
    y, n = y[keep].astype(float), n[keep].astype(float)
    if len(n) == 0:
        return NAN, NAN, NAN
    r = y.sum() / n.sum()
    d = len(n)
    if d < 2:
        return r, NAN, NAN
    var = ((y - r * n) ** 2).sum() / (d * (d - 1)) / (n.mean() ** 2)
    half = t95(d - 1) * math.sqrt(var)
    return r, r - half, r + half


def ratio_difference_ci(y_a, n_a, y_b, n_b) -> tuple[float, float, float]:
    """sum(y_b)/sum(n_b) - sum(y_a)/sum(n_a) over the same clusters, with a cluster-robust 95% interval."""
    y_a, n_a, y_b, n_b = (np.asarray(v, dtype=float) for v in (y_a, n_a, y_b, n_b))
    r_a, r_b = y_a.sum() / n_a.sum(), y_b.sum() / n_b.sum()
    diff = r_b - r_a
    d = len(n_a)
    if d < 2:
        return diff, NAN, NAN
    u = (y_b - r_b * n_b) / n_b.mean() - (y_a - r_a * n_a) / n_a.mean()  # linearised per-cluster residuals
    half = t95(d - 1) * math.sqrt((u ** 2).sum() / (d * (d - 1)))
    return diff, diff - half, diff + half
