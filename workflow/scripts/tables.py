"""The numbers.csv audit -> every paper table as CSV + Markdown (rule tables)."""

from humeval.intermediate import read_csv
from humeval.pipeline import write_tables
from humeval.runner import run


def main():
    write_tables(snakemake.params.study, read_csv(snakemake.input.audit), snakemake.output.tables)


run(snakemake, main)
