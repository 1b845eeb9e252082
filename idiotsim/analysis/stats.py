"""Every interval and test the project prints: one home for each formula and constant.

- ``Moments``: exact integer sums (count, sum, sum of squares) of a series.
- ``ClusterSums``: exact sums of several per-cluster columns and of all their
  products, enough for ratio estimates and their differences.
- ``mean_interval``: the mean of per-cluster sums with a t interval over clusters
  and a two-sided normal-approximation p-value against 0.
- ``ratio_interval`` and ``ratio_difference``: cluster-robust ratio estimates
  sum(y) / sum(n) (linearised standard error, t quantile over clusters); ``clustered_mean``: a mean of
  units whose clusters are given.
- ``welch_difference``: the difference of two independent means.
- ``holm``: Holm's step-down adjustment of a family of p-values; ``holm_interval_alphas``: the
  per-hypothesis levels of step-down Holm intervals; ``normal_interval``: a normal interval at any level.

Every rate the project prints is a ratio over clusters (deals or blocks of
deals), never a binomial interval over games: games that share a deal are not
independent.
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


def two_sided_p(mean: float, se: float) -> float:
    """Normal-approximation p-value of `mean` against 0; with se 0, 1 at 0 and 0 elsewhere."""
    if se == 0:
        return 1.0 if mean == 0 else 0.0
    if math.isnan(se):
        return NAN
    return math.erfc(abs(mean) / se / math.sqrt(2))


def _holm_order(p_values) -> list[tuple[float, int]]:
    """(p, index) of the tested hypotheses (NaN p-values are not tested), smallest p first, ties by index."""
    return sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))


def holm(p_values) -> list[float]:
    """Holm-adjusted p-values (same order); NaN p-values are not tested and stay NaN."""
    tested = _holm_order(p_values)
    adjusted = [NAN] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * p))
        adjusted[i] = running
    return adjusted


def holm_interval_alphas(p_values, alpha: float = ALPHA) -> list[float]:
    """The alpha of each hypothesis's step-down Holm interval (its confidence level is 1 - alpha_i),
    so that an interval excludes 0 exactly when Holm rejects: the i-th smallest of m tested p-values
    gets alpha / (m - i + 1) while every smaller one was rejected, and every hypothesis from the
    first non-rejection on keeps that step's alpha. NaN p-values are not tested: NaN."""
    tested = _holm_order(p_values)
    m = len(tested)
    alphas = [NAN] * len(p_values)
    stopped_at = None
    for step, (p, i) in enumerate(tested):
        if stopped_at is None and not p < alpha / (m - step):
            stopped_at = step
        alphas[i] = alpha / (m - (step if stopped_at is None else stopped_at))
    return alphas


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
    """An estimate with its 95% confidence interval, half-width, standard error, p-value against 0
    and, once a family is adjusted (``adjust_holm``), its Holm-adjusted p-value."""
    mean: float
    lo: float = NAN
    hi: float = NAN
    half: float = NAN
    p: float = NAN
    se: float = NAN
    p_holm: float = NAN

    def excludes_zero(self) -> bool:
        return not (math.isnan(self.lo) or math.isnan(self.hi)) and (self.lo > 0 or self.hi < 0)

    def as_rate(self) -> Interval:
        """The interval cut to [0, 1], the range of a rate (a linearised interval can cross it when events are rare)."""
        return replace(self, lo=max(self.lo, 0.0), hi=min(self.hi, 1.0))

    def significant(self) -> bool:
        """Settled sign: the Holm-adjusted p-value (the plain one before adjustment) is below ALPHA."""
        p = self.p if math.isnan(self.p_holm) else self.p_holm
        return not math.isnan(p) and p < ALPHA

    def unadjusted_only(self) -> bool:
        """Its 95% CI excludes 0, but its Holm-adjusted p-value does not settle its sign: a verdict beside this
        interval must say why it is not called (``UNADJUSTED_ONLY``)."""
        return self.excludes_zero() and not self.significant()


UNADJUSTED_ONLY = "the CI excludes 0 only before the Holm adjustment"


