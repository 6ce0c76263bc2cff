"""Significance tests with scipy: between two groups of judgement values (systems, experiments), and across k
groups (ANOVA, Kruskal-Wallis, Levene, Tukey's HSD)."""

from __future__ import annotations

import functools
from typing import Literal, get_args

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import Column, Columns, Frame, StudyData, groups_of, render, value_frame
from humeval.stat_names import TEST_STATS

__all__ = [
    "TEST_STATS",
    "k_sample_numbers",
    "k_sample_tests",
    "mann_whitney_u",
    "significance_numbers",
    "studentized_range_quantile",
    "studentized_range_sf",
    "tost",
    "tukey_hsd_pairs",
    "wanted_pairs",
]


def mann_whitney_u(a, b, alternative: str = "two-sided") -> dict[str, float]:
    """Mann-Whitney U of ``a`` against ``b`` (scipy, asymptotic p with continuity correction as scipy
    chooses for ties): ``{statistic, p, rank_biserial, r}``; ``alternative='greater'`` tests a > b.

    Notes
    -----
    The rank-biserial correlation r_rb = 2 U / (n_a n_b) - 1 (Kerby 2014, *Comprehensive Psychology* 3: the share
    of pairs a wins minus the share it loses; U is a's statistic), positive when a tends to be larger. The effect
    size ``r`` = |Z| / sqrt(n_a + n_b) as R's ``rstatix::wilcox_effsize`` prints it (Rosenthal 1991), Z the
    standardised statistic of the two-sided normal approximation with the tie correction and no continuity
    correction (``coin::wilcox_test``), here from scipy's ``mannwhitneyu(method="asymptotic",
    use_continuity=False)`` p: |Z| = Phi^-1(1 - p/2). Equals rstatix to 1e-13 on the toy study's ratings
    (``tests/test_e2e_r_crosscheck.py``).

    >>> round(mann_whitney_u([3, 4, 5], [1, 2, 4])["rank_biserial"], 4)  # U = 7.5 of 9 pairs (a tie counts half)
    0.6667
    >>> a, b = [4, 4, 5, 5, 4, 4, 3, 4, 4, 4, 5, 5], [2, 3, 2, 3, 3, 2, 2, 2, 1, 1, 2, 2]
    >>> round(mann_whitney_u(a, b)["r"], 4)  # rstatix::wilcox_effsize: 0.856
    0.856
    """
    from scipy import stats
    from scipy.special import ndtri

    result = stats.mannwhitneyu(a, b, alternative=alternative)
    r = 2 * float(result.statistic) / (len(a) * len(b)) - 1
    normal = stats.mannwhitneyu(a, b, method="asymptotic", use_continuity=False)
    effect = abs(float(ndtri(1 - float(normal.pvalue) / 2))) / float(np.sqrt(len(a) + len(b)))
    return {"statistic": float(result.statistic), "p": float(result.pvalue), "rank_biserial": r, "r": effect}


def t_test(a, b, equal_var: bool = True, alternative: str = "two-sided") -> dict[str, float]:
    """Student (``equal_var``) or Welch t of ``a`` against ``b``: ``{statistic, df, p, ci_low, ci_high}``, the last
    two the 95% confidence interval of mean(a) - mean(b) for the ``alternative`` (scipy's
    ``confidence_interval``; one-sided intervals run to infinity)."""
    from scipy import stats

    result = stats.ttest_ind(a, b, equal_var=equal_var, alternative=alternative)
    interval = result.confidence_interval(0.95)
    return {
        "statistic": float(result.statistic),
        "df": float(result.df),
        "p": float(result.pvalue),
        "ci_low": float(interval.low),
        "ci_high": float(interval.high),
    }


def wilcoxon_signed_rank(a, b, alternative: str = "two-sided") -> dict[str, float]:
    """Wilcoxon signed-rank test of paired ``a`` and ``b`` (scipy): ``{statistic, p}``."""
    from scipy import stats

    result = stats.wilcoxon(a, b, alternative=alternative)
    return {"statistic": float(result.statistic), "p": float(result.pvalue)}


