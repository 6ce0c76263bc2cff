"""The tabular loader's readers (:mod:`humeval.loaders.tabular`): a CSV, TSV, XLSX sheet or JSON-lines export read
as text, its columns found by name or pattern, rows kept by a filter."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from humeval.errors import HumevalError
from humeval.loaders import read_csv_export, read_workbook_sheet
from humeval.patterns import config_pattern

__all__ = ["columns_hint", "find_column", "joined", "keep_rows", "numeric", "read_table"]

FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".xlsx": "xlsx", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def columns_hint(columns: list[str], wanted: str) -> str:
    """The export's columns as an error shows them: the close matches of ``wanted`` and how many there are, not a
    line of hundreds of headers.

    >>> columns_hint(["item_id", "rater", "score"], "itemid")
    "close matches: ['item_id']; 3 columns"
    """
    import difflib

    columns = [str(c) for c in columns if c != "_row"]  # the loader's row number, not the export's
    close = difflib.get_close_matches(str(wanted), columns, n=3, cutoff=0.6)
    shown = f"close matches: {close}" if close else f"first columns: {columns[:8]}"
    return f"{shown}; {len(columns)} columns"


def find_column(columns: list[str], spec: dict | str, path: str, what: str) -> str:
    """The header a spec names: ``name`` or ``{column: name}`` exactly, or ``{pattern: regex}`` matching one."""
    spec = {"column": spec} if isinstance(spec, str) else spec
    if "column" in spec:
        if spec["column"] not in columns:
            raise HumevalError(
                f"{what}: no column {spec['column']!r} ({columns_hint(columns, spec['column'])})", file=path
            )
        return spec["column"]
    pattern = config_pattern(spec["pattern"], ignore_case=True)
    hits = [c for c in columns if pattern.search(c)]
    if len(hits) != 1:
        raise HumevalError(
            f"{what}: pattern {spec['pattern']!r} matches {len(hits)} headers {hits}, not one", file=path
        )
    return hits[0]


def read_json_lines(path: str) -> pd.DataFrame:
    """JSON lines as text: every number as it is written (``12345678901234567`` stays those digits, never a float
    that merges two raters), ``null`` or an absent key as an empty cell, and every string as it is (``"None"`` and
    ``"nan"`` are text; only ``na_values`` makes a string missing)."""
    from humeval import strict_json

    records = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = strict_json.loads(line, parse_int=str, parse_float=str, parse_constant=str)
            except strict_json.DuplicateKey as exc:
                raise HumevalError(f"line {number}: {exc}", file=path) from None
            except (ValueError, RecursionError) as exc:
                raise HumevalError(f"line {number}: not a JSON value ({type(exc).__name__})", file=path) from None
            if not isinstance(record, dict):
                raise HumevalError(f"line {number}: expected a JSON object, got {type(record).__name__}", file=path)
            records.append(record)
    frame = pd.DataFrame.from_records(records).astype(object)
    # numbers arrive as their text (parse_int/parse_float), so a float here is pandas' mark of an absent key
    return frame.map(lambda v: "" if v is None or isinstance(v, float) else str(v))


def read_table(path: str, options: dict) -> pd.DataFrame:
    """One export as text (no type guessing), with a clear error for what cannot be parsed. No cell is missing
    but an empty one, or one whose text ``na_values`` lists."""
    kind = options.get("format") or FORMATS.get(Path(path).suffix.lower(), "csv")
    try:
        if kind == "xlsx":
            frame = read_workbook_sheet(path, options.get("sheet", 0), dtype=str).fillna("")
        elif kind == "jsonl":
            frame = read_json_lines(path)
        else:
            sep = options.get("sep", "\t" if kind == "tsv" else ",")
            repeated = bool((options.get("join") or {}).get("positional"))  # questions that share one header
            frame = read_csv_export(path, sep=sep, repeated_headers=repeated)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError, ValueError) as exc:
        if isinstance(exc, HumevalError):
            raise
        raise HumevalError(f"cannot parse as {kind}: {exc}", file=path) from None
    frame.columns = [str(c) for c in frame.columns]
    na_values = [str(v) for v in options.get("na_values", [])]
    return frame.replace(na_values, "") if na_values else frame


def joined(frame: pd.DataFrame, columns: list[str]) -> pd.Series:
    """The columns' text joined with ``|``, column by column (not a Python call per row)."""
    if not columns:
        return pd.Series("", index=frame.index)
    out = frame[columns[0]].astype(str)
    for column in columns[1:]:
        out = out + "|" + frame[column].astype(str)
    return out


def keep_rows(raw: pd.DataFrame, where: dict, path: str) -> pd.DataFrame:
    for name, wanted in where.items():
        column = find_column(list(raw.columns), name, path, "where")
        wanted = wanted if isinstance(wanted, list) else [wanted]
        raw = raw[raw[column].isin([str(w) for w in wanted])]
    return raw


def numeric(text: pd.Series, options: dict, rows: pd.Series, column: str, path: str) -> pd.Series:
    """Values as numbers: mapped by ``value_map`` where given, empty kept as NaN, anything else an error."""
    text = text.astype(str).str.strip()
    if "value_map" in options:
        mapping = {str(k): v for k, v in options["value_map"].items()}
        unknown = (text != "") & ~text.isin(list(mapping))
        if unknown.any():
            row = int(unknown.to_numpy().argmax())
            raise HumevalError(
                f"row {rows.iloc[row]}, column {column!r}: {text.iloc[row]!r} is not in value_map {sorted(mapping)}",
                file=path,
            )
        text = text.map({k: str(v) for k, v in mapping.items()}).where(text != "", "")
    values = pd.to_numeric(text, errors="coerce")
    bad = values.isna() & (text != "")
    low, high = options.get("scale", [None, None])
    if low is not None:
        bad |= values.notna() & ~values.between(low, high)
    if bad.any():
        row = int(bad.to_numpy().argmax())
        scale = f" on the scale {low}..{high}" if low is not None else ""
        raise HumevalError(
            f"row {rows.iloc[row]}, column {column!r}: {text.iloc[row]!r} is not a value{scale}", file=path
        )
    return values
