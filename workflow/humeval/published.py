"""Published numbers: the study config's ``published`` blocks and ``published_aggregates`` as one table.

The config gives each number as the string the paper printed (``"23.00"``, ``"+36"``, ``"0.95*"``,
``"1.7e-05"``), so its precision is known: the decimals of the printed mantissa. A trailing marker
(``*``, ``**``) is kept in ``marker``. The rule ``published`` parses them once per study into
``intermediate/published.csv``; metrics, QRA and the audit read that file.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

import pandas as pd

from humeval.errors import HumevalError

PUBLISHED_COLUMNS = ["table", "row", "column", "value", "published_text", "precision", "marker", "source", "note"]
_NUMBER = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(\S*)\s*$")


def parse_published(text) -> tuple[float, int, str]:
    """(value, precision, marker) of a printed number.

    >>> parse_published("23.00"), parse_published("+36"), parse_published("0.95*"), parse_published("1.7e-05")
    ((23.0, 2, ''), (36.0, 0, ''), (0.95, 2, '*'), (1.7e-05, 6, ''))
    """
    match = _NUMBER.match(str(text))
    if not match:
        raise HumevalError(f"published value {text!r} is not a printed number (e.g. '0.30', '-8.67', '0.95*')")
    try:
        exponent = Decimal(match.group(1)).as_tuple().exponent
    except InvalidOperation:  # pragma: no cover - the regex admits only valid decimals
        raise HumevalError(f"published value {text!r} is not a number") from None
    return float(match.group(1)), max(0, -int(exponent)), match.group(2)


def published_frame(blocks: list[dict]) -> pd.DataFrame:
    """Flatten the config's ``published`` blocks into one row per cell.

    A block: ``{table, source, note?, cells: {row: {column: "1.23" | {value, note?}}}}``.
    """
    rows = []
    for block in blocks:
        for row, columns in block["cells"].items():
            for column, cell in columns.items():
                text, note = (cell["value"], cell.get("note")) if isinstance(cell, dict) else (cell, None)
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
                        "note": note or block.get("note", ""),
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
        cells = {
            system: {aggregate["column"].format(rank=rank): str(count) for rank, count in enumerate(row, 1)}
            for system, row in aggregate["counts"].items()
        }
        blocks.append(
            {"table": aggregate["table"], "source": aggregate["source"], "note": aggregate["note"], "cells": cells}
        )
    return blocks


def published_numbers(study: dict) -> pd.DataFrame:
    """Every number the study's paper(s) printed, one row per cell (what ``intermediate/published.csv`` holds)."""
    return published_frame(published_blocks(study))
