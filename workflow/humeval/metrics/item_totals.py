"""Metrics whose cells are functions of sums over items, computed for many item resamples at once.

Planning's bootstrap (:class:`humeval.planning_bootstrap.Simulator`) keeps every judgement of each drawn item, so a draw is
the pilot's items with multiplicities m (one row of an S x I matrix M). Where a metric's cells are g(sum_i m_i t_i)
for per-item statistics t_i, all S draws are g(M T): one matrix product instead of S runs of the metric on S
relabelled frames. Each form below gives T (:class:`ItemTotals`) and g for one registered metric, with the same
parameters; planning checks them against the metric itself on one simulated data set in every run, and
``tests/test_item_totals.py`` on random draws. The forms cover the findings of hosking (relative preference), liu
(preference shares), shardlow (rank table) and yao (means and SDs, Student t): 9, 17, 15 and 17 ms a simulation by
the metric. A form declines parameters it does not cover (:class:`NoForm`), and those draws run the metric.

A cell the metric would leave out of a draw (a system or baseline no drawn item shows) is NaN, as a missing cell
is to planning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, render
from humeval.metrics.pairwise import OUTCOMES, majority_vote, preference_outcomes
from humeval.metrics.ranking import average_rank, find_aggregate, published_aggregate_counts

Cell = tuple[str, str, str]


class NoForm(Exception):
    """The metric's parameters are outside what its item-totals form computes: run the metric on each draw."""


@dataclass
class ItemTotals:
    """Per-item statistics ``per_item`` (items x K, rows in the order of ``items``) and ``cells``, which maps
    their totals over any draws (S x K) to each cell's value per draw ({(table, row, column): S values})."""

    items: np.ndarray
    per_item: np.ndarray
    cells: Callable[[np.ndarray], dict[Cell, np.ndarray]]

    def values(self, multiplicity: np.ndarray) -> dict[Cell, np.ndarray]:
        """The cells for each draw, given each draw's multiplicity of each of ``items`` (S x items)."""
        return self.cells(multiplicity @ self.per_item)


