"""Raw exports -> tidy judgements and participants (rule extract)."""
from humeval.pipeline import extract_study
from humeval.runner import run


def main():
    raw_paths = {f["id"]: f"{snakemake.input.raw}/{f['filename']}" for f in snakemake.params.files}
    judgements, participants = extract_study(snakemake.params.study, raw_paths)
    judgements.to_csv(snakemake.output.judgements, index=False)
    participants.to_csv(snakemake.output.participants, index=False)


run(snakemake, main)
