"""snakedeploy in the catalogue's GitHub form (docs/deployment.md, 2a), end to end: a tagged repository deployed into
an empty folder gives a Snakefile with ``github(..., tag=...)``, the config and the profiles; with one study
enabled, ``-n`` plans it, a run gives the clone's numbers and the report builds with the profile's stylesheet. No internet here: git's ``insteadOf`` (environment
configuration, which snakedeploy's git clone reads) sends the GitHub URL to a clone of this repository, tagged in
the test; and because Snakemake fetches a ``github(...)`` Snakefile from raw.githubusercontent.com, the run reads
the same tagged tree from a local HTTP server instead (the only line the test changes in the deployed folder)."""

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml
from helpers import CI_LIMIT, REPO, raw_source, run_snakemake

pytestmark = pytest.mark.e2e
OWNER_REPO = "example-owner/humeval-repro"
TAG = "v0.0.0-test"
STUDY = "hosking-2022-paraphrase-meaning"


def git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=CI_LIMIT)


def test_snakedeploy_deploys_a_tag_that_plans_and_runs_to_the_clones_numbers(full_run, tmp_path):
    source = tmp_path / "source"
    git("clone", "--quiet", "--no-hardlinks", str(REPO), str(source), cwd=tmp_path)
    git("-c", "user.name=test", "-c", "user.email=test@example.org", "tag", "-a", TAG, "-m", "test", cwd=source)
    env = {
        **os.environ,
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"url.{source.as_uri()}.insteadOf",
        "GIT_CONFIG_VALUE_0": f"https://github.com/{OWNER_REPO}",
    }
    dest = tmp_path / "deployed"
    deploy = [
        Path(sys.executable).with_name("snakedeploy"),
        "deploy-workflow",
        f"https://github.com/{OWNER_REPO}",
        str(dest),
    ]
    result = subprocess.run(
        [*deploy, "--tag", TAG], check=False, env=env, capture_output=True, text=True, timeout=CI_LIMIT
    )
    assert result.returncode == 0, result.stderr[-3000:]
    snakefile = (dest / "workflow/Snakefile").read_text()
    declared = f'github("{OWNER_REPO}", path="workflow/Snakefile", tag="{TAG}")'
    assert declared in snakefile, snakefile
    assert (dest / "profiles/default").is_dir() and (dest / "LICENSE").is_file()
    assert not (dest / ".venv").exists() and not (dest / "results").exists()

    main = yaml.safe_load((dest / "config/config.yaml").read_text())
    main["studies"] = [STUDY]  # what a user edits after deploying
    (dest / "config/config.yaml").write_text(yaml.safe_dump(main, sort_keys=False))

    tree = tmp_path / "tree"  # the tagged tree as raw.githubusercontent.com would serve it
    git("worktree", "add", "--quiet", "--detach", str(tree), TAG, cwd=source)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tree))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("localhost", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f'"http://localhost:{server.server_address[1]}/workflow/Snakefile"'
        (dest / "workflow/Snakefile").write_text(snakefile.replace(declared, url))
        dry = run_snakemake(dest, "-n", env=raw_source())
        assert dry.returncode == 0, dry.stderr[-3000:]
        planned = re.search(r"^total\s+(\d+)$", dry.stdout + dry.stderr, re.MULTILINE)
        assert planned and int(planned.group(1)) > 10, dry.stdout[-2000:]
        result = run_snakemake(dest, env=raw_source())
        # the report builds where the workflow is deployed, with the profile's stylesheet (issue 55)
        report = (
            run_snakemake(dest, "--report", "results/report.html", env=raw_source())
            if not result.returncode
            else result
        )
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    assert report.returncode == 0, report.stdout[-2000:] + report.stderr[-3000:]
    assert "div:has(> #rulegraph)" in (dest / "results/report.html").read_text(errors="ignore")
    mine, clones = dest / "results" / STUDY, full_run / "results" / STUDY
    for name in ("numbers.csv", "intermediate/metrics.csv", "planning/power.csv"):
        assert (mine / name).read_bytes() == (clones / name).read_bytes(), name
