"""numbers.csv -> the study's figures, PNG and PDF (rule figures)."""

from humeval.figures.draw import draw_figures
from humeval.intermediate import read_csv
from humeval.runner import run, study_config


def main():
    draw_figures(
        read_csv(snakemake.input.audit),
        study_config(snakemake).get("figures", []),
        snakemake.output.figures,
        tuple(snakemake.params.formats),
    )


run(snakemake, main)