def chi_square(a, b) -> dict[str, float]:
    """Chi-square test of independence of the value distributions of ``a`` and ``b`` (scipy, on the 2 x k
    table of counts; categorical labels such as Likert points or choices): ``{statistic, df, p}``."""
    from scipy import stats

    values = sorted(set(a) | set(b))
    table = [[list(a).count(v) for v in values], [list(b).count(v) for v in values]]
    result = stats.chi2_contingency(table)
    return {"statistic": float(result.statistic), "df": float(result.dof), "p": float(result.pvalue)}


def tost(a, b, margin: float) -> dict[str, float]:
    """Equivalence of the means of ``a`` and ``b`` within ``margin`` by two one-sided tests (TOST; Schuirmann 1987,
    *J. Pharmacokinet. Biopharm.* 15: 657-680), Student's t with pooled variance as ``pingouin.tost`` computes it:
    ``{p, df}``. p is the larger of the two one-sided p-values, of H0 mean(a) - mean(b) <= -margin and of H0
    mean(a) - mean(b) >= margin; p < alpha says the difference lies within (-margin, margin).

    Equal means, each set's variance 0.3: t = 1 / sqrt(0.3 (1/6 + 1/6)) = 3.162 on 10 df for either bound.

    >>> round(tost([4, 5, 4, 5, 4, 5], [4, 4, 5, 5, 4, 5], 1.0)["p"], 4)
    0.0051
    """
    import pingouin

    if not margin > 0:
        raise HumevalError(f"metric significance: test tost needs a margin > 0, not {margin!r}")
    result = pingouin.tost(np.asarray(a, dtype=float), np.asarray(b, dtype=float), bound=float(margin))
    return {"p": float(result["pval"].iloc[0]), "df": float(result["dof"].iloc[0])}


