"""Item-level correlation between two experiments: per item, the mean of its raters, inner-joined."""

from __future__ import annotations

from typing import Literal

import pandas as pd

from humeval.metrics import Columns, Frame, StudyData, groups_of, render, value_frame
from humeval.vocabulary import register

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
) -> pd.DataFrame:
    """Item-level correlation between two sides: per group of ``by``, the mean value of each unit on side ``x``
    and on side ``y``, inner-joined on the unit, correlated (scipy ``pearsonr``, ``spearmanr``, ``kendalltau``).

    Parameters
    ----------
    x, y : str
        The two sides (experiments) correlated.
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
        ``kendall_tau``, ``kendall_p`` (those of ``methods``) and ``n`` (joined units).
    """
    rows = data.rows(frame, variant, where)
    rows = rows.assign(value=pd.to_numeric(rows["value"]))
    out = []
    for keys, part in groups_of(rows, by):
        means = part.groupby(["side", *units])["value"].mean()
        if x not in means.index.get_level_values(0) or y not in means.index.get_level_values(0):
            continue
        joined = pd.concat([means.loc[x].rename("x"), means.loc[y].rename("y")], axis=1, join="inner")
        label = render(row, keys, labels)
        for method in methods:
            statistic, p = correlate(joined["x"], joined["y"], method)
            out += [(label, METHODS[method][0], statistic), (label, METHODS[method][1], p)]
        out.append((label, "n", float(len(joined))))
    return value_frame(table, out)
