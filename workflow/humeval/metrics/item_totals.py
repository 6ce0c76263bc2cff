"""Metrics whose cells are functions of sums over items, computed for many item resamples at once.

Planning's bootstrap (:class:`humeval.planning.bootstrap.Simulator`) keeps every judgement of each drawn item, so a draw is
the pilot's items with multiplicities m (one row of an S x I matrix M). Where a metric's cells are g(sum_i m_i t_i)
for per-item statistics t_i, all S draws are g(M T): one matrix product instead of S runs of the metric on S
relabelled frames. Each form below gives T (:class:`ItemTotals`) and g for one registered metric, with the same
parameters; planning checks them against the metric itself on one simulated data set in every run, and
``tests/test_item_totals.py`` on random draws. This module holds the common parts and the pairwise and rank forms
(hosking's relative preference, liu's preference shares, arvan's and lux's tallies, shardlow's rank table);
:mod:`humeval.metrics.ratings_totals` the ratings forms (yao's means, SDs and t tests) and :mod:`humeval.metrics.designs.design_totals` the rating-design
forms (santhanam's ICCs and mode correlations); :data:`humeval.metrics.item_totals_forms.ITEM_TOTALS` lists them by
metric. By the metric, a simulation took 9, 17, 15, 17 and 270 ms. A form declines parameters it does not cover
(:class:`NoForm`), and those draws run the metric.

A cell the metric would leave out of a draw (a system or baseline no drawn item shows) is NaN, as a missing cell
is to planning.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import get_args

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import SCALES, StudyData, groups_of, render
from humeval.metrics.pairwise import OUTCOMES, majority_vote, preference_outcomes
from humeval.metrics.ranking import average_rank, find_aggregate, published_aggregate_counts
from humeval.metrics.tally import PERCENT_STATS, TALLY_STATS, TallyStat

__all__ = [
    "ItemTotals",
    "NoForm",
    "item_codes",
    "nan_where",
    "pairwise_tally_totals",
    "per_item_counts",
    "preference_share_totals",
    "rank_table_totals",
    "relative_preference_totals",
]

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
    #: scipy evaluations per draw that ``cells`` makes one draw at a time (Tukey's p), for planning's budget
    #: (:mod:`humeval.planning.budget`)
    calls: int = 0

    def values(self, multiplicity: np.ndarray) -> dict[Cell, np.ndarray]:
        """The cells for each draw, given each draw's multiplicity of each of ``items`` (S x items)."""
        return self.cells(multiplicity @ self.per_item)


def item_codes(items: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Each row's item code and the distinct items, in order of first appearance."""
    code, distinct = pd.factorize(items)
    return code, np.asarray(distinct)


def per_item_counts(
    code: np.ndarray, n_items: int, column: np.ndarray, n_columns: int, weights: np.ndarray | None = None
) -> np.ndarray:
    """items x columns: how many rows of each item fall in each column (``column`` per row, 0-based), or the sum of
    their ``weights``."""
    flat = np.bincount(code * n_columns + column, weights=weights, minlength=n_items * n_columns)
    return flat.reshape(n_items, n_columns).astype(float)


def nan_where(values: np.ndarray, absent: np.ndarray) -> np.ndarray:
    return np.where(absent, np.nan, values)


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


@functools.lru_cache(maxsize=65536)
def sign_test_p(wins: int, decided: int) -> float:
    """The two-sided exact sign test's p of ``wins`` in ``decided`` wins and losses (scipy's ``binomtest``, p =
    0.5), 1 without any, as :func:`humeval.metrics.tally.pairwise_tally` computes it; kept per (wins, decided),
    which a bootstrap's draws repeat (lux: 200 draws x 4 systems, about 60 distinct pairs)."""
    from scipy.stats import binomtest

    return binomtest(wins, decided).pvalue if decided > 0 else 1.0


def pairwise_tally_totals(
    data: StudyData,
    *,
    table: str,
    row: str = "{system}",
    column: str = "{stat}",
    stats=TALLY_STATS,
    by=(),
    majority: bool = False,
    scale: str = "percent",
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> ItemTotals:
    """:func:`humeval.metrics.pairwise.pairwise_tally_numbers`: per item, group of ``by`` and system, its wins,
    losses and ties over both positions (of its judgements, or of its majority vote: each copy of an item votes
    as the item does); cells the tally's statistics computed from them as the metric does (100 wins / n, 100
    (wins - losses) / n, ...), the sign test's p per (wins, decided) by scipy (:func:`sign_test_p`)."""
    if variant is not None or frame not in ("kept", "tidy"):
        raise NoForm(f"frame {frame!r}, variant {variant!r}")
    if set(stats) - set(get_args(TallyStat)):
        raise NoForm(f"pairwise_tally with {sorted(stats)}")
    rows = data.rows(frame, variant, where)
    rows = rows[rows["response_type"] == "pairwise"]
    value = pd.to_numeric(rows["value"], errors="coerce")
    if value.isna().any():
        raise NoForm("a value that is not a number")
    code, items = item_codes(rows["item"])
    blocks, parts = [], []  # per group: its keys and systems, and its items x (systems x win, loss, tie) counts
    for keys, group in groups_of(rows.assign(value=value.to_numpy(), item_code=code), by):
        pairs = majority_vote(group).rename(columns={"vote": "value"}) if majority else group
        at = pd.Index(items).get_indexer(pairs["item"]) if majority else pairs["item_code"].to_numpy()
        result = np.concatenate([pairs["value"].to_numpy(dtype=float), -pairs["value"].to_numpy(dtype=float)])
        system, systems = pd.factorize(np.concatenate([pairs["system"].to_numpy(), pairs["system_b"].to_numpy()]))
        outcome = np.where(result > 0, 0, np.where(result < 0, 1, 2))
        parts.append(per_item_counts(np.concatenate([at, at]), len(items), system * 3 + outcome, 3 * len(systems)))
        blocks.append((keys, systems))
    per_item = np.hstack(parts) if parts else np.zeros((len(items), 0))
    factor = SCALES[scale]

    def cells(totals):
        out, offset = {}, 0
        for keys, systems in blocks:
            counts = totals[:, offset : offset + 3 * len(systems)].reshape(len(totals), len(systems), 3)
            offset += 3 * len(systems)
            wins, losses, ties = counts[:, :, 0], counts[:, :, 1], counts[:, :, 2]
            n = wins + losses + ties
            with np.errstate(invalid="ignore", divide="ignore"):
                found = {"wins": wins, "losses": losses, "ties": ties, "n": n, "win_pct": 100 * wins / n}
                found["bws"] = 100 * (wins - losses) / n
            found["bws_scaled"] = (found["bws"] + 100) / 2
            found["score"] = wins - losses
            for stat in PERCENT_STATS:
                found[stat] = found[stat] * factor
            if "sign_p" in stats:
                decided = (wins + losses).astype(int)
                found["sign_p"] = np.vectorize(sign_test_p, otypes=[float])(wins.astype(int), decided)
            for k, system in enumerate(systems):
                for stat in stats:
                    fields = {**keys, "system": system, "stat": stat}
                    cell = (table, render(row, fields, labels), render(column, fields, labels))
                    out[cell] = nan_where(found[stat][:, k], n[:, k] == 0)
        return out

    return ItemTotals(items, per_item, cells)
