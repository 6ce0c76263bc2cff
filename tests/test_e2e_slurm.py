"""The workflow on a real SLURM cluster through Snakemake's own executor (profiles/slurm): a one-node cluster on
this machine (tests/slurm_local.py), every non-local job submitted with sbatch, and every result file of the
studies it ran byte-identical to the local run's. Two studies (every rule of the workflow runs for each), not
nine: the executor is what is tested, and the nine cost CI about ten minutes of sbatch round trips."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import slurm_local
from helpers import CI_LIMIT, copy_project, package_path, raw_source, skip_or_fail

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
#: Two of the shipped studies, the cheapest (about 16 s of CPU together, of 128 s for the nine).
STUDIES = ["shardlow-2019-clinical-simplification", "hosking-2022-paraphrase-meaning"]
# generated beside the results but not results: per-job logs and benchmarks (timings), the report and its screenshots
# what differs between two runs by design: logs, timings, screenshots, and the run page (its date)
NOT_COMPARED = ("logs/", "benchmarks/", "screenshots/", "report.html", "summary/run.", "summary/summary-run.html")


def result_files(results: Path) -> dict[str, bytes]:
    return {
        path.relative_to(results).as_posix(): path.read_bytes()
        for path in sorted(results.rglob("*"))
        if path.is_file() and not path.relative_to(results).as_posix().startswith(NOT_COMPARED)
    }


def test_the_workflow_on_slurm_equals_the_local_run(full_run, tmp_path):
    why = slurm_local.missing()
    if why:
        skip_or_fail(why)
    env = raw_source()
    workdir = copy_project(tmp_path / "project", studies=STUDIES)
    with slurm_local.cluster(tmp_path / "slurm"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "snakemake",
                "--profile",
                "profiles/slurm",
                # the profile's status polling suits a shared cluster; a one-node test cluster can be asked often
                "--slurm-init-seconds-before-status-checks",
                "1",
                "--seconds-between-status-checks",
                "2",
            ],
            cwd=workdir,
            env={**os.environ, **env, **package_path(workdir)},
            capture_output=True,
            text=True,
            timeout=CI_LIMIT,
            check=False,
        )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    output = result.stdout + result.stderr
    submitted = set(re.findall(r"has been submitted with SLURM jobid \d+ \(log: \S*/slurm_logs/(\w+)/", output))
    # every stage that is not a localrule ran as a SLURM job (extract and exclude as one group job)
    assert {"rule_metrics", "rule_qra", "rule_tables", "rule_figures", "rule_planning", "rule_summary"} <= submitted, (
        submitted
    )
    assert any(name.startswith("group_") for name in submitted), submitted
    assert (workdir / "results/summary/verdict.csv").is_file()  # the summary ran (over the two studies)
    for study in STUDIES:
        local, cluster = result_files(full_run / "results" / study), result_files(workdir / "results" / study)
        assert sorted(cluster) == sorted(local) and local, study
        differ = [name for name in local if local[name] != cluster[name]]
        assert not differ, (study, differ)
