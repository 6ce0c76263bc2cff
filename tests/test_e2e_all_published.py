"""A study whose experiments are all published only (no raw data at all) runs by config alone: QRA from the
published numbers, the audit, QRA3 and a figure, with the numbers worked out by hand; its verdict never says a
judgement was read (issue 51: the CV* it matches rest on printed numbers alone)."""

import math

import pandas as pd
import pytest
import yaml
from helpers import copy_project, run_snakemake

pytestmark = pytest.mark.e2e
NAME = "published-2026-only"
SCORES = {"A": ("4.0", "3.0"), "B": ("2.0", "2.5"), "C": ("3.0", "3.5")}
#: The CV* a third paper printed from the two (by hand below: 28.4859, 22.1557, 15.3385).
PRINTED_CV = {"A": "28.49", "B": "22.16", "C": "15.34"}


def study() -> dict:
    return {
        "name": NAME,
        "title": "Two experiments known only from their papers",
        "experiments": [
            {"id": "O", "label": "O", "citation": "Original (2020)", "published_only": True},
            {"id": "R1", "label": "R1", "citation": "Reproduction (2026)", "published_only": True},
        ],
        "raw": [],
        "extract": [],
        "qra": [
            {
                "type": "cv_star",
                "table": "scores",
                "column": "cv_star",
                "measurand_table": "scores",
                "rows": list(SCORES),
                "inputs": [{"column": "O", "source": "published"}, {"column": "R1", "source": "published"}],
            }
        ],
        "qra3": [
            {
                "table": "qra3",
                "experiments": ["O", "R1"],
                "scale_starts_at": 1,
                "criteria": [
                    {
                        "name": "Q",
                        "systems": list(SCORES),
                        "score": {"table": "scores", "row": "{system}", "column": "{label}"},
                    }
                ],
            }
        ],
        "tables": [
            {"id": "scores", "rows": list(SCORES), "columns": ["O", "R1", "cv_star"], "precision": {"cv_star": 2}}
        ],
        "figures": [{"id": "figure1", "kind": "bars", "table": "scores", "rows": list(SCORES), "columns": ["O", "R1"]}],
        "published": [
            {
                "table": "scores",
                "experiment": experiment,
                "source": f"{experiment}'s paper, Table 1",
                "evidence": "explained",
                "note": "The paper released no judgements.",
                "cells": {s: {experiment: pair[k]} for s, pair in SCORES.items()},
            }
            for k, experiment in enumerate(["O", "R1"])
        ]
        + [
            {
                "table": "scores",
                "source": "A meta-study's Table 3",
                "evidence": "explained",
                "cells": {s: {"cv_star": v} for s, v in PRINTED_CV.items()},
            }
        ],
    }


def test_an_all_published_study_runs_qra_audit_and_figures(tmp_path):
    workdir = copy_project(tmp_path / "project", [NAME])
    (workdir / f"config/studies/{NAME}.yaml").write_text(yaml.safe_dump(study(), sort_keys=False))
    result = run_snakemake(workdir)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    audit = pd.read_csv(workdir / "results" / NAME / "numbers.csv").set_index(["table", "row", "column"])
    for system, (o, r) in SCORES.items():
        x = [float(o), float(r)]  # CV* = (1 + 1/(4n)) s / c4(2) / |mean| * 100, c4(2) = sqrt(2/pi)
        s = abs(x[0] - x[1]) / math.sqrt(2)
        expected = (1 + 1 / 8) * s / math.sqrt(2 / math.pi) / abs(sum(x) / 2) * 100
        assert audit.loc[("scores", system, "cv_star"), "value"] == pytest.approx(expected)
        assert audit.loc[("scores", system, "O"), "status"] == "published_only"
        assert audit.loc[("qra3_input", f"Q|R1|{system}", "result"), "status"] == "published_input"
    assert audit.loc[("qra3", "Q|A", "cv_star"), "status"] == "recomputed_only"
    assert (workdir / "results" / NAME / "figures/figure1.png").stat().st_size > 1000
    assert (workdir / "results" / NAME / "tidy/judgements.csv").read_text().startswith("study,")
    # the printed CV* match, computed from printed numbers alone: no count or sentence says judgements were read
    cv = audit.loc["scores"].xs("cv_star", level="column")
    assert list(cv["status"]) == ["match"] * 3 and list(cv["basis"]) == ["printed numbers"] * 3
    verdict = pd.read_csv(workdir / "results/summary/verdict.csv").set_index("study")
    assert verdict.loc[NAME, "numbers_match"] == "none from judgements (3 of 3 from printed numbers)"
    card = (workdir / f"results/summary/card-{NAME}.html").read_text()
    assert "No printed number was recomputed from judgements" in card
    assert "3 of 3 printed numbers computed from other printed numbers alone" in card
    assert "the raw data can determine is reproduced" not in card
