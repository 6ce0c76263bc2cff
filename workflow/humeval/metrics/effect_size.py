"""Effect sizes between two sets of judgement values (systems, experiments) with bootstrap CIs (scipy).

The evaluator-group effect sizes of the finch study (``designs/evaluator_group_effects.py``) stay bespoke: they are
differences of per-bot-pair effects between groups over the authors' seeded single-annotation sampler.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import Column, Columns, Frame, StudyData, groups_of, render, value_frame
from humeval.resampling import spend

__all__ = ["effect_size_numbers"]


def cohens_d(x, y, axis: int = -1):
    """Cohen's d = (mean x - mean y) / pooled SD (ddof 1), along ``axis`` (vectorised for the bootstrap).

    >>> round(float(cohens_d(np.array([1.0, 2, 3]), np.array([2.0, 3, 4]))), 4)
    -1.0
    """
    nx, ny = x.shape[axis], y.shape[axis]
    pooled = ((nx - 1) * x.var(axis=axis, ddof=1) + (ny - 1) * y.var(axis=axis, ddof=1)) / (nx + ny - 2)
    return (x.mean(axis=axis) - y.mean(axis=axis)) / np.sqrt(pooled)


#: The counted cost of one resample of Cohen's d over n values, and BCa's jackknife once per interval (CPU s,
#: measured on two groups of normal values, 9,999 resamples: percentile 1.8e-5 a resample at n = 2,000 and 2.4e-4
#: at 20,000; BCa 0.6 and 12.8 s more): a line above each (:func:`humeval.resampling.spend`).
RESAMPLE_FIXED, RESAMPLE_VALUE, BCA_SQUARED, BCA_LINEAR = 5e-7, 1.2e-8, 3.2e-8, 3e-4


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

    Notes
    -----
    d = (m_a - m_b) / s_p with the pooled SD s_p = sqrt(((n_a - 1) s_a^2 + (n_b - 1) s_b^2) / (n_a + n_b - 2))
    (:func:`cohens_d`; no small-sample correction, so not Hedges' g). The interval is scipy's ``bootstrap`` of d
    with the two sets resampled independently (``paired=False``), ``resamples`` times, by ``method``.

    References
    ----------
    Cohen (1988), *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed., section 2.2; Efron &
    Tibshirani (1993), *An Introduction to the Bootstrap*, chapters 13-14 (percentile and BCa intervals).

    Examples
    --------
    System a rated 1, 2, 3 and b 2, 3, 4: both SDs 1, so d = (2 - 3) / 1 = -1.

    >>> j = pd.DataFrame({"system": list("aaabbb"), "value": [1, 2, 3, 2, 3, 4]})
    >>> out = effect_size_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", compare="system", pairs=[["a", "b"]],
    ...                           row="{a}-{b}", columns={"d": "d"}, resamples=99)
    >>> out[["row", "column", "value"]].values.tolist()
    [['a-b', 'd', -1.0]]
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
            n = x.size + y.size  # counted at the costs measured (module docstring of humeval.resampling)
            once = BCA_SQUARED * n * n + BCA_LINEAR * n if method == "BCa" else 0.0
            spend("resamples", resamples, RESAMPLE_FIXED + RESAMPLE_VALUE * n, once)
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
