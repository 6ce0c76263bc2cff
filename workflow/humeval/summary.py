"""The cross-study summary (``results/summary/``): QRA Types I/II, claims (Type IV), and the audit.

Everything here is read from each study's outputs (``numbers.csv``, ``intermediate/qra_summary.csv``) and
config (claim texts); nothing is typed by hand.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

STATUSES = ["match", "mismatch", "published_only", "recomputed_only"]


def qra_summary(per_study: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every study's Type I (CV*) and Type II (correlation) results with their inputs and recipes."""
    frames = [frame.assign(study=study) for study, frame in per_study.items() if not frame.empty]
    if not frames:
        return pd.DataFrame(
            columns=["study", "type", "table", "measurand", "value", "p", "p_exact", "inputs", "recipe"]
        )
    out = pd.concat(frames, ignore_index=True)
    return out[["study"] + [c for c in out.columns if c != "study"]]


def claims_summary(audits: dict[str, pd.DataFrame], studies: dict[str, dict]) -> pd.DataFrame:
    """Type IV: each study's claims with the verdict on both sides and the numbers behind each verdict."""
    rows = []
    for study, audit in audits.items():
        texts = {
            c["id"]: c["text"]
            for entry in studies[study].get("qra", [])
            if entry["type"] == "claims"
            for c in entry["claims"]
        }
        claims = audit[audit["table"] == "claims"]
        if claims.empty:
            continue
        cells = claims.set_index(["row", "column"])["value"]
        for claim_id, text in texts.items():
            evidence = []
            k = 1
            while (f"{claim_id}.{k}", "original_left") in cells.index:
                evidence.append(
                    " ".join(
                        f"{side}: {cells[(f'{claim_id}.{k}', f'{side}_left')]:.4g} vs "
                        f"{cells[(f'{claim_id}.{k}', f'{side}_right')]:.4g};"
                        for side in ("original", "reproduction")
                    )
                )
                k += 1
            rows.append(
                {
                    "study": study,
                    "claim": claim_id,
                    "text": text,
                    "original_holds": int(cells[(claim_id, "original")]),
                    "reproduction_holds": int(cells[(claim_id, "reproduction")]),
                    "replicated": int(cells[(claim_id, "replicated")]),
                    "evidence": " | ".join(evidence),
                }
            )
    return pd.DataFrame(
        rows, columns=["study", "claim", "text", "original_holds", "reproduction_holds", "replicated", "evidence"]
    )


def audit_summary(audits: dict[str, pd.DataFrame]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per study, how many numbers have each status; and every mismatch with its note."""
    counts = pd.DataFrame(
        [
            {
                "study": study,
                **audit["status"].value_counts().reindex(STATUSES, fill_value=0).to_dict(),
                "published": int(audit["published"].notna().sum()),
            }
            for study, audit in audits.items()
        ]
    )
    mismatches = pd.concat(
        [audit[audit["status"] == "mismatch"].assign(study=study) for study, audit in audits.items()], ignore_index=True
    )
    columns = ["study", "table", "row", "column", "value", "published", "note"]
    return counts, mismatches[columns] if not mismatches.empty else pd.DataFrame(columns=columns)


def cv_star_figure(qra: pd.DataFrame, path_stem: str | Path, formats: tuple[str, ...] = ("png",)):
    """Horizontal bars of CV* per measurand, grouped and coloured by study (lower = more reproducible)."""
    from humeval.figures import PALETTE, pyplot, save

    plt = pyplot()
    cv = qra[qra["type"] == "cv_star"].reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * max(len(cv), 4) + 1.2))
    studies = list(dict.fromkeys(cv["study"]))
    colours = [PALETTE[studies.index(s) % len(PALETTE)] for s in cv["study"]]
    y = range(len(cv))[::-1]
    ax.barh(list(y), cv["value"], color=colours)
    ax.set_yticks(
        list(y),
        [f"{s.split('-')[0]} {t}: {m}" for s, t, m in zip(cv["study"], cv["table"], cv["measurand"])],
        fontsize=7,
    )
    for yy, value in zip(y, cv["value"]):
        ax.text(value, yy, f" {value:.1f}", va="center", fontsize=7)
    ax.set_xlabel("CV* (%), original vs reproduction; lower = closer")
    ax.set_title("QRA Type I across studies")
    fig.tight_layout()
    save(fig, path_stem, formats)
    plt.close(fig)


QRA3_SUMMARY_COLUMNS = ["study", "table", "level", "criterion", "system", "experiments"]


def qra3_summary(
    audits: dict[str, pd.DataFrame], studies: dict[str, dict], notes: dict[tuple, list[str]]
) -> pd.DataFrame:
    """Every study's QRA3 tables in one frame: one row per (study, table, row) with its level (system,
    criterion, study), the experiments compared, the QRA3 measures (columns as in the tables) and, on
    criterion rows, the notes saying why a measure is empty (``notes``: (study, table) -> lines). Criterion
    and study rows are always listed; a system row only where it holds a number."""
    from humeval.qra.qra3_layout import QRA3_COLUMNS, table_rows

    frames = []
    for study, audit in audits.items():
        for entry in studies[study].get("qra3", []):
            part = audit[audit["table"] == entry["table"]]
            rows = table_rows(entry)
            wide = part.pivot(index="row", columns="column", values="value").reindex(index=rows, columns=QRA3_COLUMNS)
            criterion, system = wide.index.str.split("|").str[0], wide.index.str.split("|").str[1]
            level = [
                "study" if c == "all" else "criterion" if s == "all" else "system" for c, s in zip(criterion, system)
            ]
            lines = notes.get((study, entry["table"]), [])
            note = [
                "; ".join(n.split(": ", 1)[1] for n in lines if n.startswith(f"{c}: ")) if lv == "criterion" else ""
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


def qra3_figure(qra3: pd.DataFrame, path_stem: str | Path, formats: tuple[str, ...] = ("png",)):
    """Criterion-level CV* (QRA3 Type I, mean over systems) per study and QRA3 table, with the share of
    agreeing findings (Type IV) written beside each bar."""
    from humeval.figures import PALETTE, pyplot, save

    plt = pyplot()
    rows = qra3[qra3["level"] == "criterion"].reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * max(len(rows), 4) + 1.2))
    studies = list(dict.fromkeys(rows["study"]))
    y = list(range(len(rows)))[::-1]
    ax.barh(y, rows["cv_star"].fillna(0), color=[PALETTE[studies.index(s) % len(PALETTE)] for s in rows["study"]])
    labels = [
        f"{s.split('-')[0]} {t} ({e}): {c}"
        for s, t, e, c in zip(rows["study"], rows["table"], rows["experiments"], rows["criterion"])
    ]
    ax.set_yticks(y, labels, fontsize=7)
    for yy, cv, pf in zip(y, rows["cv_star"], rows["p_findings"]):
        text = " n/a" if pd.isna(cv) else f" {cv:.1f}" + ("" if pd.isna(pf) else f"  (findings {pf:.2f})")
        ax.text(0 if pd.isna(cv) else cv, yy, text, va="center", fontsize=7)
    ax.set_xlabel("criterion-level CV* (%), QRA3 Type I; lower = closer")
    ax.set_title("QRA3 across studies")
    fig.tight_layout()
    save(fig, path_stem, formats)
    plt.close(fig)
