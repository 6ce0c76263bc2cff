"""The generated hostile suite, derived from the schema: every key of ``study.schema.yaml`` (schema_keys.py) is
attacked with the payloads of its type, and every registered parameter through the registry, in the process that
``snakemake -n`` runs (``humeval.config.load.load_study``), so that a key added to the schema or a parameter added to a
registered function is attacked the day it is added, without touching this file (a key no shipped file gives needs
a planted value: test_every_schema_key_has_a_generator fails until it has one).

Each case is one line naming the file and a key, or a study file that loads. Control and bidi characters are
refused in every text (``humeval.config.load.UNSAFE_CHARACTER``). A text with markup or a formula that loads must be text the
workflow carries to readers (:data:`CARRIED`: the ``.test`` run in test_code_health.py then carries every such key
of the toy with markup and formula payloads through the whole pipeline and its report, and checks that no
payload is live and every number is the clean run's) or a name only an export can check (:data:`JOB_CHECKED`, each
with the job that checks it). A number key gets NaN, infinity, a 401-digit number and a negative (which loads only
where a negative number means something, :data:`SIGNED`); an integer key also the YAML 1.1 spellings ``1_0`` and
``1:20`` (text in YAML 1.2); a boolean key ``yes``; a list key the empty list (which loads only where it means
something, :data:`EMPTY_OK`) and a list of 100,001 values (:data:`HUGE`, refused by the study file's node bound
whatever its key); a long text is refused by :data:`humeval.config.load.MAX_TEXT`, attacked here in every text
key."""

from __future__ import annotations

import inspect
import types
import typing

import pytest
import yaml
from schema_keys import PLANTED, get_at, leaves, set_at, where_given

from humeval.config import registry as vocabulary
from humeval.config.load import MAX_TEXT, load_study
from humeval.config.studyfile import MAX_EXPANDED_NODES
from humeval.errors import HumevalError

TEXT = {
    "markup": "<img src=x onerror=alert(1)>",
    "formula": '=HYPERLINK("http://x")',
    "control_bidi": "a\x1b[31mb\x07c\u202ed",
    "length": "x" * (MAX_TEXT * 2),
}
NUMBER = {"nan": float("nan"), "inf": float("inf"), "huge": 10**400, "negative": -1}
YAML_1_1 = {"underscore": "1_0", "base60": "1:20"}

#: Text keys whose value the workflow carries to a reader (tables, figures, report, audit): they load with any
#: payload; the .test run carries each through the pipeline (test_code_health.py).
CARRIED = {
    "title",
    "experiments.[].label",
    "experiments.[].citation",
    "experiments.[].conditions.*.value",
    "experiments.[].conditions.*.value.*",
    "experiments.[].conditions.*.source",
    "raw.[].role",
    "systems.[].label",
    "derived.[].description",
    "exclusions.[].name",
    "exclusions.[].description",
    "exclusions.[].variant",
    "metrics.[].description",
    "qra.[].description",
    "qra.[].row_labels.*",
    "qra.[].claims.[].text",
    "qra3.[].title",
    "qra3.[].key",
    "qra3.[].criteria.[].name",
    "qra3.[].criteria.[].key",
    "planning.labels.*",
    "planning.findings.[].text",
    "tables.[].title",
    "tables.[].paper",
    "tables.[].row_header",
    "tables.[].labels.*",
    "tables.[].key.*",
    "tables.[].significance.p_suffix",
    "tables.[].significance.mark",
    "figures.[].paper",
    "figures.[].key.*",
    "published_files.[].source",
    "published_aggregates.[].id",
    "published_aggregates.[].source",
    "published_aggregates.[].note",
    "notes.[]",
    "published.[].source",
    "published.[].note",
    "published.[].cells.*.*.note",
}
#: Names that only the data can check, and the job that refuses a wrong one in one line.
JOB_CHECKED = {
    "systems.[].code": "extract: a system code the export does not hold",
    "exclusions.[].sides.[]": "exclude: sides that match no judgement (exclusions.check_sides)",
    "published_files.[].row": "published: a row template naming a column the file lacks",
    "published_files.[].column": "audit: a cell outside its table (build_audit)",
    "published_files.[].value": "published: a value column the file lacks",
    "qra3.[].criteria.[].item_labels.criterion": "qra: a criterion no kept judgement has (qra3_tables.item_labels)",
}
#: Number keys where a negative number means something (a shift, a scale's start, an effect, a printed value).
SIGNED = {
    "experiments.[].conditions.*.value",
    "experiments.[].conditions.*.value.*",
    "qra.[].scale_starts_at",
    "qra.[].shift",
    "qra.[].claims.[].comparisons.[].left",
    "qra.[].claims.[].comparisons.[].right",
    "qra3.[].scale_starts_at",
    "qra3.[].criteria.[].scale_starts_at",
    "planning.effects.*",
    "planning.findings.[].comparisons.[].left",
    "planning.findings.[].comparisons.[].right",
}
#: List keys that may be empty: nothing of that kind in the study (``extract.[].experiments``: auxiliary data).
EMPTY_OK = {"exclusions", "figures", "metrics", "notes", "planning.findings", "qra", "qra3", "systems"}
EMPTY_OK |= {"extract.[].experiments"}


def attacks(key: str, allowed: set[str]) -> list[tuple[str, object]]:
    """(payload name, value) for a key of the given types."""
    out = []
    if allowed & {"string", "enum"}:
        out += list(TEXT.items())
    if allowed & {"number", "integer"}:
        out += list(NUMBER.items())
    if "integer" in allowed and "string" not in allowed:
        out += list(YAML_1_1.items())
    if "boolean" in allowed:
        out += [("yes", "yes")]
    if "array" in allowed:
        out += [("empty", []), ("long list", HUGE)]
    return out


