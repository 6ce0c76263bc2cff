"""Metric and QRA numbers -> numbers.csv audit and paper-shaped tables (rule tables)."""

from humeval.pipeline import audit_study, read_csv, write_tables
from humeval.runner import run


def main():
    study = snakemake.params.study
    audit = audit_study(study, read_csv(snakemake.input.numbers), read_csv(snakemake.input.qra))
    audit.to_csv(snakemake.output.audit, index=False)
    write_tables(study, audit, snakemake.output.tables)


run(snakemake, main)
