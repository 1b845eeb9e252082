"""idiotsim.analysis.stats: every interval and test the reports and summaries print.

Checked against closed forms written another way, tabulated quantiles and, where
it is cheap, coverage by simulation.
"""
from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from idiotsim.analysis.stats import (ALPHA, Z95, ClusterSums, Interval, Moments, adjust_holm, clustered_mean,
                                     decimals_for, holm, holm_interval_alphas, mean_interval, median_of_counts,
                                     normal_interval, rate_interval, ratio_difference, ratio_interval, t95,
                                     two_sided_p, welch_difference)


def ratio_ci(y, n):
    x = ratio_interval(y, n)
    return x.mean, x.lo, x.hi


def ratio_difference_ci(y_a, n_a, y_b, n_b):
    x = ratio_difference(y_a, n_a, y_b, n_b)
    return x.mean, x.lo, x.hi

# Two-sided 95% t quantiles between the tabulated degrees of freedom (standard tables).
T_QUANTILES = {11: 2.201, 25: 2.060, 40: 2.021, 100: 1.984, 1000: 1.962}


def moments_of(values) -> Moments:
    m = Moments()
    m.add(np.asarray(values, dtype=np.int64))
    return m


def test_z95_is_the_normal_quantile():
    assert Z95 == pytest.approx(NormalDist().inv_cdf(0.975), abs=1e-15)


@pytest.mark.parametrize("df, quantile", sorted(T_QUANTILES.items()))
def test_t95_between_table_rows(df, quantile):
    assert t95(df) == pytest.approx(quantile, abs=0.002)


def test_t95_ends_and_order():
    assert t95(1) == 12.706 and t95(120) == 1.980
    assert math.isnan(t95(0))
    assert t95(10 ** 9) == pytest.approx(Z95, abs=1e-6)
    values = [t95(df) for df in range(1, 500)]
    assert all(a > b for a, b in zip(values, values[1:]))


def test_moments_are_exact_and_match_numpy():
    rng = np.random.default_rng(1)
    x = rng.integers(-12, 13, size=10_001)
    m = Moments()
    for part in np.array_split(x, 7):
        m.add(part)
    assert m.n == len(x) and m.s1 == int(x.sum()) and m.s2 == int((x * x).sum())
    assert m.mean() == pytest.approx(x.mean())
    assert m.var() == pytest.approx(x.var(ddof=1), rel=1e-12)
    assert math.isnan(Moments().mean()) and math.isnan(moments_of([3]).var())


def test_mean_interval_known_value():
    r = mean_interval(moments_of([1, 2, 3, 4]), 1)
    se = math.sqrt((5 / 3) / 4)
    assert (r.mean, r.se) == pytest.approx((2.5, se), rel=1e-12)
    assert (r.lo, r.hi, r.half) == pytest.approx((2.5 - 3.182 * se, 2.5 + 3.182 * se, 3.182 * se), rel=1e-12)
    assert r.p == pytest.approx(math.erfc(2.5 / se / math.sqrt(2)), rel=1e-12)


def test_mean_interval_scale():
    """Per-deal sums over `scale` games: the interval of the per-game mean."""
    m = moments_of([4, 8, 6, 10, 2, 7])
    plain, scaled = mean_interval(m, 1), mean_interval(m, 2)
    assert (scaled.mean, scaled.lo, scaled.hi) == pytest.approx((plain.mean / 2, plain.lo / 2, plain.hi / 2))
    assert scaled.p == pytest.approx(plain.p)


def test_mean_interval_degenerate_cases():
    zero = mean_interval(moments_of([0, 0, 0]), 3)
    assert (zero.mean, zero.lo, zero.hi, zero.p) == (0, 0, 0, 1.0)
    constant = mean_interval(moments_of([2, 2]), 1)
    assert constant.p == 0.0 and constant.half == 0
    one = mean_interval(moments_of([5]), 1)
    assert one.mean == 5 and math.isnan(one.lo) and math.isnan(one.p)
    assert not one.excludes_zero() and constant.excludes_zero() and not zero.excludes_zero()


def test_mean_interval_covers_the_mean_about_95_percent():
    rng = np.random.default_rng(3)
    runs = 2000
    covered = 0
    for _ in range(runs):
        r = mean_interval(moments_of(np.round(rng.normal(2.0, 10.0, size=30))), 1)
        covered += r.lo <= 2.0 <= r.hi
    # Binomial(2000, 0.95): 93.5%..96.5% holds with probability > 0.998; rounding the draws to integers
    # leaves the mean unbiased and adds a variance of 1/12, far below 10^2
    assert 0.935 <= covered / runs <= 0.965


def test_two_sided_p():
    assert two_sided_p(Z95, 1.0) == pytest.approx(0.05, abs=1e-12)
    assert two_sided_p(-1.0, 0.0) == 0.0 and two_sided_p(0.0, 0.0) == 1.0


