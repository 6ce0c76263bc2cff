"""The configuration vocabulary: every loader, metric, exclusion, QRA type and figure kind a study config may
name, one calling convention for all of them, and one way to read it.

A function joins the vocabulary with :func:`register`. Its positional parameters are what the pipeline hands
it (the judgements, the audit, the raw files); its keyword-only parameters are what a config entry may give,
each with a type hint and a numpydoc ``Parameters`` entry saying what it means; its ``Returns`` section says
what it writes (after pingouin)::

    @register("metric", "pairwise_tally")
    def pairwise_tally_numbers(data: StudyData, *, table: str, stats: list[TallyStat] = TALLY_STATS) -> pd.DataFrame:
        '''Wins, losses and ties per system ...

        Parameters
        ----------
        table : str
            The table the cells go to.
        ...

        Returns
        -------
        DataFrame
            Cells (table, row, column, value): ...
        '''

The registrations, signatures and docstrings are read from the source with :mod:`ast`, nothing imported, so
validating a study config in Snakemake's own process pays for no metric library, and the generated docs
(``python tools/gendocs.py``) and the validation cannot drift from the code: an entry's unknown key, missing
key, a text where a list is expected or a value outside a ``Literal`` stops ``snakemake -n`` with the key.

What reading the source saves, measured (docs/performance.md): building the whole registry this way takes 0.08 s
in a fresh interpreter, importing every package module to find the registrations 0.29 s (three runs each, 2-core
machine, heavy libraries imported lazily in both): 0.21 s of every Snakemake start, which validates every study
before the first job.
"""

from __future__ import annotations

import ast
import difflib
import importlib
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

__all__ = [
    "KINDS",
    "SCIENCE",
    "SHARED_PARAMETERS",
    "Entry",
    "check_entry",
    "constant",
    "entries",
    "function",
    "module_node",
    "register",
    "unknown_keys",
    "wrong_type",
]

PACKAGE = "humeval"
ROOT = Path(__file__).resolve().parents[1]  # the package, humeval/: every registered function is in it

#: Each kind of registered function: the config section that names it and the key naming it there.
#: The numpydoc sections that carry a registered function's science, as pingouin and scipy write them: its formula
#: (``Notes``), its papers (``References``) and doctested ``Examples``; the generated docs show the first two.
SCIENCE = ("Notes", "References", "Examples")
KINDS = {
    "loader": ("extract", "loader"),
    "metric": ("metrics", "metric"),
    "exclusion": ("exclusions", "exclusion"),
    "qra": ("qra", "type"),
    "figure": ("figures", "kind"),
}

#: The parameters that registered functions of a kind share, documented once: where a function's numpydoc
#: ``Parameters`` leave one out, its meaning is this (the generated docs, docs/metrics.md and docs/loaders.md,
#: show it in every function's table). A function whose parameter means something else documents its own.
SHARED_PARAMETERS = {
    "metric": {
        "table": "The table the cells go to.",
        "by": "The columns whose values make a group.",
        "where": (
            "``{column: value or [values]}``: the judgements kept, compared by type (a value no judgement holds is "
            "an error)."
        ),
        "frame": "The judgements read: ``kept`` (after the exclusions) or ``tidy`` (every judgement).",
        "variant": "An exclusion variant (a sensitivity analysis) whose drops apply too.",
        "labels": "``{key: {value: label}}``: how a key's value is shown in the row and column templates.",
        "side": "The side whose ratings are read.",
        "conditions": "The survey conditions (``Likert``, ``RME``, ``BME``, ``BWS``), one column (or row) each.",
        # Finch et al.'s evaluator-group metrics
        "sampler": (
            "How one annotation per item and group is chosen where there are two: ``{name: authors, seed}`` (the "
            "authors' seeded draw, ``random.Random(seed)``) or ``{name: first}``."
        ),
        "criteria": "Criterion (the tidy label) -> its column label (``{consistent: Con}``).",
        "mode_sides": (
            '``"<condition>|<criterion>"`` -> the side whose per-item modes stand in for ``side``\'s (the authors '
            "computed one from the original data, say)."
        ),
    },
    "loader": {  # the survey loaders' (one condition of Santhanam & Shaikh's designs per export)
        "condition": "The survey condition (tidy ``condition``; a condition's participants are its own).",
        "design": (
            "What a cell holds: a Likert rating, a magnitude estimate or a best-worst rank (tidy ``response_type`` "
            "``rating``, ``magnitude`` or ``rank``)."
        ),
        "contexts": "The contexts (blocks) of the survey.",
        "responses": "The responses rated per context.",
        "layout": (
            "The order of a block's item columns: each response's criteria in turn, or all responses per criterion."
        ),
        "criteria": (
            "The criteria of each response, in column order; each item column's question text must name its own."
        ),
        "criterion_spellings": "More accepted spellings per criterion in the question texts (``{coherence: [cohernce]}``).",
        "scale": "``[low, high]``: a value outside is an error naming the row and column. Default: no check.",
    },
    "exclusion": {"reason": "The reason logged (what matched is added)."},
    "qra": {"table": "The table the results go to."},
    "figure": {"title": "The figure title."},
}


