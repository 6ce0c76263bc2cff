"""Tidy judgements -> kept judgements + exclusions.csv (rule exclude)."""

from humeval.exclusions import exclude_study
from humeval.intermediate import read_csv
from humeval.runner import config_param, run


def main():
    kept, excluded, variants = exclude_study(
        config_param(snakemake), read_csv(snakemake.input.judgements), read_csv(snakemake.input.participants)
    )
    kept.to_csv(snakemake.output.kept, index=False)
    excluded.to_csv(snakemake.output.exclusions, index=False)
    variants.to_csv(snakemake.output.variants, index=False)


run(snakemake, main)
