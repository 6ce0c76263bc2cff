"""All studies' numbers.csv and QRA summaries -> results/summary/ (rule summary)."""

from pathlib import Path

from humeval.intermediate import read_csv
from humeval.runner import run
from humeval.summary import (
    audit_summary,
    claims_summary,
    cv_star_figure,
    qra3_figure,
    qra3_summary,
    qra_summary,
    read_qra3_notes,
)
from humeval.tables import frame_markdown


def main():
    studies = snakemake.params.studies
    audits = {s: read_csv(p) for s, p in zip(studies, snakemake.input.audits)}
    qra = qra_summary({s: read_csv(p) for s, p in zip(studies, snakemake.input.qra)})
    claims = claims_summary(audits, snakemake.params.configs)
    counts, mismatches = audit_summary(audits)
    out = snakemake.output
    qra.to_csv(out.qra, index=False)
    Path(out.qra_md).write_text("**QRA Types I and II across studies**\n\n" + frame_markdown(qra) + "\n")
    claims.to_csv(out.claims, index=False)
    Path(out.claims_md).write_text("**Claims (QRA Type IV)**\n\n" + frame_markdown(claims) + "\n")
    counts.to_csv(out.audit, index=False)
    mismatches.to_csv(out.mismatches, index=False)
    Path(out.audit_md).write_text(
        "**Audit per study**\n\n" + frame_markdown(counts) + "\n\n**Mismatches and their "
        "diagnoses**\n\n" + frame_markdown(mismatches) + "\n"
    )
    formats = tuple(snakemake.params.formats)
    cv_star_figure(qra, Path(out.figure).with_suffix(""), formats)
    notes = read_qra3_notes(dict(zip(studies, snakemake.input.qra3)))
    qra3 = qra3_summary(audits, snakemake.params.configs, notes)
    qra3.to_csv(out.qra3, index=False)
    Path(out.qra3_md).write_text(
        "**QRA3 across studies (Types I-IV; system, criterion, study level)**\n\n" + frame_markdown(qra3) + "\n"
    )
    qra3_figure(qra3, Path(out.qra3_figure).with_suffix(""), formats)


run(snakemake, main)
