"""Quantified Reproducibility Assessment (Belz, Popovic & Mille 2022), chosen by type in the study config.

Each ``qra`` entry ``{type: <name>, table: <id>, ...}`` calls the function registered as that QRA type
(:func:`humeval.config.registry.register`), ``f(values, published, *, table, ...) -> (cells, summary rows)``, where
``values`` are the study's metric values and ``published`` the parsed published numbers; its module is imported
only when a study uses the type, so no job pays for scipy unless it computes a correlation.

Type I (``cv_star``, :mod:`humeval.qra.precision`), Type II (``correlation``, :mod:`humeval.qra.correlation`),
Type IV (``claims``, :mod:`humeval.qra.claims`). Type III (item-level agreement) is computed by the study
metrics where data allow.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from humeval.config.registry import function
from humeval.errors import HumevalError
from humeval.intermediate import JUDGEMENTS, PRINTED, VALUE_COLUMNS, write_csv

__all__ = [
    "LABEL_COLUMNS",
    "entry_basis",
    "input_specs",
    "labels_items",
    "qra_study",
    "qra_values",
    "write_qra3_exports",
]

if TYPE_CHECKING:
    import pandas as pd

log = logging.getLogger(__name__)

SUMMARY_COLUMNS = ["type", "table", "measurand", "value", "p", "p_exact", "inputs", "recipe"]


def input_specs(entry) -> list[dict]:
    """The inputs a QRA entry declares (``{column, source?}``, as ``inputs``, ``x`` and ``y`` of Types I and II
    give them), found at any depth; a claim's operand cell (``{table, row, column}``) is not one.

    >>> input_specs({"inputs": [{"column": "a", "source": "published"}, {"column": "b"}], "rows": ["x"]})
    [{'column': 'a', 'source': 'published'}, {'column': 'b'}]
    """
    if isinstance(entry, dict):
        if "column" in entry and "row" not in entry and "table" not in entry:
            return [entry]
        return [spec for value in entry.values() for spec in input_specs(value)]
    if isinstance(entry, list):
        return [spec for value in entry for spec in input_specs(value)]
    return []


def entry_basis(entry: dict, values: pd.DataFrame) -> str:
    """:data:`PRINTED` when a QRA entry's cells rest on printed numbers alone: the study computed no metric value
    from judgements, or every input the entry declares is a published one; else :data:`JUDGEMENTS`."""
    specs = input_specs({k: v for k, v in entry.items() if k not in ("type", "table", "description")})
    if values.empty or (specs and all(s.get("source", "recomputed") == "published" for s in specs)):
        return PRINTED
    return JUDGEMENTS


def qra_entry(values: pd.DataFrame, published: pd.DataFrame, entry: dict, k: int) -> tuple[list, list]:
    """The cells and summary rows of QRA entry ``k``; its error names the entry, as a metric's does."""
    params = {key: v for key, v in entry.items() if key not in ("type", "description")}
    try:
        return function("qra", entry["type"])(values, published, **params)
    except HumevalError as exc:
        raise HumevalError(f"key qra.{k} ({entry['type']}): {exc}") from None


def qra_values(values: pd.DataFrame, published: pd.DataFrame, entries: list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run the study's QRA entries; return their cells (table, row, column, value) and a summary with one
    row per Type I/II result: the value, p-values, the inputs used and the recipe. Each cell carries its ``basis``
    (:func:`entry_basis`)."""
    import pandas as pd  # here, not at the top: config validation reads this package in Snakemake's process

    from humeval.resampling import job_budget

    out, summary = [], []
    with job_budget():  # the permutation tests of all entries within one budget (humeval.resampling)
        results = [(entry, qra_entry(values, published, entry, k)) for k, entry in enumerate(entries)]
    for entry, (cells, rows) in results:
        basis = entry_basis(entry, values)
        out += [(*cell, basis) for cell in cells]
        summary += rows
    return pd.DataFrame(out, columns=[*VALUE_COLUMNS, "basis"]), pd.DataFrame(summary, columns=SUMMARY_COLUMNS)


#: The tidy columns Type III's item labels read (:func:`humeval.qra.qra3_tables.item_labels`).
LABEL_COLUMNS = ["judgement_id", "side", "criterion", "response_type", "item", "system", "value"]


def labels_items(study: dict) -> bool:
    """Whether a QRA3 criterion of the study labels items from the kept judgements (``item_labels``, Type III);
    nothing else in QRA reads judgements, so the qra job reads the tidy table only then (at 10^7 judgements
    reading it is 13 of the job's 14 s)."""
    return any("item_labels" in c for entry in study.get("qra3", []) for c in entry["criteria"])


def qra_study(
    study: dict, values: pd.DataFrame, published: pd.DataFrame, kept: pd.DataFrame | None
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, dict]]:
    """QRA cells from the metric values and the published numbers (with an ``origin`` column naming the published
    cell where a QRA3 input was taken from one), a summary of each Type I/II result with
    the inputs and recipe it used, and per QRA3 table the QRA3 tool's input and config (``exports``:
    table -> {input: DataFrame, config: dict, notes: [str]}). ``kept`` (the kept judgements, columns
    :data:`LABEL_COLUMNS` at least) is read only where :func:`labels_items`."""
    import pandas as pd

    from humeval.qra.qra3_tables import qra3_entry, tool_config, tool_input_csv

    cells, summary = qra_values(values, published, study.get("qra", []))
    experiments = {e["id"]: e for e in study["experiments"]}
    qra3_cells, origins, exports = [], [], {}
    for k, entry in enumerate(study.get("qra3", [])):
        try:
            table_cells, notes, tool_rows = qra3_entry(values, published, kept, entry, experiments)
        except HumevalError as exc:
            raise HumevalError(f"key qra3.{k}: {exc}") from None
        key = entry.get("key", study["name"])
        exports[entry["table"]] = {
            "input": tool_input_csv(tool_rows, key),
            "config": tool_config(entry, experiments, key),
            "notes": notes,
        }
        for note in notes:
            log.info("QRA3 %s: %s", entry["table"], note)
        printed = values.empty or all(row[4].startswith("published") for row in tool_rows)
        qra3_cells += [(*cell, PRINTED if printed else JUDGEMENTS) for cell in table_cells]
        origins += [
            (f"{entry['table']}_input", f"{criterion}|{experiment}|{system}", "result", source)
            for experiment, system, criterion, _, source in tool_rows
            if source.startswith("published")
        ]
    if qra3_cells:
        cells = pd.concat([cells, pd.DataFrame(qra3_cells, columns=[*VALUE_COLUMNS, "basis"])], ignore_index=True)
    if origins:  # QRA3 inputs taken from published numbers: the audit marks them published_input
        origin = pd.DataFrame(origins, columns=["table", "row", "column", "origin"])
        cells = cells.merge(origin, on=["table", "row", "column"], how="left")
    return cells, summary, exports


def write_qra3_exports(exports: dict[str, dict], outdir: str | Path) -> None:
    """``<outdir>/<table>/qra3_input.csv``, ``qra3_config.json`` and ``notes.txt`` per QRA3 table."""
    import json

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    for table, export in exports.items():
        folder = outdir / table
        folder.mkdir(exist_ok=True)
        write_csv(export["input"], folder / "qra3_input.csv")
        (folder / "qra3_config.json").write_text(json.dumps(export["config"], indent=2) + "\n")
        (folder / "notes.txt").write_text("".join(f"{note}\n" for note in export["notes"]))