def item_codes(items: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Each row's item code and the distinct items, in order of first appearance."""
    code, distinct = pd.factorize(items)
    return code, np.asarray(distinct)


def per_item_counts(code: np.ndarray, n_items: int, column: np.ndarray, n_columns: int) -> np.ndarray:
    """items x columns: how many rows of each item fall in each column (``column`` per row, 0-based)."""
    flat = np.bincount(code * n_columns + column, minlength=n_items * n_columns)
    return flat.reshape(n_items, n_columns).astype(float)


def nan_where(values: np.ndarray, absent: np.ndarray) -> np.ndarray:
    return np.where(absent, np.nan, values)


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


def relative_preference_totals(
    data: StudyData,
    *,
    table: str,
    side: str,
    column: str,
    score_column: str | None = None,
    per_appearance_suffix: str | None = None,
) -> ItemTotals:
    """:func:`humeval.metrics.pairwise.relative_preference_numbers`: per item, its majority vote's win, loss and
    appearance of each system and 1 (the vote); cells 100 (wins - losses) / votes, wins - losses and
    100 (wins - losses) / appearances."""
    judgements = data.kept[(data.kept["side"] == side) & (data.kept["response_type"] == "pairwise")]
    if judgements.empty:
        raise HumevalError(f"metric relative_preference: no pairwise judgements on side {side!r}")
    votes = majority_vote(judgements)
    labels = data.system_labels()
    systems = [code for code in labels if code in set(votes["system"]) | set(votes["system_b"])]
    index = {code: k for k, code in enumerate(systems)}
    n = len(systems)
    per_item = np.zeros((len(votes), 3 * n + 1))
    rows = np.arange(len(votes))
    first, second = votes["system"].map(index).to_numpy(), votes["system_b"].map(index).to_numpy()
    vote = votes["vote"].to_numpy()
    for position, other_sign in ((first, 1), (second, -1)):
        known = ~pd.isna(position)
        where, at = rows[known], position[known].astype(int)
        np.add.at(per_item, (where, at), (other_sign * vote[known]) > 0)  # wins
        np.add.at(per_item, (where, n + at), (other_sign * vote[known]) < 0)  # losses
        np.add.at(per_item, (where, 2 * n + at), 1.0)  # appearances
    per_item[:, -1] = 1.0

    def cells(totals):
        wins, losses, appearances = totals[:, :n], totals[:, n : 2 * n], totals[:, 2 * n : 3 * n]
        score, absent = wins - losses, appearances == 0
        out = {}
        for k, code in enumerate(systems):
            label = labels[code]
            out[(table, label, column)] = nan_where(100.0 * score[:, k] / totals[:, -1], absent[:, k])
            if score_column:
                out[(table, label, score_column)] = nan_where(score[:, k], absent[:, k])
            if per_appearance_suffix:
                with np.errstate(invalid="ignore", divide="ignore"):
                    share = 100.0 * score[:, k] / appearances[:, k]
                out[(table, label + per_appearance_suffix, column)] = nan_where(share, absent[:, k])
        return out

    return ItemTotals(votes["item"].to_numpy(), per_item, cells)


def preference_share_totals(
    data: StudyData,
    *,
    table: str,
    side: str,
    focus: str,
    columns: dict[str, str],
    row: str = "{system}",
    frame: str = "kept",
    scale: str = "proportion",
) -> ItemTotals:
    """:func:`humeval.metrics.pairwise.preference_share_numbers`: per item, its judgements per baseline and
    outcome; cells each outcome's count over its baseline's."""
    source = data.kept if frame == "kept" else data.tidy
    judgements = source[(source["side"] == side) & (source["response_type"] == "pairwise")]
    if judgements.empty:
        raise HumevalError(f"metric preference_shares: no pairwise judgements on side {side!r}")
    outcomes = preference_outcomes(judgements, focus)
    counted = outcomes["outcome"].notna().to_numpy()
    code, items = item_codes(judgements["item"][counted])
    baselines, baseline = np.unique(outcomes["baseline"][counted].astype(str).to_numpy(), return_inverse=True)
    outcome = pd.Categorical(outcomes["outcome"][counted], categories=list(OUTCOMES)).codes
    per_item = per_item_counts(code, len(items), baseline * len(OUTCOMES) + outcome, len(baselines) * len(OUTCOMES))
    labels = data.system_labels()
    ordered = [c for c in labels if c in baselines] + [c for c in baselines if c not in labels]
    factor = 100.0 if scale == "percent" else 1.0

    def cells(totals):
        counts = totals.reshape(len(totals), len(baselines), len(OUTCOMES))
        with np.errstate(invalid="ignore", divide="ignore"):
            shares = factor * counts / counts.sum(axis=2, keepdims=True)
        position = {c: k for k, c in enumerate(baselines)}
        return {
            (table, row.format(system=labels.get(c, c)), label): shares[:, position[c], OUTCOMES.index(outcome)]
            for c in ordered
            for outcome, label in columns.items()
        }

    return ItemTotals(items, per_item, cells)


def rank_table_totals(data: StudyData, *, table: str, sides: list[dict]) -> ItemTotals:
    """:func:`humeval.metrics.ranking.rank_table_numbers`: per item, its rank rows per system and rank; cells the
    counts and r_s = sum_i i f(s, i) / sum_i f(s, i). A side given by published counts gives the same cells in
    every draw."""
    labels = data.system_labels()
    blocks, constant, items = [], {}, []
    for spec in sides:
        if "aggregate" in spec:
            counts = published_aggregate_counts(data.published, find_aggregate(data.config, spec["aggregate"]))
            constant.update({(table, s, spec["avg_column"]): float(v) for s, v in average_rank(counts).items()})
            continue
        kept = data.kept[(data.kept["side"] == spec["side"]) & (data.kept["response_type"] == "rank")]
        systems, system = np.unique(kept["system"].astype(str).to_numpy(), return_inverse=True)
        ranks, rank = np.unique(kept["value"].astype(int).to_numpy(), return_inverse=True)
        blocks.append((spec, kept["item"].to_numpy(), system * len(ranks) + rank, systems, ranks))
        items.append(kept["item"].to_numpy())
    code, distinct = item_codes(pd.Series(np.concatenate(items) if items else np.array([], dtype=object)))
    offsets, parts, start = [], [], 0
    for spec, block_items, column, systems, ranks in blocks:
        width = len(systems) * len(ranks)
        rows = code[start : start + len(block_items)]
        start += len(block_items)
        parts.append(per_item_counts(rows, len(distinct), column, width))
        offsets.append(sum(p.shape[1] for p in parts[:-1]))
    per_item = np.hstack(parts) if parts else np.zeros((len(distinct), 0))

    def cells(totals):
        out = {}
        for (spec, _, _, systems, ranks), offset in zip(blocks, offsets, strict=True):
            counts = totals[:, offset : offset + len(systems) * len(ranks)].reshape(len(totals), len(systems), -1)
            present, seen = counts.sum(axis=2) > 0, counts.sum(axis=1) > 0  # a system's rows, a rank's column
            with np.errstate(invalid="ignore", divide="ignore"):
                average = (counts * ranks).sum(axis=2) / counts.sum(axis=2)
            for k, system in enumerate(systems):
                label = labels.get(system, system)
                if spec.get("counts_column"):
                    for j, rank in enumerate(ranks):
                        count = nan_where(counts[:, k, j], ~present[:, k] | ~seen[:, j])
                        out[(table, label, spec["counts_column"].format(rank=rank))] = count
                out[(table, label, spec["avg_column"])] = nan_where(average[:, k], ~present[:, k])
        for cell, value in constant.items():
            out[cell] = np.full(len(totals), value)
        return out

    return ItemTotals(distinct, per_item, cells)


#: The metrics that have an item-totals form, by their registered name.
ITEM_TOTALS = {
    "relative_preference": relative_preference_totals,
    "preference_shares": preference_share_totals,
    "rank_table": rank_table_totals,
    "describe": describe_totals,
    "significance": significance_totals,
}
