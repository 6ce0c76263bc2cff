"""Metric values + published numbers (+ the kept judgements for item labels) -> QRA cells, their summary and
the QRA3 tool's inputs (rule qra)."""

from humeval.intermediate import kept_judgements, read_csv
from humeval.qra import qra_study, write_qra3_exports
from humeval.runner import config_param, run


def main():
    inputs = snakemake.input
    kept = kept_judgements(read_csv(inputs.judgements), read_csv(inputs.exclusions))
    cells, summary, exports = qra_study(
        config_param(snakemake), read_csv(inputs.metrics), read_csv(inputs.published), kept
    )
    cells.to_csv(snakemake.output.qra, index=False)
    summary.to_csv(snakemake.output.summary, index=False)
    write_qra3_exports(exports, snakemake.output.qra3)


run(snakemake, main)
