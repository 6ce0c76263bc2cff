"""The whole pipeline, extract to report, on generated hostile studies (tests/security/hostile.py), batched in one
Snakemake run: after it, no raw id in any output, log or the report; nothing live in the report (no markup of the
data unescaped, no directive run, no local file embedded); no formula cell in any CSV; no traceback; every good
study complete with the means a direct pandas computation on its raw export gives, and every refused study
stopped in exactly one line that names it."""

import csv
import re
import shutil

import pandas as pd
import pytest
import yaml
from helpers import CI_LIMIT, SUMMARY_LINES, copy_project, run_snakemake
from hostile import BAD_KINDS, CONTACTS, batch, grouped, write_batch
from hypothesis import HealthCheck, Phase, given, settings

from humeval.intermediate import read_csv

pytestmark = pytest.mark.e2e

#: 214 cases: 20 studies of eight experiments, 54 studies refused in one line (6 per defect). A study's jobs cost
#: about the same with four experiments or eight: the same 214 cases took 390 s as 40 studies of four, 226 s as 20
#: of eight (both with CI's suite beside them).
GOOD, BAD, PER_STUDY = 160, 54, 8
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def formula_cells(root) -> list[str]:
    """Every CSV cell under ``root`` that a spreadsheet would run (``file: cell``)."""
    found = []
    for path in root.rglob("*.csv"):
        with open(path, newline="", encoding="utf-8") as handle:
            for row in csv.reader(handle):
                found += [f"{path.name}: {c!r}" for c in row if c.startswith(FORMULA) and not is_number(c)]
    return found


def expected_means(case: dict) -> dict:
    """Mean score per system of one export, computed directly: empty scores and gold rows (``+``) left out."""
    raw = pd.DataFrame(case["rows"], columns=["rater", "item", "system", "score", "gold", "note", "contact"])
    kept = raw[(raw["score"].str.strip() != "") & (raw["gold"] != "+")]
    return kept.assign(score=pd.to_numeric(kept["score"].str.strip())).groupby("system")["score"].mean().to_dict()


