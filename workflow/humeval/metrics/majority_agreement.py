"""Agreement with the majority: each judgement agrees or not with its item's majority value, reduced per rater,
then over raters (how often a rater sides with the majority; a rater-level reliability screen)."""

from __future__ import annotations

from typing import Literal

import pandas as pd

from humeval.config.registry import register
from humeval.metrics import Columns, Frame, StudyData, stat_cells_per_group

__all__ = ["majority_agreement_numbers"]

#: The statistics over raters.
RaterStat = Literal["mean", "sd", "n", "min", "max"]


def rater_majority_agreement(rows: pd.DataFrame, units: list[str]) -> pd.Series:
    """Per rater (``participant``), the share of their judgements that equal their unit's majority value: the value
    more than half of the unit's judgements hold (the judgement itself counted). A unit without a strict majority
    is left out.

    >>> rows = pd.DataFrame({"participant": ["a", "b", "c", "a", "b", "c"], "item": [1, 1, 1, 2, 2, 2],
    ...                      "value": [4, 4, 5, 1, 2, 3]})
    >>> rater_majority_agreement(rows, ["item"]).to_dict()  # item 2 has no majority
    {'a': 1.0, 'b': 1.0, 'c': 0.0}
    """
    values = pd.to_numeric(rows["value"])
    keys = [rows[u] for u in units]
    counts = values.groupby([*keys, values]).transform("size")
    size = values.groupby(keys).transform("size")
    is_majority = counts * 2 > size  # this judgement's value is the unit's strict majority
    has_majority = is_majority.groupby(keys).transform("any")
    agrees = is_majority[has_majority].astype(float)
    return agrees.groupby(rows.loc[has_majority, "participant"], sort=False).mean()


@register("metric", "majority_agreement")
def majority_agreement_numbers(
    data: StudyData,
    *,
    table: str,
    row: str,
    column: str = "{stat}",
    units: Columns = ("item", "criterion", "system"),
    by: Columns = (),
    stats: list[RaterStat] = ("mean", "sd", "n"),
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Agreement with the majority per group of ``by``: each judgement agrees (1) or not (0) with its unit's strict
    majority value, averaged per rater (:func:`rater_majority_agreement`), then over the raters.

    Parameters
    ----------
    row, column : str
        Templates over the ``by`` keys and ``{stat}``.
    units : list of str
        The columns whose values make one judged unit (an item of a system on a criterion).
    by : list of str
        The columns whose values make a group (one rater distribution each).
    stats : list of {'mean', 'sd', 'n', 'min', 'max'}
        Over the raters' agreement shares: mean, sample SD (ddof 1), number of raters, smallest and largest.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one per group and statistic.

    Notes
    -----
    For rater r with judgements J_r in units that have a strict majority value m_u (held by more than half of the
    unit's judgements, the judgement itself counted), a_r = (1 / |J_r|) sum_(j in J_r) [x_j = m_u(j)]; the
    statistics are over the raters' a_r (the SD with n - 1). A unit without a strict majority is left out; the
    ReproHum notebook of van Miltenburg et al. (2023) counts its judgements as disagreeing instead, which is why
    puduppully's printed means (0.72, 0.73) are explained mismatches of 0.730 and 0.741 (its audit reproduces
    0.717 and 0.734 by that rule).

    References
    ----------
    van Miltenburg et al. (2023), ReproHum reproduction of Puduppully & Lapata (2021), repository
    evanmiltenburg/ReproHum-D2T, ``Annotator agreement.ipynb`` (``percentage_agreement.tex``).

    Examples
    --------
    Three raters on two items: item 1 (4, 4, 5) has majority 4, item 2 (1, 2, 3) none, so a = (1, 1, 0): mean 2/3,
    SD sqrt(1/3) = 0.5774, 3 raters.

    >>> j = pd.DataFrame({"side": "O", "participant": ["a", "b", "c"] * 2, "item": [1, 1, 1, 2, 2, 2],
    ...                   "value": [4, 4, 5, 1, 2, 3]})
    >>> out = majority_agreement_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", row="{side}", units=["item"],
    ...                                  by=["side"])
    >>> out.set_index("column")["value"].round(4).to_dict()
    {'mean': 0.6667, 'sd': 0.5774, 'n': 3.0}
    """

    def compute(part: pd.DataFrame) -> dict:
        shares = rater_majority_agreement(part, list(units))
        summary = {"mean": shares.mean(), "sd": shares.std(ddof=1), "min": shares.min(), "max": shares.max()}
        return {**{k: float(v) for k, v in summary.items()}, "n": float(len(shares))}

    return stat_cells_per_group(data, compute, stats, table, by, row, column, labels, where, frame, variant)
