"""QRA3 measures for any number n >= 2 of experiments (Belz & Thomson 2026), as the organisers' tool
applies them (``shared/qra3.md`` of the project's briefs).

Type I (single scores; per system x criterion): CV* with its corrected SD s* = s / c4(n), a 95% interval
for s*, and how many experiments lie within 1 and 2 s* of the mean. Type II (sets of scores; per
criterion, systems paired): mean pairwise Pearson and Spearman, Kendall's W with its chi-square p.
Type III (item-level labels): Krippendorff's alpha with the experiments as coders. Type IV (findings):
the share of (experiment pair, system pair) comparisons whose ordering agrees.

Every function takes plain arrays or frames and returns numbers; :mod:`humeval.qra.qra3_tables` lays them
out at system, criterion and study level.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pandas as pd

from humeval.cv_star import c4
from humeval.qra3_layout import TYPE1_COLUMNS

__all__ = [
    "finding_agreements",
    "item_labels_by_group",
    "kendall_w",
    "labels_alpha",
    "pairwise_correlations",
    "type1_measures",
]


def type1_measures(scores, scale_starts_at: float = 0.0, over_correction: bool = False) -> dict[str, float]:
    """Type I over the n experiments' scores of one system and criterion, shifted by ``-scale_starts_at``.

    ``cv_star`` = 100 s*/|m| (times 1 + 1/(4n) with ``over_correction``); ``sd_star`` = s* = s / c4(n)
    (s the sample SD, ddof 1); SE(s*) = s^2 sqrt(2/(n-1)) / (2 s*); ``sd_ci_low/high`` = s* -/+
    t(0.975, n-1) SE; ``within_1sd/2sd``: how many scores lie strictly within 1 and 2 s* of the mean.
    Fewer than two scores: every measure NaN.

    The worked check of QRA3 (Yao 2022 family, Answer Relevancy, GT; scale starts at 1):

    >>> m = type1_measures([4.834025, 4.460581, 4.566116], scale_starts_at=1)
    >>> [round(m[k], 4) for k in ("cv_star", "sd_star", "sd_ci_low", "sd_ci_high", "within_1sd")]
    [6.0004, 0.2172, -0.1498, 0.5843, 3.0]

    The t quantile is scipy.special's ``stdtrit``, which ``scipy.stats.t.ppf`` calls (equal to it bit for bit at
    every df from 1 to 1,999): the summary job, whose CV* figure needs only this of scipy, then does not import
    scipy.stats.
    """
    from scipy import special

    x = np.asarray(scores, dtype=float) - scale_starts_at
    n = x.size
    if n < 2:
        return dict.fromkeys(TYPE1_COLUMNS, float("nan"))
    mean, s = x.mean(), x.std(ddof=1)
    s_star = s / c4(n)
    factor = 1 + 1 / (4 * n) if over_correction else 1.0
    cv = float("nan") if mean == 0 else factor * 100 * s_star / abs(mean)
    se = 0.0 if s_star == 0 else s**2 * math.sqrt(2 / (n - 1)) / (2 * s_star)
    half = special.stdtrit(n - 1, 0.975) * se
    deviation = np.abs(x - mean)
    return {
        "cv_star": float(cv),
        "sd_star": float(s_star),
        "sd_ci_low": float(s_star - half),
        "sd_ci_high": float(s_star + half),
        "within_1sd": float((deviation < s_star).sum()),
        "within_2sd": float((deviation < 2 * s_star).sum()),
    }


def kendall_w(matrix) -> tuple[float, float]:
    """Kendall's W of m judges (rows) ranking k objects (columns), average ranks for ties and no tie
    correction: W = 12 S / (m^2 (k^3 - k)), S the sum of squared deviations of the rank sums from their
    mean; p from chi2 = m (k - 1) W on k - 1 df.

    >>> kendall_w([[1, 2, 3], [1, 2, 3]])
    (1.0, 0.1353352832366127)
    >>> round(kendall_w([[1, 2, 3], [3, 2, 1]])[0], 6)
    0.0
    """
    from scipy import stats

    values = np.asarray(matrix, dtype=float)
    m, k = values.shape
    if m < 2 or k < 2:
        return float("nan"), float("nan")
    ranks = np.apply_along_axis(stats.rankdata, 1, values)
    sums = ranks.sum(axis=0)
    w = 12 * ((sums - sums.mean()) ** 2).sum() / (m**2 * (k**3 - k))
    chi2 = m * (k - 1) * w
    return float(w), float(stats.chi2.sf(chi2, k - 1))


def pairwise_correlations(matrix: pd.DataFrame) -> pd.DataFrame:
    """Pearson r and Spearman rho between every pair of experiments (rows of ``matrix``, systems in
    columns): one row per pair ``(a, b, pearson, spearman)``. With fewer than 3 systems, or a constant
    series, a correlation is undefined (NaN)."""
    from scipy import stats

    rows = []
    for a, b in combinations(matrix.index, 2):
        x, y = matrix.loc[a].to_numpy(float), matrix.loc[b].to_numpy(float)
        defined = x.size >= 3 and np.ptp(x) > 0 and np.ptp(y) > 0
        pearson = float(stats.pearsonr(x, y).statistic) if defined else float("nan")
        spearman = float(stats.spearmanr(x, y).statistic) if defined else float("nan")
        rows.append((a, b, pearson, spearman))
    return pd.DataFrame(rows, columns=["a", "b", "pearson", "spearman"])


def finding_agreements(matrix: pd.DataFrame) -> tuple[int, int]:
    """Type IV counts: over every pair of experiments (rows) and every pair of systems (columns), how many
    orderings agree (both experiments order the two systems the same way; a tie in either disagrees),
    and how many were compared.

    >>> finding_agreements(pd.DataFrame([[1, 2, 3], [1, 3, 2]], index=["O", "R1"]))
    (2, 3)
    """
    values = matrix.to_numpy(float)
    agree = compared = 0
    for a, b in combinations(range(values.shape[0]), 2):
        for i, j in combinations(range(values.shape[1]), 2):
            first, second = np.sign(values[a, i] - values[a, j]), np.sign(values[b, i] - values[b, j])
            agree += int(first == second and first != 0)
            compared += 1
    return agree, compared


def item_labels_by_group(values: pd.Series, keys: list[str], rule: str) -> pd.Series:
    """Each group's label from its raters' values (``values`` indexed by the ``keys`` levels), vectorised:
    ``rounded_mean`` (half up), ``mean``, ``median`` or ``majority`` (the most frequent value; ties go to the
    smallest).

    >>> v = pd.Series([4, 5, 1, -1, -1, 1], index=pd.Index(["a", "a", "b", "b", "b", "b"], name="unit"))
    >>> item_labels_by_group(v, ["unit"], "rounded_mean").tolist(), item_labels_by_group(v, ["unit"], "majority").tolist()
    ([5.0, 0.0], [4.0, -1.0])
    """
    groups = values.groupby(level=keys, sort=True)
    if rule == "rounded_mean":
        return np.floor(groups.mean() + 0.5).astype(float)
    if rule == "mean":
        return groups.mean().astype(float)
    if rule == "median":
        return groups.median().astype(float)
    if rule == "majority":
        counts = values.groupby(level=keys).value_counts().rename("n").reset_index()
        value = counts.columns[-2]
        first = counts.sort_values([*keys, "n", value], ascending=[True] * len(keys) + [False, True])
        return first.drop_duplicates(keys).set_index(keys)[value].astype(float)
    raise ValueError(f"unknown item label rule {rule!r}")


def labels_alpha(labels: pd.DataFrame, level: str = "ordinal", value_domain=None) -> float:
    """Krippendorff's alpha with the experiments (rows) as coders and the items (columns) as units;
    missing labels are left out pairwise (the krippendorff package). NaN where no item has two labels or the
    labels hold one value only (alpha is then undefined: its expected disagreement is 0).

    >>> labels_alpha(pd.DataFrame([[1, 2, 1, 2], [1, 2, 2, 2]], index=["O", "R1"]))
    0.5333333333333333
    """
    import krippendorff

    data = labels.to_numpy(float)
    if np.isfinite(data).sum(axis=0).max(initial=0) < 2:  # no item labelled by two experiments (or only one)
        return float("nan")
    if len(np.unique(data[np.isfinite(data)])) < 2:
        return float("nan")
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement=level, value_domain=value_domain))