def adjust_holm(intervals: list) -> list:
    """The intervals with their Holm-adjusted p-values over the family they form (None entries kept)."""
    present = [x for x in intervals if x is not None]
    adjusted = iter(holm([x.p for x in present]))
    return [None if x is None else replace(x, p_holm=next(adjusted)) for x in intervals]


def normal_interval(mean: float, se: float, alpha: float = ALPHA) -> Interval:
    """mean +- z se with z the two-sided normal quantile at level 1 - alpha (a Holm level,
    ``holm_interval_alphas``), with its normal-approximation p-value against 0."""
    if math.isnan(se):
        return Interval(mean)
    half = NormalDist().inv_cdf(1 - alpha / 2) * se
    return Interval(mean, mean - half, mean + half, half, two_sided_p(mean, se), se)


def t_interval(mean: float, se: float, df: int) -> Interval:
    """mean +- t95(df) se, with its normal-approximation p-value against 0."""
    if df < 1 or math.isnan(se):
        return Interval(mean)
    half = t95(df) * se
    return Interval(mean, mean - half, mean + half, half, two_sided_p(mean, se), se)


def mean_interval(m: Moments, scale: float) -> Interval:
    """Mean of the per-cluster sums in `m`, divided by `scale`, with its 95% t interval over the m.n clusters."""
    mean = m.mean() / scale
    var = m.var()
    if m.n < 2 or math.isnan(var):
        return Interval(mean)
    return t_interval(mean, math.sqrt(max(var, 0.0) / m.n) / scale, m.n - 1)


class ClusterSums:
    """Exact sums of k per-cluster integer columns and of all their pairwise products.

    A ratio sum(y) / sum(n) over clusters, or a difference of two ratios on the same
    clusters, is linear in the columns once linearised: its variance is w' S w with S
    the matrix of sums of products, so no per-cluster data need be kept."""

    def __init__(self, k: int):
        self.clusters = 0
        self.sums = [0] * k
        self.products = [[0] * k for _ in range(k)]

    @classmethod
    def of(cls, *columns) -> ClusterSums:
        sums = cls(len(columns))
        sums.add(np.column_stack(columns))
        return sums

    def add(self, rows: np.ndarray) -> None:
        """rows: (clusters, k), one row per cluster (integers for exact sums; floats allowed)."""
        x = np.asarray(rows)
        if x.dtype.kind in "iub":
            x = x.astype(np.int64)
        self.clusters += x.shape[0]
        for i, s in enumerate(x.sum(axis=0).tolist()):
            self.sums[i] += s
        for i, row in enumerate((x.T @ x).tolist()):
            for j, v in enumerate(row):
                self.products[i][j] += v

    def _linear_se(self, weights: dict) -> float:
        """Standard error of the mean over clusters of sum_c weights[c] x_c, whose sum over clusters is 0."""
        d = self.clusters
        total = sum(wi * wj * self.products[i][j] for i, wi in weights.items() for j, wj in weights.items())
        return math.sqrt(max(total, 0.0) / (d * (d - 1)))

    def ratio(self, y: int, n: int) -> Interval:
        """sum(column y) / sum(column n), with its cluster-robust 95% interval."""
        if self.sums[n] == 0:
            return Interval(NAN)
        r = self.sums[y] / self.sums[n]
        if self.clusters < 2:
            return Interval(r)
        mean_n = self.sums[n] / self.clusters
        se = self._linear_se(_combine({y: 1 / mean_n}, {n: -r / mean_n}))
        return t_interval(r, se, self.clusters - 1)

    def ratio_difference(self, y_a: int, n_a: int, y_b: int, n_b: int) -> Interval:
        """ratio(y_b, n_b) - ratio(y_a, n_a) on the same clusters, with its cluster-robust 95% interval."""
        if self.sums[n_a] == 0 or self.sums[n_b] == 0:
            return Interval(NAN)
        r_a, r_b = self.sums[y_a] / self.sums[n_a], self.sums[y_b] / self.sums[n_b]
        if self.clusters < 2:
            return Interval(r_b - r_a)
        m_a, m_b = self.sums[n_a] / self.clusters, self.sums[n_b] / self.clusters
        weights = _combine({y_b: 1 / m_b}, {n_b: -r_b / m_b}, {y_a: -1 / m_a}, {n_a: r_a / m_a})
        return t_interval(r_b - r_a, self._linear_se(weights), self.clusters - 1)


