"""The tidy long schema every loader produces and every later step reads.

``judgements``: one row per judged value. A judgement (``judgement_id``) is one act of judging: one
rating, one pairwise choice, or one whole ranking; a ranking of four systems is four rows sharing a
``judgement_id``, one per rank slot (``system`` placed at rank ``value``), so a ranking that puts one
system in two slots stays visible for the ``invalid_permutation`` exclusion. Rows are unique on
(``judgement_id``, ``system``), and rank rows on (``judgement_id``, ``value``).

=============== =====================================================================================
column          meaning
=============== =====================================================================================
study           config entry name
side            ``original``, ``reproduction`` or an evaluator group
judgement_id    stable id of the act of judging (unique within the study)
participant     pseudonymous participant (or work-unit) id; never a raw platform id
item            the thing judged, keyed so that the same item has the same key on every side
criterion       quality criterion (``meaning``, ``fluency``, ``readability``, ...)
response_type   ``rating`` | ``magnitude`` | ``rank`` | ``pairwise``
system          the system judged (pairwise: the system shown as A)
system_b        pairwise only: the system shown as B; empty otherwise
value           rating or magnitude; rank (1 = best); pairwise +1 = ``system`` preferred,
                -1 = ``system_b`` preferred, 0 = equal; empty where the export held no value (the
                exclusion ``missing_value`` logs and drops such rows first)
=============== =====================================================================================

Loaders may add columns (``batch``, ``task``, ``position``, ``dataset``...); they travel along.
``participants``: one row per participant with ``study, side, participant`` and any metadata the
exclusions or subgroups use.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
import pandas as pd

from humeval.errors import HumevalError

__all__ = [
    "JUDGEMENT_COLUMNS",
    "PARTICIPANT_COLUMNS",
    "collected_ids",
    "keyed_pseudonyms",
    "personal_data_firewall",
    "pseudonym",
    "pseudonym_key",
    "pseudonyms",
    "rater_numbers",
    "scrub_ids",
    "scrub_message",
    "validate_judgements",
    "validate_participants",
]

JUDGEMENT_COLUMNS = [
    "study",
    "side",
    "judgement_id",
    "participant",
    "item",
    "criterion",
    "response_type",
    "system",
    "system_b",
    "value",
]
PARTICIPANT_COLUMNS = ["study", "side", "participant"]
RESPONSE_TYPES = ("rating", "magnitude", "rank", "pairwise")
_KEY_COLUMNS = ["study", "side", "judgement_id", "participant", "item", "criterion", "response_type", "system"]


#: The domain of the pseudonym key: hashing the raw files' bytes under it gives a key that is not their public
#: (pinned) sha256, so only someone who holds the raw export can compute it.
KEY_DOMAIN = b"humeval-repro pseudonym key v1\0"
_KEY: ContextVar[bytes | None] = ContextVar("pseudonym_key", default=None)
_IDS: ContextVar[dict | None] = ContextVar("pseudonymised_ids", default=None)


def pseudonym_key(paths: list[str]) -> bytes:
    """The study's pseudonym key: sha256 over :data:`KEY_DOMAIN` and, for each required raw file in order, its
    length and bytes. The same files give the same key on every run and machine; without them it cannot be had
    (their pinned sha256 is the hash of the bytes alone, not under the domain)."""
    digest = hashlib.sha256(KEY_DOMAIN)
    for path in paths:
        with open(path, "rb") as handle:
            digest.update(os.fstat(handle.fileno()).st_size.to_bytes(8, "big"))
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.digest()


@contextmanager
def keyed_pseudonyms(key: bytes):
    """Within the block, :func:`pseudonym` is keyed with ``key`` (the extract stage sets it for every loader)."""
    token = _KEY.set(key)
    try:
        yield
    finally:
        _KEY.reset(token)


def pseudonym(raw_id: str, salt: str, prefix: str = "P") -> str:
    """Pseudonymous id: ``prefix`` + the first 10 hex digits of HMAC-SHA256(key, salt + ':' + raw_id), the key from
    the study's raw files (:func:`pseudonym_key`, set by :func:`keyed_pseudonyms`), so that a pseudonym cannot be
    linked back to its raw id (8-digit worker ids can be enumerated) by anyone who lacks the raw export. Outside
    the pipeline, with no key set (a loader tested on a fixture), the salt is the key. The examples equal
    ``printf study:abc | openssl dgst -sha256 -hmac study`` (and ``-hmac k``):

    >>> pseudonym("abc", "study")
    'P2fd6fb0bd3'
    >>> with keyed_pseudonyms(b"k"):
    ...     pseudonym("abc", "study")
    'Pff37488c17'
    """
    key = _KEY.get()
    message = f"{salt}:{raw_id}".encode()
    return prefix + hmac.new(salt.encode() if key is None else key, message, hashlib.sha256).hexdigest()[:10]


#: Characters that show nothing: an id with one of them is the id without it.
INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u180e\u200b\u200c\u200d\u2060\ufeff"))


def normalised_id(raw) -> str:
    """A participant id as it is meant: Unicode NFKC (a full-width ``５`` is ``5``), invisible characters (zero-width
    spaces, a byte-order mark, a soft hyphen) removed, surrounding white space stripped. Two spellings of one id
    are one participant.

    >>> normalised_id(" 5f1a\u200b2b "), normalised_id("ＡＢ１２")
    ('5f1a2b', 'AB12')
    """
    import unicodedata

    return unicodedata.normalize("NFKC", str(raw)).translate(INVISIBLE).strip()


def pseudonyms(
    ids: pd.Series, salt: str, prefix: str = "P", keyed: str = "", source: str | pd.Series | None = None
) -> pd.Series:
    """:func:`pseudonym` of every id in ``ids`` (keyed as ``keyed`` + the raw id: a literal, never a format
    template, since it holds a side label from config), computed once per distinct
    id: a million judgements by two thousand raters cost two thousand HMACs, not a million. Ids are text: a
    missing or empty id is refused in one line naming ``source`` (the export, or each row's file) and the row
    (never a participant ``nan``, nor two people merged into one ``""``). Each id is read as
    :func:`normalised_id` says (a trailing space or a zero-width space is the same participant); two ids that
    differ only in letter case are refused, since whether they are one person depends on the platform. Within
    :func:`collected_ids`, each raw id (as written and as normalised) and its pseudonym are recorded for
    :func:`scrub_ids`."""
    import numpy as np

    written_codes, written = pd.factorize(ids, use_na_sentinel=True)  # each distinct spelling normalised once
    normal_codes, distinct = pd.factorize(pd.Series([normalised_id(w) for w in written], dtype=object))
    codes = np.where(written_codes >= 0, normal_codes[np.maximum(written_codes, 0)] if len(written) else -1, -1)
    empty = (codes == -1) | np.isin(
        codes, np.flatnonzero(pd.Series(distinct, dtype=object).astype(str).str.strip() == "")
    )
    if empty.any():
        row = int(empty.argmax())
        where = source.iloc[row] if isinstance(source, pd.Series) else source
        raise HumevalError(f"a participant id is missing or empty (row {ids.index[row]} as read)", file=where)
    folded = pd.Series(distinct, dtype=object).astype(str).str.casefold()
    if folded.duplicated().any():
        first = folded[folded.duplicated()].iloc[0]
        spellings = [str(d) for d, f in zip(distinct, folded) if f == first]
        raise HumevalError(
            f"{len(spellings)} participant ids differ only in letter case ({len(spellings[0])} characters each): one "
            "participant or two? Make the export's ids consistent",
            file=source if isinstance(source, str) else None,
        )
    names = np.array([pseudonym(f"{keyed}{raw}", salt, prefix) for raw in distinct], dtype=object)
    collected = _IDS.get()
    if collected is not None:
        for raw, name in zip(distinct, names):
            collected.setdefault(str(raw), name)
        for raw, code in zip(written, normal_codes):  # every spelling the export used
            collected.setdefault(str(raw), names[code])
    return pd.Series(names[codes], index=ids.index, dtype=object)


@contextmanager
def collected_ids():
    """Within the block, :func:`pseudonyms` records every raw id it pseudonymises: ``{raw id: pseudonym}``."""
    collected: dict[str, str] = {}
    token = _IDS.set(collected)
    try:
        yield collected
    finally:
        _IDS.reset(token)


#: The shortest raw id that :func:`scrub_ids` looks for in text. Platform ids are long (the six studies': 7 to 36
#: characters; Prolific 24, MTurk 13-14, Qualtrics 17); a study's own numbering is not (its annotators 0-4, its
#: participants 42-938), and looking for ``3`` in free text would rewrite every 3.
MIN_SCANNED_ID = 6
#: Columns :func:`scrub_ids` leaves alone: fixed vocabularies, numbers and the pseudonyms themselves.
NOT_SCANNED = ("study", "side", "participant", "response_type", "value")


#: Personal data a free-text column may hold, each run by RE2 (linear in the text): e-mail addresses (as the
#: datasheet reader knows them), IP addresses (v4, and v6 of three or more groups), URLs with a query, phone numbers
#: (nine or more digits with the usual separators) and long id-like runs (20 or more letters and digits, both).
PERSONAL_DATA = {
    "e-mail address": r"(mailto:)?[\pL\pN\pM_.+-]+\s*(@|\[at\]|\(at\)|\{at\})\s*[\pL\pN\pM_-]+(\.[\pL\pN\pM_-]+)*",
    "IP address": r"\b(?:(?:\d{1,3}\.){3}\d{1,3}|(?:[0-9A-Fa-f]{1,4}:){2,7}[0-9A-Fa-f]{1,4})\b",
    "URL with a query": r"[A-Za-z][A-Za-z0-9+.-]*://[^\s?]*\?\S+",
    "phone number": r"\+?\d(?:[\s().-]?\d){8,}",
    "id": r"\b(?:[A-Za-z]+\d|\d+[A-Za-z])[A-Za-z0-9]{18,}\b",
}
#: The fewest digits of a number that an error message loses as a possible id (:func:`scrub_message`): the numeric
#: ids of the generated hostile suite have 17 digits; a row number or a count in a message never reaches 12.
ID_DIGITS = 12
#: What a column holds that only a declaration (``carry_as: {column: text}``) may carry out, scrubbed.
ADDRESSES = ("e-mail address", "IP address")


def personal_data_firewall(frame: pd.DataFrame, declared: dict[str, str], source: str) -> pd.DataFrame:
    """The carried columns of ``frame`` (those the tidy table does not define) as they may leave extraction: a
    column declared ``text`` (``carry_as``) has every :data:`PERSONAL_DATA` match replaced by ``[removed]``; a
    column not declared so that holds an e-mail or IP address is refused in one line naming it; a column declared
    ``number`` must hold numbers. Each distinct value is looked at once.

    >>> frame = pd.DataFrame({"note": ["mail me: jo@example.org from 203.0.113.7", "fine"]})
    >>> personal_data_firewall(frame, {"note": "text"}, "x.csv")["note"].tolist()
    ['mail me: [removed] from [removed]', 'fine']
    >>> personal_data_firewall(frame, {}, "x.csv")
    Traceback (most recent call last):
    humeval.errors.HumevalError: x.csv: carried column 'note' holds an e-mail address: declare it carry_as: {note: text} to carry it with personal data removed, or do not carry it
    """
    from humeval.patterns import config_pattern

    changed = {}
    for column in frame.columns:
        if column in JUDGEMENT_COLUMNS or column == "rater_number" or pd.api.types.is_numeric_dtype(frame[column]):
            continue
        kind = declared.get(column, "label")
        codes, distinct = pd.factorize(frame[column], use_na_sentinel=True)
        text = [str(v) for v in distinct]
        if kind == "number":
            bad = [v for v in text if pd.isna(pd.to_numeric(v, errors="coerce")) and v.strip()]
            if bad:
                raise HumevalError(f"carried column {column!r} is declared a number but holds text", file=source)
            continue
        if kind == "text":
            for pattern in PERSONAL_DATA.values():
                compiled = config_pattern(pattern, ignore_case=True)
                text = [compiled.sub("[removed]", v) if compiled.search(v) else v for v in text]
            values = np.asarray(text, dtype=object)[codes] if len(text) else np.asarray([], dtype=object)
            values[codes == -1] = None
            changed[column] = pd.Series(values, index=frame.index, dtype=object)
            continue
        joined = "\0".join(text)  # one linear search per pattern over the column's distinct values
        for name in ADDRESSES:
            if config_pattern(PERSONAL_DATA[name], ignore_case=True).search(joined):
                raise HumevalError(
                    f"carried column {column!r} holds an {name}: declare it carry_as: {{{column}: text}} to carry it "
                    "with personal data removed, or do not carry it",
                    file=source,
                )
    return frame.assign(**changed) if changed else frame


def scrub_message(text: str, ids: dict[str, str]) -> str:
    """An error raised during extraction as it may be printed or logged: the raw ids pseudonymised so far replaced
    by their pseudonyms (:func:`scrub_text`), and any other e-mail or IP address, URL query or id-like run
    (:data:`PERSONAL_DATA`; a join's key-file error runs before any pseudonym exists) replaced by ``[removed]``.

    A run of :data:`ID_DIGITS` or more digits is removed too, wherever it stands (a 17-digit id inside an item
    name, ``item-of-17000001142836570``, passed the patterns, which leave numbers alone: row numbers and counts
    stay readable, and none is that long).

    >>> scrub_message("join: key ['5f1a2b3c4d5e6f7a8b9c0d1e'] appears twice", {})
    "join: key ['[removed]'] appears twice"
    >>> scrub_message("row 12: key ['item-of-17000001142836570'] is missing", {})
    "row 12: key ['item-of-[removed]'] is missing"
    """
    from humeval.patterns import config_pattern

    text = scrub_text(text, ids)
    for name, pattern in PERSONAL_DATA.items():
        if name != "phone number":  # row numbers and counts stay readable
            text = config_pattern(pattern, ignore_case=True).sub("[removed]", text)
    return config_pattern(rf"\d{{{ID_DIGITS},}}").sub("[removed]", text)


def scrub_text(text: str, ids: dict[str, str]) -> str:
    """``text`` (an error message that quotes an export's cells) with every raw id of at least
    :data:`MIN_SCANNED_ID` characters replaced by its pseudonym, in any letter case, the longest first.

    >>> scrub_text("row 3: item 'item-of-5F1A2B3C4D' appears twice", {"5f1a2b3c4d": "P1", "42": "P2"})
    "row 3: item 'item-of-P1' appears twice"
    """
    import re

    lowered = text.casefold()
    for raw in sorted((r for r in ids if len(r) >= MIN_SCANNED_ID and r.casefold() in lowered), key=len, reverse=True):
        text = re.sub(re.escape(raw), ids[raw].replace("\\", "\\\\"), text, flags=re.IGNORECASE)
    return text


def scrub_ids(frame: pd.DataFrame, ids: dict[str, str]) -> pd.DataFrame:
    """The identifier firewall: every raw id of at least :data:`MIN_SCANNED_ID` characters that stands in a text
    column of ``frame`` (a judgement id, an item, a carried free-text answer such as "my prolific id is 5f1a...")
    replaced by its pseudonym (``ids``, from :func:`collected_ids`), in any letter case, whatever route brought it
    there.

    Linear in the text: the distinct values of a column are joined and cut into runs of letters and digits once
    (one regular-expression pass in C); only the ids whose longest such run is among them, or that have no run
    of :data:`MIN_SCANNED_ID` characters (an e-mail address), are then replaced, in the values that hold them.

    >>> scrub_ids(pd.DataFrame({"note": ["my id is 5f1a2b3c4d!", "ok 42"]}), {"5f1a2b3c4d": "P1", "42": "P2"})
    ... # doctest: +NORMALIZE_WHITESPACE
                    note
    0  my id is P1!
    1          ok 42
    """
    import re

    import numpy as np

    scanned = {raw: name for raw, name in ids.items() if len(raw) >= MIN_SCANNED_ID}
    if not scanned:
        return frame
    anchors = {raw: max(re.findall(r"[A-Za-z0-9]+", raw) or [""], key=len).casefold() for raw in scanned}
    numeric = {
        int(raw.strip()): name for raw, name in scanned.items() if raw.strip().isascii() and raw.strip().isdigit()
    }
    changed = {}
    for column in frame.columns:
        if column in NOT_SCANNED:
            continue
        if pd.api.types.is_numeric_dtype(frame[column]):  # an all-digit id read as a number (a worker number)
            if numeric and not pd.api.types.is_bool_dtype(frame[column]):
                changed.update(numeric_ids_replaced(frame[column], numeric))
            continue
        codes, distinct = pd.factorize(frame[column], use_na_sentinel=True)
        if not len(distinct):
            continue
        text = pd.Series(distinct, dtype=object).astype(str)
        runs = set(re.findall(f"[a-z0-9]{{{MIN_SCANNED_ID},}}", "\n".join(text).casefold()))  # shorter: below
        present = [r for r in scanned if anchors[r] in runs or len(anchors[r]) < MIN_SCANNED_ID]
        hit = False
        for raw in sorted(present, key=len, reverse=True):  # a longer id first: it may contain a shorter one
            spelled = re.compile(re.escape(raw), re.IGNORECASE)
            holds = text.str.contains(spelled)
            if holds.any():
                text[holds] = text[holds].str.replace(spelled, scanned[raw].replace("\\", "\\\\"), regex=True)
                hit = True
        if hit:
            values = np.asarray(text, dtype=object)[codes]
            values[codes == -1] = None
            changed[column] = pd.Series(values, index=frame.index, dtype=object)
    return frame.assign(**changed) if changed else frame


def numeric_ids_replaced(cells: pd.Series, numeric: dict[int, str]) -> dict[str, pd.Series]:
    """``{column: cells}`` with every number equal to an all-digit raw id (``numeric``: id as an int -> its
    pseudonym) replaced by the pseudonym, the column then text; empty where none is there. Integers are compared
    exactly; a float column (where a 17-digit id has lost its last digits) as the float each id reads as.

    >>> numeric_ids_replaced(pd.Series([7, 12345678901234567], name="x"), {12345678901234567: "P1"})["x"].tolist()
    [7, 'P1']
    """
    if pd.api.types.is_integer_dtype(cells):
        hits = cells.isin(list(numeric))
        lookup = numeric
    else:
        lookup = {float(key): name for key, name in numeric.items()}
        hits = cells.isin(list(lookup))
    if not hits.any():
        return {}
    out = cells.astype(object)
    out[hits] = [lookup[value] for value in cells[hits].tolist()]
    return {cells.name: out}


def rater_numbers(frame: pd.DataFrame) -> pd.Series:
    """Each judgement's rater as a number, 1, 2, ... in order of first appearance in its side's rows (the export's
    order): how a config names a rater (``where: {rater_number: [1, 2]}``). Unlike a pseudonym it does not change
    when a raw file changes, and unlike the raw id it identifies no one.

    >>> frame = pd.DataFrame({"side": ["O", "O", "O", "R1"], "participant": ["Pb", "Pa", "Pb", "Pa"]})
    >>> rater_numbers(frame).tolist()
    [1, 2, 1, 1]
    """
    import numpy as np

    # integer codes of (side, participant), not a concatenated string key (0.5 s at 10^6 judgements)
    side, _ = pd.factorize(frame["side"])
    person, people = pd.factorize(frame["participant"])
    pair, _ = pd.factorize(side.astype("int64") * max(1, len(people)) + person)
    first = np.zeros(len(pair), dtype=bool)
    first[np.unique(pair, return_index=True)[1]] = True
    numbers = pd.Series(first.astype("int64")).groupby(side, sort=False).cumsum().to_numpy()
    per_pair = np.zeros(pair.max() + 1 if len(pair) else 0, dtype="int64")
    per_pair[pair[first]] = numbers[first]
    return pd.Series(per_pair[pair], index=frame.index, dtype="int64")


def order_columns(frame: pd.DataFrame, required: list[str]) -> pd.DataFrame:
    """Required columns first, in schema order, then the loader's extra columns."""
    extras = [c for c in frame.columns if c not in required]
    return frame[required + extras]


def check_encodable(frame: pd.DataFrame, source: str) -> None:
    """Refuse text that cannot be written as UTF-8 (a lone surrogate, which a JSON export's escaped surrogate
    gives): one line naming the column and row, where writing the CSV would end the job in a traceback. Each text
    column is joined and encoded once; only a column that fails is searched cell by cell.

    >>> check_encodable(pd.DataFrame({"item": ["a", "b" + chr(0xD800)]}), "export.jsonl")
    Traceback (most recent call last):
    humeval.errors.HumevalError: export.jsonl: column 'item' row 1: text that is not valid Unicode (a lone surrogate); fix the export
    """
    for column in frame.columns:
        cells = frame[column]
        if pd.api.types.is_numeric_dtype(cells) or pd.api.types.is_bool_dtype(cells):
            continue
        values = cells.to_numpy(dtype=object)
        # one join of the column's text, encoded once (a str() and a test for missing of each of 10^6 cells cost
        # 0.65 s): a text column's cells as they are, missing ones empty; any other column's as str() gives them
        strings = isinstance(cells.dtype, pd.StringDtype)  # every cell a str or missing
        text = cells.fillna("").tolist() if strings else map(str, values.tolist())
        try:
            joined = "".join(text)
            if not joined.isascii():  # ASCII text holds no surrogate: most columns end here
                joined.encode("utf-8")
        except UnicodeEncodeError:
            text = pd.Series([str(v) for v in values], index=cells.index, dtype=object)[~pd.isna(values)]
            row = next(k for k, cell in text.items() if cell.encode("utf-8", "ignore").decode() != cell)
            raise HumevalError(
                f"column {column!r} row {row}: text that is not valid Unicode (a lone surrogate); fix the export",
                file=source,
            ) from None


def validate_judgements(frame: pd.DataFrame, source: str = "judgements") -> pd.DataFrame:
    """Check ``frame`` against the judgement schema and return it with schema column order.

    Raises :class:`HumevalError` naming the column and the first offending row.
    """
    missing = [c for c in JUDGEMENT_COLUMNS if c not in frame.columns]
    if missing:
        raise HumevalError(f"tidy judgements lack column(s) {missing}", file=source)
    if frame.empty:
        raise HumevalError("tidy judgements are empty: the export held no judgement", file=source)
    check_encodable(frame, source)
    for column in _KEY_COLUMNS:
        bad = frame[column].isna() | (frame[column].astype(str) == "")
        if bad.any():
            raise HumevalError(f"column {column!r} is empty in row {int(bad.to_numpy().argmax())}", file=source)
    bad_type = ~frame["response_type"].isin(RESPONSE_TYPES)
    if bad_type.any():
        row = int(bad_type.to_numpy().argmax())
        raise HumevalError(
            f"column 'response_type' row {row}: {frame['response_type'].iloc[row]!r} is not one of {RESPONSE_TYPES}",
            file=source,
        )
    if pd.api.types.is_numeric_dtype(frame["value"]):  # a loader's numbers: no text to parse or strip
        values, empty = frame["value"], frame["value"].isna()
    else:
        values = pd.to_numeric(frame["value"], errors="coerce")
        empty = frame["value"].isna() | (frame["value"].astype(str).str.strip() == "")
    if (values.isna() & ~empty).any():
        row = int((values.isna() & ~empty).to_numpy().argmax())
        raise HumevalError(f"column 'value' row {row}: {frame['value'].iloc[row]!r} is not a number", file=source)
    pairwise = frame["response_type"] == "pairwise"
    bad_pair = pairwise & ~values.isin([-1, 0, 1])
    if bad_pair.any():
        row = int(bad_pair.to_numpy().argmax())
        raise HumevalError(
            f"column 'value' row {row}: pairwise value {values.iloc[row]} is not -1, 0 or 1", file=source
        )
    missing_b = pairwise & (frame["system_b"].isna() | (frame["system_b"].astype(str) == ""))
    if missing_b.any():
        raise HumevalError(
            f"column 'system_b' is empty in pairwise row {int(missing_b.to_numpy().argmax())}", file=source
        )
    is_rank = frame["response_type"] == "rank"
    duplicated = pd.Series(False, index=frame.index)  # each check only where its rows are (rank or not)
    if not is_rank.all():
        duplicated |= ~is_rank & frame.duplicated(["study", "judgement_id", "system"])
    if is_rank.any():
        duplicated |= is_rank & frame.assign(value=values).duplicated(["study", "judgement_id", "value"])
    if duplicated.any():
        row = int(duplicated.to_numpy().argmax())
        raise HumevalError(
            f"row {row}: judgement_id {frame['judgement_id'].iloc[row]!r} holds system "
            f"{frame['system'].iloc[row]!r} (or rank {values.iloc[row]}) twice",
            file=source,
        )
    out = frame.assign(value=values)
    return order_columns(out, JUDGEMENT_COLUMNS)


def validate_participants(frame: pd.DataFrame, source: str = "participants") -> pd.DataFrame:
    """Check the participant table: required columns, one row per (study, side, participant)."""
    missing = [c for c in PARTICIPANT_COLUMNS if c not in frame.columns]
    if missing:
        raise HumevalError(f"participants lack column(s) {missing}", file=source)
    duplicated = frame.duplicated(PARTICIPANT_COLUMNS)
    if duplicated.any():
        row = int(duplicated.to_numpy().argmax())
        raise HumevalError(f"participant {frame['participant'].iloc[row]!r} appears twice (row {row})", file=source)
    return order_columns(frame, PARTICIPANT_COLUMNS)
