"""Tidy judgements less the exclusions (+ published inputs) -> the study's metric values (rule metrics)."""

from humeval.intermediate import kept_judgements, read_csv, write_csv
from humeval.metrics import metrics_study
from humeval.runner import run, study_config


def main():
    inputs = snakemake.input
    tidy, exclusions = read_csv(inputs.judgements), read_csv(inputs.exclusions)
    values = metrics_study(
        study_config(snakemake),
        kept_judgements(tidy, exclusions),
        tidy,
        read_csv(inputs.participants),
        exclusions,
        read_csv(inputs.published),
        read_csv(inputs.variants),
    )
    write_csv(values, snakemake.output.metrics)


run(snakemake, main)
