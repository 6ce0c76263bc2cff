"""Loader for the most common export shape: one row per rater x item, one column per criterion (wide).

Any CSV/TSV whose rows are (rater, item) pairs and whose criterion columns hold ratings. Columns are
named in the config, either exactly (``column``) or by a case-insensitive regular expression on the header
(``pattern``: verbose headers such as ``readability(grammarly correct ... 1 to 5)``); exactly one header
must match. Params:

- ``participant``: the rater column (pseudonymised per study and side);
- ``item``: column(s) that key the item, the same on every experiment (joined with ``|``);
- ``system``: ``{column, map?}``; ``map`` renames the export's system codes (an unmapped code is an error);
- ``criteria``: ``{<criterion>: {column | pattern}}``, the criterion names of the tidy table;
- ``carry``: ``{<tidy column>: column | [columns]}`` extra columns kept (joined with ``|``), e.g. sections;
- ``sep`` (default ``,``), ``scale: [low, high]`` (optional range check), ``response_type`` (default rating).

An empty rating stays a row with an empty value: the exclusion ``missing_value`` logs and drops it. A
rating that is not a number, or outside ``scale``, is an error naming the file, row and column.
"""

from __future__ import annotations

import re

import pandas as pd

from humeval.errors import HumevalError
from humeval.loaders import require_inputs
from humeval.tidy import pseudonym


def find_column(columns: list[str], spec: dict | str, path: str, what: str) -> str:
    """The header a spec names: ``{column: name}`` exactly, or ``{pattern: regex}`` matching one header."""
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


def read_table(path: str, sep: str) -> pd.DataFrame:
    """The export as text (no type guessing), with a clear error for what pandas cannot parse."""
    try:
        return pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, encoding="utf-8")
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise HumevalError(f"cannot parse as UTF-8 delimited text: {exc}", file=path) from None


def joined(frame: pd.DataFrame, columns: list[str]) -> pd.Series:
    return frame[columns].astype(str).agg("|".join, axis=1)


def load(inputs: dict, params: dict, *, study: str, side: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy rating rows (one per rater x item x criterion) and the raters of one wide export."""
    require_inputs(inputs, ["ratings"], "tabular_ratings", study)
    path = inputs["ratings"]
    raw = read_table(path, params.get("sep", ","))
    columns = list(raw.columns)
    rater = find_column(columns, params["participant"], path, "participant")
    items = [find_column(columns, c, path, "item") for c in params["item"]]
    system_spec = params["system"]
    system_column = find_column(columns, system_spec, path, "system")
    systems = raw[system_column]
    if "map" in system_spec:
        unknown = ~systems.isin(list(system_spec["map"]))
        if unknown.any():
            row = int(unknown.to_numpy().argmax())
            raise HumevalError(
                f"row {row + 2}, column {system_column!r}: system {systems.iloc[row]!r} is not in the config's map "
                f"{sorted(system_spec['map'])}",
                file=path,
            )
        systems = systems.map(system_spec["map"])
    participant = raw[rater].map(lambda r: pseudonym(f"{side}:{r}", study))
    base = pd.DataFrame(
        {"participant": participant, "item": joined(raw, items), "system": systems, "row": range(2, len(raw) + 2)}
    )
    for name, spec in params.get("carry", {}).items():
        carried = spec if isinstance(spec, list) else [spec]
        base[name] = joined(raw, [find_column(columns, c, path, f"carry {name}") for c in carried])
    frames = []
    low, high = params.get("scale", [None, None])
    for criterion, spec in params["criteria"].items():
        column = find_column(columns, spec, path, f"criterion {criterion}")
        text = raw[column].str.strip()
        values = pd.to_numeric(text, errors="coerce")
        bad = values.isna() & (text != "")
        if low is not None:
            bad |= values.notna() & ~values.between(low, high)
        if bad.any():
            row = int(bad.to_numpy().argmax())
            raise HumevalError(
                f"row {row + 2}, column {column!r}: {text.iloc[row]!r} is not a rating"
                + (f" on the scale {low}..{high}" if low is not None else ""),
                file=path,
            )
        frames.append(base.assign(criterion=criterion, value=values))
    long = pd.concat(frames, ignore_index=True)
    duplicated = long.duplicated(["participant", "item", "criterion"])
    if duplicated.any():
        first = long[duplicated].iloc[0]
        raise HumevalError(f"row {first['row']}: rater and item {first['item']!r} appear twice", file=path)
    judgements = long.assign(
        study=study,
        side=side,
        judgement_id=side + ":" + long["row"].astype(str) + ":" + long["criterion"],
        response_type=params.get("response_type", "rating"),
        system_b="",
    ).drop(columns="row")
    participants = pd.DataFrame({"study": study, "side": side, "participant": sorted(participant.unique())})
    return judgements, participants
