"""Raw exports -> tidy judgements and participants (rule extract)."""
from humeval.pipeline import extract_study
from humeval.runner import run


def main():
    raw_paths = {key: path for key, path in snakemake.input.items() if key != "code"}
    judgements, participants = extract_study(snakemake.params.study, raw_paths)
    judgements.to_csv(snakemake.output.judgements, index=False)
    participants.to_csv(snakemake.output.participants, index=False)


run(snakemake, main)