def register(kind: str, name: str, *, renamed: dict[str, str] | None = None):
    """Register the decorated function as ``name`` among the ``kind`` functions (:data:`KINDS`) a study config
    may name. ``renamed`` maps a parameter's former name to its name now: a config that still gives the former
    gets one line saying what to rename. The registration is read from the source (:func:`entries`); at run
    time the decorator only checks its arguments and returns the function unchanged."""
    if kind not in KINDS:
        raise ValueError(f"register: unknown kind {kind!r} ({sorted(KINDS)})")

    def mark(function):
        return function

    return mark


@dataclass(frozen=True)
class Parameter:
    """One keyword-only parameter: its name, type hint and default as source text (``default`` None when
    required), the default's value where it names a constant, its meaning (the docstring) and the values
    it allows (a ``Literal`` hint, directly or in a list)."""

    name: str
    annotation: str = ""
    default: str | None = None
    value: str | None = None
    meaning: str = ""
    allowed: tuple | None = None

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True)
class Entry:
    """One registered name: its kind, where it lives, its config parameters, its summary and what it returns."""

    kind: str
    name: str
    module: str
    function: str
    parameters: tuple[Parameter, ...]
    doc: str
    returns: str
    documented: frozenset[str]
    renamed: dict[str, str]
    #: Its numpydoc ``Notes`` (the formula), ``References`` (the papers) and ``Examples`` (doctested), by title.
    science: dict[str, str] = field(default_factory=dict)

    @property
    def target(self) -> str:
        return f"{self.module}:{self.function}"

    def names(self) -> list[str]:
        return [p.name for p in self.parameters]


@cache
def parsed_source(path: str) -> ast.Module:
    """A package source file parsed with :mod:`ast` (parsed once per process)."""
    return ast.parse(Path(path).read_text())


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join((PACKAGE, *(parts[:-1] if parts[-1] == "__init__" else parts)))


def module_path(module: str) -> Path:
    base = ROOT.joinpath(*module.split(".")[1:])
    return base / "__init__.py" if (base / "__init__.py").is_file() else base.with_suffix(".py")


def registration(node: ast.AST) -> tuple[str, str, dict] | None:
    """``(kind, name, renamed)`` of a function decorated ``@register(kind, name, renamed=...)``, else None."""
    for decorator in getattr(node, "decorator_list", []):
        if (
            isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Name)
            and decorator.func.id == "register"
            and len(decorator.args) == 2
            and all(isinstance(a, ast.Constant) for a in decorator.args)
        ):
            keywords = {k.arg: ast.literal_eval(k.value) for k in decorator.keywords}
            return decorator.args[0].value, decorator.args[1].value, keywords.get("renamed") or {}
    return None


@cache
def package_sources() -> dict[Path, str]:
    """The text of every package source file that calls ``register(``, by path (read once per process)."""
    texts = {path: path.read_text() for path in sorted(ROOT.rglob("*.py"))}
    return {path: text for path, text in texts.items() if "register(" in text}


