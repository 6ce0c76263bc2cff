"""QRA Type II: Pearson and Spearman correlation between the measurands of two experiments, with
scipy's asymptotic p and the exact permutation p (for n = 4 the asymptotic p misleads)."""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.qra.inputs import qra_inputs, recipe
from humeval.resampling import spend

__all__ = ["correlation", "correlation_entry"]

EXACT_LIMIT = 8  # n! re-pairings: 40,320 at n = 8; above, a seeded Monte Carlo permutation test
RESAMPLES = 9999
#: The counted cost of one re-pairing (CPU s, fixed and per measurand), a line above those measured over 100,000
#: re-pairings: 7.8e-6 at 9 measurands, 2.5e-5 at 100, 2.4e-4 at 1,000 (for :func:`humeval.resampling.spend`).
REPAIRING_FIXED, REPAIRING_VALUE = 6e-6, 2.5e-7


def _vectorised_statistic(y: np.ndarray, method: str):
    """Pearson r (or Spearman rho: Pearson on ranks) of each re-pairing of ``a`` with fixed ``y``, computed
    along ``axis`` for all of them at once (scipy's ``vectorized=True``)."""
    from scipy import stats

    target = stats.rankdata(y) if method == "spearman" else y
    centred_y = target - target.mean()

    def statistic(a, axis):  # scipy passes the axis of the re-pairings
        a = stats.rankdata(a, axis=axis) if method == "spearman" else a
        centred = a - a.mean(axis=axis, keepdims=True)
        return (centred * centred_y).sum(axis=axis) / np.sqrt((centred**2).sum(axis=axis) * (centred_y**2).sum())

    return statistic


def correlation(
    x, y, method: str = "pearson", exact_limit: int = EXACT_LIMIT, resamples: int = RESAMPLES, seed: int = 0
) -> dict:
    """Correlation of paired values with scipy's asymptotic p and a permutation p.

    The permutation p comes from :func:`scipy.stats.permutation_test` (``permutation_type='pairings'``,
    two-sided as scipy defines it, vectorised): exact over all n! re-pairings while n <= ``exact_limit``
    (for n = 4 the asymptotic p misleads), else a Monte Carlo test with ``resamples`` re-pairings from a
    generator seeded with ``seed`` (never a silent multi-minute enumeration: 9 points are 362,880 orderings).
    Returns ``{"r", "p", "p_exact", "n", "p_method"}``; ``p_exact`` holds the permutation p whichever way
    it was computed, and ``p_method`` says which.

    >>> correlation([1, 2, 3, 4], [1, 3, 2, 4], "spearman")["p_method"]
    'exact (24 re-pairings)'
    """
    from scipy import stats

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.size != y.size or x.size < 3:
        raise HumevalError(f"correlation needs two equally long series of at least 3 values, got {x.size} and {y.size}")
    if method not in ("pearson", "spearman"):
        raise HumevalError(f"unknown correlation method {method!r} (pearson, spearman)")
    result = stats.pearsonr(x, y) if method == "pearson" else stats.spearmanr(x, y)
    exact = x.size <= exact_limit
    repairings = math.factorial(x.size) if exact else resamples
    spend("exact_limit" if exact else "resamples", repairings, REPAIRING_FIXED + REPAIRING_VALUE * x.size)
    permutation = stats.permutation_test(
        (x,),
        _vectorised_statistic(y, method),
        permutation_type="pairings",
        vectorized=True,
        n_resamples=repairings,
        alternative="two-sided",
        rng=None if exact else np.random.default_rng(seed),
    )
    how = (
        f"exact ({math.factorial(x.size)} re-pairings)"
        if exact
        else f"Monte Carlo ({resamples} re-pairings, seed {seed}; n = {x.size} > exact limit {exact_limit})"
    )
    return {
        "r": float(result.statistic),
        "p": float(result.pvalue),
        "p_exact": float(permutation.pvalue),
        "n": int(x.size),
        "p_method": how,
    }


