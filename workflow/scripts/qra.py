"""Metric numbers + published inputs -> QRA numbers (rule qra)."""

from humeval.pipeline import qra_study, read_csv
from humeval.runner import run


def main():
    numbers, summary = qra_study(snakemake.params.study, read_csv(snakemake.input.numbers))
    numbers.to_csv(snakemake.output.qra, index=False)
    summary.to_csv(snakemake.output.summary, index=False)


run(snakemake, main)
