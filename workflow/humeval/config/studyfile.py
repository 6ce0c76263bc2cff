"""Reading a study file: strict YAML (a key given twice, an alias bomb or a file nested too deep is refused), the
raw files it pins, and the slice of it each job reads.

The workflow validates every study file before any job runs (:mod:`humeval.config.load`). A job's params carry only the
keys it reads and their digest (:func:`slice_param`), never config text; the job reads those keys from the file
itself and checks them against the digest (:func:`job_study`). This module imports nothing of the package but its
errors and the QRA3 table layout, so every job can read its study cheaply.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlparse

import yaml

from humeval.errors import HumevalError

__all__ = [
    "MAX_EXPANDED_NODES",
    "STAGE_KEYS",
    "VALIDATION_ONLY",
    "SafeLoader",
    "StudySlice",
    "declare_qra3_tables",
    "job_studies",
    "job_study",
    "note_of",
    "raw_filename",
    "raw_files",
    "read_yaml",
    "slice_param",
    "study_path",
    "study_slice",
]

#: The most YAML nodes a configuration file may expand to, aliases counted as often as they are used. The largest
#: study file here (santhanam) expands to 3,312; an alias bomb of 9 levels of 9 aliases to 490 million.
MAX_EXPANDED_NODES = 100_000


#: The deepest a configuration file may nest. The study files here nest at most 9 levels; the validation and every
#: reader after it recurse once per level, so a file thousands of levels deep is refused before them.
MAX_DEPTH = 64


def expanded_measures(root, measures: dict | None = None) -> tuple[int, int]:
    """``(size, depth)`` of a composed YAML node: how many nodes it stands for once every alias is written out,
    and how deeply it nests. Iterative (no recursion, whatever the depth) and memoised per node in ``measures``
    (linear in the file; a recursive alias counts once)."""
    measures = {} if measures is None else measures
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        children = node.value if isinstance(node.value, list) else []
        flat = [c for pair in children for c in (pair if isinstance(pair, tuple) else (pair,))]
        if done:
            known = [measures.get(id(c), (0, 0)) for c in flat]
            measures[id(node)] = (1 + sum(s for s, _ in known), 1 + max((d for _, d in known), default=0))
        elif id(node) not in measures:
            measures[id(node)] = (0, 0)  # while its children are measured: a recursive alias counts once
            stack.append((node, True))
            stack.extend((c, False) for c in flat if id(c) not in measures)
    return measures[id(root)]


def largest_key(root, measures: dict) -> str:
    r"""The key path (``metrics.3.pairs``) of the node that holds most of ``root``'s values (:func:`expanded_measures`'s
    ``measures``): from the top, into the largest child while it holds at least half of its parent, so that an
    oversized file names the list or alias that makes it so.

    >>> root = yaml.compose("a: 1\nb: {c: [1, 2, 3, 4, 5, 6]}")
    >>> measures = {}
    >>> expanded_measures(root, measures) and largest_key(root, measures)
    'b.c'
    """
    path, node = [], root
    while isinstance(node.value, list) and node.value:
        pairs = node.value if isinstance(node.value[0], tuple) else list(enumerate(node.value))
        label, child = max(pairs, key=lambda pair: measures.get(id(pair[1]), (0, 0))[0])
        if 2 * measures.get(id(child), (0, 0))[0] < measures[id(node)][0]:
            break
        path.append(str(label.value) if isinstance(label, yaml.Node) else str(label))
        node = child
    return ".".join(path) or "(the file)"


class Core12Resolver(yaml.resolver.BaseResolver):
    """YAML 1.2's core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution), built with PyYAML's public
    ``add_implicit_resolver`` on its empty ``BaseResolver``: booleans are only ``true``/``false`` (YAML 1.1, PyYAML's
    default, also reads ``on``, ``off``, ``yes`` and ``no``, so ``join: {on: item}`` held the key True); integers are
    decimal, ``0o`` octal or ``0x`` hex (1.1 read ``010`` as octal 8, ``1:20`` as base-60 80 and ``1_000`` as 1000);
    floats are read as PyYAML always read them (a point needed, so a printed ``1e-05`` stays the text a published
    number is), without underscores or base 60; there are no timestamps (a date stays text). Anything else is
    text."""


Core12Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
Core12Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789")
)
Core12Resolver.add_implicit_resolver(  # as PyYAML read floats (a point is needed: 1e-05 stays text), less _ and :
    "tag:yaml.org,2002:float",
    re.compile(
        r"^(?:[-+]?[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?|\.[0-9]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)
Core12Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)
Core12Resolver.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])


def construct_core12_int(loader, node) -> int:
    """A YAML 1.2 core integer: decimal (``010`` is ten), ``0o`` octal or ``0x`` hex."""
    text = loader.construct_scalar(node)
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text, 10)


#: libyaml's parser where PyYAML was built with it (the C reader, scanner, parser and composer in one), else
#: PyYAML's own; the loader below is the same either way.
if yaml.__with_libyaml__:
    from yaml.cyaml import CParser as _Parsing

    def _start_parsing(loader, stream):
        _Parsing.__init__(loader, stream)
else:  # pragma: no cover - PyYAML without libyaml

    class _Parsing(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer):
        pass

    def _start_parsing(loader, stream):
        yaml.reader.Reader.__init__(loader, stream)
        yaml.scanner.Scanner.__init__(loader)
        yaml.parser.Parser.__init__(loader)
        yaml.composer.Composer.__init__(loader)


class StrictLoader(_Parsing, yaml.constructor.SafeConstructor, Core12Resolver):
    """YAML's safe constructor with YAML 1.2 core scalars (:class:`Core12Resolver`), refusing a key given twice in
    one mapping (the last would silently win) and a file whose aliases (``*name``) expand it past
    :data:`MAX_EXPANDED_NODES` (an alias bomb: small on disk, it exhausts memory once anything walks it) or that
    nests past :data:`MAX_DEPTH`."""

    def __init__(self, stream):
        _start_parsing(self, stream)
        yaml.constructor.SafeConstructor.__init__(self)
        Core12Resolver.__init__(self)

    def get_single_data(self):
        node = self.get_single_node()
        if node is None:
            return None
        measures = {}
        size, depth = expanded_measures(node, measures)
        if depth > MAX_DEPTH:
            raise yaml.constructor.ConstructorError(
                None, None, f"it nests {depth:,} levels deep (at most {MAX_DEPTH})", node.start_mark
            )
        if size > MAX_EXPANDED_NODES:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"key {largest_key(node, measures)} holds {size:,} of its values, its aliases expanded (a study file "
                f"holds at most {MAX_EXPANDED_NODES:,})",
                node.start_mark,
            )
        return self.construct_document(node)

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen = {}
            for key_node, _ in node.value:
                key = key_node.value
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None,
                        None,
                        f"key {key!r} appears twice in one mapping (first on line {seen[key]})",
                        key_node.start_mark,
                    )
                seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep)


StrictLoader.add_constructor("tag:yaml.org,2002:int", construct_core12_int)
SafeLoader = StrictLoader


#: The largest configuration file read: the largest study file here is 45 kB; a file of hundreds of megabytes is
#: refused before the parser holds it in memory.
MAX_BYTES = 5_000_000


def read_yaml(path: str | Path) -> dict:
    """Parse a YAML file; a syntax error names the file and line; a file over :data:`MAX_BYTES`, nested past
    :data:`MAX_DEPTH` or expanding past :data:`MAX_EXPANDED_NODES` is one line."""
    try:
        if Path(path).stat().st_size > MAX_BYTES:
            raise HumevalError(f"larger than {MAX_BYTES:,} bytes: not a configuration file", file=str(path))
        with open(path) as handle:
            document = yaml.load(handle, Loader=SafeLoader)
    except FileNotFoundError:
        raise HumevalError("file not found", file=str(path)) from None
    except RecursionError:  # PyYAML without libyaml composes recursively
        raise HumevalError(f"not valid YAML: it nests more than {MAX_DEPTH} levels deep", file=str(path)) from None
    except yaml.YAMLError as exc:
        raise HumevalError(f"not valid YAML: {' '.join(str(exc).split())}", file=str(path)) from None
    if not isinstance(document, dict):
        raise HumevalError("expected a mapping at the top level", file=str(path))
    return document


def declare_qra3_tables(study: dict, fail) -> None:
    """Add the tables each ``qra3`` entry writes to the study's tables (ids must be new), and word the columns of
    each claims table (:func:`humeval.qra3_layout.claims_labels`) where the study's ``labels`` do not."""
    from humeval.qra3_layout import claims_labels, declared_tables

    known = {t["id"] for t in study["tables"]}
    for k, entry in enumerate(study.get("qra3", [])):
        for table in declared_tables(entry):
            if table["id"] in known:
                fail(f"key qra3.{k}.table: the table {table['id']!r} it writes is already declared under tables")
            known.add(table["id"])
            study["tables"].append(table)
    claims = {e.get("table") for e in study.get("qra", []) if isinstance(e, dict) and e.get("type") == "claims"}
    for table in study.get("tables", []):
        if isinstance(table, dict) and table.get("id") in claims and isinstance(table.get("columns"), list):
            table["labels"] = {**claims_labels(table["columns"]), **(table.get("labels") or {})}