#: The two-sample tests by name, each called with the two sets and the test's entry (``alternative``, ``margin``).
TESTS = {
    "mann_whitney_u": lambda a, b, spec: mann_whitney_u(a, b, spec.get("alternative", "two-sided")),
    "student_t": lambda a, b, spec: t_test(a, b, True, spec.get("alternative", "two-sided")),
    "welch_t": lambda a, b, spec: t_test(a, b, False, spec.get("alternative", "two-sided")),
    "wilcoxon": lambda a, b, spec: wilcoxon_signed_rank(a, b, spec.get("alternative", "two-sided")),
    "chi_square": lambda a, b, spec: chi_square(a, b),
    "tost": lambda a, b, spec: tost(a, b, spec.get("margin", 0)),
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
    compare: Column,
    pairs: list[list[str]],
    tests: list[dict],
    row: str,
    by: Columns = (),
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
    pair_on: Columns = ("item",),
) -> pd.DataFrame:
    """Significance tests between two sets of values: for each group of ``by`` and each pair ``[a, b]`` of values
    of the ``compare`` column (systems, say), every test on the two sets of judgement values.

    Parameters
    ----------
    compare : str
        The column whose values are compared (``system``, ``side``).
    pairs : list of list of str
        The pairs ``[a, b]`` compared.
    tests : list of dict
        ``{test, alternative?, columns, correction?, corrected_column?}``: ``test`` one of ``mann_whitney_u``,
        ``student_t``, ``welch_t``, ``wilcoxon`` (paired on ``pair_on``, the mean per unit), ``chi_square``
        (scipy) or ``tost`` (equivalence within ``margin``, two one-sided Student t tests, pingouin: its ``p``
        below alpha says the means differ by less than the margin); ``alternative`` ``two-sided`` (default), ``greater`` (a > b) or ``less``; ``columns``
        ``{statistic: <column>, p: <column>, df?: <column>, ...}``, where each result goes (besides these: a t
        test's ``ci_low``/``ci_high``, the 95% interval of the mean difference; Mann-Whitney's ``rank_biserial`` and ``r``, the effect size |Z| / sqrt(N) as rstatix prints it); ``correction`` one of
        ``holm``, ``bonf``, ``fdr_bh``, ``fdr_by``, ``sidak``: the test's p-values over every group and pair of
        the entry corrected for multiple comparisons (pingouin) into ``corrected_column``.
    row : str
        A template over the ``by`` keys, ``{a}`` and ``{b}``.
    pair_on : list of str
        ``wilcoxon``: the columns the two sets are paired on.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): per group and pair, each test's statistic, p (and df, corrected p).

    Notes
    -----
    Student's t = (m_a - m_b) / (s_p sqrt(1 / n_a + 1 / n_b)) on n_a + n_b - 2 df, s_p the pooled SD; Welch's t
    divides by sqrt(s_a^2 / n_a + s_b^2 / n_b) on Welch-Satterthwaite df; Mann-Whitney's U with scipy's default
    p (exact for small samples without ties, else normal with continuity correction), its rank-biserial
    correlation 2U / (n_a n_b) - 1 and r = |Z| / sqrt(N) (:func:`mann_whitney_u`); Wilcoxon's signed-rank W on
    the per-unit means both sets
    share; TOST the larger p of two one-sided Student t tests against -margin and +margin (pingouin). The
    tests are scipy's (``ttest_ind``, ``mannwhitneyu``, ``wilcoxon``, ``chi2_contingency``), the corrections
    pingouin's ``multicomp``. r equals rstatix's ``wilcox_effsize`` (``tests/test_e2e_r_crosscheck.py``); TOST's
    p equals the larger of scipy's two shifted one-sided t tests to 1e-12 (its unit test).

    References
    ----------
    Student (1908), *Biometrika* 6(1): 1-25; Welch (1947), *Biometrika* 34(1/2): 28-35; Mann & Whitney (1947),
    *Annals of Mathematical Statistics* 18(1): 50-60; Wilcoxon (1945), *Biometrics Bulletin* 1(6): 80-83; Kerby
    (2014), *Comprehensive Psychology* 3: 11.IT.3.1 (rank-biserial); Schuirmann (1987), *Journal of
    Pharmacokinetics and Biopharmaceutics* 15(6): 657-680 (TOST); Holm (1979), *Scandinavian Journal of
    Statistics* 6(2): 65-70.

    Examples
    --------
    a rated 1, 2, 3 and b 2, 3, 4: s_p = 1, so t = -1 / sqrt(2 / 3) = -1.2247 on 4 df (two-sided p 0.2879).

    >>> j = pd.DataFrame({"system": list("aaabbb"), "value": [1, 2, 3, 2, 3, 4]})
    >>> out = significance_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", compare="system", pairs=[["a", "b"]],
    ...                            tests=[{"test": "student_t", "columns": {"statistic": "t", "df": "df", "p": "p"}}],
    ...                            row="{a}-{b}")
    >>> out.set_index("column")["value"].round(4).to_dict()
    {'t': -1.2247, 'df': 4.0, 'p': 0.2879}
    """
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
                result = TESTS[spec["test"]](first, second, spec)
                unknown = sorted(set(spec["columns"]) - set(result))
                if unknown:
                    raise HumevalError(f"test {spec['test']} gives no {unknown}; it gives {sorted(result)}")
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


#: The tests across k groups (scipy.stats: ``f_oneway``, ``kruskal``, ``levene``, ``tukey_hsd``, ``shapiro``), the
#: ANOVA table with eta squared, Kruskal-Wallis eta squared H and Dunn's test; each written only when asked for.
KSampleTest = Literal["anova", "kruskal", "levene", "tukey", "anova_table", "kruskal_effect", "dunn", "shapiro"]
K_SAMPLE_TESTS = get_args(KSampleTest)


def anova_table(arrays: list[np.ndarray]) -> list[tuple[str, float]]:
    """The one-way ANOVA table: sums of squares between and within groups, their mean squares (SS / df) and eta
    squared = SS_between / SS_total (Cohen 1973).

    >>> dict(anova_table([np.array([1.0, 2, 3]), np.array([2.0, 3, 4]), np.array([6.0, 7, 8])]))["eta_squared"]
    0.875
    """
    values = np.concatenate(arrays)
    grand = values.mean()
    between = float(sum(a.size * (a.mean() - grand) ** 2 for a in arrays))
    within = float(sum(((a - a.mean()) ** 2).sum() for a in arrays))
    k, n = len(arrays), values.size
    table = (between, within, between / (k - 1), within / (n - k), between / (between + within))
    return list(zip(TEST_STATS["anova_table"], table))


