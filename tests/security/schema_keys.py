"""Every key of the study schema, found by walking ``workflow/schemas/study.schema.yaml``, and where it is given in
the project's own study files (the nine shipped studies and the ``.test`` toy), for the generated hostile suites
(test_schema_keys.py, and the ``.test`` run in test_code_health.py).

A key is a path pattern: ``tables.[].labels.*`` (``[]`` any list index, ``*`` any mapping key). A leaf is a key
whose value is a scalar or a free mapping (loader and metric parameters, which the registry checks: the suite
attacks them through the registry, test_schema_keys.py). A key no shipped file gives is *planted* (:data:`PLANTED`):
a valid value set in one file, so that every key is attacked from the day it is added to the schema; a key with
neither fails test_every_schema_key_has_a_generator."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "workflow/schemas/study.schema.yaml"
CORPUS = sorted((REPO / "config/studies").glob("[a-z]*.yaml")) + [
    REPO / ".test/config/studies/every-measure-2026-toy.yaml"
]

#: Keys that no shipped study file gives: (file stem, concrete path, a valid value) planted before the attack.
PLANTED = {
    "rounding": ("hosking-2022-paraphrase-meaning", ("rounding",), "half_even"),
    "experiments.[].published_only": ("hosking-2022-paraphrase-meaning", ("experiments", 0, "published_only"), False),
    "derived.[].variant": ("every-measure-2026-toy", ("derived", 0, "variant"), "complete"),
    "qra.[].exact_limit": ("hosking-2022-paraphrase-meaning", ("qra", 2, "exact_limit"), 8),
    "qra.[].resamples": ("hosking-2022-paraphrase-meaning", ("qra", 2, "resamples"), 999),
    "qra.[].seed": ("hosking-2022-paraphrase-meaning", ("qra", 2, "seed"), 1),
    "qra3.[].missing": ("hosking-2022-paraphrase-meaning", ("qra3", 0, "missing"), "skip_experiment"),
    "qra3.[].criteria.[].scale_starts_at": (
        "hosking-2022-paraphrase-meaning",
        ("qra3", 0, "criteria", 0, "scale_starts_at"),
        1,
    ),
    "qra3.[].criteria.[].over_correction": (
        "hosking-2022-paraphrase-meaning",
        ("qra3", 0, "criteria", 0, "over_correction"),
        True,
    ),
    "qra3.[].criteria.[].item_labels.value_domain": (
        "liu-2021-dexperts-fluency",
        ("qra3", 0, "criteria", 0, "item_labels", "value_domain"),
        [0, 1],
    ),
    "planning.findings.[].significance.expect": (
        "lux-2022-tts-preference",
        ("planning", "findings", 0, "significance", "expect"),
        "significant",
    ),
    "published.[].cells.*.*.unrecomputed": (
        "arvan-2024-paraphrase-bws",
        ("published", 4, "cells", "Latent BoW", "sd_star", "unrecomputed"),
        "no_measure",
    ),
}


@cache
def schema() -> dict:
    return yaml.safe_load(SCHEMA.read_text())


def resolve(node: dict) -> dict:
    while "$ref" in node:
        node = schema()["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def types(node: dict) -> set[str]:
    """The JSON types a schema node allows (``enum`` for an enumeration of texts)."""
    node = resolve(node)
    if "type" in node:
        return set(node["type"] if isinstance(node["type"], list) else [node["type"]])
    if "enum" in node:
        return {"enum"}
    return set().union(*(types(alt) for key in ("oneOf", "anyOf") for alt in node.get(key, []))) or {"any"}


def walk(node: dict, path: tuple = ()):
    """(key path, types) of every leaf, and of every list (attacked empty) under its own path."""
    node = resolve(node)
    inner = False
    for key, sub in node.get("properties", {}).items():
        inner = True
        yield from walk(sub, path + (key,))
    if isinstance(node.get("items"), dict):
        inner = True
        yield path, {"array"}
        yield from walk(node["items"], path + ("[]",))
    if isinstance(node.get("additionalProperties"), dict):
        inner = True
        yield from walk(node["additionalProperties"], path + ("*",))
    for key in ("oneOf", "anyOf"):
        for alt in node.get(key, []):
            alt = resolve(alt)
            if "properties" in alt or isinstance(alt.get("additionalProperties"), dict):
                inner = True
                yield from walk(alt, path)
            elif "type" in alt or "pattern" in alt:
                yield path, types(alt) - {"object", "array"} or types(alt)
    scalar = types(node) - {"object", "array"}
    if not inner or (scalar and "oneOf" not in node and "anyOf" not in node):
        yield path, scalar or types(node)


@cache
def leaves() -> dict[str, set[str]]:
    """Every key of the schema (``a.[].b``) and the types it allows."""
    found: dict[str, set[str]] = {}
    for path, allowed in walk(schema()):
        if path:
            found.setdefault(".".join(path), set()).update(allowed)
    return found


@cache
def studies() -> dict[str, dict]:
    return {p.stem: yaml.safe_load(p.read_text()) for p in CORPUS}


def instances(node, pattern: list[str], got: tuple = ()):
    """Concrete paths of ``node`` that match a key pattern."""
    if not pattern:
        yield got
        return
    head, rest = pattern[0], pattern[1:]
    if head == "[]" and isinstance(node, list):
        for k, value in enumerate(node):
            yield from instances(value, rest, got + (k,))
    elif head == "*" and isinstance(node, dict):
        for k, value in node.items():
            yield from instances(value, rest, got + (k,))
    elif isinstance(node, dict) and head in node:
        yield from instances(node[head], rest, got + (head,))


def set_at(study: dict, path: tuple, value) -> dict:
    """A copy of ``study`` with ``value`` at ``path``."""
    study = copy.deepcopy(study)
    node = study
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return study


def get_at(study: dict, path: tuple):
    for part in path:
        study = study[part]
    return study


@cache
def by_size() -> list[tuple[str, dict]]:
    """The files, smallest first."""
    return sorted(studies().items(), key=lambda item: len(yaml.safe_dump(item[1])))


def where_given(key: str) -> tuple[str, dict, tuple] | None:
    """(file stem, the study, the concrete path) of a key's first instance: in the smallest shipped file that gives
    it (loads are fastest there), else planted (:data:`PLANTED`); None when neither."""
    for stem, study in by_size():
        for path in instances(study, key.split(".")):
            if get_at(study, path) is not None:
                return stem, study, path
    if key in PLANTED:
        stem, path, value = PLANTED[key]
        return stem, set_at(studies()[stem], path, value), path
    return None
