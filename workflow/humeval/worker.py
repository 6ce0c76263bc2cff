"""Stage jobs as processes forked from one warm worker (the standard library's multiprocessing forkserver).

With Snakemake's ``script:`` directive every job is a new Python process that pays the interpreter,
Snakemake's script preamble and pandas (about 0.75 s) before any work, and scipy.stats, matplotlib or
pingouin again in every job that uses them. The workflow's rules instead call :func:`run_script` from a
short ``run:`` block: the job's script runs in a child forked from a server process that has already
imported the stack: pandas and this package, and the libraries the run's rules use (:func:`preload_for`). Each job is still its own process:
its own log, matplotlib state and exit status, and jobs run in parallel up to ``--cores``. The script is the
same file ``script:`` would run, with the same ``snakemake`` object (``snakemake.iocontainers.Snakemake``).

Only a process that runs many jobs preloads the stack (Snakemake's own process, when it executes the jobs
locally): on a cluster, Snakemake's process runs only the tiny local rules, and a job's process on a node
(``--mode remote``) runs one job, so there the child imports what its script uses, as a plain process would.
This module is imported by Snakemake's own process, so it imports nothing heavy.
"""

from __future__ import annotations

import multiprocessing
import runpy
import threading
from multiprocessing.connection import wait
from pathlib import Path

from humeval.errors import HumevalError

#: The libraries each rule's jobs use, which the warm worker imports when the run has jobs of that rule (besides
#: pandas and this package: :mod:`humeval.worker_stack`). textacy (with spaCy) is left to the one study that uses
#: it; a test checks that every other library a stage's code imports is listed.
RULE_LIBRARIES = {
    "extract": ("openpyxl",),
    "metrics": ("krippendorff", "pingouin", "scipy.stats"),
    "qra": ("krippendorff", "scipy.stats"),
    "figures": ("matplotlib.pyplot",),
    "summary": ("matplotlib.pyplot", "scipy.stats"),
    "rulegraph": ("matplotlib.pyplot",),
}

_started = threading.Lock()
_status = threading.Lock()
_context = None


def preload_for(rules) -> list[str]:
    """The modules the warm worker imports for a run of jobs of ``rules``: this package and pandas
    (:mod:`humeval.worker_stack`), then the libraries of :data:`RULE_LIBRARIES` those rules use, then
    :mod:`humeval.worker_freeze`.

    >>> preload_for({"figures", "tables"})
    ['humeval.worker_stack', 'matplotlib.pyplot', 'humeval.worker_freeze']
    """
    libraries = sorted({library for rule in rules for library in RULE_LIBRARIES.get(rule, ())})
    return ["humeval.worker_stack", *libraries, "humeval.worker_freeze"]


def warm_context(preload: list[str] | None = None):
    """The forkserver context of this process; the first call decides what its server imports first
    (:func:`start_worker` at the start of a run; a job run without it gets a server that preloads nothing)."""
    global _context
    with _started:
        if _context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(list(preload or []))
            _context = context
        return _context


def start_worker(preload: list[str]) -> None:
    """Start the warm worker now, importing the ``preload`` modules (it does so while Snakemake submits the
    first jobs, which wait for it)."""
    from multiprocessing import forkserver

    warm_context(preload)
    forkserver.ensure_running()


def stop_worker() -> None:
    """Stop the warm worker and wait for it: no process outlives the run, and the CPU time of its jobs is
    accounted to this process, as a ``script:`` job's would be (``time snakemake ...`` shows it all). This is
    the standard library's ``forkserver._stop`` (what its own tests use; there is no public way)."""
    from multiprocessing import forkserver

    with _started:
        if _context is not None:
            forkserver._forkserver._stop()


def exit_promptly() -> None:
    """At the end of a run (``onsuccess``/``onerror``), spare Snakemake's process two waits at its exit, about
    1 s of a run's wall time here: the interpreter waits for every non-daemon thread, and Snakemake's scheduler
    leaves a :class:`threading.Timer` of its job-rate limit (one per scheduling round, 1 s) pending, which
    :meth:`~threading.Timer.cancel` ends at once; and the interpreter's last garbage collection walks the whole
    DAG (about 0.5 s), which :func:`gc.freeze` skips (the operating system frees the memory)."""
    import gc

    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.cancel()
    gc.freeze()


def run_script(script: str | Path, snakemake) -> None:
    """Run the stage ``script`` with the global ``snakemake`` in a process forked from the warm worker; raise
    :class:`HumevalError` naming the job's log if it fails (the script has printed the one-line reason)."""
    job = warm_context().Process(target=execute_script, args=(str(script), snakemake), daemon=False)
    # Snakemake calls this from several threads. multiprocessing reads a job's exit status from its pipe in
    # start() (which polls every other running job) and in join(), unguarded: two threads reading one pipe give
    # the loser EOF, which multiprocessing reports as exit status 255. Wait on the pipe freely, read under a lock.
    with _status:
        job.start()
    wait([job.sentinel])
    with _status:
        job.join()
    if job.exitcode != 0:
        raise HumevalError(
            f"rule {snakemake.rule} failed (exit status {job.exitcode}); details in {', '.join(snakemake.log)}"
        )


def execute_script(script: str, snakemake) -> None:
    """In the forked child: run ``script`` as ``__main__`` with ``snakemake`` defined, as ``script:`` does."""
    runpy.run_path(script, init_globals={"snakemake": snakemake}, run_name="__main__")