def test_welch_difference():
    a, b = Interval(10.0, se=3.0), Interval(4.0, se=4.0)
    d = welch_difference(a, b)
    assert (d.mean, d.se, d.half) == pytest.approx((6.0, 5.0, Z95 * 5.0))
    assert d.p == pytest.approx(two_sided_p(6.0, 5.0))
    assert math.isnan(welch_difference(Interval(1.0, se=0.0), Interval(0.0, se=0.0)).p)


def test_ratio_ci_with_equal_clusters_is_the_t_interval_of_cluster_means():
    rng = np.random.default_rng(5)
    n = np.full(12, 40)
    y = rng.integers(40, 160, size=12)
    r, lo, hi = ratio_ci(y, n)
    means = y / n
    half = t95(11) * means.std(ddof=1) / math.sqrt(12)
    assert (r, lo, hi) == pytest.approx((means.mean(), means.mean() - half, means.mean() + half), rel=1e-12)


def test_ratio_ci_skips_empty_clusters_and_needs_two():
    r, lo, hi = ratio_ci(np.array([3, 0, 5]), np.array([4, 0, 6]))
    assert r == pytest.approx(8 / 10) and lo < r < hi
    r, lo, hi = ratio_ci(np.array([3, 0]), np.array([4, 0]))
    assert r == pytest.approx(0.75) and math.isnan(lo) and math.isnan(hi)
    assert all(math.isnan(x) for x in ratio_ci(np.array([0]), np.array([0])))


def test_ratio_difference_with_equal_clusters_is_the_paired_t_interval():
    rng = np.random.default_rng(6)
    n = np.full(9, 25)
    y_a, y_b = rng.integers(25, 100, size=9), rng.integers(25, 100, size=9)
    diff, lo, hi = ratio_difference_ci(y_a, n, y_b, n)
    d = (y_b - y_a) / 25
    half = t95(8) * d.std(ddof=1) / 3
    assert (diff, lo, hi) == pytest.approx((d.mean(), d.mean() - half, d.mean() + half), rel=1e-12)
    assert all(math.isnan(x) for x in ratio_difference_ci([1], [2], [1], [2])[1:])


def test_ratio_ci_covers_the_true_rate_about_95_percent():
    """Clusters of unequal size, success probability 0.3: the interval covers 0.3 about 95% of the time."""
    rng = np.random.default_rng(8)
    runs, covered = 2000, 0
    for _ in range(runs):
        n = rng.integers(5, 30, size=40)
        y = rng.binomial(n, 0.3)
        _, lo, hi = ratio_ci(y, n)
        covered += lo <= 0.3 <= hi
    assert 0.935 <= covered / runs <= 0.965


def test_a_share_of_one_signed_gain_in_another_covers_about_95_percent():
    """The chart page's shares (what a rule or a kind of decision is worth over the strong player's whole gain,
    ``chart_analysis.chart_share`` and ``split_shares``): per-deal sums of place differences, signed and
    correlated, their ratio's delta-method interval over deals covers the true share about 95% of the time."""
    rng = np.random.default_rng(12)
    runs, covered, deals = 1000, 0, 2000
    share = 0.3 / 1.1
    for _ in range(runs):
        gain = rng.normal(1.1, 3.0, deals)
        part = share * gain + rng.normal(0.0, 2.0, deals)  # correlated with the gain, as on the same deals
        x = ClusterSums.of(part, gain).ratio(0, 1)
        covered += x.lo <= share <= x.hi
    assert 0.935 <= covered / runs <= 0.965


def test_cluster_sums_accumulate_like_the_arrays():
    """Ratio intervals from sums added chunk by chunk equal those of the whole per-cluster arrays."""
    rng = np.random.default_rng(9)
    n = rng.integers(1, 9, size=300)
    y = rng.binomial(n, 0.4)
    sums = ClusterSums(2)
    for part in np.array_split(np.column_stack([y, n]), 7):
        sums.add(part)
    assert sums.ratio(0, 1) == ratio_interval(y, n)
    by_hand = ratio_ci(y, n)
    assert (sums.ratio(0, 1).mean, sums.ratio(0, 1).lo) == pytest.approx(by_hand[:2])


def test_ratio_difference_of_a_column_with_itself_is_exactly_zero():
    n = np.array([3, 4, 5, 6])
    y = np.array([1, 2, 2, 5])
    x = ratio_difference(y, n, y, n)
    assert x.mean == 0 and x.half == pytest.approx(0, abs=1e-12)


