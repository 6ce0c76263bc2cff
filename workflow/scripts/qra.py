"""Metric values + published numbers -> QRA cells and their summary (rule qra)."""

from humeval.intermediate import read_csv
from humeval.pipeline import qra_study
from humeval.runner import run


def main():
    cells, summary = qra_study(
        snakemake.params.study, read_csv(snakemake.input.metrics), read_csv(snakemake.input.published)
    )
    cells.to_csv(snakemake.output.qra, index=False)
    summary.to_csv(snakemake.output.summary, index=False)


run(snakemake, main)