#: The length of a list one value longer than a study file may hold
#: (:data:`humeval.config.studyfile.MAX_EXPANDED_NODES`), written as a researcher would, without aliases
#: (:func:`outcome` splices it into the file's text: a 100,001-value list dumped by YAML takes a second a key).
HUGE = MAX_EXPANDED_NODES + 1


def may_load(key: str, payload: str) -> bool:
    if payload in ("markup", "formula"):
        return key in CARRIED or key in JOB_CHECKED
    if payload == "negative":
        return key in SIGNED
    if payload == "empty":
        return key in EMPTY_OK
    return False


def outcome(tmp_path, stem: str, study: dict, path: tuple, name: str, value) -> str | None:
    """None when the file loads, else the one-line refusal (asserted to name the file and a key)."""
    spliced = name in YAML_1_1 or name == "long list"
    text = yaml.safe_dump(set_at(study, path, 987654321 if spliced else value), sort_keys=False)
    if name in YAML_1_1:
        text = text.replace(": 987654321\n", f": {value}\n").replace("- 987654321\n", f"- {value}\n")
    if name == "long list":
        huge = "[" + "0, " * (value - 1) + "0]"
        text = text.replace(": 987654321\n", f": {huge}\n").replace("- 987654321\n", f"- {huge}\n")
    target = tmp_path / f"{stem}.yaml"
    target.write_text(text)
    try:
        load_study(target)
    except HumevalError as exc:
        message = str(exc)
        assert "\n" not in message and str(target) in message and "key " in message, (name, message[:500])
        return message
    return None


KEYS = sorted(leaves())


def test_every_schema_key_has_a_generator():
    """A key added to the schema is attacked from that day: it is given in a shipped file or planted."""
    assert len(KEYS) > 150
    missing = [key for key in KEYS if where_given(key) is None]
    assert not missing, f"schema keys that no study file gives and schema_keys.PLANTED does not plant: {missing}"
    assert set(PLANTED) <= set(KEYS), set(PLANTED) - set(KEYS)
    stale = set(CARRIED) | set(JOB_CHECKED) | SIGNED | EMPTY_OK
    assert stale <= set(KEYS), stale - set(KEYS)


@pytest.mark.slow  # two minutes: CI runs it, -m "not slow" leaves it out locally
@pytest.mark.parametrize("key", KEYS)
def test_every_schema_key_is_attacked(key, tmp_path):
    stem, study, path = where_given(key)
    if key in PLANTED:
        assert outcome(tmp_path, stem, study, path, "planted", get_at(study, path)) is None, key
    if path and get_at(study, path) is None:
        pytest.fail(f"{key}: the file gives null")
    loaded = []
    for name, value in attacks(key, leaves()[key]):
        if outcome(tmp_path, stem, study, path, name, value) is None:
            loaded.append(name)
    wrong = [name for name in loaded if not may_load(key, name)]
    assert not wrong, f"{key} ({'.'.join(map(str, path))} of {stem}): loads with {wrong}"


def registered_parameters():
    for kind in vocabulary.KINDS:
        for name, entry in sorted(vocabulary.entries(kind).items()):
            for parameter in entry.parameters:
                yield pytest.param(kind, name, parameter, id=f"{kind}.{name}.{parameter.name}")


HOSTILE = [
    ("mapping", {"a": 1}),
    ("text", "<b>x</b>"),
    ("list", [1]),
    ("fraction", 0.5),
    ("flag", True),
    ("null", None),
]


def accepts(hint, value) -> bool:
    """Whether ``value`` fits the type hint as Python's typing reads it (an implementation independent of the
    registry's, which reads the hint's source text with ``ast``)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is typing.Any:
        return True
    if hint is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(accepts(a, value) for a in args)
    if origin is typing.Literal:
        return any(value == a and type(value) is type(a) for a in args)
    if origin in (list, tuple) or hint in (list, tuple):
        item = args[0] if args else typing.Any
        return isinstance(value, list) and all(accepts(item, v) for v in value)
    if origin is dict or hint is dict:
        key, item = args if args else (typing.Any, typing.Any)
        return isinstance(value, dict) and all(accepts(key, k) and accepts(item, v) for k, v in value.items())
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


@pytest.mark.parametrize("kind,name,parameter", list(registered_parameters()))
def test_every_registered_parameter_is_type_checked_through_the_registry(kind, name, parameter):
    """Every keyword a registered function takes is checked against its annotation before any job: each value of
    another type (a mapping, a text, a list, a fraction, a flag, null) is one line naming the key
    (``humeval.config.registry.wrong_type``), and each value of its type passes, as typing reads the hint."""
    entry = vocabulary.entries(kind)[name]
    hint = typing.get_type_hints(vocabulary.function(kind, name))[parameter.name]
    for what, value in HOSTILE:
        message = vocabulary.wrong_type(entry, {parameter.name: value}, "metrics.0")
        if accepts(hint, value):
            assert message is None, (what, hint, message)
        else:
            assert message and f"key metrics.0.{parameter.name}" in message and "\n" not in message, (what, hint)


def test_the_registry_lists_every_keyword_of_every_registered_function():
    """The registry reads signatures from the source (humeval.config.registry); this imports each function and
    compares, so that a parameter the reader misses cannot escape the attack above."""
    for kind in vocabulary.KINDS:
        for name, entry in vocabulary.entries(kind).items():
            function = vocabulary.function(kind, name)
            signature = inspect.signature(function)
            keywords = [p for p in signature.parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
            assert [p.name for p in keywords] == [p.name for p in entry.parameters], (kind, name)
            hints = typing.get_type_hints(function)
            assert all(p.name in hints for p in keywords), (kind, name)  # every keyword typed
