"""Metric values + published numbers (+ the kept judgements, where a QRA3 criterion labels items) -> QRA cells,
their summary and the QRA3 tool's inputs (rule qra)."""

from humeval.intermediate import kept_judgements, read_csv, write_csv
from humeval.qra import LABEL_COLUMNS, labels_items, qra_study, write_qra3_exports
from humeval.runner import run, study_config


def main():
    inputs, study = snakemake.input, study_config(snakemake)
    kept = None
    if labels_items(study):  # only Type III reads judgements: the rest is metric values and published numbers
        kept = kept_judgements(read_csv(inputs.judgements, columns=LABEL_COLUMNS), read_csv(inputs.exclusions))
    cells, summary, exports = qra_study(study, read_csv(inputs.metrics), read_csv(inputs.published), kept)
    write_csv(cells, snakemake.output.qra)
    write_csv(summary, snakemake.output.summary)
    write_qra3_exports(exports, snakemake.output.qra3)


run(snakemake, main)