def raw_filename(entry: dict) -> str:
    """Local file name of a raw input: ``<id><suffix of the URL path>`` (``database.db``)."""
    suffixes = PurePosixPath(unquote(urlparse(entry["url"]).path)).suffixes
    suffix = "".join(s for s in suffixes if len(s) <= 7 and s[1:].isalnum())
    return entry["id"] + suffix


def note_of(cell: dict, block: dict, row: str, column: str) -> str:
    """A published cell's diagnosis: its own note, else its block's where the block's note covers it. A block's
    ``explains`` ({rows?, columns?}) limits its note to those cells: a note written for one column's mismatch does
    not explain a later mismatch of another (issue 51); without it the note covers the whole block.

    >>> block = {"note": "SD with ddof 0", "explains": {"columns": ["sd"]}}
    >>> note_of({}, block, "A", "sd"), note_of({}, block, "A", "mean"), note_of({"note": "typo"}, block, "A", "mean")
    ('SD with ddof 0', '', 'typo')
    """
    if cell.get("note"):
        return cell["note"]
    scope = block.get("explains") or {}
    named = (("rows", row), ("columns", column))
    covered = all(str(label) in map(str, scope[key]) for key, label in named if key in scope)
    return block.get("note", "") if covered else ""


def raw_files(study: dict, ids: set[str] | None = None) -> list[dict]:
    """The study's pinned raw files (those in ``ids`` when given): id, url, sha256 or git_blob, optional and the
    local file name inside ``<raw_dir>/<study>/`` (:func:`raw_filename`)."""
    return [
        {
            "id": r["id"],
            "url": r["url"],
            "sha256": r.get("sha256"),
            "git_blob": r.get("git_blob"),
            "optional": r.get("optional", False),
            "filename": raw_filename(r),
        }
        for r in study["raw"]
        if ids is None or r["id"] in ids
    ]


