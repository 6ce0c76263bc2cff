"""Item-totals forms (:mod:`humeval.metrics.item_totals`) of the ratings metrics: ``describe`` (mean, SD, n, sum)
and ``significance`` (Student's and Welch's t) from per-item counts, sums and sums of squares, and Spearman's rho of
per-item values under any item multiplicities (:func:`spearman_draws`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, render
from humeval.metrics.item_totals import ItemTotals, NoForm, item_codes, nan_where

__all__ = ["describe_totals", "significance_totals", "spearman_draws"]


def numeric_rows(data: StudyData, frame: str, variant: str | None, where: dict | None) -> pd.DataFrame:
    """The rows a ratings metric reads, with numeric values; :class:`NoForm` where a variant or a derived frame
    is read (their rows are not the pilot's items) or a value is not a number."""
    if variant is not None or frame not in ("kept", "tidy"):
        raise NoForm(f"frame {frame!r}, variant {variant!r}")
    rows = data.rows(frame, variant, where)
    values = pd.to_numeric(rows["value"], errors="coerce")
    if values.isna().any():
        raise NoForm("a value that is not a number")
    return rows.assign(value=values.to_numpy(dtype=float))


def group_codes(rows: pd.DataFrame, by: list) -> tuple[np.ndarray, list[dict]]:
    """Each row's group of ``by`` (0-based, in order of first appearance, as :func:`humeval.metrics.groups_of`) and
    each group's keys."""
    if not by:
        return np.zeros(len(rows), dtype=int), [{}]
    code = rows.groupby(by, sort=False).ngroup().to_numpy()
    if (code < 0).any():
        raise NoForm("a missing group key")
    keys = rows[by].drop_duplicates().to_dict("records")
    return code, keys


def moments(code: np.ndarray, n_items: int, group: np.ndarray, n_groups: int, values: np.ndarray) -> np.ndarray:
    """items x 3G: per item and group, the count, sum and sum of squares of ``values`` (n, sum x, sum x^2)."""
    flat = code * n_groups + group
    size = n_items * n_groups
    parts = [np.bincount(flat, weights=w, minlength=size) for w in (np.ones_like(values), values, values**2)]
    return np.hstack([part.reshape(n_items, n_groups) for part in parts])


def mean_and_variance(totals: np.ndarray, n_groups: int):
    """Per draw and group: n, the mean and the sample variance (ddof 1) from the totals of :func:`moments`; NaN
    where a group has no value (mean) or one (variance)."""
    n, total, squares = totals[:, :n_groups], totals[:, n_groups : 2 * n_groups], totals[:, 2 * n_groups :]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, total / n, np.nan)
        variance = np.where(n > 1, np.maximum(squares - n * mean**2, 0.0) / (n - 1), np.nan)
    return n, mean, variance


def describe_totals(
    data: StudyData,
    *,
    table: str,
    by: list,
    row: str,
    column: str,
    stats=("mean", "sd"),
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
    **declined,
) -> ItemTotals:
    """:func:`humeval.metrics.descriptive.describe_numbers` for ``mean``, ``sd`` (ddof 1), ``n`` and ``sum``: per
    item and group its count, sum and sum of squares; mean S/n, variance (Q - n mean^2) / (n - 1)."""
    if declined or set(stats) - {"mean", "sd", "n", "sum"}:
        raise NoForm(f"describe with {sorted(declined) or sorted(stats)}")
    rows = numeric_rows(data, frame, variant, where)
    group, keys = group_codes(rows, list(by))
    code, items = item_codes(rows["item"])
    per_item = moments(code, len(items), group, len(keys), rows["value"].to_numpy())
    names = [
        [(render(row, {**k, "stat": stat}, labels), render(column, {**k, "stat": stat}, labels)) for stat in stats]
        for k in keys
    ]

    def cells(totals):
        n, mean, variance = mean_and_variance(totals, len(keys))
        found = {"n": n, "sum": totals[:, len(keys) : 2 * len(keys)], "mean": mean, "sd": np.sqrt(variance)}
        return {
            (table, *name): nan_where(found[stat][:, g], n[:, g] == 0)
            for g in range(len(keys))
            for stat, name in zip(stats, names[g])
        }

    return ItemTotals(items, per_item, cells)


