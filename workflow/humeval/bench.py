"""The project's benchmark: ``python -m humeval.bench`` (from the repository root, with the mirror set).

In a fresh copy of the project it measures, in one invocation: the floor (one Python process importing the
stack, pandas, scipy.stats, pingouin, krippendorff, matplotlib.pyplot and textacy, and reading every raw
file; the best of three, so a cold disk cache does not flatter the ratios), a cold run of all enabled studies
(the best of three, each from no results, as this machine's wall times vary by 15-20%; all three are
printed, with the CPU time of all processes of the best), a no-op run, Snakemake's own start-up, and reruns
after a figure option, a published number, an edit of ``figures.py`` and of a loader; it prints each in
seconds and as a ratio to the floor.

Snakemake's own start-up is a no-op run of a generated workflow with as many jobs as the cold run ran, each
with an input, an output, a log, a params dict and a script, none of this project's code: what Snakemake
itself spends to parse, build the DAG and check every job. The no-op run of this workflow minus that is what
this project adds at every start.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
FLOOR = """
import pandas, scipy.stats, pingouin, krippendorff, matplotlib.pyplot, textacy
from pathlib import Path
for path in Path({raw!r}).rglob("*"):
    if path.is_file():
        path.read_bytes()
"""


STARTUP_SNAKEFILE = """
rule all:
    input:
        expand("out/{{i}}.txt", i=range({jobs})),


rule one:
    input:
        "in/{{i}}.txt",
    output:
        "out/{{i}}.txt",
    log:
        "logs/{{i}}.log",
    params:
        study={{"name": "one", "tables": [{{"id": "t", "columns": ["a", "b"]}}]}},
    script:
        "write_output.py"
"""


def timed(command: list[str], cwd: Path, env: dict) -> float:
    return timed_cpu(command, cwd, env)[0]


def timed_cpu(command: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    """Wall time and CPU time (user + system, the command and all its children) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"benchmark step failed: {' '.join(command)}\n{result.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best_of(runs: int, command: list[str], cwd: Path, env: dict) -> float:
    return min(timed(command, cwd, env) for _ in range(runs))


def snakemake_startup(jobs: int, snakemake: list[str], cwd: Path, env: dict) -> float:
    """No-op time of a generated ``jobs``-job workflow (Snakemake's own cost; see the module docstring)."""
    (cwd / "in").mkdir(parents=True)
    for i in range(jobs):
        (cwd / "in" / f"{i}.txt").write_text(str(i))
    (cwd / "Snakefile").write_text(STARTUP_SNAKEFILE.format(jobs=jobs))
    (cwd / "write_output.py").write_text("open(snakemake.output[0], 'w').write(open(snakemake.input[0]).read())\n")
    timed(snakemake, cwd, env)
    return best_of(3, snakemake, cwd, env)


def edit_yaml(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    env = dict(os.environ)
    if not env.get("HUMEVAL_RAW_MIRROR"):
        raise SystemExit("set HUMEVAL_RAW_MIRROR to the raw-data mirror (or the benchmark would time downloads)")
    with tempfile.TemporaryDirectory(prefix="humeval-bench-") as tmp:
        work = Path(tmp) / "project"
        work.mkdir()
        shutil.copy(ROOT / "Snakefile", work / "Snakefile")
        for name in ("workflow", "config", "envs", "profiles"):
            shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
        snakemake = [sys.executable, "-m", "snakemake", "--cores", str(args.cores)]
        fetch = timed(snakemake + ["--until", "fetch_raw"], work, env)  # the raw files, so the floor can read them
        floor = best_of(3, [sys.executable, "-c", FLOOR.format(raw=str(work / "data/raw"))], work, env)
        rows = [("floor (imports + read raw files), best of 3", floor)]
        colds = []
        for _ in range(3):  # each from no results (the fetched raw files stay)
            shutil.rmtree(work / "results", ignore_errors=True)
            colds.append(timed_cpu(snakemake, work, env))
        cold, cpu = min(colds)
        jobs = len([p for p in (work / "results/logs").rglob("*.log") if p.parent.name != "fetch_raw"])
        runs = ", ".join(f"{wall:.1f}" for wall, _ in colds)
        rows.append((f"cold run, all studies ({jobs} jobs), best of 3", cold))
        rows.append((f"  (the three cold runs: {runs} s)", None))
        rows.append(("  CPU time of that run (user + system)", cpu))
        noop = best_of(3, snakemake, work, env)
        startup = snakemake_startup(jobs, snakemake, Path(tmp) / "startup", env)
        rows.append(("no-op run, best of 3", noop))
        rows.append((f"  Snakemake's own start-up ({jobs} jobs), best of 3", startup))
        rows.append(("  no-op minus Snakemake's start-up", noop - startup))
        edit_yaml(
            work / "config/studies/hosking-2022-paraphrase-meaning.yaml",
            lambda s: s["figures"][0].update(title="benchmark title"),
        )
        rows.append(("rerun: one study's figure option", timed(snakemake, work, env)))
        edit_yaml(
            work / "config/studies/hosking-2022-paraphrase-meaning.yaml",
            lambda s: s["published"][1]["cells"]["VAE"].update(reproduction="23.01"),
        )
        rows.append(("rerun: one published number", timed(snakemake, work, env)))
        with open(work / "workflow/humeval/figures.py", "a") as handle:
            handle.write("\n# benchmark edit\n")
        rows.append(("rerun: figures.py edited", timed(snakemake, work, env)))
        with open(work / "workflow/humeval/loaders/tabular.py", "a") as handle:
            handle.write("\n# benchmark edit\n")
        rows.append(("rerun: one loader edited", timed(snakemake, work, env)))
    rows.insert(1, ("(fetch from the mirror, before the cold run)", fetch))
    print(f"humeval benchmark: {os.cpu_count()} cores here, --cores {args.cores}; Python {sys.version.split()[0]}")
    for label, seconds in rows:
        if seconds is None:
            print(f"  {label}")
        else:
            print(f"  {label:<52} {seconds:7.1f} s   {seconds / floor:5.1f} x floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
