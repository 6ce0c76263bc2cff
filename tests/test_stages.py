"""Each stage's job imports only what it uses, and its code inputs (humeval.stages) cover the code it runs.

- Every ``humeval`` module a stage's script reaches, through any import (at the top of a module or inside a
  function), and every module of the folders it lists, is among the stage's code inputs: an edit of the code a
  job runs always reruns it (a missed dependency would mean silently stale results).
- No package module imports a heavy library at its top level, so a job imports scipy, pingouin, krippendorff,
  matplotlib, textacy, openpyxl or statsmodels only when a function that calls it runs; and importing a stage's
  script loads none of them (checked in a fresh interpreter).
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO

from humeval.stages import PACKAGE_DIR, STAGE_CODE, stage_sources

SCRIPTS = REPO / "workflow/scripts"
HEAVY = ("scipy", "pingouin", "krippendorff", "matplotlib", "textacy", "spacy", "openpyxl", "statsmodels")


def humeval_imports(path: Path, top_level_only: bool = False) -> list[tuple[str, ast.AST]]:
    """(module, node) of every import in ``path``: ``from a.b import c`` gives a.b and a.b.c."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else ast.walk(tree)
    found = []
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.module, node)] + [(f"{node.module}.{a.name}", node) for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(a.name, node) for a in node.names]
    return found


def source_of(module: str) -> Path | None:
    parts = module.split(".")
    if parts[0] != "humeval":
        return None
    base = PACKAGE_DIR.joinpath(*parts[1:])
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def reached(starts: list[Path]) -> set[Path]:
    """Package sources reached from ``starts`` through every import, parent packages included."""
    seen, todo = set(), list(starts)
    while todo:
        for module, _ in humeval_imports(todo.pop()):
            parts = module.split(".")
            for k in range(1, len(parts) + 1):
                source = source_of(".".join(parts[:k]))
                if source and source not in seen:
                    seen.add(source)
                    todo.append(source)
    return seen


def test_every_stage_rule_has_a_script_and_code_inputs():
    import re

    rules = {
        name
        for p in (REPO / "workflow/rules").glob("*.smk")
        for name in re.findall(r"^rule (\w+):", p.read_text(), re.MULTILINE)
    }
    assert set(STAGE_CODE) | {"code_version"} == rules
    assert {p.stem for p in SCRIPTS.glob("*.py")} == rules


@pytest.mark.parametrize("stage", sorted(STAGE_CODE))
def test_a_stages_code_inputs_cover_every_module_it_reaches(stage):
    declared = set(stage_sources(stage))
    missing = reached([SCRIPTS / f"{stage}.py", *declared]) - declared
    assert not missing, f"{stage}: add to humeval.stages.STAGE_CODE: {sorted(str(p) for p in missing)}"


def test_every_module_of_figure_kinds_is_a_code_input_of_the_figures_stage():
    """The figures job finds a kind by name (the vocabulary), not by an import this test can follow: each module
    that registers a figure kind must be listed."""
    from humeval.config.registry import entries

    modules = {entry.target.split(":")[0] for entry in entries("figure").values()}
    listed = {str(p.relative_to(PACKAGE_DIR)) for p in stage_sources("figures")}
    assert {m.removeprefix("humeval.").replace(".", "/") + ".py" for m in modules} <= listed, modules


def test_no_package_module_imports_a_heavy_library_at_its_top_level():
    offenders = [
        f"{path.relative_to(PACKAGE_DIR)}:{node.lineno} {module}"
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
        for module, node in humeval_imports(path, top_level_only=True)
        if module.split(".")[0] in HEAVY
    ]
    assert not offenders, offenders


@pytest.mark.parametrize("stage", sorted(STAGE_CODE) + ["code_version"])
def test_importing_a_stages_script_loads_no_heavy_library(stage):
    imports = [ast.unparse(n) for n in ast.parse((SCRIPTS / f"{stage}.py").read_text()).body]
    imports = [line for line in imports if line.startswith(("import ", "from "))]
    probe = "\n".join(
        imports + [f"import sys; print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))"]
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", f"{stage} imports {result.stdout.strip()} before any of its code runs"
