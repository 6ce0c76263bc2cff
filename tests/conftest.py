"""Under CI=true an end-to-end test that was skipped counts as failed: CI must exercise the real data."""

import pytest
from helpers import in_ci


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if in_ci() and report.skipped and (item.get_closest_marker("e2e") or item.get_closest_marker("checks")):
        report.outcome = "failed"
        report.longrepr = f"CI=true: end-to-end test {item.nodeid} was skipped ({report.longrepr})"


def pytest_collection_modifyitems(items):
    """Code-health checks (marker ``checks``: lint, format, the .test run) first: they fail fastest."""
    items.sort(key=lambda item: item.get_closest_marker("checks") is None)


@pytest.fixture(scope="session")
def full_run(tmp_path_factory):
    """One run of the whole pipeline (every enabled study) and its HTML report, shared by the e2e tests; with
    ``$HUMEVAL_FULL_RUN`` set, that folder holds one already (a project with more studies or experiments:
    tests/test_e2e_added_study.py)."""
    import os
    from pathlib import Path

    from helpers import copy_project, raw_source, run_snakemake

    if os.environ.get("HUMEVAL_FULL_RUN"):
        return Path(os.environ["HUMEVAL_FULL_RUN"])
    env = raw_source()
    workdir = copy_project(tmp_path_factory.mktemp("full"))
    result = run_snakemake(workdir, env=env)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    (workdir / "console.txt").write_text(result.stdout + result.stderr)  # what the user saw (test_e2e_console)
    report = run_snakemake(workdir, "--report", "results/report.html", env=env)
    assert report.returncode == 0, report.stderr[-3000:]
    return workdir


def pytest_terminal_summary(terminalreporter):
    from helpers import SUMMARY_LINES

    if SUMMARY_LINES:
        terminalreporter.section("independent cross-checks")
        for line in SUMMARY_LINES:
            terminalreporter.write_line(line)


@pytest.fixture(scope="module")
def built(full_run, request):
    """The full run's results folder of the test module's ``STUDY``."""
    return full_run / "results" / request.module.STUDY
