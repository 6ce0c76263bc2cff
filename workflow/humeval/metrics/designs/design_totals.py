"""Item-totals forms (:mod:`humeval.metrics.item_totals`) of the rating-design metrics (Santhanam & Shaikh 2019;
:mod:`humeval.metrics.designs.rating_designs`): ICC(C,k) and ICC(A,k) per participant subgroup from weighted
ANOVA sums, and the Spearman correlations of per-item modes. A draw keeps every rater and copies whole items, so an
item's row of ratings and its mode are the same in every copy: only the items' multiplicities change."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.metrics import StudyData
from humeval.metrics.designs.icc import icc_p_values
from humeval.metrics.designs.rating_designs import human_modes, subgroup_members
from humeval.metrics.item_totals import ItemTotals, NoForm
from humeval.metrics.ratings_totals import spearman_draws

__all__ = ["auto_correlation_totals", "icc_totals", "mode_correlation_totals"]


def rating_matrix(part: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The items x raters matrix of one cell (duplicate ratings averaged, as :func:`humeval.metrics.designs.icc.icc`
    does) and its items; :class:`NoForm` where a rater lacks an item (the metric refuses it)."""
    item, items = pd.factorize(part["item"])
    rater, raters = pd.factorize(part["participant"])
    cell = item * len(raters) + rater
    counts = np.bincount(cell, minlength=len(items) * len(raters))
    if (counts == 0).any() or len(items) < 2 or len(raters) < 2:
        raise NoForm("an incomplete or degenerate rating matrix")
    sums = np.bincount(cell, weights=pd.to_numeric(part["value"]).to_numpy(dtype=float), minlength=counts.size)
    return (sums / counts).reshape(len(items), len(raters)), np.asarray(items)


def icc_totals(
    data: StudyData,
    *,
    table: str,
    subgroup: str,
    conditions: list[str],
    criteria: list[str],
    side: str = "reproduction",
    time_split: dict | None = None,
) -> ItemTotals:
    """:func:`humeval.metrics.designs.icc.icc_numbers`: per item of each cell (condition x criterion, the
    subgroup's raters) 1, its row mean r_i, r_i^2, sum_j x_ij^2 and x_i1..x_ik. With n = sum m_i over a draw and g
    its grand mean: MSR = k (sum m r^2 - n g^2) / (n - 1), MSC = n sum_j (c_j - g)^2 / (k - 1) (c_j = sum m x_j /
    n), MSE = (sum m x^2 - n k g^2 - (n - 1) MSR - (k - 1) MSC) / ((n - 1)(k - 1)); then ICC(C,k), ICC(A,k) and
    their p-values as the metric computes them from the mean squares (McGraw & Wong 1996)."""
    blocks, constant = [], {}
    for condition in conditions:
        people = data.participants[(data.participants["side"] == side) & (data.participants["condition"] == condition)]
        members = set(subgroup_members(people, subgroup, time_split=(time_split or {}).get(condition, "corrected")))
        column = f"{condition}|{side}"
        constant[(table, "n", column)] = float(len(members))
        for criterion in criteria:
            part = data.cell(side, condition, criterion)
            matrix, items = rating_matrix(part[part["participant"].isin(members)])
            rows = matrix.mean(axis=1)
            stats = np.column_stack([np.ones(len(items)), rows, rows**2, (matrix**2).sum(axis=1), matrix])
            blocks.append((criterion, column, items, stats))
    distinct = pd.unique(np.concatenate([items for _, _, items, _ in blocks])) if blocks else np.array([])
    position = pd.Index(distinct)
    per_item = np.zeros((len(distinct), sum(b[3].shape[1] for b in blocks)))
    offsets, start = [], 0
    for _, _, items, stats in blocks:
        per_item[position.get_indexer(items), start : start + stats.shape[1]] = stats
        offsets.append(start)
        start += stats.shape[1]

    def cells(totals):
        out = {cell: np.full(len(totals), value) for cell, value in constant.items()}
        for (criterion, column, _, stats), offset in zip(blocks, offsets, strict=True):
            k = stats.shape[1] - 4
            block = totals[:, offset : offset + stats.shape[1]]
            n, row_sum, row_squares, squares, columns = block[:, 0], block[:, 1], block[:, 2], block[:, 3], block[:, 4:]
            with np.errstate(invalid="ignore", divide="ignore"):
                grand = row_sum / n
                msr = k * (row_squares - n * grand**2) / (n - 1)
                msc = n * ((columns / n[:, None] - grand[:, None]) ** 2).sum(axis=1) / (k - 1)
                mse = (squares - n * k * grand**2 - msr * (n - 1) - msc * (k - 1)) / ((n - 1) * (k - 1))
                consistency = (msr - mse) / msr
                agreement = (msr - mse) / (msr + (msc - mse) / n)
            p_consistency, p_agreement = icc_p_values(n, k, msr, msc, mse, agreement)
            for name, value, p in (("ICC-C", consistency, p_consistency), ("ICC-A", agreement, p_agreement)):
                out[(table, f"{name}|{criterion}", column)] = value
                out[(table, f"{name}|{criterion}|p", column)] = p
        return out

    return ItemTotals(distinct, per_item, cells)