def test_holm_by_hand():
    # sorted 0.01, 0.02, 0.03, 0.5 with m = 4: 0.04, max(0.04, 0.06), max(0.06, 0.06), max(0.06, 0.5)
    assert holm([0.03, 0.5, 0.01, 0.02]) == pytest.approx([0.06, 0.5, 0.04, 0.06])
    assert holm([0.2, 0.9]) == pytest.approx([0.4, 0.9])
    adjusted = holm([float("nan"), 0.01])
    assert math.isnan(adjusted[0]) and adjusted[1] == pytest.approx(0.01)


def test_holm_controls_the_familywise_error_under_the_null():
    """16 true null hypotheses: Holm rejects any in about 5% of families at most, unadjusted in about 56%."""
    rng = np.random.default_rng(12)
    p = rng.uniform(size=(4000, 16))
    any_holm = np.mean([min(holm(list(row))) < 0.05 for row in p])
    any_plain = np.mean((p < 0.05).any(axis=1))
    assert any_holm <= 0.06 and any_plain > 0.5


def brute_force_holm(p_values, alpha=ALPHA):
    """Holm from its definition, by hypothesis: the adjusted p is the largest (m - j + 1) p_(j), capped
    at 1, over the hypotheses j sorted at or before it; it is rejected when every sorted p_(j) up to
    and including its own is below alpha / (m - j + 1)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted, rejected = [0.0] * m, [False] * m
    for rank, i in enumerate(order):
        adjusted[i] = max(min(1.0, (m - j) * p_values[order[j]]) for j in range(rank + 1))
        rejected[i] = all(p_values[order[j]] < alpha / (m - j) for j in range(rank + 1))
    return adjusted, rejected


def random_families(seed, count=300):
    """Families of 1..12 p-values: uniform, some near 0, some tied."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        m = int(rng.integers(1, 13))
        p = rng.uniform(size=m) ** rng.choice([1, 4, 12])
        if m > 2 and rng.uniform() < 0.3:
            p[1] = p[0]  # a tie
        yield [float(x) for x in p]


def test_holm_agrees_with_its_definition_on_random_families():
    for p in random_families(1):
        adjusted, rejected = brute_force_holm(p)
        assert holm(p) == pytest.approx(adjusted, rel=1e-12)
        assert [a < ALPHA for a in holm(p)] == rejected


def test_holm_adjusted_p_values_are_at_least_the_raw_ones_and_keep_their_order():
    for p in random_families(2):
        adjusted = holm(p)
        assert all(raw <= adj <= 1.0 for raw, adj in zip(p, adjusted))
        for i in range(len(p)):
            for j in range(len(p)):
                if p[i] <= p[j]:
                    assert adjusted[i] <= adjusted[j]


def test_holm_interval_levels_by_hand():
    # sorted 0.01 < 0.05/3 rejected, 0.03 >= 0.05/2 not: the third keeps the second step's alpha
    assert holm_interval_alphas([0.01, 0.04, 0.03]) == pytest.approx([0.05 / 3, 0.025, 0.025])
    assert holm_interval_alphas([0.001, 0.002]) == pytest.approx([0.025, 0.05])  # all rejected: up to alpha
    alphas = holm_interval_alphas([float("nan"), 0.01, 0.5])
    assert math.isnan(alphas[0]) and alphas[1:] == pytest.approx([0.025, 0.05])  # NaN: not one of the m


def test_the_first_rejected_hypothesis_gets_level_one_minus_alpha_over_m():
    for p in random_families(3):
        alphas = holm_interval_alphas(p)
        first = min(range(len(p)), key=lambda i: (p[i], i))
        assert 1 - alphas[first] == pytest.approx(1 - ALPHA / len(p))
        assert all(ALPHA / len(p) <= a <= ALPHA for a in alphas)
        steps = sorted(range(len(p)), key=lambda i: (p[i], i))
        assert all(alphas[a] <= alphas[b] for a, b in zip(steps, steps[1:]))  # levels step down, never up


def test_holm_intervals_exclude_zero_exactly_when_holm_rejects():
    """Normal estimates with their p-values: the interval at each hypothesis's Holm level excludes 0
    iff the Holm-adjusted p-value is below alpha."""
    rng = np.random.default_rng(4)
    for _ in range(300):
        m = int(rng.integers(1, 10))
        means, ses = rng.normal(0, 3, size=m), rng.uniform(0.5, 1.5, size=m)
        estimates = [(float(mu), float(se)) for mu, se in zip(means, ses)]
        p = [two_sided_p(mu, se) for mu, se in estimates]
        alphas, adjusted = holm_interval_alphas(p), holm(p)
        for (mu, se), a, adj in zip(estimates, alphas, adjusted):
            assert normal_interval(mu, se, a).excludes_zero() == (adj < ALPHA)


def test_normal_interval_at_95_is_the_usual_one():
    x = normal_interval(0.3, 0.1)
    assert (x.lo, x.hi, x.p) == pytest.approx((0.3 - Z95 * 0.1, 0.3 + Z95 * 0.1, two_sided_p(0.3, 0.1)))
    assert math.isnan(normal_interval(0.3, float("nan")).lo)


