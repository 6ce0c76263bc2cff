"""Tukey's HSD pair by pair (humeval.metrics.significance.tukey_hsd_pairs) against scipy.stats.tukey_hsd itself:
every p-value and interval to the bit, equal and unequal group sizes, and the same refusals."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from humeval.metrics.significance import k_sample_tests, tukey_hsd_pairs


@pytest.mark.parametrize("sizes", [(6, 6, 6), (5, 9, 7, 12), (3, 4, 30, 8, 2)])
def test_every_pair_equals_scipys_tukey_hsd(sizes):
    rng = np.random.default_rng(sum(sizes))
    arrays = [rng.normal(loc=0.3 * g, size=n).round(1) for g, n in enumerate(sizes)]
    result = stats.tukey_hsd(*arrays)
    interval = result.confidence_interval(0.95)
    pairs = tukey_hsd_pairs(arrays)
    assert len(pairs) == len(sizes) * (len(sizes) - 1) // 2
    for i, j, p, radius in pairs:
        assert p == result.pvalue[i, j]
        difference = arrays[i].mean() - arrays[j].mean()
        assert difference - radius == pytest.approx(interval.low[i, j], rel=0, abs=1e-12)
        assert difference + radius == pytest.approx(interval.high[i, j], rel=0, abs=1e-12)


def test_the_printed_order_signs_the_difference_and_its_interval_as_statsmodels_prints_them():
    samples = {"a": np.array([1.0, 2, 3, 4]), "b": np.array([2.0, 4, 5, 6]), "c": np.array([6.0, 7, 9, 9])}
    mine = {(t, s): v for t, s, v in k_sample_tests(samples, ["tukey"], printed=True)}
    result = stats.tukey_hsd(*samples.values())
    interval = result.confidence_interval(0.95)
    assert mine[("a vs c", "diff")] == pytest.approx(samples["c"].mean() - samples["a"].mean())
    assert mine[("a vs c", "ci_low")] == pytest.approx(interval.low[2, 0], abs=1e-12)
    assert mine[("a vs c", "p")] == result.pvalue[0, 2]


@pytest.mark.parametrize("arrays", [[[1.0, 2.0]], [[1.0], [2.0, 3.0]], [[1.0, np.inf], [2.0, 3.0]]])
def test_what_scipy_refuses_is_refused(arrays):
    arrays = [np.asarray(a) for a in arrays]
    with pytest.raises(ValueError):
        stats.tukey_hsd(*arrays)
    with pytest.raises(ValueError):
        tukey_hsd_pairs(arrays)


def test_a_caller_that_reads_one_pair_gets_that_pair_alone_and_the_same_p():
    """A planning bootstrap reads one Tukey p (arvan's A2t): StudyData.wanted makes the metric integrate that pair
    only, with the value the full table has."""
    import pandas as pd
    from helpers import tidy_frame

    from humeval.metrics import StudyData
    from humeval.metrics.significance import k_sample_numbers

    rng = np.random.default_rng(7)
    systems = np.repeat(["A", "B", "C", "D"], 8)
    kept = tidy_frame(system=systems, value=rng.normal(size=32).round(1), participant="p", item=np.arange(32))
    empty = pd.DataFrame(columns=["judgement_id"])
    full = StudyData(kept=kept, tidy=kept, participants=empty, exclusions=empty)
    entry = {"table": "t", "tests": ["tukey"], "row": "{test}", "column": "{stat}"}
    everything = k_sample_numbers(full, **entry).set_index(["row", "column"])["value"]
    wanted = StudyData(
        kept=kept, tidy=kept, participants=empty, exclusions=empty, wanted=frozenset({("t", "B vs D", "p")})
    )
    one = k_sample_numbers(wanted, **entry).set_index(["row", "column"])["value"]
    assert set(one.index.get_level_values(0)) == {"B vs D"} and len(everything) == 24
    assert one[("B vs D", "p")] == everything[("B vs D", "p")]
    # no interval end is read, so none is searched for (the studentized range's quantile): NaN, not a number
    assert one[["B vs D"]].isna().to_dict() == {
        ("B vs D", "diff"): False,
        ("B vs D", "p"): False,
        ("B vs D", "ci_low"): True,
        ("B vs D", "ci_high"): True,
    }
    # a caller that reads an interval end gets it, and the same as the full table's
    reads_interval = StudyData(
        kept=kept, tidy=kept, participants=empty, exclusions=empty, wanted=frozenset({("t", "B vs D", "ci_high")})
    )
    interval = k_sample_numbers(reads_interval, **entry).set_index(["row", "column"])["value"]
    assert interval[("B vs D", "ci_low")] == everything[("B vs D", "ci_low")]


@pytest.mark.parametrize("margin", [0.3, 0.7, 1.5])
def test_tost_is_the_larger_of_two_shifted_one_sided_student_tests(margin):
    """Issue 51: equivalence within a margin as two one-sided tests (pingouin) equals scipy's Student t on the
    shifted sets, the larger p of H0 difference <= -margin and H0 difference >= margin."""
    from humeval.metrics.significance import tost

    rng = np.random.default_rng(7)
    a, b = rng.normal(3.2, 0.9, 15), rng.normal(3.0, 1.1, 11)
    lower = stats.ttest_ind(a + margin, b, alternative="greater").pvalue
    upper = stats.ttest_ind(a - margin, b, alternative="less").pvalue
    assert tost(a, b, margin)["p"] == pytest.approx(max(lower, upper), rel=1e-12)
    assert tost(a, b, margin)["df"] == 24


def test_a_no_difference_finding_holds_where_p_is_at_least_alpha_and_nowhere_on_nan():
    from humeval.qra.claims import claim_holds

    claim = {"comparisons": [{"left": 2, "op": ">", "right": 1}], "significance": {"p": 0.0, "alpha": 0.05}}
    no_difference = {**claim, "significance": {"p": 0.0, "alpha": 0.05, "expect": "not_significant"}}
    for p, significant in [(0.01, True), (0.05, False), (0.2, False), (float("nan"), False)]:
        assert claim_holds(claim, lambda o, p=p: p if isinstance(o, float) and o == 0.0 else float(o))[0] is significant
        held = claim_holds(no_difference, lambda o, p=p: p if isinstance(o, float) and o == 0.0 else float(o))[0]
        assert held is (not significant and not math.isnan(p))


@pytest.mark.parametrize("k", [2, 3, 4, 6])
@pytest.mark.parametrize("df", [5.0, 20.0, 76.0])
def test_tukeys_p_lies_between_its_bounds_and_a_bounded_p_decides_as_scipys_at_every_level(k, df):
    """tukey_p_bounds: L = 2 P(T_df > q / sqrt 2) <= scipy's P(Q_{k, df} > q) <= k(k - 1)/2 L at 40 q from 0.1 to
    8 (equal at k = 2, where Q = sqrt 2 |T|), and every draw it does not send to scipy is on the same side of
    0.01, 0.05 and 0.1 by L as by scipy's p: the decisions of planning's bootstrap unchanged."""
    from humeval.metrics.ratings_totals import tukey_p_bounds

    q = np.linspace(0.1, 8.0, 40)
    exact = np.array([stats.studentized_range.sf(x, k, df) for x in q])
    levels = frozenset({0.01, 0.05, 0.1})
    low, needed = tukey_p_bounds(q, np.full(q.size, k), np.full(q.size, df), np.ones(q.size, bool), levels)
    assert (low <= exact * (1 + 1e-7)).all(), (low - exact).max()
    assert (exact <= np.minimum(1.0, k * (k - 1) / 2 * low) * (1 + 1e-7)).all()
    if k == 2:
        assert low == pytest.approx(exact, rel=1e-7)
    decided = ~needed
    assert decided[q < 0.5].all() and decided.sum() >= 10, needed  # a quarter or more need no integral
    for alpha in levels:
        assert ((low[decided] < alpha) == (exact[decided] < alpha)).all(), alpha


def test_a_bounded_tukey_form_decides_as_the_exact_one_with_fewer_integrals(monkeypatch):
    """k_sample_totals with the p cell's alpha in ``StudyData.levels``: 200 draws of 4 systems' ratings at a shift
    that makes the pair's p land on both sides of 0.05; the bounded p decides as the exact one in every draw, and
    scipy's studentized range is evaluated for fewer of them (counted by wrapping scipy's)."""
    from humeval.metrics import StudyData, significance
    from humeval.metrics.ratings_totals import k_sample_totals

    rng = np.random.default_rng(4)
    rows = [{"item": f"q{i}", "system": s} for i in range(40) for s in "abcd"]
    pilot = pd.DataFrame(rows)
    pilot["value"] = rng.normal(size=len(pilot)) + (pilot["system"] == "d") * 0.3
    pilot = pilot.assign(participant="p", side="O", criterion="c", judgement_id=np.arange(len(pilot)).astype(str))
    cell = ("t", "a vs d", "p")
    counted = []
    real = significance.studentized_range_sf
    monkeypatch.setattr(significance, "studentized_range_sf", lambda *a: counted.append(a) or real(*a))
    draws = rng.multinomial(40, np.full(40, 1 / 40), size=200).astype(float)
    found = {}
    for levels in (None, {cell: frozenset({0.05})}):
        data = StudyData(
            pilot, pilot, pd.DataFrame(), pd.DataFrame(), config={}, wanted=frozenset({cell}), levels=levels
        )
        form = k_sample_totals(data, table="t", tests=["tukey"], order="printed")
        counted.clear()
        found[levels is None] = form.values(draws[:, np.argsort(form.items)])[cell], len(counted)
    (exact, all_calls), (bounded, some_calls) = found[True], found[False]
    assert all_calls == 200 and 0 < some_calls < 100, (all_calls, some_calls)
    assert 20 < (exact < 0.05).sum() < 180  # both sides
    assert ((bounded < 0.05) == (exact < 0.05)).all()


def test_a_critical_value_decides_many_draws_of_one_design_as_scipys_p_at_every_level():
    """tukey_critical_sides: where 30 or more undecided draws share (k, df) (puduppully's summaries drawn whole: k
    5, df 95), q against the critical values (scipy's quantiles) decides each on the same side of 0.01, 0.05 and
    0.1 as scipy's own p, and only a q within 1e-4 of a critical value is left to the integral."""
    from humeval.metrics.ratings_totals import tukey_critical_sides, tukey_p_bounds

    q = np.linspace(2.0, 6.0, 61)
    k, df = np.full(q.size, 5), np.full(q.size, 95.0)
    levels = frozenset({0.01, 0.05, 0.1})
    p, needed = tukey_p_bounds(q, k, df, np.ones(q.size, bool), levels)
    assert needed.sum() >= 30, needed.sum()
    still = tukey_critical_sides(q, k, df, needed, levels, p)
    assert not still.any()
    exact = np.array([stats.studentized_range.sf(x, 5, 95.0) for x in q])
    for alpha in levels:
        assert ((p < alpha) == (exact < alpha)).all(), alpha
    few = needed.copy()
    few[np.flatnonzero(needed)[29:]] = False  # 29 of them: not worth the quantiles, all left to the integral
    assert (tukey_critical_sides(q, k, df, few, levels, p.copy()) == few).all()
    critical = stats.studentized_range.ppf(0.95, 5, 95.0)
    near = np.array([critical * (1 + 5e-5)] * 30)
    assert tukey_critical_sides(near, k[:30], df[:30], np.ones(30, bool), levels, np.full(30, 0.01)).all()
