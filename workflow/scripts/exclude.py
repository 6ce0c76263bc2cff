"""Tidy judgements -> exclusions.csv and exclusions_variants.csv (rule exclude); the kept judgements are the tidy
ones the log does not hold (humeval.intermediate.kept_judgements)."""

from humeval.exclusions import exclude_study
from humeval.intermediate import read_csv, write_csv
from humeval.runner import run, study_config


def main():
    _, excluded, variants = exclude_study(
        study_config(snakemake), read_csv(snakemake.input.judgements), read_csv(snakemake.input.participants)
    )
    write_csv(excluded, snakemake.output.exclusions)
    write_csv(variants, snakemake.output.variants)


run(snakemake, main)
