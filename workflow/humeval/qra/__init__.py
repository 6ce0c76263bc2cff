"""Quantified Reproducibility Assessment (Belz, Popovic & Mille 2022), chosen by type in the study config.

Each ``qra`` entry ``{type: <name>, table: <id>, ...}`` calls the registered function
``f(values, published, entry) -> (cells, summary rows)`` where ``values`` are the study's metric values
and ``published`` the parsed published numbers. Registered like loaders and metrics, and imported only
when a study uses the type, so no job pays for scipy unless it computes a correlation.

Type I (``cv_star``, :mod:`humeval.qra.precision`), Type II (``correlation``, :mod:`humeval.qra.correlation`),
Type IV (``claims``, :mod:`humeval.qra.claims`). Type III (item-level agreement) is computed by the study
metrics where data allow.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from humeval.errors import HumevalError

if TYPE_CHECKING:
    import pandas as pd

QRA_TYPES: dict[str, str] = {
    "cv_star": "humeval.qra.precision:cv_star_entry",
    "cv_star_pairwise": "humeval.qra.precision:cv_star_pairwise_entry",
    "correlation": "humeval.qra.correlation:correlation_entry",
    "claims": "humeval.qra.claims:claims_entry",
}
# types that compare measurands row by row and so need ``rows`` and ``measurand_table``
MEASURAND_TYPES = ("cv_star", "correlation")
SUMMARY_COLUMNS = ["type", "table", "measurand", "value", "p", "p_exact", "inputs", "recipe"]


def get_qra_type(name: str) -> Callable:
    """The function registered as QRA type ``name``."""
    if name not in QRA_TYPES:
        raise HumevalError(f"unknown QRA type {name!r}; known types: {sorted(QRA_TYPES)}")
    module, function = QRA_TYPES[name].split(":")
    return getattr(importlib.import_module(module), function)


def qra_values(values: pd.DataFrame, published: pd.DataFrame, entries: list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run the study's QRA entries; return their cells (table, row, column, value) and a summary with one
    row per Type I/II result: the value, p-values, the inputs used and the recipe."""
    import pandas as pd  # here, not at the top: config validation reads this package in Snakemake's process

    from humeval.metrics import VALUE_COLUMNS

    out, summary = [], []
    for entry in entries:
        if entry["type"] in MEASURAND_TYPES and (not entry.get("rows") or not entry.get("measurand_table")):
            raise HumevalError(f"QRA {entry['type']} entry for table {entry['table']!r} needs rows and measurand_table")
        cells, rows = get_qra_type(entry["type"])(values, published, entry)
        out += cells
        summary += rows
    return pd.DataFrame(out, columns=VALUE_COLUMNS), pd.DataFrame(summary, columns=SUMMARY_COLUMNS)
