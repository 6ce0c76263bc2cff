"""Loading and validating the main config and the study files before anything runs.

Schema errors name the file, the key path and what was expected; cross-reference checks catch what a
schema cannot (a loader or metric that is not registered, an input id that names no raw file, a
published cell in a table the study does not declare).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml

from humeval.aggregates import aggregate_cells
from humeval.config.cells import check_cells
from humeval.config.checks import (
    check_budgets,
    check_conditions,
    check_derived,
    check_experiments,
    check_figure_labels,
    check_findings_name_a_side,
    check_format_strings,
    check_id_as_value,
    check_parameters,
    check_qra3,
    check_rater_selection,
    check_tally_defaults,
)
from humeval.config.studyfile import SafeLoader, declare_qra3_tables, read_yaml
from humeval.errors import HumevalError
from humeval.patterns import check_patterns

__all__ = [
    "ARITHMETIC_OPERATIONS",
    "CHANGED_DEFAULTS",
    "MAX_PROBLEMS",
    "MAX_TEXT",
    "UNSAFE_CHARACTER",
    "changed_default_notices",
    "load_study",
    "pseudonym_notices",
    "schema",
    "schema_problem",
    "validate_against",
]


def schema_dir() -> Path:
    """The JSON Schemas: ``workflow/schemas`` beside the package in a clone (or an editable install), else the
    copy a non-editable install ships inside the package (``humeval/schemas``)."""
    here = Path(__file__).resolve().parents[1]  # the package, humeval/
    for candidate in (here.parent / "schemas", here / "schemas"):
        if (candidate / "study.schema.yaml").is_file():
            return candidate
    raise HumevalError(f"the JSON Schemas are missing beside {here} and inside it: reinstall humeval-repro")


SCHEMA_DIR = schema_dir()


@cache
def schema(name: str) -> dict:
    """The JSON Schema ``name`` of :data:`SCHEMA_DIR`, parsed once (``tools/gendocs.py`` documents its keys)."""
    with open(SCHEMA_DIR / name) as handle:
        return yaml.load(handle, Loader=SafeLoader)


@cache
def _validator(name: str):
    import jsonschema

    return jsonschema.Draft202012Validator(schema(name))


#: The most schema problems one refusal lists: a study file's problems arrive at once, not one run at a time.
MAX_PROBLEMS = 10


def validate_against(document: dict, schema_name: str, source: str) -> None:
    """Validate ``document`` against a schema of ``workflow/schemas``: every problem (up to :data:`MAX_PROBLEMS`)
    in one refusal, each naming its key and what was expected, in the file's key order."""
    validator = _validator(schema_name)
    errors = sorted(validator.iter_errors(document), key=lambda e: [(isinstance(p, str), p) for p in e.absolute_path])
    if errors:
        problems = list(dict.fromkeys(schema_problem(error) for error in errors))
        more = f"; and {len(problems) - MAX_PROBLEMS} more problem(s)" if len(problems) > MAX_PROBLEMS else ""
        lead = f"{len(problems)} problems: " if len(problems) > 1 else ""
        raise HumevalError(lead + "; ".join(problems[:MAX_PROBLEMS]) + more, file=source)


def schema_problem(error) -> str:
    """One schema error in words: the key, what is wrong and what the schema expects there."""
    key = ".".join(str(p) for p in error.absolute_path) or "(top level)"
    expected = error.schema.get("description", "")
    if error.validator == "anyOf" and all(set(option) == {"required"} for option in error.validator_value):
        names = " or ".join(repr(k) for option in error.validator_value for k in option["required"])
        return f"key {key}: needs {names}"
    if error.validator == "required":
        missing = next((k for k in error.validator_value if k not in error.instance), None)
        key = f"{key}.{missing}" if error.absolute_path else str(missing)
        expected = error.schema.get("properties", {}).get(missing, {}).get("description", "")
    if error.validator == "additionalProperties":
        from humeval.config.registry import unknown_keys

        allowed = list(error.schema.get("properties", {}))
        message = (
            unknown_keys(error.instance, allowed, ".".join(str(s) for s in error.absolute_path)) if allowed else None
        )
        if message:
            return message
    return f"key {key}: {error.message}" + (f". Expected: {expected}" if expected else "")


