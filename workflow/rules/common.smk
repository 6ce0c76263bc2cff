# Validation before anything runs, the loaded study configs, and the input functions.
import os
import re
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

try:
    import humeval
    from humeval.config import load_study, raw_filename, validate_against
    from humeval.errors import HumevalError
    from humeval.runner import ConfigText
    from humeval.stages import stage_sources
except ImportError as exc:
    raise WorkflowError(
        f"the package humeval is not importable ({exc}): install it into the environment Snakemake runs in, "
        "`pip install -e .` from the clone (README, Quickstart; docs/deployment.md for a module)"
    ) from None

# One line naming the file and the key for a mistake (humeval.config), then Snakemake's own validation, which also
# fills in the schema's defaults.
try:
    validate_against(config, "config.schema.yaml", "config/config.yaml")
except HumevalError as exc:
    raise WorkflowError(f"invalid configuration: {exc}") from None
validate(config, schema="../schemas/config.schema.yaml")

# Every enabled study's file, schema-validated and cross-checked (humeval.config): a mistake is one line naming
# the file and the key, before any job runs.
STUDY_DIR = Path(config.get("study_dir", "config/studies"))
try:
    STUDIES = {name: load_study(STUDY_DIR / f"{name}.yaml") for name in config["studies"]}
except HumevalError as exc:
    raise WorkflowError(f"invalid configuration: {exc}") from None

# The package the jobs import (where it is installed): its sources are the code inputs of each stage
# (humeval.stages) and are stamped in results/code_version.txt.
PACKAGE_DIR = Path(humeval.__file__).resolve().parent
PACKAGE_SOURCES = sorted(os.path.relpath(p) for p in PACKAGE_DIR.rglob("*.py"))
CODE_VERSION = "results/code_version.txt"

RAW_DIR = config.get("raw_dir", "data/raw")
if not Path(RAW_DIR).resolve().is_relative_to(Path.cwd().resolve()) and not config.get("raw_dir_outside_workdir"):
    raise WorkflowError(
        f"invalid configuration: config/config.yaml: key raw_dir: {RAW_DIR!r} lies outside the working directory; "
        "set raw_dir_outside_workdir: true if that is intended"
    )
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
    """The package sources the ``stage`` job runs (humeval.stages), as inputs: editing them reruns the job."""
    return [os.path.relpath(p) for p in stage_sources(stage, PACKAGE_DIR)]


#: The stages in the order of the flow: jobs of an earlier stage go first (``priority:``), so every study's extract
#: starts at the beginning of a run and the longest study's chain is not left for late (with equal priorities
#: Snakemake's order among ready jobs is arbitrary).
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


def report_safe(value):
    """``value`` (plain config data) as a Python literal with ``<``, ``>`` and ``&`` written as ``\\x3c``, ``\\x3e``,
    ``\\x26``, which only string literals hold: Snakemake's report embeds each job's params in an inline <script>,
    where a config string holding ``</script>`` would end it and run what follows. The scripts decode it with
    humeval.runner.config_param (``ast.literal_eval``), so every type, integer keys included, comes back as given.
    A dry run's reason shows its digest, not the text (humeval.runner.ConfigText)."""
    text = repr(value)
    return ConfigText(text.replace("<", "\\x3c").replace(">", "\\x3e").replace("&", "\\x26"))


def config_slice(*keys):
    """Params function: only the parts of the study config a rule reads, so editing another part (a figure
    option, a published number) does not rerun it; as report-safe text (:func:`report_safe`)."""
    return lambda wildcards: report_safe(
        {k: STUDIES[wildcards.study][k] for k in ("name", *keys) if k in STUDIES[wildcards.study]}
    )


def get_published_files(wildcards):
    """The raw files that hold published numbers (``published_files``), with their local names."""
    wanted = {spec["raw"] for spec in STUDIES[wildcards.study].get("published_files", [])}
    return [f for f in get_raw_files(wildcards) if f["id"] in wanted]


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
