"""Item-level CV* between experiments (ReproHum reproductions that score the same items in each experiment): the
spread of CV* (Belz, Popović & Mille 2022) over items, per system."""

from __future__ import annotations

from typing import Literal, get_args

import pandas as pd

from humeval.config.registry import register
from humeval.metrics import Columns, Frame, StudyData, groups_of, render, value_frame

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

    Notes
    -----
    Per item, CV* = (1 + 1 / (4n)) x (s / c4(n)) / |mean| x 100 over the item's n mean scores (one per side), as
    QRA's Type I (:func:`humeval.qra.precision.cv_star_entry`); an item whose mean over the sides is 0 has no CV* and is
    left out. The item-level view shows whether a system's reproducibility is even across items or rests on a
    few; the ``.test`` study's item CV* values are worked out by hand in its study file.

    References
    ----------
    Belz, Popovic & Mille (2022), "Quantified Reproducibility Assessment of NLP Results", *ACL 2022*: 16-28, eq. 2.

    Examples
    --------
    System A's item i1 has means 4 (O) and 3 (R1), CV* 28.49 as in QRA's example; i2 has 2 and 2, CV* 0: their
    mean is 14.24.

    >>> j = pd.DataFrame({"side": ["O", "O", "R1", "R1"], "item": ["i1", "i2"] * 2, "system": "A",
    ...                   "value": [4.0, 2, 3, 2]})
    >>> out = item_cv_star_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", sides=["O", "R1"], stats=["n", "mean"])
    >>> out.set_index("column")["value"].round(2).to_dict()
    {'n': 2.0, 'mean': 14.24}
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
