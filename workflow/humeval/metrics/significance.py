"""Significance tests between two groups of judgement values (systems, experiments), with scipy."""

from __future__ import annotations

import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, render, value_frame


def mann_whitney_u(a, b, alternative: str = "two-sided") -> dict[str, float]:
    """Mann-Whitney U of ``a`` against ``b`` (scipy, asymptotic p with continuity correction as scipy
    chooses for ties): ``{statistic, p}``; ``alternative='greater'`` tests a > b."""
    from scipy import stats

    result = stats.mannwhitneyu(a, b, alternative=alternative)
    return {"statistic": float(result.statistic), "p": float(result.pvalue)}


def t_test(a, b, equal_var: bool = True, alternative: str = "two-sided") -> dict[str, float]:
    """Student (``equal_var``) or Welch t of ``a`` against ``b``: ``{statistic, df, p}``."""
    from scipy import stats

    result = stats.ttest_ind(a, b, equal_var=equal_var, alternative=alternative)
    return {"statistic": float(result.statistic), "df": float(result.df), "p": float(result.pvalue)}


TESTS = {
    "mann_whitney_u": lambda a, b, alternative="two-sided": mann_whitney_u(a, b, alternative),
    "student_t": lambda a, b, alternative="two-sided": t_test(a, b, True, alternative),
    "welch_t": lambda a, b, alternative="two-sided": t_test(a, b, False, alternative),
}


def significance_numbers(
    data: StudyData,
    *,
    table: str,
    compare: str,
    pairs: list[list[str]],
    tests: list[dict],
    row: str,
    by: list[str] = (),
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """For each group of ``by`` and each pair ``[a, b]`` of values of the ``compare`` column (e.g. systems),
    run every test on the two sets of values. A test: ``{test: mann_whitney_u | student_t | welch_t,
    alternative?: two-sided | greater | less, columns: {statistic: U, p: U_p, df?: df}}``: where each result
    goes. ``row``: a template over the ``by`` keys, ``{a}`` and ``{b}``."""
    rows = data.rows(frame, variant, where)
    out = []
    groups = rows.groupby(list(by), sort=False) if by else [((), rows)]
    for keys, part in groups:
        keys = dict(zip(by, keys if isinstance(keys, tuple) else (keys,)))
        for a, b in pairs:
            x = pd.to_numeric(part.loc[part[compare] == a, "value"]).to_numpy()
            y = pd.to_numeric(part.loc[part[compare] == b, "value"]).to_numpy()
            if x.size < 2 or y.size < 2:
                raise HumevalError(f"metric significance: {keys} {compare} {a!r} or {b!r} has fewer than 2 values")
            label = render(row, {**keys, "a": a, "b": b}, labels)
            for spec in tests:
                if spec["test"] not in TESTS:
                    raise HumevalError(f"metric significance: unknown test {spec['test']!r}; known: {sorted(TESTS)}")
                result = TESTS[spec["test"]](x, y, spec.get("alternative", "two-sided"))
                out += [(label, col, result[stat]) for stat, col in spec["columns"].items()]
    return value_frame(table, out)
