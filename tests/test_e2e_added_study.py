"""The promise of docs/adding-a-study.md, tested: adding a study, or one more experiment to an existing study, breaks
no test that does not check that study's printed numbers.

A copy of the shared full run (``full_run``: its project, raw files and results, with their times) gets six synthetic
studies (the template under new names, fifteen studies in all; its export in the test mirror ``.test/raw``) and one
more experiment in the yao study (R5: a second reading of R3's export, as a researcher adds a reproduction: an
experiment, an extract entry, its rows in the tables). The pipeline runs there as a researcher's would after the
edit: the new studies' and yao's jobs and the summary, no other study's (adding a study costs that study). Then the
report is built and the tests of the shared full run whose files the edit can change run against that copy
(``HUMEVAL_FULL_RUN``).
Starting from the full run rather than from nothing saves a cold run of the eight other studies in CI.
"""

import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml
from helpers import CI_LIMIT, REPO, raw_source, run_snakemake

pytestmark = pytest.mark.e2e

#: Six studies added from the template (fifteen in all): the report's front page, verdict cards and layout are then
#: checked (test_e2e_report, test_e2e_console) with more studies than the front page lists (its rows move to
#: summary-verdict.html) at 1280x800 and 1920x1080.
NEW_STUDIES = [f"example-2026-another-ranking-{k}" for k in range(1, 7)]
#: The tests that read the shared full run and whose files the edit can change: those of every study (console,
#: report, Markdown, privacy, evidence), of yao (its R5) and of the studies shipped from researchers' files. The
#: tests of one unchanged study (finch, hosking, liu, santhanam, shardlow, the R cross-checks of the last three) are
#: left out: the run reran none of their jobs (asserted below), so their files are the full run's, already tested.
FULL_RUN_TESTS = [
    "test_e2e_console.py",
    "test_e2e_evidence.py",
    "test_e2e_markdown.py",
    "test_e2e_new_studies.py",
    "test_e2e_privacy.py",
    "test_e2e_report.py",
    "test_e2e_yao.py",
    "test_heds.py",
]


def add_an_experiment_to_yao(study: dict) -> None:
    """One more reproduction (R5 while yao ships four): R3's export read again as a new experiment, with its rows in
    the tables that list rows by experiment."""
    new = f"R{sum(e['id'].startswith('R') for e in study['experiments']) + 1}"
    study["experiments"].append({"id": new, "label": new, "citation": "A synthetic experiment (R3's data)."})
    r3 = next(e for e in study["extract"] if e["side"] == "R3")
    study["extract"].append({**r3, "side": new})
    for table in study["tables"]:
        for key in ("rows", "columns"):
            labels = table.get(key) or []
            table[key] = labels + [
                "|".join(new if part == "R3" else part for part in str(label).split("|"))
                for label in labels
                if "R3" in str(label).split("|")
            ]


def extended_project(full_run, target):
    """A copy of the finished ``full_run`` (files' times kept, so Snakemake sees its results up to date) with the six
    studies and yao's R5 added."""
    workdir = shutil.copytree(full_run, target, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    studies = workdir / "config/studies"
    template = yaml.safe_load((REPO / "config/studies/_template.yaml").read_text())
    for name in NEW_STUDIES:
        (studies / f"{name}.yaml").write_text(yaml.safe_dump({**template, "name": name}, sort_keys=False))
    yao = yaml.safe_load((studies / "yao-2022-storybook-qag.yaml").read_text())
    add_an_experiment_to_yao(yao)
    (studies / "yao-2022-storybook-qag.yaml").write_text(yaml.safe_dump(yao, sort_keys=False))
    config = yaml.safe_load((workdir / "config/config.yaml").read_text())
    config["studies"] += NEW_STUDIES
    (workdir / "config/config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return workdir


def test_adding_a_study_and_an_experiment_breaks_no_test_of_the_full_run(full_run, tmp_path):
    env = raw_source()
    mirrors = [m for m in [env.get("HUMEVAL_RAW_MIRROR", ""), str(REPO / ".test/raw")] if m]
    env = {**env, "HUMEVAL_RAW_MIRROR": os.pathsep.join(mirrors)}
    workdir = extended_project(full_run, tmp_path / "project")
    result = run_snakemake(workdir, env=env)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    (workdir / "console.txt").write_text(result.stdout + result.stderr)
    # only what the edit touched ran: the new studies' jobs, yao's, the summary (and the code version it reads)
    ran = {
        m.group(1)
        for m in re.finditer(r"^\[\d+/\d+\] ([\w-]+), job \d+: ", result.stdout + result.stderr, re.MULTILINE)
    }
    assert ran == {*NEW_STUDIES, "yao-2022-storybook-qag"}, sorted(ran)
    report = run_snakemake(workdir, "--report", "results/report.html", env=env)
    assert report.returncode == 0, report.stderr[-3000:]
    assert all((workdir / f"results/{name}/numbers.csv").is_file() for name in NEW_STUDIES)
    shipped = yaml.safe_load((REPO / "config/config.yaml").read_text())["studies"]
    assert len(yaml.safe_load((workdir / "config/config.yaml").read_text())["studies"]) == len(shipped) + 6
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *FULL_RUN_TESTS],
        cwd=REPO / "tests",
        env={**os.environ, **env, "HUMEVAL_FULL_RUN": str(workdir)},
        capture_output=True,
        text=True,
        timeout=CI_LIMIT,
        check=False,
    )
    assert tests.returncode == 0, tests.stdout[-5000:] + tests.stderr[-2000:]
