"""What an experiment contributes to a QRA measure: recomputed or published values, rounded as configured."""

from __future__ import annotations

import pandas as pd

from humeval.errors import HumevalError
from humeval.rounding import round_half_up

__all__ = ["cell_value", "qra_inputs", "recipe"]


def qra_inputs(values: pd.DataFrame, published: pd.DataFrame, table: str, rows: list[str], spec: dict) -> pd.Series:
    """The values one side contributes to a QRA, per row: recomputed (``values``, the metric values) or
    published, then rounded.

    ``spec``: ``{column, source: recomputed|published, round: decimals|null}``.
    """
    source = values if spec.get("source", "recomputed") == "recomputed" else published
    cells = source[(source["table"] == table) & (source["column"] == spec["column"])].set_index("row")["value"]
    selected = pd.to_numeric(cells.reindex(rows), errors="coerce")
    if selected.isna().any():
        missing = list(selected.index[selected.isna()])
        raise HumevalError(
            f"QRA input {spec.get('source', 'recomputed')} {table}/{spec['column']} has no value for row(s) {missing}"
        )
    if spec.get("round") is not None:
        selected = selected.map(lambda v: round_half_up(v, int(spec["round"])))
    return selected


def recipe(spec: dict) -> str:
    """How one input was taken, for the summary: ``<column> <source>[ rounded to <d>]``."""
    rounding = f" rounded to {spec['round']}" if spec.get("round") is not None else ""
    return f"{spec['column']} {spec.get('source', 'recomputed')}{rounding}"


def cell_value(values: pd.DataFrame, published: pd.DataFrame, table: str, row: str, column: str) -> tuple[float, str]:
    """One cell: the recomputed value where there is one, else the published one, and which it was; NaN and
    ``missing`` when neither exists (e.g. an optional raw file that is absent)."""
    for source, frame in (("recomputed", values), ("published", published)):
        hit = frame[(frame["table"] == table) & (frame["row"] == row) & (frame["column"] == column)]
        if not hit.empty and pd.notna(hit["value"].iloc[0]):
            return float(hit["value"].iloc[0]), source
    return float("nan"), "missing"
