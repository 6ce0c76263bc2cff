"""Item-level correlation between two experiments (or two conditions): per item, the mean of its raters,
inner-joined; with ``units: [system]`` the rank agreement of two system rankings (Kendall's tau-b), per group and
averaged over the groups."""

from __future__ import annotations

import math
from typing import Literal

import pandas as pd

from humeval.config.registry import register
from humeval.metrics import Column, Columns, Frame, StudyData, groups_of, render, value_frame

__all__ = ["item_correlation_numbers"]

METHODS = {
    "pearson": ("pearson_r", "pearson_p"),
    "spearman": ("spearman_rho", "spearman_p"),
    "kendall": ("kendall_tau", "kendall_p"),
}


def correlate(x, y, method: str) -> tuple[float, float]:
    """(statistic, two-sided p) of scipy's pearsonr, spearmanr or kendalltau (tau-b)."""
    from scipy import stats

    function = {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}[method]
    result = function(x, y)
    return float(result.statistic), float(result.pvalue)


@register("metric", "item_correlation")
def item_correlation_numbers(
    data: StudyData,
    *,
    table: str,
    x: str,
    y: str,
    row: str,
    by: Columns = ("criterion",),
    units: Columns = ("item", "system"),
    methods: list[Literal["pearson", "spearman", "kendall"]] = ("pearson", "spearman", "kendall"),
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
    compare: Column = "side",
    mean_row: str | None = None,
) -> pd.DataFrame:
    """Item-level correlation between two sides: per group of ``by``, the mean value of each unit on side ``x``
    and on side ``y``, inner-joined on the unit, correlated (scipy ``pearsonr``, ``spearmanr``, ``kendalltau``).
    With ``units: [system]``, ``by: [topic]`` and ``methods: [kendall]`` it is the rank agreement of the two
    system rankings per topic (Kendall's tau-b, which counts a tie in either ranking as scipy does:
    tau_b = (P - Q) / sqrt((P + Q + T) (P + Q + U)), P and Q the concordant and discordant pairs, T and U the pairs
    tied in one ranking only); ``mean_row`` adds their mean over the groups.

    Parameters
    ----------
    x, y : str
        The two sides (experiments) correlated, or two values of ``compare``.
    compare : str
        The column whose values ``x`` and ``y`` are (default ``side``; e.g. ``condition`` to set two evaluation
        conditions of one experiment side by side).
    mean_row : str, optional
        The row of each statistic's (r, rho, tau) mean over the groups where it is defined, with ``n`` the number
        of such groups; no p-value is averaged.
    row : str
        A template over the ``by`` keys.
    units : list of str
        The columns that make a unit (mean of its raters per side).
    methods : list of {'pearson', 'spearman', 'kendall'}
        The correlations (Kendall's tau-b).

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): columns ``pearson_r``, ``pearson_p``, ``spearman_rho``, ``spearman_p``,
        ``kendall_tau``, ``kendall_p`` (those of ``methods``) and ``n`` (joined units); in ``mean_row`` the
        statistics' means and ``n`` (the groups averaged).

    Notes
    -----
    Pearson's r of the two sides' unit means, Spearman's rho (r of their mid-ranks) and Kendall's tau-b as above,
    each with scipy's p (``pearsonr``'s exact beta distribution, ``spearmanr``'s t approximation on n - 2 df,
    ``kendalltau``'s exact p for small samples without ties, else its normal approximation). The ``.test``
    study's item rankings (O against R1: 0.8000 and 0.8944, mean 0.8472) and its two conditions' rankings of the
    runs (1 and 1/3, mean 0.6667) are worked out by hand in its study file.

    References
    ----------
    Kendall (1945), "The Treatment of Ties in Ranking Problems", *Biometrika* 33(3): 239-251 (tau-b); Spearman
    (1904), *American Journal of Psychology* 15(1): 72-101.

    Examples
    --------
    Four items whose means are 1, 2, 3, 4 on O and 1, 3, 2, 4 on R1: one of the six pairs discordant, so tau-b =
    (5 - 1) / 6; rho = 1 - 6 x 2 / (4 x 15) = 0.8.

    >>> j = pd.DataFrame({"side": ["O"] * 4 + ["R1"] * 4, "criterion": "q", "item": list("abcd") * 2,
    ...                   "system": "A", "value": [1.0, 2, 3, 4, 1, 3, 2, 4]})
    >>> out = item_correlation_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", x="O", y="R1", row="{criterion}",
    ...                                methods=["spearman", "kendall"])
    >>> out.set_index("column")["value"].round(4).to_dict()
    {'spearman_rho': 0.8, 'spearman_p': 0.2, 'kendall_tau': 0.6667, 'kendall_p': 0.3333, 'n': 4.0}
    """
    rows = data.rows(frame, variant, where)
    rows = rows.assign(value=pd.to_numeric(rows["value"]))
    out, statistics = [], {}
    for keys, part in groups_of(rows, by):
        means = part.groupby([compare, *units])["value"].mean()
        if x not in means.index.get_level_values(0) or y not in means.index.get_level_values(0):
            continue
        joined = pd.concat([means.loc[x].rename("x"), means.loc[y].rename("y")], axis=1, join="inner")
        label = render(row, keys, labels)
        for method in methods:
            statistic, p = correlate(joined["x"], joined["y"], method)
            out += [(label, METHODS[method][0], statistic), (label, METHODS[method][1], p)]
            statistics.setdefault(METHODS[method][0], []).append(statistic)
        out.append((label, "n", float(len(joined))))
    if mean_row is not None:
        for column, values in statistics.items():
            defined = [v for v in values if not math.isnan(v)]  # units all tied on one side: no statistic
            out += [(mean_row, column, sum(defined) / len(defined) if defined else float("nan"))]
        counted = [sum(not math.isnan(v) for v in values) for values in statistics.values()]
        out.append((mean_row, "n", float(max(counted, default=0))))
    return value_frame(table, out)
