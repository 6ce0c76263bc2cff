"""Loaders: one per export format, each turning raw files into the tidy tables and nothing else.

A loader is a function ``load(inputs, study, side, *, <parameters>) -> (judgements, participants)`` registered
with ``@register("loader", <name>)`` (:mod:`humeval.config.registry`): ``inputs`` maps the roles named in the study
config to local file paths, and the keyword-only parameters are the entry's ``params``. A study config picks one
with ``loader: <name>``; its module is imported only when used.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from humeval.config.registry import function
from humeval.errors import HumevalError

__all__ = ["extract_study", "read_csv_export", "read_workbook_sheet", "require_inputs"]

if TYPE_CHECKING:
    import pandas as pd

log = logging.getLogger(__name__)


def require_inputs(inputs: dict, roles: list[str], loader: str, study: str) -> None:
    """Raise a clear error when the config gives a loader fewer input roles than it needs."""
    missing = [r for r in roles if r not in inputs]
    if missing:
        raise HumevalError(
            f"loader {loader!r} needs raw input role(s) {missing}; config gives {sorted(inputs)}", study=study
        )


#: A workbook may unpack to at most this many times its size, plus 10 MB: real exports unpack to 6.6-9.7 times
#: theirs here; a zip bomb (413 KB packing 400 MB, about 1,000 times) is refused before any of it is read.
MAX_UNPACK_RATIO = 50


def check_unpacked_size(path: str) -> None:
    """Refuse a workbook whose members would unpack past :data:`MAX_UNPACK_RATIO` times its size (plus 10 MB).
    Python's zip reader stops each member at its declared size, so the declared sizes bound the work."""
    import os
    import zipfile

    with zipfile.ZipFile(path) as archive:
        unpacked = sum(member.file_size for member in archive.infolist())
    limit = MAX_UNPACK_RATIO * os.path.getsize(path) + 10_000_000
    if unpacked > limit:
        raise HumevalError(
            f"the workbook unpacks to {unpacked:,} bytes, more than {MAX_UNPACK_RATIO} times its size (+10 MB): "
            "refused as a possible zip bomb",
            file=path,
        )


def read_csv_export(path: str, *, sep: str = ",", repeated_headers: bool = False, **options):
    """A CSV export as text (``dtype=str``, no value read as missing), the one reader every CSV loader uses. A
    column header given twice is refused in one line naming it (pandas renames the second ``x.1``, so a config
    naming ``x`` would read the first silently), unless ``repeated_headers`` (a reader that refuses only an
    ambiguous reference, as the tabular loader does: a form that asks one question under one header 12 times). A separator is a literal: pandas reads one of several characters as a
    (backtracking) regular expression, so it is escaped first. Text that is not UTF-8 is one line naming the line
    and byte where it fails (:func:`undecodable`); other parse errors are pandas' own, for the caller to name."""
    import re

    literal = {"sep": re.escape(sep), "engine": "python"} if len(sep) > 1 else {"sep": sep}
    read = {"dtype": str, "keep_default_na": False, "encoding": "utf-8", **literal}
    if hasattr(path, "read"):  # an open text stream (a doctest's StringIO): read once, parsed twice
        import io

        text = path.read()
        opened = lambda: io.StringIO(text)
    else:
        opened = lambda: path
    try:
        return csv_frame(path, opened, read, repeated_headers, options)
    except UnicodeDecodeError as exc:
        raise HumevalError(undecodable(path, exc), file=path) from None


def undecodable(path, exc: UnicodeDecodeError) -> str:
    """Where a file that is not UTF-8 first fails to decode, as its line and byte (a chunked reader's own offset
    names neither).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".csv", delete=False) as f:
    ...     _ = f.write(b"a,b\\n1,\\xed\\xa0\\x80\\n")
    >>> undecodable(f.name, UnicodeDecodeError("utf-8", b"", 0, 1, "x"))
    'not UTF-8 text: line 2, byte 3 (0xed): invalid continuation byte'
    """
    if hasattr(path, "read"):
        return f"not UTF-8 text: {exc.reason}"
    data = Path(path).read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as first:
        start = data.rfind(b"\n", 0, first.start) + 1
        line = data.count(b"\n", 0, first.start) + 1
        return (
            f"not UTF-8 text: line {line}, byte {first.start - start + 1} (0x{data[first.start]:02x}): {first.reason}"
        )
    return f"not UTF-8 text: {exc.reason}"