def check_raw(study: dict, source: str, fail) -> list[str]:
    """The file is named as the study, every raw URL is one the fetcher accepts, raw ids are unique; the ids."""
    from humeval.fetch import check_url

    if Path(source).stem != study["name"]:
        fail(f"key name: {study['name']!r} must equal the file name {Path(source).stem!r}")
    raw_ids = [r["id"] for r in study["raw"]]
    for k, entry in enumerate(study["raw"]):
        try:
            check_url(entry["url"])
        except HumevalError as exc:
            fail(f"key raw.{k}.url: {exc}")
    if len(set(raw_ids)) != len(raw_ids):
        fail(f"key raw: duplicated id(s) {sorted({i for i in raw_ids if raw_ids.count(i) > 1})}")
    return raw_ids


def check_raw_read(study: dict, fail) -> None:
    """Every pinned raw file is read by an extract entry, a datasheet or a published file, or is declared
    ``documentation`` (a task text kept for the reader): a file pinned and read by nothing passed silently, and a
    study whose judgements no extract read could look reproduced from its published numbers alone."""
    read = {raw_id for entry in study["extract"] for raw_id in entry["inputs"].values()}
    read |= {e["datasheet"] for e in study.get("experiments", []) if e.get("datasheet")}
    read |= {spec["raw"] for spec in study.get("published_files", [])}
    for k, entry in enumerate(study["raw"]):
        if entry["id"] not in read and not entry.get("documentation"):
            fail(
                f"key raw.{k} ({entry['id']}): no extract entry, datasheet or published file reads this pinned file: "
                "read it, or write documentation: true if it is kept for the reader"
            )


def check_finding_ids(study: dict, fail) -> None:
    """Findings are one namespace: the claims of every claims entry and the planning findings (a planning finding
    with a claim's id loaded and then crashed the summary job); each id names one finding."""
    seen = {}
    named = [
        (f"qra.{k}.claims.{c}", claim["id"])
        for k, entry in enumerate(study.get("qra", []))
        if entry.get("type") == "claims"
        for c, claim in enumerate(entry.get("claims", []))
    ]
    named += [
        (f"planning.findings.{f}", f_["id"]) for f, f_ in enumerate((study.get("planning") or {}).get("findings", []))
    ]
    for key, finding in named:
        if str(finding) in seen:
            fail(
                f"key {key}.id: {finding!r} is also the id of {seen[str(finding)]}: each finding needs an id of its own"
            )
        seen[str(finding)] = key
    planning = study.get("planning") or {}
    for section in ("effects", "components"):
        for finding in planning.get(section) or {}:
            if str(finding) not in seen:
                fail(
                    f"key planning.{section}.{finding}: no finding has the id {finding!r} (the claims' and planning "
                    f"findings' ids: {sorted(seen)})"
                )


def non_finite_numbers(node, key: str = "") -> list[str]:
    """The key paths of every number of a study file that is not finite (``.nan``, ``.inf``, or an integer too
    long for a double: 401 digits), at any depth."""
    import math

    if isinstance(node, dict):
        return [
            path
            for name, value in node.items()
            for path in non_finite_numbers(value, f"{key}.{name}" if key else str(name))
        ]
    if isinstance(node, list):
        return [path for k, value in enumerate(node) for path in non_finite_numbers(value, f"{key}.{k}")]
    if isinstance(node, bool) or not isinstance(node, (int, float)):
        return []
    try:
        return [] if math.isfinite(float(node)) else [key]
    except OverflowError:
        return [key]


#: The longest text a study file may hold in one key or value: a figure key of 400,000 characters took 270 s and
#: drew a 110 MB PNG; the longest description of the shipped and researchers' files is under 2,000.
MAX_TEXT = 10_000


#: Characters no study-file text may hold: C0 and C1 controls other than tab, newline and carriage return (which
#: the one CSV writer neutralises; test_hostile_pipeline.py carries them), and DEL: a terminal escape
#: ``ESC[31m`` or a bell reached the console, the logs and the report's data; and the bidirectional embeddings,
#: overrides and isolates (U+202A-U+202E, U+2066-U+2069), which make a label read otherwise than it is stored.
UNSAFE_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def text_problem(text: str) -> str | None:
    """Why a key or text of a study file is refused (too long, or an unsafe character), or None."""
    if len(text) > MAX_TEXT:
        return f"a key or text of a study file is at most {MAX_TEXT:,} characters"
    unsafe = UNSAFE_CHARACTER.search(text)
    if unsafe:
        return f"holds the control character U+{ord(unsafe.group()):04X}; a study file's text holds none"
    return None


