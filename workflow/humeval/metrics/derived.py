"""Derived frames: a measure over another measure. A study's ``derived`` entries reduce judgements (or another
derived frame) per group to one value each, and any metric reads the result by naming it as its ``frame``::

    derived:
      - id: input_scores             # each input's wins - losses per system
        where: {side: O}
        by: [item, system]
        reduce: pairwise_score
      - id: hits_per_worker          # HITs (judgements) per worker
        by: [participant]
        reduce: count_distinct
        of: judgement_id
    metrics:
      - {metric: k_sample_tests, table: t, frame: input_scores, tests: [anova, tukey]}
      - {metric: describe, table: w, frame: hits_per_worker, by: [], row: workers, column: "{stat}",
         stats: [mean, min, max]}

A derived frame has the ``by`` columns and ``value``. It imports nothing of the package but its errors.
"""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np
import pandas as pd

__all__ = ["both_positions", "derive", "unit_columns"]

#: How a group's rows become its one value: ``count`` (rows), ``count_distinct`` (distinct values of ``of``),
#: ``sum``, ``mean``, ``median``, ``min``, ``max`` (of ``of``, numbers), and over pairwise judgements taken from
#: both systems' sides: ``pairwise_score`` (wins - losses), ``win_share`` and ``tie_share``.
Reducer = Literal[
    "count", "count_distinct", "sum", "mean", "median", "min", "max", "pairwise_score", "win_share", "tie_share"
]
REDUCERS = get_args(Reducer)
PAIRWISE_REDUCERS = ("pairwise_score", "win_share", "tie_share")


def both_positions(rows: pd.DataFrame) -> pd.DataFrame:
    """The pairwise judgements of ``rows``, each twice: as judged (``value`` +1 when ``system`` won) and from
    ``system_b``'s side (the systems swapped, the value negated), so that a system's results are its rows.

    >>> rows = pd.DataFrame({"response_type": "pairwise", "system": ["a"], "system_b": ["b"], "value": [1]})
    >>> both_positions(rows)[["system", "value"]].values.tolist()
    [['a', 1], ['b', -1]]
    """
    rows = rows[rows["response_type"] == "pairwise"]
    value = pd.to_numeric(rows["value"])
    swapped = rows.assign(system=rows["system_b"], system_b=rows["system"], value=-value)
    return pd.concat([rows.assign(value=value), swapped], ignore_index=True)


def derive(rows: pd.DataFrame, *, by: list[str], reduce: str, of: str = "value") -> pd.DataFrame:
    """One row per group of ``by`` (in order of first appearance): the ``by`` columns and ``value``, the group
    reduced by ``reduce`` (:data:`Reducer`).

    >>> rows = pd.DataFrame({"response_type": "pairwise", "item": ["i1", "i1", "i2"], "system": ["a", "a", "a"],
    ...                      "system_b": ["b", "b", "b"], "value": [1, 0, -1]})
    >>> derive(rows, by=["item", "system"], reduce="pairwise_score").values.tolist()
    [['i1', 'a', 1], ['i2', 'a', -1], ['i1', 'b', -1], ['i2', 'b', 1]]
    >>> derive(rows, by=["system"], reduce="tie_share")["value"].round(4).tolist()
    [0.3333, 0.3333]
    """
    if reduce in PAIRWISE_REDUCERS:
        rows = both_positions(rows)
        value = rows["value"]
        measure = {"pairwise_score": np.sign(value), "win_share": value.gt(0), "tie_share": value.eq(0)}[reduce]
        grouped = measure.groupby([rows[c] for c in by], sort=False, dropna=False)
        out = grouped.sum() if reduce == "pairwise_score" else grouped.mean().astype(float)
    elif reduce == "count":
        out = rows.groupby(by, sort=False, dropna=False).size()
    elif reduce == "count_distinct":
        out = rows.groupby(by, sort=False, dropna=False)[of].nunique()
    else:
        out = pd.to_numeric(rows[of]).groupby([rows[c] for c in by], sort=False, dropna=False).agg(reduce)
    return out.rename("value").reset_index()


def unit_columns(spec: dict, entry: dict) -> list[str]:
    """The columns of the derived frame ``spec`` that tell apart the observations a metric ``entry`` reading it
    compares within one of its groups (its ``by`` group, and in it each sample of ``group``): ``spec``'s ``by`` less
    the entry's ``by``, its ``group``, the systems and the criterion. The unit its test runs over, which planning's
    bootstrap resamples (docs/planning.md): puduppully's per-summary scores (by criterion, summary and system; the
    Tukey test by criterion over systems) are observations of ``summary``. None for a frame of items, whose unit is
    the item.

    >>> spec = {"by": ["criterion", "summary", "system"]}
    >>> unit_columns(spec, {"by": ["criterion"]}), unit_columns({"by": ["item", "system"]}, {})
    (['summary'], [])
    """
    if "item" in spec["by"]:
        return []
    skip = {*entry.get("by", []), entry.get("group", "system"), "system", "system_b", "criterion", "side"}
    return [column for column in spec["by"] if column not in skip]
