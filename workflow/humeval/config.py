"""Loading and validating the main config and the study files before anything runs.

Schema errors name the file, the key path and what was expected; cross-reference checks catch what a
schema cannot (a loader or metric that is not registered, an input id that names no raw file, a
published cell in a table the study does not declare).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlparse

import yaml

from humeval.errors import HumevalError

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


def _schema(name: str) -> dict:
    with open(SCHEMA_DIR / name) as handle:
        return yaml.safe_load(handle)


def validate_against(document: dict, schema_name: str, source: str) -> None:
    """Validate ``document`` against a schema of ``workflow/schemas``; one clear error per problem."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(_schema(schema_name))
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        key = ".".join(str(p) for p in error.absolute_path) or "(top level)"
        expected = error.schema.get("description", "")
        if error.validator == "anyOf" and all(set(option) == {"required"} for option in error.validator_value):
            names = " or ".join(repr(k) for option in error.validator_value for k in option["required"])
            raise HumevalError(f"key {key}: needs {names}", file=source)
        if error.validator == "required":
            missing = next((k for k in error.validator_value if k not in error.instance), None)
            key = f"{key}.{missing}" if error.absolute_path else str(missing)
            expected = error.schema.get("properties", {}).get(missing, {}).get("description", "")
        more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
        raise HumevalError(
            f"key {key}: {error.message}" + (f". Expected: {expected}" if expected else "") + more, file=source
        )


def read_yaml(path: str | Path) -> dict:
    """Parse a YAML file; a syntax error names the file and line."""
    try:
        with open(path) as handle:
            document = yaml.safe_load(handle)
    except FileNotFoundError:
        raise HumevalError("file not found", file=str(path)) from None
    except yaml.YAMLError as exc:
        raise HumevalError(f"not valid YAML: {exc}", file=str(path)) from None
    if not isinstance(document, dict):
        raise HumevalError("expected a mapping at the top level", file=str(path))
    return document


def raw_filename(entry: dict) -> str:
    """Local file name of a raw input: ``<id><suffix of the URL path>`` (``database.db``)."""
    suffixes = PurePosixPath(unquote(urlparse(entry["url"]).path)).suffixes
    suffix = "".join(s for s in suffixes if len(s) <= 5 and s[1:].isalnum())
    return entry["id"] + suffix


def check_references(study: dict, source: str) -> None:
    """Cross-reference checks a JSON schema cannot express."""
    from humeval.exclusions import EXCLUSIONS
    from humeval.figures import KINDS
    from humeval.loaders import LOADERS
    from humeval.metrics import METRICS

    def fail(message: str) -> None:
        raise HumevalError(message, study=study["name"], file=source)

    if Path(source).stem != study["name"]:
        fail(f"key name: {study['name']!r} must equal the file name {Path(source).stem!r}")
    raw_ids = [r["id"] for r in study["raw"]]
    if len(set(raw_ids)) != len(raw_ids):
        fail(f"key raw: duplicated id(s) {sorted({i for i in raw_ids if raw_ids.count(i) > 1})}")
    for k, entry in enumerate(study["extract"]):
        if entry["loader"] not in LOADERS:
            fail(f"key extract.{k}.loader: unknown loader {entry['loader']!r}; known: {sorted(LOADERS)}")
        for role, raw_id in entry["inputs"].items():
            if raw_id not in raw_ids:
                fail(f"key extract.{k}.inputs.{role}: {raw_id!r} is not the id of a raw file ({raw_ids})")
    for k, entry in enumerate(study.get("exclusions", [])):
        if entry["exclusion"] not in EXCLUSIONS:
            fail(f"key exclusions.{k}.exclusion: unknown exclusion {entry['exclusion']!r}; known: {sorted(EXCLUSIONS)}")
    for k, entry in enumerate(study.get("metrics", [])):
        if entry["metric"] not in METRICS:
            fail(f"key metrics.{k}.metric: unknown metric {entry['metric']!r}; known: {sorted(METRICS)}")
    table_ids = [t["id"] for t in study["tables"]]
    if len(set(table_ids)) != len(table_ids):
        fail("key tables: duplicated table id")
    for key in ("metrics", "qra", "published", "figures", "published_aggregates"):
        for k, entry in enumerate(study.get(key, [])):
            if entry["table"] not in table_ids:
                fail(f"key {key}.{k}.table: {entry['table']!r} is not one of the study's tables {table_ids}")
    for k, aggregate in enumerate(study.get("published_aggregates", [])):
        from humeval.metrics.ranking import validate_rank_count_aggregate

        try:
            validate_rank_count_aggregate(aggregate)
        except HumevalError as exc:
            fail(f"key published_aggregates.{k}: {exc}")
    for k, entry in enumerate(study.get("figures", [])):
        if entry["kind"] not in KINDS:
            fail(f"key figures.{k}.kind: unknown kind {entry['kind']!r}; known: {sorted(KINDS)}")


def load_study(path: str | Path) -> dict:
    """Read, schema-validate and cross-check one study file; return the study dict."""
    source = str(path)
    study = read_yaml(path)
    validate_against(study, "study.schema.yaml", source)
    check_references(study, source)
    return study


def load_config(config: dict, config_dir: str | Path = "config", source: str = "config/config.yaml") -> dict:
    """Validate the main config and load every enabled study: ``{name: study dict}``."""
    validate_against(config, "config.schema.yaml", source)
    studies = {}
    for name in config["studies"]:
        studies[name] = load_study(Path(config_dir) / "studies" / f"{name}.yaml")
    return studies
