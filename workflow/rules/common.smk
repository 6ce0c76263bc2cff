# Validation before anything runs, the loaded study configs, and the input functions.
import re
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

PACKAGE_ROOT = str(Path(workflow.current_basedir).parent)
# The package workflow/humeval must be importable here and in every script job (also under --use-conda).
sys.path.insert(0, PACKAGE_ROOT)

from humeval.runner import export_package_path  # noqa: E402
from humeval.config import load_study, raw_filename  # noqa: E402
from humeval.errors import HumevalError  # noqa: E402

export_package_path(PACKAGE_ROOT)
validate(config, schema="../schemas/config.schema.yaml")

try:
    STUDIES = {name: load_study(Path("config/studies") / f"{name}.yaml") for name in config["studies"]}
except HumevalError as exc:
    raise WorkflowError(f"invalid configuration: {exc}") from None

# Every result depends on the package code too (Snakemake itself tracks only a rule's own script): the
# rule code_version stamps the package sources, and every stage takes the stamp as an input.
PACKAGE_SOURCES = sorted(str(p) for p in Path(PACKAGE_ROOT, "humeval").rglob("*.py"))
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
        "results/rulegraph.svg",
    ]