def dunn(names: list[str], arrays: list[np.ndarray], adjust: str) -> list[tuple[str, str, float]]:
    """Dunn's (1964) test of every pair after Kruskal-Wallis: ranks of all values together (mid-ranks for ties),
    z = (mean rank a - mean rank b) / sqrt((N(N+1)/12 - sum(t^3 - t) / (12 (N - 1))) (1/n_a + 1/n_b)), p two-sided
    from the normal, and p adjusted over the pairs (:func:`corrected`; ``none`` leaves it).

    >>> # mean ranks 1.5 and 3.5 of N = 4, no ties: z = -2 / sqrt(20 / 12 x (1/2 + 1/2))
    >>> [(pair, stat, round(v, 4)) for pair, stat, v in dunn(["a", "b"], [np.array([1., 2]), np.array([3., 4])], "none")]
    [('a vs b', 'z', -1.5492), ('a vs b', 'p', 0.1213), ('a vs b', 'p_adjusted', 0.1213)]
    """
    from scipy import stats

    values = np.concatenate(arrays)
    ranks = stats.rankdata(values)
    n = values.size
    _, ties = np.unique(values, return_counts=True)
    variance = n * (n + 1) / 12 - float((ties**3 - ties).sum()) / (12 * (n - 1))
    bounds = np.cumsum([0, *(a.size for a in arrays)])
    mean_rank = [ranks[bounds[i] : bounds[i + 1]].mean() for i in range(len(arrays))]
    pairs, z = [], []
    for i in range(len(arrays)):
        for j in range(i + 1, len(arrays)):
            pairs.append(f"{names[i]} vs {names[j]}")
            z.append((mean_rank[i] - mean_rank[j]) / np.sqrt(variance * (1 / arrays[i].size + 1 / arrays[j].size)))
    p = [float(2 * stats.norm.sf(abs(v))) for v in z]
    adjusted = p if adjust == "none" else corrected(p, adjust)
    return [
        (pair, stat, float(value))
        for pair, zi, pi, ai in zip(pairs, z, p, adjusted)
        for stat, value in zip(TEST_STATS["dunn"], (zi, pi, ai))
    ]


@functools.lru_cache(maxsize=256)
def studentized_range_quantile(level: float, k: int, df: float) -> float:
    """The studentized range's ``level`` quantile for ``k`` groups and ``df`` degrees of freedom (scipy's
    ``studentized_range.ppf``: a root search over a double integral, about 0.2 s), kept per (level, k, df)."""
    from scipy import stats

    return float(stats.studentized_range.ppf(level, k, df))


@functools.lru_cache(maxsize=4096)
def studentized_range_sf(q: float, k: int, df: float) -> float:
    """P(Q > q) for the studentized range of ``k`` groups and ``df`` degrees of freedom (scipy's
    ``studentized_range.sf``: a double integral, 2-10 ms), kept per (q, k, df): a resampling that leaves a test's
    groups as they are asks for the same value again."""
    from scipy import stats

    return float(stats.studentized_range.sf(q, k, df))


