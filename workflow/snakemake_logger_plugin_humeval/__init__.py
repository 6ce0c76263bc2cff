"""A Snakemake logger plugin (``--logger humeval``, set in profiles/default): a run's console in one line per job.

Snakemake's default console prints about 20 lines per job (the rule, its files, the reason, timestamps, the
progress), 1,112 lines for a cold run of the six studies. This handler prints, per finished job, the overall
progress, its study and its stage (``[25/63] liu-2021-dexperts-fluency, job 5: metrics``), one line for a job
still running after :data:`LONG_JOB_SECONDS` (``  still running: lux-2022-tts-preference, planning (15 s)``: a
long job shows a sign of life), and passes everything else through Snakemake's own formatting: errors, warnings, a job's error report, a dry run's
whole output, and any message it does not know as start-up noise. The workflow's ``onsuccess`` prints the closing
summary (one line per study); a run with nothing to do runs no ``onsuccess``, so this handler prints the same lines
from the results it found (a user who reruns to see the verdict gets it, not only "Nothing to be done"). Installed with the package (setup.py); measured cost in docs/performance.md.
"""

from __future__ import annotations

import logging
import sys
import threading
from dataclasses import dataclass

from snakemake.common import NOTHING_TO_BE_DONE_MSG
from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.common import LogEvent
from snakemake_interface_logger_plugins.settings import LogHandlerSettingsBase

#: Start-up and scheduling messages of Snakemake 9 that say nothing a reader of a run needs (printed in full by
#: the default logger, ``--logger`` left out); any other message is shown.
QUIET_PREFIXES = (
    "Building DAG of jobs",
    "Using shell:",
    "Provided cores:",
    "Provided resources:",
    "Rules claiming more threads",
    "Select jobs to execute",
    "Execute ",
    "Assuming unrestricted shared filesystem usage",
    "host:",
    "Using profile",
    "Job stats:",
    "Complete log(s):",
    "Conda environments: ignored",
    "Singularity containers: ignored",
    "Elapsed time:",
)
#: The events this handler summarises (one line per finished job); the others are formatted as Snakemake does.
SUMMARISED = {
    LogEvent.JOB_INFO,
    LogEvent.JOB_STARTED,
    LogEvent.JOB_FINISHED,
    LogEvent.PROGRESS,
    LogEvent.SHELLCMD,
    LogEvent.RESOURCES_INFO,
    LogEvent.RUN_INFO,
    LogEvent.WORKFLOW_STARTED,
    LogEvent.RULEGRAPH,
}


#: A job still running this many seconds after it started gets one line saying so (a cold run of the nine studies
#: on 2 cores has three such jobs, the planning bootstraps of arvan, lux and puduppully, 19-24 s each).
LONG_JOB_SECONDS = 15.0


@dataclass
class LogHandlerSettings(LogHandlerSettingsBase):
    """No settings: the plugin reads Snakemake's own (``--quiet``, ``--dry-run``, ``--nocolor``)."""


class LogHandler(LogHandlerBase):
    """One line per finished job, with the run's progress and the job's study and stage."""

    def __post_init__(self) -> None:
        self.jobs: dict[int, tuple[str, str]] = {}  # jobid -> (study or "", rule)
        self.timers: dict[int, threading.Timer] = {}  # jobid -> its "still running" line, until it finishes
        self.done_per_study: dict[str, int] = {}
        self.done, self.total = 0, 0
        self.stream = sys.stdout if self.common_settings.stdout else sys.stderr

    def emit(self, record: logging.LogRecord) -> None:
        try:
            event = getattr(record, "event", None)
            if self.common_settings.dryrun or record.levelno >= logging.WARNING:
                self.write(self.format(record))
            elif event == LogEvent.JOB_INFO:
                self.jobs[record.jobid] = ((record.wildcards or {}).get("study", ""), record.rule_name)
                self.watch(record.jobid)
            elif event == LogEvent.RUN_INFO:
                self.total = getattr(record, "stats", {}).get("total", 0)
                self.write(f"{self.total} jobs to run")
            elif event == LogEvent.PROGRESS:
                self.total = record.total
            elif event == LogEvent.JOB_FINISHED:
                timer = self.timers.pop(record.job_id, None)
                if timer:
                    timer.cancel()
                self.finished(*self.jobs.pop(record.job_id, ("", "job")))
            elif record.msg == NOTHING_TO_BE_DONE_MSG:  # Snakemake runs no onsuccess then: the verdict is said here
                from humeval.report.front_page import console_summary  # here: every other run spares its imports

                self.write(self.format(record))
                for line in console_summary("results/summary/verdict.csv"):
                    self.write(line)
            elif event not in SUMMARISED and not str(record.msg or "").startswith(QUIET_PREFIXES):
                self.write(self.format(record))
        except Exception:  # noqa: BLE001 - as logging.StreamHandler.emit: a handler never raises into Snakemake
            self.handleError(record)

    def watch(self, jobid: int) -> None:
        """Say once, from a timer thread, that job ``jobid`` still runs :data:`LONG_JOB_SECONDS` after it started
        (not in a dry run, nor with ``--quiet``, whose filter the timer's line does not pass)."""
        if self.common_settings.dryrun or self.common_settings.quiet:
            return
        timer = threading.Timer(LONG_JOB_SECONDS, self.still_running, args=(jobid,))
        timer.daemon = True
        self.timers[jobid] = timer
        timer.start()

    def still_running(self, jobid: int) -> None:
        # under the handler's lock, which handle() holds around emit(): the job's finish is handled wholly before
        # this (no line) or after it (the line, then the job's progress line), never with the lines crossed
        with self.lock:
            job = self.jobs.get(jobid)
            if job and self.timers.pop(jobid, None):
                study, rule = job
                self.write(f"  still running: {f'{study}, ' if study else ''}{rule} ({LONG_JOB_SECONDS:.0f} s)")

    def finished(self, study: str, rule: str) -> None:
        self.done += 1
        where = rule
        if study:
            self.done_per_study[study] = self.done_per_study.get(study, 0) + 1
            where = f"{study}, job {self.done_per_study[study]}: {rule}"
        self.write(f"[{self.done}/{self.total or '?'}] {where}")

    def write(self, text: str) -> None:
        if text:
            with self.lock:  # logging.Handler's own re-entrant lock: handle() holds it around emit(), a timer not
                self.stream.write(text.rstrip("\n") + "\n")
                self.stream.flush()

    @property
    def writes_to_stream(self) -> bool:
        return True

    @property
    def writes_to_file(self) -> bool:
        return False

    @property
    def has_filter(self) -> bool:
        return False  # Snakemake's own filter applies --quiet

    @property
    def has_formatter(self) -> bool:
        return False  # Snakemake's own formatter renders what is passed through

    @property
    def needs_rulegraph(self) -> bool:
        return False
