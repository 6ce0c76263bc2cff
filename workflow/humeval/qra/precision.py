"""QRA Type I: the precision of one measurand over its measurements (Belz, Popovic & Mille 2022).

CV* is the small-sample coefficient of variation; the config chooses, per experiment, whether an input is
the pipeline's recomputed value or the number the paper printed, to how many decimals it is rounded first
(the recipe the paper used), and a shift of the scale (CV* assumes a ratio scale with a true zero).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.cv_star import cv_star, sd_star
from humeval.qra.inputs import qra_inputs, recipe

__all__ = ["cv_star_entry", "cv_star_pairwise_entry"]


@register("qra", "cv_star")
def cv_star_entry(
    values: pd.DataFrame,
    published: pd.DataFrame,
    *,
    table: str,
    measurand_table: str,
    rows: list[str],
    inputs: list[dict],
    column: str = "cv_star",
    shift: float = 0,
    sd_column: str | None = None,
    ci_columns: list[str] | None = None,
) -> tuple[list[tuple], list[tuple]]:
    """QRA Type I: the coefficient of variation CV* (Belz, Popovic & Mille 2022, eq. 2; :func:`humeval.cv_star`)
    of each measurand row across the ``inputs`` measurements.

    Parameters
    ----------
    measurand_table : str
        The table holding the measurands.
    rows : list of str
        The measurand rows, one CV* each.
    inputs : list of dict
        One measurement per experiment (two or more): ``{side?, column, source?}``, the column of the measurand
        table holding it, recomputed or published (``docs/audit.md``).
    column : str
        The result column.
    shift : float
        Added to every value before CV* (0: none; a scale that starts at 1 is shifted by -1 to start at 0).
    sd_column : str, optional
        A column for the corrected SD s/c4(n) beside CV* (diagnoses a paper that printed the SD as CV*).
    ci_columns : list of str, optional
        ``[low, high]``: columns for the 95% interval of s* as QRA3 computes it, so a printed interval is audited.

    Returns
    -------
    cells, summary : list of tuple
        Cells (``table``, row, ``column``, CV*) (and the SD and interval cells asked for); one summary row per
        measurand: type ``cv_star``, the value, the inputs used and the recipe.

    Notes
    -----
    CV* = (1 + 1 / (4n)) x (s / c4(n)) / |mean| x 100 over the n measurements x (shifted by ``shift``), with the
    sample SD s (ddof 1), the unbiasing constant c4(n) = sqrt(2 / (n - 1)) Gamma(n / 2) / Gamma((n - 1) / 2) and
    the small-sample factor 1 + 1/(4n) (:func:`humeval.cv_star`). Checked against the QRA3 worked example
    (yao's Answer Relevancy over O, R1 and R3: CV* 6.0004; ``tests/test_qra3.py``), two values by hand
    (``tests/test_qra.py``) and the CV* values the papers print (each study's audit).

    References
    ----------
    Belz, Popovic & Mille (2022), "Quantified Reproducibility Assessment of NLP Results", *ACL 2022*: 16-28,
    eq. 2; Belz (2022), "A Metrological Perspective on Reproducibility in NLP", *Computational Linguistics*
    48(4): 1125-1135.

    Examples
    --------
    Two measurements 4.0 and 3.0: s = 1 / sqrt(2), c4(2) = sqrt(2 / pi), so CV* = 1.125 x 0.8862 / 3.5 x 100.

    >>> values = pd.DataFrame({"table": "t", "row": "A", "column": ["O", "R1"], "value": [4.0, 3.0]})
    >>> cells, _ = cv_star_entry(values, values.iloc[:0], table="q", measurand_table="t", rows=["A"],
    ...                          inputs=[{"column": "O"}, {"column": "R1"}])
    >>> [(row, column, round(value, 2)) for _, row, column, value in cells]
    [('A', 'cv_star', 28.49)]
    """
    sides = [qra_inputs(values, published, measurand_table, rows, spec) for spec in inputs]
    matrix = pd.concat(sides, axis=1)
    how = "; ".join(recipe(spec) for spec in inputs) + f"; shift {shift}"
    out, summary = [], []
    for row, measured in matrix.iterrows():
        value = cv_star(measured.to_numpy(), shift)
        out.append((table, row, column, value))
        summary.append(("cv_star", table, row, value, np.nan, np.nan, ";".join(f"{v:g}" for v in measured), how))
        if sd_column:
            out.append((table, row, sd_column, sd_star(measured.to_numpy())))
        if ci_columns:  # the 95% interval of s* (QRA3's Type I), so a printed interval is audited
            from humeval.qra.qra3 import type1_measures

            measures = type1_measures(measured.to_numpy(), scale_starts_at=-shift)
            low, high = ci_columns
            out += [
                (table, row, low, measures["sd_ci_low"]),
                (table, row, high, measures["sd_ci_high"]),
            ]
    return out, summary


@register("qra", "cv_star_pairwise")
def cv_star_pairwise_entry(
    values: pd.DataFrame,
    published: pd.DataFrame,
    *,
    table: str,
    reference: str,
    experiments: list[str],
    criteria: list[dict],
    row_labels: dict[str, str] | None = None,
    summary_column: str = "criterion",
    scale_starts_at: float = 0,
    c4_correction: bool = True,
    ci_columns: list[str] | None = None,
) -> tuple[list[tuple], list[tuple]]:
    """QRA Type I, each experiment against a reference (n = 2), per criterion and system, as ReproHum papers
    tabulate it. Scores are located like QRA3 scores (recomputed, else published).

    Parameters
    ----------
    reference : str
        The reference experiment (the original, ``O``).
    experiments : list of str
        The experiments compared with the reference, one row each per criterion.
    criteria : list of dict
        ``[{name, systems, score: {table, row, column}, experiments?}]`` as in ``qra3``: the score templates over
        ``{experiment}`` and ``{system}``, and the experiments a criterion has (default all).
    row_labels : dict of str to str, optional
        Experiment -> its row label (default: its id).
    summary_column : str
        The column of the criterion level (the mean of its systems) and of the study level.
    scale_starts_at : float
        Scores are shifted by minus this (a 1..5 scale: 1).
    c4_correction : bool
        CV* with the unbiased s / c4(n) (standard); false for the variant with s.
    ci_columns : list of str, optional
        ``[low, high]`` templates over ``{system}`` (``"{system} low"``): the 95% interval of s* per system as
        QRA3 computes it (whatever ``c4_correction`` says), so a printed interval is audited.

    Returns
    -------
    cells, summary : list of tuple
        Cells: row ``<criterion>|<row label>``, one column per system and ``summary_column``; rows
        ``all|<row label>`` (the mean of the criterion levels). One summary row per criterion, experiment and
        system (type ``cv_star_pairwise``).

    Notes
    -----
    For each experiment e, criterion and system, CV* over the two scores (reference, e), shifted to start at 0:
    (1 + 1/(4n)) x (s / c4(n)) / |mean| x 100 with n = 2 (:func:`cv_star_entry` gives the terms), or with the plain
    s where ``c4_correction`` is false, as yao's notebook computes it (1.125 x 100 x s / |mean|); the criterion
    level is the mean of its systems' CV*, and ``all`` the mean of the criterion levels. yao's Table 5 (all 31 of its
    printed cells that are recomputed) matches the printed two decimals in its audit.

    References
    ----------
    Belz, Popovic & Mille (2022), "Quantified Reproducibility Assessment of NLP Results", *ACL 2022*: 16-28,
    eq. 2; Belz & Thomson (2026), QRA3, Type I at system and criterion level (:mod:`humeval.qra.qra3`).

    Examples
    --------
    One criterion, two systems: A scored 4.0 by O and 3.0 by R1 (CV* 28.4859, :func:`cv_star_entry`'s example),
    B 2.0 by both (CV* 0); the criterion level and ``all`` are their mean, 14.2429.

    >>> values = pd.DataFrame({"table": "s", "row": ["A", "B"] * 2, "column": ["O", "O", "R1", "R1"],
    ...                        "value": [4.0, 2.0, 3.0, 2.0]})
    >>> cells, _ = cv_star_pairwise_entry(values, values.iloc[:0], table="q", reference="O", experiments=["R1"],
    ...     criteria=[{"name": "fluency", "systems": ["A", "B"], "score": {"table": "s", "row": "{system}",
    ...                                                                   "column": "{experiment}"}}])
    >>> [(row, column, round(value, 4)) for _, row, column, value in cells]
    [('fluency|R1', 'A', 28.4859), ('fluency|R1', 'B', 0.0), ('fluency|R1', 'criterion', 14.2429), ('all|R1', 'criterion', 14.2429)]
    """
    from humeval.qra.qra3 import type1_measures
    from humeval.qra.qra3_tables import score_matrix

    shift, correct = -scale_starts_at, c4_correction
    how = f"{reference} vs each experiment; shift {shift:g}" + ("" if correct else "; s without c4(n)")
    out, summary = [], []
    for experiment in experiments:
        label = (row_labels or {}).get(experiment, experiment)
        levels = []
        for criterion in criteria:
            if experiment not in criterion.get("experiments", experiments):
                continue
            pair = [reference, experiment]
            matrix, _ = score_matrix(values, published, criterion, pair, dict(zip(pair, pair)))
            row = f"{criterion['name']}|{label}"
            cvs = [cv_star(matrix[system].to_numpy(), shift, correct) for system in criterion["systems"]]
            out += [(table, row, system, cv) for system, cv in zip(criterion["systems"], cvs)]
            for system in criterion["systems"] if ci_columns else []:
                measures = type1_measures(matrix[system].to_numpy(), scale_starts_at=scale_starts_at)
                low, high = (template.format(system=system) for template in ci_columns)
                out += [
                    (table, row, low, measures["sd_ci_low"]),
                    (table, row, high, measures["sd_ci_high"]),
                ]
            summary += [  # in the cross-study summary beside the Type I entries
                (
                    "cv_star_pairwise",
                    table,
                    f"{row}|{system}",
                    cv,
                    np.nan,
                    np.nan,
                    ";".join(f"{v:g}" for v in matrix[system]),
                    how,
                )
                for system, cv in zip(criterion["systems"], cvs)
            ]
            out.append((table, row, summary_column, float(np.mean(cvs))))
            levels.append(float(np.mean(cvs)))
        out.append((table, f"all|{label}", summary_column, float(np.mean(levels))))
    return out, summary
