"""The conditions of a run in the report: the date, Python and package versions, the code version and the config
digest (``results/summary/run.csv``, shown as ``summary-run.html``), each checked against its source."""

import csv
import datetime
import hashlib
import json
import platform
import re
from importlib import metadata

import pytest

import humeval
from humeval.summary import RUN_PACKAGES

pytestmark = pytest.mark.e2e


def test_the_run_page_names_the_versions_code_and_configs_that_made_the_numbers(full_run):
    run = dict(csv.reader((full_run / "results/summary/run.csv").read_text().splitlines()[1:]))
    stamp = datetime.datetime.strptime(run["date"], "%Y-%m-%dT%H:%M:%SZ")
    assert abs(datetime.datetime.now() - stamp) < datetime.timedelta(days=1)
    assert run["python"] == platform.python_version()
    assert run["humeval-repro"] == humeval.__version__  # the release (tests/test_release.py: CHANGELOG, CITATION)
    assert {p: run[p] for p in RUN_PACKAGES} == {p: metadata.version(p) for p in RUN_PACKAGES}
    assert run["code_version"] == (full_run / "results/code_version.txt").read_text().split()[3]
    assert len(run["config_digest"]) == 64 and int(run["config_digest"], 16) >= 0
    # the commit of the package that ran (a .dev version says which code), or why there is none
    assert re.fullmatch(r"[0-9a-f]{40}(\+changes)?", run["commit"]) or run["commit"].startswith("not a git checkout")
    assert "This run" in (full_run / "results/summary/summary-run.html").read_text()


def test_the_config_digest_covers_the_main_config_as_read_and_every_study_file(tmp_path):
    from humeval.summary import run_metadata

    files = [tmp_path / "a.yaml", tmp_path / "b.yaml"]
    files[0].write_text("name: a\n")
    files[1].write_text("name: b\n")
    config = {"studies": ["a", "b"], "raw_dir": "data/raw"}
    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode() + b"name: a\n" + b"name: b\n").hexdigest()
    rows = dict(run_metadata("c0de", config, files).itertuples(index=False))
    assert rows["config_digest"] == digest and rows["code_version"] == "c0de"
    files[1].write_text("name: b  # edited\n")
    assert dict(run_metadata("c0de", config, files).itertuples(index=False))["config_digest"] != digest
