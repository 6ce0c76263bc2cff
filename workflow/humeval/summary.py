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


def cv_star_figure(qra: pd.DataFrame, path_stem: str | Path):
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
    save(fig, path_stem)
    plt.close(fig)