@settings(
    max_examples=1, deadline=None, derandomize=True, phases=[Phase.generate], suppress_health_check=list(HealthCheck)
)
@given(cases=batch(GOOD, BAD))
def test_hostile_studies_through_the_whole_pipeline(cases, tmp_path_factory):
    from test_e2e_privacy import report_data

    tmp = tmp_path_factory.mktemp("hostile")
    good, bad = cases
    workdir = copy_project(tmp / "project", [])
    mirror = tmp / "mirror"
    made = write_batch(workdir, mirror, list(good), list(bad), per_study=PER_STUDY)
    env = {"HUMEVAL_RAW_MIRROR": str(mirror)}
    main = yaml.safe_load((workdir / "config/config.yaml").read_text())
    # a header given twice and named bare is refused before any job, where the export is on disk (issue 51): each
    # such study alone, at -n, in one line naming the key; the rest run together, each refused case by its job
    planned = {s: c for s, c in made["bad"].items() if c["bad"] == "duplicate_header"}
    for study in planned:
        main["studies"] = [study]
        (workdir / "config/config.yaml").write_text(yaml.safe_dump(main))
        dry = run_snakemake(workdir, "-n", env=env, timeout=CI_LIMIT)
        said = dry.stdout + dry.stderr
        assert dry.returncode != 0 and "Traceback" not in said, said[-3000:]
        assert f"[{study}] " in said and "the header 'score' appears 2 times" in said, said[-3000:]
    main["studies"] = made["good"] + [s for s in made["bad"] if s not in planned]
    (workdir / "config/config.yaml").write_text(yaml.safe_dump(main))

    run = run_snakemake(workdir, "--keep-going", env=env, timeout=CI_LIMIT)
    output = run.stdout + run.stderr
    assert run.returncode != 0 and "Traceback" not in output and "internal error" not in output, output[-3000:]
    for study, case in made["bad"].items():
        if study in planned:
            continue
        # a job's line is one write of under 4 kB, so it is never split, but Snakemake's own longer writes to the
        # same pipe (a failed job's block of inputs) may be split around it: find it anywhere in the output
        lines = re.findall(r"humeval error in \w+ \{'study': '" + study + r"'\}: [^\n]*", output)
        assert len(lines) == 1, (study, case["bad"], lines)
        assert not [i for i in case["raters"] if i and i in lines[0]], (study, case["bad"], lines[0])  # no raw id
        if case["bad"] == "undecodable":  # where: the line and byte, not a chunk's offset
            assert re.search(r"not UTF-8 text: line \d+, byte \d+ \(0xed\)", lines[0]), lines[0]
        assert not (workdir / "results" / study / "numbers.csv").exists()
    for study in made["good"]:
        assert (workdir / "results" / study / "figures/figure1.png").stat().st_size > 0, study  # text drawn as text
        audit = read_csv(workdir / "results" / study / "numbers.csv")  # as the pipeline reads it back
        tidy = read_csv(workdir / "results" / study / "tidy/judgements.csv")
        raters = tidy.groupby("side")["participant"].nunique()  # one rater in any spelling, and case folded
        for side_number, case in enumerate(made["groups"][study]):
            side = f"{'O' if side_number == 0 else f'R{side_number}'} {case['label']}"
            assert raters[side] == len(set(case["raters"])), (study, side, case["fold"])
            for system, mean in expected_means(case).items():
                cell = audit[
                    (audit["table"] == "table1") & (audit["row"] == side) & (audit["column"] == f"{system}_mean")
                ]
                assert len(cell) == 1, (study, side, system)
                assert float(cell["value"].iloc[0]) == pytest.approx(mean, rel=1e-12), (study, side, system)
                if study in made["octal"] and not cell["published"].notna().iloc[0]:  # 010 is ten, not octal eight
                    assert int(cell["precision"].iloc[0]) == 10, (study, side, system, cell["precision"].iloc[0])

    main["studies"] = made["good"]  # the summary and the report over every study that completed
    (workdir / "config/config.yaml").write_text(yaml.safe_dump(main))
    summary = run_snakemake(workdir, env=env, timeout=CI_LIMIT)
    assert summary.returncode == 0, summary.stderr[-3000:]
    report = run_snakemake(workdir, "--report", "results/report.html", env=env, timeout=CI_LIMIT)
    assert report.returncode == 0, report.stderr[-3000:]

    html = (workdir / "results/report.html").read_text(errors="ignore")
    data = report_data(workdir / "results/report.html")
    assert "root:x:0" not in html and "/bin/bash" not in html  # no local file embedded
    for live in ("onerror=alert(1)>", "<script>alert(1)", "</script><img"):
        assert live not in html and live not in data, live  # data markup only ever escaped
    assert "include:: /etc/passwd" not in (workdir / "results/summary/overview.rst").read_text()
    spellings = set(made["ids"]) | {grouped(i) for i in made["ids"]}  # an id as a person copies it, in groups
    leaks = {
        str(path.relative_to(workdir)): sorted(i for i in spellings if i in text)
        for path in (workdir / "results").rglob("*")
        if path.is_file() and path.suffix in {".csv", ".md", ".html", ".txt", ".log", ".rst", ".json", ".tsv"}
        for text in [data if path.name == "report.html" else path.read_text(errors="ignore")]
        if any(i in text for i in spellings)
    }
    assert not leaks, leaks
    for secret in ("secret.person@example.org", "Secret Person", "sensitive@example.org", "a@b.org", "c[at]d.org"):
        assert secret not in html and secret not in data
    contacts = [c.split()[-3] if "@" not in c else c.split()[-1] for c in CONTACTS if c]  # the address itself
    carried = {
        str(path.relative_to(workdir)): [c for c in contacts if c in path.read_text(errors="ignore")]
        for path in (workdir / "results").rglob("*")
        if path.is_file() and path.suffix in {".csv", ".md", ".html", ".txt", ".log", ".rst", ".json", ".tsv"}
    }
    assert not any(carried.values()), {k: v for k, v in carried.items() if v}
    assert not any(c in html or c in data for c in contacts)
    assert not formula_cells(workdir / "results"), formula_cells(workdir / "results")[:10]
    refused = {kind: sum(c["bad"] == kind for c in made["bad"].values()) for kind in BAD_KINDS}
    SUMMARY_LINES.append(
        f"hostile pipeline: {made['cases']} generated cases ({len(good)} good in {len(made['good'])} studies, "
        f"{len(bad)} refused in one line: {refused}) through extract to report, no finding"
    )
    shutil.rmtree(tmp, ignore_errors=True)