def csv_frame(path, opened, read: dict, repeated_headers: bool, options: dict):
    """:func:`read_csv_export`'s reading: the header checked for names given twice, then the whole file. With
    ``repeated_headers`` a repeated header is read as pandas names it (``x``, ``x.1``, ..., ``x.<k-1>``, recorded
    in the frame's ``attrs["repeated_headers"]`` for the caller to refuse an ambiguous reference to ``x``), unless
    one of those names is also a header of its own: then pandas numbers past it and no name says which is which."""
    import pandas as pd

    from humeval.loaders.headers import repeated_names

    twice, names = [], []
    if options.get("header", 0) == 0:
        header = pd.read_csv(opened(), header=None, nrows=1, **read)
        names = [str(h) for h in header.iloc[0]] if len(header) else []
        twice = sorted({h for h in names if names.count(h) > 1})
    if twice and not repeated_headers:
        raise HumevalError(
            f"the column header {twice[0]!r} appears {names.count(twice[0])} times (columns "
            f"{[k + 1 for k, h in enumerate(names) if h == twice[0]]}): the export's columns must be named apart",
            file=path,
        )
    repeated = repeated_names(names)
    collide = [(h, n) for h, group in repeated.items() for n in group[1:] if n in names]
    if collide:
        raise HumevalError(
            f"the column header {collide[0][0]!r} appears {names.count(collide[0][0])} times and {collide[0][1]!r} is "
            "a header of its own: pandas' names for the repeats would not say which column is which",
            file=path,
        )
    frame = pd.read_csv(opened(), **read, **options)
    frame.attrs["repeated_headers"] = repeated
    return frame


def read_workbook_sheet(path: str, sheet: str, **options):
    """One sheet of an XLSX workbook as a DataFrame; a missing sheet or a damaged workbook is a
    :class:`HumevalError` naming the file (openpyxl raises a zip, zlib, XML, key, OS or its own error for damage)."""
    import zipfile
    import zlib
    from xml.etree.ElementTree import ParseError

    import pandas as pd
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        check_unpacked_size(path)
        return pd.read_excel(path, sheet_name=sheet, **options)
    except ValueError as exc:
        raise HumevalError(f"no sheet {sheet!r}: {exc}", file=path) from None
    except (zipfile.BadZipFile, InvalidFileException, KeyError, OSError, EOFError, ParseError, zlib.error) as exc:
        raise HumevalError(f"cannot read the workbook: {type(exc).__name__}: {exc}", file=path) from None


def spec_headers(spec) -> list[str]:
    """The export headers a column spec (or a list of them) names: ``name``, ``{column: name}``, ``{pattern: ...}``
    (its pattern), as the personal-data firewall reads them (:func:`humeval.id_firewall.personal_header`)."""
    specs = spec if isinstance(spec, list) else [spec]
    return [str(s.get("column", s.get("pattern", ""))) if isinstance(s, dict) else str(s) for s in specs]


