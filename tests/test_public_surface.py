"""The package's public surface is marked and true: every module of ``humeval`` has an ``__all__`` of names it
defines, and every name the rest of the code (the package, the job scripts, the rules, the tests, the tools) takes
from a module is in that module's ``__all__`` (or is a submodule of a package): no reach past the surface."""

import ast
import re

from helpers import REPO

PACKAGE = REPO / "workflow/humeval"


def module_of(path):
    parts = list(path.relative_to(REPO / "workflow").with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_submodule(name: str) -> bool:
    path = REPO / "workflow" / name.replace(".", "/")
    return path.with_suffix(".py").is_file() or path.is_dir()


def declared() -> dict[str, tuple[list[str], set[str]]]:
    """Per module: its ``__all__`` and the names it defines (or imports) at the top level."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        names, defined = None, set()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == "__all__":
                        names = [ast.literal_eval(e) for e in node.value.elts]
                    elif isinstance(target, ast.Name):
                        defined.add(target.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                defined.add(node.target.id)
            elif isinstance(node, ast.ImportFrom):  # a package may re-export (humeval.HumevalError)
                defined.update(alias.asname or alias.name for alias in node.names)
        out[module_of(path)] = (names, defined)
    return out


def taken() -> list[tuple[str, str, str]]:
    """(module, name, where) of every name taken from a humeval module outside it: ``from m import name``, and
    ``alias.name`` where a submodule was imported as ``alias``."""
    out = []
    sources = [p for p in (REPO / "workflow").rglob("*.py") if ".ruff_cache" not in p.parts]
    sources += [*(REPO / "tests").rglob("*.py"), *(REPO / "tools").rglob("*.py")]
    for path in sources:
        tree = ast.parse(path.read_text())
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "humeval":
                for alias in node.names:
                    out.append((node.module, alias.name, str(path.relative_to(REPO))))
                    if is_submodule(f"{node.module}.{alias.name}"):
                        aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                out.append((aliases[node.value.id], node.attr, str(path.relative_to(REPO))))
    rules = [*(REPO / "workflow/rules").glob("*.smk"), REPO / "workflow/Snakefile", REPO / "Snakefile"]
    for path in rules:
        for match in re.finditer(r"from (humeval[\w.]*) import \(?([\w,\s]+?)\)?\n(?!\s)", path.read_text()):
            out += [(match.group(1), n, path.name) for n in re.split(r"[,\s]+", match.group(2)) if n]
    return out


def test_every_module_declares_what_it_defines():
    for module, (names, defined) in declared().items():
        assert names is not None, f"{module} has no __all__"
        assert set(names) <= defined, f"{module}.__all__ names what it does not define: {set(names) - defined}"


def test_nothing_takes_a_name_past_a_modules_surface():
    surface = declared()
    past = [
        f"{where}: {module}.{name}"
        for module, name, where in taken()
        if module in surface
        and not name.startswith("__")  # __version__, __doc__
        and not is_submodule(f"{module}.{name}")
        and name not in (surface[module][0] or [])
    ]
    assert not past, f"names taken past __all__ ({len(past)}): {past[:10]}"
