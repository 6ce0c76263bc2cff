"""Tidy judgements -> exclusions.csv and exclusions_variants.csv (rule exclude); the kept judgements are the tidy
ones the log does not hold (humeval.intermediate.kept_judgements)."""

from humeval.exclusions import exclude_study
from humeval.intermediate import read_csv
from humeval.runner import config_param, run


def main():
    _, excluded, variants = exclude_study(
        config_param(snakemake), read_csv(snakemake.input.judgements), read_csv(snakemake.input.participants)
    )
    excluded.to_csv(snakemake.output.exclusions, index=False)
    variants.to_csv(snakemake.output.variants, index=False)


run(snakemake, main)
