"""The cross-study summary as a reader sees it (rule summary, ``workflow/scripts/summary.py``): the summary CSVs
and their Markdown, the cross-study figures, a page per summary, the front page's overview, each study's verdict
card and the run page, from every study's audit, QRA and QRA3 summaries and power table (:mod:`humeval.summary`
computes the numbers; this module lays them out)."""

from __future__ import annotations

from pathlib import Path

from humeval.config.studyfile import study_path
from humeval.intermediate import read_csv, write_csv
from humeval.planning.power_table import as_numbers
from humeval.report.figures.summary_figures import cv_star_figure, qra3_figure
from humeval.report.front_page import misses_with_power, overview_rst, verdict_frame, verdict_rows
from humeval.report.html_tables import claims_rows, findings_rows, frame_html, qra3_rows
from humeval.report.tables import frame_markdown
from humeval.report.verdict_card import verdict_card_html
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

__all__ = ["PAGES", "write_summary"]

#: Each summary page (an output of rule summary): the output holding its CSV, its title and its sentence.
PAGES = {
    "verdict_html": (
        "verdict",
        "Verdict per study",
        (
            "Per study: the original's findings that hold in each reproduction that measures them, the printed numbers "
            "the raw data recompute that match, those left unrecomputed for want of raw data or of a measure, the "
            "study-level QRA3 CV* (%) and each finding not recovered with the power a reproduction of its size had."
        ),
    ),
    "qra_html": (
        "qra",
        "QRA Types I and II across studies",
        "CV* (Type I) and correlations (Type II) with inputs and recipe.",
    ),
    "findings_html": (
        "findings",
        "Findings per experiment",
        (
            "Each finding of the original (claims and planning findings) in every experiment: whether it holds, its "
            "effect (the smallest margin of its comparisons) with the 95% interval its own test gives, and for a "
            "reproduction the p of its effect's difference from the original's (difference p: below 0.05, outside the "
            "original's prediction interval) and the power a study of its size had to recover the finding, at the basis "
            "and by the analysis beside it (95% Wilson interval), with the paper's own test's power and its rate at "
            "zero effect (docs/planning.md)."
        ),
    ),
    "claims_html": (
        "claims",
        "Claims (QRA Type IV)",
        "Each study's headline findings, the verdict on both sides and the numbers behind it.",
    ),
    "audit_html": (
        "audit",
        "Audit per study",
        (
            "How many numbers of each study match, mismatch, are published only, recomputed only or published inputs; "
            "the evidence classes of the diagnoses (mismatch and published-only notes); the study-level QRA3 CV* over "
            "the experiments in brackets."
        ),
    ),
    "planning_html": (
        "planning",
        "Reproduction planning across studies",
        (
            "Per finding, the smallest planned design (evaluators x items) whose power to recover it reaches 80%: "
            "where the crossed model plans the finding, the power of an analysis valid under it (analysis 'valid', "
            "analytic; the paper's test's simulated power beside it), else the simulated power of the finding judged "
            "as published, with its 95% Wilson interval; each study's planning/power.csv has every design."
        ),
    ),
    "qra3_html": (
        "qra3",
        "QRA3 across studies",
        "Types I-IV at system, criterion and study level, with notes where a measure is empty.",
    ),
}


def write_tables(out, frames: dict) -> None:
    """The summary CSVs (``frames``: output name -> frame) and their Markdown versions."""
    for name, frame in frames.items():
        write_csv(frame, getattr(out, name))
    Path(out.qra_md).write_text("**QRA Types I and II across studies**\n\n" + frame_markdown(frames["qra"]) + "\n")
    Path(out.claims_md).write_text("**Claims (QRA Type IV)**\n\n" + frame_markdown(frames["claims"]) + "\n")
    Path(out.audit_md).write_text(
        "**Audit per study**\n\n" + frame_markdown(frames["audit"]) + "\n\n**Mismatches and their "
        "diagnoses**\n\n" + frame_markdown(frames["mismatches"]) + "\n"
    )
    Path(out.qra3_md).write_text(
        "**QRA3 across studies (Types I-IV; system, criterion, study level)**\n\n"
        + frame_markdown(frames["qra3"])
        + "\n"
    )


