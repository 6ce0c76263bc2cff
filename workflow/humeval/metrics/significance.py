"""Significance tests between two groups of judgement values (systems, experiments), with scipy."""

from __future__ import annotations

import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, groups_of, render, value_frame
from humeval.vocabulary import register


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


def wilcoxon_signed_rank(a, b, alternative: str = "two-sided") -> dict[str, float]:
    """Wilcoxon signed-rank test of paired ``a`` and ``b`` (scipy): ``{statistic, p}``."""
    from scipy import stats

    result = stats.wilcoxon(a, b, alternative=alternative)
    return {"statistic": float(result.statistic), "p": float(result.pvalue)}


def chi_square(a, b, alternative: str = "two-sided") -> dict[str, float]:
    """Chi-square test of independence of the value distributions of ``a`` and ``b`` (scipy, on the 2 x k
    table of counts; categorical labels such as Likert points or choices): ``{statistic, df, p}``."""
    from scipy import stats

    values = sorted(set(a) | set(b))
    table = [[list(a).count(v) for v in values], [list(b).count(v) for v in values]]
    result = stats.chi2_contingency(table)
    return {"statistic": float(result.statistic), "df": float(result.dof), "p": float(result.pvalue)}


TESTS = {
    "mann_whitney_u": lambda a, b, alternative="two-sided": mann_whitney_u(a, b, alternative),
    "student_t": lambda a, b, alternative="two-sided": t_test(a, b, True, alternative),
    "welch_t": lambda a, b, alternative="two-sided": t_test(a, b, False, alternative),
    "wilcoxon": wilcoxon_signed_rank,
    "chi_square": chi_square,
}
PAIRED = {"wilcoxon"}
CORRECTIONS = ("bonf", "holm", "fdr_bh", "fdr_by", "sidak")


def corrected(p_values: list[float], method: str) -> list[float]:
    """p-values corrected for multiple comparisons (pingouin ``multicomp``: bonf, holm, fdr_bh, fdr_by, sidak).

    >>> [round(p, 3) for p in corrected([0.01, 0.04, 0.03], "holm")]
    [0.03, 0.06, 0.06]
    """
    import pingouin

    if method not in CORRECTIONS:
        raise HumevalError(f"unknown correction {method!r}; one of {CORRECTIONS}")
    return [float(p) for p in pingouin.multicomp(list(p_values), method=method)[1]]


@register("metric", "significance")
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
    pair_on: list[str] = ("item",),
) -> pd.DataFrame:
    """For each group of ``by`` and each pair ``[a, b]`` of values of the ``compare`` column (e.g. systems),
    run every test on the two sets of values. A test: ``{test: mann_whitney_u | student_t | welch_t |
    wilcoxon | chi_square, alternative?: two-sided | greater | less, columns: {statistic: U, p: U_p, df?: df},
    correction?: holm | bonf | fdr_bh | fdr_by | sidak, corrected_column?: p_holm}``: where each result goes;
    with ``correction`` the test's p-values over all groups and pairs of the entry are also corrected for
    multiple comparisons (pingouin) into ``corrected_column``. ``wilcoxon`` pairs the two sets on the
    ``pair_on`` columns (mean per unit). ``row``: a template over the ``by`` keys, ``{a}`` and ``{b}``."""
    rows = data.rows(frame, variant, where)
    out, p_cells = [], {}
    for keys, part in groups_of(rows, by):
        for a, b in pairs:
            x = pd.to_numeric(part.loc[part[compare] == a, "value"]).to_numpy()
            y = pd.to_numeric(part.loc[part[compare] == b, "value"]).to_numpy()
            if x.size < 2 or y.size < 2:
                raise HumevalError(f"metric significance: {keys} {compare} {a!r} or {b!r} has fewer than 2 values")
            label = render(row, {**keys, "a": a, "b": b}, labels)
            for k, spec in enumerate(tests):
                if spec["test"] not in TESTS:
                    raise HumevalError(f"metric significance: unknown test {spec['test']!r}; known: {sorted(TESTS)}")
                first, second = (x, y) if spec["test"] not in PAIRED else paired(part, compare, a, b, list(pair_on))
                result = TESTS[spec["test"]](first, second, spec.get("alternative", "two-sided"))
                out += [(label, col, result[stat]) for stat, col in spec["columns"].items()]
                p_cells.setdefault(k, []).append((label, result["p"]))
    for k, spec in enumerate(tests):
        if spec.get("correction"):
            labels_, ps = zip(*p_cells.get(k, []))
            out += list(zip(labels_, [spec["corrected_column"]] * len(ps), corrected(list(ps), spec["correction"])))
    return value_frame(table, out)


def paired(part: pd.DataFrame, compare: str, a: str, b: str, pair_on: list[str]):
    """The two sets' mean values per unit (``pair_on`` columns), on the units both have."""
    values = part.assign(value=pd.to_numeric(part["value"]))
    means = values[values[compare].isin([a, b])].groupby([compare, *pair_on])["value"].mean()
    joined = pd.concat([means.loc[a].rename("a"), means.loc[b].rename("b")], axis=1, join="inner")
    if len(joined) < 2:
        raise HumevalError(f"metric significance: {a!r} and {b!r} share fewer than 2 units on {pair_on}")
    return joined["a"].to_numpy(), joined["b"].to_numpy()
