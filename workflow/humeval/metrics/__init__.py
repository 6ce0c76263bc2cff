"""Study metrics, chosen by name in the study config.

Each config entry ``{metric: <name>, table: <id>, ...params}`` calls the function registered with
``@register("metric", <name>)`` (:mod:`humeval.config.registry`), ``f(data: StudyData, *, table, <parameters>) ->
DataFrame[table, row, column, value]``. The numbers of all
entries form ``metrics.csv``; the audit matches them to the published numbers by (table, row, column).
Modules are imported only when a study uses them, so no step pays for a library it does not need.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Literal

import pandas as pd

from humeval.config.registry import function
from humeval.errors import HumevalError
from humeval.intermediate import VALUE_COLUMNS, kept_judgements, read_csv

__all__ = [
    "SCALES",
    "Column",
    "Columns",
    "Frame",
    "Scale",
    "StudyData",
    "filter_where",
    "groups_of",
    "metrics_study",
    "one_cell_per_group",
    "render",
    "stat_cells_per_group",
    "value_frame",
]

log = logging.getLogger(__name__)

#: The judgements a metric reads: ``kept`` (after the exclusions) or ``tidy`` (every row); or the ``id`` of one
#: of the study's ``derived`` frames (:mod:`humeval.metrics.derived`), which validation accepts too.
Frame = Literal["kept", "tidy"]
#: A parameter naming a column of the judgements, or several: :func:`metrics_study` checks that each names one
#: before the metric runs, so a typo is one line naming the key (with a close match), not a failure inside it.
Column = str
Columns = list[str]
#: How a share is written: in per cent (as a metric computes it) or as a proportion; :data:`SCALES` the factors.
Scale = Literal["percent", "proportion"]
SCALES = {"percent": 1.0, "proportion": 0.01}


@dataclass
class StudyData:
    """What a metric may read: the kept judgements, the full tidy table, participants, the exclusion
    log, the parsed published numbers (``intermediate/published.csv``; inputs where the data lack a part),
    and the study config (for system labels)."""

    kept: pd.DataFrame
    tidy: pd.DataFrame
    participants: pd.DataFrame
    exclusions: pd.DataFrame
    published: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=VALUE_COLUMNS))
    config: dict = field(default_factory=dict)
    variant_exclusions: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["variant", "judgement_id"]))
    #: The value frames the study's earlier metric entries computed (:func:`metrics_study` hands its list over, so
    #: nothing is copied unless read): what ``cell_arithmetic`` reads, as :attr:`computed`.
    computed_frames: list = field(default_factory=list)
    #: The cells the caller reads, where it reads only some ({(table, row, column)}: a planning bootstrap's
    #: findings); a metric may skip a costly cell outside them (Tukey's p-values). None: every cell.
    wanted: frozenset | None = None
    #: {cell: alphas} for the wanted cells read only as a test's p against those alphas
    #: (:func:`humeval.findings.decision_levels`): a metric's item-totals form may give there any number on the
    #: same side of each alpha as the p (Tukey's, :func:`humeval.metrics.ratings_totals.tukey_draws`).
    levels: dict | None = None
    _cells: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _derived: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def from_files(cls, inputs, config: dict) -> StudyData:
        """A study's data as its stage files hold them: ``inputs`` names ``judgements``, ``participants``,
        ``exclusions``, ``published`` and, where a job has it, ``variants`` (a Snakemake job's input)."""
        tidy, exclusions = read_csv(inputs.judgements), read_csv(inputs.exclusions)
        data = cls(
            kept=kept_judgements(tidy, exclusions),
            tidy=tidy,
            participants=read_csv(inputs.participants),
            exclusions=exclusions,
            published=read_csv(inputs.published),
            config=config,
        )
        if hasattr(inputs, "variants"):
            data.variant_exclusions = read_csv(inputs.variants)
        return data

    @property
    def computed(self) -> pd.DataFrame:
        """The values the study's earlier metric entries computed (table, row, column, value)."""
        if not self.computed_frames:
            return pd.DataFrame(columns=VALUE_COLUMNS)
        return pd.concat(self.computed_frames, ignore_index=True)

    def rows(self, frame: str = "kept", variant: str | None = None, where: dict | None = None) -> pd.DataFrame:
        """The judgements a metric reads: ``frame`` (``kept``, ``tidy`` or a ``derived`` frame's id), less the
        judgements the named exclusion ``variant`` drops (a sensitivity analysis, ``exclusions_variants.csv``),
        filtered by ``where`` ({column: value or [values]})."""
        if frame not in ("kept", "tidy"):
            if variant is not None:
                raise HumevalError(f"variant {variant!r} applies to judgements, not to the derived frame {frame!r}")
            rows = self.derived(frame)
            return filter_where(rows, where, rows)
        rows = {"kept": self.kept, "tidy": self.tidy}[frame]
        if variant is not None:
            known = set(self.variant_exclusions["variant"])
            if variant not in known:
                raise HumevalError(f"no exclusion variant {variant!r}; the study defines {sorted(known)}")
            dropped = self.variant_exclusions.loc[self.variant_exclusions["variant"] == variant, "judgement_id"]
            rows = rows[~rows["judgement_id"].isin(set(dropped))]
        return filter_where(rows, where, self.tidy)

    def derived(self, frame: str) -> pd.DataFrame:
        """The study's ``derived`` frame ``frame`` (:func:`humeval.metrics.derived.derive`), built once from its
        source (``from``: ``kept``, ``tidy`` or an earlier derived frame, less ``variant``, filtered by ``where``)."""
        if frame not in self._derived:
            from humeval.metrics.derived import derive

            specs = {spec["id"]: spec for spec in self.config.get("derived", [])}
            if frame not in specs:
                raise HumevalError(f"no frame {frame!r}: kept, tidy or a derived frame ({sorted(specs)})")
            spec = specs[frame]
            source = self.rows(spec.get("from", "kept"), spec.get("variant"), spec.get("where"))
            lacking = [c for c in [*spec["by"], spec.get("of", "value")] if c not in source.columns]
            if lacking:
                raise HumevalError(f"derived frame {frame!r}: the judgements lack the column(s) {lacking} it groups by")
            self._derived[frame] = derive(source, by=spec["by"], reduce=spec["reduce"], of=spec.get("of", "value"))
        return self._derived[frame]

    def columns(self, frame: str) -> list[str]:
        """The columns of ``frame`` a metric may name."""
        return list(self.tidy.columns) if frame in ("kept", "tidy") else list(self.derived(frame).columns)

    def cell(self, side: str, condition: str, criterion: str | None = None, frame: str = "kept") -> pd.DataFrame:
        """The ``frame`` judgements of one side and condition (and criterion), in table order: the rows
        ``(side == s) & (condition == c) & (criterion == k)`` selects, from one grouping per frame instead of
        a scan of every row per call (the survey metrics ask for the same cells dozens of times)."""
        by = ("side", "condition") if criterion is None else ("side", "condition", "criterion")
        if (frame, by) not in self._cells:
            rows = self.rows(frame)
            self._cells[frame, by] = (rows.iloc[:0], dict(iter(rows.groupby(list(by), sort=False))))
        empty, cells = self._cells[frame, by]
        return cells.get((side, condition) if criterion is None else (side, condition, criterion), empty)

    def system_labels(self) -> dict[str, str]:
        """System code -> display label, in config order."""
        return {s["code"]: s.get("label", s["code"]) for s in self.config.get("systems", [])}


def check_spelling(column: str, wanted: list, present: pd.Series) -> None:
    """A YAML number compared with a text column is its text (``10``); where the column spells the same number
    otherwise (``010``, YAML 1.2 reads an unquoted ``010`` as ten), the study file meant which? One line: quote it.

    >>> check_spelling("item", [10], pd.Series(["010", "011"]))
    Traceback (most recent call last):
    ...
    humeval.errors.HumevalError: where item: 10 is a number and the column holds the text '010' with that value: quote the value as the export writes it ('010' or '10')
    """
    numbers = [w for w in wanted if isinstance(w, (int, float)) and not isinstance(w, bool)]
    if not numbers:
        return
    texts = pd.Series(present.unique())
    values = pd.to_numeric(texts, errors="coerce")
    for number in numbers:
        other = texts[(values == number) & (texts != str(number))]
        if len(other):
            raise HumevalError(
                f"where {column}: {number} is a number and the column holds the text {other.iloc[0]!r} with that "
                f"value: quote the value as the export writes it ({other.iloc[0]!r} or '{number}')"
            )


def filter_where(rows: pd.DataFrame, where: dict | None, reference: pd.DataFrame) -> pd.DataFrame:
    """``rows`` whose ``column`` holds one of the ``where`` values ({column: value or [values]}), compared by type:
    numbers as numbers where the column is numeric (``19.0`` matches ``19``), else as text. A value that no row of
    ``reference`` (the whole tidy table) holds is a mistake, not a zero count: an error naming it.

    >>> frame = pd.DataFrame({"n": [19, 20], "s": ["a", "b"]})
    >>> len(filter_where(frame, {"n": "19.0"}, frame)), len(filter_where(frame, {"s": ["a", "b"]}, frame))
    (1, 2)
    >>> none = pd.DataFrame({"participant": [], "side": []}, dtype=object)  # every judgement excluded: no pseudonyms
    >>> filter_where(none, {"side": "R1"}, none)
    Traceback (most recent call last):
    humeval.errors.HumevalError: where side: ['R1'] matches no judgement (values are compared by type)
    """
    for column, wanted in (where or {}).items():
        if column not in rows.columns:
            raise HumevalError(f"where: no column {column!r} in the judgements ({list(rows.columns)})")
        wanted = wanted if isinstance(wanted, list) else [wanted]
        numeric = pd.api.types.is_numeric_dtype(reference[column]) if column in reference else False
        if numeric:
            targets = pd.to_numeric(pd.Series(wanted, dtype=object), errors="coerce")
            if targets.isna().any():
                raise HumevalError(f"where {column}: {wanted} must be numbers: the column holds numbers")
            present, keep = reference[column], rows[column].isin(list(targets))
        else:
            targets = [str(w) for w in wanted]
            present, keep = reference[column].astype(str), rows[column].astype(str).isin(targets)
            check_spelling(column, wanted, present)
        absent = [w for w, t in zip(wanted, targets) if not present.isin([t]).any()]
        if absent and column in reference:
            pseudonyms = set(reference["participant"].astype(str))
            if column != "participant" and len(present) and present.isin(pseudonyms).all():
                raise HumevalError(
                    f"where {column}: {absent} matches no judgement: the column holds rater pseudonyms (it is built "
                    "from the participant column); select raters by number: where: {rater_number: [1, 2, ...]}"
                )
            if column == "participant":
                raise HumevalError(
                    f"where participant: {absent} matches no judgement: pseudonyms are keyed with the study's name "
                    "and raw files, so a copy or one more raw file changes them; select raters by number: where: "
                    "{rater_number: [1, 2, ...]}"
                )
            raise HumevalError(f"where {column}: {absent} matches no judgement (values are compared by type)")
        rows = rows[keep]
    return rows


def value_frame(table: str, rows: list[tuple[str, str, float]]) -> pd.DataFrame:
    """(row, column, value) triples of one table as a frame of metric values."""
    frame = pd.DataFrame(rows, columns=["row", "column", "value"])
    frame.insert(0, "table", table)
    return frame[VALUE_COLUMNS]


def groups_of(rows: pd.DataFrame, by) -> list[tuple[dict, pd.DataFrame]]:
    """(keys as a dict, rows) for each group of the ``by`` columns, in order of first appearance; one group
    of all rows when ``by`` is empty."""
    by = list(by)
    if not by:
        return [({}, rows)]
    return [
        (dict(zip(by, keys if isinstance(keys, tuple) else (keys,))), part)
        for keys, part in rows.groupby(by, sort=False)
    ]


def one_cell_per_group(data, compute, table, by, row, column, labels, where, frame, variant) -> pd.DataFrame:
    """The cells of a by-group metric with one number per group: for each group of ``by`` of the judgements it
    reads (``frame``, ``variant``, ``where``), ``compute`` of the group's rows, values as numbers, in the cell its
    ``row`` and ``column`` templates name."""

    def numbers(part: pd.DataFrame) -> dict:
        return {"value": compute(part.assign(value=pd.to_numeric(part["value"])))}

    return stat_cells_per_group(data, numbers, ["value"], table, by, row, column, labels, where, frame, variant)


def stat_cells_per_group(data, compute, stats, table, by, row, column, labels, where, frame, variant) -> pd.DataFrame:
    """The cells of a by-group metric with named statistics: for each group of ``by`` of the judgements it reads,
    ``compute`` of the group's rows gives ``{stat: number}``, and each of ``stats`` goes to the cell its ``row`` and
    ``column`` templates (over the group keys and ``{stat}``) name."""
    out = []
    for keys, part in groups_of(data.rows(frame, variant, where), by):
        measures = compute(part)
        for stat in stats:
            fields = {**keys, "stat": stat}
            out.append((render(row, fields, labels), render(column, fields, labels), measures[stat]))
    return value_frame(table, out)


def render(template: str, keys: dict, labels: dict | None = None) -> str:
    """A row or column label from a template over group keys, each key shown through ``labels``
    ({key: {value: label}}) where given.

    >>> render("{criterion}|{side}", {"criterion": "relevancy_q", "side": "O"}, {"criterion": {"relevancy_q": "QR"}})
    'QR|O'
    """
    labels = labels or {}
    return template.format(**{k: labels.get(k, {}).get(str(v), v) for k, v in keys.items()})


def check_columns(entry, params: dict, columns: list[str], key_path: str) -> None:
    """Every value of a :data:`Column` or :data:`Columns` parameter names a column of the judgements, else one line
    naming the key, the value and a close match."""
    import difflib

    for parameter in entry.parameters:
        if parameter.name in params and parameter.annotation.split(" | ")[0] in ("Column", "Columns"):
            given = params[parameter.name]
            for value in given if isinstance(given, list) else [given]:
                if value not in columns:
                    close = difflib.get_close_matches(str(value), columns, n=1, cutoff=0.6)
                    hint = f"did you mean {close[0]!r}? " if close else ""
                    raise HumevalError(
                        f"key {key_path}.{parameter.name}: no column {value!r} in the judgements; {hint}"
                        f"({len(columns)} columns: {', '.join(columns[:12])}{', ...' if len(columns) > 12 else ''})"
                    )


def metrics_study(data: StudyData) -> pd.DataFrame:
    """The study's metric values (table, row, column, value): every ``metrics`` entry of ``data.config`` run on
    ``data`` and concatenated, their resampling within one budget (:func:`humeval.resampling.job_budget`); two
    entries writing the same cell is an error."""
    from humeval.resampling import job_budget

    with job_budget():
        return metric_values(data)


def metric_values(data: StudyData) -> pd.DataFrame:
    """:func:`metrics_study`'s entries, run one after another."""
    from humeval.config.registry import entries

    frames = []
    for k, entry in enumerate(data.config.get("metrics", [])):
        name, params = entry["metric"], {key: v for key, v in entry.items() if key not in ("metric", "description")}
        entry_frame = params.get("frame", "kept")
        try:
            columns = data.columns(entry_frame)
        except HumevalError as exc:
            raise HumevalError(f"key metrics.{k}.frame: {exc}") from None
        check_columns(entries("metric")[name], params, columns, f"metrics.{k}")
        data.computed_frames = frames
        try:
            frames.append(function("metric", name)(data, **params))
        except HumevalError as exc:  # the entry it comes from, whatever the metric knew of its config
            raise HumevalError(f"key metrics.{k} ({name}): {exc}") from None
        except KeyError as exc:  # a column a metric reads by its design (santhanam's condition), absent here
            if not (isinstance(exc.args[0], str) and exc.args[0] not in columns):
                raise
            raise HumevalError(
                f"key metrics.{k} ({name}): the metric reads the column {exc.args[0]!r}, which the judgements lack "
                f"({len(columns)} columns: {', '.join(map(str, columns[:12]))}{', ...' if len(columns) > 12 else ''})"
            ) from None
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=VALUE_COLUMNS)
    duplicated = out.duplicated(["table", "row", "column"])
    if duplicated.any():
        first = out[duplicated].iloc[0]
        raise HumevalError(f"two metrics write the same cell {first['table']}/{first['row']}/{first['column']}")
    return out