def bad_texts(node, key: str = "") -> list[tuple[str, str]]:
    """(key path, why) for every key or text of a study file that :func:`text_problem` refuses."""
    if isinstance(node, dict):
        found = [
            (f"{key}.{name}"[:80] if key else str(name)[:80], why) for name in node if (why := text_problem(str(name)))
        ]
        return found + [
            item for name, value in node.items() for item in bad_texts(value, f"{key}.{name}" if key else str(name))
        ]
    if isinstance(node, list):
        return [item for k, value in enumerate(node) for item in bad_texts(value, f"{key}.{k}")]
    return [(key, why)] if isinstance(node, str) and (why := text_problem(node)) else []


def check_finite_numbers(study: dict, fail) -> None:
    """Every number of a study file is finite: ``.nan`` passes ``minimum: 0`` in a JSON schema and made every
    planned power 0.0, and a 401-digit integer overflows a double; and no key or text is longer than
    :data:`MAX_TEXT` characters or holds a control character (one line naming the key)."""
    for key in non_finite_numbers(study)[:1]:
        fail(f"key {key}: a number of a study file must be finite (not .nan, .inf or beyond a double's range)")
    for key, why in bad_texts(study)[:1]:
        fail(f"key {key[:120]}: {why}")


def check_extract(study: dict, raw_ids: list[str], loaders: dict, fail) -> None:
    """Each extract entry names a known loader, raw files by id, patterns RE2 accepts, and carries no column under
    a reserved name."""
    from humeval.config.registry import constant

    for k, entry in enumerate(study["extract"]):
        if entry["loader"] not in loaders:
            fail(f"key extract.{k}.loader: unknown loader {entry['loader']!r}; known: {sorted(loaders)}")
        for role, raw_id in entry["inputs"].items():
            if raw_id not in raw_ids:
                fail(f"key extract.{k}.inputs.{role}: {raw_id!r} is not the id of a raw file ({raw_ids})")
        check_patterns(entry.get("params", {}), f"extract.{k}.params", fail)
        if entry["loader"] == "tabular":
            reserved = constant("humeval.loaders.tabular", "RESERVED_CARRY")
            for name in entry.get("params", {}).get("carry", {}) or {}:
                if name in reserved:
                    fail(
                        f"key extract.{k}.params.carry.{name}: the name {name!r} is reserved ({reserved[name]}); carry it under another name"
                    )


def check_exclusions(study: dict, exclusions: dict, fail) -> None:
    """Each exclusion is known; ``complete_respondents`` (not a variant) has ``missing_value`` after it, which would
    otherwise drop the unanswered rows before it looks."""
    named = [entry["exclusion"] for entry in study.get("exclusions", []) if "variant" not in entry]
    for k, entry in enumerate(study.get("exclusions", [])):
        if entry["exclusion"] not in exclusions:
            fail(f"key exclusions.{k}.exclusion: unknown exclusion {entry['exclusion']!r}; known: {sorted(exclusions)}")
        if entry["exclusion"] != "complete_respondents" or "variant" in entry:  # a variant reads the tidy rows
            continue
        if "missing_value" not in named[named.index("complete_respondents") :]:
            fail(
                f"key exclusions.{k}: complete_respondents needs missing_value listed after it "
                "(add {exclusion: missing_value} below it), or a variant: name"
            )
    variants = sorted({entry["variant"] for entry in study.get("exclusions", []) if "variant" in entry})
    for key in ("derived", "metrics"):
        for k, entry in enumerate(study.get(key, [])):
            named = entry.get("variant", (entry.get("params") or {}).get("variant"))
            if named is not None and named not in variants:
                fail(f"key {key}.{k}.variant: {named!r} is not an exclusion variant of the study {variants}")


def check_table_references(study: dict, fail) -> None:
    """Table ids are unique, and every metric, QRA entry, published block, figure and printed count table names a
    declared table (or one a qra3 entry writes: a printed confidence interval of s*, say)."""
    from humeval.qra3_layout import declared_tables

    table_ids = [t["id"] for t in study["tables"]]
    if len(set(table_ids)) != len(table_ids):
        fail("key tables: duplicated table id")
    table_ids += [t["id"] for entry in study.get("qra3", []) for t in declared_tables(entry)]
    for key in ("metrics", "qra", "published", "figures", "published_aggregates"):
        for k, entry in enumerate(study.get(key, [])):
            if entry["table"] not in table_ids:
                fail(f"key {key}.{k}.table: {entry['table']!r} is not one of the study's tables {table_ids}")


