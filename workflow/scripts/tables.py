"""Metric values + QRA cells vs published numbers -> the numbers.csv audit, and every paper table from it as
CSV + Markdown (rule tables)."""

from humeval.audit import audit_study
from humeval.intermediate import read_csv
from humeval.runner import run
from humeval.tables import write_tables


def main():
    inputs = snakemake.input
    audit = audit_study(
        snakemake.params.study, read_csv(inputs.metrics), read_csv(inputs.qra), read_csv(inputs.published)
    )
    audit.to_csv(snakemake.output.audit, index=False)
    write_tables(snakemake.params.study, audit, snakemake.output.tables)


run(snakemake, main)
