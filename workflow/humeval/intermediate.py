"""The one writer and the one reader of every CSV the workflow writes (tidy tables, exclusion logs, metric values,
the audit, paper tables, QRA3 inputs, summaries).

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return as a formula (CSV
injection). :func:`write_csv` writes every such text cell with a leading ``'`` (the OWASP rule), and a text cell
that starts with ``'`` itself with one more, so :func:`read_csv` takes exactly one ``'`` off every text cell that
has one and the next stage sees the value the loader produced: a gold flag ``+`` is still ``+`` when an exclusion
matches on it. A number written as text (``-8.67``) is no formula and is written as it is.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["JUDGEMENTS", "PRINTED", "VALUE_COLUMNS", "kept_judgements", "read_csv", "write_csv"]

NUMERIC_COLUMNS = ("value", "published", "precision")
#: The columns of the metric values one stage hands the next (``intermediate/metrics.csv``, QRA cells).
VALUE_COLUMNS = ["table", "row", "column", "value"]
#: What a recomputed number rests on (the QRA cells' and the audit's ``basis``): the kept judgements (a metric's
#: cell, or a QRA cell with at least one recomputed input), or printed numbers alone (a QRA cell all of whose inputs
#: are published numbers).
JUDGEMENTS = "judgements"
PRINTED = "printed numbers"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"
#: A part of a cell after a field separator a spreadsheet may split on (``,``, ``;``, a tab) that starts like a
#: formula: OWASP's CSV-injection rule neutralises the whole cell when any part starts so (``x;=cmd|...``).
SEPARATED_FORMULA = re.compile(r"[,;\t][=+\-@]")


def first_characters(values: np.ndarray) -> np.ndarray:
    """Each cell's first character, by one numpy cast to one-character text (not a Python call per cell); a
    missing cell reads ``N``, ``n`` or ``<``."""
    return values.astype("U1")


def text_cells_changed(frame: pd.DataFrame, select, change) -> pd.DataFrame:
    """``frame`` with ``change`` applied to the text cells ``select`` picks (``select(values, first characters)``
    gives their positions in a column); numeric columns are skipped and only the columns that change are copied."""
    changed = {}
    for column in frame.columns:
        cells = frame[column]
        if pd.api.types.is_numeric_dtype(cells) or pd.api.types.is_bool_dtype(cells):
            continue
        values = cells.to_numpy(dtype=object)
        picked = np.flatnonzero(select(values, first_characters(values)) & pd.notna(values))
        if len(picked):
            values = values.copy()
            values[picked] = [change(str(cell)) for cell in values[picked]]
            changed[column] = pd.Series(values, index=frame.index)
    return frame.assign(**changed) if changed else frame


def separated_formula(cell: str) -> bool:
    """Whether a part of ``cell`` after a ``,``, ``;`` or tab starts like a formula and is not a number.

    >>> separated_formula("x;=cmd|' /C calc'!A0"), separated_formula("0.5,-0.3"), separated_formula("O, R1")
    (True, False, False)
    """
    for match in SEPARATED_FORMULA.finditer(cell):
        part = re.split(r"[,;\t]", cell[match.start() + 1 :], maxsplit=1)[0]
        if pd.isna(pd.to_numeric(part, errors="coerce")):
            return True
    return False


def formula_or_quoted(values: np.ndarray, first: np.ndarray, inner: bool = True) -> np.ndarray:
    """Which cells :func:`neutralised` prefixes: a formula start that is not a number, a part after a separator
    that starts so (:func:`separated_formula`; only where ``inner``), or a ``'``."""
    risky = np.isin(first, FORMULA_START)
    if risky.any():
        candidates = np.flatnonzero(risky)
        numbers = pd.to_numeric(pd.Series(values[candidates]).astype(str), errors="coerce")
        risky[candidates[numbers.notna().to_numpy()]] = False
    if not inner:
        return risky | (first == QUOTE)
    # only a column where one search of its text finds something is asked cell by cell; a missing cell joins as
    # "nan", which holds no risk
    if separator_before_formula(values.tolist()):
        text = pd.Series(values, dtype=object).astype(str)  # a column of text may hold a True or a number too
        hits = np.flatnonzero(text.str.contains(SEPARATED_FORMULA, na=False).to_numpy(dtype=bool))
        risky[hits] |= [separated_formula(str(values[k])) for k in hits]
    return risky | (first == QUOTE)


def separator_before_formula(cells: list) -> bool:
    """Whether any of ``cells`` holds a separator before a formula character: the cells' text joined, encoded and
    translated once (:data:`RISK_TABLE`) and searched for ``,=`` (a C scan), not a regular expression per cell
    (0.3 s a column of a million cells). A line break joins the cells, so no match spans two of them.

    >>> separator_before_formula(["x;=cmd", "ok"]), separator_before_formula(["a,", "=b"])
    (True, False)
    """
    joined = "\n".join(map(str, cells)).encode("utf-8", "surrogatepass")
    return b",=" in joined.translate(RISK_TABLE)


def neutralised(frame: pd.DataFrame, inner: bool = True) -> pd.DataFrame:
    """``frame`` as :func:`write_csv` writes it: text cells a spreadsheet would run as a formula, and text cells
    that start with ``'``, prefixed with ``'``; numbers, and numbers written as text, unchanged. Without ``inner``,
    a cell with a formula only after a separator is left as it is (the writer asks those cells only when the
    written bytes hold a separator before a formula character).

    >>> neutralised(pd.DataFrame({"t": ["=cmd|' /C calc'!A0", "-8.67", "+", "'quoted", "ok", "x;=cmd"]}))["t"].tolist()
    ["'=cmd|' /C calc'!A0", '-8.67', "'+", "''quoted", 'ok', "'x;=cmd"]
    """

    def select(values, first):
        return formula_or_quoted(values, first, inner)

    return text_cells_changed(frame, select, lambda cell: QUOTE + cell)