def study_path(config: dict, name: str) -> Path:
    """The file of study ``name``: ``<study_dir>/<name>.yaml`` (``study_dir`` of the main config, relative to the
    working directory)."""
    return Path(config.get("study_dir") or "config/studies") / f"{name}.yaml"


#: The top-level study keys each stage's job reads: the one table from config to job. A rule's params carry the
#: digest of its stage's keys (``stage_slice`` in workflow/rules/common.smk) and the job gets exactly those keys
#: (:class:`StudySlice`): a job that reads a key its stage does not list fails at once, naming the stage and key,
#: instead of seeing the key as absent (derived frames once reached no metrics job that way). ``tests/test_stage_keys.py``
#: fails when a schema key reaches no stage and is not in :data:`VALIDATION_ONLY`.
STAGE_KEYS: dict[str, tuple[str, ...]] = {
    "fetch_raw": ("raw",),
    "published": ("published", "published_aggregates", "published_files", "raw"),
    "extract": ("raw", "extract"),
    "exclude": ("exclusions",),
    "metrics": ("metrics", "systems", "published_aggregates", "derived"),
    "qra": ("qra", "qra3", "experiments"),
    "tables": ("tables", "rounding", "experiments", "raw"),
    "figures": ("figures",),
    "planning": ("metrics", "systems", "published_aggregates", "derived", "qra", "planning", "experiments"),
    "summary": ("experiments", "qra", "qra3", "raw", "planning", "tables"),
}

