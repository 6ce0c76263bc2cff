"""Descriptive statistics of judgement values by any grouping (means and SDs of a ratings table)."""

from __future__ import annotations

import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, groups_of, render, value_frame

STATISTICS = {
    "mean": lambda v: v.mean(),
    "sd": lambda v: v.std(ddof=1),
    "median": lambda v: v.median(),
    "n": lambda v: float(v.size),
}


def describe_numbers(
    data: StudyData,
    *,
    table: str,
    by: list[str],
    row: str,
    column: str,
    stats: list[str] = ("mean", "sd"),
    share_of: list | None = None,
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """One cell per group of ``by`` and statistic: ``mean``, ``sd`` (sample SD, ddof 1), ``median``, ``n``,
    ``share`` (the share of values in ``share_of``, e.g. the top two Likert points, or pairwise +1).

    ``row`` and ``column`` are templates over the ``by`` keys and ``{stat}`` (e.g. row ``{criterion}|{side}``,
    column ``{system}_{stat}``: Table 1 of a ratings study), keys shown through ``labels``.
    """
    unknown = [s for s in stats if s not in STATISTICS and s != "share"]
    if unknown:
        raise HumevalError(f"metric describe: unknown statistic(s) {unknown}; known: {sorted([*STATISTICS, 'share'])}")
    rows = data.rows(frame, variant, where)
    out = []
    for keys, group in groups_of(rows, by):
        part = pd.to_numeric(group["value"])
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