def write_run_page(out, code_version: str, studies: list[str], config: dict) -> None:
    """The run's date, versions, code version and config digest (run.csv and its page). The study files are read
    as this job reads them; not inputs, so that editing a title reruns no summary."""
    files = [study_path(config, name) for name in studies]
    metadata = run_metadata(code_version, config, files)
    write_csv(metadata, out.run)
    intro = "The date, Python and package versions, the code version and the config digest."
    Path(out.run_html).write_text(frame_html(metadata, "This run", intro, csv=out.run))


def write_summary(inputs, out, params, config: dict, configs: dict) -> None:
    """Every output of rule summary (``out``) from every study's audit, QRA and QRA3 summaries and power table
    (``inputs``): the summary CSVs and their Markdown, the cross-study figures, the summary pages, the front page,
    each study's verdict card and the run page. ``params``: the studies, whether planning ran and the figure formats;
    ``configs``: each study's slice of its study file; ``config``: the main config."""
    studies = params.studies
    audits = {s: read_csv(p) for s, p in zip(studies, inputs.audits)}
    qra = qra_summary({s: read_csv(p) for s, p in zip(studies, inputs.qra)})
    planned = zip(studies, inputs.planning) if params.planning else []
    powers = {s: as_numbers(read_csv(p)) for s, p in planned}
    found = findings_summary(audits, configs, powers)
    claims = with_retrospective_power(claims_summary(audits, configs), found)
    counts, mismatches = audit_summary(audits)
    qra3 = qra3_summary(audits, configs, read_qra3_notes(dict(zip(studies, inputs.qra3))))
    verdicts = verdict_rows(counts, found, qra3, configs)
    frames = {
        "qra": qra,
        "claims": claims,
        "planning": planning_summary(powers),
        "findings": found,
        "audit": counts,
        "mismatches": mismatches,
        "qra3": qra3,
        "verdict": verdict_frame(verdicts, found),
    }
    write_tables(out, frames)
    formats = tuple(params.formats)
    cv_star_figure(qra, Path(out.figure).with_suffix(""), formats)
    qra3_figure(qra3, Path(out.qra3_figure).with_suffix(""), formats)
    shown = {  # findings, claims, QRA3: a column per question (the CSVs' 19, 12, 19 ran past the pane); the audit page
        **frames,  # adds the evidence classes and the study-level QRA3 CV*
        "findings": findings_rows(found),
        "claims": claims_rows(claims),
        "qra3": qra3_rows(qra3),
        "audit": counts.assign(
            diagnoses=[evidence_counts(audits[s]) for s in counts["study"]], qra3_cv_star=[v["qra3"] for v in verdicts]
        ),
    }
    for page, (csv, title, intro) in PAGES.items():
        Path(getattr(out, page)).write_text(frame_html(shown[csv], title, intro, csv=getattr(out, csv)))
    raw = {name: part["raw"] for name, part in configs.items()}
    Path(out.raw_html).write_text(
        frame_html(
            raw_files_frame(raw), "Raw files", "Every raw file each study read, pinned by URL and sha256.", fit=True
        )
    )
    Path(out.overview).write_text(overview_rst(verdicts, audits, raw, misses_with_power(found)))
    for study, card in zip(studies, out.cards, strict=True):
        own = found[found["study"] == study] if "study" in found else found.iloc[:0]
        card_html = verdict_card_html(study, own, audits[study], powers.get(study), configs[study].get("tables", []))
        Path(card).write_text(card_html)
    write_run_page(out, Path(inputs.code_version).read_text().split()[3], studies, config)
