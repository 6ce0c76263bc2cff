"""QRA Type II: Pearson and Spearman correlation between the measurands of two experiments, with
scipy's asymptotic p and the exact permutation p (for n = 4 the asymptotic p misleads)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.qra.inputs import qra_inputs, recipe


def correlation(x, y, method: str = "pearson") -> dict:
    """Correlation of paired values with scipy's asymptotic p and the exact permutation p.

    The exact p comes from :func:`scipy.stats.permutation_test` (``permutation_type='pairings'``: all
    n! re-pairings when that is at most 9!; two-sided as scipy defines it).
    Returns ``{"r", "p", "p_exact", "n"}``.
    """
    from scipy import stats

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.size != y.size or x.size < 3:
        raise HumevalError(f"correlation needs two equally long series of at least 3 values, got {x.size} and {y.size}")
    if method == "pearson":
        result = stats.pearsonr(x, y)

        def statistic(a):
            return stats.pearsonr(a, y).statistic
    elif method == "spearman":
        result = stats.spearmanr(x, y)

        def statistic(a):
            return stats.spearmanr(a, y).statistic
    else:
        raise HumevalError(f"unknown correlation method {method!r} (pearson, spearman)")
    exact = stats.permutation_test(
        (x,), statistic, permutation_type="pairings", n_resamples=math.factorial(9), alternative="two-sided"
    )
    return {"r": float(result.statistic), "p": float(result.pvalue), "p_exact": float(exact.pvalue), "n": int(x.size)}


def correlation_entry(values: pd.DataFrame, published: pd.DataFrame, entry: dict) -> tuple[list[tuple], list[tuple]]:
    """``type: correlation``: rows ``pearson``/``spearman`` with columns ``r``, ``p``, ``p_exact``, or, with
    ``cells: {"<method>.<r|p|p_exact>": [row, column]}``, just the mapped statistics where mapped."""
    rows, source_table = entry["rows"], entry["measurand_table"]
    x = qra_inputs(values, published, source_table, rows, entry["x"])
    y = qra_inputs(values, published, source_table, rows, entry["y"])
    how = f"x = {recipe(entry['x'])}, y = {recipe(entry['y'])}; n = {len(rows)}"
    cells = entry.get("cells")
    out, summary = [], []
    for method in entry.get("methods", ["pearson", "spearman"]):
        result = correlation(x.to_numpy(), y.to_numpy(), method)
        summary.append(
            (
                method,
                entry["table"],
                ", ".join(rows),
                result["r"],
                result["p"],
                result["p_exact"],
                ";".join(f"{v:g}" for v in x) + " | " + ";".join(f"{v:g}" for v in y),
                how,
            )
        )
        for key in ("r", "p", "p_exact"):
            if cells is None:
                out.append((entry["table"], method, key, result[key]))
            elif f"{method}.{key}" in cells:
                row, column = cells[f"{method}.{key}"]
                out.append((entry["table"], row, column, result[key]))
    return out, summary
