# Validation before anything runs, the loaded study configs, and the input functions.
import os
import re
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

try:
    import humeval
    from humeval.config.load import changed_default_notices, load_study, validate_against
    from humeval.config.studyfile import STAGE_KEYS, raw_files, slice_param, study_path, study_slice
    from humeval.errors import HumevalError
    from humeval.fetch import in_mirror, resolve_mirror
    from humeval.loaders.headers import ambiguous_references
    from humeval.stages import stage_sources
    from humeval.report import report_label
except ImportError as exc:
    raise WorkflowError(
        f"the package humeval is not importable ({exc}): install it into the environment Snakemake runs in, "
        "`pip install -e .` from the clone (README, Run and test; docs/deployment.md for a module)"
    ) from None

# One line naming the file and the key for a mistake (humeval.config.load), then Snakemake's own validation, which also
# fills in the schema's defaults.
try:
    validate_against(config, "config.schema.yaml", "config/config.yaml")
except HumevalError as exc:
    raise WorkflowError(f"invalid configuration: {exc}") from None
validate(config, schema="../schemas/config.schema.yaml")

# Every enabled study's file, schema-validated and cross-checked (humeval.config.load): a mistake is one line naming
# the file and the key, before any job runs.
try:
    STUDIES = {name: load_study(study_path(config, name)) for name in config["studies"]}
except HumevalError as exc:
    raise WorkflowError(f"invalid configuration: {exc}") from None

# A default that changed under a study file that relies on it: one line each, what to write for the former numbers.
for _name, _study in STUDIES.items():
    for _notice in changed_default_notices(_name, _study, str(config.get("planning", True)).lower() == "true"):
        print(f"humeval: {_notice}", file=sys.stderr)

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


def check_writable(folder):
    """Refuse, in one line before any job runs, a folder the workflow writes to that cannot be written (a
    read-only mount, no permission, a full disk): a file is made and removed there (or in its nearest existing
    parent), which is the only test that holds for root and for read-only file systems alike."""
    import tempfile

    probe = Path(folder).resolve()
    while not probe.exists():
        probe = probe.parent
    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as exc:
        raise WorkflowError(
            f"cannot write to {folder}/ ({probe}): {exc.strerror or exc}; the results need a writable folder"
        ) from None


for folder in ("results", RAW_DIR):
    check_writable(folder)
# The raw mirror folders (config raw_mirror, else $HUMEVAL_RAW_MIRROR): one that does not exist is one line here.
try:
    MIRRORS = resolve_mirror(config.get("raw_mirror"))
except HumevalError as exc:
    raise WorkflowError(f"invalid configuration: {exc}") from None


def local_raw(name):
    """Where study ``name``'s raw file (by id) already is on disk, fetched or in a mirror, else None."""
    pinned = {r["id"]: r for r in raw_files(STUDIES[name])}

    def local(raw_id):
        if raw_id not in pinned:
            return None
        fetched = Path(RAW_DIR, name, pinned[raw_id]["filename"])
        if fetched.is_file():
            return fetched
        return next((p for m in MIRRORS if (p := in_mirror(m, pinned[raw_id]["url"]))), None)

    return local


# A header an export repeats, named bare by the study file, where the export is on disk already: one line now, in
# the words the extract job would use (humeval.loaders.headers; only header lines are read).
for _name, _study in STUDIES.items():
    for _line in ambiguous_references(_study, local_raw(_name)):
        raise WorkflowError(f"invalid configuration: [{_name}] {study_path(config, _name)}: {_line}")
# PNG (200 dpi, for the report) and PDF (vector, for a paper) by default; --config 'figure_formats=[png]' for PNG only
FIGURE_FORMATS = list(config.get("figure_formats", ["png", "pdf"]))
#: Whether each study's reproduction planning runs (--config planning=false skips it).
PLANNING = str(config.get("planning", True)).lower() == "true"


wildcard_constraints:
    study="|".join(map(re.escape, STUDIES)),


def results(study, path):
    return f"results/{study}/{path}"


def code_for(stage):
    """The package sources the ``stage`` job runs, derived from its script (humeval.stages), as inputs: editing them
    reruns the job. The script is read through Snakemake's source cache, so a module from a URL works too."""
    script = workflow.source_path(f"../scripts/{stage}.py")
    return [os.path.relpath(p) for p in stage_sources(Path(script), PACKAGE_DIR)]


def power_table(wildcards):
    """The study's planning/power.csv where planning runs: the figures job draws its page and figure too."""
    return results(wildcards.study, "planning/power.csv") if PLANNING else []


def planning_pages():
    """The planning page and figure (power curves per finding, each reproduction at its size, the 80% line), where
    planning runs: drawn by the figures job from power.csv, so editing the figure code redraws them without
    simulating again, and no job of their own starts another interpreter (docs/performance.md)."""
    if not PLANNING:
        return {}
    return {
        "power_html": report(
            "results/{study}/planning/power.html",
            caption="../report/planning.rst",
            category="{study}",
            subcategory="planning",
            labels={"study": "{study}", "table": "power", "kind": "planning"},
        ),
        "power_figure": report(
            "results/{study}/planning/figure_power.png",
            caption="../report/planning.rst",
            category="{study}",
            subcategory="planning",
            labels={"study": "{study}", "figure": "figure_power", "kind": "planning"},
        ),
    }


def paper_labels(section):
    """Report labels of a study's table or figure page (``section``: tables or figures): how the paper names it
    (its ``paper`` key), or derived where the pipeline derives it, and its id. The study is the report's category,
    so it is not repeated on every row."""
    key = section[:-1]

    def labels(wildcards):
        entries = STUDIES[wildcards.study].get(section, [])
        entry = next((e for e in entries if e["id"] == wildcards.name), {})
        named = {"in the paper": entry.get("paper", "derived"), key: wildcards.name}
        return {k: report_label(v) for k, v in named.items()}  # the one escaping path of config text to labels

    return labels


def stage_slice(stage):
    """Params function: the digest of the parts of the study config the stage's job reads
    (humeval.config.studyfile.STAGE_KEYS, the one table from config to job), so editing another part (a figure option,
    a published number) does not rerun it. The job reads the parts itself (humeval.runner.study_config); no
    config text is in the params, so none is in the report."""
    keys = STAGE_KEYS[stage]
    return lambda wildcards: slice_param(study_slice(STUDIES[wildcards.study], keys), keys)


def all_studies_slice(stage):
    """Params function of the summary: the digest of its keys of every enabled study (humeval.runner.studies_config)."""
    keys = STAGE_KEYS[stage]
    return lambda wildcards: slice_param({n: study_slice(s, keys) for n, s in STUDIES.items()}, keys)


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
    if PLANNING:
        outputs += [results(study, f"planning/{name}") for study in STUDIES for name in ("power.csv", "power.html")]
    return outputs + [
        CODE_VERSION,
        "results/summary/qra.csv",
        "results/summary/claims.csv",
        "results/summary/audit.csv",
        "results/summary/qra3.csv",
    ]
