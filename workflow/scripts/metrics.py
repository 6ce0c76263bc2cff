"""Tidy judgements less the exclusions (+ published inputs) -> the study's metric values (rule metrics)."""

from humeval.intermediate import write_csv
from humeval.metrics import StudyData, metrics_study
from humeval.runner import run, study_config


def main():
    data = StudyData.from_files(snakemake.input, study_config(snakemake))
    write_csv(metrics_study(data), snakemake.output.metrics)


run(snakemake, main)
