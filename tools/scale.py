"""How the workflow scales: ``python tools/scale.py judgements`` and ``python tools/scale.py studies``.

``judgements`` writes a synthetic export of each chosen size for each common shape, with a study file that reads
it, runs that one study end to end in a fresh copy of the project, and prints per size: the tidy rows, wall and CPU
seconds and peak memory of each stage (Snakemake's ``benchmark:`` files), the output bytes, and the ratio to a
floor (reading the export with pandas and writing it once as CSV). The shapes (:data:`SHAPES`):

- ``ranking``: a Figure Eight report of 3-way rankings with gold and invalid rows, read by the template study;
- ``long``: long ratings (one row per judged value, 2 criteria), with empty scores and an attention column;
- ``wide``: wide ratings (TSV, one column per criterion, verbose headers);
- ``pairwise``: a web-app export in a slot layout (10 pairwise slots per row, one against a distractor).

The last three are read by the ``tabular`` loader by config alone, with alpha, tests and pairwise tallies.

``studies`` makes N copies of the template study (its synthetic export from the test mirror ``.test/raw``), and
times a cold run and a no-op run of each N: seconds per added study.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import shutil
import sys
import tempfile
from pathlib import Path

import yaml
from bench import ROOT, copy_tree
from bench import timed_cpu as run

from humeval.config.studyfile import raw_filename

FLOOR = """
import sys, pandas as pd
frame = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False, sep="\\t" if sys.argv[1].endswith(".tsv") else ",")
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


SYSTEMS = ["S1", "S2", "S3", "S4"]
RATERS = 2000  # the pool every synthetic export draws its raters from
PER_ITEM = 5  # raters per item


def scores(rng, system, size: int):
    """1..5 ratings, better for lower-numbered systems (a mean of 3.5 for S1 down to 2 for S4)."""
    import numpy as np

    return np.clip(np.rint(3.5 - 0.5 * system + rng.normal(0, 1, size)), 1, 5).astype(int)


