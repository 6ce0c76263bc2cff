"""Tidy judgements less the exclusions (+ published inputs) -> the study's metric values (rule metrics)."""

from humeval.intermediate import kept_judgements, read_csv
from humeval.metrics import metrics_study
from humeval.runner import config_param, run


def main():
    inputs = snakemake.input
    tidy, exclusions = read_csv(inputs.judgements), read_csv(inputs.exclusions)
    values = metrics_study(
        config_param(snakemake),
        kept_judgements(tidy, exclusions),
        tidy,
        read_csv(inputs.participants),
        exclusions,
        read_csv(inputs.published),
        read_csv(inputs.variants),
    )
    values.to_csv(snakemake.output.metrics, index=False)


run(snakemake, main)
