"""Tidy judgements less the exclusions (+ published inputs) -> the study's metric values (rule metrics)."""

from humeval.intermediate import kept_judgements, read_csv, write_csv
from humeval.metrics import StudyData, metrics_study
from humeval.runner import run, study_config


def main():
    inputs = snakemake.input
    tidy, exclusions = read_csv(inputs.judgements), read_csv(inputs.exclusions)
    data = StudyData(
        kept=kept_judgements(tidy, exclusions),
        tidy=tidy,
        participants=read_csv(inputs.participants),
        exclusions=exclusions,
        published=read_csv(inputs.published),
        config=study_config(snakemake),
        variant_exclusions=read_csv(inputs.variants),
    )
    values = metrics_study(data)
    write_csv(values, snakemake.output.metrics)


run(snakemake, main)
