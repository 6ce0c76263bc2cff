"""Inter-annotator agreement: Krippendorff's alpha via the ``krippendorff`` package."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, groups_of, render, value_frame
from humeval.vocabulary import register

LEVELS = ("nominal", "ordinal", "interval", "ratio")


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
    matrix was 2,000 coders x 100,000 units, 4 GB and 11 s, the counts 100,000 x 3 (and ``pd.crosstab``, a
    Python call per unit, 3.9 s). A coder judging the same
    unit twice is an error. Nominal values may be text; they are coded as integers first (alpha is invariant
    to the coding).

    >>> frame = pd.DataFrame({"participant": ["a", "b", "a", "b"], "item": [1, 1, 2, 2], "value": [1, 1, 2, 2]})
    >>> krippendorff_alpha(frame, ["item"], "nominal")
    1.0
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
    units: list[str],
    level: str,
    assert_equal_to: str | None = None,
    where: dict | None = None,
) -> pd.DataFrame:
    """One alpha cell for ``side`` (kept judgements, filtered by ``where``, e.g. one criterion). With
    ``assert_equal_to`` (another level), fail unless both levels give the same alpha (e.g. interval =
    ordinal for complete permutations). Per group: ``krippendorff_alpha_by_group``."""
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
    units: list[str],
    level: str,
    batch: str = "batch",
    frame: str = "tidy",
    batches: list | None = None,
    summary: dict | None = None,
) -> pd.DataFrame:
    """Per-batch alpha cells (rows = batch numbers), optionally with mean and SD over batches.

    ``summary``: ``{table, row, columns: {mean, sd}, recomputed_row?, published: {table, column}?}``: the
    mean and SD (ddof = 1) of the recomputed alphas go to ``recomputed_row``; with ``published``, batches
    the data lack are filled with their published alphas and the statistics go to ``row``.
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
    by: list[str],
    row: str,
    column: str,
    units: list[str],
    level: str,
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Krippendorff's alpha (coders = participants, units = the ``units`` columns) within each group of
    ``by``, e.g. per criterion and experiment; cells at the ``row``/``column`` templates over the keys."""
    rows = data.rows(frame, variant, where)
    out = []
    for keys, part in groups_of(rows, by):
        alpha = krippendorff_alpha(part.assign(value=pd.to_numeric(part["value"])), units, level)
        out.append((render(row, keys, labels), render(column, keys, labels), alpha))
    return value_frame(table, out)


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
    by: list[str],
    row: str,
    column: str,
    method: str = "fleiss",
    units: list[str] = ("item",),
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Fleiss' or Cohen's kappa (:func:`kappa`) within each group of ``by``; cells at the ``row``/``column``
    templates over the keys."""
    rows = data.rows(frame, variant, where)
    out = []
    for keys, part in groups_of(rows, by):
        value = kappa(part.assign(value=pd.to_numeric(part["value"])), list(units), method)
        out.append((render(row, keys, labels), render(column, keys, labels), value))
    return value_frame(table, out)