@cache
def entries(kind: str) -> dict[str, Entry]:
    """The registered functions of ``kind`` (:data:`KINDS`), by name, read from the source files.

    Only the files whose text names the kind in quotes are parsed: a job looks up one kind, and parsing every
    registering file (447 kB) took 0.32 CPU s in each of the 54 of a cold run's 83 jobs that look one up; the metric kind's
    files are 241 kB, the loaders' 122 kB and each other kind's 24-34 kB. A registration must name its kind as a
    text (:func:`registration`), so a file that does not holds none of the kind."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} ({sorted(KINDS)})")
    found: dict[str, Entry] = {}
    for path, text in package_sources().items():
        if f'"{kind}"' not in text and f"'{kind}'" not in text:
            continue
        module = module_name(path)
        for node in parsed_source(str(path)).body:
            marked = registration(node) if isinstance(node, ast.FunctionDef) else None
            if marked and marked[0] == kind:
                _, name, renamed = marked
                if name in found:
                    raise ValueError(f"{kind} {name!r} is registered twice ({found[name].target}, {module})")
                found[name] = entry_of(kind, name, module, node, renamed)
    return found


def function(kind: str, name: str):
    """The registered function itself (its module imported now, and only it)."""
    from humeval.errors import HumevalError

    known = entries(kind)
    if name not in known:
        raise HumevalError(f"unknown {kind} {name!r}; known: {sorted(known)}")
    return getattr(importlib.import_module(known[name].module), known[name].function)


def entry_of(kind: str, name: str, module: str, node: ast.FunctionDef, renamed: dict[str, str]) -> Entry:
    doc = ast.get_docstring(node) or ""
    summary, sections = numpydoc_sections(doc)
    meanings = parameter_meanings(sections.get("Parameters", ""))
    args = node.args
    parameters = []
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        annotation = ast.unparse(arg.annotation) if arg.annotation else ""
        default_text = None if default is None else ast.unparse(default)
        value = None
        if isinstance(default, ast.Name):  # a named constant: show its value
            resolved = constant(module, default.id)
            value = None if resolved is None else repr(resolved)
        parameters.append(
            Parameter(
                arg.arg,
                annotation,
                default_text,
                value,
                meanings.get(arg.arg) or SHARED_PARAMETERS[kind].get(arg.arg, ""),
                allowed_values(arg.annotation, module),
            )
        )
    returns = sections.get("Returns", "")
    science = {title: sections[title] for title in SCIENCE if title in sections}
    return Entry(
        kind, name, module, node.name, tuple(parameters), summary, returns, frozenset(meanings), renamed, science
    )


def numpydoc_sections(doc: str) -> tuple[str, dict[str, str]]:
    """A numpydoc docstring's text before its first section, and each section's body by title.

    >>> numpydoc_sections("Sum.\\n\\nParameters\\n----------\\nx : int\\n    A number.\\n")
    ('Sum.', {'Parameters': 'x : int\\n    A number.'})
    """
    lines = doc.splitlines()
    starts = [k for k in range(len(lines) - 1) if lines[k].strip() and re.fullmatch(r"-{3,}", lines[k + 1].strip())]
    summary = "\n".join(lines[: starts[0]] if starts else lines).strip()
    sections = {}
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        sections[lines[start].strip()] = "\n".join(lines[start + 2 : end]).strip("\n")
    return summary, sections


def parameter_meanings(section: str) -> dict[str, str]:
    """``{name: meaning}`` from a numpydoc ``Parameters`` body; ``a, b : type`` documents both names."""
    meanings: dict[str, str] = {}
    names: list[str] = []
    for line in section.splitlines():
        if line and not line[0].isspace():
            names = [n.strip() for n in line.split(":")[0].split(",")]
            for n in names:
                meanings[n] = ""
        elif names:
            for n in names:
                meanings[n] = (meanings[n] + " " + line.strip()).strip()
    return meanings


def module_node(module: str) -> ast.Module:
    return parsed_source(str(module_path(module)))


def definition(module: str, name: str) -> tuple[str, ast.AST] | None:
    """The expression a module-level ``name`` is assigned, and the module it is in (following
    ``from humeval.x import name``), or None."""
    for node in module_node(module).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return module, node.value
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return (module, node.value) if node.value is not None else None
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    return definition(node.module, alias.name)
    return None


def constant(module: str, name: str):
    """The value of the module-level constant ``name`` (a literal, or ``get_args`` of a ``Literal`` alias)."""
    found = definition(module, name)
    if found is None:
        return None
    where, node = found
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "get_args" and node.args:
        return allowed_values(node.args[0], where)
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def literal_values(node: ast.AST | None, module: str) -> tuple | None:
    """The values of a ``Literal[...]`` hint, following a module-level alias, or None."""
    if isinstance(node, ast.Name):
        found = definition(module, node.id)
        return literal_values(found[1], found[0]) if found else None
    if isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == "Literal":
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return tuple(ast.literal_eval(item) for item in items)
    return None


def allowed_values(node: ast.AST | None, module: str) -> tuple | None:
    """The values a hint allows: ``Literal[...]``, a list of one, or either ``| None``."""
    if node is None:
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return allowed_values(node.left, module) or allowed_values(node.right, module)
    if isinstance(node, ast.Subscript) and getattr(node.value, "id", "") in ("list", "tuple"):
        return literal_values(node.slice, module)
    return literal_values(node, module)


def conforms(node: ast.AST | None, value, module: str) -> bool:
    """Whether a config value (parsed YAML) fits a type hint: ``str``, ``int``, ``float``, ``bool``, ``dict``,
    ``list`` (YAML has no tuple), ``list[X]``, ``dict[K, V]``, ``Literal[...]``, ``X | Y``, ``None``, or an alias
    of one; a hint it cannot read (a class) accepts anything.

    >>> conforms(ast.parse("list[str] | None", mode="eval").body, ["a"], "humeval.config.registry")
    True
    """
    if node is None:
        return True
    if isinstance(node, ast.Constant) and node.value is None:
        return value is None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return conforms(node.left, value, module) or conforms(node.right, value, module)
    if isinstance(node, ast.Name):
        simple = {
            "str": lambda v: isinstance(v, str),
            "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
            "bool": lambda v: isinstance(v, bool),
            "dict": lambda v: isinstance(v, dict),
            "list": lambda v: isinstance(v, list),
            "tuple": lambda v: isinstance(v, list),
        }
        if node.id in simple:
            return simple[node.id](value)
        found = definition(module, node.id)
        return conforms(found[1], value, found[0]) if found else True
    if isinstance(node, ast.Subscript):
        base = getattr(node.value, "id", "")
        if base == "Literal":
            return value in literal_values(node, module)
        if base in ("list", "tuple"):
            item = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) else node.slice
            return isinstance(value, list) and all(conforms(item, v, module) for v in value)
        if base == "dict":
            return isinstance(value, dict) and all(conforms(node.slice.elts[1], v, module) for v in value.values())
    return True


def wrong_type(entry: Entry, given: dict, key_path: str, also: dict[str, set] | None = None) -> str | None:
    """A message for the first given value that does not fit its parameter's type hint, or None.

    A text where a list is expected would be read letter by letter (``item: _unit_id`` looks for a column
    ``_``): the message shows the list to write. ``also`` names more values a hint's alias allows in this study
    (``{"Frame": <the study's derived frames>}``).
    """
    for parameter in entry.parameters:
        if parameter.name not in given:
            continue
        value = given[parameter.name]
        if isinstance(value, str) and any(
            value in v for alias, v in (also or {}).items() if alias in parameter.annotation
        ):
            continue
        node = ast.parse(parameter.annotation, mode="eval").body if parameter.annotation else None
        if conforms(node, value, entry.module):
            continue
        where = f"key {key_path}.{parameter.name}"
        as_list = isinstance(value, str) and conforms(node, [value], entry.module)
        if parameter.allowed:  # the hint's values and the study's own (its derived frames for a Frame)
            allowed = [
                *parameter.allowed,
                *sorted(v for a, vs in (also or {}).items() if a in parameter.annotation for v in vs),
            ]
            if not as_list or value not in allowed:
                either = " or a list" if as_list else ""
                return f"{where}: {value!r} is not allowed; allowed: {allowed}{either}"
        if as_list:
            return f"{where}: expected a list, e.g. [{value}], not the text {value!r}"
        return f"{where}: expected {parameter.annotation}, not {type(value).__name__} {value!r}"
    return None


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


def missing_keys(given: dict, entry: Entry, key_path: str) -> str | None:
    """A message naming the required parameters of ``entry`` that ``given`` lacks, or None."""
    missing = [p.name for p in entry.parameters if p.required and p.name not in given]
    if missing:
        return f"key {key_path}: {entry.name} needs parameter(s) {missing}"
    return None


def check_entry(entry: Entry, given: dict, key_path: str, also: dict[str, set] | None = None) -> str | None:
    """The first problem of a config entry's parameters against the registered signature, or None (``also``:
    :func:`wrong_type`)."""
    for old, new in entry.renamed.items():
        if old in given:
            return f"key {key_path}.{old}: renamed to {new!r} (same meaning): rename the key"
    return (
        unknown_keys(given, entry.names(), key_path)
        or missing_keys(given, entry, key_path)
        or wrong_type(entry, given, key_path, also)
    )
