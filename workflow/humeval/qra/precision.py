"""QRA Type I: the precision of one measurand over its measurements (Belz, Popovic & Mille 2022).

CV* is the small-sample coefficient of variation; the config chooses, per experiment, whether an input is
the pipeline's recomputed value or the number the paper printed, to how many decimals it is rounded first
(the recipe the paper used), and a shift of the scale (CV* assumes a ratio scale with a true zero).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from humeval.qra.inputs import qra_inputs, recipe


def c4(n: int) -> float:
    """Bias-correction factor of the sample SD: c4(n) = sqrt(2/(n-1)) Gamma(n/2) / Gamma((n-1)/2).

    >>> round(c4(2), 6)
    0.797885
    """
    if n < 2:
        raise ValueError("c4 needs n >= 2")
    return math.sqrt(2.0 / (n - 1)) * math.exp(math.lgamma(n / 2) - math.lgamma((n - 1) / 2))


def cv_star(values, shift: float = 0.0, c4_correction: bool = True) -> float:
    """CV* = (1 + 1/(4n)) * (s / c4(n)) / |mean| * 100 over ``values + shift``.

    s is the sample SD (ddof = 1), n the number of measurements (Belz, Popovic & Mille 2022; reference
    code asbelz/coeff-var). Returns NaN when the mean is 0. ``c4_correction=False`` divides by s itself
    (a published variant: the Yao 2022 family's notebook, 1.125 x 100 x s / |mean| for n = 2).

    >>> round(cv_star([36, 23.0]), 3), round(cv_star([36, 23.0], c4_correction=False), 3)
    (43.936, 35.056)
    """
    return float(cv_star_rows(np.asarray(values, dtype=float).reshape(1, -1), shift, c4_correction)[0])


def cv_star_rows(matrix, shift: float = 0.0, c4_correction: bool = True) -> np.ndarray:
    """:func:`cv_star` of every row of a 2-D array (measurands x measurements) at once, with numpy: item-level
    CV* over a hundred thousand items without a Python call per item. NaN where n < 2 (one measurement has no
    spread: CV* is undefined, not an error) or the mean is 0.

    >>> cv_star_rows([[36, 23.0], [1, 1], [-1, 1]]).round(3).tolist()
    [43.936, 0.0, nan]
    """
    x = np.asarray(matrix, dtype=float) + shift
    n = x.shape[1]
    if n < 2:
        return np.full(x.shape[0], np.nan)
    mean = x.mean(axis=1)
    s = x.std(axis=1, ddof=1) / (c4(n) if c4_correction else 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(mean == 0, np.nan, (1 + 1 / (4 * n)) * s / np.abs(mean) * 100)


def sd_star(values) -> float:
    """The small-sample-corrected SD s / c4(n) that CV* divides by the mean (ddof = 1 for s).

    Reported beside CV* because papers sometimes print it in CV*'s place.

    >>> round(sd_star([0.37, 0.47]), 4)
    0.0886
    """
    x = np.asarray(values, dtype=float)
    return float(x.std(ddof=1) / c4(x.size)) if x.size >= 2 else float("nan")


def cv_star_entry(values: pd.DataFrame, published: pd.DataFrame, entry: dict) -> tuple[list[tuple], list[tuple]]:
    """``type: cv_star``: CV* per measurand row from the ``inputs`` experiments, written to
    ``<table>/<row>/<column>`` (and, with ``sd_column``, the corrected SD s/c4(n) beside it; with
    ``ci_columns: [low, high]``, the 95% interval of s* as QRA3 computes it)."""
    rows, source_table = entry["rows"], entry["measurand_table"]
    sides = [qra_inputs(values, published, source_table, rows, spec) for spec in entry["inputs"]]
    matrix = pd.concat(sides, axis=1)
    how = "; ".join(recipe(spec) for spec in entry["inputs"]) + f"; shift {entry.get('shift', 0)}"
    out, summary = [], []
    for row, measured in matrix.iterrows():
        value = cv_star(measured.to_numpy(), entry.get("shift", 0.0))
        out.append((entry["table"], row, entry.get("column", "cv_star"), value))
        summary.append(
            ("cv_star", entry["table"], row, value, np.nan, np.nan, ";".join(f"{v:g}" for v in measured), how)
        )
        if entry.get("sd_column"):
            out.append((entry["table"], row, entry["sd_column"], sd_star(measured.to_numpy())))
        if entry.get("ci_columns"):  # the 95% interval of s* (QRA3's Type I), so a printed interval is audited
            from humeval.qra.qra3 import type1_measures

            measures = type1_measures(measured.to_numpy(), scale_starts_at=-entry.get("shift", 0.0))
            low, high = entry["ci_columns"]
            out += [
                (entry["table"], row, low, measures["sd_ci_low"]),
                (entry["table"], row, high, measures["sd_ci_high"]),
            ]
    return out, summary


def cv_star_pairwise_entry(values: pd.DataFrame, published: pd.DataFrame, entry: dict):
    """``type: cv_star_pairwise``: CV* of each experiment against the ``reference`` (n = 2), per criterion and
    system, as ReproHum papers tabulate it: row ``<criterion>|<row label of the experiment>``, one column per
    system and ``summary_column`` (criterion level: the mean of its systems), and rows
    ``all|<row label>`` (study level: the mean of the criterion levels). Scores are located like QRA3
    scores (``score`` template over ``{experiment}`` and ``{system}``; recomputed, else published) and
    shifted by ``-scale_starts_at``; ``c4_correction: false`` is the variant without s / c4(n). With
    ``ci_columns: [low, high]``, templates over ``{system}`` (``"{system} low"``), the 95% interval of s* per system
    as QRA3 computes it (whatever ``c4_correction`` says), so a printed interval is audited."""
    from humeval.qra.qra3 import type1_measures
    from humeval.qra.qra3_tables import score_matrix

    shift, correct = -entry.get("scale_starts_at", 0), entry.get("c4_correction", True)
    how = f"{entry['reference']} vs each experiment; shift {shift:g}" + ("" if correct else "; s without c4(n)")
    out, summary = [], []
    for experiment in entry["experiments"]:
        label = entry.get("row_labels", {}).get(experiment, experiment)
        levels = []
        for criterion in entry["criteria"]:
            if experiment not in criterion.get("experiments", entry["experiments"]):
                continue
            pair = [entry["reference"], experiment]
            matrix, _ = score_matrix(values, published, criterion, pair, dict(zip(pair, pair)))
            row = f"{criterion['name']}|{label}"
            cvs = [cv_star(matrix[system].to_numpy(), shift, correct) for system in criterion["systems"]]
            out += [(entry["table"], row, system, cv) for system, cv in zip(criterion["systems"], cvs)]
            for system in criterion["systems"] if entry.get("ci_columns") else []:
                measures = type1_measures(matrix[system].to_numpy(), scale_starts_at=entry.get("scale_starts_at", 0))
                low, high = (template.format(system=system) for template in entry["ci_columns"])
                out += [
                    (entry["table"], row, low, measures["sd_ci_low"]),
                    (entry["table"], row, high, measures["sd_ci_high"]),
                ]
            summary += [  # in the cross-study summary beside the Type I entries
                (
                    "cv_star_pairwise",
                    entry["table"],
                    f"{row}|{system}",
                    cv,
                    np.nan,
                    np.nan,
                    ";".join(f"{v:g}" for v in matrix[system]),
                    how,
                )
                for system, cv in zip(criterion["systems"], cvs)
            ]
            out.append((entry["table"], row, entry.get("summary_column", "criterion"), float(np.mean(cvs))))
            levels.append(float(np.mean(cvs)))
        out.append((entry["table"], f"all|{label}", entry.get("summary_column", "criterion"), float(np.mean(levels))))
    return out, summary
