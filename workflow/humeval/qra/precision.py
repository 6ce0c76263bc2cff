"""QRA Type I: the precision of one measurand over its measurements (Belz, Popovic & Mille 2022).

CV* is the small-sample coefficient of variation; the config chooses, per experiment, whether an input is
the pipeline's recomputed value or the number the paper printed, to how many decimals it is rounded first
(the recipe the paper used), and a shift of the scale (CV* assumes a ratio scale with a true zero).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.cv_star import cv_star, sd_star
from humeval.qra.inputs import qra_inputs, recipe


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