def long_export(judgements: int, seed: int = 0) -> bytes:
    """Long ratings, one row per judged value: each item rated on 2 criteria for 4 systems by 5 of 2,000 raters
    (``judgements / 40`` items); 1% of the scores left empty, the raters of 1% of rows failing an attention check
    (a column the study carries and drops by)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    per_item = len(SYSTEMS) * 2 * PER_ITEM
    cell = np.arange(max(judgements // per_item, 2) * per_item)
    item, k = cell // per_item, cell % per_item
    system, criterion, slot = k // (2 * PER_ITEM), (k // PER_ITEM) % 2, k % PER_ITEM
    rater = (item * PER_ITEM + slot) % RATERS
    score = scores(rng, system, len(cell)).astype(str)
    score[rng.random(len(cell)) < 0.01] = ""
    frame = pd.DataFrame(
        {
            "rater": "r" + rater.astype(str),
            "item": "i" + item.astype(str),
            "system": np.array(SYSTEMS)[system],
            "criterion": np.array(["fluency", "adequacy"])[criterion],
            "score": score,
            "attention": np.where(rater % 100 == 7, "fail", "pass"),
        }
    )
    return frame.to_csv(index=False).encode()


def wide_export(judgements: int, seed: int = 0) -> bytes:
    """Wide ratings (TSV, verbose headers), one row per rater, item and system with 3 criteria: 4 systems by 5 of
    2,000 raters per item (``judgements / 60`` items); 1% of the cells empty."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    per_item = len(SYSTEMS) * PER_ITEM
    row = np.arange(max(judgements // (3 * per_item), 2) * per_item)
    item, k = row // per_item, row % per_item
    system, slot = k // PER_ITEM, k % PER_ITEM
    frame = pd.DataFrame(
        {"worker": "w" + ((item * PER_ITEM + slot) % RATERS).astype(str), "item": "i" + item.astype(str)}
    )
    frame["model"] = np.array(SYSTEMS)[system]
    for criterion in ("Fluency (1-5)", "Adequacy (how much meaning is kept, 1-5)", "Coherence (1-5)"):
        values = scores(rng, system, len(row)).astype(str)
        values[rng.random(len(row)) < 0.01] = ""
        frame[criterion] = values
    return frame.to_csv(index=False, sep="\t").encode()


SLOTS = 10  # pairwise slots per task; the last compares a system with a distractor


def pairwise_export(judgements: int, seed: int = 0) -> bytes:
    """A web-app export in a slot layout: one row per task of one of 2,000 participants, 10 slots per row
    (``systema{k}``, ``systemb{k}``, ``fluency{k}`` = A or B, ``ix{k}``), ``judgements / 10`` tasks; each item is
    judged in 5 tasks; slot 10 pairs a system with the distractor ``DIST``, which 1 in 50 participants choose (in
    half their tasks), at every size."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    tasks = max(judgements // SLOTS, PER_ITEM)
    task = np.arange(tasks)
    frame = pd.DataFrame({"PROLIFIC_PID": "p" + (task % RATERS).astype(str), "session": "s" + task.astype(str)})
    names = np.array(SYSTEMS)
    for k in range(1, SLOTS + 1):
        item = (task // PER_ITEM) * SLOTS + k  # the 5 tasks of a group judge the same items
        a = item % len(SYSTEMS)
        b = (a + 1 + (item // len(SYSTEMS)) % (len(SYSTEMS) - 1)) % len(SYSTEMS)
        prefer_a = rng.random(tasks) < 0.5 + 0.1 * (b - a)  # lower-numbered systems win more often
        frame[f"systema{k}"], frame[f"systemb{k}"] = names[a], names[b]
        if k == SLOTS:  # 1 in 50 participants is careless: chooses the distractor in half their checks
            frame[f"systemb{k}"] = "DIST"
            prefer_a = (task % RATERS % 50 != 7) | (rng.random(tasks) < 0.5)
        frame[f"fluency{k}"] = np.where(prefer_a, "A", "B")
        frame[f"ix{k}"] = "x" + item.astype(str)
    return frame.to_csv(index=False).encode()


def synthetic_study(name: str, filename: str, data: bytes, params: dict, **entries) -> dict:
    """A one-experiment study of one synthetic export, read by ``tabular``."""
    url = f"https://raw.githubusercontent.com/example-owner/scale/{'0' * 40}/{filename}"
    return {
        "name": name,
        "title": f"Scaling run: {name}",
        "experiments": [{"id": "O", "label": "original", "citation": "synthetic"}],
        "raw": [{"id": "export", "url": url, "sha256": hashlib.sha256(data).hexdigest(), "role": "export"}],
        "extract": [{"side": "original", "loader": "tabular", "inputs": {"export": "export"}, "params": params}],
        "systems": [{"code": s, "label": s} for s in SYSTEMS],
        "published": [],
        **entries,
    }


def ratings_entries(criteria: list[str]) -> dict:
    """Metrics, tables and a figure of a ratings study: means, SDs and counts per system and criterion, alpha and
    ANOVA / Kruskal-Wallis per criterion, judgement counts."""
    columns = [f"{c}_{s}" for c in criteria for s in ("mean", "sd", "n")]
    return {
        "metrics": [
            {
                "metric": "describe",
                "table": "means",
                "by": ["system", "criterion"],
                "stats": ["mean", "sd", "n"],
                "row": "{system}",
                "column": "{criterion}_{stat}",
            },
            {
                "metric": "krippendorff_alpha_by_group",
                "table": "agreement",
                "by": ["criterion"],
                "units": ["item", "system"],
                "level": "interval",
                "row": "{criterion}",
                "column": "alpha",
            },
            {
                "metric": "k_sample_tests",
                "table": "tests",
                "tests": ["anova", "kruskal"],
                "by": ["criterion"],
                "row": "{criterion}|{test}",
                "column": "{stat}",
            },
            {
                "metric": "counts",
                "table": "counts",
                "rows": {
                    "judgements": {"frame": "tidy"},
                    "excluded": {"frame": "excluded"},
                    "kept": {"frame": "kept"},
                },
            },
        ],
        "tables": [
            {"id": "means", "row_header": "system", "rows": SYSTEMS, "columns": columns},
            {"id": "agreement", "rows": criteria, "columns": ["alpha"]},
            {
                "id": "tests",
                "rows": [f"{c}|{t}" for c in criteria for t in ("anova", "kruskal")],
                "columns": ["statistic", "df_between", "df_within", "p"],
            },
            {"id": "counts", "rows": ["judgements", "excluded", "kept"], "columns": ["n"], "precision": {"n": 0}},
        ],
        "figures": [
            {
                "id": "means",
                "kind": "bars",
                "table": "means",
                "rows": SYSTEMS,
                "columns": [f"{c}_mean" for c in criteria],
            }
        ],
    }


def template_study(name: str, filename: str, data: bytes) -> dict:
    """The template study (a Figure Eight ranking report), pinned to ``data``."""
    study = yaml.safe_load((ROOT / "config/studies/_template.yaml").read_text())
    study["name"] = name
    study["raw"] = [dict(study["raw"][0], url=study["raw"][0]["url"].rsplit("/", 1)[0] + "/" + filename)]
    study["raw"][0]["sha256"] = hashlib.sha256(data).hexdigest()
    return study


#: The tabular loader's parameters for a long export (a row per judged value), shared with tests/test_e2e_shapes.py.
LONG_PARAMS = {
    "shape": "long",
    "participant": "rater",
    "item": ["item"],
    "system": "system",
    "criterion": {"column": "criterion"},
    "value": "score",
    "scale": [1, 5],
}
#: ... and for a slot layout of pairwise choices (``fluency1``, ``systema1``, ...), shared with tests/test_e2e_slots.py.
SLOT_PARAMS = {
    "shape": "melt",
    "columns": r"^(?P<criterion>fluency)(?P<slot>\d+)$",
    "participant": "PROLIFIC_PID",
    "item": ["ix{slot}"],
    "system": {"column": "systema{slot}"},
    "system_b": {"column": "systemb{slot}"},
    "response_type": "pairwise",
    "value_map": {"A": 1, "B": -1},
}


def long_study(name: str, filename: str, data: bytes) -> dict:
    params = {**LONG_PARAMS, "carry": {"attention": "attention"}}
    exclusions = [
        {
            "exclusion": "drop_where",
            "name": "attention",
            "params": {"column": "attention", "values": ["fail"], "reason": "failed the attention check"},
        }
    ]
    return synthetic_study(
        name, filename, data, params, exclusions=exclusions, **ratings_entries(["fluency", "adequacy"])
    )


def wide_study(name: str, filename: str, data: bytes) -> dict:
    params = {
        "participant": "worker",
        "item": ["item"],
        "system": "model",
        "criteria": {
            "fluency": {"pattern": "^fluency"},
            "adequacy": {"pattern": "^adequacy"},
            "coherence": {"pattern": "^coherence"},
        },
        "scale": [1, 5],
    }
    return synthetic_study(name, filename, data, params, **ratings_entries(["fluency", "adequacy", "coherence"]))


def pairwise_study(name: str, filename: str, data: bytes) -> dict:
    params = SLOT_PARAMS
    stats = ["wins", "losses", "n", "win_pct", "bws"]
    return synthetic_study(
        name,
        filename,
        data,
        params,
        exclusions=[
            {"exclusion": "attention_check", "name": "attention", "params": {"distractor": "DIST"}},
            {"exclusion": "drop_systems", "name": "checks", "params": {"systems": ["DIST"]}},
        ],
        metrics=[
            {"metric": "pairwise_tally", "table": "bws", "stats": stats},
            {"metric": "percent_agreement", "table": "agreement", "units": ["item"], "row": "fluency"},
            {
                "metric": "counts",
                "table": "counts",
                "rows": {"judgements": {"frame": "tidy"}, "excluded": {"frame": "excluded"}, "kept": {"frame": "kept"}},
            },
        ],
        tables=[
            {"id": "bws", "row_header": "system", "rows": SYSTEMS, "columns": stats},
            {"id": "agreement", "rows": ["fluency"], "columns": ["pairwise", "majority"]},
            {"id": "counts", "rows": ["judgements", "excluded", "kept"], "columns": ["n"], "precision": {"n": 0}},
        ],
        figures=[{"id": "bws", "kind": "bars", "table": "bws", "rows": SYSTEMS, "columns": ["bws"]}],
    )


#: shape -> (export file name, export generator, study builder)
SHAPES = {
    "ranking": ("report.csv", ranking_export, template_study),
    "long": ("ratings.csv", long_export, long_study),
    "wide": ("ratings.tsv", wide_export, wide_study),
    "pairwise": ("tasks.csv", pairwise_export, pairwise_study),
}


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


def mirror_path(url: str) -> str:
    """Where the mirror holds a pinned file: ``github/<owner>/<repo>/<commit>/<path>``."""
    return "github/" + url.split("raw.githubusercontent.com/", 1)[1]


def judgements_mode(sizes: list[int], shapes: list[str], cores: int, keep: Path | None = None) -> int:
    """Run each shape at each size; with ``keep``, each run's project and mirror stay in ``keep/<shape>-<size>``."""
    snakemake = [sys.executable, "-m", "snakemake", "--cores", str(cores)]
    print(f"humeval scaling (judgements): {os.cpu_count()} cores here, --cores {cores}", flush=True)
    for shape in shapes:
        filename, export, build = SHAPES[shape]
        print(f"shape {shape}:", flush=True)
        for size in sizes:
            with tempfile.TemporaryDirectory(prefix=f"humeval-scale-{shape}-{size}-") as scratch:
                tmp = Path(scratch) if keep is None else keep / f"{shape}-{size}"
                work, mirror, name = Path(tmp) / "project", Path(tmp) / "mirror", f"scale-{shape}"
                project(work)
                data = export(size)
                study = build(name, filename, data)
                target = mirror / mirror_path(study["raw"][0]["url"])
                target.parent.mkdir(parents=True)
                target.write_bytes(data)
                del data
                (work / f"config/studies/{name}.yaml").write_text(yaml.safe_dump(study, sort_keys=False))
                config = {"studies": [name], "raw_mirror": str(mirror)}
                (work / "config/config.yaml").write_text(yaml.safe_dump(config))
                env = dict(os.environ, PYTHONPATH=str(work / "workflow"))
                run(snakemake + ["--until", "fetch_raw"], work, env)
                floor_out = str(Path(tmp) / "floor.csv")
                fetched = work / "data/raw" / name / raw_filename(study["raw"][0])
                floor, _ = run([sys.executable, "-c", FLOOR, str(fetched), floor_out], work, env)
                wall, cpu = run(snakemake, work, env)
                with open(work / f"results/{name}/tidy/judgements.csv") as handle:
                    rows = sum(1 for _ in handle) - 1
                stages = stage_benchmarks(work / "results")
                size_out = sum(p.stat().st_size for p in (work / "results").rglob("*") if p.is_file())
                peak = max(rss for _, _, rss in stages.values())
                print(
                    f"  {size:>10,} judgements requested, {rows:,} tidy rows: cold run {wall:.1f} s wall, {cpu:.1f} s "
                    f"CPU = {wall / floor:.1f} x the floor ({floor:.1f} s); peak {peak:.0f} MB; outputs "
                    f"{size_out / 1e6:.1f} MB",
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
            stages = stage_benchmarks(work / "results")
            jobs = sum(s for s, _, _ in stages.values())
            noop, _ = run(snakemake, work, env)
        rows.append((n, cold, noop))
        print(
            f"  N = {n:3d}: {cold:7.1f} s cold, {cold / n:5.2f} s per study, no-op {noop:.1f} s; the jobs' own wall "
            f"seconds {jobs:.1f} s ({jobs / cores:.1f} s on {cores} cores), per stage: "
            + ", ".join(f"{stage} {s:.1f}" for stage, (s, _, _) in stages.items()),
            flush=True,
        )
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
    parser.add_argument("--shapes", nargs="+", choices=list(SHAPES), default=list(SHAPES), help="judgements only")
    parser.add_argument("--keep", type=Path, help="judgements: keep each run's project in KEEP/<shape>-<size>")
    args = parser.parse_args(argv)
    if args.mode == "judgements":
        return judgements_mode([int(s) for s in args.sizes or [1e4, 1e5, 1e6]], args.shapes, args.cores, args.keep)
    return studies_mode([int(s) for s in args.sizes or [5, 20, 100]], args.cores)


if __name__ == "__main__":
    sys.exit(main())