def _combine(*parts: dict) -> dict:
    """Weights per column, adding those given twice (a column can be both numerator and denominator)."""
    out: dict = {}
    for part in parts:
        for c, w in part.items():
            out[c] = out.get(c, 0.0) + w
    return out


def ratio_interval(y, n) -> Interval:
    """Cluster-robust ratio estimate sum(y)/sum(n) over clusters (clusters with n = 0 hold nothing)."""
    y, n = np.asarray(y), np.asarray(n)
    keep = n > 0
    return ClusterSums.of(y[keep], n[keep]).ratio(0, 1)


def clustered_mean(clusters, values) -> Interval:
    """The mean of `values` (one a unit), with a 95% interval clustered by `clusters` (each unit's cluster id):
    ``ratio_interval`` of the clusters' sums over their sizes."""
    values = np.asarray(values)
    if len(values) < 2:
        return Interval(float(values.mean()) if len(values) else math.nan)
    _, index = np.unique(clusters, return_inverse=True)
    sums = np.bincount(index, weights=values).astype(np.int64)
    counts = np.bincount(index).astype(np.int64)
    return ratio_interval(sums, counts)


def rate_interval(y, n) -> Interval:
    """A rate (events per trial) over clusters: ``ratio_interval`` cut to [0, 1]."""
    return ratio_interval(y, n).as_rate()


def ratio_difference(y_a, n_a, y_b, n_b) -> Interval:
    """sum(y_b)/sum(n_b) - sum(y_a)/sum(n_a) over the same clusters, with a cluster-robust 95% interval."""
    return ClusterSums.of(*(np.asarray(v) for v in (y_a, n_a, y_b, n_b))).ratio_difference(0, 1, 2, 3)


def welch_difference(a: Interval, b: Interval) -> Interval:
    """a - b for independent estimates: normal 95% interval on the combined standard error."""
    diff = a.mean - b.mean
    se = math.hypot(a.se, b.se)
    return Interval(diff, diff - Z95 * se, diff + Z95 * se, Z95 * se, two_sided_p(diff, se) if se > 0 else NAN, se)


def median_of_counts(counts: np.ndarray) -> float:
    """Median of a distribution given as counts per value 0, 1, 2, ... (the mean of the two middle values)."""
    total = int(counts.sum())
    if total == 0:
        return NAN
    cumulative = np.cumsum(counts)
    low = int(np.searchsorted(cumulative, (total + 1) // 2))
    high = int(np.searchsorted(cumulative, total // 2 + 1))
    return (low + high) / 2


ZERO_BOUND = 1e-9  # a bound nearer 0 than this inside an interval that reaches 0 is 0 (rounding noise)


def decimals_for(lo: float, hi: float, least: int) -> int:
    """Decimals to print an interval: `least`, or more until no bound that is not 0 prints as 0 (+0.000 or
    -0.000): a bound that excludes 0 always counts, one inside an interval that reaches 0 from ZERO_BOUND on."""
    if math.isnan(lo) or math.isnan(hi):
        return least
    excludes = lo > 0 or hi < 0
    bounds = [abs(b) for b in (lo, hi) if excludes or abs(b) >= ZERO_BOUND]
    decimals = least
    while bounds and round(min(bounds), decimals) == 0 and decimals < 12:
        decimals += 1
    return decimals


def format_p(p: float) -> str:
    """A p-value as printed everywhere: 4 decimals, `<0.0001` below that, `n/a` when not tested."""
    if p is None or math.isnan(p):
        return "n/a"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def p_clause(name: str, p: float) -> str:
    """`Holm p = 0.0123` or `Holm p < 0.0001`."""
    text = format_p(p)
    return f"{name} p {text}" if text.startswith("<") else f"{name} p = {text}"