def check_printed_numbers(study: dict, fail) -> None:
    """Every published cell is a number a double holds, as the published job will parse it
    (:func:`humeval.rounding.parse_published`): ``1e-400`` or ``1e999`` is one line at ``-n``, not a job's failure."""
    from humeval.rounding import parse_published

    for k, block in enumerate(study.get("published", [])):
        for row, columns in (block.get("cells") or {}).items():
            for column, cell in (columns or {}).items():
                try:
                    parse_published(cell["value"] if isinstance(cell, dict) else cell)
                except HumevalError as exc:
                    fail(f"key published.{k}.cells.{row}.{column}: {exc}")


#: The operations of ``cell_arithmetic`` (:data:`humeval.metrics.arithmetic.OPERATIONS`, which a test keeps equal;
#: not imported: validation runs in Snakemake's process, and that module imports pandas).
ARITHMETIC_OPERATIONS = ("+", "-", "*", "/")


def check_cell_arithmetic(study: dict, fail) -> None:
    """Each ``cell_arithmetic`` cell is a mapping ``{row, column, left, op, right}`` with ``op`` one of
    :data:`ARITHMETIC_OPERATIONS` and each operand a number or a cell ``{table, row, column}``: one line at ``-n``
    where the metrics job failed minutes later."""
    for k, entry in enumerate(study.get("metrics", [])):
        if entry.get("metric") != "cell_arithmetic":
            continue
        for c, cell in enumerate(entry.get("cells") or []):
            key = f"metrics.{k}.cells.{c}"
            if not isinstance(cell, dict):
                fail(f"key {key}: a cell is a mapping {{row, column, left, op, right}}, not {type(cell).__name__}")
            missing = [name for name in ("row", "column", "left", "op", "right") if name not in cell]
            if missing:
                fail(f"key {key}: the cell lacks {missing} (a cell is {{row, column, left, op, right}})")
            if not isinstance(cell["op"], str) or cell["op"] not in ARITHMETIC_OPERATIONS:
                fail(f"key {key}.op: {cell['op']!r} is not one of {list(ARITHMETIC_OPERATIONS)}")
            for side in ("left", "right"):
                operand = cell[side]
                number = isinstance(operand, (int, float)) and not isinstance(operand, bool)
                if not number and not (isinstance(operand, dict) and set(operand) == {"table", "row", "column"}):
                    fail(f"key {key}.{side}: an operand is a number or a cell {{table, row, column}}, not {operand!r}")


def check_references(study: dict, source: str) -> None:
    """Cross-reference checks a JSON schema cannot express, in the order a reader meets the keys; the first
    failure is one line naming the file and the key."""
    from humeval.config.registry import entries

    # the vocabulary is read from the source (nothing imported: validation runs in Snakemake's own process)
    EXCLUSIONS, KINDS, LOADERS, METRICS, QRA = (entries(k) for k in ("exclusion", "figure", "loader", "metric", "qra"))

    def fail(message: str) -> None:
        raise HumevalError(message, study=study["name"], file=source)

    raw_ids = check_raw(study, source, fail)
    check_experiments(study, fail)
    check_derived(study, fail)
    check_conditions(study, raw_ids, fail)
    check_figure_labels(study, fail)
    check_extract(study, raw_ids, LOADERS, fail)
    check_raw_read(study, fail)
    check_finite_numbers(study, fail)
    check_finding_ids(study, fail)
    check_exclusions(study, EXCLUSIONS, fail)
    for key, known, name, what in (("qra", QRA, "type", "QRA type"), ("metrics", METRICS, "metric", "metric")):
        for k, entry in enumerate(study.get(key, [])):
            if entry[name] not in known:
                fail(f"key {key}.{k}.{name}: unknown {what} {entry[name]!r}; known: {sorted(known)}")
    check_table_references(study, fail)
    check_printed_numbers(study, fail)
    check_cell_arithmetic(study, fail)
    for k, aggregate in enumerate(study.get("published_aggregates", [])):
        try:
            aggregate_cells(aggregate)
        except HumevalError as exc:
            fail(f"key published_aggregates.{k}: {exc}")
    for k, entry in enumerate(study.get("figures", [])):
        if entry["kind"] not in KINDS:
            fail(f"key figures.{k}.kind: unknown kind {entry['kind']!r}; known: {sorted(KINDS)}")
    check_parameters(study, fail)
    check_rater_selection(study, fail)
    check_id_as_value(study, fail)
    check_tally_defaults(study, fail)
    check_format_strings(study, fail)
    check_budgets(study, fail)
    check_findings_name_a_side(study, fail)


