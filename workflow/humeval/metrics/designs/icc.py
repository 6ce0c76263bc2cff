"""ICC(C,k) and ICC(A,k) (McGraw & Wong 1996; R ``irr::icc(model="twoway", unit="average")``) from the two-way
ANOVA mean squares, equal to pingouin's ``intraclass_corr`` to 1e-10 (:func:`icc`): targets = items, raters =
participants, no transformation of the scores; per any grouping (``icc_by_group``) and per participant subgroup of
Santhanam & Shaikh's designs (``icc``, Table 1 and Tables 4-7 of Braggaar et al. 2022)."""

from __future__ import annotations

import logging
from typing import Literal

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.metrics import Columns, Frame, StudyData, groups_of, render, value_frame
from humeval.metrics.designs.rating_designs import subgroup_members

__all__ = ["icc", "icc_by_group_numbers", "icc_numbers", "icc_p_values"]

log = logging.getLogger(__name__)


def mean_squares(matrix: np.ndarray) -> tuple[np.float64, np.float64, np.float64]:
    """The two-way ANOVA mean squares of an items x raters matrix (complete, one rating a cell): rows (MSR),
    raters (MSC) and error (MSE). By hand for the example: row means 1.5, 3, 5.5 about 10/3, MSR = 2 x 8.1667 / 2.

    >>> [round(float(x), 4) for x in mean_squares(np.array([[1.0, 2], [3, 3], [5, 6]]))]
    [8.1667, 0.6667, 0.1667]
    """
    n, k = matrix.shape
    grand = matrix.mean()
    msr = k * ((matrix.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    msc = n * ((matrix.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    mse = (((matrix - grand) ** 2).sum() - msr * (n - 1) - msc * (k - 1)) / ((n - 1) * (k - 1))
    return msr, msc, mse  # numpy scalars: a degenerate matrix gives inf or nan, as before, not an exception


def icc_p_values(n, k, msr, msc, mse, agreement):
    """The p-values of ICC(C,k) > 0 and ICC(A,k) > 0 from the two-way mean squares of ``n`` items x ``k`` raters
    (scalars or arrays, one per draw): consistency F = MSR / MSE on (n - 1, (n - 1)(k - 1)) df; agreement as R's
    ``irr::icc`` computes it (McGraw & Wong 1996), which pingouin lacks: the same F with denominator df from
    Satterthwaite's approximation at the estimated coefficient rho, v = (a MSC + b MSE)^2 / ((a MSC)^2 / (k - 1) +
    (b MSE)^2 / ((n - 1)(k - 1))), a = k rho / (n (1 - rho)), b = 1 + k rho (n - 1) / (n (1 - rho)).

    By hand for the example: F = 8.1667 / 0.1667 = 49 and F(2, 2) has survival 1 / (1 + x), so 1/50; at rho = 0.96,
    a = 16, b = 33 and v = (10.667 + 5.5)^2 / (113.78 + 15.125) = 2.0276, a little more than 2, so a little less.

    >>> msr, msc, mse = mean_squares(np.array([[1.0, 2], [3, 3], [5, 6]]))
    >>> [round(float(p), 4) for p in icc_p_values(3, 2, msr, msc, mse, 0.96)]
    [0.02, 0.0192]
    """
    from scipy import stats

    a = k * agreement / (n * (1 - agreement))
    b = 1 + k * agreement * (n - 1) / (n * (1 - agreement))
    v = (a * msc + b * mse) ** 2 / ((a * msc) ** 2 / (k - 1) + (b * mse) ** 2 / ((n - 1) * (k - 1)))
    return stats.f.sf(msr / mse, n - 1, (n - 1) * (k - 1)), stats.f.sf(msr / mse, n - 1, v)


def icc(frame: pd.DataFrame) -> dict:
    """ICC(C,k) and ICC(A,k) (targets = items, raters = participants; McGraw & Wong 1996) and their p-values: the
    F test for consistency, the Satterthwaite-df test for agreement as R's irr reports it (:func:`icc_p_values`).

    From the items x raters matrix's two-way ANOVA mean squares (rows MSR, raters MSC, error MSE):
    ICC(C,k) = (MSR - MSE) / MSR with p = P(F(n-1, (n-1)(k-1)) > MSR / MSE), ICC(A,k) = (MSR - MSE) / (MSR +
    (MSC - MSE) / n); duplicate ratings of an item by a rater are averaged and a missing one is refused, as
    ``pingouin.intraclass_corr`` does. pingouin took 11.7 ms a call against 0.7 ms here (200 items x 40 raters,
    mean of 20 calls), and santhanam's planning calls it 37 times a simulation; ``tests/test_icc_mean_squares.py`` checks both
    coefficients and p-values against pingouin to 1e-10 on random matrices and on santhanam's conditions.
    """

    item, items = pd.factorize(frame["item"])
    rater, raters = pd.factorize(frame["participant"])
    cell = item * len(raters) + rater
    counts = np.bincount(cell, minlength=len(items) * len(raters))
    if (counts == 0).any():
        raise ValueError(
            "Either missing values are present in data or data are unbalanced (an item lacks a rater's rating)"
        )
    sums = np.bincount(cell, weights=frame["value"].to_numpy(dtype=float), minlength=counts.size)
    matrix = (sums / counts).reshape(len(items), len(raters))
    n, k = matrix.shape
    msr, msc, mse = mean_squares(matrix)
    consistency = (msr - mse) / msr
    agreement = (msr - mse) / (msr + (msc - mse) / n)
    p_consistency, p_agreement = icc_p_values(n, k, msr, msc, mse, float(agreement))
    return {"ICC-C": (float(consistency), float(p_consistency)), "ICC-A": (float(agreement), float(p_agreement))}


@register("metric", "icc_by_group")
def icc_by_group_numbers(
    data: StudyData,
    *,
    table: str,
    by: Columns,
    row: str,
    column: str,
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """ICC(C,k) and ICC(A,k) (:func:`icc`, equal to pingouin's ``intraclass_corr``: targets = items, raters =
    participants; McGraw & Wong 1996) with their p-values within each group of ``by``. Every rater must rate every item of a group.

    Parameters
    ----------
    row, column : str
        Templates over the ``by`` keys and ``{icc}`` (``ICC-C``, ``ICC-A``, ``ICC-C|p``, ``ICC-A|p``).

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): per group, the two ICCs and their p-values.

    Notes
    -----
    From the two-way ANOVA of the items x raters matrix (n items, k raters; :func:`mean_squares`): ICC(C,k) =
    (MSR - MSE) / MSR and ICC(A,k) = (MSR - MSE) / (MSR + (MSC - MSE) / n), McGraw & Wong's average-measures
    consistency and absolute-agreement forms (Shrout & Fleiss' ICC(3,k) and ICC(2,k)). ICC(C,k)'s p is the F
    test F = MSR / MSE on n - 1 and (n - 1)(k - 1) degrees of freedom; ICC(A,k)'s the same F on Satterthwaite's
    denominator degrees of freedom, as R's ``irr::icc`` reports it (:func:`icc_p_values`). The coefficients and
    p-values equal pingouin's ``intraclass_corr`` to 1e-10 (``tests/test_icc_mean_squares.py``); santhanam's
    ICCs and ICC(C,k) p-values equal R's ``psych::ICC`` (ICC3k, ICC2k) to 1e-9 (``tests/test_e2e_r_crosscheck.py``).

    References
    ----------
    McGraw & Wong (1996), *Psychological Methods* 1(1): 30-46, Table 4; Shrout & Fleiss (1979), *Psychological
    Bulletin* 86(2): 420-428.

    Examples
    --------
    Three items rated by two raters, (1, 2), (3, 3), (5, 6): MSR = 8.1667, MSC = 0.6667, MSE = 0.1667, so ICC(C,k)
    = 8 / 8.1667 = 0.9796 and ICC(A,k) = 8 / (8.1667 + 0.5 / 3) = 0.96; F = 49 on (2, 2) df has p = 1 / 50.

    >>> j = pd.DataFrame({"side": "O", "item": [1, 1, 2, 2, 3, 3], "participant": ["a", "b"] * 3,
    ...                   "value": [1, 2, 3, 3, 5, 6]})
    >>> out = icc_by_group_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", by=["side"], row="{side}",
    ...                            column="{icc}")
    >>> out.set_index("column")["value"].round(4).to_dict()
    {'ICC-C': 0.9796, 'ICC-C|p': 0.02, 'ICC-A': 0.96, 'ICC-A|p': 0.0192}
    """
    rows = data.rows(frame, variant, where)
    out = []
    for keys, part in groups_of(rows, by):
        for name, (value, p) in icc(part.assign(value=pd.to_numeric(part["value"]))).items():
            for label, number in ((name, value), (f"{name}|p", p)):
                fields = {**keys, "icc": label}
                out.append((render(row, fields, labels), render(column, fields, labels), number))
    return value_frame(table, out)


@register("metric", "icc")
def icc_numbers(
    data: StudyData,
    *,
    table: str,
    subgroup: Literal["all", "above", "below", "q1yes", "q1no", "q2yes", "q2no"],
    conditions: list[str],
    criteria: list[str],
    side: str = "reproduction",
    time_split: dict[str, Literal["published", "corrected"]] | None = None,
) -> pd.DataFrame:
    """An ICC table of one participant subgroup (Santhanam & Shaikh 2019 reproduction, Table 1): ICC(C,k) and
    ICC(A,k) (pingouin) per criterion and condition. Bespoke (beside ``icc_by_group``) because the subgroups are
    participant metadata with the authors' spreadsheet time split, which a ``where`` filter cannot express.

    Parameters
    ----------
    subgroup : {'all', 'above', 'below', 'q1yes', 'q1no', 'q2yes', 'q2no'}
        The participants: all, above or below the mean completion time, or by their answer to question 1 or 2.
    criteria : list of str
        The criteria, one row pair each.
    time_split : dict of str to {'published', 'corrected'}, optional
        Condition -> how ``above``/``below`` split the times: ``published`` (the authors' unanchored spreadsheet
        range) or ``corrected`` (the mean; default).

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows ``<ICC-C|ICC-A>|<criterion>`` (and ``...|p``) and ``n``, columns
        ``<condition>|<side>``.

    Notes
    -----
    Within each condition, the participants of ``side`` in the subgroup (all; above or below the mean completion
    time, or the authors' spreadsheet split with ``published``; by their yes/no answer to question 1 or 2), and per
    criterion the ICC(C,k) and ICC(A,k) of their items x raters matrix with p-values, as :func:`icc` computes them:
    ICC(C,k) = (MSR - MSE) / MSR and ICC(A,k) = (MSR - MSE) / (MSR + (MSC - MSE) / n) from the two-way ANOVA mean
    squares; ``n`` is the subgroup's size. Every ICC of santhanam's Tables 1-7, and every ICC(C,k) p, on the
    matrices its run computed, equals R's ``psych::ICC`` (ICC3k, ICC2k) to 1e-9 (``tests/test_e2e_r_crosscheck.py``).

    References
    ----------
    Santhanam & Shaikh (2019), *Towards Best Experiment Design for Evaluating Dialogue System Output*, INLG 2019;
    Braggaar et al. (2022), *A reproduction study of methods for evaluating dialogue system output*, INLG 2022,
    Tables 1-7; McGraw & Wong (1996), *Psychological Methods* 1(1): 30-46.

    Examples
    --------
    One condition, two raters of three items, (1, 2), (3, 3), (5, 6), as in :func:`icc_by_group_numbers`: ICC(C,k)
    = 8 / 8.1667 = 0.9796, ICC(A,k) = 8 / (8.1667 + 0.5 / 3) = 0.96, n = 2.

    >>> j = pd.DataFrame({"side": "reproduction", "condition": "likert", "criterion": "readability",
    ...                   "item": [1, 1, 2, 2, 3, 3], "participant": ["a", "b"] * 3, "value": [1.0, 2, 3, 3, 5, 6]})
    >>> people = pd.DataFrame({"side": "reproduction", "condition": "likert", "participant": ["a", "b"],
    ...                        "row": [1, 2]})
    >>> out = icc_numbers(StudyData(j, j, people, j.iloc[:0]), table="t", subgroup="all", conditions=["likert"],
    ...                   criteria=["readability"])
    >>> out.set_index("row")["value"].round(4).to_dict()
    {'n': 2.0, 'ICC-C|readability': 0.9796, 'ICC-C|readability|p': 0.02, 'ICC-A|readability': 0.96, 'ICC-A|readability|p': 0.0192}
    """
    out = []
    for condition in conditions:
        people = data.participants[(data.participants["side"] == side) & (data.participants["condition"] == condition)]
        split = (time_split or {}).get(condition, "corrected")
        members = set(subgroup_members(people, subgroup, time_split=split))
        column = f"{condition}|{side}"
        log.info("%s: ICC of %s, subgroup %s (%d participants)", table, condition, subgroup, len(members))
        out.append(("n", column, float(len(members))))
        for criterion in criteria:
            part = data.cell(side, condition, criterion)
            for name, (value, p) in icc(part[part["participant"].isin(members)]).items():
                out += [(f"{name}|{criterion}", column, value), (f"{name}|{criterion}|p", column, p)]
    return value_frame(table, out)
