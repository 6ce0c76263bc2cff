"""The study's published numbers (config strings) -> intermediate/published.csv (rule published)."""

from humeval.published import published_numbers
from humeval.runner import run


def main():
    published_numbers(snakemake.params.study).to_csv(snakemake.output.published, index=False)


run(snakemake, main)
