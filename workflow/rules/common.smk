# Validation before anything runs, the loaded study configs, and the input functions.
import os
import re
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

try:
    from humeval.config import raw_filename
    from humeval.errors import HumevalError
    from humeval.startup import workflow_state
except ImportError as exc:
    raise WorkflowError(
        f"the package humeval is not importable ({exc}): install it into this environment with `pip install -e .` "
        "(see README, Quickstart)"
    ) from None

WORKFLOW_ROOT = Path(workflow.current_basedir).parent
validate(config, schema="../schemas/config.schema.yaml")

# A run killed outright leaves its lock behind; drop it when no Snakemake runs here, so a plain rerun works
# (a live run's lock stays: a second concurrent run still stops with Snakemake's lock message).
from humeval.locks import remove_stale_locks  # noqa: E402

if remove_stale_locks("."):
    print("humeval: removed a stale lock left by an interrupted run (no Snakemake is running here)", file=sys.stderr)

# The validated study configs and each stage's code dependencies, cached between runs under .snakemake/humeval
# (keyed by the sha256 of the study files, schemas, scripts and package sources: humeval.startup).
try:
    STATE = workflow_state(
        {name: Path("config/studies") / f"{name}.yaml" for name in config["studies"]},
        Path(WORKFLOW_ROOT, "scripts"),
        Path(".snakemake/humeval"),
    )
except HumevalError as exc:
    raise WorkflowError(f"invalid configuration: {exc}") from None
STUDIES = STATE["studies"]

# code_version stamps every package source (provenance, results/code_version.txt). Each stage
# depends only on the sources its job runs (code_for): its script's imports, transitively, and the loaders,
# metrics and QRA types its study names, so a change reruns only the jobs that run the changed code.
PACKAGE_SOURCES = sorted(os.path.relpath(p) for p in Path(WORKFLOW_ROOT, "humeval").rglob("*.py"))
CODE_VERSION = "results/code_version.txt"

RAW_DIR = config.get("raw_dir", "data/raw")
# PNG by default; PDF on request: --config 'figure_formats=[png,pdf]'
FIGURE_FORMATS = list(config.get("figure_formats", ["png"]))


wildcard_constraints:
    study="|".join(map(re.escape, STUDIES)),


def results(study, path):
    return f"results/{study}/{path}"


def get_raw_files(wildcards):
    """The study's pinned raw files: id, url, sha256 and the local file name inside data/raw/<study>/."""
    return [
        {
            "id": r["id"],
            "url": r["url"],
            "sha256": r.get("sha256"),
            "git_blob": r.get("git_blob"),
            "optional": r.get("optional", False),
            "filename": raw_filename(r),
        }
        for r in STUDIES[wildcards.study]["raw"]
    ]


def code_for(stage):
    """Input function: the stage's script and the package sources the ``stage`` job of a study runs
    (humeval.code_deps). The script is listed because rules run it from ``run:`` (humeval.worker), which
    Snakemake does not watch as it watches a ``script:``."""
    package = Path(WORKFLOW_ROOT, "humeval")
    script = os.path.relpath(Path(WORKFLOW_ROOT, "scripts", f"{stage}.py"))
    return lambda wildcards: [script] + [
        os.path.relpath(package / f) for f in STATE["code"][(stage, wildcards.get("study"))]
    ]


#: The stages in the order of the flow: jobs of an earlier stage go first (``priority:``), so every study's extract
#: starts at the beginning of a run and the longest study's chain is not left for late (with equal priorities
#: Snakemake's order among ready jobs is arbitrary: one cold run started santhanam's extract, the head of the
#: longest chain, 3.5 s after the first extract). Among jobs of one stage Snakemake's greedy scheduler prefers
#: the larger inputs (profiles/default).
STAGES = [
    "code_version",
    "fetch_raw",
    "published",
    "extract",
    "exclude",
    "metrics",
    "qra",
    "tables",
    "figures",
    "summary",
]


def stage_priority(stage):
    """Snakemake priority of the stage's jobs: higher for stages earlier in the flow (:data:`STAGES`)."""
    return len(STAGES) - STAGES.index(stage)


def config_slice(*keys):
    """Params function: only the parts of the study config a rule reads, so editing another part (a figure
    option, a published number) does not rerun it."""
    return lambda wildcards: {k: STUDIES[wildcards.study][k] for k in ("name", *keys) if k in STUDIES[wildcards.study]}


def get_published_files(wildcards):
    """The raw files that hold published numbers (``published_files``), with their local names."""
    wanted = {spec["raw"] for spec in STUDIES[wildcards.study].get("published_files", [])}
    return [f for f in get_raw_files(wildcards) if f["id"] in wanted]


def get_published_raw(wildcards):
    """The study's raw folder, only when published numbers are read from raw files."""
    return [f"{RAW_DIR}/{wildcards.study}"] if get_published_files(wildcards) else []


def get_final_output():
    """Everything the contract promises, for every enabled study."""
    outputs = []
    for study in STUDIES:
        outputs += [
            results(study, p)
            for p in (
                "tidy/judgements.csv",
                "tidy/participants.csv",
                "exclusions.csv",
                "numbers.csv",
                "tables",
                "figures",
            )
        ]
    return outputs + [
        CODE_VERSION,
        "results/summary/qra.csv",
        "results/summary/claims.csv",
        "results/summary/audit.csv",
        "results/summary/qra3.csv",
    ]


# Every stage job runs its script (workflow/scripts/<name>.py) in a process forked from one warm worker that has
# imported, once, pandas, the package and the libraries of the rules this run executes (humeval.worker). Only
# where many jobs run: in Snakemake's own process executing locally; on a cluster (Snakemake's process runs the
# tiny local rules, a node's process one job) each job imports what its script uses.
from humeval.worker import (
    exit_promptly,
    preload_for,
    run_script as run_in_worker,
    start_worker,
    stop_worker,
)  # noqa: E402


def run_script(name, rule, input, output, params, wildcards, threads, resources, log):
    """The body of every rule's ``run:``: the job's script with the ``snakemake`` object ``script:`` would give."""
    from snakemake.iocontainers import Snakemake

    scripts = Path(WORKFLOW_ROOT, "scripts")
    job = Snakemake(input, output, params, wildcards, threads, resources, log, config, rule, None, str(scripts))
    run_in_worker(scripts / f"{name}.py", job)


def warm_preload():
    """What the warm worker imports first: for the rules of the jobs this run executes, where Snakemake executes
    them locally; nothing elsewhere."""
    if not workflow.local_exec or workflow.remote_exec or workflow.subprocess_exec:
        return []
    return preload_for({job.rule.name for job in workflow.dag.needrun_jobs()})


onstart:
    start_worker(warm_preload())


onsuccess:
    stop_worker()
    exit_promptly()


onerror:
    stop_worker()
    exit_promptly()
