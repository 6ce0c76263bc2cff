"""The tabular loader's readers (:mod:`humeval.loaders.tabular`): a CSV, TSV, XLSX sheet or JSON-lines export read
as text, its columns found by name or pattern, rows kept by a filter."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import pandas as pd

from humeval.errors import HumevalError
from humeval.loaders import read_csv_export, read_workbook_sheet
from humeval.loaders.headers import FORMATS, repeated_header
from humeval.patterns import config_pattern

__all__ = [
    "Header",
    "columns_hint",
    "find_column",
    "joined",
    "keep_rows",
    "numeric",
    "read_json_records",
    "read_table",
]


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


class Header(list):
    """An export's column names, with the headers it repeats as pandas names them (``{x: [x, x.1, ...]}``, from
    :func:`humeval.loaders.csv_frame`), so that a reference to a repeated ``x`` is refused, not read as the first."""

    def __init__(self, frame: pd.DataFrame):
        super().__init__(str(c) for c in frame.columns)
        self.repeated = dict(frame.attrs.get("repeated_headers", {}))


def find_column(columns: list[str], spec: dict | str, path: str, what: str) -> str:
    """The header a spec names: ``name`` or ``{column: name}`` exactly, or ``{pattern: regex}`` matching one; a
    header the export repeats is refused (:func:`repeated_header`)."""
    spec = {"column": spec} if isinstance(spec, str) else spec
    if "column" in spec:
        if spec["column"] not in columns:
            raise HumevalError(
                f"{what}: no column {spec['column']!r} ({columns_hint(columns, spec['column'])})", file=path
            )
        repeated_header(columns, spec["column"], path, what)
        return spec["column"]
    pattern = config_pattern(spec["pattern"], ignore_case=True)
    hits = [c for c in columns if pattern.search(c)]
    if len(hits) != 1:
        raise HumevalError(
            f"{what}: pattern {spec['pattern']!r} matches {len(hits)} headers {hits}, not one", file=path
        )
    repeated_header(columns, hits[0], path, what)
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


def enclosing_fields(nodes: list, path: list[str], file: str) -> list:
    """The ``meta`` of :func:`pandas.json_normalize` for records at ``path``: every field that is no list or object, of every
    level that encloses the records (``[["topic"], ["topics", "id"]]``), found over all their objects; each
    level checked on the way down (one line naming the level and the element that lacks it)."""
    meta, where = [], []
    for depth, key in enumerate(path):
        fields, children = {}, []
        for k, node in enumerate(nodes):
            if not isinstance(node, dict) or key not in node:
                raise HumevalError(
                    f"records {' > '.join(path)}: element {k} of {' > '.join(where) or 'the document'} has no "
                    f"key {key!r}",
                    file=file,
                )
            fields.update(
                {name: None for name, value in node.items() if name != key and not isinstance(value, (list, dict))}
            )
            child = node[key]
            if not isinstance(child, list):
                raise HumevalError(f"records {' > '.join(path)}: {key!r} is not a list (element {k})", file=file)
            children += child
        meta += [[*path[:depth], name] for name in fields]
        where.append(key)
        nodes = children
    for k, record in enumerate(nodes):
        if not isinstance(record, dict):
            raise HumevalError(
                f"records {' > '.join(path)}: record {k} is a {type(record).__name__}, not an object", file=file
            )
    return meta


def read_json_records(path: str, records: list[str]) -> pd.DataFrame:
    """A nested JSON export as one row per record, as :func:`pandas.json_normalize` reads it: the records are the
    objects at the path ``records`` (``[runs, topics, nuggets]``: each run's topics' nuggets; ``[]``: a top-level
    list of objects), a record's nested objects flattened to ``a.b`` columns, and the fields of every enclosing
    level carried as ``<level keys>.<field>`` (a run's ``name`` as ``runs.name`` when the document is
    ``{runs: [...]}``, else ``name``). As strict as :func:`read_json_lines`: numbers kept as written, a key
    given twice refused, every path step checked.

    >>> import json, tempfile
    >>> doc = [{"run": "a", "topics": [{"id": 1, "nuggets": [{"score": 2}, {"score": 0.50}]}]}]
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    ...     _ = f.write(json.dumps(doc).replace("0.5", "0.50"))
    >>> read_json_records(f.name, ["topics", "nuggets"]).to_dict("records")
    [{'score': '2', 'run': 'a', 'topics.id': '1'}, {'score': '0.50', 'run': 'a', 'topics.id': '1'}]
    """
    from humeval import strict_json

    try:
        with open(path, encoding="utf-8") as handle:
            document = strict_json.load(handle, parse_int=str, parse_float=str, parse_constant=str)
    except strict_json.DuplicateKey as exc:
        raise HumevalError(str(exc), file=path) from None
    except (ValueError, RecursionError) as exc:
        raise HumevalError(f"not a JSON document ({type(exc).__name__}: {exc})", file=path) from None
    records = list(records)
    nodes = [document] if isinstance(document, dict) else document
    if not isinstance(nodes, list):
        raise HumevalError(f"expected a JSON object or list, got {type(document).__name__}", file=path)
    if isinstance(document, dict) and not records:
        raise HumevalError("the document is one object: say where its records are (records: [key, ...])", file=path)
    top = isinstance(document, dict)
    if top:  # the document's own key starts the path: {runs: [...]} with records [runs, topics, nuggets]
        meta = enclosing_fields([document], records, path)
        frame = pd.json_normalize(document, record_path=records, meta=meta, errors="ignore")
    else:
        meta = enclosing_fields(nodes, records, path)
        frame = pd.json_normalize(nodes, record_path=records or None, meta=meta or None, errors="ignore")
    frame.columns = [".".join(c) if isinstance(c, tuple) else str(c) for c in frame.columns]
    frame = frame.astype(object)
    # numbers arrive as their text, so a float here is pandas' mark of an absent field
    return frame.map(lambda v: "" if v is None or isinstance(v, float) else str(v))


def content_digest(path: str) -> str:
    """The file's sha256, or "" where it cannot be read (the workbook reader then says why, naming the file)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


@functools.lru_cache(maxsize=64)
def workbook_text(path: str, sheet: str | int, digest: str) -> pd.DataFrame:
    """One sheet of a workbook as text, parsed once per process for each (file, sheet, content digest): several
    extract entries read the same workbook (puduppully's 12 AMT batches, read by 8 sides: 96 parses, 14.1 CPU s
    of its extract, against 12 parses and 2.7 s, the same tables; CSV exports are not kept, being cheap to parse
    and possibly large). The digest, not a file time, keys it, so a workbook rewritten in place is parsed again.
    The caller gets a copy."""
    return read_workbook_sheet(path, sheet, dtype=str).fillna("")


def read_table(path: str, options: dict) -> pd.DataFrame:
    """One export as text (no type guessing), with a clear error for what cannot be parsed. No cell is missing
    but an empty one, or one whose text ``na_values`` lists."""
    kind = options.get("format") or FORMATS.get(Path(path).suffix.lower(), "csv")
    try:
        if kind == "xlsx":
            frame = workbook_text(path, options.get("sheet", 0), content_digest(path)).copy()
        elif kind == "jsonl":
            frame = read_json_lines(path)
        elif kind == "json":
            frame = read_json_records(path, options.get("records", []))
        else:
            sep = options.get("sep", "\t" if kind == "tsv" else ",")
            # a header given k times is read as pandas names it; only an ambiguous reference is refused (Header)
            frame = read_csv_export(path, sep=sep, repeated_headers=True)
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
        column = find_column(Header(raw), name, path, "where")
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