def spearman_totals(table: str, pairs: dict) -> ItemTotals:
    """The form of Spearman cells over per-item pairs: ``pairs`` {(row, column): (x, y)} of per-item Series (an
    inner join on the item, as :func:`humeval.metrics.designs.rating_designs.spearman` makes); the per-item
    statistic is the item itself (an identity matrix), as ranks need each draw's multiplicities."""
    if any(x.index.has_duplicates or y.index.has_duplicates for x, y in pairs.values()):
        raise NoForm("an item with two values")
    distinct = pd.unique(np.concatenate([np.asarray(s.index) for x, y in pairs.values() for s in (x, y)]))
    position = pd.Index(distinct)
    aligned = {
        key: (pd.to_numeric(x).reindex(position), pd.to_numeric(y).reindex(position)) for key, (x, y) in pairs.items()
    }

    def cells(multiplicity):
        out = {}
        for (row, p_row, column), (x, y) in aligned.items():
            rho, p = spearman_draws(multiplicity, x.to_numpy(dtype=float), y.to_numpy(dtype=float))
            out[(table, row, column)], out[(table, p_row, column)] = rho, p
        return out

    return ItemTotals(np.asarray(distinct), np.eye(len(distinct)), cells)


def mode_correlation_totals(
    data: StudyData, *, table: str, conditions: list[str], side: str = "reproduction", mode_sides: dict | None = None
) -> ItemTotals:
    """:func:`humeval.metrics.designs.rating_designs.mode_correlation_numbers`: Spearman of each condition's per-item
    coherence and readability modes over the drawn items (:func:`spearman_totals`)."""
    pairs = {
        ("rho", "p", f"{condition}|{side}"): (
            human_modes(data, condition, "coherence", side, mode_sides),
            human_modes(data, condition, "readability", side, mode_sides),
        )
        for condition in conditions
    }
    return spearman_totals(table, pairs)


def auto_correlation_totals(
    data: StudyData,
    *,
    table: str,
    conditions: list[str],
    criteria: list[str],
    side: str = "reproduction",
    auto_side: str = "automatic",
    mode_sides: dict | None = None,
) -> ItemTotals:
    """:func:`humeval.metrics.designs.rating_designs.auto_correlation_numbers`: Spearman of the per-item human mode
    and the automatic score over the drawn items (:func:`spearman_totals`); the automatic side is drawn with the
    items, as planning draws every side joined on them."""
    pairs = {
        (criterion, f"{criterion}|p", f"{condition}|{side}"): (
            human_modes(data, condition, criterion, side, mode_sides),
            data.cell(auto_side, condition, criterion).set_index("item")["value"],
        )
        for condition in conditions
        for criterion in criteria
    }
    return spearman_totals(table, pairs)
