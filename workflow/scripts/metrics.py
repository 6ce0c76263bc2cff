"""Kept judgements -> the study's metric numbers (rule metrics)."""

from humeval.pipeline import metrics_study, read_csv
from humeval.runner import run


def main():
    numbers = metrics_study(
        snakemake.params.study,
        read_csv(snakemake.input.kept),
        read_csv(snakemake.input.judgements),
        read_csv(snakemake.input.participants),
        read_csv(snakemake.input.exclusions),
    )
    numbers.to_csv(snakemake.output.numbers, index=False)


run(snakemake, main)
