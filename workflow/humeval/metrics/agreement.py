"""Inter-annotator agreement: Krippendorff's alpha (the ``krippendorff`` package), Fleiss' and Cohen's kappa, and
percentage agreement."""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import (
    SCALES,
    Column,
    Columns,
    Frame,
    Scale,
    StudyData,
    filter_where,
    one_cell_per_group,
    stat_cells_per_group,
    value_frame,
)

__all__ = [
    "Level",
    "alpha_by_group_numbers",
    "batch_alpha_numbers",
    "kappa",
    "kappa_by_group_numbers",
    "krippendorff_alpha",
    "krippendorff_alpha_by_batch",
    "krippendorff_alpha_numbers",
    "percent_agreement_numbers",
    "reliability_matrix",
]

#: The levels of measurement Krippendorff's alpha knows (the ``krippendorff`` package's ``level_of_measurement``).
Level = Literal["nominal", "ordinal", "interval", "ratio"]
LEVELS = get_args(Level)


def reliability_matrix(
    frame: pd.DataFrame, units: list[str], coder: str = "participant", value: str = "value"
) -> pd.DataFrame:
    """Coders x units matrix of values (NaN where a coder did not judge a unit).

    A coder judging the same unit twice is an error: alpha has no place for it.
    """
    duplicated = frame.duplicated([coder] + units)
    if duplicated.any():
        first = frame[duplicated].iloc[0]
        raise HumevalError(f"coder {first[coder]!r} judged unit {tuple(first[units])} more than once")
    return frame.pivot(index=coder, columns=units, values=value)


def krippendorff_alpha(
    frame: pd.DataFrame, units: list[str], level: str, coder: str = "participant", value: str = "value"
) -> float:
    """Krippendorff's alpha of ``value`` over ``units`` rated by ``coder`` (package ``krippendorff``).

    The package is given the units x values table of counts (its ``value_counts`` input, one ``bincount`` of
    unit and value codes), not the coders x units matrix it would count them from: at a million judgements that
    matrix is 2,000 coders x 100,000 units (4 GB, 11 s), the counts 100,000 x 3. A coder judging the same unit
    twice is an error. Nominal values may be text; they are coded as integers first (alpha is invariant
    to the coding).

    >>> frame = pd.DataFrame({"participant": ["a", "b", "a", "b"], "item": [1, 1, 2, 2], "value": [1, 1, 2, 2]})
    >>> krippendorff_alpha(frame, ["item"], "nominal")
    1.0
    >>> krippendorff_alpha(frame.assign(value=3), ["item"], "interval")
    Traceback (most recent call last):
    humeval.errors.HumevalError: Krippendorff's alpha needs two or more distinct values; the judgements hold [3]
    """
    import krippendorff

    if level not in LEVELS:
        raise HumevalError(f"unknown level of measurement {level!r}; one of {LEVELS}")
    frame = frame.loc[frame[value].notna(), [coder, *units, value]]
    duplicated = frame.duplicated([coder, *units])
    if duplicated.any():
        first = frame[duplicated].iloc[0]
        raise HumevalError(f"coder {first[coder]!r} judged unit {tuple(first[units])} more than once")
    unit = frame.groupby(units, sort=True, dropna=False).ngroup().to_numpy()
    counts, domain = unit_value_counts(unit, unit.max() + 1 if len(unit) else 0, frame[value])
    if len(domain) < 2:  # the package's ValueError: alpha is 0/0 where every judgement holds one value
        raise HumevalError(
            f"Krippendorff's alpha needs two or more distinct values; the judgements hold {list(domain)}"
        )
    numeric = pd.api.types.is_numeric_dtype(domain)
    domain = domain.to_numpy(dtype=float) if numeric else np.arange(len(domain), dtype=float)
    return float(krippendorff.alpha(value_counts=counts, value_domain=domain, level_of_measurement=level))


