"""Quantified Reproducibility Assessment (Belz, Popovic & Mille 2022).

Type I: the small-sample coefficient of variation CV* of one measurand over its measurements.
Type II: Pearson and Spearman correlation between the original and reproduction measurands, with
scipy's asymptotic p and the exact permutation p (for n = 4 the asymptotic p misleads).
Type III (item-level) and Type IV (claims) are computed by the study metrics where data allow.

The config chooses, per side, whether the QRA input is the pipeline's recomputed value or the number
the paper printed, and to how many decimals it is rounded first (the recipe the paper used), plus a
shift of the scale (CV* assumes a ratio scale with a true zero).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import NUMBER_COLUMNS


def c4(n: int) -> float:
    """Bias-correction factor of the sample SD: c4(n) = sqrt(2/(n-1)) Gamma(n/2) / Gamma((n-1)/2).

    >>> round(c4(2), 6)
    0.797885
    """
    if n < 2:
        raise ValueError("c4 needs n >= 2")
    return math.sqrt(2.0 / (n - 1)) * math.exp(math.lgamma(n / 2) - math.lgamma((n - 1) / 2))


def cv_star(values, shift: float = 0.0) -> float:
    """CV* = (1 + 1/(4n)) * (s / c4(n)) / |mean| * 100 over ``values + shift``.

    s is the sample SD (ddof = 1), n the number of measurements (Belz, Popovic & Mille 2022; reference
    code asbelz/coeff-var). Returns NaN when the mean is 0.

    >>> round(cv_star([36, 23.0]), 3)
    43.936
    """
    x = np.asarray(values, dtype=float) + shift
    n = x.size
    mean = x.mean()
    if mean == 0:
        return float("nan")
    return float((1 + 1 / (4 * n)) * (x.std(ddof=1) / c4(n)) / abs(mean) * 100)


def sd_star(values) -> float:
    """The small-sample-corrected SD s / c4(n) that CV* divides by the mean (ddof = 1 for s).

    Reported beside CV* because papers sometimes print it in CV*'s place.

    >>> round(sd_star([0.37, 0.47]), 4)
    0.0886
    """
    x = np.asarray(values, dtype=float)
    return float(x.std(ddof=1) / c4(x.size))


def round_half_up(value: float, decimals: int) -> float:
    """Round half away from zero at ``decimals`` (what a paper's printed numbers use), via Decimal.

    >>> round_half_up(2.675, 2), round_half_up(-0.125, 2)
    (2.68, -0.13)
    """
    quantum = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP))


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


def qra_inputs(numbers: pd.DataFrame, published: pd.DataFrame, table: str, rows: list[str], spec: dict) -> pd.Series:
    """The values one side contributes to a QRA, per row: recomputed or published, then rounded.

    ``spec``: ``{column, source: recomputed|published, round: decimals|null}``.
    """
    source = numbers if spec.get("source", "recomputed") == "recomputed" else published
    cells = source[(source["table"] == table) & (source["column"] == spec["column"])].set_index("row")["value"]
    values = pd.to_numeric(cells.reindex(rows), errors="coerce")
    if values.isna().any():
        missing = list(values.index[values.isna()])
        raise HumevalError(
            f"QRA input {spec.get('source', 'recomputed')} {table}/{spec['column']} has no value for row(s) {missing}"
        )
    if spec.get("round") is not None:
        values = values.map(lambda v: round_half_up(v, int(spec["round"])))
    return values


SUMMARY_COLUMNS = ["type", "table", "measurand", "value", "p", "p_exact", "inputs", "recipe"]


def _recipe(spec: dict) -> str:
    rounding = f" rounded to {spec['round']}" if spec.get("round") is not None else ""
    return f"{spec['column']} {spec.get('source', 'recomputed')}{rounding}"


def qra_numbers(
    numbers: pd.DataFrame, published: pd.DataFrame, entries: list[dict]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run the study's QRA entries; return their numbers (table, row, column, value) and a summary with
    one row per Type I/II result: the value, p-values, the inputs used and the recipe.

    ``type: cv_star`` writes ``<table>/<row>/<column>`` per measurand row from its ``inputs`` sides
    (and, with ``sd_column``, the corrected SD s/c4(n) beside it);
    ``type: correlation`` writes rows ``pearson``/``spearman`` with columns ``r``, ``p``, ``p_exact``, or,
    with ``cells: {"<method>.<r|p|p_exact>": [row, column]}``, just the mapped statistics where mapped;
    ``type: claims`` evaluates the claims (Type IV, :func:`claim_numbers`).
    """
    out, summary = [], []
    for entry in entries:
        rows, source_table = entry.get("rows"), entry.get("measurand_table")
        if entry["type"] in ("cv_star", "correlation") and (not rows or not source_table):
            raise HumevalError(f"QRA {entry['type']} entry for table {entry['table']!r} needs rows and measurand_table")
        if entry["type"] == "cv_star":
            sides = [qra_inputs(numbers, published, source_table, rows, spec) for spec in entry["inputs"]]
            matrix = pd.concat(sides, axis=1)
            recipe = "; ".join(_recipe(spec) for spec in entry["inputs"]) + f"; shift {entry.get('shift', 0)}"
            for row, values in matrix.iterrows():
                value = cv_star(values.to_numpy(), entry.get("shift", 0.0))
                out.append((entry["table"], row, entry.get("column", "cv_star"), value))
                summary.append(
                    ("cv_star", entry["table"], row, value, np.nan, np.nan, ";".join(f"{v:g}" for v in values), recipe)
                )
                if entry.get("sd_column"):
                    out.append((entry["table"], row, entry["sd_column"], sd_star(values.to_numpy())))
        elif entry["type"] == "correlation":
            x = qra_inputs(numbers, published, source_table, rows, entry["x"])
            y = qra_inputs(numbers, published, source_table, rows, entry["y"])
            recipe = f"x = {_recipe(entry['x'])}, y = {_recipe(entry['y'])}; n = {len(rows)}"
            cells = entry.get("cells")
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
                        recipe,
                    )
                )
                for key in ("r", "p", "p_exact"):
                    if cells is None:
                        out.append((entry["table"], method, key, result[key]))
                    elif f"{method}.{key}" in cells:
                        row, column = cells[f"{method}.{key}"]
                        out.append((entry["table"], row, column, result[key]))
        elif entry["type"] == "claims":
            out += claim_numbers(numbers, published, entry)
        else:
            raise HumevalError(f"unknown QRA type {entry['type']!r} (cv_star, correlation, claims)")
    return pd.DataFrame(out, columns=NUMBER_COLUMNS), pd.DataFrame(summary, columns=SUMMARY_COLUMNS)


