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
    "INVISIBLE",
    "JUDGEMENT_COLUMNS",
    "PARTICIPANT_COLUMNS",
    "collected_ids",
    "ids_so_far",
    "keyed_pseudonyms",
    "pseudonym",
    "pseudonym_key",
    "pseudonyms",
    "rater_numbers",
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


#: Characters that show nothing: an id with one of them is the id without it. Unicode's Default_Ignorable_Code_Point
#: (DerivedCoreProperties.txt, Unicode 15.1): soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul
#: fillers, Khmer inherent vowels, Mongolian variation selectors and vowel separator, zero-width spaces and joiners,
#: left-to-right and right-to-left marks, bidirectional embeddings, overrides and isolates, word joiner, invisible
#: operators, variation selectors, byte-order mark, shorthand format controls, musical formatting and tag
#: characters. Seven of them were known before (issue 54: ``5f1a\u200e2b`` with a left-to-right mark inside, or an
#: invisible times U+2062, hid an id from every scrubber).
IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
INVISIBLE = dict.fromkeys(code for low, high in IGNORABLE_RANGES for code in range(low, high + 1))


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
    ids: pd.Series,
    salt: str,
    prefix: str = "P",
    keyed: str = "",
    source: str | pd.Series | None = None,
    case: str = "refuse",
) -> pd.Series:
    """:func:`pseudonym` of every id in ``ids`` (keyed as ``keyed`` + the raw id: a literal, never a format
    template, since it holds a side label from config), computed once per distinct
    id: a million judgements by two thousand raters cost two thousand HMACs, not a million. Ids are text: a
    missing or empty id is refused in one line naming ``source`` (the export, or each row's file) and the row
    (never a participant ``nan``, nor two people merged into one ``""``). Each id is read as
    :func:`normalised_id` says (a trailing space or a zero-width space is the same participant). Two ids that
    differ only in letter case are refused (``case="refuse"``), since whether they are one person depends on the
    platform; ``case="fold"`` makes them one (named by the spelling seen first, so an export whose ids are
    consistent keeps its pseudonyms), ``case="exact"`` two. Within
    :func:`collected_ids`, each raw id (as written and as normalised) and its pseudonym are recorded for
    :func:`humeval.id_firewall.scrub_ids`."""

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
    named = distinct  # the spelling each distinct id's pseudonym is keyed on
    if case == "fold":
        first = pd.Series(range(len(folded))).groupby(folded.to_numpy(), sort=False).transform("min")
        named = [distinct[k] for k in first]
    elif case == "refuse" and folded.duplicated().any():
        first = folded[folded.duplicated()].iloc[0]
        spellings = [str(d) for d, f in zip(distinct, folded) if f == first]
        raise HumevalError(
            f"{len(spellings)} participant ids differ only in letter case ({len(spellings[0])} characters each): one "
            "participant or two? Make the export's ids consistent, or (loader tabular) write participant_case: fold "
            "if the platform's ids ignore case, exact if they do not",
            file=source if isinstance(source, str) else None,
        )
    names = np.array([pseudonym(f"{keyed}{raw}", salt, prefix) for raw in named], dtype=object)
    collected = _IDS.get()
    if collected is not None:
        for raw, name in zip(distinct, names):
            collected.setdefault(str(raw), name)
        for raw, code in zip(written, normal_codes):  # every spelling the export used
            collected.setdefault(str(raw), names[code])
    return pd.Series(names[codes], index=ids.index, dtype=object)


def ids_so_far() -> dict[str, str]:
    """The raw ids :func:`pseudonyms` has recorded in the current :func:`collected_ids` block (none outside one)."""
    return dict(_IDS.get() or {})


@contextmanager
def collected_ids():
    """Within the block, :func:`pseudonyms` records every raw id it pseudonymises: ``{raw id: pseudonym}``."""
    collected: dict[str, str] = {}
    token = _IDS.set(collected)
    try:
        yield collected
    finally:
        _IDS.reset(token)


def rater_numbers(frame: pd.DataFrame) -> pd.Series:
    """Each judgement's rater as a number, 1, 2, ... in order of first appearance in its side's rows (the export's
    order): how a config names a rater (``where: {rater_number: [1, 2]}``). Unlike a pseudonym it does not change
    when a raw file changes, and unlike the raw id it identifies no one.

    >>> frame = pd.DataFrame({"side": ["O", "O", "O", "R1"], "participant": ["Pb", "Pa", "Pb", "Pa"]})
    >>> rater_numbers(frame).tolist()
    [1, 2, 1, 1]
    """

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
