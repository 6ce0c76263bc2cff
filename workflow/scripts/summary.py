"""All studies' numbers.csv and QRA summaries -> results/summary/ (rule summary)."""

from humeval.report.summary_pages import write_summary
from humeval.runner import run, studies_config


def main():
    write_summary(snakemake.input, snakemake.output, snakemake.params, snakemake.config, studies_config(snakemake))


run(snakemake, main)
