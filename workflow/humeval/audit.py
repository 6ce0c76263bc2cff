"""The audit: every number a study's tables hold, recomputed vs published (``numbers.csv``).

Published numbers come from the study config as the strings the paper printed (``"23.00"``,
``"+36"``, ``"0.95*"``, ``"1.7e-05"``), so their precision is known: the decimals of the printed
mantissa. A trailing marker (``*``, ``**``) is kept in ``marker``.

status: ``match`` when |value - published| <= half a unit of the last printed decimal (+1e-9);
``mismatch`` otherwise; ``recomputed_only`` without a published number; ``published_only`` without a
recomputed value. ``note`` carries the config's diagnosis for mismatch and published_only rows.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

import pandas as pd

from humeval.errors import HumevalError

AUDIT_COLUMNS = ["table", "row", "column", "value", "published", "precision", "status", "note"]
_NUMBER = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(\S*)\s*$")
UNDIAGNOSED = "UNDIAGNOSED: the config records no reason for this difference"


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
    frame = pd.DataFrame(
        rows, columns=["table", "row", "column", "value", "published_text", "precision", "marker", "source", "note"]
    )
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


def r_signif3_half_up(value: float, precision: int) -> float:
    """The authors' rounding of an R print-out: 3 significant digits, then half up to ``precision`` decimals.

    >>> r_signif3_half_up(0.8849, 2), round(0.8849, 2)
    (0.89, 0.88)
    """
    from humeval.qra import round_half_up

    return round_half_up(float(f"{value:.3g}"), precision)


COMPARISONS = {"r_signif3_half_up": r_signif3_half_up}


def status_of(value: float, published: float, precision: int) -> str:
    """``match``/``mismatch``/``recomputed_only``/``published_only`` for one cell.

    >>> status_of(23.0, 23.00, 2), status_of(3.5556, 3.56, 2), status_of(0.3, 0.2, 1)
    ('match', 'match', 'mismatch')
    """
    has_value, has_published = pd.notna(value), pd.notna(published)
    if has_value and has_published:
        return "match" if abs(value - published) <= 0.5 * 10.0**-precision + 1e-9 else "mismatch"
    if has_value:
        return "recomputed_only"
    if has_published:
        return "published_only"
    raise HumevalError("a cell has neither a recomputed nor a published value")


def build_audit(
    numbers: pd.DataFrame, published: pd.DataFrame, tables: list[dict], default_precision: int = 3
) -> pd.DataFrame:
    """Join recomputed and published numbers into the ``numbers.csv`` audit, in table order.

    ``tables``: the config's table entries (``id``, ``rows``?, ``columns``, ``precision``?); a cell of a
    table that neither side fills is an error, so a typo in a row label cannot pass silently.
    """
    merged = numbers.merge(published.rename(columns={"value": "published"}), on=["table", "row", "column"], how="outer")
    merged["precision"] = merged["precision"].astype("Float64")
    order = []
    for rank, table in enumerate(tables):
        part = merged[merged["table"] == table["id"]]
        row_order = {r: i for i, r in enumerate(table.get("rows") or list(dict.fromkeys(part["row"])))}
        col_order = {c: i for i, c in enumerate(table["columns"])}
        unknown = part[~part["row"].isin(row_order) | ~part["column"].isin(col_order)]
        if not unknown.empty:
            first = unknown.iloc[0]
            raise HumevalError(
                f"table {table['id']!r}: cell ({first['row']!r}, {first['column']!r}) is not in "
                "the table's configured rows/columns"
            )
        precision, row_precision = table.get("precision", {}), table.get("row_precision", {})
        fallback = [
            row_precision.get(r, precision.get(c, default_precision)) for r, c in zip(part["row"], part["column"])
        ]
        part = part.assign(
            _t=rank,
            _r=part["row"].map(row_order),
            _c=part["column"].map(col_order),
            precision=part["precision"].fillna(pd.Series(fallback, index=part.index, dtype="Float64")),
        )
        order.append(part)
    known = {t["id"] for t in tables}
    stray = merged[~merged["table"].isin(known)]
    if not stray.empty:
        raise HumevalError(f"numbers for table {stray['table'].iloc[0]!r}, which the config's tables do not list")
    audit = pd.concat(order).sort_values(["_t", "_r", "_c"]) if order else merged
    audit["precision"] = audit["precision"].astype(int)
    compare = {t["id"]: COMPARISONS[t["compare"]] for t in tables if t.get("compare")}
    compared = [
        compare[t](v, d) if t in compare and pd.notna(v) else v
        for t, v, d in zip(audit["table"], audit["value"], audit["precision"])
    ]
    audit["status"] = [status_of(v, p, d) for v, p, d in zip(compared, audit["published"], audit["precision"])]
    needs_note = audit["status"].isin(["mismatch", "published_only"])
    audit["note"] = audit["note"].fillna("").where(~needs_note | (audit["note"].fillna("") != ""), UNDIAGNOSED)
    audit.loc[~needs_note, "note"] = ""
    return audit[AUDIT_COLUMNS].reset_index(drop=True)