def unit_value_counts(unit: np.ndarray, n_units: int, values: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """The units x values table of counts (unit codes 0..n_units-1, one per rating) and its sorted values: one
    ``bincount``, where ``pd.crosstab`` makes a Python call per unit.

    >>> counts, domain = unit_value_counts(np.array([0, 0, 1]), 2, pd.Series(["b", "a", "b"]))
    >>> counts.tolist(), list(domain)
    ([[1, 1], [0, 1]], ['a', 'b'])
    """
    codes, domain = pd.factorize(values, sort=True)
    n_values = len(domain)
    counts = np.bincount(unit * n_values + codes, minlength=n_units * n_values).reshape(n_units, n_values)
    return counts, domain


@register("metric", "krippendorff_alpha")
def krippendorff_alpha_numbers(
    data: StudyData,
    *,
    table: str,
    row: str,
    column: str,
    side: str,
    units: Columns,
    level: Level,
    assert_equal_to: Level | None = None,
    where: dict | None = None,
) -> pd.DataFrame:
    """Krippendorff's alpha (``krippendorff.alpha``; coders = participants) of one side's kept judgements in one
    cell; per group, ``krippendorff_alpha_by_group``.

    Parameters
    ----------
    table : str
        The table the cell goes to.
    row, column : str
        The cell.
    side : str
        The side whose kept judgements are read.
    units : list of str
        The columns that make a unit (``[item]``, ``[item, system]``); coders are the participants.
    level : {'nominal', 'ordinal', 'interval', 'ratio'}
        The level of measurement.
    assert_equal_to : {'nominal', 'ordinal', 'interval', 'ratio'}, optional
        Another level that must give the same alpha, else an error (interval = ordinal for complete
        permutations, say).
    where : dict, optional
        ``{column: value or [values]}``: the judgements kept (one criterion, say).

    Returns
    -------
    DataFrame
        One cell (table, row, column, alpha).

    Notes
    -----
    alpha = 1 - D_o / D_e = 1 - (n - 1) sum_{c,k} o_ck delta^2_ck / sum_{c,k} n_c n_k delta^2_ck over the
    coincidence matrix o of the pairable values (units with two or more values; n of them, n_c of value c) and
    the level's distance delta (nominal: 0 or 1; interval: (c - k)^2; ordinal and ratio as Krippendorff defines
    them). Computed by the ``krippendorff`` package from the units x values counts (:func:`krippendorff_alpha`);
    every alpha of liu's and shardlow's runs is checked against the textbook definition above, computed apart
    (``tests/test_e2e_r_crosscheck.py``).

    References
    ----------
    Krippendorff (2011), *Computing Krippendorff's Alpha-Reliability*, Annenberg School for Communication
    Departmental Papers 43; Hayes & Krippendorff (2007), *Communication Methods and Measures* 1(1): 77-89.

    Examples
    --------
    Two raters, three items (1, 1), (1, 2), (2, 2), nominal: o_11 = o_22 = 2, o_12 = o_21 = 1, n_1 = n_2 = 3, so
    alpha = 1 - 5 x 2 / (3 x 3 x 2) = 4/9.

    >>> j = pd.DataFrame({"side": "O", "participant": ["a", "b"] * 3, "item": [1, 1, 2, 2, 3, 3],
    ...                   "value": [1, 1, 1, 2, 2, 2]})
    >>> out = krippendorff_alpha_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", row="O", column="alpha",
    ...                                  side="O", units=["item"], level="nominal")
    >>> round(float(out["value"].iloc[0]), 4)
    0.4444
    """
    frame = data.rows("kept", None, where)
    frame = frame[frame["side"] == side]
    alpha = krippendorff_alpha(frame, units, level)
    if assert_equal_to is not None:
        other = krippendorff_alpha(frame, units, assert_equal_to)
        if not np.isclose(alpha, other, atol=1e-9):
            raise HumevalError(
                f"alpha {level} = {alpha:.6f} differs from {assert_equal_to} = {other:.6f}; "
                "the config asserts they are equal for this data"
            )
    return value_frame(table, [(row, column, alpha)])


def krippendorff_alpha_by_batch(frame: pd.DataFrame, batch: str, units: list[str], level: str) -> pd.Series:
    """Krippendorff's alpha within each batch (coders = participants of the batch), indexed by batch."""
    return frame.groupby(batch).apply(lambda part: krippendorff_alpha(part, units, level), include_groups=False)


@register("metric", "krippendorff_alpha_by_batch")
def batch_alpha_numbers(
    data: StudyData,
    *,
    table: str,
    column: str,
    side: str,
    units: Columns,
    level: Level,
    batch: Column = "batch",
    frame: Frame = "tidy",
    batches: list[int] | None = None,
    summary: dict | None = None,
) -> pd.DataFrame:
    """Krippendorff's alpha per batch (rows = batch numbers), optionally with their mean and SD.

    Parameters
    ----------
    column : str
        The column of the per-batch alphas.
    side : str
        The side whose judgements are read.
    units : list of str
        The columns that make a unit (``[item]``, ``[item, system]``); coders are the participants.
    level : {'nominal', 'ordinal', 'interval', 'ratio'}
        The level of measurement.
    batch : str
        The column holding the batch number.
    frame : {'kept', 'tidy'}
        The judgements read: ``tidy`` (every row, as the authors computed it) or ``kept``.
    batches : list of int, optional
        The batches reported (default: every batch in the data).
    summary : dict, optional
        ``{table, row, columns: {mean, sd}, recomputed_row?, published: {table, column}?}``: the mean and SD (ddof
        1) of the recomputed alphas go to ``recomputed_row``; with ``published``, batches the data lack are filled
        with their published alphas and the statistics go to ``row``.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one alpha per batch, and the summary cells.

    Notes
    -----
    Within batch b, alpha_b = 1 - D_o / D_e of its own units and coders (:func:`krippendorff_alpha_numbers`
    gives the formula); the summary is the mean and the SD with n - 1 over the batches' alphas, and with
    ``published`` over the recomputed alphas and the printed alphas of the batches whose exports are missing.
    Every alpha of liu's run (its 27 recomputed batches among them) equals the textbook definition computed apart
    to 1e-9 (``tests/test_e2e_r_crosscheck.py``).

    References
    ----------
    Krippendorff (2011), *Computing Krippendorff's Alpha-Reliability*, Annenberg School for Communication
    Departmental Papers 43; Dinkar, Abercrombie & Rieser (2024), *ReproHum #0927-03*, HumEval 2024, Tables 1-4
    (per-batch alphas of a crowdsourced reproduction).

    Examples
    --------
    Batch 1: two raters on items (1, 1), (1, 2), (2, 2), nominal alpha 4/9 (:func:`krippendorff_alpha_numbers`);
    batch 2: the same raters agree on (1, 1), (2, 2), alpha 1. Mean (4/9 + 1) / 2 = 0.7222, SD (5/9) / sqrt(2) =
    0.3928.

    >>> j = pd.DataFrame({"side": "R1", "batch": [1] * 6 + [2] * 4, "participant": ["a", "b"] * 5,
    ...                   "item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "value": [1, 1, 1, 2, 2, 2, 1, 1, 2, 2]})
    >>> out = batch_alpha_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", column="alpha", side="R1",
    ...                           units=["item"], level="nominal", summary={"table": "t", "recomputed_row": "all",
    ...                           "columns": {"mean": "mean", "sd": "sd"}})
    >>> [(r, c, round(v, 4)) for r, c, v in zip(out["row"], out["column"], out["value"])]
    [('1', 'alpha', 0.4444), ('2', 'alpha', 1.0), ('all', 'mean', 0.7222), ('all', 'sd', 0.3928)]
    """
    source = data.kept if frame == "kept" else data.tidy
    part = source[source["side"] == side]
    alphas = krippendorff_alpha_by_batch(part, batch, units, level)
    alphas.index = alphas.index.astype(int).astype(str)
    wanted = alphas if batches is None else alphas[alphas.index.isin([str(b) for b in batches])]
    rows = [(b, column, float(a)) for b, a in wanted.items()]
    out = value_frame(table, rows)
    if summary:
        extra = []
        if summary.get("recomputed_row"):
            extra += [
                (summary["recomputed_row"], summary["columns"]["mean"], float(alphas.mean())),
                (summary["recomputed_row"], summary["columns"]["sd"], float(alphas.std(ddof=1))),
            ]
        if summary.get("published"):
            published = data.published
            cells = published[
                (published["table"] == summary["published"]["table"])
                & (published["column"] == summary["published"]["column"])
            ].set_index("row")["value"]
            filled = pd.concat([alphas, cells[~cells.index.isin(alphas.index)]])
            extra += [
                (summary["row"], summary["columns"]["mean"], float(filled.mean())),
                (summary["row"], summary["columns"]["sd"], float(filled.std(ddof=1))),
            ]
        out = pd.concat([out, value_frame(summary["table"], extra)], ignore_index=True)
    return out


@register("metric", "krippendorff_alpha_by_group")
def alpha_by_group_numbers(
    data: StudyData,
    *,
    table: str,
    by: Columns,
    row: str,
    column: str,
    units: Columns,
    level: Level,
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Krippendorff's alpha (coders = participants) within each group of ``by`` (per criterion and
    experiment, say).

    Parameters
    ----------
    row, column : str
        Templates over the ``by`` keys (``{criterion}``).
    units : list of str
        The columns that make a unit (``[item]``, ``[item, system]``); coders are the participants.
    level : {'nominal', 'ordinal', 'interval', 'ratio'}
        The level of measurement.

    Returns
    -------
    DataFrame
        Cells (table, row, column, alpha): one per group.

    Notes
    -----
    Within each group, alpha = 1 - D_o / D_e over its coincidence matrix, as :func:`krippendorff_alpha_numbers`
    gives it (the ``krippendorff`` package from the units x values counts); a group whose values are all one
    value has no expected disagreement and is one line naming the entry, not an alpha. The function every alpha
    goes through equals the textbook definition computed apart to 1e-9 on liu's and shardlow's runs
    (``tests/test_e2e_r_crosscheck.py``); lux's agreement table uses this entry.

    References
    ----------
    Krippendorff (2011) and Hayes & Krippendorff (2007), as :func:`krippendorff_alpha_numbers` cites them.

    Examples
    --------
    Two criteria rated by two raters: fluency on items (1, 1), (1, 2), (2, 2), nominal alpha 4/9; meaning on
    (1, 1), (2, 2), alpha 1.

    >>> j = pd.DataFrame({"side": "O", "criterion": ["fluency"] * 6 + ["meaning"] * 4,
    ...                   "participant": ["a", "b"] * 5, "item": [1, 1, 2, 2, 3, 3, 1, 1, 2, 2],
    ...                   "value": [1, 1, 1, 2, 2, 2, 1, 1, 2, 2]})
    >>> out = alpha_by_group_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", by=["criterion"],
    ...                              row="{criterion}", column="alpha", units=["item"], level="nominal")
    >>> out.set_index("row")["value"].round(4).to_dict()
    {'fluency': 0.4444, 'meaning': 1.0}
    """
    return one_cell_per_group(
        data, lambda part: krippendorff_alpha(part, units, level), table, by, row, column, labels, where, frame, variant
    )


def kappa(frame: pd.DataFrame, units: list[str], method: str = "fleiss", coder: str = "participant") -> float:
    """Fleiss' kappa (every unit rated by the same number of coders; categories = the values) or Cohen's
    kappa (exactly two coders, on the units both rated), with statsmodels (installed with pingouin).

    >>> frame = pd.DataFrame({"participant": ["a", "b"] * 4, "item": [1, 1, 2, 2, 3, 3, 4, 4],
    ...                       "value": [1, 1, 2, 2, 1, 2, 2, 2]})
    >>> round(kappa(frame, ["item"], "cohen"), 4), round(kappa(frame, ["item"], "fleiss"), 4)
    (0.5, 0.4667)
    """
    from statsmodels.stats import inter_rater

    matrix = reliability_matrix(frame, units, coder)
    if method == "cohen":
        if len(matrix) != 2:
            raise HumevalError(f"Cohen's kappa needs exactly two coders, found {len(matrix)}")
        both = matrix.dropna(axis=1).T
        table = pd.crosstab(both.iloc[:, 0], both.iloc[:, 1])
        categories = sorted(set(table.index) | set(table.columns))
        table = table.reindex(index=categories, columns=categories, fill_value=0)
        return float(inter_rater.cohens_kappa(table.to_numpy()).kappa)
    if method == "fleiss":  # units x categories counts, as statsmodels' aggregate_raters gives them
        present = matrix.notna().to_numpy()
        units = np.nonzero(present)[1]
        counts, _ = unit_value_counts(units, matrix.shape[1], pd.Series(matrix.to_numpy()[present]))
        sizes = pd.Series(counts.sum(axis=1))
        if sizes.nunique() != 1:
            raise HumevalError(
                f"Fleiss' kappa needs the same number of coders per unit, found {sorted(sizes.unique())}"
            )
        return float(inter_rater.fleiss_kappa(counts, method="fleiss"))
    raise HumevalError(f"unknown kappa method {method!r} (fleiss, cohen)")


@register("metric", "kappa_by_group")
def kappa_by_group_numbers(
    data: StudyData,
    *,
    table: str,
    by: Columns,
    row: str,
    column: str,
    method: Literal["fleiss", "cohen"] = "fleiss",
    units: Columns = ("item",),
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Fleiss' or Cohen's kappa (:func:`kappa`, statsmodels and scikit-learn's formulas) within each group of
    ``by``.

    Parameters
    ----------
    row, column : str
        Templates over the ``by`` keys.
    method : {'fleiss', 'cohen'}
        Fleiss' kappa (any number of raters per unit) or Cohen's (exactly two raters).
    units : list of str
        The columns that make a unit.

    Returns
    -------
    DataFrame
        Cells (table, row, column, kappa): one per group.

    Notes
    -----
    kappa = (P_o - P_e) / (1 - P_e). Fleiss: over N units with n ratings each, P_o is the mean over units of
    (sum_j n_ij^2 - n) / (n (n - 1)) and P_e = sum_j p_j^2 with p_j the share of all ratings in category j (the
    raters need not be the same in every unit). Cohen: two raters, P_o their share of agreeing units and P_e =
    sum_j p_1j p_2j from each rater's own shares. Fleiss' kappa equals statsmodels' ``fleiss_kappa`` on its own
    counting (``tests/test_agreement.py``); the ``.test`` study's Fleiss kappas (O 0.1312, R1 0.1233) are worked
    out by hand in its study file, and Cohen's in the example below.

    References
    ----------
    Fleiss (1971), *Psychological Bulletin* 76(5): 378-382; Cohen (1960), *Educational and Psychological
    Measurement* 20(1): 37-46.

    Examples
    --------
    Two raters on three items, (1, 1), (1, 2), (2, 2). Fleiss: P_o = (1 + 0 + 1) / 3, P_e = 0.5^2 + 0.5^2, kappa
    = 1/3; Cohen: P_o = 2/3, P_e = 2/3 x 1/3 + 1/3 x 2/3 = 4/9, kappa = 0.4.

    >>> j = pd.DataFrame({"side": "O", "participant": ["r1", "r2"] * 3, "item": [1, 1, 2, 2, 3, 3],
    ...                   "value": [1, 1, 1, 2, 2, 2]})
    >>> data = StudyData(j, j, j, j.iloc[:0])
    >>> [round(float(kappa_by_group_numbers(data, table="t", by=["side"], row="{side}", column="k",
    ...                                      method=m)["value"].iloc[0]), 4) for m in ("fleiss", "cohen")]
    [0.3333, 0.4]
    """
    return one_cell_per_group(
        data, lambda part: kappa(part, list(units), method), table, by, row, column, labels, where, frame, variant
    )


