"""Metric values + QRA cells vs published numbers -> the numbers.csv audit (rule audit)."""

from humeval.intermediate import read_csv
from humeval.pipeline import audit_study
from humeval.runner import run


def main():
    inputs = snakemake.input
    audit = audit_study(
        snakemake.params.study, read_csv(inputs.metrics), read_csv(inputs.qra), read_csv(inputs.published)
    )
    audit.to_csv(snakemake.output.audit, index=False)


run(snakemake, main)
