"""The configuration vocabulary read from the code itself: every registered loader, metric, exclusion, QRA
type and figure kind with its parameters (name, type, default, required) and its docstring.

Read with :mod:`ast` from the source files, so validating a study config before any job runs imports no
metric library, and the generated docs (``docs/metrics.md``, ``docs/loaders.md``; ``tools/gendocs.py``)
cannot drift from the code. Functions with keyword parameters (metrics, exclusions) are read from their
signatures; functions that take a ``params``/``spec`` dict (loaders, figure kinds) from the keys their
module reads (``params["x"]`` is required, ``params.get("x", default)`` optional).
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PACKAGE = "humeval"
ROOT = Path(__file__).resolve().parent


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
    """A package source file parsed with :mod:`ast`, and its text (parsed once per process)."""
    source = Path(path).read_text()
    return ast.parse(source), source


@dataclass(frozen=True)
class Parameter:
    name: str
    annotation: str = ""
    default: str | None = None  # source text of the default; None when required

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True)
class Entry:
    """One registered name: where it lives, its parameters and its docstring."""

    name: str
    target: str
    parameters: tuple[Parameter, ...]
    doc: str

    def names(self) -> list[str]:
        return [p.name for p in self.parameters]


@cache
def _module_tree(module: str) -> tuple[ast.Module, str]:
    origin = module_origin(module)  # found on disk: find_spec would import the parent packages (and pandas)
    if origin is None:
        raise ModuleNotFoundError(module)
    return parsed_source(origin)


@cache
def registry(module: str, variable: str) -> dict[str, str]:
    """A registry dict of ``module`` read from its source, nothing imported: ``{name: target}``, the target
    as written (a ``"module:function"`` or module string) or, for a function object, ``"module:function"``.

    >>> registry("humeval.exclusions", "EXCLUSIONS")["missing_value"]
    'humeval.exclusions:missing_value'
    """
    tree, _ = _module_tree(module)
    for node in tree.body:
        target = (
            node.target
            if isinstance(node, ast.AnnAssign)
            else (node.targets[0] if isinstance(node, ast.Assign) else None)
        )
        if isinstance(target, ast.Name) and target.id == variable and isinstance(node.value, ast.Dict):
            return {
                key.value: value.value if isinstance(value, ast.Constant) else f"{module}:{value.id}"
                for key, value in zip(node.value.keys, node.value.values)
            }
    raise AttributeError(f"{module} has no registry dict {variable}")


def _function(module: str, function: str) -> ast.FunctionDef:
    tree, _ = _module_tree(module)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return node
    raise AttributeError(f"{module} has no function {function}")


def signature_parameters(module: str, function: str, skip: tuple[str, ...] = ("data",)) -> tuple[Parameter, ...]:
    """The named parameters of ``module.function`` (positional and keyword-only), defaults as source text."""
    node = _function(module, function)
    args = node.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    return tuple(
        Parameter(a.arg, ast.unparse(a.annotation) if a.annotation else "", None if d is None else ast.unparse(d))
        for a, d in pairs
        if a.arg not in skip
    )


def _keys_read(nodes, variable: str) -> tuple[Parameter, ...]:
    """The keys read from the dict named ``variable`` among ``nodes``: ``variable["k"]`` is required unless the
    key is also read with ``variable.get("k", default)`` or guarded by ``"k" in variable``, in order of use."""
    found: dict[str, str | None] = {}
    required: set[str] = set()
    for root in nodes:
        for node in ast.walk(root):
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Name)
                and node.value.id == variable
                and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, str)
            ):
                found.setdefault(node.slice.value, None)
                required.add(node.slice.value)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == variable
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found[node.args[0].value] = ast.unparse(node.args[1]) if len(node.args) > 1 else "None"
            elif (
                isinstance(node, ast.Compare)
                and isinstance(node.left, ast.Constant)
                and isinstance(node.ops[0], ast.In)
                and isinstance(node.comparators[0], ast.Name)
                and node.comparators[0].id == variable
            ):
                required.discard(node.left.value)
                if found.get(node.left.value) is None:
                    found[node.left.value] = "None"
    positions = {}
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Constant) and node.value in found and node.value not in positions:
                positions[node.value] = (node.lineno, node.col_offset)
    ordered = sorted(found, key=lambda k: positions.get(k, (10**9, 0)))
    return tuple(Parameter(k, "", None if (k in required and found[k] is None) else found[k]) for k in ordered)


def dict_keys_read(module: str, variable: str) -> tuple[Parameter, ...]:
    """The keys a module reads from the dict named ``variable`` (loaders: ``params``)."""
    tree, _ = _module_tree(module)
    return _keys_read([tree], variable)


def docstring(module: str, function: str | None = None) -> str:
    tree, _ = _module_tree(module)
    return ast.get_docstring(_function(module, function) if function else tree) or ""


@cache
def metric_entries() -> dict[str, Entry]:
    out = {}
    for name, target in registry("humeval.metrics", "METRICS").items():
        module, function = target.split(":")
        out[name] = Entry(name, target, signature_parameters(module, function), docstring(module, function))
    return out


@cache
def loader_entries() -> dict[str, Entry]:
    return {
        name: Entry(name, module, dict_keys_read(module, "params"), docstring(module))
        for name, module in registry("humeval.loaders", "LOADERS").items()
    }


@cache
def exclusion_entries() -> dict[str, Entry]:
    out = {}
    for name, target in registry("humeval.exclusions", "EXCLUSIONS").items():
        function = target.split(":")[1]
        parameters = signature_parameters("humeval.exclusions", function, skip=("judgements", "participants"))
        out[name] = Entry(name, target, parameters, docstring("humeval.exclusions", function))
    return out


@cache
def figure_entries() -> dict[str, Entry]:
    out = {}
    for name, target in registry("humeval.figures", "KINDS").items():
        function = target.split(":")[1]
        parameters = _function_dict_keys("humeval.figures", function, "spec")
        out[name] = Entry(name, target, parameters, docstring("humeval.figures", function))
    return out


def _function_dict_keys(module: str, function: str, variable: str) -> tuple[Parameter, ...]:
    """Like :func:`dict_keys_read`, within one function (and the functions nested in it)."""
    return _keys_read([_function(module, function)], variable)


def unknown_keys(given: dict, allowed: list[str], key_path: str) -> str | None:
    """A message for the first key of ``given`` that is not ``allowed`` (with a close match when there is
    one), or None when every key is known.

    >>> unknown_keys({"score_colum": 1}, ["score_column", "level"], "metrics.0")
    "key metrics.0.score_colum: unknown parameter; did you mean 'score_column'? (allowed: level, score_column)"
    """
    for key in given:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}? " if close else ""
            where = f"{key_path}.{key}" if key_path else str(key)
            return f"key {where}: unknown parameter; {hint}(allowed: {', '.join(sorted(allowed))})"
    return None


def missing_keys(given: dict, entry: Entry, key_path: str, provided: tuple[str, ...] = ()) -> str | None:
    """A message naming the required parameters of ``entry`` that ``given`` lacks, or None."""
    missing = [p.name for p in entry.parameters if p.required and p.name not in given and p.name not in provided]
    if missing:
        return f"key {key_path}: {entry.name} needs parameter(s) {missing}"
    return None
