"""The audit: every number a study's tables hold, recomputed vs published (``numbers.csv``).

The published numbers arrive parsed (:mod:`humeval.published`, ``intermediate/published.csv``), each with
the precision the paper printed it at.

status: ``match`` when |value - published| <= half a unit of the last printed decimal (+1e-9);
``mismatch`` otherwise; ``recomputed_only`` without a published number; ``published_only`` without a
recomputed value. ``note`` carries the config's diagnosis for mismatch and published_only rows.
"""

from __future__ import annotations

import logging

import pandas as pd

from humeval.errors import HumevalError
from humeval.rounding import r_signif3_half_up, truncate

log = logging.getLogger(__name__)

AUDIT_COLUMNS = ["table", "row", "column", "value", "published", "precision", "status", "note"]
UNDIAGNOSED = "UNDIAGNOSED: the config records no reason for this difference"


COMPARISONS = {"r_signif3_half_up": r_signif3_half_up, "truncate": truncate}


def status_of(value: float, published: float, precision: int) -> str:
    """``match``/``mismatch``/``recomputed_only``/``published_only`` for one cell (``build_audit`` marks
    ``published_input``: a QRA3 input taken from a published number).

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
    empty = audit["value"].isna().to_numpy() & audit["published"].isna().to_numpy()
    if empty.any():
        cell = audit.iloc[int(empty.argmax())]
        raise HumevalError(
            f"table {cell['table']!r}, cell ({cell['row']!r}, {cell['column']!r}) has neither a recomputed nor a "
            "published value: a metric or QRA entry wrote an empty number there"
        )
    audit["status"] = [status_of(v, p, d) for v, p, d in zip(compared, audit["published"], audit["precision"])]
    needs_note = audit["status"].isin(["mismatch", "published_only"])
    audit["note"] = audit["note"].fillna("").where(~needs_note | (audit["note"].fillna("") != ""), UNDIAGNOSED)
    audit.loc[~needs_note, "note"] = ""
    if "origin" in audit:  # a QRA3 input taken from a published number, not recomputed: its own status
        taken = audit["origin"].notna() & (audit["status"] == "recomputed_only")
        audit.loc[taken, "status"] = "published_input"
        audit.loc[taken, "note"] = "input taken from the " + audit.loc[taken, "origin"].astype(str)
    return audit[AUDIT_COLUMNS].reset_index(drop=True)


def audit_study(study: dict, values: pd.DataFrame, qra: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """The ``numbers.csv`` audit of every number the study's tables hold: metric values and QRA cells
    against the published numbers."""
    recomputed = pd.concat([values, qra], ignore_index=True)
    # a measure that cannot be computed (one system, one experiment with data) is an empty cell, said in the notes
    recomputed = recomputed[recomputed["value"].notna()]
    audit = build_audit(recomputed, published, study["tables"])
    counts = audit["status"].value_counts().to_dict()
    log.info("audit: %s", counts)
    return audit
