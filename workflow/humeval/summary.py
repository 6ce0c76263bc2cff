"""The cross-study summary (``results/summary/``): QRA Types I/II, claims (Type IV), and the audit.

Everything here is read from each study's outputs (``numbers.csv``, ``intermediate/qra_summary.csv``) and
config (claim texts); nothing is typed by hand.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import pandas as pd

from humeval.intermediate import PRINTED

__all__ = [
    "RUN_PACKAGES",
    "audit_summary",
    "claims_summary",
    "conditions_differing",
    "design_power",
    "evidence_counts",
    "findings_summary",
    "package_commit",
    "planning_summary",
    "qra3_summary",
    "qra_summary",
    "raw_files_frame",
    "read_qra3_notes",
    "run_metadata",
    "with_retrospective_power",
]

STATUSES = ["match", "mismatch", "published_only", "recomputed_only", "published_input"]


def qra_summary(per_study: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every study's Type I (CV*) and Type II (correlation) results with their inputs and recipes."""
    frames = [frame.assign(study=study) for study, frame in per_study.items() if not frame.empty]
    if not frames:
        return pd.DataFrame(
            columns=["study", "type", "table", "measurand", "value", "p", "p_exact", "inputs", "recipe"]
        )
    out = pd.concat(frames, ignore_index=True)
    return out[["study"] + [c for c in out.columns if c != "study"]]


#: A claim's verdict as a reader reads it.
YES_NO = {True: "yes", False: "no"}


def claims_summary(audits: dict[str, pd.DataFrame], studies: dict[str, dict]) -> pd.DataFrame:
    """Type IV: each study's claims with the verdict in the original and in a reproduction (yes / no / not
    measured), whether it replicated, and the numbers behind each verdict: one row per claim and reproduction
    (``experiment``): R1 for a two-sided claim, each experiment after the first of a claims entry's ``sides``."""
    from humeval.qra.claims import replicated

    rows = []
    for study, audit in audits.items():
        config = studies[study]
        experiments = [e["id"] for e in config.get("experiments", [])]
        for entry in config.get("qra", []):
            if entry["type"] != "claims":
                continue
            part = audit[audit["table"] == entry["table"]]
            if part.empty:
                continue
            cells = part.set_index(["row", "column"])["value"]
            sides = entry.get("sides")  # in the study's order of experiments, whatever the file's order of keys
            columns = [e for e in experiments if e in sides] if sides else ["original", "reproduction"]
            reproductions = columns[1:] if sides else experiments[1:2]
            for claim in entry["claims"]:
                for experiment, column in zip(reproductions, columns[1:]):
                    pair = (columns[0], column)
                    verdict = [cells.get((claim["id"], c)) for c in pair]
                    holds = [YES_NO[bool(v)] if v is not None and pd.notna(v) else "not measured" for v in verdict]
                    rows.append(
                        {
                            "study": study,
                            "claim": claim["id"],
                            "experiment": experiment,
                            "text": claim["text"],
                            "original_holds": holds[0],
                            "reproduction_holds": holds[1],
                            "replicated": YES_NO[
                                replicated({"yes": True, "no": False}.get(holds[0]), holds[1] == "yes")
                            ],
                            "evidence": claim_evidence(cells, claim["id"], pair),
                        }
                    )
    columns = ["study", "claim", "experiment", "text", "original_holds", "reproduction_holds", "replicated", "evidence"]
    return pd.DataFrame(rows, columns=columns)


def claim_evidence(cells: pd.Series, claim: str, sides: tuple[str, str]) -> str:
    """The operands each comparison of ``claim`` read on both ``sides``: ``original: 3.2 vs 2.9; ... | ...``."""
    evidence, k = [], 1
    while any((f"{claim}.{k}", f"{side}_left") in cells.index for side in sides):
        evidence.append(
            " ".join(
                f"{side}: {cells[(f'{claim}.{k}', f'{side}_left')]:.4g} vs {cells[(f'{claim}.{k}', f'{side}_right')]:.4g};"
                for side in sides
                if (f"{claim}.{k}", f"{side}_left") in cells.index
            )
        )
        k += 1
    return " | ".join(evidence)


