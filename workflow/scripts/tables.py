"""Metric values + QRA cells vs published numbers -> the numbers.csv audit, and every paper table from it as
CSV + Markdown (rule tables)."""

from pathlib import Path

import pandas as pd

from humeval.audit import audit_study
from humeval.config.studyfile import raw_files
from humeval.fetch import verify_fetched
from humeval.intermediate import read_csv, write_csv
from humeval.report.html_tables import audit_html
from humeval.report.table_files import write_conditions, write_tables
from humeval.runner import run, study_config


def main():
    inputs, study = snakemake.input, study_config(snakemake)
    audit = audit_study(study, read_csv(inputs.metrics), read_csv(inputs.qra), read_csv(inputs.published))
    sheets = raw_files(study, {e.get("datasheet") for e in study["experiments"]})
    verify_fetched(inputs.raw, sheets, study=study["name"])
    raw_paths = {f["id"]: f"{inputs.raw}/{f['filename']}" for f in sheets if Path(inputs.raw, f["filename"]).is_file()}
    conditions = write_conditions(study, raw_paths, snakemake.output.tables)
    audit = pd.concat([audit, conditions], ignore_index=True) if conditions is not None else audit
    write_csv(audit, snakemake.output.audit)
    page = audit_html(audit, study["name"], csv=snakemake.output.audit, tables=study["tables"])
    Path(snakemake.output.audit_html).write_text(page)
    write_tables(study, audit, snakemake.output.tables)


run(snakemake, main)
