"""Effect sizes between two sets of judgement values (systems, experiments) with bootstrap CIs (scipy).

The evaluator-group effect sizes of the finch study (``designs/evaluator_group_effects.py``) stay bespoke: they are
differences of per-bot-pair effects between groups over the authors' seeded single-annotation sampler.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import Column, Columns, Frame, StudyData, groups_of, render, value_frame
from humeval.vocabulary import register

__all__ = ["effect_size_numbers"]


def cohens_d(x, y, axis: int = -1):
    """Cohen's d = (mean x - mean y) / pooled SD (ddof 1), along ``axis`` (vectorised for the bootstrap).

    >>> round(float(cohens_d(np.array([1.0, 2, 3]), np.array([2.0, 3, 4]))), 4)
    -1.0
    """
    nx, ny = x.shape[axis], y.shape[axis]
    pooled = ((nx - 1) * x.var(axis=axis, ddof=1) + (ny - 1) * y.var(axis=axis, ddof=1)) / (nx + ny - 2)
    return (x.mean(axis=axis) - y.mean(axis=axis)) / np.sqrt(pooled)


@register("metric", "effect_size")
def effect_size_numbers(
    data: StudyData,
    *,
    table: str,
    compare: Column,
    pairs: list[list[str]],
    row: str,
    columns: dict[str, str],
    by: Columns = (),
    confidence: float = 0.95,
    resamples: int = 9999,
    method: Literal["percentile", "basic", "BCa"] = "percentile",
    seed: int = 0,
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Cohen's d (pooled SD) of each pair ``[a, b]`` of ``compare`` values within each group of ``by``, with a
    bootstrap confidence interval (scipy ``bootstrap``, each set resampled from a generator seeded with ``seed``).

    Parameters
    ----------
    compare : str
        The column whose values are compared (``system``).
    pairs : list of list of str
        The pairs ``[a, b]``; d > 0 when a's mean is higher.
    row : str
        A template over the ``by`` keys, ``{a}`` and ``{b}``.
    columns : dict of str to str
        ``d``, ``low``, ``high`` -> their column labels (any subset).
    confidence : float
        The confidence level of the interval.
    resamples : int
        Bootstrap resamples.
    method : {'percentile', 'basic', 'BCa'}
        scipy's interval method.
    seed : int
        The seed of the bootstrap generator.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): per group and pair, d and its interval.
    """
    from scipy import stats

    rows = data.rows(frame, variant, where)
    out = []
    for keys, part in groups_of(rows, by):
        for a, b in pairs:
            x = pd.to_numeric(part.loc[part[compare] == a, "value"]).to_numpy(float)
            y = pd.to_numeric(part.loc[part[compare] == b, "value"]).to_numpy(float)
            if x.size < 2 or y.size < 2:
                raise HumevalError(f"metric effect_size: {keys} {compare} {a!r} or {b!r} has fewer than 2 values")
            ci = stats.bootstrap(
                (x, y),
                cohens_d,
                vectorized=True,
                paired=False,
                confidence_level=confidence,
                n_resamples=resamples,
                method=method,
                rng=np.random.default_rng(seed),
            ).confidence_interval
            label = render(row, {**keys, "a": a, "b": b}, labels)
            values = {"d": float(cohens_d(x, y)), "low": float(ci.low), "high": float(ci.high)}
            out += [(label, column, values[stat]) for stat, column in columns.items()]
    return value_frame(table, out)
