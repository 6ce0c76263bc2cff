"""The audit: every number a study's tables hold, recomputed vs published (``numbers.csv``).

The published numbers arrive parsed (:mod:`humeval.published`, ``intermediate/published.csv``), each with
the precision the paper printed it at.

status: ``match`` when |value - published| <= half a unit of the last printed digit (:func:`status_of`), or,
for a printed bound (``< 2e-16``), when the value satisfies it; ``mismatch`` otherwise; ``recomputed_only`` without a published number; ``published_only`` without a
recomputed value. ``bound`` is the sign of a published number printed as a bound (``<`` for "< 0.05"), which
claims and findings read as a bound, never as the number. ``note`` carries the config's diagnosis for mismatch and
published_only rows. ``basis`` says
what a recomputed number rests on: ``judgements`` (a metric of the kept judgements, or a QRA cell with a recomputed
input) or ``printed numbers`` (a QRA cell computed from published numbers alone; no judgement behind it).
"""

from __future__ import annotations

import logging
import math

import pandas as pd

from humeval.errors import HumevalError
from humeval.intermediate import JUDGEMENTS
from humeval.rounding import printed_bound, r_signif3_half_up, truncate

__all__ = [
    "AUDIT_COLUMNS",
    "COMPARISONS",
    "FULL_PRINTOUT_DIGITS",
    "UNDIAGNOSED",
    "UNRECOMPUTED",
    "audit_study",
    "build_audit",
    "status_of",
    "within_printed_precision",
]

log = logging.getLogger(__name__)

AUDIT_COLUMNS = [
    "table",
    "row",
    "column",
    "value",
    "published",
    "bound",
    "precision",
    "status",
    "note",
    "unrecomputed",
    "basis",
]
UNDIAGNOSED = "UNDIAGNOSED: the config records no reason for this difference"
#: The note of a published-only cell whose config gives no reason: nothing differs, a number was left unrecomputed.
UNRECOMPUTED = "UNDIAGNOSED: no reason recorded for leaving this number unrecomputed"


COMPARISONS = {"r_signif3_half_up": r_signif3_half_up, "truncate": truncate}


#: A printed bound and what a recomputed value must do to satisfy it.
BOUNDS = {
    "<": lambda v, p: v < p,
    "<=": lambda v, p: v <= p,
    ">": lambda v, p: v > p,
    ">=": lambda v, p: v >= p,
}


#: A number printed to this many significant digits or more is a program's full printout (R and pandas print 15 to
#: 17): it matches a recomputation that agrees to this many significant digits, since two implementations of one
#: formula differ in the last bits of a double (Cohen's d printed 0.781480250885911, recomputed 0.781480250885913).
FULL_PRINTOUT_DIGITS = 12


def within_printed_precision(value: float, published: float, precision: int) -> bool:
    """Whether ``value`` prints as ``published`` at ``precision`` decimals: |value - published| at most half a
    unit of the last printed digit. The slack for binary floating point is relative to that unit and to the
    numbers' size, never absolute, so a number printed in scientific notation or below 0.001 is compared at its
    printed significant digits (``4.7e-09`` has precision 10: 4.0e-09 is a mismatch; an absolute 1e-9 slack once
    let it, and 1e-12 against 3.67e-17, match). A number printed to :data:`FULL_PRINTOUT_DIGITS` (12) or more
    significant digits matches when the two agree to 12 significant digits: half a unit of the 12th.

    >>> within_printed_precision(3.555, 3.56, 2), within_printed_precision(4.0e-09, 4.7e-09, 10)
    (True, False)
    >>> within_printed_precision(4.66e-09, 4.7e-09, 10), within_printed_precision(1e-12, 3.67e-17, 19)
    (True, False)
    >>> within_printed_precision(0.781480250885913, 0.781480250885911, 15)
    True
    >>> within_printed_precision(0.781480250886913, 0.781480250885911, 15)
    False
    >>> within_printed_precision(float("inf"), 2.75, 2), within_printed_precision(2.75, 2.75e-30, 32)
    (False, False)
    """
    if not (math.isfinite(value) and math.isfinite(published)):  # an infinity is no printed number's recomputation
        return False
    unit = 0.5 * 10.0**-precision
    if published and math.isfinite(published):
        magnitude = math.floor(math.log10(abs(published)))  # 0.78 -> -1: the first significant digit's place
        if precision + magnitude + 1 >= FULL_PRINTOUT_DIGITS:
            unit = max(unit, 0.5 * 10.0 ** (magnitude - FULL_PRINTOUT_DIGITS + 1))
    slack = unit * 1e-9 + 4 * 2.220446049250313e-16 * max(abs(value), abs(published))
    return abs(value - published) <= unit + slack


