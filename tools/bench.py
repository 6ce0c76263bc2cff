"""The project's benchmark: ``python tools/bench.py [--before REF]`` (from the clone's root, mirror set).

In one invocation it measures the floor once (one Python process importing pandas, scipy.stats, pingouin,
krippendorff, matplotlib.pyplot and textacy and reading every raw file; the best of three), then, for the working
tree and, with ``--before REF``, for that git revision, each in a fresh copy whose own package the runs import:
a cold run of all enabled studies (the best of three, each from no results; all three wall times and the CPU
time of all processes of the best), the same with ``--config planning=false`` (what planning adds), a no-op run, and reruns after a figure option, a published number, an edit
of the figure style (``report/figures/style.py``, where it lives at the revision) and of a loader. Each is printed in seconds and as a ratio to the floor.

Per rule, from Snakemake's benchmark of each job of the last cold run, the CPU seconds its jobs took, their wall
seconds and the largest peak memory of one job, so that the largest cost can be found and cut (issue 56).

With ``--per-study NAMES`` it also times the cold run of those studies alone against all enabled ones, each per
study (wall and CPU), so that a cost per study can be compared in one invocation (issue 51: nine studies against
the six before them). ``--cost-per-study ROUNDS --before REF`` does only that against a revision: cold runs of the
working tree's studies and REF's, alternating, each per study (about 2 minutes a round here).

For the working tree it also times a cold run as on a machine with a SLURM client but no controller
(``SLURM_CONF`` pointing at a configuration whose controller does not answer), where ``scontrol`` waits for its
timeout: Snakemake's SLURM executor plugin asks it when Snakemake imports the plugin, so that run costs more
only where the plugin is installed (it is an extra: requirements-slurm.txt); the output says whether it is.
Snakemake's own start-up, the no-op of a generated workflow with as many script jobs and none of this
project's code, shows what Snakemake itself spends to parse and build the DAG.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("Snakefile", "workflow", "config", "envs", "profiles")
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
# A controller that does not answer: scontrol retries, then gives up (the plugin's own timeout is 10 s).
DEAD_CONTROLLER = "ClusterName=bench\nSlurmctldHost=localhost\nSlurmctldPort=6999\nNodeName=localhost CPUs=1\n"


def timed_cpu(command: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    """Wall time and CPU time (user + system, the command and all its children) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"benchmark step failed in {cwd}: {' '.join(command)}\n{result.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timed(command: list[str], cwd: Path, env: dict) -> float:
    return timed_cpu(command, cwd, env)[0]


def best_of(runs: int, command: list[str], cwd: Path, env: dict) -> float:
    return min(timed(command, cwd, env) for _ in range(runs))


