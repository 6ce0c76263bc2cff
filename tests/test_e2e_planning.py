"""Reproduction planning on the six studies (humeval.planning, docs/planning.md): every study has its power table
and figure, in the report; power does not fall as evaluators grow; each reproduction's power stands beside its
verdict in findings.csv and claims.csv; and --config planning=false runs no planning."""

import csv
import itertools

import pytest
from helpers import run_snakemake

pytestmark = pytest.mark.e2e


def rows_of(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def number(text):
    return float(text) if text not in ("", None) else None


def test_every_study_plans_and_power_does_not_fall_as_evaluators_grow(full_run):
    import yaml

    studies = yaml.safe_load((full_run / "config/config.yaml").read_text())["studies"]
    report = (full_run / "results/report.html").read_text()
    planned = 0
    for study in studies:
        folder = full_run / "results" / study / "planning"
        power = rows_of(folder / "power.csv")
        assert (folder / "figure_power.png").stat().st_size > 0
        assert (
            f"results/{study}/planning/figure_power.png" in report and f"results/{study}/planning/power.html" in report
        )
        simulated = [r for r in power if r["design"] == "planned" and r["power"]]
        planned += bool(simulated)
        for r in simulated:
            assert number(r["ci_low"]) <= number(r["power"]) <= number(r["ci_high"]), r
            assert r["pilot"] and r["simulations"] and r["note"].startswith(f"resampled from {r['pilot']}"), r
        curves = {}
        for r in simulated:
            curves.setdefault((r["finding"], r["items"]), []).append(r)
        for curve in curves.values():
            curve.sort(key=lambda r: int(r["evaluators"]))
            for smaller, larger in itertools.pairwise(curve):  # within the simulations' intervals
                assert number(larger["ci_high"]) >= number(smaller["ci_low"]), (smaller, larger)
        assert all(r["note"] for r in power if not r["power"]), power  # no power without a note saying why
    assert planned >= 4


def test_each_reproduction_has_its_power_beside_its_verdict(full_run):
    found = rows_of(full_run / "results/summary/findings.csv")
    claims = rows_of(full_run / "results/summary/claims.csv")
    planning = rows_of(full_run / "results/summary/planning.csv")
    reproductions = [f for f in found if f["experiment"] != "O"]
    assert reproductions and all(f["power"] or f["power_note"] for f in reproductions)
    with_power = [f for f in reproductions if f["power"]]
    assert {f["study"] for f in with_power} >= {"liu-2021-dexperts-fluency", "yao-2022-storybook-qag"}
    for f in with_power:
        power = rows_of(full_run / "results" / f["study"] / "planning/power.csv")
        row = next(r for r in power if r["finding"] == f["finding"] and r["design"] == f["experiment"])
        assert (row["power"], row["ci_low"], row["ci_high"]) == (f["power"], f["power_low"], f["power_high"])
        assert row["pilot"] != f["experiment"]  # never the observed power of a reproduction resampled from itself
    assert {(c["study"], c["claim"]) for c in claims} <= {(f["study"], f["finding"]) for f in found}
    assert all("reproduction_power" in c and (c["reproduction_power"] or c["power_note"]) for c in claims)
    overview = " ".join((full_run / "results/summary/overview.rst").read_text().split())
    for f in reproductions:  # every miss is on the front page, with its power
        first = next(g for g in found if g["study"] == f["study"] and g["finding"] == f["finding"])
        if first["holds"] in ("yes", "not measured") and f["holds"] == "no":
            shown = f"{float(f['power']):.2f}" if f["power"] else "n/a"
            group = overview.split(f"{'-'.join(f['study'].split('-')[:2])} {f['experiment']}: ")[1].split(";")[0]
            assert f["finding"] in [w.strip(",") for w in group.split()] and shown in group, (f, group)
    assert {(p["study"], p["finding"]) for p in planning} >= {(f["study"], f["finding"]) for f in found}


def test_planning_false_runs_no_planning(full_run):
    dry = run_snakemake(full_run, "-n", "--forceall", "--config", "planning=false")
    assert dry.returncode == 0, dry.stderr[-2000:]
    assert "rule planning" not in dry.stdout + dry.stderr and "rule summary" in dry.stdout + dry.stderr
