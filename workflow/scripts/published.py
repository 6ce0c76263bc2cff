"""The study's published numbers (config strings, published files) -> intermediate/published.csv (rule published)."""

from humeval.fetch import verify_fetched
from humeval.published import published_numbers
from humeval.runner import config_param, run


def main():
    raw = snakemake.input.raw
    verify_fetched(raw, snakemake.params.files, study=snakemake.wildcards.study)
    raw_paths = {f["id"]: f"{raw}/{f['filename']}" for f in snakemake.params.files}
    published_numbers(config_param(snakemake), raw_paths).to_csv(snakemake.output.published, index=False)


run(snakemake, main)