def percent_agreement(values: pd.DataFrame, *, ties: str = "all") -> dict[str, float]:
    """Percentage agreement of raters over units (``unit``, ``value``, and optionally ``can_agree``, False for a
    value that never agrees, such as a "no preference" answer): ``pairwise``, the share of agreeing pairs of
    ratings within a unit, pooled over units with two or more ratings; ``majority``, the share of ratings equal
    to their unit's most frequent value, over the same units. A tie for the most frequent value: with ``ties``
    ``all`` every tied value is the majority; with ``none`` the unit has no majority (a strict majority).

    >>> frame = pd.DataFrame({"unit": ["u", "u", "u", "v", "v", "w", "w"], "value": [1, 1, 2, 3, 3, 1, 2]})
    >>> percent_agreement(frame), percent_agreement(frame, ties="none")["majority"]
    ({'pairwise': 40.0, 'majority': 85.71428571428571, 'units': 3.0}, 57.142857142857146)
    >>> percent_agreement(frame.assign(can_agree=frame["value"] != 3))["pairwise"]
    20.0
    """
    can_agree = values["can_agree"] if "can_agree" in values else pd.Series(True, index=values.index)
    grouped = values.assign(can_agree=can_agree.to_numpy()).groupby(["unit", "value"], sort=False)
    counts, agreeable = grouped.size(), grouped["can_agree"].all()
    per_unit = counts.groupby(level="unit").sum()
    rated = per_unit[per_unit >= 2].index
    kept = counts.index.get_level_values("unit").isin(rated)
    counts, agreeable = counts[kept], agreeable[kept]
    agreeing = (counts * (counts - 1) / 2).where(agreeable, 0).groupby(level="unit").sum()
    n = per_unit.loc[rated]
    pairs = n * (n - 1) / 2
    top = counts.groupby(level="unit").transform("max")
    majority = (counts == top) & agreeable
    if ties == "none":  # a most frequent value shared by two or more values is no majority
        majority &= (counts == top).groupby(level="unit").transform("sum") == 1
    in_majority = counts[majority].groupby(level="unit").sum()
    return {
        "pairwise": float(100 * agreeing.sum() / pairs.sum()) if pairs.sum() else float("nan"),
        "majority": float(100 * in_majority.sum() / n.sum()) if n.sum() else float("nan"),
        "units": float(len(rated)),
    }


