"""Headers an export repeats, in one place for the extract job and for ``snakemake -n``.

pandas reads a header given k times as ``x``, ``x.1``, ..., ``x.<k-1>`` (a Google Forms export that asks one
question 12 times under one header). The tabular loader reads such columns as pandas names them and refuses only a
reference that would be ambiguous, a bare ``x`` (:func:`repeated_header`). Where the export is already on disk
when Snakemake plans the run (``data/raw`` or the raw mirror), :func:`ambiguous_references` finds such a reference
in the study file from the header line alone, so ``-n`` says it in the same words the extract job would; pandas is
not imported for it (Snakemake's own process plans the run).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from humeval.errors import HumevalError

__all__ = ["FORMATS", "ambiguous_references", "repeated_header", "repeated_names", "repeated_problem"]

#: The tabular loader's parameters that name export columns by a column spec (a header, ``{column: x}``).
SPEC_KEYS = ("participant", "criterion", "value", "system", "system_b")
#: ... and those that are lists of column specs, or map a name to one.
SPEC_LISTS = ("item", "judgement")
SPEC_MAPS = ("criteria", "carry")
#: The format of an export by its suffix (the tabular loader's default; any other suffix is read as CSV).
FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".xlsx": "xlsx",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
}


def repeated_names(names: list[str]) -> dict[str, list[str]]:
    """Each header given more than once, with the names pandas gives its k columns.

    >>> repeated_names(["id", "q", "q", "q", "x"])
    {'q': ['q', 'q.1', 'q.2']}
    """
    return {
        h: [h, *(f"{h}.{k}" for k in range(1, names.count(h)))]
        for h in sorted({h for h in names if names.count(h) > 1})
    }


def repeated_problem(repeated: dict[str, list[str]], column: str, what: str) -> str | None:
    """Why naming ``column`` bare is ambiguous (a header the export repeats, ``repeated`` as
    :func:`repeated_names` gives it), or None."""
    group = repeated.get(column)
    if not group:
        return None
    names = " and ".join(map(repr, group)) if len(group) < 4 else f"{group[0]!r}, {group[1]!r}, ... {group[-1]!r}"
    return (
        f"{what}: the header {column!r} appears {len(group)} times, which pandas names {names}: name the one you "
        f"mean as such, or read them all with a columns pattern such as '^{re.escape(column)}(\\.\\d+)?$'"
    )


def repeated_header(columns, column: str, path: str, what: str) -> None:
    """Refuse ``column`` when it is a header the export repeats: pandas reads only the first of the k columns
    under ``x``, and names the others ``x.1`` ... ``x.<k-1>``. ``columns``: a header with ``repeated``
    (:func:`repeated_names`), as :class:`humeval.loaders.tabular_read.Header`."""
    problem = repeated_problem(getattr(columns, "repeated", {}), column, what)
    if problem:
        raise HumevalError(problem, file=path)


def spec_columns(spec) -> list[str]:
    """The header a column spec names bare or as ``{column: x}`` (a pattern, a constant, a placeholder: none)."""
    name = spec if isinstance(spec, str) else spec.get("column") if isinstance(spec, dict) else None
    return [name] if isinstance(name, str) and "{" not in name else []


def named_columns(params: dict) -> Iterator[tuple[str, str]]:
    """(key path, header) of every export column the tabular ``params`` name (the join's key file aside)."""
    for key in SPEC_KEYS:
        for name in spec_columns(params.get(key)):
            yield key, name
    for key in SPEC_LISTS:
        specs = params.get(key) or []
        for k, spec in enumerate(specs if isinstance(specs, list) else [specs]):
            for name in spec_columns(spec):
                yield f"{key}.{k}", name
    for key in SPEC_MAPS:
        mapping = params.get(key) or {}
        for label, spec in mapping.items() if isinstance(mapping, dict) else []:
            for k, one in enumerate(spec if isinstance(spec, list) else [spec]):
                for name in spec_columns(one):
                    yield f"{key}.{label}" + (f".{k}" if isinstance(spec, list) else ""), name
    for name in params.get("where") or {}:
        yield f"where.{name}", str(name)


def header_line(path: Path, sep: str) -> list[str] | None:
    """The export's first record as the csv module reads it (quoted newlines included), or None where it cannot
    tell cheaply (a separator of several characters, text that is no UTF-8, a field over the csv module's limit):
    the extract job reads the file and says then."""
    if len(sep) != 1:
        return None
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            return next(csv.reader(handle, delimiter=sep), [])
    except (OSError, UnicodeDecodeError, csv.Error):
        return None


def ambiguous_references(study: dict, local: Callable[[str], Path | None]) -> list[str]:
    """One line per tabular extract entry that names bare a header its CSV or TSV export repeats, in the extract
    job's words (:func:`repeated_header`), for the exports ``local(raw id)`` finds on disk; nothing for the
    others. Planning a run reads only their header lines.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "form.csv").write_text('id,"Fluent?","Fluent?"\\n1,4,5\\n')
    >>> study = {"extract": [{"side": "O", "loader": "tabular", "inputs": {"export": "form"},
    ...                       "params": {"participant": "id", "item": ["id"], "value": "Fluent?"}}]}
    >>> ambiguous_references(study, lambda raw: folder / "form.csv")  # doctest: +ELLIPSIS
    ["key extract.0.params.value: the header 'Fluent?' appears 2 times, which pandas names 'Fluent?' and 'Fluent?.1': ..."]
    """
    lines = []
    for k, entry in enumerate(study.get("extract", [])):
        params = entry.get("params") or {}
        if entry.get("loader") != "tabular":
            continue
        join_role = (params.get("join") or {}).get("role")
        for role, raw_id in entry.get("inputs", {}).items():
            path = local(raw_id) if role != join_role else None
            kind = path and (params.get("format") or FORMATS.get(path.suffix.lower(), "csv"))
            if kind not in ("csv", "tsv"):
                continue
            names = header_line(path, params.get("sep") or ("\t" if kind == "tsv" else ","))
            repeated = repeated_names([str(n) for n in names or []])
            problem = next(
                (p for key, name in named_columns(params) if (p := repeated_problem(repeated, name, key))), None
            )
            if problem:
                lines.append(f"key extract.{k}.params.{problem}")
                break
    return lines
