"""Which package sources a pipeline job runs, so a job reruns when, and only when, its own code changes.

A rule's code is what its script imports from ``humeval``, followed transitively through the package (read
with :mod:`ast`, nothing imported), plus the registered modules the study's config names (its loaders,
metrics, QRA types): editing ``figures.py`` reruns only figure jobs, editing a loader only the studies that
use it. A name imported from a module brings that module's top-level imports and the imports inside that
function (and the module's functions it calls); a module imported whole brings all of its imports.

>>> sorted(Path(f).name for f in module_files(["humeval.rounding"]))
['__init__.py', 'errors.py', 'rounding.py']
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = "humeval"
ROOT = Path(__file__).resolve().parent
Import = tuple[str, "tuple[str, ...] | None"]  # (module, names taken from it; None = the whole module)


@cache
def module_origin(module: str) -> str | None:
    """The source file of a ``humeval`` module, found on disk (nothing is imported)."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    base = ROOT.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return str(candidate)
    return None


@cache
def parsed_source(path: str) -> tuple[ast.Module, str]:
    """A package source file parsed with :mod:`ast`, and its text: parsed once per process, whether for its
    imports (here) or its registries and signatures (:mod:`humeval.vocabulary`)."""
    source = Path(path).read_text()
    return ast.parse(source), source


def _humeval_imports(nodes) -> list[tuple[str, tuple[str, ...]]]:
    """(module, names) of every ``humeval`` import among ``nodes`` and their children."""
    found = []
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == PACKAGE:
                found.append((node.module, tuple(a.name for a in node.names)))
            elif isinstance(node, ast.Import):
                found += [(a.name, ()) for a in node.names if a.name.split(".")[0] == PACKAGE]
    return found


@cache
def _imports(path: str, names: tuple[str, ...] | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The ``humeval`` imports that taking ``names`` from a source file brings (all of them for None)."""
    tree, _ = parsed_source(path)
    if names is None:
        return tuple(_humeval_imports([tree]))
    definitions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    top = [n for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    wanted, todo = set(), [n for n in names if n in definitions]
    while todo:
        name = todo.pop()
        if name not in wanted:
            wanted.add(name)
            todo += [
                call.func.id
                for call in ast.walk(definitions[name])
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in definitions
            ]
    return tuple(_humeval_imports(top + [definitions[n] for n in sorted(wanted)]))


def _closure(start: list[Import]) -> list[str]:
    """Source files reached from ``start``, transitively; parent packages count with their top level."""
    seen: set[Import] = set()
    files: set[str] = set()
    todo = list(start)
    while todo:
        module, names = todo.pop()
        if (module, names) in seen:
            continue
        seen.add((module, names))
        parts = module.split(".")
        todo += [(".".join(parts[: k + 1]), ()) for k in range(len(parts) - 1)]
        origin = module_origin(module)
        if origin is None:
            continue
        files.add(origin)
        for imported, imported_names in _imports(origin, names):
            submodules = tuple(n for n in imported_names if module_origin(f"{imported}.{n}"))
            todo += [(f"{imported}.{n}", None) for n in submodules]
            todo.append((imported, tuple(n for n in imported_names if n not in submodules)))
    return sorted(files)


def module_files(modules: list[str]) -> list[str]:
    """The source files of ``modules`` (whole) and of every ``humeval`` module they import, sorted."""
    return _closure([(m, None) for m in modules])


@cache
def script_files(script: str | Path, extra_modules: tuple[str, ...] = ()) -> list[str]:
    """The package sources a pipeline script runs: what it imports (by name), transitively, and the
    ``extra_modules`` (the registered modules its study names) whole."""
    imported = _humeval_imports([ast.parse(Path(script).read_text())])
    start: list[Import] = [(m, None) for m in extra_modules]
    for module, names in imported:
        submodules = tuple(n for n in names if module_origin(f"{module}.{n}"))
        start += [(f"{module}.{n}", None) for n in submodules]
        start.append((module, tuple(n for n in names if n not in submodules)))
    return _closure(start)


def study_modules(stage: str, study: dict) -> list[str]:
    """The registered modules a stage runs for this study: loaders (extract), metrics (metrics), QRA types
    (qra)."""
    from humeval.vocabulary import registry

    if stage == "extract":
        loaders = registry("humeval.loaders", "LOADERS")
        return [loaders[e["loader"]] for e in study.get("extract", [])]
    if stage == "metrics":
        metrics = registry("humeval.metrics", "METRICS")
        return [metrics[m["metric"]].split(":")[0] for m in study.get("metrics", [])]
    if stage == "qra":
        types = registry("humeval.qra", "QRA_TYPES")
        modules = [types[e["type"]].split(":")[0] for e in study.get("qra", [])]
        return modules + (["humeval.qra.qra3_tables"] if study.get("qra3") else [])
    return []
