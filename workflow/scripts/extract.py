"""Raw exports -> tidy judgements and participants (rule extract)."""

import os

from humeval.config.studyfile import raw_files
from humeval.fetch import verify_fetched
from humeval.intermediate import write_csv
from humeval.loaders import extract_study
from humeval.runner import run, study_config


def main():
    study = study_config(snakemake)
    files = raw_files(study)
    verify_fetched(snakemake.input.raw, files, study=snakemake.wildcards.study)
    raw_paths = {f["id"]: f"{snakemake.input.raw}/{f['filename']}" for f in files}
    raw_paths = {raw_id: path for raw_id, path in raw_paths.items() if os.path.exists(path)}
    judgements, participants = extract_study(study, raw_paths)
    write_csv(judgements, snakemake.output.judgements)
    write_csv(participants, snakemake.output.participants)


run(snakemake, main)