def significance_totals(
    data: StudyData,
    *,
    table: str,
    compare: str,
    pairs: list,
    tests: list,
    row: str,
    by: list = (),
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
    **declined,
) -> ItemTotals:
    """:func:`humeval.metrics.significance.significance_numbers` for Student's and Welch's t (scipy's
    ``ttest_ind``) without a correction: per item, group and pair member the count, sum and sum of squares. Student:
    t = (m_a - m_b) / sqrt(s_p^2 (1/n_a + 1/n_b)), s_p^2 the pooled variance, df n_a + n_b - 2; Welch: se^2 =
    v_a/n_a + v_b/n_b, df by Welch-Satterthwaite; the 95% interval of m_a - m_b as scipy's ``confidence_interval``.
    A group whose member has fewer than 2 values is NaN (the metric refuses the data)."""
    if declined or any(t["test"] not in ("student_t", "welch_t") or t.get("correction") for t in tests):
        raise NoForm("significance with other tests or options")
    rows = numeric_rows(data, frame, variant, where)
    group, keys = group_codes(rows, list(by))
    code, items = item_codes(rows["item"])
    member = rows[compare].to_numpy()
    blocks = []
    for a, b in pairs:
        for value in (a, b):
            on = member == value
            blocks.append(moments(code[on], len(items), group[on], len(keys), rows["value"].to_numpy()[on]))
    per_item = np.hstack(blocks)
    width = 3 * len(keys)

    def cells(totals):
        from scipy import stats

        out = {}
        for p, (a, b) in enumerate(pairs):
            n_a, m_a, v_a = mean_and_variance(totals[:, 2 * p * width : (2 * p + 1) * width], len(keys))
            n_b, m_b, v_b = mean_and_variance(totals[:, (2 * p + 1) * width : (2 * p + 2) * width], len(keys))
            enough = (n_a >= 2) & (n_b >= 2)
            for spec in tests:
                with np.errstate(invalid="ignore", divide="ignore"):
                    if spec["test"] == "student_t":
                        df = n_a + n_b - 2
                        se = np.sqrt(((n_a - 1) * v_a + (n_b - 1) * v_b) / df * (1 / n_a + 1 / n_b))
                    else:
                        se = np.sqrt(v_a / n_a + v_b / n_b)
                        df = se**4 / ((v_a / n_a) ** 2 / (n_a - 1) + (v_b / n_b) ** 2 / (n_b - 1))
                    t = (m_a - m_b) / se
                    alternative = spec.get("alternative", "two-sided")
                    if alternative == "two-sided":
                        p_value, q = 2 * stats.t.sf(np.abs(t), df), stats.t.ppf(0.975, df)
                        low, high = m_a - m_b - q * se, m_a - m_b + q * se
                    else:
                        q = stats.t.ppf(0.95, df)
                        greater = alternative == "greater"
                        p_value = stats.t.sf(t, df) if greater else stats.t.cdf(t, df)
                        low = m_a - m_b - q * se if greater else np.full_like(t, -np.inf)
                        high = np.full_like(t, np.inf) if greater else m_a - m_b + q * se
                found = {"statistic": t, "df": df, "p": p_value, "ci_low": low, "ci_high": high}
                unknown = sorted(set(spec["columns"]) - set(found))
                if unknown:
                    raise HumevalError(f"test {spec['test']} gives no {unknown}; it gives {sorted(found)}")
                for g, k in enumerate(keys):
                    label = render(row, {**k, "a": a, "b": b}, labels)
                    for stat, col in spec["columns"].items():
                        out[(table, label, col)] = nan_where(found[stat][:, g], ~enough[:, g])
        return out

    return ItemTotals(items, per_item, cells)


def weighted_ranks(multiplicity: np.ndarray, x: np.ndarray) -> np.ndarray:
    """S x items: each item's average rank (1-based, ties share the mean rank) among the values ``x`` where item i
    appears ``multiplicity[s, i]`` times in draw s: the items of a smaller value, plus (copies + 1) / 2.

    >>> weighted_ranks(np.array([[1.0, 1, 1], [2, 0, 1]]), np.array([5.0, 3, 5])).tolist()
    [[2.5, 1.0, 2.5], [2.0, 0.5, 2.0]]
    """
    classes, code = np.unique(x, return_inverse=True)
    indicator = np.zeros((x.size, classes.size))
    indicator[np.arange(x.size), code] = 1.0
    copies = multiplicity @ indicator
    return ((np.cumsum(copies, axis=1) - copies) + (copies + 1) / 2)[:, code]


def spearman_draws(multiplicity: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spearman's rho and its two-sided p (scipy's ``spearmanr``: Pearson's r of the average ranks, t = r sqrt((n -
    2) / ((1 + r)(1 - r))) on n - 2 df) of the paired per-item values ``x`` and ``y`` in each draw (S x items
    multiplicities; an item drawn k times is k pairs). Items where either is NaN are left out, as an inner join
    leaves them."""
    from scipy import stats

    both = ~(np.isnan(x) | np.isnan(y))
    weight, x, y = multiplicity[:, both], x[both], y[both]
    n = weight.sum(axis=1)
    rank_x, rank_y = weighted_ranks(weight, x), weighted_ranks(weight, y)
    centre = ((n + 1) / 2)[:, None]  # the mean of ranks 1..n
    with np.errstate(invalid="ignore", divide="ignore"):
        covariance = (weight * (rank_x - centre) * (rank_y - centre)).sum(axis=1)
        spread = np.sqrt((weight * (rank_x - centre) ** 2).sum(axis=1) * (weight * (rank_y - centre) ** 2).sum(axis=1))
        rho = covariance / spread
        t = rho * np.sqrt(((n - 2) / ((rho + 1.0) * (1.0 - rho))).clip(0))
    return rho, 2 * stats.t.sf(np.abs(t), n - 2)
