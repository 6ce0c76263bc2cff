"""Pinned raw exports of one study -> data/raw/<study>/, each sha256-verified (rule fetch_raw)."""

from humeval.config.studyfile import raw_files
from humeval.fetch import fetch_study, resolve_mirror
from humeval.runner import run, study_config


def main():
    fetch_study(
        raw_files(study_config(snakemake)),
        snakemake.output[0],
        mirror=resolve_mirror(snakemake.config.get("raw_mirror")),
        study=snakemake.wildcards.study,
    )


run(snakemake, main)