def restored(frame: pd.DataFrame) -> pd.DataFrame:
    """The inverse of :func:`neutralised` on text read back: one leading ``'`` off every text cell that has one.

    >>> restored(pd.DataFrame({"t": ["'=cmd", "''quoted", "-8.67", ""]}))["t"].tolist()
    ['=cmd', "'quoted", '-8.67', '']
    """
    return text_cells_changed(frame, lambda values, first: first == QUOTE, lambda cell: cell[1:])


def holds(path: str | Path, needle: bytes) -> bool:
    """Whether the file holds ``needle`` anywhere: a byte search in 4 MB blocks (a C scan; 100 MB in well under a
    tenth of a second), so a writer or reader asks a whole file once instead of every cell."""
    with open(path, "rb") as handle:
        return any(needle in block for block in iter(lambda: handle.read(1 << 22), b""))


#: Every separator byte read as ``,`` and every formula character as ``=``: one translation of a block, then one
#: search for ``,=`` (twelve searches of 100 MB, one per byte pair, cost 1.1 s; this costs 0.15 s).
RISK_TABLE = bytes.maketrans(b";\t+-@", b",,===")


def written_risks(path: str | Path) -> tuple[bool, bool]:
    """Whether the file holds a carriage return, and a separator followed by a formula character: one read in 4 MB
    blocks, each translated once (:data:`RISK_TABLE`) and searched in memory."""
    carriage = separator = False
    tail = b""
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            data = tail + block
            carriage = carriage or b"\r" in data
            separator = separator or b",=" in data.translate(RISK_TABLE)
            if carriage and separator:
                break
            tail = block[-1:]
    return carriage, separator


def separated_formula_written(out: pd.DataFrame) -> bool:
    """Whether a text cell of ``out`` holds a part that starts like a formula after a separator (asked only when
    the written bytes hold a separator before a formula character: a negative number after a comma is one, so a
    table of pairwise values -1 always asks). A column is first searched whole (:func:`separator_before_formula`);
    only one that holds a separator before a formula character is asked cell by cell. At 10^6 pairwise judgements
    asking every cell of the 9 text columns took 3.3 s of the extract job."""
    for column in out.columns:
        if pd.api.types.is_numeric_dtype(out[column]):
            continue
        cells = out[column].astype(str).fillna("")
        if (
            separator_before_formula(cells.tolist())
            and cells[cells.str.contains(SEPARATED_FORMULA)].map(separated_formula).any()
        ):
            return True
    return False


def write_csv(frame: pd.DataFrame, path: str | Path, index: bool = False) -> None:
    """Write ``frame`` as CSV with formula cells neutralised (:func:`neutralised`), header cells too; the row
    labels as well when ``index`` (a paper table's rows)."""
    if index:
        frame = frame.reset_index().rename(columns={frame.index.name or "index": frame.index.name or ""})
    header = neutralised(pd.DataFrame({"name": [str(c) for c in frame.columns]}))["name"]  # a paper table's columns
    out = neutralised(frame, inner=False).set_axis(list(header), axis=1)
    out.to_csv(path, index=False)
    # a bare carriage return is a line break to every CSV reader, but Python's writer quotes only fields with
    # "\n": a file that holds one is written again with every text field quoted, so it reads back whole (a search
    # of the written bytes, 0.1 s for 100 MB, against 0.7 s for asking each text cell); so is a file with a cell
    # neutralised for a formula after a ";" (a spreadsheet that splits on ";" sees the quoted cell whole)
    carriage, separator = written_risks(path)
    quoted = carriage
    # a separator before a formula character somewhere: ask the text cells (a negative number is one); a cell
    # neutralised only gains a leading ', so the cells as given answer as the written ones would
    if separator and separated_formula_written(frame):
        out, quoted = neutralised(frame).set_axis(list(header), axis=1), True
    if quoted:
        out.to_csv(path, index=False, quoting=csv.QUOTE_NONNUMERIC)


def read_csv(path: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """Read a CSV that :func:`write_csv` wrote (only ``columns``, when given), each text cell as it was before
    writing (:func:`restored`).

    Every column is read as text (so ``"true"``, ``"007"`` or ``"1e5"`` stay what the loader wrote),
    except the schema's numeric columns (``value``, ``published``, ``precision``); a metric that needs a
    loader's extra column as a number converts it explicitly.
    """
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""], usecols=columns)
    if holds(path, QUOTE.encode()):  # no ' anywhere: no cell to restore (0.5 s saved per 10^6 rows)
        frame = restored(frame)
        frame = frame.set_axis(list(restored(pd.DataFrame({"name": list(frame.columns)}))["name"]), axis=1)
    for column in NUMERIC_COLUMNS:
        if column in frame.columns:
            frame[column] = pd.to_numeric(frame[column])
    return frame


def kept_judgements(tidy: pd.DataFrame, exclusions: pd.DataFrame) -> pd.DataFrame:
    """The judgements the exclusions kept: the tidy rows whose ``judgement_id`` the exclusion log (one row per
    dropped judgement, ``exclusions.csv``) does not hold, in tidy order. Derived where it is read rather than
    written by the exclude stage: at a million judgements a kept table would be a 95 MB CSV, 1.8 s to write and
    0.8 s to read per stage, on the critical path."""
    return tidy[~tidy["judgement_id"].isin(exclusions["judgement_id"])].reset_index(drop=True)