def copy_tree(target: Path, revision: str | None) -> Path:
    """The project's files at ``revision`` (git archive), or as in the working tree, under ``target``."""
    target.mkdir(parents=True)
    if revision is None:
        for name in COPIED:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(source, target / name)
        return target
    archive = subprocess.run(["git", "archive", revision, *COPIED], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(target, filter="data")
    return target


def append(path: Path, text: str) -> None:
    with open(path, "a") as handle:
        handle.write(text)


def edit_yaml(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def measure(work: Path, snakemake: list[str], env: dict, floor_raw: Path | None) -> list[tuple[str, float | None]]:
    """Cold runs, the no-op and the reruns of the project copy ``work`` (its own package imported)."""
    env = env | {"PYTHONPATH": str(work / "workflow")}
    timed(snakemake + ["--until", "fetch_raw"], work, env)
    if floor_raw is not None:
        shutil.copytree(work / "data/raw", floor_raw)
    colds = []
    for _ in range(3):  # each from no results (the fetched raw files stay)
        shutil.rmtree(work / "results", ignore_errors=True)
        colds.append(timed_cpu(snakemake, work, env))
    cold, cpu = min(colds)
    jobs = len([p for p in (work / "results/logs").rglob("*.log") if p.parent.name != "fetch_raw"])
    rows = [
        (f"cold run, all studies ({jobs} jobs), best of 3", cold),
        (f"  (the three cold runs: {', '.join(f'{wall:.1f}' for wall, _ in colds)} s)", None),
        ("  CPU time of that run (user + system)", cpu),
    ]
    for tsv in sorted((work / "results/benchmarks/planning").glob("*.tsv")):  # the last cold run's planning jobs
        wall = float(tsv.read_text().splitlines()[-1].split("\t")[0])
        rows.append((f"  planning job, {tsv.stem.split('-')[0]} (Snakemake's benchmark)", wall))
    rows += per_rule(work / "results/benchmarks")
    if "planning" in (work / "workflow/schemas/config.schema.yaml").read_text():
        without = []
        for _ in range(3):  # what planning adds: the same cold runs with --config planning=false
            shutil.rmtree(work / "results", ignore_errors=True)
            without.append(timed(snakemake + ["--config", "planning=false"], work, env))
        rows.append(("cold run, planning=false, best of 3", min(without)))
        rows.append((f"  (planning adds {cold / min(without):.2f}x to the cold run)", None))
    else:  # a revision from before planning: its cold run is the run without it
        rows.append(("  (no planning at this revision: the cold run above is the run without it)", None))
    shutil.rmtree(work / "results", ignore_errors=True)
    timed(snakemake, work, env)  # the reruns below start from a complete run
    rows.append(("no-op run, best of 3", best_of(3, snakemake, work, env)))
    hosking = work / "config/studies/hosking-2022-paraphrase-meaning.yaml"
    edit_yaml(hosking, lambda s: s["figures"][0].update(title="benchmark title"))
    rows.append(("rerun: one study's figure option", timed(snakemake, work, env)))
    edit_yaml(hosking, lambda s: s["published"][1]["cells"]["VAE"].update(reproduction="23.01"))
    rows.append(("rerun: one published number", timed(snakemake, work, env)))
    figure_code = next(  # where the figure style lives at this revision
        p
        for p in ("report/figures/style.py", "figures/style.py", "figures.py")
        if (work / "workflow/humeval" / p).is_file()
    )
    append(work / "workflow/humeval" / figure_code, "\n# benchmark edit\n")
    rows.append(("rerun: the figure style edited", timed(snakemake, work, env)))
    append(work / "workflow/humeval/loaders/tabular.py", "\n# benchmark edit\n")
    rows.append(("rerun: one loader edited", timed(snakemake, work, env)))
    return rows


def per_rule(benchmarks: Path) -> list[tuple[str, float | None]]:
    """Where the last cold run's job time went, per rule, from Snakemake's benchmark of each job
    (``results/benchmarks/<rule>/<study>.tsv``): its jobs' CPU seconds in all (``cpu_time``: the job's processes,
    start-up and imports included), their wall seconds, and the largest peak memory (``max_rss``, MB) of one job;
    rules by CPU, largest first. Rows whose seconds are CPU, not wall."""
    import csv

    totals = {}
    for tsv in benchmarks.glob("*/*.tsv"):
        with open(tsv, newline="") as handle:
            last = list(csv.DictReader(handle, delimiter="\t"))[-1]
        jobs, cpu, wall, rss = totals.get(tsv.parent.name, (0, 0.0, 0.0, 0.0))
        measured = {  # Snakemake writes NA where it could not measure
            key: float(last[key]) if last.get(key) not in (None, "", "NA", "-") else 0.0
            for key in ("cpu_time", "s", "max_rss")
        }
        totals[tsv.parent.name] = (
            jobs + 1,
            cpu + measured["cpu_time"],
            wall + measured["s"],
            max(rss, measured["max_rss"]),
        )
    rows = [("  per rule (Snakemake's benchmarks): CPU of its jobs; wall, peak memory of one job", None)]
    for rule, (jobs, cpu, wall, rss) in sorted(totals.items(), key=lambda item: -item[1][1]):
        rows.append((f"    {rule} ({jobs} jobs; wall {wall:.1f} s, peak {rss:.0f} MB), CPU", cpu))
    return rows


def per_study(work: Path, snakemake: list[str], env: dict, subset: list[str]) -> list[tuple[str, float | None]]:
    """Cost per study: the cold run of all enabled studies against the cold run of ``subset`` alone (best of 3
    each, wall and the CPU of that run), each divided by its number of studies (issue 51: nine against six)."""
    env = env | {"PYTHONPATH": str(work / "workflow")}
    enabled = yaml.safe_load((work / "config/config.yaml").read_text())["studies"]
    rows = []
    for names in (enabled, subset):
        runs = []
        for _ in range(3):
            shutil.rmtree(work / "results", ignore_errors=True)
            runs.append(timed_cpu(snakemake + ["--config", f"studies={names}"], work, env))
        wall, cpu = min(runs)
        rows += [
            (f"cold run, {len(names)} studies, best of 3 (per study)", wall / len(names)),
            (f"  CPU of that run per study ({cpu:.1f} s in all)", cpu / len(names)),
        ]
    return rows


def cost_per_study(trees: dict[str, Path], snakemake: list[str], env: dict, rounds: int) -> None:
    """Cold runs of each tree's enabled studies, alternating the trees for ``rounds`` rounds, each printed per study
    (wall, and CPU of Snakemake and all its jobs): the cost per study of two revisions on the same machine at the
    same time (issue 51: the nine studies against b870865's six), in minutes rather than a full benchmark's hour."""
    for k in range(rounds):
        for name, work in trees.items():
            studies = yaml.safe_load((work / "config/config.yaml").read_text())["studies"]
            shutil.rmtree(work / "results", ignore_errors=True)
            wall, cpu = timed_cpu(snakemake, work, env | {"PYTHONPATH": str(work / "workflow")})
            n = len(studies)
            print(
                f"round {k + 1} {name}: {n} studies, wall {wall:.1f} s, CPU {cpu:.1f} s; "
                f"per study wall {wall / n:.2f} s, CPU {cpu / n:.2f} s",
                flush=True,
            )


def cold_without_controller(work: Path, snakemake: list[str], env: dict) -> float:
    """One cold run with ``SLURM_CONF`` naming a controller that does not answer."""
    conf = work / "dead-slurm.conf"
    conf.write_text(DEAD_CONTROLLER)
    shutil.rmtree(work / "results", ignore_errors=True)
    return timed(snakemake, work, env | {"SLURM_CONF": str(conf), "PYTHONPATH": str(work / "workflow")})


def snakemake_startup(jobs: int, snakemake: list[str], cwd: Path, env: dict) -> float:
    """No-op time of a generated ``jobs``-job workflow (Snakemake's own cost; see the module docstring)."""
    (cwd / "in").mkdir(parents=True)
    for i in range(jobs):
        (cwd / "in" / f"{i}.txt").write_text(str(i))
    (cwd / "Snakefile").write_text(STARTUP_SNAKEFILE.format(jobs=jobs))
    (cwd / "write_output.py").write_text("open(snakemake.output[0], 'w').write(open(snakemake.input[0]).read())\n")
    timed(snakemake, cwd, env)
    return best_of(3, snakemake, cwd, env)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument(
        "--before", metavar="REF", help="also measure this git revision (e.g. a commit before a change)"
    )
    parser.add_argument(
        "--per-study",
        metavar="NAMES",
        help="also the cold run of these studies alone (comma-separated), and the cost per study of both runs",
    )
    parser.add_argument(
        "--cost-per-study",
        metavar="ROUNDS",
        type=int,
        help="only cold runs, this many rounds alternating the working tree and --before, each per study",
    )
    args = parser.parse_args(argv)
    # the runs write Python's bytecode cache, as a user's do: with PYTHONDONTWRITEBYTECODE set, every job compiled
    # the package's modules again (4.7 of a cold run's 409 CPU s under cProfile, 2026-12-02)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if not env.get("HUMEVAL_RAW_MIRROR"):
        raise SystemExit("set HUMEVAL_RAW_MIRROR to the raw-data mirror (or the benchmark would time downloads)")
    snakemake = [sys.executable, "-m", "snakemake", "--cores", str(args.cores)]
    if args.cost_per_study:
        if not args.before:
            raise SystemExit("--cost-per-study compares the working tree with --before REF: name it")
        with tempfile.TemporaryDirectory(prefix="humeval-bench-") as tmp:
            trees = {
                args.before: copy_tree(Path(tmp) / "before", args.before),
                "now": copy_tree(Path(tmp) / "now", None),
            }
            cost_per_study(trees, snakemake, env, args.cost_per_study)
        return 0
    with tempfile.TemporaryDirectory(prefix="humeval-bench-") as tmp:
        after = copy_tree(Path(tmp) / "after", None)
        rows = {"now": measure(after, snakemake, env, Path(tmp) / "raw")}
        floor = best_of(3, [sys.executable, "-c", FLOOR.format(raw=str(Path(tmp) / "raw"))], Path(tmp), env)
        extra = [("cold run, SLURM client without a controller", cold_without_controller(after, snakemake, env))]
        jobs = int(rows["now"][0][0].split("(")[1].split()[0])
        extra.append((f"Snakemake's own start-up ({jobs} script jobs), best of 3", None))
        startup = snakemake_startup(jobs, snakemake, Path(tmp) / "startup", env)
        extra[-1] = (extra[-1][0], startup)
        if args.per_study:
            extra += per_study(after, snakemake, env, args.per_study.split(","))
        if args.before:
            rows[args.before] = measure(copy_tree(Path(tmp) / "before", args.before), snakemake, env, None)
    plugin = importlib.util.find_spec("snakemake_executor_plugin_slurm") is not None
    print(f"humeval benchmark: {os.cpu_count()} cores here, --cores {args.cores}; Python {sys.version.split()[0]}")
    print(f"  floor (imports + read raw files), best of 3{'':8} {floor:7.1f} s   {1:5.1f} x floor")
    for version, measured in rows.items():
        print(f"{version}:")
        for label, seconds in measured + (extra if version == "now" else []):
            if seconds is None:
                print(f"  {label}")
            else:
                print(f"  {label:<52} {seconds:7.1f} s   {seconds / floor:5.1f} x floor")
    print(f"  (SLURM executor plugin {'installed' if plugin else 'not installed'} in this environment)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
