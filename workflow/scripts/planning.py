"""Kept judgements + metric values -> the study's reproduction planning, planning/power.csv (rule planning)."""

from humeval.intermediate import read_csv, write_csv
from humeval.metrics import StudyData
from humeval.planning.plan import plan_study
from humeval.runner import run, study_config


def main():
    data = StudyData.from_files(snakemake.input, study_config(snakemake))
    write_csv(plan_study(data, read_csv(snakemake.input.metrics)), snakemake.output.power)


run(snakemake, main)
