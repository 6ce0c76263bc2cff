"""Published numbers: the study config's ``published`` blocks and ``published_aggregates`` as one table.

The config gives each number as the string the paper printed (``"23.00"``, ``"+36"``, ``"0.95*"``,
``"1.7e-05"``), so its precision is known: the decimals of the printed mantissa. A trailing marker
(``*``, ``**``) is kept in ``marker``. The rule ``published`` parses them once per study into
``intermediate/published.csv``; metrics, QRA and the audit read that file.
"""

from __future__ import annotations

import pandas as pd

from humeval.config.studyfile import note_of
from humeval.errors import HumevalError
from humeval.rounding import parse_published

__all__ = ["published_blocks", "published_frame", "published_numbers"]

PUBLISHED_COLUMNS = [
    "table",
    "row",
    "column",
    "value",
    "published_text",
    "precision",
    "marker",
    "source",
    "note",
    "unrecomputed",
]


def classified_note(cell: dict, block: dict, row: str = "", column: str = "") -> str:
    """A cell's diagnosis with its evidence class in front, ``[reproduced]``, ``[explained]`` or
    ``[hypothesis]``, and for a reproduced one the variant that reproduces the printed number; the block's note
    only where it covers the cell (``row``, ``column``; :func:`humeval.config.studyfile.note_of`).

    >>> classified_note({"note": "truncated", "evidence": "reproduced",
    ...                  "variant": {"table": "t9", "row": "rho", "column": "Likert", "compare": "truncate"}}, {})
    '[reproduced] truncated Variant: t9/rho/Likert (truncate).'
    >>> classified_note({"note": "truncated (Variant: t9/rho/Likert)", "evidence": "reproduced",
    ...                  "variant": {"table": "t9", "row": "rho", "column": "Likert"}}, {})
    '[reproduced] truncated (Variant: t9/rho/Likert)'
    """
    note = note_of(cell, block, row, column)
    if not note:
        return ""
    evidence = cell.get("evidence") or block.get("evidence")
    text = f"[{evidence}] {note}" if evidence else note
    variant = cell.get("variant")
    if variant:
        where = f"{variant['table']}/{variant['row']}/{variant['column']}"
        how = f" ({variant['compare']})" if variant.get("compare") else ""
        if where not in note:  # a note that names its variant already does not get it twice
            text += f" Variant: {where}{how}."
    return text


def published_frame(blocks: list[dict]) -> pd.DataFrame:
    """Flatten the config's ``published`` blocks into one row per cell.

    A block: ``{table, source, note?, evidence?, cells: {row: {column: "1.23" | {value, note?, evidence?,
    variant?}}}}``; notes carry their evidence class (:func:`classified_note`).
    """
    rows = []
    for block in blocks:
        for row, columns in block["cells"].items():
            for column, cell in columns.items():
                spec = cell if isinstance(cell, dict) else {"value": cell}
                text = spec["value"]
                value, precision, marker = parse_published(text)
                rows.append(
                    {
                        "table": block["table"],
                        "row": str(row),
                        "column": str(column),
                        "value": value,
                        "published_text": str(text),
                        "precision": precision,
                        "marker": marker,
                        "source": block.get("source", ""),
                        "note": classified_note(spec, block, str(row), str(column)),
                        "unrecomputed": spec.get("unrecomputed") or block.get("unrecomputed", ""),
                    }
                )
    frame = pd.DataFrame(rows, columns=PUBLISHED_COLUMNS)
    duplicated = frame.duplicated(["table", "row", "column"])
    if duplicated.any():
        first = frame[duplicated].iloc[0]
        raise HumevalError(f"published cell {first['table']}/{first['row']}/{first['column']} is given twice")
    return frame


def published_blocks(study: dict) -> list[dict]:
    """The study's ``published`` blocks plus one block per ``published_aggregates`` entry (its counts are
    numbers the paper printed, shown in the audit as published only)."""
    blocks = list(study.get("published", []))
    for aggregate in study.get("published_aggregates", []):
        from humeval.aggregates import aggregate_cells

        cells = aggregate_cells(aggregate)
        blocks.append(
            {
                "table": aggregate["table"],
                "source": aggregate["source"],
                "note": aggregate["note"],
                "evidence": aggregate.get("evidence"),
                "unrecomputed": "no_raw_data",  # a count table stands for judgements that were not published
                "cells": cells,
            }
        )
    return blocks


def published_file_block(path: str, spec: dict) -> dict:
    """A ``published_files`` entry as a published block: one cell per row of a published CSV (e.g. the QRA3
    tool input a paper's repository ships), the row label a template over the CSV's columns, the value the
    text as written (so its precision is the file's, full precision)."""
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise HumevalError(f"cannot parse the published file: {exc}", file=path) from None
    if spec["value"] not in frame.columns:
        raise HumevalError(f"no column {spec['value']!r} (columns: {list(frame.columns)})", file=path)
    cells: dict = {}
    for record in frame.to_dict("records"):
        try:
            row = spec["row"].format(**record)
        except KeyError as exc:
            raise HumevalError(
                f"row template {spec['row']!r} names a column the file lacks: {exc}", file=path
            ) from None
        cells.setdefault(row, {})[spec["column"]] = record[spec["value"]]
    return {"table": spec["table"], "source": spec["source"], "cells": cells}


def published_numbers(study: dict, raw_paths: dict[str, str] | None = None) -> pd.DataFrame:
    """Every number the study's paper(s) printed, one row per cell (what ``intermediate/published.csv`` holds):
    the config's blocks and aggregates, and the rows of ``published_files`` (raw id -> local path)."""
    blocks = published_blocks(study)
    for spec in study.get("published_files", []):
        blocks.append(published_file_block((raw_paths or {})[spec["raw"]], spec))
    return published_frame(blocks)