@register("qra", "correlation")
def correlation_entry(
    values: pd.DataFrame,
    published: pd.DataFrame,
    *,
    table: str,
    measurand_table: str,
    rows: list[str],
    x: dict,
    y: dict,
    methods: list[Literal["pearson", "spearman"]] = ("pearson", "spearman"),
    exact_limit: int = EXACT_LIMIT,
    resamples: int = RESAMPLES,
    seed: int = 0,
    cells: dict[str, list[str]] | None = None,
) -> tuple[list[tuple], list[tuple]]:
    """QRA Type II: the correlation of two experiments' measurands (Pearson, Spearman; :func:`correlation`), with
    a permutation p-value (exact up to ``exact_limit`` points, else seeded Monte Carlo).

    Parameters
    ----------
    measurand_table : str
        The table holding the measurands.
    rows : list of str
        The measurand rows (two or more): the points correlated.
    x, y : dict
        The two measurements, as an input of ``cv_star``: ``{side?, column, source?}``.
    methods : list of {'pearson', 'spearman'}
        The correlations computed.
    exact_limit : int
        The exact permutation p up to this many points (3 to 10); above it, a Monte Carlo test.
    resamples : int
        Monte Carlo re-pairings above the exact limit (99 or more).
    seed : int
        The seed of the Monte Carlo generator.
    cells : dict of str to list of str, optional
        ``{"<method>.<r|p|p_exact>": [row, column]}``: where each statistic goes; only mapped ones are written.
        Default: rows = methods, columns ``r``, ``p``, ``p_exact``.

    Returns
    -------
    cells, summary : list of tuple
        Cells of r, p (the scipy p) and p_exact (the permutation p); one summary row per method with the
        inputs and the recipe.

    Notes
    -----
    Pearson's r = sum (x - mx)(y - my) / sqrt(sum (x - mx)^2 sum (y - my)^2); Spearman's rho is r of the ranks
    (mid-ranks for ties). ``p`` is scipy's (``pearsonr``, ``spearmanr``: the t approximation with n - 2 df), which
    misleads at the four to eight measurands a QRA correlates; ``p_exact`` is the two-sided permutation p, the
    share of the n! re-pairings of x with y whose |r| reaches the observed (scipy's ``permutation_test``), exact
    up to ``exact_limit`` points and seeded Monte Carlo above. The exact p of four points is checked by hand
    (``tests/test_qra.py``), and the QRA correlations the papers print in each study's audit.

    References
    ----------
    Belz, Popovic & Mille (2022), *ACL 2022*: 16-28 (Type II); Spearman (1904), *American Journal of
    Psychology* 15(1): 72-101; Pitman (1937), *Supplement to JRSS* 4(2): 225-232 (the permutation test).

    Examples
    --------
    Four measurands 1, 2, 3, 4 against 1, 2, 4, 3: one adjacent swap, so rho = 1 - 6 x 2 / (4 x 15) = 0.8; of the
    24 re-pairings, the identity and three adjacent swaps reach 0.8 and their mirror images -0.8: p_exact = 8/24.

    >>> v = pd.DataFrame({"table": "t", "row": list("abcd") * 2, "column": ["O"] * 4 + ["R1"] * 4,
    ...                   "value": [1.0, 2, 3, 4, 1, 2, 4, 3]})
    >>> cells, _ = correlation_entry(v, v.iloc[:0], table="q", measurand_table="t", rows=list("abcd"),
    ...                              x={"column": "O"}, y={"column": "R1"}, methods=["spearman"])
    >>> [(column, round(value, 4)) for _, _, column, value in cells]
    [('r', 0.8), ('p', 0.2), ('p_exact', 0.3333)]
    """
    how = f"x = {recipe(x)}, y = {recipe(y)}; n = {len(rows)}"
    x = qra_inputs(values, published, measurand_table, rows, x)
    y = qra_inputs(values, published, measurand_table, rows, y)
    out, summary = [], []
    for method in methods:
        result = correlation(
            x.to_numpy(),
            y.to_numpy(),
            method,
            exact_limit=exact_limit,
            resamples=resamples,
            seed=seed,
        )
        summary.append(
            (
                method,
                table,
                ", ".join(rows),
                result["r"],
                result["p"],
                result["p_exact"],
                ";".join(f"{v:g}" for v in x) + " | " + ";".join(f"{v:g}" for v in y),
                f"{how}; permutation p {result['p_method']}",
            )
        )
        for key in ("r", "p", "p_exact"):
            if cells is None:
                out.append((table, method, key, result[key]))
            elif f"{method}.{key}" in cells:
                row, column = cells[f"{method}.{key}"]
                out.append((table, row, column, result[key]))
    return out, summary
