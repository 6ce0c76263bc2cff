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
from humeval.fetch import fetch_raw_logged, resolve_mirror  # noqa: E402

export_package_path(PACKAGE_ROOT)
validate(config, schema="../schemas/config.schema.yaml")

try:
    STUDIES = {name: load_study(Path("config/studies") / f"{name}.yaml") for name in config["studies"]}
except HumevalError as exc:
    raise WorkflowError(f"invalid configuration: {exc}") from None

# Every result depends on the package code too: list it as an input so that a change reruns the jobs
# (Snakemake itself only tracks the rule's own script).
PACKAGE_SOURCES = sorted(str(p) for p in Path(PACKAGE_ROOT, "humeval").rglob("*.py"))

RAW_DIR = config.get("raw_dir", "data/raw")
RAW_MIRROR = resolve_mirror(config.get("raw_mirror"))
# file name -> raw entry, per study (the fetch rule's wildcard {filename})
RAW_FILES = {name: {raw_filename(r): r for r in study["raw"]} for name, study in STUDIES.items()}


wildcard_constraints:
    study="|".join(map(re.escape, STUDIES)),


def results(study, path):
    return f"results/{study}/{path}"


def get_raw_inputs(wildcards):
    """Raw file id -> local path of every raw input of the study."""
    return {entry["id"]: f"{RAW_DIR}/{wildcards.study}/{filename}"
            for filename, entry in RAW_FILES[wildcards.study].items()}


def get_raw_entry(wildcards):
    """The config entry (url, sha256) of one raw file."""
    try:
        return RAW_FILES[wildcards.study][wildcards.filename]
    except KeyError:
        raise WorkflowError(f"{wildcards.filename!r} is not a raw file of study {wildcards.study}") from None


def get_study(wildcards):
    return STUDIES[wildcards.study]


def get_final_output():
    """Everything the contract promises, for every enabled study."""
    outputs = []
    for study in STUDIES:
        outputs += [results(study, p) for p in ("tidy/judgements.csv", "tidy/participants.csv",
                                                "exclusions.csv", "numbers.csv", "tables", "figures")]
    return outputs
