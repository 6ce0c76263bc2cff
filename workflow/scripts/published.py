"""The study's published numbers (config strings, published files) -> intermediate/published.csv (rule published)."""

from humeval.config.studyfile import raw_files
from humeval.fetch import verify_fetched
from humeval.intermediate import write_csv
from humeval.published import published_numbers
from humeval.runner import run, study_config


def main():
    raw, study = snakemake.input.raw, study_config(snakemake)
    files = raw_files(study, {spec["raw"] for spec in study.get("published_files", [])})
    verify_fetched(raw, files, study=snakemake.wildcards.study)
    raw_paths = {f["id"]: f"{raw}/{f['filename']}" for f in files}
    write_csv(published_numbers(study, raw_paths), snakemake.output.published)


run(snakemake, main)