def extract_study(study: dict, raw_paths: dict[str, str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run every ``extract`` entry's loader on its raw files; validated tidy judgements and participants.

    ``raw_paths`` maps raw ids to the files that were fetched; an optional raw file that is absent is
    left out of its loader's inputs (the loader then computes what it can without it). Pseudonyms are keyed
    with the study's required raw files (:func:`humeval.tidy.pseudonym_key`); every raw participant id a loader
    pseudonymised is replaced by its pseudonym wherever else it stands in the loader's tables
    (:func:`humeval.id_firewall.scrub_ids`), so that no route of a loader or a config carries it out.
    """
    from humeval.tidy import keyed_pseudonyms, pseudonym_key

    optional = {r["id"] for r in study["raw"] if r.get("optional")}
    required = [raw_paths[r["id"]] for r in study["raw"] if not r.get("optional") and r["id"] in raw_paths]
    with keyed_pseudonyms(pseudonym_key(required)):
        return run_loaders(study, raw_paths, optional)


def run_loaders(study: dict, raw_paths: dict[str, str], optional: set[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The body of :func:`extract_study`, with the pseudonym key set."""
    import pandas as pd

    from humeval.id_firewall import personal_data_firewall, scrub_ids, scrub_message
    from humeval.tidy import collected_ids, rater_numbers, validate_judgements, validate_participants

    judgements, participants = [], []
    for entry in study["extract"]:
        absent = [raw_id for raw_id in entry["inputs"].values() if raw_id not in raw_paths]
        required_absent = [raw_id for raw_id in absent if raw_id not in optional]
        if required_absent:
            raise HumevalError(f"raw file(s) {required_absent} were not fetched", study=study["name"])
        for raw_id in absent:
            log.warning("optional raw file %s is absent: side(s) needing it stay published only", raw_id)
        inputs = {role: raw_paths[raw_id] for role, raw_id in entry["inputs"].items() if raw_id in raw_paths}
        log.info("side %s: loader %s on %s", entry["side"], entry["loader"], sorted(inputs.values()))
        with collected_ids() as ids:
            try:
                load = function("loader", entry["loader"])
                j, p = load(inputs, study["name"], entry["side"], **entry.get("params", {}))
            except HumevalError as exc:  # an error quotes the export's cells: its ids as pseudonyms, the rest removed
                raise HumevalError(scrub_message(str(exc), ids)) from None
        # the identifier firewall: raw ids leave only as pseudonyms (in free text, ids of any length)
        declared = (entry.get("params") or {}).get("carry_as") or {}
        free_text = frozenset(column for column, kind in declared.items() if kind == "text")
        source = ", ".join(sorted(inputs.values()))
        j, p = scrub_ids(j, ids, free_text, source), scrub_ids(p, ids, free_text, source)
        # personal data of any kind in a carried column: scrubbed where declared text, refused where not declared
        params = entry.get("params") or {}
        carried = {name: spec_headers(spec) for name, spec in (params.get("carry") or {}).items()}
        rater = spec_headers(params["participant"]) if "participant" in params else []
        j = personal_data_firewall(j, declared, source, carried, rater)
        log.info("side %s: %d judgement rows, %d participants", entry["side"], len(j), len(p))
        judgements.append(j)
        participants.append(p)
    if not judgements:  # every experiment is published only: empty tidy tables, and the study runs on
        from humeval.tidy import JUDGEMENT_COLUMNS, PARTICIPANT_COLUMNS

        return pd.DataFrame(columns=JUDGEMENT_COLUMNS), pd.DataFrame(columns=PARTICIPANT_COLUMNS)
    check_entries_disjoint(study, participants)
    tidy = validate_judgements(pd.concat(judgements, ignore_index=True), f"{study['name']} tidy judgements")
    tidy["rater_number"] = rater_numbers(tidy)
    people = validate_participants(pd.concat(participants, ignore_index=True), f"{study['name']} participants")
    return tidy, people


def check_entries_disjoint(study: dict, participants: list[pd.DataFrame]) -> None:
    """Two ``extract`` entries of one side may not give the same participant: say which entries, and how to fix
    it, instead of the tidy table's later "appears twice" (entries of one side read different surveys)."""
    owner: dict[tuple, int] = {}
    for k, frame in enumerate(participants):
        for key in zip(frame["side"], frame["participant"]):
            if owner.setdefault(key, k) != k:
                raise HumevalError(
                    f"extract.{owner[key]} and extract.{k} both give participant {key[1]!r} of side {key[0]!r}: two "
                    "entries of one side must read different participants (merge the inputs into one entry, or give "
                    "each entry its own side)",
                    study=study["name"],
                )
