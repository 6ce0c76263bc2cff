"""Metric values + published numbers (+ the kept judgements, where a QRA3 criterion labels items) -> QRA cells,
their summary and the QRA3 tool's inputs (rule qra)."""

from humeval.intermediate import kept_judgements, read_csv
from humeval.qra import LABEL_COLUMNS, labels_items, qra_study, write_qra3_exports
from humeval.runner import config_param, run


def main():
    inputs, study = snakemake.input, config_param(snakemake)
    kept = None
    if labels_items(study):  # only Type III reads judgements: the rest is metric values and published numbers
        kept = kept_judgements(read_csv(inputs.judgements, columns=LABEL_COLUMNS), read_csv(inputs.exclusions))
    cells, summary, exports = qra_study(study, read_csv(inputs.metrics), read_csv(inputs.published), kept)
    cells.to_csv(snakemake.output.qra, index=False)
    summary.to_csv(snakemake.output.summary, index=False)
    write_qra3_exports(exports, snakemake.output.qra3)


run(snakemake, main)
