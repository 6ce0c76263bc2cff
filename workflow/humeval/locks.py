"""Stale Snakemake locks: a run killed outright (SIGKILL, a power loss) leaves ``.snakemake/locks`` behind,
and the next plain run would refuse with a LockException. Before Snakemake takes its lock, the workflow
removes locks that no live Snakemake process in this directory can own; a lock held by a running Snakemake
is kept, so a second concurrent run still stops with Snakemake's lock message.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)


def other_snakemake_running(workdir: str | Path) -> bool:
    """Whether a Snakemake process other than this one (and its ancestors) runs in ``workdir``
    (psutil, a dependency of Snakemake)."""
    import psutil

    here = Path(workdir).resolve()
    mine = {os.getpid(), *(p.pid for p in psutil.Process().parents())}
    for process in psutil.process_iter(["pid", "cmdline", "cwd"]):
        try:
            if process.info["pid"] in mine or not process.info["cwd"]:
                continue
            if "snakemake" in " ".join(process.info["cmdline"] or []) and Path(process.info["cwd"]).resolve() == here:
                return True
        except (psutil.NoSuchProcess, psutil.AccessDenied, OSError):
            continue
    return False


def remove_stale_locks(workdir: str | Path = ".") -> list[Path]:
    """Remove ``.snakemake/locks/*`` when no other Snakemake runs in ``workdir``; return what was removed."""
    locks = sorted(Path(workdir, ".snakemake", "locks").glob("*.lock"))
    if not locks or other_snakemake_running(workdir):
        return []
    for lock in locks:
        lock.unlink(missing_ok=True)
    return locks
