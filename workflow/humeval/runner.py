"""The harness every pipeline script runs in: logging to the rule's log, one-line errors.

``run(snakemake, main)`` sends logging and stderr to ``snakemake.log[0]``, calls ``main()``, and turns a
:class:`HumevalError` (bad input) or an :class:`OSError` (a full disk, a read-only folder) into one line on the
terminal (and in the log) and exit status 1, so Snakemake removes the job's outputs and the user sees what to fix
instead of a traceback. Any other exception (a bug) also gives one line on the terminal; its traceback goes to the
log. A job whose Snakemake was killed outright ends itself (:func:`stop_with_snakemake`).
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

from humeval.errors import HumevalError

__all__ = ["run", "studies_config", "study_config"]


def study_config(snakemake, param: str = "study") -> dict:
    """The slice of the job's study config that its params name (``config_slice`` in workflow/rules/common.smk
    puts the keys and their digest there, never the text): read from the study file and checked against that
    digest (:func:`humeval.config.studyfile.job_study`)."""
    from humeval.config.studyfile import job_study

    return job_study(snakemake.config, snakemake.wildcards.study, getattr(snakemake.params, param), snakemake.rule)


def studies_config(snakemake, param: str = "configs") -> dict:
    """``{study: slice}`` for every study of ``params.studies`` (the summary job), checked against the digest of
    all of them that the params carry (:func:`humeval.config.studyfile.job_studies`)."""
    from humeval.config.studyfile import job_studies

    return job_studies(
        snakemake.config, list(snakemake.params.studies), getattr(snakemake.params, param), snakemake.rule
    )


def stop_with_snakemake(interval: float = 0.2) -> None:
    """End this job at once if the Snakemake process that started it is gone (killed outright: its jobs would
    otherwise run on and write outputs while a rerun starts). A daemon thread watches the nearest ancestor
    process running Snakemake (psutil, a dependency of Snakemake) every ``interval`` seconds."""
    import os
    import signal
    import threading
    import time

    import psutil

    parent = next((p for p in psutil.Process().parents() if is_snakemake(_cmdline(p))), None)
    if parent is None:
        return

    def watch():
        while parent.is_running():
            time.sleep(interval)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True, name="humeval-watch-snakemake").start()


def is_snakemake(cmdline: list[str]) -> bool:
    """Whether a command line runs Snakemake itself (not a job's shell, whose script lies in .snakemake/).

    >>> is_snakemake(["python", "-m", "snakemake", "--cores", "2"]), is_snakemake(["/x/bin/snakemake", "-n"])
    (True, True)
    >>> is_snakemake(["/bin/bash", "-c", "python .snakemake/scripts/tmp1.extract.py"])
    False
    """
    return any(a == "snakemake" or a.endswith(("/snakemake", "/snakemake/__main__.py")) for a in cmdline)


def _cmdline(process) -> list[str]:
    try:
        return process.cmdline()
    except (OSError, ValueError):
        return []


def run(snakemake, main: Callable[[], None]) -> None:
    """Run ``main`` with logging to the rule's log file; exit 1 with a clear message on bad input."""
    terminal = sys.stderr
    log_file = open(snakemake.log[0], "w", buffering=1)  # noqa: SIM115 - lives as long as the job
    sys.stderr = log_file
    logging.basicConfig(
        stream=log_file, level=logging.INFO, force=True, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    log = logging.getLogger("humeval")
    started = time.perf_counter()
    label = f"{snakemake.rule} {dict(snakemake.wildcards.items())}"
    log.info("start %s", label)
    stop_with_snakemake()
    try:
        main()
    except HumevalError as exc:
        log.error("%s", exc)
        print(f"humeval error in {label}: {exc}", file=terminal)
        sys.exit(1)
    except OSError as exc:  # the machine, not the input or the code: a full disk, a read-only folder
        log.exception("cannot write or read a file")
        print(f"humeval error in {label}: {exc.strerror or exc} ({exc.filename or 'a file'})", file=terminal)
        sys.exit(1)
    except Exception as exc:  # a bug, not bad input: one line on the terminal, the traceback in the log
        log.exception("internal error")
        print(
            f"humeval internal error in {label}: {type(exc).__name__}: {exc} (traceback in {snakemake.log[0]})",
            file=terminal,
        )
        sys.exit(1)
    log.info("done %s in %.2f s", label, time.perf_counter() - started)
