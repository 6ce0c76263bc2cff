"""Metric values + QRA cells vs published numbers -> the numbers.csv audit, and every paper table from it as
CSV + Markdown (rule tables)."""

from pathlib import Path

from humeval.audit import audit_study
from humeval.html_tables import audit_html
from humeval.intermediate import read_csv
from humeval.runner import config_param, run
from humeval.tables import write_tables


def main():
    inputs, study = snakemake.input, config_param(snakemake)
    audit = audit_study(study, read_csv(inputs.metrics), read_csv(inputs.qra), read_csv(inputs.published))
    audit.to_csv(snakemake.output.audit, index=False)
    Path(snakemake.output.audit_html).write_text(audit_html(audit, study["name"]))
    write_tables(study, audit, snakemake.output.tables)


run(snakemake, main)