def tukey_hsd_pairs(
    arrays: list[np.ndarray], wanted: set[tuple[int, int]] | None = None, *, intervals: bool = True
) -> list[tuple[int, int, float, float]]:
    """Tukey's HSD (Tukey-Kramer for unequal sizes) for each pair i < j of ``arrays`` (those of ``wanted``, where
    given): (i, j, p, radius), the pair's 95% interval being mean difference +- radius (NaN with ``intervals=False``).

    Notes
    -----
    ``scipy.stats.tukey_hsd``'s arithmetic, step by step (MSE = sum (n_g - 1) s_g^2 / (N - k); standard error
    sqrt((1/n_i + 1/n_j) MSE / 2); q = |mean_i - mean_j| / SE; p = P(Q_{k, N-k} > q); radius = q_0.95 SE), with
    scipy's studentized range distribution, but evaluated for the k(k - 1)/2 pairs only (tukey_hsd integrates
    all k^2 cells of its matrix, the diagonal and both triangles) and the interval's critical value kept per
    (k, df) (:func:`studentized_range_quantile`; ``confidence_interval`` searches for it on every call), each p
    kept per (q, k, df) (:func:`studentized_range_sf`). Measured, seconds of puduppully's planning job (Tukey
    tests of 5 groups on a side its bootstrap leaves as it is; Snakemake's benchmark, wall): 467 with
    ``tukey_hsd`` (beside another job), 147 with the pairs and the kept quantile, 24 with the kept p-values (15 CPU
    s); ``tests/test_significance_tukey.py`` checks every p and interval equals tukey_hsd's to the bit.

    References
    ----------
    Tukey (1949); Kramer (1956), *Biometrics* 12(3): 307-310; scipy.stats.tukey_hsd.
    """

    if len(arrays) < 2 or any(a.size <= 1 or not np.isfinite(a).all() for a in arrays):
        raise ValueError("Tukey's HSD needs two or more groups of two or more finite values each")
    k = len(arrays)
    means = np.asarray([np.mean(a) for a in arrays])
    sizes = np.asarray([a.size for a in arrays])
    variances = np.asarray([np.var(a, ddof=1) for a in arrays])
    df = np.sum(sizes) - k
    mse = np.sum(variances * (sizes - 1)) / df
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if wanted is None or (i, j) in wanted]
    if not pairs:
        return []
    first, second = (np.asarray(side) for side in zip(*pairs))
    normalize = 2 / sizes[0] if np.unique(sizes).size == 1 else 1 / sizes[second] + 1 / sizes[first]
    error = np.sqrt(normalize * mse / 2) * np.ones(len(pairs))
    p = [studentized_range_sf(float(q), k, float(df)) for q in np.abs(means[first] - means[second]) / error]
    radius = studentized_range_quantile(0.95, k, float(df)) * error if intervals else np.full(len(pairs), np.nan)
    return [(i, j, float(p[n]), float(radius[n])) for n, (i, j) in enumerate(pairs)]


def k_sample_tests(
    samples: dict[str, np.ndarray],
    tests: list[str],
    *,
    printed: bool = False,
    adjust: str = "holm",
    pairs: set[tuple[int, int]] | None = None,
    intervals: bool = True,
) -> list[tuple[str, str, float]]:
    """(test, stat, value) of tests across the k groups in ``samples`` (scipy.stats): ``anova`` (one-way,
    ``f_oneway``: statistic F, df_between, df_within, p), ``kruskal`` (H, p), ``levene`` (W, p; centre median)
    and ``tukey`` (``tukey_hsd``: per pair ``<a> vs <b>`` in the order of ``samples``, the mean difference a - b,
    p and the 95% interval; with ``printed``, as statsmodels' ``pairwise_tukeyhsd`` prints it: b - a);
    ``anova_table`` (:func:`anova_table`), ``kruskal_effect`` (eta squared H = (H - k + 1) / (N - k), Tomczak &
    Tomczak 2014), ``dunn`` (:func:`dunn`, p adjusted by ``adjust``) and ``shapiro`` (Shapiro-Wilk W and p per
    group, ``shapiro|<group>``). ``pairs``: the Tukey pairs (i, j), i < j, to compute (all when None);
    ``intervals=False`` leaves their interval ends NaN (a caller that reads only p).

    >>> out = dict(((t, s), v) for t, s, v in k_sample_tests({"a": [1, 2, 3], "b": [2, 3, 4], "c": [6, 7, 8]},
    ...                                                        ["anova"]))
    >>> round(out[("anova", "statistic")], 4), out[("anova", "df_between")], out[("anova", "df_within")]
    (21.0, 2.0, 6.0)
    """
    from scipy import stats

    names, arrays = list(samples), [np.asarray(v, dtype=float) for v in samples.values()]
    if len(arrays) < 2:
        raise HumevalError(f"tests across groups need two or more groups, got {names}")
    out = []
    for test in tests:
        if test == "anova":
            result = stats.f_oneway(*arrays)
            n = sum(a.size for a in arrays)
            values = (float(result.statistic), float(len(arrays) - 1), float(n - len(arrays)), float(result.pvalue))
            out += [("anova", stat, value) for stat, value in zip(TEST_STATS["anova"], values)]
        elif test == "anova_table":
            out += [("anova", stat, value) for stat, value in anova_table(arrays)]
        elif test == "kruskal_effect":
            h, n = float(stats.kruskal(*arrays).statistic), sum(a.size for a in arrays)
            out.append(("kruskal", *TEST_STATS["kruskal_effect"], (h - len(arrays) + 1) / (n - len(arrays))))
        elif test == "dunn":
            out += dunn(names, arrays, adjust)
        elif test == "shapiro":
            for name, values in zip(names, arrays):
                result = stats.shapiro(values)
                pair = (float(result.statistic), float(result.pvalue))
                out += [(f"shapiro|{name}", stat, value) for stat, value in zip(TEST_STATS["shapiro"], pair)]
        elif test in ("kruskal", "levene"):
            result = stats.kruskal(*arrays) if test == "kruskal" else stats.levene(*arrays)
            pair = (float(result.statistic), float(result.pvalue))
            out += [(test, stat, value) for stat, value in zip(TEST_STATS[test], pair)]
        elif test == "tukey":
            for i, j, p, radius in tukey_hsd_pairs(arrays, pairs, intervals=intervals):
                a, b = (j, i) if printed else (i, j)  # the difference a - b and its interval
                difference = arrays[a].mean() - arrays[b].mean()
                values = (float(difference), p, float(difference - radius), float(difference + radius))
                out += [(f"{names[i]} vs {names[j]}", stat, value) for stat, value in zip(TEST_STATS["tukey"], values)]
        else:
            raise HumevalError(f"unknown test {test!r}; known: {list(K_SAMPLE_TESTS)}")
    return out


