"""Faults, with locking left to Snakemake: a run killed mid-way (SIGKILL of Snakemake and its jobs) leaves its
lock, the next run stops with Snakemake's lock message naming ``--unlock``, and after ``snakemake --unlock`` a
plain rerun completes with the same outputs as an uninterrupted run; a second run started while one is running
stops with the lock message, a dry run beside it leaves the live run's lock alone, and the first run's outputs
are intact; Ctrl-C stops every process of the run."""

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from helpers import CI_LIMIT, copy_project, package_path, raw_source, run_snakemake

pytestmark = pytest.mark.e2e
STUDY = "hosking-2022-paraphrase-meaning"
LONG = "santhanam-2019-dialogue-design"


#: Appended to the copy's job harness (its own package is the one its jobs import, tests/helpers.package_path): a job
#: of the rule ``$HUMEVAL_HOLD`` names writes ``<folder>/<rule>.held`` once its harness (and the watch on Snakemake)
#: is in place, and waits until ``<folder>/<rule>.go`` exists (at most 10 minutes). The tests synchronise on these
#: events, never on sleeps, so they hold on a loaded machine; the production harness carries no test hook.
HOLD = """

def hold_for_test(rule):
    import os
    from pathlib import Path

    wanted, _, folder = os.environ.get("HUMEVAL_HOLD", "").partition(":")
    if wanted != rule or not folder:
        return
    Path(folder, f"{rule}.held").write_text(str(os.getpid()))
    ends = time.monotonic() + 600
    while not Path(folder, f"{rule}.go").exists() and time.monotonic() < ends:
        time.sleep(0.05)


_run = run


def run(snakemake, main):
    def held_main():
        hold_for_test(snakemake.rule)
        main()

    _run(snakemake, held_main)
"""


@contextlib.contextmanager
def as_in_a_terminal():
    """SIGINT handled by this process while it starts one, so that the new process (whose exec resets a handler
    to the default) gets Ctrl-C as in a terminal. A test suite started in the background by a shell without job
    control (``nohup .ci/run &``, as CI may be) ignores SIGINT, and every process it starts inherits that:
    Snakemake and its jobs then ran on through the test's SIGINT, the held job went on after its 10 minutes and
    the run ended 0 (the CI failure of fb91d7c; reproduced under ``trap "" INT``)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def start(workdir, hold=None):
    """Start a run in the background, SIGINT at its default (:func:`as_in_a_terminal`); with ``hold``, its job of
    that rule waits, once its harness (and the watch on Snakemake) is in place, until :func:`release`
    (:data:`HOLD`)."""
    env = {k: v for k, v in os.environ.items() if k != "HUMEVAL_RAW_MIRROR"} | raw_source() | package_path(workdir)
    if hold:
        runner = workdir / "workflow/humeval/runner.py"
        if "hold_for_test" not in runner.read_text():
            runner.write_text(runner.read_text() + HOLD)
        env["HUMEVAL_HOLD"] = f"{hold}:{workdir}"
    with as_in_a_terminal():
        return subprocess.Popen(
            [sys.executable, "-m", "snakemake", "--cores", "2"],
            cwd=workdir,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )


def wait_for(path, seconds=600):
    """Wait for an event (a file appears); the bound is only a guard against a hang, not a timing assumption."""
    started = time.monotonic()
    while not path.exists() and time.monotonic() - started < seconds:
        time.sleep(0.05)
    assert path.exists(), path


def held(workdir, rule):
    """Wait until the run's ``rule`` job is holding (it is running, its harness in place)."""
    wait_for(workdir / f"{rule}.held")


def release(workdir, rule):
    (workdir / f"{rule}.go").write_text("")


def test_a_killed_run_is_completed_after_unlock(full_run, tmp_path):
    workdir = copy_project(tmp_path / "project", [STUDY])
    process = start(workdir, hold="exclude")
    held(workdir, "exclude")
    os.killpg(process.pid, signal.SIGKILL)  # Snakemake and every job it started, no cleanup
    process.wait()
    assert not (workdir / "results" / STUDY / "numbers.csv").exists()  # it really was cut short
    assert list((workdir / ".snakemake/locks").glob("*.lock"))  # and left its lock behind
    refused = run_snakemake(workdir, env=raw_source())
    assert refused.returncode != 0
    assert "LockException" in refused.stderr and "--unlock" in refused.stderr  # Snakemake's own remedy, named
    unlock = run_snakemake(workdir, "--unlock", env=raw_source())
    assert unlock.returncode == 0, unlock.stderr[-3000:]
    rerun = run_snakemake(workdir, env=raw_source())
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    for path in ("numbers.csv", "exclusions.csv", "tidy/judgements.csv", "tables/table1.csv", "tables/table1.md"):
        assert (workdir / "results" / STUDY / path).read_bytes() == (full_run / "results" / STUDY / path).read_bytes()


