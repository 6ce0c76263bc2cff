"""Each paper table's files: ``<table>.csv`` (full precision, through the one CSV writer), ``<table>.md``,
``<table>.tex`` (LaTeX with booktabs) and ``<table>.html`` (the paper's precision, marked cells), and the conditions table read from the datasheets. The
cells come from :mod:`humeval.report.tables`, the pages from :mod:`humeval.report.html_tables`; this module writes, nothing
imports it but the tables stage."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from humeval.intermediate import write_csv
from humeval.report.html_tables import frame_html, table_html
from humeval.report.tables import frame_latex, frame_markdown, latex_table, markdown_table, wide_table

__all__ = ["write_conditions", "write_tables"]


def write_tables(study: dict, audit: pd.DataFrame, outdir: str | Path) -> list[Path]:
    """Write ``<table>.csv``, ``<table>.md``, ``<table>.tex`` and ``<table>.html`` (:mod:`humeval.report.html_tables`) for
    every configured table."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    rounding = study.get("rounding", "half_up")
    written = []
    for table in study["tables"]:
        paths = [outdir / f"{table['id']}.{suffix}" for suffix in ("csv", "md", "html", "tex")]
        write_csv(wide_table(audit, table), paths[0], index=True)
        paths[1].write_text(markdown_table(audit, table, rounding))
        paths[2].write_text(table_html(audit, table, study, rounding, csv=paths[0]))
        paths[3].write_text(latex_table(audit, table, rounding))
        written += paths
    return written


#: The conditions table's own columns as the report words them (the CSV keeps the keys).
CONDITION_HEADERS = {"heds_key": "HEDS field", "differs_from_O": "differs from O"}


def write_conditions(study: dict, raw_paths: dict[str, str], outdir: str | Path) -> pd.DataFrame | None:
    """``conditions.csv|md|tex|html`` (:func:`humeval.heds.conditions_frame`): the conditions of measurement of the
    study's experiments side by side, a cell that differs from O's marked ``≠`` in Markdown and HTML; and the same
    cells as audit rows (status ``condition``, the text in ``note``). None when no experiment states any."""
    import logging

    from humeval.heds import conditions_frame

    frame, warnings = conditions_frame(study, raw_paths)
    for warning in warnings:
        logging.getLogger("humeval").warning("datasheet: %s", warning)
    if frame is None:
        return None
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    write_csv(frame, outdir / "conditions.csv")
    ids = [e["id"] for e in study["experiments"]]
    shown = frame.copy()
    for experiment in ids[1:]:
        differs = shown["differs_from_O"].str.split(", ").map(lambda listed, e=experiment: e in listed)
        shown.loc[differs, experiment] = "≠ " + shown.loc[differs, experiment]
    (outdir / "conditions.md").write_text(
        f"**conditions**: conditions of measurement ({', '.join(ids)}); ≠ differs from O\n\n"
        + frame_markdown(shown.drop(columns=["differs_from_O", "sources"]).rename(columns=CONDITION_HEADERS))
        + ("\n\nNot read: " + "; ".join(warnings) if warnings else "")
        + "\n"
    )
    (outdir / "conditions.tex").write_text(
        frame_latex(
            shown.drop(columns=["differs_from_O", "sources"]).rename(columns=CONDITION_HEADERS),
            f"Conditions of measurement ({', '.join(ids)}); ≠ differs from O",
            "conditions",
        )
    )
    (outdir / "conditions.html").write_text(
        frame_html(
            shown.rename(columns=CONDITION_HEADERS),
            f"{study['name']}: conditions of measurement",
            "Read from each experiment's Human Evaluation Datasheet (HEDS) and the conditions its config states, with "
            "their sources; ≠ marks a condition that differs from O's. Empty: not stated."
            + (f" Not read: {'; '.join(warnings)}" if warnings else ""),
            csv=outdir / "conditions.csv",
            fit=True,
        )
    )
    cells = frame.melt(id_vars=["condition"], value_vars=ids, var_name="column", value_name="note")
    cells = cells[cells["note"] != ""].rename(columns={"condition": "row"})
    return cells.assign(
        table="conditions", value=float("nan"), published=float("nan"), precision=0, status="condition"
    )[["table", "row", "column", "value", "published", "precision", "status", "note"]]
