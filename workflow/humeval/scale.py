"""How the workflow scales: ``python -m humeval.scale judgements`` and ``python -m humeval.scale studies``.

``judgements`` writes synthetic exports of a chosen size for each common shape (``ranking``: a Figure Eight report
of 3-way rankings with gold and invalid rows, as the template study reads it; ``long``: long ratings read by
``tabular``), runs that one study end to end in a fresh copy of the project, and prints per size: the tidy rows,
wall and CPU seconds and peak memory of each stage (Snakemake's ``benchmark:`` files), the output bytes, and the
ratio to a floor (reading the export with pandas and writing the tidy table once).

``studies`` makes N copies of the template study (its synthetic export from the test mirror ``.test/raw``), and
times a cold run and a no-op run of each N: seconds per added study.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from humeval.bench import ROOT, copy_tree

TEMPLATE_URL_PATH = "github/example-owner/example-repo/0000000000000000000000000000000000000000/crowd/report.csv"
FLOOR = """
import sys, pandas as pd
frame = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False)
frame.to_csv(sys.argv[2], index=False)
"""


def project(target: Path) -> None:
    """A fresh copy of the working tree at ``target`` (the benchmark's), with no study file."""
    copy_tree(target, None)
    shutil.rmtree(target / "config/studies")
    (target / "config/studies").mkdir()


def ranking_export(judgements: int, seed: int = 0) -> bytes:
    """A Figure Eight report of ``judgements / 3`` 3-way rankings: 10 per unit by 10 of a pool of 2,000 workers,
    5% gold rows and 1% rankings that are not permutations (the template's exclusions drop both)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    n = max(judgements // 3, 10)
    orders = np.array([[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]])
    ranks = orders[rng.integers(0, 6, n)]
    broken = rng.random(n) < 0.01
    ranks[broken, 2] = ranks[broken, 1]
    frame = pd.DataFrame(
        {
            "_unit_id": "u" + (np.arange(n) // 10).astype(str),
            "_id": "j" + np.arange(n).astype(str),
            "_worker_id": "w" + (np.arange(n) % 2000).astype(str),  # 10 different workers per unit
            "_golden": np.where(rng.random(n) < 0.05, "true", "false"),
            "_tainted": "false",
            "_trust": "1.0",
            "easiest": ranks[:, 0],
            "middle": ranks[:, 1],
            "hardest": ranks[:, 2],
            "sentence1": "sentence 1 text",
            "sentence2": "sentence 2 text",
            "sentence3": "sentence 3 text",
        }
    )
    return frame.to_csv(index=False).encode()


def run(command: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"scaling run failed in {cwd}: {' '.join(command)}\n{result.stderr[-3000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def stage_benchmarks(results: Path) -> dict[str, tuple[float, float, float]]:
    """Per stage: wall s, CPU s and peak resident MB, from Snakemake's benchmark files (summed over jobs; the
    peak is the largest)."""
    import pandas as pd

    out = {}
    for folder in sorted((results / "benchmarks").iterdir()):
        frames = [pd.read_csv(p, sep="\t") for p in folder.glob("*.tsv")]
        frame = pd.concat(frames)
        out[folder.name] = (float(frame["s"].sum()), float(frame["cpu_time"].sum()), float(frame["max_rss"].max()))
    return out


def judgements_mode(sizes: list[int], cores: int) -> int:
    snakemake = [sys.executable, "-m", "snakemake", "--cores", str(cores)]
    template = yaml.safe_load((ROOT / "config/studies/_template.yaml").read_text())
    print(f"humeval scaling (judgements): {os.cpu_count()} cores here, --cores {cores}; shape ranking", flush=True)
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix=f"humeval-scale-{size}-") as tmp:
            work, mirror = Path(tmp) / "project", Path(tmp) / "mirror"
            project(work)
            data = ranking_export(size)
            (mirror / TEMPLATE_URL_PATH).parent.mkdir(parents=True)
            (mirror / TEMPLATE_URL_PATH).write_bytes(data)
            study = dict(template, name="scale-ranking")
            study["raw"] = [dict(study["raw"][0], sha256=hashlib.sha256(data).hexdigest())]
            (work / "config/studies/scale-ranking.yaml").write_text(yaml.safe_dump(study, sort_keys=False))
            (work / "config/config.yaml").write_text(
                yaml.safe_dump({"studies": ["scale-ranking"], "raw_mirror": str(mirror)})
            )
            env = dict(os.environ, PYTHONPATH=str(work / "workflow"))
            run(snakemake + ["--until", "fetch_raw"], work, env)
            export = work / "data/raw/scale-ranking/report.csv"
            floor, _ = run([sys.executable, "-c", FLOOR, str(export), str(Path(tmp) / "floor.csv")], work, env)
            wall, cpu = run(snakemake, work, env)
            with open(work / "results/scale-ranking/tidy/judgements.csv") as handle:
                rows = sum(1 for _ in handle) - 1
            stages = stage_benchmarks(work / "results")
            size_out = sum(p.stat().st_size for p in (work / "results").rglob("*") if p.is_file())
            print(
                f"  {size:>10,} judgements requested, {rows:,} tidy rows: cold run {wall:.1f} s wall, {cpu:.1f} s CPU "
                f"= {wall / floor:.1f} x the floor ({floor:.1f} s); outputs {size_out / 1e6:.1f} MB",
                flush=True,
            )
            for stage, (s, c, rss) in stages.items():
                print(f"      {stage:<13} {s:7.1f} s wall {c:7.1f} s CPU {rss:8.0f} MB peak", flush=True)
    return 0


def studies_mode(counts: list[int], cores: int) -> int:
    snakemake = [sys.executable, "-m", "snakemake", "--cores", str(cores)]
    rows = []
    for n in counts:
        with tempfile.TemporaryDirectory(prefix=f"humeval-scale-{n}-") as tmp:
            work = Path(tmp) / "project"
            project(work)
            template = (ROOT / "config/studies/_template.yaml").read_text()
            names = [f"synthetic-{k:03d}-ranking" for k in range(1, n + 1)]
            for name in names:
                text = template.replace("name: example-2025-ranking", f"name: {name}", 1)
                (work / "config/studies" / f"{name}.yaml").write_text(text)
            config = {"studies": names, "raw_mirror": str(ROOT / ".test/raw")}
            (work / "config/config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
            env = dict(os.environ, PYTHONPATH=str(work / "workflow"))
            run(snakemake + ["--until", "fetch_raw"], work, env)  # copies from the test mirror, not timed
            cold, _ = run(snakemake, work, env)
            noop, _ = run(snakemake, work, env)
        rows.append((n, cold, noop))
        print(f"  N = {n:3d}: {cold:7.1f} s cold, {cold / n:5.2f} s per study, no-op {noop:.1f} s", flush=True)
    base_n, base, _ = rows[0]
    print(f"humeval scaling (studies): {os.cpu_count()} cores here, --cores {cores}; Python {sys.version.split()[0]}")
    print(f"  {'studies':>7} {'cold run':>10} {'per study':>10} {'x time of N=' + str(base_n):>14} {'no-op':>8}")
    for n, cold, noop in rows:
        print(f"  {n:7d} {cold:8.1f} s {cold / n:8.2f} s {cold / base:13.1f}x {noop:6.1f} s")
    for (n1, c1, _), (n2, c2, _) in itertools.pairwise(rows):
        print(f"  from {n1} to {n2} studies: {(c2 - c1) / (n2 - n1):.2f} s per added study")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["judgements", "studies"])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--sizes", type=float, nargs="+", help="judgements: 1e4 1e5 1e6; studies: 5 20 100")
    args = parser.parse_args(argv)
    if args.mode == "judgements":
        return judgements_mode([int(s) for s in args.sizes or [1e4, 1e5, 1e6]], args.cores)
    return studies_mode([int(s) for s in args.sizes or [5, 20, 100]], args.cores)


if __name__ == "__main__":
    sys.exit(main())
