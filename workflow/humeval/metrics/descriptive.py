"""Descriptive statistics of judgement values by any grouping (means and SDs of a ratings table)."""

from __future__ import annotations

from typing import Literal

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import Columns, Frame, StudyData, groups_of, render, value_frame

__all__ = ["describe_numbers"]

STATISTICS = {
    "mean": lambda v: v.mean(),
    "sd": lambda v: v.std(ddof=1),
    "median": lambda v: v.median(),
    "n": lambda v: float(v.size),
    "sum": lambda v: v.sum(),
    "min": lambda v: v.min(),
    "max": lambda v: v.max(),
}
#: The statistics ``describe`` computes: :data:`STATISTICS`, and ``share`` (of the values in ``share_of``).
Statistic = Literal["mean", "sd", "median", "n", "sum", "min", "max", "share"]
#: What an empty group gives with ``complete: true`` (the rest are left empty).
EMPTY_GROUP = {"n": 0.0, "sum": 0.0, "share": float("nan")}


@register("metric", "describe")
def describe_numbers(
    data: StudyData,
    *,
    table: str,
    by: Columns,
    row: str,
    column: str,
    stats: list[Statistic] = ("mean", "sd"),
    share_of: list | None = None,
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
    complete: bool = False,
) -> pd.DataFrame:
    """Descriptive statistics of the judgement values per group of ``by``: one cell per group and statistic.

    Parameters
    ----------
    by : list of str
        The columns whose values make a group (``[criterion, side, system]``).
    row, column : str
        Templates over the ``by`` keys and ``{stat}`` (row ``{criterion}|{side}``, column ``{system}_{stat}``:
        Table 1 of a ratings study).
    stats : list of {'mean', 'sd', 'median', 'n', 'sum', 'min', 'max', 'share'}
        The statistics: ``sd`` is the sample SD (ddof 1); ``share`` the share of values in ``share_of``.
    share_of : list, optional
        The values ``share`` counts (the top two Likert points, or pairwise +1).
    complete : bool
        Every combination of ``by`` values the study's judgements hold gets its cells: an empty group ``n`` and
        ``sum`` 0 (a count of zero is a number, not a missing cell), its other statistics empty.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one per group and statistic.

    Notes
    -----
    mean = sum x / n; sd = sqrt(sum (x - mean)^2 / (n - 1)), the sample SD with Bessel's correction (pandas'
    default, as the papers' R and pandas print it); median the middle value (the mean of the two middle ones for
    even n); share = #{x in share_of} / n. Values are the judgements as numbers: a rank, a Likert point, a
    pairwise +1/0/-1 (whose mean is the best-worst score over appearances).

    References
    ----------
    Rice (2007), *Mathematical Statistics and Data Analysis*, 3rd ed., Duxbury (the sample variance and its
    n - 1 denominator).

    Examples
    --------
    System a rated 1, 2 and 4: mean 7/3, sd sqrt(((4 + 1 + 25) / 9) / 2) = 1.5275; a share of the top two points
    (4, 5) of 1/3.

    >>> j = pd.DataFrame({"system": "a", "value": [1.0, 2, 4]})
    >>> out = describe_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", by=["system"], row="{system}",
    ...                        column="{stat}", stats=["mean", "sd", "share"], share_of=[4, 5])
    >>> out.set_index("column")["value"].round(4).to_dict()
    {'mean': 2.3333, 'sd': 1.5275, 'share': 0.3333}
    """
    unknown = [s for s in stats if s not in STATISTICS and s != "share"]
    if unknown:
        raise HumevalError(f"metric describe: unknown statistic(s) {unknown}; known: {sorted([*STATISTICS, 'share'])}")
    rows = data.rows(frame, variant, where)
    groups = groups_of(rows, by)
    if complete and by:
        seen = {tuple(keys.values()) for keys, _ in groups}
        everything = pd.MultiIndex.from_product([pd.unique(data.tidy[b]) for b in by])
        groups += [(dict(zip(by, combo)), rows.iloc[:0]) for combo in everything if combo not in seen]
    out = []
    for keys, group in groups:
        part = pd.to_numeric(group["value"])
        if part.empty:
            for stat in stats:
                fields = {**keys, "stat": stat}
                out.append(
                    (render(row, fields, labels), render(column, fields, labels), EMPTY_GROUP.get(stat, float("nan")))
                )
            continue
        for stat in stats:
            fields = {**keys, "stat": stat}
            if stat == "share":
                if not share_of:
                    raise HumevalError("metric describe: the statistic share needs share_of (the values counted)")
                value = float(part.isin([float(v) for v in share_of]).mean())
            else:
                value = float(STATISTICS[stat](part))
            out.append((render(row, fields, labels), render(column, fields, labels), value))
    return value_frame(table, out)
