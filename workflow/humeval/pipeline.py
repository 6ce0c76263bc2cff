"""One function per pipeline stage; the Snakemake scripts unpack their job and call these.

Stages: published (config -> parsed numbers); extract (loaders -> tidy) -> exclude -> metrics -> QRA ->
audit -> tables -> figures.
Each function takes and returns data frames (plus the study config) and does no file I/O besides
what its name says, so tests can run a stage on fixtures without Snakemake. Each imports what its stage
uses inside it, so a job loads (and depends on: :mod:`humeval.code_deps`) only its own stage's code.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from humeval.errors import HumevalError

log = logging.getLogger(__name__)


def extract_study(study: dict, raw_paths: dict[str, str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run every ``extract`` entry's loader on its raw files; validated tidy judgements and participants.

    ``raw_paths`` maps raw ids to the files that were fetched; an optional raw file that is absent is
    left out of its loader's inputs (the loader then computes what it can without it).
    """
    from humeval.loaders import get_loader
    from humeval.tidy import validate_judgements, validate_participants

    optional = {r["id"] for r in study["raw"] if r.get("optional")}
    judgements, participants = [], []
    for entry in study["extract"]:
        absent = [raw_id for raw_id in entry["inputs"].values() if raw_id not in raw_paths]
        required_absent = [raw_id for raw_id in absent if raw_id not in optional]
        if required_absent:
            raise HumevalError(f"raw file(s) {required_absent} were not fetched", study=study["name"])
        for raw_id in absent:
            log.warning("optional raw file %s is absent: side(s) needing it stay published only", raw_id)
        inputs = {role: raw_paths[raw_id] for role, raw_id in entry["inputs"].items() if raw_id in raw_paths}
        log.info("side %s: loader %s on %s", entry["side"], entry["loader"], sorted(inputs.values()))
        j, p = get_loader(entry["loader"])(inputs, entry.get("params", {}), study=study["name"], side=entry["side"])
        log.info("side %s: %d judgement rows, %d participants", entry["side"], len(j), len(p))
        judgements.append(j)
        participants.append(p)
    tidy = validate_judgements(pd.concat(judgements, ignore_index=True), f"{study['name']} tidy judgements")
    people = validate_participants(pd.concat(participants, ignore_index=True), f"{study['name']} participants")
    return tidy, people


def exclude_study(study: dict, tidy: pd.DataFrame, participants: pd.DataFrame):
    """Apply the study's exclusions; (kept judgements, exclusion log, exclusion-variant log). Entries with a
    ``variant`` are sensitivity analyses: logged apart and applied only by metrics that name the variant."""
    from humeval.exclusions import apply_exclusions, variant_exclusions

    entries = study.get("exclusions", [])
    kept, excluded = apply_exclusions(tidy, participants, [e for e in entries if "variant" not in e])
    for rule, count in excluded["rule"].value_counts(sort=False).items():
        log.info("exclusion %s: %d judgements", rule, count)
    log.info("kept %d of %d judgement rows", len(kept), len(tidy))
    variants = variant_exclusions(kept, participants, [e for e in entries if "variant" in e])
    for (variant, rule), count in variants.groupby(["variant", "rule"]).size().items():
        log.info("variant %s, exclusion %s: %d judgements", variant, rule, count)
    return kept, excluded, variants


def metrics_study(study: dict, kept, tidy, participants, exclusions, published, variants) -> pd.DataFrame:
    """The study's metric values (table, row, column, value); ``published`` is the parsed published
    numbers, which a metric may use as inputs where the data lack a part (e.g. unpublished batches);
    ``variants`` the exclusion-variant log (sensitivity analyses a metric may name)."""
    from humeval.metrics import StudyData, compute_metrics

    data = StudyData(
        kept=kept,
        tidy=tidy,
        participants=participants,
        exclusions=exclusions,
        published=published,
        config=study,
        variant_exclusions=variants,
    )
    return compute_metrics(data, study.get("metrics", []))


def qra_study(
    study: dict, values: pd.DataFrame, published: pd.DataFrame, kept: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, dict]]:
    """QRA cells from the metric values and the published numbers, a summary of each Type I/II result with
    the inputs and recipe it used, and per QRA3 table the QRA3 tool's input and config (``exports``:
    table -> {input: DataFrame, config: dict, notes: [str]})."""
    from humeval.metrics import VALUE_COLUMNS
    from humeval.qra import qra_values
    from humeval.qra.qra3_tables import qra3_entry, tool_config, tool_input_csv

    cells, summary = qra_values(values, published, study.get("qra", []))
    experiments = {e["id"]: e for e in study["experiments"]}
    qra3_cells, exports = [], {}
    for entry in study.get("qra3", []):
        table_cells, notes, tool_rows = qra3_entry(values, published, kept, entry, experiments)
        key = entry.get("key", study["name"])
        exports[entry["table"]] = {
            "input": tool_input_csv(tool_rows, key),
            "config": tool_config(entry, experiments, key),
            "notes": notes,
        }
        for note in notes:
            log.info("QRA3 %s: %s", entry["table"], note)
        qra3_cells += table_cells
    if qra3_cells:
        cells = pd.concat([cells, pd.DataFrame(qra3_cells, columns=VALUE_COLUMNS)], ignore_index=True)
    return cells, summary, exports


def write_qra3_exports(exports: dict[str, dict], outdir: str | Path) -> None:
    """``<outdir>/<table>/qra3_input.csv``, ``qra3_config.json`` and ``notes.txt`` per QRA3 table."""
    import json

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    for table, export in exports.items():
        folder = outdir / table
        folder.mkdir(exist_ok=True)
        export["input"].to_csv(folder / "qra3_input.csv", index=False)
        (folder / "qra3_config.json").write_text(json.dumps(export["config"], indent=2) + "\n")
        (folder / "notes.txt").write_text("".join(f"{note}\n" for note in export["notes"]))


def audit_study(study: dict, values: pd.DataFrame, qra: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """The ``numbers.csv`` audit of every number the study's tables hold: metric values and QRA cells
    against the published numbers."""
    from humeval.audit import build_audit

    recomputed = pd.concat([values, qra], ignore_index=True)
    audit = build_audit(recomputed, published, study["tables"])
    counts = audit["status"].value_counts().to_dict()
    log.info("audit: %s", counts)
    return audit


def write_tables(study: dict, audit: pd.DataFrame, outdir: str | Path) -> list[Path]:
    """Write ``<table>.csv`` and ``<table>.md`` for every configured table."""
    from humeval.tables import markdown_table, wide_table

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for table in study["tables"]:
        csv_path, md_path = outdir / f"{table['id']}.csv", outdir / f"{table['id']}.md"
        wide_table(audit, table).to_csv(csv_path)
        md_path.write_text(markdown_table(audit, table, study.get("rounding", "half_up")))
        written += [csv_path, md_path]
    return written