def wanted_pairs(
    names: list[str], table: str, row: str, column: str, keys: dict, labels, wanted
) -> tuple[set[tuple[int, int]], bool]:
    """The Tukey pairs (i, j) of groups ``names`` any of whose cells (diff, p, interval) is among ``wanted``, and
    whether any of their interval ends is: a bootstrap that reads one pair's p computes that pair's integral only
    (arvan's planning: 1 of 6 pairs), and no interval (the studentized range's 95% quantile, a root search over
    a double integral, 0.3 s for each of the 76 error df arvan's 400 resamples met: 23 of its 62 s)."""
    found = {
        (i, j, stat)
        for i in range(len(names))
        for j in range(i + 1, len(names))
        for stat in TEST_STATS["tukey"]
        if (
            table,
            *(render(t, {**keys, "test": f"{names[i]} vs {names[j]}", "stat": stat}, labels) for t in (row, column)),
        )
        in wanted
    }
    return {(i, j) for i, j, _ in found}, any(stat in ("ci_low", "ci_high") for _, _, stat in found)


@register("metric", "k_sample_tests")
def k_sample_numbers(
    data: StudyData,
    *,
    table: str,
    tests: list[KSampleTest],
    group: Column = "system",
    by: Columns = (),
    order: Literal["first", "printed"] | list[str] = "first",
    adjust: Literal["holm", "bonf", "fdr_bh", "fdr_by", "sidak", "none"] = "holm",
    row: str = "{test}",
    column: str = "{stat}",
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Tests across the k values of ``group`` (the systems, by default) per group of ``by``
    (:func:`k_sample_tests`).

    Parameters
    ----------
    tests : list of {'anova', 'kruskal', 'levene', 'tukey', 'anova_table', 'kruskal_effect', 'dunn', 'shapiro'}
        One-way ANOVA (statistic F, df_between, df_within, p), Kruskal-Wallis H (statistic, p), Levene's W
        (centre median; statistic, p), Tukey's HSD (per pair ``<a> vs <b>``: diff, p, ci_low, ci_high); on request
        the ANOVA table (row ``anova``: ss_between, ss_within, ms_between, ms_within, eta_squared), Kruskal-Wallis
        eta squared H (row ``kruskal``: eta_squared_h), Dunn's test (per pair ``<a> vs <b>``: z, p, p_adjusted)
        and Shapiro-Wilk per group (row ``shapiro|<group>``: statistic, p).
    adjust : {'holm', 'bonf', 'fdr_bh', 'fdr_by', 'sidak', 'none'}
        ``dunn``: how its p-values are adjusted over the pairs (pingouin's ``multicomp``).
    order : {'first', 'printed'} or list of str
        The order of the groups, which names the Tukey pairs and signs their differences: ``first`` (the order
        the groups first appear in the judgements; diff = a - b), a list of the groups (that order; a - b), or
        ``printed``, as statsmodels' ``pairwise_tukeyhsd`` prints it (the groups sorted, diff = b - a: group2 -
        group1).
    group : str
        The column whose values are the k samples.
    by : list of str
        The columns whose values make a group (each tested apart).
    row, column : str
        Templates over the ``by`` keys, ``{test}`` (the test, or ``<a> vs <b>`` for a Tukey pair) and ``{stat}``.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one per group, test (pair) and statistic.

    Notes
    -----
    With k groups of sizes n_i, means m_i and N values: the one-way ANOVA's F = (SS_b / (k - 1)) / (SS_w / (N -
    k)), SS_b = sum n_i (m_i - m)^2, SS_w = sum sum (x - m_i)^2, and eta squared = SS_b / (SS_b + SS_w);
    Kruskal-Wallis H = 12 / (N (N + 1)) sum R_i^2 / n_i - 3 (N + 1) over the mid-ranks, divided by the tie
    correction, and eta squared H = (H - k + 1) / (N - k); Levene's W is the ANOVA F of |x - median_i| (the
    Brown-Forsythe centring, scipy's default); Tukey-Kramer's q = |m_i - m_j| / sqrt(MSE / 2 (1 / n_i + 1 /
    n_j)) against the studentized range of k groups and N - k degrees of freedom (:func:`tukey_hsd_pairs`);
    Dunn's z in :func:`dunn`. F, H, W, Shapiro-Wilk's W and their p-values are scipy's (``f_oneway``,
    ``kruskal``, ``levene``, ``shapiro``). Dunn's z and p and Shapiro-Wilk are checked against R
    (``tests/test_e2e_r_crosscheck.py``), Tukey's p and interval against scipy's ``tukey_hsd`` to the bit
    (``tests/test_significance_tukey.py``), and the ANOVA and Tukey cells of puduppully and arvan against the
    authors' statsmodels printouts (their audits).

    References
    ----------
    Fisher (1925), *Statistical Methods for Research Workers*; Kruskal & Wallis (1952), *JASA* 47(260): 583-621;
    Brown & Forsythe (1974), *JASA* 69(346): 364-367; Tukey (1949), *Biometrics* 5(2): 99-114; Kramer (1956),
    *Biometrics* 12(3): 307-310; Dunn (1964), *Technometrics* 6(3): 241-252; Shapiro & Wilk (1965),
    *Biometrika* 52(3/4): 591-611; Tomczak & Tomczak (2014), *Trends in Sport Sciences* 21(1): 19-25.

    Examples
    --------
    Three systems rated 1-3, 2-4 and 6-8: means 2, 3 and 7 around 4, so SS_b = 3 (4 + 1 + 9) = 42, SS_w = 6 and
    F = (42 / 2) / (6 / 6) = 21 on 2 and 6 degrees of freedom.

    >>> j = pd.DataFrame({"system": list("aaabbbccc"), "value": [1, 2, 3, 2, 3, 4, 6, 7, 8]})
    >>> out = k_sample_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", tests=["anova", "anova_table"])
    >>> out.set_index("column")["value"].round(4).to_dict()
    {'statistic': 21.0, 'df_between': 2.0, 'df_within': 6.0, 'p': 0.002, 'ss_between': 42.0, 'ss_within': 6.0, 'ms_between': 21.0, 'ms_within': 1.0, 'eta_squared': 0.875}
    """
    rows = data.rows(frame, variant, where)
    out = []
    for keys, part in groups_of(rows, by):
        samples = {
            str(name): pd.to_numeric(values["value"]).to_numpy() for name, values in part.groupby(group, sort=False)
        }
        if order != "first":
            wanted = sorted(samples) if order == "printed" else [str(g) for g in order]
            if sorted(wanted) != sorted(samples):
                raise HumevalError(f"order {order} must list the groups {sorted(samples)}, each once")
            samples = {name: samples[name] for name in wanted}
        pairs, intervals = (
            (None, True)
            if data.wanted is None
            else wanted_pairs(list(samples), table, row, column, keys, labels, data.wanted)
        )
        for test, stat, value in k_sample_tests(
            samples, tests, printed=order == "printed", adjust=adjust, pairs=pairs, intervals=intervals
        ):
            fields = {**keys, "test": test, "stat": stat}
            out.append((render(row, fields, labels), render(column, fields, labels), value))
    return value_frame(table, out)
