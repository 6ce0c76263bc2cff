"""New export shapes by config alone, with every number worked out by hand:

- a Prolific web-app export with one row per participant task and N slots per row (``systema{k}``,
  ``systemb{k}``, ``output_a{k}``, ``fluency{k}``, ``ix{k}``), an attention check against a distractor system,
  read by ``tabular``'s slot layout and tallied by ``pairwise_tally`` into best-worst scores;
- one workbook per annotator without an annotator column (the participant from the file name), items keyed to
  systems by a separate key file (a join).
"""

import hashlib
import io

import pandas as pd
import pytest
import yaml
from helpers import copy_project, run_snakemake
from scale import SLOT_PARAMS

pytestmark = pytest.mark.e2e
BASE = "https://raw.githubusercontent.com/example/slots/0000000000000000000000000000000000000002/"
SLOTS = [  # participant: [(system a, system b, choice), ...]; p3 chose the distractor in slot 3
    ("p1", [("A", "B", "A"), ("B", "C", "A"), ("A", "DIST", "A")]),
    ("p2", [("C", "A", "B"), ("A", "B", "B"), ("DIST", "C", "B")]),
    ("p3", [("A", "B", "A"), ("C", "B", "A"), ("A", "DIST", "B")]),
]


def slot_export() -> bytes:
    rows = []
    for task, (pid, slots) in enumerate(SLOTS):
        row = {"PROLIFIC_PID": pid, "session": f"s{task}"}
        for k, (a, b, choice) in enumerate(slots, start=1):
            row |= {f"systema{k}": a, f"systemb{k}": b, f"output_a{k}": f"text {a}", f"output_b{k}": f"text {b}"}
            row |= {f"fluency{k}": choice, f"ix{k}": f"item{task}{k}"}
        rows.append(row)
    return pd.DataFrame(rows).to_csv(index=False).encode()


def workbook(rows: list[dict]) -> bytes:
    buffer = io.BytesIO()
    pd.DataFrame(rows).to_excel(buffer, index=False)
    return buffer.getvalue()


ANNOTATORS = {  # one workbook per annotator: item id and score, no annotator column
    "annotator_ann1.xlsx": [
        {"item_id": "k1", "score": 4},
        {"item_id": "k2", "score": 2},
        {"item_id": "k3", "score": 5},
    ],
    "annotator_ann2.xlsx": [
        {"item_id": "k1", "score": 5},
        {"item_id": "k2", "score": 3},
        {"item_id": "k3", "score": 4},
    ],
}
KEY = pd.DataFrame({"item_id": ["k1", "k2", "k3"], "model": ["A", "B", "A"]}).to_csv(index=False).encode()
WORKBOOKS = {name: workbook(rows) for name, rows in ANNOTATORS.items()}  # once: a workbook's bytes hold a time


def raw(name: str, data: bytes) -> dict:
    return {"id": name.split(".")[0], "url": BASE + name, "sha256": hashlib.sha256(data).hexdigest(), "role": name}


def slot_study() -> dict:
    data = slot_export()
    return {
        "name": "slots-2026-webapp",
        "title": "Pairwise fluency choices in a slot layout",
        "experiments": [{"id": "O", "label": "O", "citation": "synthetic"}],
        "raw": [raw("tasks.csv", data)],
        "extract": [
            {
                "side": "O",
                "loader": "tabular",
                "inputs": {"export": "tasks"},
                "params": {**SLOT_PARAMS, "carry": {"output": ["output_a{slot}", "output_b{slot}"]}},
            }
        ],
        "exclusions": [
            {"exclusion": "attention_check", "name": "attention", "params": {"distractor": "DIST"}},
            {"exclusion": "drop_systems", "name": "checks", "params": {"systems": ["DIST"]}},
        ],
        "systems": [{"code": s, "label": s} for s in "ABC"],
        "metrics": [{"metric": "pairwise_tally", "table": "bws", "stats": ["wins", "losses", "n", "win_pct", "bws"]}],
        "tables": [{"id": "bws", "rows": ["A", "B", "C"], "columns": ["wins", "losses", "n", "win_pct", "bws"]}],
        "published": [
            {
                "table": "bws",
                "source": "worked out by hand",
                # kept: p1 A>B, B>C; p2 A>C (C vs A, chose B), B>A; p3 dropped (chose the distractor)
                "cells": {
                    "A": {"wins": "2", "losses": "1", "n": "3", "win_pct": "66.67", "bws": "33.33"},
                    "B": {"wins": "2", "losses": "1", "n": "3", "win_pct": "66.67", "bws": "33.33"},
                    "C": {"wins": "0", "losses": "2", "n": "2", "win_pct": "0.00", "bws": "-100.00"},
                },
            }
        ],
    }