def load_study(path: str | Path) -> dict:
    """Read, schema-validate and cross-check one study file; return the study dict (with the tables its
    QRA3 entries write added to ``tables``)."""
    source = str(path)
    study = read_yaml(path)
    validate_against(study, "study.schema.yaml", source)
    check_references(study, source)

    def fail(message: str) -> None:
        raise HumevalError(message, study=study["name"], file=source)

    check_qra3(study, fail)
    declare_qra3_tables(study, fail)
    check_cells(study, fail)
    table_ids, raw_ids = {t["id"] for t in study["tables"]}, {r["id"] for r in study["raw"]}
    for k, spec in enumerate(study.get("published_files", [])):
        if spec["table"] not in table_ids:
            fail(
                f"key published_files.{k}.table: {spec['table']!r} is not one of the study's tables {sorted(table_ids)}"
            )
        if spec["raw"] not in raw_ids:
            fail(f"key published_files.{k}.raw: {spec['raw']!r} is not the id of a raw file {sorted(raw_ids)}")
    return study


#: Study-file defaults that changed after they shipped, as ``(key path, the default before, the default now, what
#: it sets)``: a study that leaves the key out gets one line at every start, ``snakemake -n`` included, saying what
#: to write for the numbers it had (DEVELOPERS.md: defaults never change under a user silently).
CHANGED_DEFAULTS = [("planning.simulations", 200, 1000, "the planning bootstrap's simulations per design")]


def where_clauses(node, key: str = "") -> list[tuple[str, dict]]:
    """Every ``where`` mapping of a study file, with its key path (``metrics.12.where``), at any depth."""
    found = []
    if isinstance(node, dict):
        for name, value in node.items():
            path = f"{key}.{name}" if key else str(name)
            if name == "where" and isinstance(value, dict):
                found.append((path, value))
            found += where_clauses(value, path)
    elif isinstance(node, list):
        for k, value in enumerate(node):
            found += where_clauses(value, f"{key}.{k}")
    return found


def pseudonym_notices(name: str, study: dict) -> list[str]:
    """One line per ``where`` that selects raters by pseudonym (``participant: [P4f825b63bb, ...]``): a pseudonym is
    keyed with the study's name and raw files, so a copy under another name, or one more raw file, selects no one
    (finch's Devx group emptied so). The numbers stay as they are; the line says what to write that does not
    change: the raters' ``rater_number`` (their order of first appearance in their side's export).

    >>> pseudonym_notices("s", {"metrics": [{"where": {"side": "O", "participant": ["Pab12cd34ef"]}}]})
    ['s: key metrics.0.where.participant selects raters by pseudonym, which changes with the study name and its raw files; write where: {rater_number: [...]} (raters numbered in order of first appearance) to keep the selection']
    """
    return [
        f"{name}: key {path}.participant selects raters by pseudonym, which changes with the study name and its raw "
        "files; write where: {rater_number: [...]} (raters numbered in order of first appearance) to keep the "
        "selection"
        for path, where in where_clauses(study)
        if "participant" in where
    ]


def changed_default_notices(name: str, study: dict, planning: bool = True) -> list[str]:
    """One line per default of :data:`CHANGED_DEFAULTS` that study ``name`` relies on (``planning``: whether the
    run plans at all), after one per rater selection by pseudonym (:func:`pseudonym_notices`).

    >>> changed_default_notices("s", {})
    ["s: planning.simulations is not stated: the planning bootstrap's simulations per design are now 1000 (were 200); write planning: {simulations: 200} for the former numbers"]
    >>> changed_default_notices("s", {"planning": {"simulations": 1000}})
    []
    """
    notices = pseudonym_notices(name, study)
    for path, before, now, what in CHANGED_DEFAULTS:
        section, key = path.split(".")
        if section == "planning" and not planning:
            continue
        if key not in (study.get(section) or {}):
            notices.append(
                f"{name}: {path} is not stated: {what} are now {now} (were {before}); write "
                f"{section}: {{{key}: {before}}} for the former numbers"
            )
    return notices
