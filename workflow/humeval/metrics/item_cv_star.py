"""Item-level CV* between experiments (ReproHum reproductions that score the same items in each experiment): the
spread of CV* (Belz, Popović & Mille 2022) over items, per system."""

from __future__ import annotations

from typing import Literal, get_args

import pandas as pd

from humeval.metrics import Columns, Frame, StudyData, groups_of, render, value_frame
from humeval.vocabulary import register

__all__ = ["item_cv_star_numbers"]

#: The summaries of item-level CV* per system.
ItemCvStat = Literal["n", "mean", "median", "sd"]
ITEM_CV_STATS = get_args(ItemCvStat)


@register("metric", "item_cv_star")
def item_cv_star_numbers(
    data: StudyData,
    *,
    table: str,
    sides: list[str],
    row: str = "{system}",
    column: str = "{stat}",
    units: Columns = ("item",),
    by: Columns = (),
    shift: float = 0.0,
    stats: list[ItemCvStat] = ITEM_CV_STATS,
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Item-level CV* between experiments: per item and system, the CV* (Belz, Popović & Mille 2022, with the
    small-sample correction; :func:`humeval.cv_star.cv_star_rows`) of the item's mean score in each of the
    ``sides``, summarised per system over the items every side scored.

    Parameters
    ----------
    sides : list of str
        The experiments compared (two or more).
    row, column : str
        Templates over the ``by`` keys, ``{system}`` and ``{stat}``.
    units : list of str
        The columns that make an item.
    shift : float
        Added to every score before CV* (a scale that starts at 1: -1).
    stats : list of {'n', 'mean', 'median', 'sd'}
        The summaries of the item CV* values (``sd`` with ddof 1).

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one per group, system and statistic.
    """
    from humeval.cv_star import cv_star_rows

    rows = data.rows(frame, variant, where)
    rows = rows[rows["side"].isin(sides)]
    out = []
    for keys, part in groups_of(rows, by):
        scores = (
            part.assign(value=pd.to_numeric(part["value"]))
            .groupby([*units, "system", "side"], sort=False)["value"]
            .mean()
            .unstack("side")
            .reindex(columns=list(sides))
            .dropna()
        )
        for system, items in scores.groupby(level="system", sort=False):
            values = pd.Series(cv_star_rows(items.to_numpy(), shift)).dropna()
            summary = {
                "n": float(values.size),
                "mean": values.mean(),
                "median": values.median(),
                "sd": values.std(ddof=1),
            }
            for stat in stats:
                fields = {**keys, "system": system, "stat": stat}
                out.append((render(row, fields, labels), render(column, fields, labels), float(summary[stat])))
    return value_frame(table, out)
