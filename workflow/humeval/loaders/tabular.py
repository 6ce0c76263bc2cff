"""Generic loader for tabular exports, by config alone: CSV, TSV, XLSX (one sheet) and JSON lines, long or wide.

Every input role of the extract entry is one file, read in role order and stacked (several files per
experiment: batches, annotators). Columns are named exactly (``"name"`` or ``{column: name}``) or by a
case-insensitive regular expression on the header (``{pattern: regex}``: verbose headers such as
``readability(grammarly correct ... 1 to 5)``); exactly one header must match. Params:

- ``format``: ``csv`` | ``tsv`` | ``xlsx`` | ``jsonl`` (default from the file suffix); ``sep``; ``sheet`` (xlsx);
- ``shape``: ``wide`` (the default: one column per criterion, ``criteria: {<criterion>: column spec}``),
  ``melt`` (one column per criterion, item or system: every header matching ``columns``, a regex whose
  named groups ``criterion``, ``item``, ``system`` say what the header holds; the rest come from params) or
  ``long`` (one row per judged value: ``value`` column, ``criterion`` column or constant);
- ``participant`` (the rater, pseudonymised per study and side), ``item`` (column(s), joined with ``|``),
  ``system`` (``{column, map?}``, or a constant ``{value}``), ``system_b`` (pairwise: the second system);
- ``response_type``: ``rating`` (default), ``magnitude``, ``rank`` (rows of one ranking share a judgement:
  ``judgement`` columns) or ``pairwise`` (value +1 = ``system`` preferred, -1 = ``system_b``, 0 = equal);
- ``value_map``: {text in the export: number} (e.g. ``{A: 1, B: -1, equal: 0}``; an unmapped text is an error);
- ``where``: {column: value or [values]} rows to keep (e.g. drop gold questions), applied first;
- ``judgement``: column(s) identifying one act of judging (default: the row);
- ``carry``: {tidy column: column or [columns]} extra columns kept; ``scale: [low, high]`` range check.

An empty value stays a row with an empty value (the exclusion ``missing_value`` logs and drops it); a value
that is not a number (after ``value_map``) or outside ``scale`` is an error naming the file, row and column.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from humeval.errors import HumevalError
from humeval.loaders import read_workbook_sheet
from humeval.tidy import pseudonym

FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".xlsx": "xlsx", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def find_column(columns: list[str], spec: dict | str, path: str, what: str) -> str:
    """The header a spec names: ``name`` or ``{column: name}`` exactly, or ``{pattern: regex}`` matching one."""
    spec = {"column": spec} if isinstance(spec, str) else spec
    if "column" in spec:
        if spec["column"] not in columns:
            raise HumevalError(f"{what}: no column {spec['column']!r} (columns: {columns})", file=path)
        return spec["column"]
    pattern = re.compile(spec["pattern"], re.IGNORECASE)
    hits = [c for c in columns if pattern.search(c)]
    if len(hits) != 1:
        raise HumevalError(
            f"{what}: pattern {spec['pattern']!r} matches {len(hits)} headers {hits}, not one", file=path
        )
    return hits[0]


def read_table(path: str, params: dict) -> pd.DataFrame:
    """One export as text (no type guessing), with a clear error for what cannot be parsed."""
    kind = params.get("format") or FORMATS.get(Path(path).suffix.lower(), "csv")
    try:
        if kind == "xlsx":
            frame = read_workbook_sheet(path, params.get("sheet", 0), dtype=str).fillna("")
        elif kind == "jsonl":
            frame = pd.read_json(path, lines=True, dtype=False).astype(str).replace({"None": "", "nan": ""})
        else:
            sep = params.get("sep", "\t" if kind == "tsv" else ",")
            frame = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, encoding="utf-8")
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError, ValueError) as exc:
        if isinstance(exc, HumevalError):
            raise
        raise HumevalError(f"cannot parse as {kind}: {exc}", file=path) from None
    frame.columns = [str(c) for c in frame.columns]
    return frame


def joined(frame: pd.DataFrame, columns: list[str]) -> pd.Series:
    return frame[columns].astype(str).agg("|".join, axis=1)


def keep_rows(raw: pd.DataFrame, where: dict, path: str) -> pd.DataFrame:
    for name, wanted in where.items():
        column = find_column(list(raw.columns), name, path, "where")
        wanted = wanted if isinstance(wanted, list) else [wanted]
        raw = raw[raw[column].isin([str(w) for w in wanted])]
    return raw


def system_values(raw: pd.DataFrame, spec, path: str, what: str) -> pd.Series:
    """The system column (renamed by ``map``; an unmapped code is an error) or a constant ``{value}``."""
    if isinstance(spec, dict) and "value" in spec:
        return pd.Series(spec["value"], index=raw.index)
    spec = {"column": spec} if isinstance(spec, str) else spec
    column = find_column(list(raw.columns), spec, path, what)
    values = raw[column]
    if "map" in spec:
        unknown = ~values.isin(list(spec["map"]))
        if unknown.any():
            row = int(unknown.to_numpy().argmax())
            raise HumevalError(
                f"row {raw['_row'].iloc[row]}, column {column!r}: system {values.iloc[row]!r} is not in the config's "
                f"map {sorted(spec['map'])}",
                file=path,
            )
        values = values.map(spec["map"])
    return values


def numeric(text: pd.Series, params: dict, rows: pd.Series, column: str, path: str) -> pd.Series:
    """Values as numbers: mapped by ``value_map`` where given, empty kept as NaN, anything else an error."""
    text = text.astype(str).str.strip()
    if "value_map" in params:
        mapping = {str(k): v for k, v in params["value_map"].items()}
        unknown = (text != "") & ~text.isin(list(mapping))
        if unknown.any():
            row = int(unknown.to_numpy().argmax())
            raise HumevalError(
                f"row {rows.iloc[row]}, column {column!r}: {text.iloc[row]!r} is not in value_map {sorted(mapping)}",
                file=path,
            )
        text = text.map(lambda t: "" if t == "" else str(mapping[t]))
    values = pd.to_numeric(text, errors="coerce")
    bad = values.isna() & (text != "")
    low, high = params.get("scale", [None, None])
    if low is not None:
        bad |= values.notna() & ~values.between(low, high)
    if bad.any():
        row = int(bad.to_numpy().argmax())
        scale = f" on the scale {low}..{high}" if low is not None else ""
        raise HumevalError(
            f"row {rows.iloc[row]}, column {column!r}: {text.iloc[row]!r} is not a value{scale}", file=path
        )
    return values


#: Names a ``carry`` entry may not take: the loader's own working columns and the tidy table's columns (a carried
#: column of that name would be overwritten or dropped). Read by the config check (humeval.config) before any job.
RESERVED_CARRY = {
    "rater": "the loader's raw participant id",
    "_row": "the loader's row number",
    "_judgement": "the loader's judgement key",
    "_file": "the loader's input file",
    "study": "a tidy column",
    "side": "a tidy column",
    "judgement_id": "a tidy column",
    "participant": "a tidy column",
    "item": "a tidy column",
    "criterion": "a tidy column",
    "response_type": "a tidy column",
    "system": "a tidy column",
    "system_b": "a tidy column",
    "value": "a tidy column",
}


def long_rows(raw: pd.DataFrame, params: dict, path: str) -> pd.DataFrame:
    """One tidy row per judged value, before ids: participant, item, system, criterion, value (+ carried)."""
    columns = list(raw.columns)
    base = pd.DataFrame(
        {
            "rater": raw[find_column(columns, params["participant"], path, "participant")],
            "item": joined(raw, [find_column(columns, c, path, "item") for c in params["item"]]),
            "_row": raw["_row"],
        },
        index=raw.index,
    )
    if "judgement" in params:
        base["_judgement"] = joined(raw, [find_column(columns, c, path, "judgement") for c in params["judgement"]])
    if "system_b" in params:
        base["system_b"] = system_values(raw, params["system_b"], path, "system_b")
    for name, spec in params.get("carry", {}).items():
        carried = spec if isinstance(spec, list) else [spec]
        base[name] = joined(raw, [find_column(columns, c, path, f"carry {name}") for c in carried])
    shape = params.get("shape", "wide")

    def needed(key, value):  # shape-specific parameters: optional in general, required by their shape
        if value is None:
            raise HumevalError(f"loader tabular: shape {shape!r} needs the parameter {key!r}", file=path)
        return value

    frames = []
    if shape == "wide":
        base["system"] = system_values(raw, needed("system", params.get("system")), path, "system")
        for criterion, spec in needed("criteria", params.get("criteria")).items():
            column = find_column(columns, spec, path, f"criterion {criterion}")
            frames.append(
                base.assign(criterion=criterion, value=numeric(raw[column], params, raw["_row"], column, path))
            )
    elif shape == "long":
        base["system"] = system_values(raw, needed("system", params.get("system")), path, "system")
        column = find_column(columns, needed("value", params.get("value")), path, "value")
        criterion = needed("criterion", params.get("criterion"))
        base["criterion"] = (
            raw[find_column(columns, criterion, path, "criterion")] if isinstance(criterion, dict) else criterion
        )
        frames.append(base.assign(value=numeric(raw[column], params, raw["_row"], column, path)))
    elif shape == "melt":
        pattern = re.compile(needed("columns", params.get("columns")), re.IGNORECASE)
        matched = [(c, pattern.search(c)) for c in columns]
        matched = [(c, m) for c, m in matched if m]
        if not matched:
            raise HumevalError(f"no header matches columns pattern {pattern.pattern!r} (columns: {columns})", file=path)
        for column, match in matched:
            groups = match.groupdict()
            part = base.copy()
            part["criterion"] = groups.get("criterion") or params.get("criterion")
            if groups.get("item"):
                part["item"] = groups["item"]
            part["system"] = (
                groups["system"]
                if groups.get("system")
                else system_values(raw, needed("system", params.get("system")), path, "system")
            )
            frames.append(part.assign(value=numeric(raw[column], params, raw["_row"], column, path)))
    else:
        raise HumevalError(f"loader tabular: unknown shape {shape!r} (wide, long, melt)", file=path)
    return pd.concat(frames, ignore_index=True)


def load(inputs: dict, params: dict, *, study: str, side: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy judgements (one row per judged value) and the raters of one or more tabular exports."""
    if not inputs:
        raise HumevalError("loader 'tabular' needs at least one raw input", study=study)
    response_type = params.get("response_type", "rating")
    frames = []
    for role, path in inputs.items():
        raw = read_table(path, params)
        raw["_row"] = [f"{role}:{k}" for k in range(2, len(raw) + 2)]
        raw = keep_rows(raw, params.get("where", {}), path)
        rows = long_rows(raw, params, path)
        if "_judgement" not in rows:
            rows["_judgement"] = rows["_row"] + (":" + rows["criterion"].astype(str) if response_type != "rank" else "")
        frames.append(rows.assign(_file=path))
    long = pd.concat(frames, ignore_index=True)
    long["participant"] = long["rater"].map(lambda r: pseudonym(f"{side}:{r}", study))
    long["judgement_id"] = side + ":" + long["_judgement"].astype(str)
    key = ["judgement_id", "system"] if response_type == "rank" else ["participant", "item", "criterion", "system"]
    if response_type == "pairwise":
        key = [*key, "system_b"]
    duplicated = long.duplicated(key)
    if duplicated.any():
        first = long[duplicated].iloc[0]
        raise HumevalError(
            f"row {first['_row']}: rater, item {first['item']!r} and system {first['system']!r} appear twice",
            file=first["_file"],
        )
    judgements = long.drop(columns=["rater", "_row", "_judgement", "_file"]).assign(
        study=study, side=side, response_type=response_type
    )
    if "system_b" not in judgements:
        judgements["system_b"] = ""
    participants = pd.DataFrame(
        {"study": study, "side": side, "participant": sorted(judgements["participant"].unique())}
    )
    return judgements, participants