def findings_summary(audits: dict[str, pd.DataFrame], studies: dict, powers: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """``summary/findings.csv``: per study, finding (:func:`humeval.findings.findings`: the claims and the planning
    findings) and experiment, whether the finding holds there (yes, no, or not measured where the experiment lacks
    its cells), read from the audit (recomputed values, else published), in every experiment it is judged in
    (:func:`humeval.findings.finding_sides`: a claim's ``sides``, or O and R1; a planning finding's every
    experiment); its effect with the 95% interval its own test gives, and for a reproduction the p of the
    difference from the original's (:func:`humeval.findings.consistency`). For a reproduction, the power a
    study of its size had to recover the finding (``planning/power.csv``, its headline basis: safeguard where the
    model plans it): where the crossed model plans it, the power of an analysis valid under that model
    (``power_analysis`` valid; Westfall, Kenny & Judd 2014), with the paper's test's power, its 95% interval and its
    rate at zero effect beside (``paper_*``); else the paper's test's power with its interval; none where the
    resampled experiment is that reproduction itself: such "observed power" follows from the reproduction's own
    result and says nothing beyond it (Hoenig & Heisey 2001, The American Statistician 55(1))."""
    from humeval.findings import consistency, evaluate, finding_cells, finding_sides, findings

    rows = []
    for study, audit in audits.items():
        config = studies[study]
        shown = audit["value"].where(audit["value"].notna(), audit["published"])
        cells = list(zip(audit["table"], audit["row"], audit["column"]))
        values = dict(zip(cells, shown))
        # a published number read in place of a recomputed one keeps its printed bound ("< 0.05")
        printed = audit["bound"].fillna("").where(audit["value"].isna(), "") if "bound" in audit else None
        bounds = {c: b for c, b in zip(cells, printed) if b} if printed is not None else {}
        power = powers.get(study)
        for finding in findings(config):
            sides = finding_sides(finding, config)
            for experiment, _, label in sides:
                measured = all(pd.notna(values.get(cell)) for cell in finding_cells(finding, label))
                record = {
                    "study": study,
                    "finding": finding["id"],
                    "text": finding["text"],
                    "experiment": experiment,
                    "holds": YES_NO[evaluate(finding, values, label, bounds)] if measured else "not measured",
                    "power": float("nan"),
                    "power_low": float("nan"),
                    "power_high": float("nan"),
                    "power_note": "",
                }
                record.update(consistency(finding, values, sides[0][2], label) if measured else {})
                if experiment != sides[0][0] and measured:
                    record.update(design_power(power, finding["id"], experiment))
                elif experiment != sides[0][0]:
                    record["power_note"] = f"{experiment} does not measure this finding's cells"
                rows.append(record)
    columns = ["study", "finding", "text", "experiment", "holds", "effect", "effect_low", "effect_high"]
    columns += ["difference_p", "power", "power_basis", "power_analysis", "power_low", "power_high", "power_note"]
    columns += ["paper_power", "paper_power_low", "paper_power_high", "paper_null_rate"]
    return pd.DataFrame(rows, columns=columns)


def design_power(power: pd.DataFrame | None, finding: str, experiment: str) -> dict:
    """The power of the simulated design of ``experiment``'s size to recover ``finding`` (``planning/power.csv``),
    or a note saying why there is none."""
    if power is None:
        return {"power_note": "planning was not run (--config planning=false)"}
    from humeval.planning.power_table import headline

    hit = headline(power[(power["finding"] == finding) & (power["design"] == experiment)])
    if hit.empty:
        planned = power[power["finding"] == finding]
        return {"power_note": planned["note"].iloc[0] if not planned.empty else "no planning for this finding"}
    record = hit.iloc[0]
    if record["pilot"] == experiment:
        restated = "its p-value" if record.get("quantity") == "power" else "its own estimate (the finding is untested)"
        return {
            "power_note": f"not shown: planned from {experiment}'s own judgements, its power would restate {restated}"
        }
    if pd.isna(record["power"]):
        return {"power_note": record["note"]}
    basis, valid = record.get("basis", "observed"), record.get("valid_power", float("nan"))
    caveat = record.get("caveat", "")
    caveat = {"power_note": caveat} if isinstance(caveat, str) and caveat else {}
    paper = {
        "paper_power": record["power"],
        "paper_power_low": record["ci_low"],
        "paper_power_high": record["ci_high"],
        "paper_null_rate": record.get("paper_null_rate", float("nan")),
    }
    if pd.notna(valid):  # the headline: an analysis valid under the crossed model, the paper's test beside (issue 53)
        return {"power": valid, "power_basis": basis, "power_analysis": "valid", **paper, **caveat}
    return {
        "power": record["power"],
        "power_low": record["ci_low"],
        "power_high": record["ci_high"],
        "power_basis": basis,
        "power_analysis": "as published",
        **paper,
        **caveat,
    }


def with_retrospective_power(claims: pd.DataFrame, found: pd.DataFrame) -> pd.DataFrame:
    """``claims`` with the power the reproduction had to recover each claim at its size, from
    :func:`findings_summary` (``reproduction_power``, ``power_low``, ``power_high``, ``power_note``)."""
    reproduction = found.set_index(["study", "finding", "experiment"])
    keys = list(zip(claims["study"], claims["claim"], claims["experiment"]))
    out = claims.copy()
    for source, target in (("power", "reproduction_power"), ("power_low", "power_low"), ("power_high", "power_high")):
        out[target] = [reproduction[source].get(k, float("nan")) for k in keys]
    out["power_note"] = [reproduction["power_note"].get(k, "") for k in keys]
    return out


def planning_summary(powers: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """``summary/planning.csv``: per study and finding, the smallest planned design whose simulated power
    reaches 80% (:func:`humeval.planning.power_table.smallest_sufficient`), or why there is none."""
    from humeval.planning.power_table import smallest_sufficient

    frames = [smallest_sufficient(power).assign(study=study) for study, power in powers.items()]
    columns = ["study", "finding", "evaluators", "items", "analysis", "method", "basis", "quantity", "power", "ci_low"]
    columns += ["ci_high", "paper_power", "note"]
    return pd.concat(frames, ignore_index=True).reindex(columns=columns) if frames else pd.DataFrame(columns=columns)


def unrecomputed_counts(audit: pd.DataFrame) -> dict[str, int]:
    """Published-only numbers by why they are not recomputed: ``no_raw_data``, ``no_measure`` (raw data exist,
    no measure reproduces the number) and ``reason_not_stated`` (the config does not say which)."""
    reasons = audit.loc[audit["status"] == "published_only", "unrecomputed"].fillna("").replace("", "reason_not_stated")
    return reasons.value_counts().reindex(["no_raw_data", "no_measure", "reason_not_stated"], fill_value=0).to_dict()


def printed_counts(audit: pd.DataFrame) -> dict[str, int]:
    """Of the matches and mismatches, how many rest on printed numbers alone (``basis``, :mod:`humeval.audit`):
    ``match_printed`` and ``mismatch_printed``; the rest were recomputed from judgements."""
    printed = audit["basis"].fillna("").eq(PRINTED) if "basis" in audit else pd.Series(False, index=audit.index)
    return {f"{s}_printed": int((printed & audit["status"].eq(s)).sum()) for s in ("match", "mismatch")}


def undiagnosed_mismatches(audit: pd.DataFrame) -> int:
    """How many of the audit's mismatches have no diagnosis (the audit's ``UNDIAGNOSED`` note,
    :data:`humeval.audit.UNDIAGNOSED`); the others carry the reason their config records."""
    mismatch = audit["status"].eq("mismatch")
    return int((mismatch & audit["note"].fillna("").str.startswith("UNDIAGNOSED")).sum())


def audit_summary(audits: dict[str, pd.DataFrame]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per study, how many numbers have each status; and every mismatch with its note."""
    counts = pd.DataFrame(
        [
            {
                "study": study,
                **audit["status"].value_counts().reindex(STATUSES, fill_value=0).to_dict(),
                "published": int(audit["published"].notna().sum()),
                **unrecomputed_counts(audit),
                **printed_counts(audit),
                "mismatch_undiagnosed": undiagnosed_mismatches(audit),
            }
            for study, audit in audits.items()
        ]
    )
    mismatches = pd.concat(
        [audit[audit["status"] == "mismatch"].assign(study=study) for study, audit in audits.items()], ignore_index=True
    )
    columns = ["study", "table", "row", "column", "value", "published", "note"]
    return counts, mismatches[columns] if not mismatches.empty else pd.DataFrame(columns=columns)


QRA3_SUMMARY_COLUMNS = ["study", "table", "level", "criterion", "system", "experiments"]


def conditions_differing(audit: pd.DataFrame, experiments: list[str] | None = None, names: bool = True) -> str:
    """Per reproduction, how many of the conditions both it and O state differ, and which (from the audit's
    ``condition`` rows, :mod:`humeval.heds`): ``R1: 1 of 3 (Recruitment and platform)``, without the names in
    brackets when ``names`` is false; empty without any.

    >>> audit = pd.DataFrame({"table": "conditions", "status": "condition", "row": ["A", "A", "B", "B"],
    ...                       "column": ["O", "R1", "O", "R1"], "note": ["x", "y", "z", "Z"]})
    >>> conditions_differing(audit)
    'R1: 1 of 2 (A)'
    """
    part = audit[audit["status"] == "condition"]
    if part.empty:
        return ""
    wide = part.pivot(index="row", columns="column", values="note")
    if "O" not in wide:
        return ""
    out = []
    for experiment in [c for c in wide.columns if c != "O" and (experiments is None or c in experiments)]:
        both = wide[wide["O"].notna() & wide[experiment].notna()]
        same = [
            " ".join(str(a).casefold().split()) == " ".join(str(b).casefold().split())
            for a, b in zip(both["O"], both[experiment])
        ]
        differ = [row for row, equal in zip(both.index, same) if not equal]
        out.append(
            f"{experiment}: {len(differ)} of {len(both)}" + (f" ({', '.join(differ)})" if differ and names else "")
        )
    return "; ".join(out)


def qra3_summary(
    audits: dict[str, pd.DataFrame], studies: dict[str, dict], notes: dict[tuple, list[str]]
) -> pd.DataFrame:
    """Every study's QRA3 tables in one frame: one row per (study, table, row) with its level (system,
    criterion, study), the experiments compared, the QRA3 measures (columns as in the tables) and, on
    criterion rows, the notes saying why a measure is empty (``notes``: (study, table) -> lines). Criterion
    and study rows are always listed; a system row only where it holds a number."""
    from humeval.qra3_layout import QRA3_COLUMNS, row_parts, table_rows

    frames = []
    for study, audit in audits.items():
        for entry in studies[study].get("qra3", []):
            part = audit[audit["table"] == entry["table"]]
            rows = table_rows(entry)
            wide = part.pivot(index="row", columns="column", values="value").reindex(index=rows, columns=QRA3_COLUMNS)
            criterion, system = zip(*row_parts(entry))
            level = [
                "study" if c == "all" else "criterion" if s == "all" else "system" for c, s in zip(criterion, system)
            ]
            lines = notes.get((study, entry["table"]), [])
            differing = conditions_differing(audit, entry["experiments"])
            note = [
                "; ".join(n.split(": ", 1)[1] for n in lines if n.startswith(f"{c}: "))
                if lv == "criterion"
                else (f"conditions differing from O: {differing}" if lv == "study" and differing else "")
                for c, lv in zip(criterion, level)
            ]
            frame = wide.reset_index(drop=True).assign(
                study=study,
                table=entry["table"],
                level=level,
                criterion=list(criterion),
                system=list(system),
                experiments=", ".join(entry["experiments"]),
                note=note,
            )
            frames.append(frame[(frame["level"] != "system") | frame[QRA3_COLUMNS].notna().any(axis=1)])
    columns = [*QRA3_SUMMARY_COLUMNS, *QRA3_COLUMNS, "note"]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def read_qra3_notes(exports: dict[str, str]) -> dict[tuple, list[str]]:
    """(study, table) -> the notes of each QRA3 table, from ``results/<study>/qra3/<table>/notes.txt``."""
    out = {}
    for study, folder in exports.items():
        for path in sorted(Path(folder).glob("*/notes.txt")):
            out[(study, path.parent.name)] = path.read_text().splitlines()
    return out


def evidence_counts(audit: pd.DataFrame) -> str:
    """The evidence classes of a study's diagnoses (mismatch and published-only notes): ``2 explained, 1 ...``."""
    notes = audit.loc[audit["status"].isin(["mismatch", "published_only"]), "note"].fillna("")
    classes = notes.str.extract(r"^\[(\w+)\]")[0].fillna("none").value_counts()
    return ", ".join(f"{n} {c}" for c, n in classes.sort_index().items()) or "none"


#: The packages whose versions make a run's numbers: the stack, and what a study may call.
RUN_PACKAGES = (
    "snakemake",
    "pandas",
    "numpy",
    "scipy",
    "pingouin",
    "statsmodels",
    "krippendorff",
    "matplotlib",
    "textacy",
    "trueskill",
    "choix",
    "google-re2",
    "PyYAML",
)


def run_metadata(code_version: str, config: dict, study_files: list[str | Path]) -> pd.DataFrame:
    """The conditions of this run (``results/summary/run.csv``): the date (UTC), the release or development version
    (``humeval.__version__``) and the commit (:func:`package_commit`), Python and each of :data:`RUN_PACKAGES`' version, the code version, and
    ``config_digest``, the sha256 over the main config as the run read it (its files and ``--config`` together, as sorted JSON) and the study files' bytes, in order, as the
    summary job read them, so that a reviewer knows what made the numbers."""
    import datetime
    import hashlib
    import json
    import platform
    from importlib import metadata

    digest = hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode())
    for path in study_files:
        digest.update(Path(path).read_bytes())
    from humeval import __version__

    rows = [
        ("date", datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")),
        ("humeval-repro", __version__),  # the code that ran (an editable install's metadata keeps its install's)
        ("python", platform.python_version()),
    ]
    for package in RUN_PACKAGES:
        try:
            rows.append((package, metadata.version(package)))
        except metadata.PackageNotFoundError:
            rows.append((package, "not installed"))
    rows += [("commit", package_commit()), ("code_version", code_version), ("config_digest", digest.hexdigest())]
    return pd.DataFrame(rows, columns=["item", "detail"])  # not "value": the stage reader reads that as numbers


def package_commit() -> str:
    """The git commit of the package that ran, with ``+changes`` where its files differ from it, or why there is
    none (a deployment from a tag, a wheel): with a development version (``2.1.0.dev0``) the commit says which code
    ran. The code version beside it identifies the code in any case."""
    import subprocess

    import humeval

    folder = Path(humeval.__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True, check=True, timeout=30
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(folder), "status", "--porcelain", "--", "."],
            check=False,
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "not a git checkout (see code_version)"
    return f"{commit}+changes" if dirty else commit


def raw_files_frame(raw: dict) -> pd.DataFrame:
    """Every study's pinned raw files: study, id, file name, sha256 (or git blob id), URL."""
    return pd.DataFrame(
        [
            {
                "study": study,
                "raw file": f["id"],
                "file name": unquote(f["url"].rsplit("/", 1)[-1]),
                "sha256": f.get("sha256") or f"git blob {f.get('git_blob')}",
                "url": f["url"],
            }
            for study, listed in raw.items()
            for f in listed
        ],
        columns=["study", "raw file", "file name", "sha256", "url"],
    )
