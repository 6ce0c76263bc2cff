"""Which package sources each stage's job runs: the inputs that make a job rerun when its code changes.

Snakemake reruns a ``script:`` job when the script itself changes; the package code it calls is given as plain
inputs, over-approximated by stage: a whole folder where the study config picks modules by name (``loaders/``
for extract, ``metrics/`` for metrics, ``qra/`` for qra), otherwise the modules the stage imports. Editing a
loader reruns every study's extract (and what follows only where the tidy table changed), editing
``report/figures/`` only the figure-drawing jobs. ``tests/test_stages.py`` follows every ``humeval`` import of each
stage's script and folders and fails when one is not listed here.

What it is worth, measured by ``tools/bench.py`` (docs/performance.md): an edit of the figure code reruns the
figure-drawing jobs in 10.4 s, an edit of a loader the study pipelines in 32.6 s, against a cold run of 33.8 s that
every edit of the package would cost if each job took the whole package as its code input.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["PACKAGE_DIR", "STAGE_CODE", "stage_sources"]

PACKAGE_DIR = Path(__file__).resolve().parent

#: Modules every stage script runs: the package, its errors, the job harness, the stage-file reader and writer,
#: the study-file reader (a job reads its slice of the study config) with the QRA3 tables it declares, and the
#: vocabulary (the registry every configured function is found by).
SHARED = (
    "__init__.py",
    "errors.py",
    "runner.py",
    "intermediate.py",
    "config/__init__.py",
    "config/studyfile.py",
    "qra3_layout.py",
    "config/registry.py",
)

#: Per stage (a rule of workflow/rules): package files and folders (ending in ``/``) besides :data:`SHARED`.
STAGE_CODE: dict[str, tuple[str, ...]] = {
    "fetch_raw": ("fetch.py",),
    "published": ("fetch.py", "published.py", "aggregates.py", "rounding.py"),
    "extract": ("fetch.py", "loaders/", "tidy.py", "id_firewall.py", "patterns.py", "strict_json.py"),
    "exclude": ("exclusions.py",),
    "metrics": ("metrics/", "aggregates.py", "rounding.py", "cv_star.py"),
    "qra": ("qra/", "cv_star.py", "metrics/__init__.py", "metrics/derived.py", "rounding.py"),
    "tables": (
        "audit.py",
        "report/__init__.py",
        "report/tables.py",
        "report/table_files.py",
        "report/html_tables.py",
        "heds.py",
        "config/conditions.py",
        "fetch.py",
        "rounding.py",
        "patterns.py",
        "strict_json.py",
    ),
    "figures": (  # the style, the drawing loop and each module of figure kinds (tests/test_stages.py checks the list)
        "report/__init__.py",
        "report/figures/__init__.py",
        "report/figures/style.py",
        "report/figures/draw.py",
        "report/figures/bars.py",
        "report/figures/intervals.py",
        "report/figures/scatter.py",
        # the planning page and figure
        "report/figures/power.py",
        "planning/__init__.py",
        "planning/power_table.py",
        "report/html_tables.py",
        "report/tables.py",
        "audit.py",
        "rounding.py",
        "qra/",
        "cv_star.py",
        "metrics/__init__.py",
        "metrics/derived.py",
    ),
    "planning": (
        "planning/",
        "config/planning.py",
        "findings.py",
        "metrics/",
        "qra/",
        "aggregates.py",
        "rounding.py",
        "cv_star.py",
    ),
    "summary": (
        "summary.py",
        "report/__init__.py",
        "report/summary_pages.py",
        "report/front_page.py",
        "report/verdict_card.py",
        "planning/__init__.py",
        "planning/power_table.py",
        "findings.py",
        "audit.py",
        "report/figures/",
        "report/tables.py",
        "report/html_tables.py",
        "heds.py",
        "config/conditions.py",
        "patterns.py",
        "strict_json.py",
        "rounding.py",
        "qra/",
        "cv_star.py",
        "metrics/__init__.py",
        "metrics/derived.py",
    ),
}


def stage_sources(stage: str, package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """The package source files of ``stage`` (sorted), the folders expanded to their ``.py`` files.

    >>> [str(p.relative_to(PACKAGE_DIR)) for p in stage_sources("qra")][:4]
    ['__init__.py', 'config/__init__.py', 'config/registry.py', 'config/studyfile.py']
    """
    files: set[Path] = set()
    for entry in SHARED + STAGE_CODE[stage]:
        path = package_dir / entry
        files |= set(path.rglob("*.py")) if entry.endswith("/") else {path}
    return sorted(files)