def previous_optimiser_holm(p_values, alpha=0.05):
    """The optimiser's own Holm (idiotsim/optimize/paired_arms.py before it moved here), verbatim."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted, levels = [0.0] * m, [0.0] * m
    running, stopped_at = 0.0, None
    for step, i in enumerate(order):
        running = max(running, min(1.0, (m - step) * p_values[i]))
        adjusted[i] = running
        if stopped_at is None and not p_values[i] < alpha / (m - step):
            stopped_at = step
        levels[i] = alpha / (m - (step if stopped_at is None else stopped_at))
    return adjusted, levels


def test_the_optimisers_holm_results_are_bit_identical_after_the_move():
    for p in random_families(5):
        adjusted, levels = previous_optimiser_holm(p)
        assert holm(p) == adjusted and holm_interval_alphas(p) == levels  # exact, not approx
    rng = np.random.default_rng(6)
    for mean, se, level in zip(rng.normal(size=200), rng.uniform(0.001, 1, 200), rng.uniform(0.001, 0.05, 200)):
        half = NormalDist().inv_cdf(1 - level / 2) * se  # the optimiser's formula before the move
        x = normal_interval(mean, se, level)
        assert (x.lo, x.hi) == (mean - half, mean + half)


def test_significance_follows_the_adjusted_p_value():
    x = Interval(0.1, 0.01, 0.19, 0.09, p=0.03)
    assert x.significant()
    family = adjust_holm([x, Interval(0.0, p=0.9), None])
    assert family[2] is None and family[0].p_holm == pytest.approx(0.06) and not family[0].significant()


def test_median_of_counts():
    assert median_of_counts(np.array([0, 1, 1, 1])) == 2  # values 1, 2, 3
    assert median_of_counts(np.array([0, 1, 0, 1])) == 2  # values 1, 3: mean of the middle two
    assert median_of_counts(np.array([2, 0, 0, 0, 0, 1])) == 0
    assert math.isnan(median_of_counts(np.zeros(3, dtype=np.int64)))


@pytest.mark.parametrize("lo, hi, least, decimals", [(0.0004, 0.005, 3, 4), (-0.03, -0.0004, 2, 4),
                                                      (-0.003, 0.005, 3, 3), (0.2, 0.3, 3, 3)])
def test_decimals_never_print_an_excluding_bound_as_zero(lo, hi, least, decimals):
    assert decimals_for(lo, hi, least) == decimals
    nearest = min(abs(lo), abs(hi))
    if lo > 0 or hi < 0:
        assert float(f"{nearest:.{decimals}f}") != 0


@pytest.mark.parametrize("lo, hi, least, text", [
    (-0.000378, 0.005248, 3, "-0.0004 to +0.0052"),  # twos_faceup_strong's gap, "+0.000 to +0.005" before
    (0.000291, 0.023959, 3, "+0.0003 to +0.0240"),
    (-0.0001, 0.0, 3, "-0.0001 to +0.0000"),  # an exact 0 may print as 0: it is
    (-0.03, 1e-12, 3, "-0.030 to +0.000"),  # rounding noise at 0 is 0
])
def test_no_bound_that_is_not_0_prints_as_0(lo, hi, least, text):
    d = decimals_for(lo, hi, least)
    assert f"{lo:+.{d}f} to {hi:+.{d}f}" == text


def test_an_interval_that_excludes_0_unsettled_by_holm_is_named():
    settled = Interval(0.1, 0.01, 0.19, p=0.001, p_holm=0.004)
    unsettled = Interval(0.1, 0.01, 0.19, p=0.03, p_holm=0.12)
    wide = Interval(0.1, -0.01, 0.21, p=0.07, p_holm=0.21)
    assert [x.unadjusted_only() for x in (settled, unsettled, wide)] == [False, True, False]


def test_a_rate_interval_stays_within_0_and_1():
    """3 events in 1,000 trials over 100 clusters: the linearised interval would reach below 0."""
    y = np.zeros(100, dtype=np.int64)
    y[:3] = 1
    n = np.full(100, 10)
    plain, rate = ratio_interval(y, n), rate_interval(y, n)
    assert plain.lo < 0 and rate.lo == 0 and rate.hi == plain.hi and rate.mean == plain.mean == 0.003


def test_a_clustered_mean_is_the_ratio_of_the_clusters_sums():
    deal = np.array([0, 0, 1, 2, 2, 2])
    diff = np.array([1, -1, 2, 0, 0, 3])
    x = clustered_mean(deal, diff)
    assert math.isclose(x.mean, 5 / 6)
    per_deal = ratio_interval(np.array([0, 2, 3]), np.array([2, 1, 3]))
    assert math.isclose(x.hi, per_deal.hi) and math.isclose(x.lo, per_deal.lo)
