"""Descriptive statistics of judgement values by any grouping (means and SDs of a ratings table)."""

from __future__ import annotations

import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, render, value_frame

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
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """One cell per group of ``by`` and statistic: ``mean``, ``sd`` (sample SD, ddof 1), ``median``, ``n``.

    ``row`` and ``column`` are templates over the ``by`` keys and ``{stat}`` (e.g. row ``{criterion}|{side}``,
    column ``{system}_{stat}``: Table 1 of a ratings study), keys shown through ``labels``.
    """
    unknown = [s for s in stats if s not in STATISTICS]
    if unknown:
        raise HumevalError(f"metric describe: unknown statistic(s) {unknown}; known: {sorted(STATISTICS)}")
    rows = data.rows(frame, variant, where)
    values = pd.to_numeric(rows["value"])
    out = []
    for keys, part in values.groupby([rows[c] for c in by], sort=False):
        keys = dict(zip(by, keys if isinstance(keys, tuple) else (keys,)))
        for stat in stats:
            fields = {**keys, "stat": stat}
            out.append((render(row, fields, labels), render(column, fields, labels), float(STATISTICS[stat](part))))
    return value_frame(table, out)
