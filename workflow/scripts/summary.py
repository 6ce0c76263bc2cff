"""All studies' numbers.csv and QRA summaries -> results/summary/ (rule summary)."""

from pathlib import Path

from humeval.intermediate import read_csv, write_csv
from humeval.power_table import as_numbers
from humeval.report.figures.summary_figures import cv_star_figure, qra3_figure
from humeval.report.front_page import misses_with_power, overview_rst, verdict_frame, verdict_rows
from humeval.report.html_tables import frame_html
from humeval.report.tables import frame_markdown
from humeval.report.verdict_card import verdict_card_html
from humeval.runner import run, studies_config
from humeval.studyfile import study_path
from humeval.summary import (
    audit_summary,
    claims_summary,
    evidence_counts,
    findings_summary,
    planning_summary,
    qra3_summary,
    qra_summary,
    raw_files_frame,
    read_qra3_notes,
    run_metadata,
    with_retrospective_power,
)


def main():
    studies, configs = snakemake.params.studies, studies_config(snakemake)
    audits = {s: read_csv(p) for s, p in zip(studies, snakemake.input.audits)}
    qra = qra_summary({s: read_csv(p) for s, p in zip(studies, snakemake.input.qra)})
    planned = zip(studies, snakemake.input.planning) if snakemake.params.planning else []
    powers = {s: as_numbers(read_csv(p)) for s, p in planned}
    found = findings_summary(audits, configs, powers)
    claims = with_retrospective_power(claims_summary(audits, configs), found)
    planning = planning_summary(powers)
    counts, mismatches = audit_summary(audits)
    out = snakemake.output
    write_csv(qra, out.qra)
    Path(out.qra_md).write_text("**QRA Types I and II across studies**\n\n" + frame_markdown(qra) + "\n")
    write_csv(claims, out.claims)
    write_csv(planning, out.planning)
    write_csv(found, out.findings)
    Path(out.claims_md).write_text("**Claims (QRA Type IV)**\n\n" + frame_markdown(claims) + "\n")
    write_csv(counts, out.audit)
    write_csv(mismatches, out.mismatches)
    Path(out.audit_md).write_text(
        "**Audit per study**\n\n" + frame_markdown(counts) + "\n\n**Mismatches and their "
        "diagnoses**\n\n" + frame_markdown(mismatches) + "\n"
    )
    formats = tuple(snakemake.params.formats)
    cv_star_figure(qra, Path(out.figure).with_suffix(""), formats)
    notes = read_qra3_notes(dict(zip(studies, snakemake.input.qra3)))
    qra3 = qra3_summary(audits, configs, notes)
    write_csv(qra3, out.qra3)
    Path(out.qra3_md).write_text(
        "**QRA3 across studies (Types I-IV; system, criterion, study level)**\n\n" + frame_markdown(qra3) + "\n"
    )
    qra3_figure(qra3, Path(out.qra3_figure).with_suffix(""), formats)
    verdicts = verdict_rows(counts, found, qra3, configs)
    verdict = verdict_frame(verdicts, found)
    write_csv(verdict, out.verdict)
    pages = {
        out.verdict_html: (
            out.verdict,
            verdict,
            "Verdict per study",
            (
                "Per study: the original's findings that hold in each reproduction that measures them, the printed "
                "numbers the raw data recompute that match, those left unrecomputed for want of raw data or of a "
                "measure, the study-level QRA3 CV* (%) and each finding not recovered with the power a reproduction "
                "of its size had."
            ),
        ),
        out.qra_html: (
            out.qra,
            qra,
            "QRA Types I and II across studies",
            "CV* (Type I) and correlations (Type II) with inputs and recipe.",
        ),
        out.findings_html: (
            out.findings,
            found,
            "Findings per experiment",
            (
                "Each finding of the original (claims and planning findings) in every experiment: whether it holds, "
                "its effect (the smallest margin of its comparisons) with the 95% interval its own test gives, and for "
                "a reproduction the p of its effect's difference from the original's (difference_p: below 0.05, "
                "outside the original's prediction interval) and the simulated power a study of its size had to "
                "recover the finding at the basis power_basis (95% Wilson interval; docs/planning.md)."
            ),
        ),
        out.claims_html: (
            out.claims,
            claims,
            "Claims (QRA Type IV)",
            "Each study's headline findings, the verdict on both sides and the numbers behind it.",
        ),
        out.audit_html: (
            out.audit,
            counts.assign(
                diagnoses=[evidence_counts(audits[s]) for s in counts["study"]],
                qra3_cv_star=[v["qra3"] for v in verdicts],
            ),
            "Audit per study",
            (
                "How many numbers of each study match, mismatch, are published only, recomputed only or published "
                "inputs; the evidence classes of the diagnoses (mismatch and published-only notes); the study-level "
                "QRA3 CV* over the experiments in brackets."
            ),
        ),
        out.planning_html: (
            out.planning,
            planning,
            "Reproduction planning across studies",
            (
                "Per finding, the smallest planned design (evaluators x items) whose simulated power to recover it "
                "reaches 80%, with its 95% Wilson interval; each study's planning/power.csv has every design."
            ),
        ),
        out.qra3_html: (
            out.qra3,
            qra3,
            "QRA3 across studies",
            "Types I-IV at system, criterion and study level, with notes where a measure is empty.",
        ),
    }
    for path, (csv, frame, title, intro) in pages.items():
        Path(path).write_text(frame_html(frame, title, intro, csv=csv))
    code_version = Path(snakemake.input.code_version).read_text().split()[3]
    raw = {name: part["raw"] for name, part in configs.items()}
    Path(out.raw_html).write_text(
        frame_html(raw_files_frame(raw), "Raw files", "Every raw file each study read, pinned by URL and sha256.")
    )
    Path(out.overview).write_text(overview_rst(verdicts, audits, raw, misses_with_power(found)))
    for study, card in zip(studies, out.cards, strict=True):
        own = found[found["study"] == study] if "study" in found else found.iloc[:0]
        Path(card).write_text(verdict_card_html(study, own, audits[study], powers.get(study)))
    # the study files as this job reads them; not inputs, so that editing a title reruns no summary
    files = [study_path(snakemake.config, name) for name in studies]
    metadata = run_metadata(code_version, snakemake.config, files)
    write_csv(metadata, out.run)
    Path(out.run_html).write_text(
        frame_html(
            metadata,
            "This run",
            "The date, Python and package versions, the code version and the config digest.",
            csv=out.run,
        )
    )


run(snakemake, main)
