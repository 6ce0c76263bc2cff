"""Numbers as numbers (issue 52), through Snakemake on a synthetic study: a printed bound is a bound wherever it is
read (a published-only p printed "< 0.05" is significant at 0.05 in claims and findings alike), an infinite
recomputed value matches no printed number, and no writer fails on any float or printed precision (an infinite t,
a number printed at 32 decimals, a ratio of 4e300)."""

import hashlib

import pandas as pd
import pytest
import yaml
from helpers import copy_project, run_snakemake

pytestmark = pytest.mark.e2e
NAME = "bounds-2026-toy"
COMMIT = "2" * 40
URL = f"https://raw.githubusercontent.com/example-owner/bounds/{COMMIT}/ratings.csv"
# O: two constant systems (Student's t is infinite, p 0); R1: A 4, 5, 4 and B 2, 2, 3
RATINGS = [("O", "A", 4), ("O", "B", 2)] * 3 + [("R1", "A", 4), ("R1", "B", 2), ("R1", "A", 5)]
RATINGS += [("R1", "B", 2), ("R1", "A", 4), ("R1", "B", 3)]


def export() -> bytes:
    lines = ["experiment,rater,item,system,quality"]
    for k, (side, system, value) in enumerate(RATINGS):
        lines.append(f"{side},r{k // 2},i1,{system},{value}")
    return ("\n".join(lines) + "\n").encode()


def study(sha256: str) -> dict:
    side = {"table": "means", "row": "{side}"}
    return {
        "name": NAME,
        "title": "Two constant systems, a number printed at 32 decimals and a p printed as a bound",
        "experiments": [
            {"id": "O", "label": "O", "citation": "synthetic"},
            {"id": "R1", "label": "R1", "citation": "synthetic"},
            {"id": "R2", "label": "R2", "citation": "synthetic, its numbers printed only", "published_only": True},
        ],
        "raw": [{"id": "ratings", "url": URL, "sha256": sha256, "role": "1..5 ratings of systems A and B"}],
        "extract": [
            {
                "side": s,
                "loader": "tabular",
                "inputs": {"ratings": "ratings"},
                "params": {
                    "where": {"experiment": s},
                    "participant": "rater",
                    "item": ["item"],
                    "system": {"column": "system"},
                    "criteria": {"quality": "quality"},
                    "scale": [1, 5],
                },
            }
            for s in ("O", "R1")
        ],
        "metrics": [
            {
                "metric": "describe",
                "table": "means",
                "by": ["side", "system"],
                "row": "{side}",
                "column": "{system}",
                "stats": ["mean"],
            },
            {
                "metric": "significance",
                "table": "means",
                "by": ["side"],
                "compare": "system",
                "pairs": [["A", "B"]],
                "row": "{side}",
                "tests": [{"test": "student_t", "columns": {"statistic": "t", "p": "p"}}],
            },
            {
                "metric": "cell_arithmetic",
                "table": "ratio",
                "cells": [
                    {
                        "row": "O",
                        "column": "A_per_tiny",
                        "left": {**side, "row": "O", "column": "A"},
                        "op": "/",
                        "right": 1e-300,
                    }
                ],
            },
        ],
        "qra": [
            {
                "type": "claims",
                "table": "claims",
                "sides": {"O": "O", "R1": "R1", "R2": "R2"},
                "claims": [
                    {
                        "id": "C1",
                        "text": "A is rated above B (Student t p < 0.05)",
                        "comparisons": [{"left": {**side, "column": "A"}, "op": ">", "right": {**side, "column": "B"}}],
                        "significance": {"p": {**side, "column": "p"}, "alpha": 0.05},
                    }
                ],
            }
        ],
        "tables": [
            {"id": "means", "rows": ["O", "R1", "R2"], "columns": ["A", "B", "t", "p"]},
            {"id": "ratio", "rows": ["O"], "columns": ["A_per_tiny"]},
            {
                "id": "claims",
                "columns": ["O", "R1", "R2", "O_left", "O_right", "R1_left", "R1_right", "R2_left", "R2_right"]
                + ["O_p", "R1_p", "R2_p"],
            },
        ],
        "published": [
            {
                "table": "means",
                "source": "synthetic: O's t printed as a finite number, R1's A mean at 32 decimals",
                "cells": {"O": {"t": "2.75"}, "R1": {"A": "4.33e-30"}},
            },
            {
                "table": "means",
                "experiment": "R2",
                "source": "R2's paper, its p printed as a bound",
                "evidence": "explained",
                "note": "R2 released no judgements.",
                "cells": {"R2": {"A": "3.9", "B": "2.1", "p": "< 0.05"}},
            },
            {"table": "ratio", "source": "by hand: 4 / 1e-300", "cells": {"O": {"A_per_tiny": "4e300"}}},
        ],
    }


def test_bounds_infinities_and_any_precision_through_the_workflow(tmp_path):
    data = export()
    mirror = tmp_path / "mirror"
    target = mirror / "github/example-owner/bounds" / COMMIT / "ratings.csv"
    target.parent.mkdir(parents=True)
    target.write_bytes(data)
    workdir = copy_project(tmp_path / "project", [NAME])
    (workdir / f"config/studies/{NAME}.yaml").write_text(
        yaml.safe_dump(study(hashlib.sha256(data).hexdigest()), sort_keys=False)
    )
    result = run_snakemake(workdir, "--config", f"raw_mirror={mirror}", "planning=false")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    built = workdir / "results" / NAME
    audit = pd.read_csv(built / "numbers.csv", keep_default_na=False, na_values=[""]).set_index(
        ["table", "row", "column"]
    )
    # an infinite t matches no printed number, and the tables print it
    assert audit.loc[("means", "O", "t"), "value"] == float("inf")
    assert audit.loc[("means", "O", "t"), "status"] == "mismatch"
    assert "| inf" in (built / "tables/means.md").read_text()
    # 13/3 against a number printed at 32 decimals: a mismatch, written without a Decimal failure
    assert audit.loc[("means", "R1", "A"), "status"] == "mismatch"
    assert audit.loc[("ratio", "O", "A_per_tiny"), "status"] == "match"
    # the published-only p "< 0.05" is a bound: significant at 0.05 in the claims and in the findings summary
    assert audit.loc[("means", "R2", "p"), "bound"] == "<"
    assert audit.loc[("claims", "C1", "R2"), "value"] == 1.0
    assert audit.loc[("claims", "C1", "O"), "value"] == 1.0  # t infinite, p 0: holds
    found = pd.read_csv(workdir / "results/summary/findings.csv").set_index(["study", "finding", "experiment"])
    assert found.loc[(NAME, "C1", "R2"), "holds"] == "yes"
    assert 'title="0.05">&lt; 0.05</td>' in (built / "numbers.html").read_text()  # the audit page shows it as printed
