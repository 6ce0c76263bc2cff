"""Kept judgements + metric values -> the study's reproduction planning, planning/power.csv (rule planning)."""

from humeval.intermediate import kept_judgements, read_csv, write_csv
from humeval.metrics import StudyData
from humeval.planning import plan_study
from humeval.runner import run, study_config


def main():
    inputs = snakemake.input
    tidy, exclusions = read_csv(inputs.judgements), read_csv(inputs.exclusions)
    data = StudyData(
        kept=kept_judgements(tidy, exclusions),
        tidy=tidy,
        participants=read_csv(inputs.participants),
        exclusions=exclusions,
        published=read_csv(inputs.published),
        config=study_config(snakemake),
    )
    write_csv(plan_study(data, read_csv(inputs.metrics)), snakemake.output.power)


run(snakemake, main)
