import math

import numpy as np
import pandas as pd
import pytest

from humeval.cv_star import c4, cv_star
from humeval.qra import qra_values
from humeval.qra.correlation import correlation
from humeval.rounding import round_half_up


def test_c4_matches_closed_form_for_two_and_three():
    assert c4(2) == pytest.approx(math.sqrt(2 / math.pi))  # sqrt(2) * Gamma(1) / Gamma(1/2)
    assert c4(3) == pytest.approx(math.sqrt(math.pi) / 2)  # sqrt(1) * Gamma(3/2) / Gamma(1)


def test_cv_star_matches_hand_computed_two_values():
    # values 36 and 23: mean 29.5, s = 13 / sqrt(2) = 9.19239, c4(2) = 0.797885
    # CV* = (1 + 1/8) * (9.19239 / 0.797885) / 29.5 * 100 = 43.9358
    assert cv_star([36, 23]) == pytest.approx(43.9358, abs=1e-4)


def test_cv_star_uses_absolute_mean_and_shift():
    assert cv_star([-16, -8.67]) == pytest.approx(cv_star([16, 8.67]))
    # shifting 1..4 ranks by +1 changes the mean, hence CV*
    assert cv_star([1.93, 1.82], shift=1) < cv_star([1.93, 1.82])


def test_cv_star_of_rows_with_one_measurement_each_is_undefined_for_every_row():
    from humeval.cv_star import cv_star_rows

    assert np.isnan(cv_star_rows([[1.0], [2.0], [3.0]])).tolist() == [True, True, True]
    assert cv_star_rows(np.empty((2, 0))).shape == (2,)


def test_round_half_up_is_not_bankers_rounding():
    assert round_half_up(0.125, 2) == 0.13
    assert round(0.125, 2) == 0.12  # what the builtin would give
    assert round_half_up(-8.666666, 2) == -8.67


def test_correlation_exact_p_for_perfect_rank_order_of_four():
    # Spearman rho = 1 for n = 4: 1 of 24 pairings reaches rho = 1, 1 reaches rho = -1; scipy's two-sided
    # p is twice the smaller tail: 2 * 1/24.
    result = correlation([1, 2, 3, 4], [10, 20, 30, 40], "spearman")
    assert result["r"] == pytest.approx(1.0)
    assert result["p_exact"] == pytest.approx(2 / 24)


def test_qra_values_uses_published_and_rounded_recomputed_inputs():
    numbers = pd.DataFrame({"table": "t", "row": ["a", "b"], "column": "repro", "value": [23.0049, -8.6666]})
    published = pd.DataFrame({"table": "t", "row": ["a", "b"], "column": "orig", "value": [36.0, -16.0]})
    entries = [
        {
            "type": "cv_star",
            "table": "q",
            "measurand_table": "t",
            "rows": ["a", "b"],
            "inputs": [
                {"column": "orig", "source": "published"},
                {"column": "repro", "source": "recomputed", "round": 2},
            ],
        }
    ]
    out, summary = qra_values(numbers, published, entries)
    out = out.set_index("row")["value"]
    assert summary["inputs"].tolist() == ["36;23", "-16;-8.67"]
    assert out["a"] == pytest.approx(cv_star([36, 23.00]))
    assert out["b"] == pytest.approx(cv_star([-16, -8.67]))


def test_permutation_p_is_exact_up_to_the_limit_and_monte_carlo_above():
    x = np.arange(12, dtype=float)
    y = x + np.array([0.5, -0.5] * 6) * 3
    result = correlation(x, y, "spearman")  # 12! = 479,001,600 orderings are never enumerated
    assert result["p_method"].startswith("Monte Carlo (9999 re-pairings, seed 0")
    assert result["p_exact"] == correlation(x, y, "spearman")["p_exact"]  # seeded: the same p every run
    small = correlation(x[:5], y[:5], "pearson")
    assert small["p_method"] == "exact (120 re-pairings)"
    assert correlation(x[:5], y[:5], "pearson", exact_limit=4)["p_method"].startswith("Monte Carlo")


def test_exact_permutation_p_by_hand_for_four_points():
    # x = y = 1..4: only the identity and its reverse reach |rho| = 1, so p = 2 / 24
    assert correlation([1, 2, 3, 4], [1, 2, 3, 4], "spearman")["p_exact"] == pytest.approx(2 / 24)


