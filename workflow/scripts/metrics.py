"""Kept judgements (+ published inputs) -> the study's metric values (rule metrics)."""

from humeval.intermediate import read_csv
from humeval.metrics import metrics_study
from humeval.runner import config_param, run


def main():
    inputs = snakemake.input
    values = metrics_study(
        config_param(snakemake),
        read_csv(inputs.kept),
        read_csv(inputs.judgements),
        read_csv(inputs.participants),
        read_csv(inputs.exclusions),
        read_csv(inputs.published),
        read_csv(inputs.variants),
    )
    values.to_csv(snakemake.output.metrics, index=False)


run(snakemake, main)
