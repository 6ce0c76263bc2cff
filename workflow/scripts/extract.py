"""Raw exports -> tidy judgements and participants (rule extract)."""

import os

from humeval.fetch import verify_fetched
from humeval.loaders import extract_study
from humeval.runner import config_param, run
from humeval.tidy import neutralise_formulas


def main():
    verify_fetched(snakemake.input.raw, snakemake.params.files, study=snakemake.wildcards.study)
    raw_paths = {f["id"]: f"{snakemake.input.raw}/{f['filename']}" for f in snakemake.params.files}
    raw_paths = {raw_id: path for raw_id, path in raw_paths.items() if os.path.exists(path)}
    judgements, participants = extract_study(config_param(snakemake), raw_paths)
    neutralise_formulas(judgements).to_csv(snakemake.output.judgements, index=False)
    neutralise_formulas(participants).to_csv(snakemake.output.participants, index=False)


run(snakemake, main)