_OPERATORS = {">": np.greater, ">=": np.greater_equal, "<": np.less, "<=": np.less_equal}


def _operand(numbers: pd.DataFrame, published: pd.DataFrame, operand, side: str) -> float:
    """A claim operand: a number, or ``{table, row, column}`` where ``{side}`` in a label is replaced by the
    side's label; the recomputed value is used where there is one, else the published one."""
    if isinstance(operand, (int, float)):
        return float(operand)
    cell = {k: str(v).format(side=side) for k, v in operand.items()}
    for source in (numbers, published):
        hit = source[
            (source["table"] == cell["table"]) & (source["row"] == cell["row"]) & (source["column"] == cell["column"])
        ]
        if not hit.empty and pd.notna(hit["value"].iloc[0]):
            return float(hit["value"].iloc[0])
    raise HumevalError(f"claim operand {cell} has no {side} value")


def claim_numbers(numbers: pd.DataFrame, published: pd.DataFrame, entry: dict) -> list[tuple]:
    """QRA Type IV: each claim is a list of comparisons ``{left, op, right}`` that must all hold; it is
    evaluated on the original and on the reproduction side (``labels`` maps each side to the text that
    replaces ``{side}`` in operand labels, e.g. ``O`` and ``R``), reading recomputed values where there
    are any and published ones otherwise.

    Rows ``<claim>``: columns ``original``, ``reproduction`` (1 holds, 0 not) and ``replicated`` (1 when it
    holds on both sides); rows ``<claim>.<k>``: the operands of comparison k on both sides.
    """
    out = []
    labels = {"original": "original", "reproduction": "reproduction", **entry.get("labels", {})}
    for claim in entry["claims"]:
        verdicts = {}
        for side in ("original", "reproduction"):
            holds = True
            for k, comparison in enumerate(claim["comparisons"], 1):
                left = _operand(numbers, published, comparison["left"], labels[side])
                right = _operand(numbers, published, comparison["right"], labels[side])
                holds &= bool(_OPERATORS[comparison["op"]](left, right))
                out += [
                    (entry["table"], f"{claim['id']}.{k}", f"{side}_left", left),
                    (entry["table"], f"{claim['id']}.{k}", f"{side}_right", right),
                ]
            verdicts[side] = holds
        out += [
            (entry["table"], claim["id"], "original", float(verdicts["original"])),
            (entry["table"], claim["id"], "reproduction", float(verdicts["reproduction"])),
            (entry["table"], claim["id"], "replicated", float(verdicts["original"] and verdicts["reproduction"])),
        ]
    return out
