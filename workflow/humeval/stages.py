"""Which package sources each stage's job runs: the inputs that make a job rerun when its code changes.

Snakemake reruns a ``script:`` job when the script itself changes; the package code it calls is given as plain
inputs, derived from the script, never listed by hand: every ``humeval`` module the script reaches through an
import (at the top of a module or inside a function, parent packages included), and, where a reached module looks
a function up by name (``function(kind, name)``, :mod:`humeval.config.registry`), every module that registers a
function of that kind (every loader for extract, every metric for metrics, every figure kind for figures). Editing
a loader reruns every study's extract (and what follows only where the tidy table changed), editing
``report/figures/bars.py`` only the jobs that draw figures.

What it is worth, measured by ``tools/bench.py`` (docs/performance.md): an edit of the figure code reruns the
figure-drawing jobs in 10.4 s, an edit of a loader the study pipelines in 32.6 s, against a cold run of 33.8 s that
every edit of the package would cost if each job took the whole package as its code input. Deriving them reads
each reached module once per Snakemake invocation, by pattern: 0.055 s for the eleven stages.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from humeval.config.registry import KINDS, entries

__all__ = ["PACKAGE_DIR", "stage_sources"]

PACKAGE_DIR = Path(__file__).resolve().parent
#: An import statement (a parenthesised list may span lines), a text that starts with a dotted name
#: (``"humeval.planning.icc"``) and a look-up by name (``function("loader", ``).
IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)|import[ \t]+([^\n#]*))", re.MULTILINE
)
NAMED_MODULE = re.compile(r"""["']([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)""")
LOOKUP = re.compile(r"""\bfunction\(\s*["'](\w+)["']""")


def imported_modules(source: str) -> set[str]:
    """Every module ``source`` names: in an import anywhere (``from a.b import c`` gives ``a.b`` and ``a.b.c``, where
    ``c`` may be a module or a name in ``a.b``) or as the dotted name a text starts with (``import_module
    ("humeval.planning.icc")``, the registry's ``constant("humeval.metrics.derived", ...)``); a name that is no
    module of the package is dropped by :func:`source_of`. Read by pattern, not parsed: parsing what the nine
    studies' stages reach took 0.26 s of an invocation, the patterns take 0.06 s; an import written in a docstring
    is an extra input, never a missed one.

    >>> sorted(imported_modules('def f():\\n    from a.b import (c,\\n d as e)\\nM = (("humeval.planning.icc", "Icc"),)'))
    ['a.b', 'a.b.c', 'a.b.d', 'humeval.planning.icc']
    """
    found = set(NAMED_MODULE.findall(source))
    for package, names, modules in IMPORT.findall(source):
        listed = [n.split(" as ")[0].strip() for n in (names or modules).strip("()").split(",")]
        found |= {package} | {f"{package}.{n}" for n in listed} if package else set(listed)
    return found - {""}


def looked_up_kinds(source: str) -> set[str]:
    """The kinds ``source`` looks functions up by name in: ``function("loader", name)`` gives ``loader``.

    >>> sorted(looked_up_kinds('f = function("figure", spec["kind"])'))
    ['figure']
    """
    return set(LOOKUP.findall(source)) & set(KINDS)


@cache
def referenced_modules(path: str) -> frozenset[str]:
    """The modules the file at ``path`` imports or names, and those registering a kind it looks up (once a file)."""
    source = Path(path).read_text()
    modules = imported_modules(source)
    for kind in looked_up_kinds(source):
        modules |= {entry.module for entry in entries(kind).values()}
    return frozenset(modules)


@cache
def source_of(module: str, package_dir: Path) -> Path | None:
    """The file of ``module`` when it is a module of the package at ``package_dir``, else None."""
    package, *parts = module.split(".")
    if package != package_dir.name:
        return None
    base = package_dir.joinpath(*parts)
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def stage_sources(script: Path, package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """The package source files the job of ``script`` runs (sorted): what it reaches by import from the script,
    parent packages included, and every module registering a kind a reached module looks up by name.

    >>> script = PACKAGE_DIR.parent / "scripts" / "extract.py"
    >>> names = [str(p.relative_to(PACKAGE_DIR)) for p in stage_sources(script)]
    >>> "loaders/tabular.py" in names, "report/figures/bars.py" in names
    (True, False)
    """
    seen: set[Path] = set()
    todo = [script]
    while todo:
        for module in referenced_modules(str(todo.pop())):
            parts = module.split(".")
            for k in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__.py and a/b/__init__.py too
                source = source_of(".".join(parts[:k]), package_dir)
                if source and source not in seen:
                    seen.add(source)
                    todo.append(source)
    return sorted(seen)