def test_a_second_concurrent_run_stops_with_the_lock_message(full_run, tmp_path):
    workdir = copy_project(tmp_path / "project", [LONG])
    first = start(workdir, hold="extract")  # the first run waits in its extract job until the checks are done
    held(workdir, "extract")
    locks = sorted((workdir / ".snakemake/locks").glob("*.lock"))
    assert locks
    dry = run_snakemake(workdir, "-n", env=raw_source())  # a dry run (parses the workflow) beside the live run
    assert dry.returncode == 0, dry.stderr[-3000:]
    second = run_snakemake(workdir, env=raw_source())
    assert first.poll() is None, "the first run ended before the checks; they prove nothing"
    assert sorted((workdir / ".snakemake/locks").glob("*.lock")) == locks  # the live run's lock is untouched
    assert second.returncode != 0
    assert "LockException" in second.stderr and "--unlock" in second.stderr
    release(workdir, "extract")
    assert first.wait(timeout=CI_LIMIT) == 0  # the first run is not disturbed
    assert (workdir / "results" / LONG / "numbers.csv").read_bytes() == (
        full_run / "results" / LONG / "numbers.csv"
    ).read_bytes()


def session_processes(session: int) -> list:
    import psutil

    found = []
    for process in psutil.process_iter(["pid", "status"]):
        try:
            if os.getsid(process.info["pid"]) == session and process.info["status"] != psutil.STATUS_ZOMBIE:
                found.append(process.info["pid"])
        except (ProcessLookupError, PermissionError):
            continue
    return found


def test_ctrl_c_stops_the_run_and_its_jobs_and_a_plain_rerun_completes(full_run, tmp_path):
    """SIGINT to the whole process group, as Ctrl-C in a terminal: Snakemake and its jobs stop (no process of the
    run is left), and the same command completes the run with the outputs of a full run."""
    workdir = copy_project(tmp_path / "project", [STUDY])
    process = start(workdir, hold="exclude")
    held(workdir, "exclude")
    assert session_processes(process.pid)  # Snakemake (and a job) are running
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=CI_LIMIT) != 0
    deadline = time.monotonic() + 120  # a guard against a hang; on an idle machine they stop within a second
    while session_processes(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert session_processes(process.pid) == []
    rerun = run_snakemake(workdir, env=raw_source())
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    for path in ("numbers.csv", "exclusions.csv", "tidy/judgements.csv", "tables/table1.csv"):
        assert (workdir / "results" / STUDY / path).read_bytes() == (full_run / "results" / STUDY / path).read_bytes()


def job_processes(workdir) -> list:
    """Processes running one of this workdir's job scripts (Snakemake writes them to .snakemake/scripts)."""
    import psutil

    scripts = str(workdir / ".snakemake/scripts")
    found = []
    for process in psutil.process_iter(["pid", "cmdline", "status"]):
        try:
            if process.info["status"] != psutil.STATUS_ZOMBIE and scripts in " ".join(process.info["cmdline"] or []):
                found.append(process.info["pid"])
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def test_jobs_stop_when_snakemake_alone_is_killed_and_write_nothing_after(full_run, tmp_path):
    """SIGKILL to Snakemake's process only (not its group): its running jobs end themselves within moments
    (the harness watches Snakemake) instead of writing outputs while a rerun starts."""
    workdir = copy_project(tmp_path / "project", [LONG])
    process = start(workdir, hold="metrics")
    held(workdir, "metrics")  # the metrics job runs, its watch on Snakemake in place
    assert job_processes(workdir)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 120  # a guard against a hang; the watch looks every 0.2 s
    while job_processes(workdir) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert job_processes(workdir) == []
    release(workdir, "metrics")  # had the job lived on, it would go on now; none does, so nothing can write
    assert not (workdir / "results" / LONG / "intermediate/metrics.csv").exists()


def test_a_job_that_fails_after_writing_some_outputs_leaves_none(full_run, tmp_path):
    """The summary job writes its CSV and Markdown files, then cannot write a figure (here a folder stands
    where the PDF goes, as a full disk would stop it): one line names the file, and none of its outputs stay."""
    workdir = copy_project(tmp_path / "project", [STUDY])
    first = run_snakemake(workdir, env=raw_source())
    assert first.returncode == 0, first.stderr[-3000:]
    shutil.rmtree(workdir / "results/summary")
    (workdir / "results/summary/figure_cv_star.pdf").mkdir(parents=True)
    failed = run_snakemake(workdir, "--config", "figure_formats=[png,pdf]", env=raw_source())
    assert failed.returncode != 0
    output = failed.stdout + failed.stderr
    assert "humeval error in summary {}: Is a directory" in output and "Traceback" not in output
    left = sorted(p.name for p in (workdir / "results/summary").iterdir())
    assert left == ["figure_cv_star.pdf"], left  # only the obstacle; every output of the job was removed
