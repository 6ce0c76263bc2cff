"""The project's benchmark: ``python -m humeval.bench`` (from the repository root, with the mirror set).

In a fresh copy of the project it measures, in one invocation: the floor (one Python process importing the
stack, pandas, scipy.stats, pingouin, krippendorff, matplotlib.pyplot and textacy, and reading every raw
file), a cold run of all enabled studies, a no-op run, and reruns after a figure option, a published number,
an edit of ``figures.py`` and of a loader; it prints each in seconds and as a ratio to the floor.
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

ROOT = Path(__file__).resolve().parent.parent.parent
FLOOR = """
import pandas, scipy.stats, pingouin, krippendorff, matplotlib.pyplot, textacy
from pathlib import Path
for path in Path({raw!r}).rglob("*"):
    if path.is_file():
        path.read_bytes()
"""


def timed(command: list[str], cwd: Path, env: dict) -> float:
    started = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"benchmark step failed: {' '.join(command)}\n{result.stderr[-2000:]}")
    return time.perf_counter() - started


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
        rows = [
            (
                "floor (imports + read raw files)",
                timed([sys.executable, "-c", FLOOR.format(raw=str(work / "data/raw"))], work, env),
            )
        ]
        rows.append(("cold run, all studies", timed(snakemake, work, env)))
        rows.append(("no-op run", timed(snakemake, work, env)))
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
    floor = rows[0][1]
    rows.insert(1, ("(fetch from the mirror, before the cold run)", fetch))
    print(f"humeval benchmark: {os.cpu_count()} cores here, --cores {args.cores}; Python {sys.version.split()[0]}")
    for label, seconds in rows:
        print(f"  {label:<46} {seconds:7.1f} s   {seconds / floor:5.1f} x floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
