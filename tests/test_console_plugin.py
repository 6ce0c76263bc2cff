"""The console's logger plugin (workflow/snakemake_logger_plugin_humeval) fed Snakemake's own log records through
``logging.Handler.handle`` (as Snakemake's queue listener calls it: under the handler's lock): a job
still running :data:`LONG_JOB_SECONDS` after it started gets one line saying so, a job that finishes before gets
none, and neither a dry run nor ``--quiet`` gets any (issue 55: a long job showed no sign of life)."""

import io
import logging
import time
from types import SimpleNamespace

import pytest
import snakemake_logger_plugin_humeval as plugin
from snakemake_interface_logger_plugins.common import LogEvent


def handler(monkeypatch, seconds=0.05, **settings):
    monkeypatch.setattr(plugin, "LONG_JOB_SECONDS", seconds)
    common = SimpleNamespace(**{"stdout": True, "dryrun": False, "quiet": None, **settings})
    made = plugin.LogHandler(common, None)
    made.stream = io.StringIO()
    return made


def record(event, **fields) -> logging.LogRecord:
    made = logging.LogRecord("snakemake", logging.INFO, "", 0, "", None, None)
    made.event = event
    made.__dict__.update(fields)
    return made


def started(jobid, rule, study="lux-2022-tts-preference"):
    return record(LogEvent.JOB_INFO, jobid=jobid, rule_name=rule, wildcards={"study": study})


def wait_for_line(stream, text, seconds=60.0):
    """Until ``text`` is printed (the timer's thread writes it); the bound only guards against a hang."""
    ends = time.monotonic() + seconds
    while text not in stream.getvalue() and time.monotonic() < ends:
        time.sleep(0.01)
    return stream.getvalue()


def test_a_job_still_running_gets_one_line_and_then_its_progress_line(monkeypatch):
    console = handler(monkeypatch)
    console.handle(record(LogEvent.RUN_INFO, msg="", stats={"total": 1}))
    console.handle(started(1, "planning"))
    out = wait_for_line(console.stream, "still running")
    console.handle(record(LogEvent.JOB_FINISHED, job_id=1))
    assert console.stream.getvalue().splitlines() == [
        "1 jobs to run",
        "  still running: lux-2022-tts-preference, planning (0 s)",
        "[1/1] lux-2022-tts-preference, job 1: planning",
    ], out
    assert not console.timers  # every timer is gone once its job is


def test_a_job_that_finishes_first_gets_no_such_line_and_its_timer_is_cancelled(monkeypatch):
    console = handler(monkeypatch, seconds=600)  # far longer than the test: only finishing can end the timer
    console.handle(started(2, "figures"))
    timer = console.timers[2]
    console.handle(record(LogEvent.JOB_FINISHED, job_id=2))
    timer.join(timeout=60)
    assert not timer.is_alive() and not console.timers
    assert console.stream.getvalue().splitlines() == ["[1/?] lux-2022-tts-preference, job 1: figures"]


@pytest.mark.parametrize("settings", [{"dryrun": True}, {"quiet": {"progress"}}])
def test_a_dry_run_or_a_quiet_run_gets_no_such_line(monkeypatch, settings):
    console = handler(monkeypatch, **settings)
    console.handle(started(1, "planning"))
    assert not console.timers  # no timer was started, so no line can come
    console.handle(record(LogEvent.JOB_FINISHED, job_id=1))
    assert "still running" not in console.stream.getvalue()