#: Top-level study keys no job reads: they are checked before any job runs (:mod:`humeval.config.load`) or are there
#: for the people who read the file.
VALIDATION_ONLY = ("name", "title", "notes")


class StudySlice(dict):
    """The part of a study file one stage's job was given (:data:`STAGE_KEYS`). Reading a top-level key that the
    stage was not given is an internal error naming both, never an empty default: a key the stage lacks would
    otherwise look absent and its feature silently do nothing in a real run."""

    def __init__(self, parts: dict, keys: tuple[str, ...] | list[str], stage: str = "this stage"):
        super().__init__(parts)
        self.keys_given, self.stage = {"name", *keys}, stage

    def _given(self, key):
        if key not in self.keys_given:
            raise KeyError(
                f"{self.stage} reads the study key {key!r} but its rule does not pass it: add it to "
                f"humeval.config.studyfile.STAGE_KEYS[{self.stage!r}]"
            )

    def __getitem__(self, key):
        self._given(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._given(key)
        return super().get(key, default)

    def __contains__(self, key):
        self._given(key)
        return super().__contains__(key)


def study_slice(study: dict, keys: list[str]) -> dict:
    """The parts of a study config one job reads: ``name`` and ``keys`` (those the study has)."""
    return {k: study[k] for k in ("name", *keys) if k in study}


def slice_param(parts: dict, keys: list[str]) -> str:
    """What a job's params carry of the config: the keys it reads and the sha256 of their values (``name,raw
    sha256:...``), never the text. Snakemake reruns a job whose params changed, so editing a published number
    reruns the jobs that read it and no other; the report, which shows each job's params, holds no config text
    (a URL or label there cannot become markup). The job reads its slice itself (:func:`job_study`).

    >>> slice_param({"name": "s", "raw": []}, ["raw"])
    'raw sha256:b33691f3afb23239'
    """
    import hashlib

    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:16]
    return f"{','.join(keys)} sha256:{digest}"


def read_slice(config: dict, name: str, keys: list[str]) -> dict:
    """The ``keys`` of study ``name`` as its file holds them (parsed, QRA3 tables declared), without validation:
    :func:`job_study` checks them against the digest of what the workflow validated."""
    study = read_yaml(study_path(config, name))
    declare_qra3_tables(study, lambda message: None)
    return study_slice(study, keys)


def job_study(config: dict, name: str, param: str, stage: str = "this stage") -> StudySlice:
    """The slice of study ``name`` that a job's ``param`` (:func:`slice_param`) names, read from the study file,
    as a :class:`StudySlice` of ``stage``. Refused in one line when it is not the slice the workflow validated
    before any job ran (the file was edited after the run started)."""
    keys = param.split(" ")[0].split(",")
    part = StudySlice(read_slice(config, name, keys), keys, stage)
    if slice_param(part, keys) != param:
        raise HumevalError(
            f"the study file changed after this run started (keys {', '.join(keys)} differ from what was "
            "validated): run Snakemake again",
            file=str(study_path(config, name)),
        )
    return part


def job_studies(config: dict, names: list[str], param: str, stage: str = "summary") -> dict:
    """``{name: slice}`` of several studies (the summary job), checked as :func:`job_study` against the digest of
    the whole mapping."""
    keys = param.split(" ")[0].split(",")
    parts = {name: StudySlice(read_slice(config, name, keys), keys, stage) for name in names}
    if slice_param(parts, keys) != param:
        raise HumevalError(
            f"a study file of {', '.join(names)} changed after this run started (keys {', '.join(keys)} differ "
            "from what was validated): run Snakemake again"
        )
    return parts