def one_row_cv_star(**extra):
    """A cv_star entry over one measurand row: published 3.0 (orig) against recomputed 5.0 (repro)."""
    numbers = pd.DataFrame({"table": "t", "row": ["a"], "column": "repro", "value": [5.0]})
    published = pd.DataFrame({"table": "t", "row": ["a"], "column": "orig", "value": [3.0]})
    entry = {
        "type": "cv_star",
        "table": "q",
        "measurand_table": "t",
        "rows": ["a"],
        "inputs": [{"column": "orig", "source": "published"}, {"column": "repro", "source": "recomputed"}],
        **extra,
    }
    return qra_values(numbers, published, [entry])


def test_cv_star_entry_writes_the_interval_of_s_star_for_audit():
    out, _ = one_row_cv_star(ci_columns=["ci_low", "ci_high"])
    cells = out.set_index("column")["value"]
    # 3 and 5: s = sqrt(2), s* = sqrt(pi); SE = s^2 sqrt(2/1) / (2 s*) = sqrt(2/pi); t(0.975, 1) = 12.706205
    half = 12.706205 * math.sqrt(2 / math.pi)
    assert cells["ci_low"] == pytest.approx(math.sqrt(math.pi) - half, rel=1e-6)
    assert cells["ci_high"] == pytest.approx(math.sqrt(math.pi) + half, rel=1e-6)


def test_cv_star_of_a_single_measurand_row_is_computed():
    out, _ = one_row_cv_star()
    assert out.set_index("row").loc["a", "value"] == pytest.approx(cv_star([3.0, 5.0]))


def test_cv_star_pairwise_writes_each_systems_interval_of_s_star():
    """O 3 against R1 5 for system A, as in the cv_star case above: the same interval, at the {system} columns."""
    numbers = pd.DataFrame({"table": "t", "row": ["O", "R1"], "column": "A_mean", "value": [3.0, 5.0]})
    published = pd.DataFrame(columns=["table", "row", "column", "value"])
    entry = {
        "type": "cv_star_pairwise",
        "table": "q",
        "reference": "O",
        "experiments": ["R1"],
        "criteria": [
            {"name": "C", "systems": ["A"], "score": {"table": "t", "row": "{experiment}", "column": "{system}_mean"}}
        ],
        "ci_columns": ["{system} low", "{system} high"],
    }
    out, _ = qra_values(numbers, published, [entry])
    cells = out.set_index(["row", "column"])["value"]
    half = 12.706205 * math.sqrt(2 / math.pi)
    assert cells[("C|R1", "A low")] == pytest.approx(math.sqrt(math.pi) - half, rel=1e-6)
    assert cells[("C|R1", "A high")] == pytest.approx(math.sqrt(math.pi) + half, rel=1e-6)
    assert cells[("C|R1", "A")] == pytest.approx(cv_star([3.0, 5.0]))


@pytest.mark.parametrize(
    "entry,values_empty,basis",
    [
        (
            {"inputs": [{"column": "O", "source": "published"}, {"column": "R1", "source": "published"}]},
            False,
            "printed",
        ),
        ({"inputs": [{"column": "O", "source": "published"}, {"column": "R1"}]}, False, "judgements"),
        (
            {"x": {"column": "O", "source": "published"}, "y": {"column": "R1", "source": "recomputed"}},
            False,
            "judgements",
        ),
        ({"x": {"column": "O", "source": "published"}, "y": {"column": "R1", "source": "published"}}, False, "printed"),
        (
            {"claims": [{"comparisons": [{"left": {"table": "t", "row": "a", "column": "{side}"}}]}]},
            False,
            "judgements",
        ),
        ({"claims": [{"comparisons": [{"left": {"table": "t", "row": "a", "column": "{side}"}}]}]}, True, "printed"),
    ],
)
def test_a_qra_cell_rests_on_judgements_unless_every_input_is_printed(entry, values_empty, basis):
    """Issue 51: a QRA cell computed from published numbers alone says so (the audit's ``basis``); a claim's operand
    cells are not declared inputs, so a claim rests on judgements unless the study computed no metric value."""
    from humeval.intermediate import JUDGEMENTS, PRINTED
    from humeval.qra import entry_basis

    values = pd.DataFrame(columns=["table", "row", "column", "value"])
    if not values_empty:
        values.loc[0] = ["t", "a", "R1", 1.0]
    assert (
        entry_basis({"type": "cv_star", "table": "t", **entry}, values)
        == {"printed": PRINTED, "judgements": JUDGEMENTS}[basis]
    )


