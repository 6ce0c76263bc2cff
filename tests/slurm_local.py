"""A real one-node SLURM cluster on this machine, for the cluster test: Debian's ``slurm-wlm`` and ``munge``
(``.ci/run`` installs them), started here and stopped afterwards (``../shared/slurm-local.md``).

It needs root (the daemons and ``/etc/slurm/slurm.conf``, which ``srun`` inside a job reads). An existing
``slurm.conf`` is put back when the cluster stops. State, spool and logs live in a temporary folder.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

CONF = Path("/etc/slurm/slurm.conf")
MARK = "# humeval test cluster (tests/slurm_local.py)"
BINARIES = ("slurmctld", "slurmd", "munged", "munge", "unmunge", "sbatch", "squeue", "sinfo", "scancel")


def missing() -> str | None:
    """Why a cluster cannot be started here, or None."""
    absent = [b for b in BINARIES if shutil.which(b) is None]
    if absent:
        return f"{', '.join(absent)} not found (Debian packages slurm-wlm and munge; .ci/run installs them)"
    if os.geteuid() != 0:
        return "starting SLURM's daemons needs root"
    if subprocess.run(["pgrep", "-x", "slurmctld"], capture_output=True, check=False).returncode == 0:
        return "a slurmctld is already running on this machine; stop it first"
    return None


def slurm_conf(host: str, base: Path) -> str:
    return "\n".join(
        [
            MARK,
            "ClusterName=humeval",
            f"SlurmctldHost={host}",
            "SlurmUser=root",
            "AuthType=auth/munge",
            f"StateSaveLocation={base}/state",
            f"SlurmdSpoolDir={base}/spool",
            f"SlurmctldPidFile={base}/slurmctld.pid",
            f"SlurmdPidFile={base}/slurmd.pid",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "SchedulerType=sched/backfill",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core_Memory",
            "ReturnToService=2",
            f"SlurmctldLogFile={base}/slurmctld.log",
            f"SlurmdLogFile={base}/slurmd.log",
            f"NodeName={host} CPUs={os.cpu_count()} RealMemory=16000 State=UNKNOWN",
            f"PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP",
            "",
        ]
    )


def _munge_works() -> bool:
    encoded = subprocess.run(["munge", "-n"], capture_output=True, check=False)
    return (
        encoded.returncode == 0
        and subprocess.run(["unmunge"], input=encoded.stdout, capture_output=True, check=False).returncode == 0
    )


def _start_munge() -> subprocess.Popen | None:
    """munged in the foreground as user munge, unless one already answers; None when none was started."""
    if _munge_works():
        return None
    key = Path("/etc/munge/munge.key")
    for folder in ("/etc/munge", "/run/munge", "/var/lib/munge", "/var/log/munge"):
        Path(folder).mkdir(parents=True, exist_ok=True)
    if not key.exists():
        key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    for folder in ("/etc/munge", "/run/munge", "/var/lib/munge", "/var/log/munge"):
        shutil.chown(folder, "munge", "munge")
        for path in Path(folder).iterdir():
            shutil.chown(path, "munge", "munge")
    process = subprocess.Popen(
        ["runuser", "-u", "munge", "--", "munged", "--foreground"],  # logs to /var/log/munge
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait(_munge_works, 20, "munged did not answer")
    return process


def _wait(ready, seconds: float, message: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.5)
    raise RuntimeError(message)


def _node_idle() -> bool:
    states = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, check=False).stdout.split()
    return states == ["idle"]


@contextlib.contextmanager
def cluster(base: Path):
    """Start munged (if none answers), slurmctld and slurmd; yield once the node is idle; stop them all."""
    for folder in ("state", "spool"):
        (base / folder).mkdir(parents=True, exist_ok=True)
    backup = CONF.read_bytes() if CONF.exists() and MARK not in CONF.read_text(errors="replace") else None
    CONF.parent.mkdir(parents=True, exist_ok=True)
    CONF.write_text(slurm_conf(socket.gethostname(), base))
    processes = []
    try:
        munged = _start_munge()
        if munged is not None:
            processes.append(munged)
        for daemon in ("slurmctld", "slurmd"):
            # each logs to the file slurm.conf names (base/<daemon>.log)
            processes.append(subprocess.Popen([daemon, "-D"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait(_node_idle, 60, f"the SLURM node did not become idle; see {base}/slurmctld.log")
        yield
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        if backup is not None:
            CONF.write_bytes(backup)
        else:
            CONF.unlink(missing_ok=True)