def annotator_study() -> dict:
    files = WORKBOOKS
    return {
        "name": "annotators-2026-workbooks",
        "title": "One workbook per annotator, items keyed to systems",
        "experiments": [{"id": "O", "label": "O", "citation": "synthetic"}],
        "raw": [raw(name, data) for name, data in files.items()] + [raw("key.csv", KEY)],
        "extract": [
            {
                "side": "O",
                "loader": "tabular",
                "inputs": {"ann1": "annotator_ann1", "ann2": "annotator_ann2", "key": "key"},
                "params": {
                    "shape": "long",
                    "participant": {"file_pattern": r"annotator_(\w+)"},
                    "item": ["item_id"],
                    "join": {"role": "key", "on": "item_id", "columns": ["model"]},
                    "system": {"column": "model"},
                    "criterion": "quality",
                    "value": "score",
                    "scale": [1, 5],
                },
            }
        ],
        "systems": [{"code": "A", "label": "A"}, {"code": "B", "label": "B"}],
        "metrics": [
            {
                "metric": "describe",
                "table": "means",
                "by": ["system"],
                "stats": ["mean", "n"],
                "row": "{system}",
                "column": "{stat}",
            }
        ],
        "tables": [{"id": "means", "rows": ["A", "B"], "columns": ["mean", "n"]}],
        "published": [
            {
                "table": "means",
                "source": "worked out by hand",
                # A: k1 (4, 5) and k3 (5, 4): 18 / 4; B: k2 (2, 3): 2.5
                "cells": {"A": {"mean": "4.50", "n": "4"}, "B": {"mean": "2.50", "n": "2"}},
            }
        ],
    }


def test_a_slot_layout_and_per_annotator_workbooks_by_config_alone(tmp_path):
    mirror = tmp_path / "mirror"
    exports = {"tasks.csv": slot_export(), "key.csv": KEY} | WORKBOOKS
    for name, data in exports.items():
        target = mirror / "github" / (BASE + name).split("raw.githubusercontent.com/")[1]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    studies = [slot_study(), annotator_study()]
    workdir = copy_project(tmp_path / "project", [s["name"] for s in studies])
    for study in studies:
        (workdir / "config/studies" / f"{study['name']}.yaml").write_text(yaml.safe_dump(study, sort_keys=False))
    result = run_snakemake(workdir, "--config", f"raw_mirror={mirror}")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    for study in studies:
        audit = pd.read_csv(workdir / "results" / study["name"] / "numbers.csv")
        assert (audit["status"] == "match").all(), audit[audit["status"] != "match"]
    tidy = pd.read_csv(workdir / "results/slots-2026-webapp/tidy/judgements.csv")
    assert len(tidy) == 9 and tidy["judgement_id"].nunique() == 9  # 3 tasks x 3 slots, one judgement each
    assert set(tidy["output"]) >= {"text A|text B", "text B|text C"}  # carried per slot
    excluded = pd.read_csv(workdir / "results/slots-2026-webapp/exclusions.csv")
    assert excluded["rule"].value_counts().to_dict() == {"attention": 3, "checks": 2}
    people = pd.read_csv(workdir / "results/annotators-2026-workbooks/tidy/participants.csv")
    assert len(people) == 2 and not people["participant"].str.contains("ann").any()  # pseudonyms, from file names