@register("metric", "percent_agreement")
def percent_agreement_numbers(
    data: StudyData,
    *,
    table: str,
    units: Columns,
    row: str,
    column: str = "{stat}",
    stats: list[Literal["pairwise", "majority", "units"]] = ("pairwise", "majority"),
    by: Columns = (),
    ties: Literal["all", "none"] = "all",
    agree_on: list | None = None,
    scale: Scale = "percent",
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Percentage agreement of the raters over units (:func:`percent_agreement`), per group of ``by``.

    Parameters
    ----------
    units : list of str
        The columns that make a unit (``[item, system]``).
    row, column : str
        Templates over the ``by`` keys and ``{stat}``.
    stats : list of {'pairwise', 'majority', 'units'}
        ``pairwise``: the share (%) of agreeing pairs of ratings within a unit, pooled over units rated twice or
        more; ``majority``: the share (%) of ratings equal to their unit's most frequent value (a tie: every tied
        value counts, unless ``ties`` says otherwise); ``units``: the units counted.
    ties : {'all', 'none'}
        A tie for a unit's most frequent value: every tied value is its majority (``all``), or the unit has none
        (``none``: a strict majority).
    agree_on : list, optional
        The values that can agree (compared by type); two ratings of any other value (a "no preference" answer)
        never count as agreeing, nor as a majority. Default: every value.
    scale : {'percent', 'proportion'}
        ``pairwise`` and ``majority`` in per cent or as proportions.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one per group and statistic.

    Notes
    -----
    pairwise = 100 sum_u a_u / sum_u m_u (m_u - 1) / 2 over the units u rated m_u >= 2 times, a_u the unit's
    agreeing pairs (sum over values of c (c - 1) / 2 for a value given c times); majority = 100 sum_u c_u / sum_u
    m_u, c_u the ratings equal to the unit's most frequent value. Unlike kappa and alpha, neither corrects for
    chance agreement. puduppully's printed Weighted Mean (the authors' ``Annotator agreement.ipynb``: a strict
    majority of A and B answers, ``ties: none`` and ``agree_on``) matches for all three criteria, and the ``.test``
    study's pairwise and majority shares match its hand counts (their audits).

    References
    ----------
    Artstein & Poesio (2008), "Inter-Coder Agreement for Computational Linguistics", *Computational Linguistics*
    34(4): 555-596, section 2.1 (observed agreement).

    Examples
    --------
    Unit u rated 1, 1, 2 (one agreeing pair of three; two ratings in its majority), v 3, 3 (one of one; two), w 1, 2
    (none of one; a tie, both in its majority): pairwise 100 x 2 / 5, majority 100 x 6 / 7.

    >>> j = pd.DataFrame({"item": list("uuuvvww"), "value": [1, 1, 2, 3, 3, 1, 2]})
    >>> out = percent_agreement_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", units=["item"], row="all")
    >>> out.set_index("column")["value"].round(2).to_dict()
    {'pairwise': 40.0, 'majority': 85.71}
    """

    def compute(part: pd.DataFrame) -> dict:
        unit = part.groupby(units, sort=False, dropna=False).ngroup()
        values = pd.DataFrame({"unit": unit.to_numpy(), "value": part["value"].astype(str).to_numpy()})
        if agree_on is not None:
            values["can_agree"] = part.index.isin(filter_where(part, {"value": agree_on}, data.tidy).index)
        measures = percent_agreement(values, ties=ties)
        return {k: v * SCALES[scale] if k != "units" else v for k, v in measures.items()}

    return stat_cells_per_group(data, compute, stats, table, by, row, column, labels, where, frame, variant)