def permutation_p_by_enumeration(x, y, method):
    """The two-sided permutation p as scipy defines it (twice the smaller tail, at most 1), by enumerating every
    re-pairing with scipy's own pearsonr/spearmanr: independent of the vectorised statistic under test."""
    from itertools import permutations

    from scipy import stats

    statistic = stats.pearsonr if method == "pearson" else stats.spearmanr
    observed = statistic(x, y).statistic
    null = np.array([statistic(np.array(x)[list(p)], y).statistic for p in permutations(range(len(x)))])
    eps = 1e-12 * max(1.0, abs(observed))
    less, greater = np.mean(null <= observed + eps), np.mean(null >= observed - eps)
    return min(1.0, 2 * min(less, greater))


@pytest.mark.parametrize("method", ["pearson", "spearman"])
@pytest.mark.parametrize(
    "x, y",
    [
        ([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 1.0, 4.0, 3.0, 7.0]),
        ([0.3, 2.5, 1.0, 4.0, 4.1, 9.0], [1.0, 0.5, 2.0, 2.0, 6.0, 3.0]),  # a tie in y
        ([5.0, 1.0, 4.0, 2.0], [1.0, 3.0, 2.0, 4.0]),  # negative
    ],
)
def test_exact_permutation_p_equals_an_enumeration_of_every_re_pairing(x, y, method):
    from scipy import stats

    result = correlation(x, y, method)
    expected_r = (stats.pearsonr if method == "pearson" else stats.spearmanr)(x, y).statistic
    assert result["r"] == pytest.approx(expected_r, abs=1e-12)
    assert result["p_exact"] == pytest.approx(permutation_p_by_enumeration(x, y, method), abs=1e-12)
    assert result["n"] == len(x) and result["p_method"] == f"exact ({math.factorial(len(x))} re-pairings)"


def test_the_exact_limit_is_eight_points_and_bad_series_are_one_line():
    from humeval.errors import HumevalError

    x = np.array([1.0, 3, 2, 5, 4, 7, 6, 9, 8])
    assert correlation(x[:8], x[:8] ** 2, "pearson")["p_method"] == "exact (40320 re-pairings)"
    monte_carlo = correlation(x, x**2, "pearson")
    assert monte_carlo["p_method"] == "Monte Carlo (9999 re-pairings, seed 0; n = 9 > exact limit 8)"
    assert correlation([1, 2, 3], [3, 1, 2], "pearson")["n"] == 3
    for a, b in (([1, 2], [1, 2]), ([1, 2, 3], [1, 2, 3, 4])):
        with pytest.raises(HumevalError, match="two equally long series of at least 3 values"):
            correlation(a, b)
    with pytest.raises(HumevalError, match="unknown correlation method 'kendall'"):
        correlation([1, 2, 3], [1, 2, 3], "kendall")


def test_the_correlation_entry_writes_the_cells_it_is_told_and_seeds_its_monte_carlo_with_zero():
    from humeval.qra.correlation import correlation_entry

    rows = list("abcdefghi")
    o, r1 = [1.0, 3, 2, 5, 4, 7, 6, 9, 8], [2.0, 1, 3, 4, 6, 5, 8, 7, 9]
    values = pd.DataFrame({"table": "t", "row": rows * 2, "column": ["O"] * 9 + ["R1"] * 9, "value": o + r1})
    common = {"table": "q", "measurand_table": "t", "rows": rows, "x": {"column": "O"}, "y": {"column": "R1"}}
    cells, summary = correlation_entry(values, values.iloc[:0], **common, cells={"pearson.p_exact": ["Pearson", "p"]})
    expected = correlation(o, r1, "pearson", seed=0)
    assert cells == [("q", "Pearson", "p", expected["p_exact"])]
    assert [row[0] for row in summary] == ["pearson", "spearman"]
    default, _ = correlation_entry(values, values.iloc[:0], **common, methods=["spearman"])
    assert [(row, column) for _, row, column, _ in default] == [
        ("spearman", "r"),
        ("spearman", "p"),
        ("spearman", "p_exact"),
    ]
