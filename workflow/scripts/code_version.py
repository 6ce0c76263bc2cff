"""Package sources -> results/code_version.txt (rule code_version)."""

from humeval.code_version import write_code_version
from humeval.runner import run


def main():
    write_code_version(list(snakemake.input), snakemake.output[0])


run(snakemake, main)