def status_of(value: float, published: float, precision: int, bound: str = "") -> str:
    """``match``/``mismatch``/``recomputed_only``/``published_only`` for one cell (``build_audit`` marks
    ``published_input``: a QRA3 input taken from a published number). A printed ``bound`` (``<``, ``<=``, ``>``,
    ``>=``) matches when the value satisfies it.

    >>> status_of(23.0, 23.00, 2), status_of(3.5556, 3.56, 2), status_of(0.3, 0.2, 1)
    ('match', 'match', 'mismatch')
    >>> status_of(1e-20, 2e-16, 16, "<"), status_of(3e-16, 2e-16, 16, "<"), status_of(float("-inf"), 2e-16, 16, "<")
    ('match', 'mismatch', 'mismatch')
    """
    has_value, has_published = pd.notna(value), pd.notna(published)
    if has_value and has_published:
        if bound:  # an infinity satisfies no printed bound: it is no statistic's value
            return "match" if math.isfinite(value) and BOUNDS[bound](value, published) else "mismatch"
        return "match" if within_printed_precision(value, published, precision) else "mismatch"
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
    texts = audit["published_text"] if "published_text" in audit else pd.Series("", index=audit.index)
    bounds = [printed_bound(t) if pd.notna(t) else "" for t in texts]
    audit["bound"] = bounds  # a published number printed as a bound ("< 0.05"): its sign, read as a bound everywhere
    audit["status"] = [
        status_of(v, p, d, b) for v, p, d, b in zip(compared, audit["published"], audit["precision"], bounds)
    ]
    mismatch, published_only = audit["status"] == "mismatch", audit["status"] == "published_only"
    noted = audit["note"].fillna("") != ""
    audit["note"] = audit["note"].fillna("")
    audit.loc[mismatch & ~noted, "note"] = UNDIAGNOSED
    audit.loc[published_only & ~noted, "note"] = UNRECOMPUTED
    audit.loc[~(mismatch | published_only), "note"] = ""
    # why a published-only number is not recomputed (no_raw_data, no_measure), as its config says; empty elsewhere
    reason = audit["unrecomputed"] if "unrecomputed" in audit else pd.Series("", index=audit.index)
    audit["unrecomputed"] = reason.fillna("").where(published_only, "")
    bounded = (pd.Series(bounds, index=audit.index) != "") & (audit["status"] == "match")
    audit.loc[bounded, "note"] = "printed as a bound: " + texts[bounded].astype(str).str.strip()
    # what a recomputed number rests on: judgements, or printed numbers alone (humeval.qra.entry_basis)
    basis = audit["basis"] if "basis" in audit else pd.Series("", index=audit.index)
    audit["basis"] = basis.fillna("").where(audit["value"].notna(), "")
    if "origin" in audit:  # a QRA3 input taken from a published number, not recomputed: its own status
        taken = audit["origin"].notna() & (audit["status"] == "recomputed_only")
        audit.loc[taken, "status"] = "published_input"
        audit.loc[taken, "note"] = "input taken from the " + audit.loc[taken, "origin"].astype(str)
    return audit[AUDIT_COLUMNS].reset_index(drop=True)


def audit_study(study: dict, values: pd.DataFrame, qra: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """The ``numbers.csv`` audit of every number the study's tables hold: metric values and QRA cells
    against the published numbers."""
    recomputed = pd.concat([values.assign(basis=JUDGEMENTS), qra], ignore_index=True)  # a metric: judgements
    # a measure that cannot be computed (one system, one experiment with data) is an empty cell, said in the notes
    recomputed = recomputed[recomputed["value"].notna()]
    audit = build_audit(recomputed, published, study["tables"])
    counts = audit["status"].value_counts().to_dict()
    log.info("audit: %s", counts)
    return audit
