"""How the workflow scales with the number of studies: ``python -m humeval.scale`` (from the repository root).

For each N (default 5, 20, 50) it makes a fresh copy of the project whose config enables N synthetic studies,
each a copy of ``config/studies/_template.yaml`` under its own name (the template's synthetic export, from
the test mirror ``.test/raw``), fetches their raw files, then times a cold run of all N and prints seconds,
seconds per study and the ratio to the smallest N. Linear cost means a constant time per study.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from humeval.bench import ROOT


def synthetic_project(target: Path, n: int) -> list[str]:
    """A copy of the project at ``target`` enabling ``n`` copies of the template study; their names."""
    shutil.copy(ROOT / "Snakefile", target / "Snakefile")
    for name in ("workflow", "envs", "profiles"):
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "config/studies").mkdir(parents=True)
    template = (ROOT / "config/studies/_template.yaml").read_text()
    names = [f"synthetic-{k:03d}-ranking" for k in range(1, n + 1)]
    for name in names:
        text = template.replace("name: example-2025-ranking", f"name: {name}", 1)
        (target / "config/studies" / f"{name}.yaml").write_text(text)
    config = {"studies": names, "raw_dir": "data/raw", "raw_mirror": str(ROOT / ".test/raw")}
    (target / "config/config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return names


def timed_run(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"scaling run failed in {cwd}: {' '.join(command)}\n{result.stderr[-2000:]}")
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--studies", type=int, nargs="+", default=[5, 20, 50])
    args = parser.parse_args(argv)
    snakemake = [sys.executable, "-m", "snakemake", "--cores", str(args.cores)]
    rows = []
    for n in args.studies:
        with tempfile.TemporaryDirectory(prefix=f"humeval-scale-{n}-") as tmp:
            work = Path(tmp)
            synthetic_project(work, n)
            timed_run(snakemake + ["--until", "fetch_raw"], work)  # copies from the test mirror, not timed
            seconds = timed_run(snakemake, work)
            jobs = len(list((work / "results/logs").rglob("*.log")))
        rows.append((n, seconds, jobs))
        print(f"  N = {n:3d}: {seconds:7.1f} s cold, {seconds / n:5.2f} s per study ({jobs} job logs)", flush=True)
    base_n, base_seconds, _ = rows[0]
    print(f"humeval scaling: {os.cpu_count()} cores here, --cores {args.cores}; Python {sys.version.split()[0]}")
    print(f"  {'studies':>7} {'cold run':>10} {'per study':>10} {'x time of N=' + str(base_n):>14}")
    for n, seconds, _ in rows:
        print(f"  {n:7d} {seconds:8.1f} s {seconds / n:8.2f} s {seconds / base_seconds:13.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
