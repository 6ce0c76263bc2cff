# Validation before anything runs, the loaded study configs, and the input functions.
import re
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

try:
    from humeval.config import load_study, raw_filename
    from humeval.errors import HumevalError
except ImportError as exc:
    raise WorkflowError(
        f"the package humeval is not importable ({exc}): install it into this environment with `pip install -e .` "
        "(see README, Quickstart)"
    ) from None

WORKFLOW_ROOT = Path(workflow.current_basedir).parent
validate(config, schema="../schemas/config.schema.yaml")

try:
    STUDIES = {name: load_study(Path("config/studies") / f"{name}.yaml") for name in config["studies"]}
except HumevalError as exc:
    raise WorkflowError(f"invalid configuration: {exc}") from None

# Every result depends on the package code too (Snakemake itself tracks only a rule's own script): the
# rule code_version stamps the package sources, and every stage takes the stamp as an input.
PACKAGE_SOURCES = sorted(str(p) for p in Path(WORKFLOW_ROOT, "humeval").rglob("*.py"))
CODE_VERSION = "results/code_version.txt"

RAW_DIR = config.get("raw_dir", "data/raw")


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


def get_study(wildcards):
    return STUDIES[wildcards.study]


def get_published_config(wildcards):
    """The part of the study config that holds published numbers (all the rule published reads)."""
    study = STUDIES[wildcards.study]
    return {key: study[key] for key in ("name", "published", "published_aggregates", "published_files") if key in study}


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
        "results/summary/qra.csv",
        "results/summary/claims.csv",
        "results/summary/audit.csv",
        "results/summary/qra3.csv",
        "results/rulegraph.svg",
    ]
