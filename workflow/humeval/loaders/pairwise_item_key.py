"""The item key of a pairwise study split into fixed-size batches (shared by the AMT and MS Forms loaders).

The key lists items in file order: item uid = row index + 1; ``batch = (uid - 1) // size + 1``;
question ``q = (uid - 1) % size + 1``. ``key_complete`` records whether every field of the key row is
filled (an exclusion can reproduce an author's ``dropna()`` with it).
"""

from __future__ import annotations

import pandas as pd

from humeval.errors import HumevalError
from humeval.loaders import read_csv_export

__all__ = ["code_answers", "read_item_key"]


def read_item_key(path: str, required: list[str], batch_size: int, unique: list[str] | None = None) -> pd.DataFrame:
    """The key with ``uid``, ``batch``, ``question`` and ``key_complete`` added (all fields as text).

    ``required`` columns must exist; ``unique`` columns (the ids a loader joins on) must identify a row.

    >>> import io
    >>> key = read_item_key(io.StringIO("a,b\\n1,x\\n2,\\n3,z\\n"), ["a"], 2)
    >>> key[["uid", "batch", "question", "key_complete"]].values.tolist()
    [[1, 1, 1, True], [2, 1, 2, False], [3, 2, 1, True]]
    """
    try:
        key = read_csv_export(path)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise HumevalError(f"cannot parse the item key as UTF-8 CSV: {exc}", file=str(path)) from None
    missing = [c for c in required if c not in key.columns]
    if missing:
        raise HumevalError(f"item key lacks column(s) {missing}", file=str(path))
    duplicated = key.duplicated(unique) if unique else pd.Series(False, index=key.index)
    if duplicated.any():
        raise HumevalError(
            f"item key row {int(duplicated.to_numpy().argmax()) + 1} repeats the key {unique}", file=str(path)
        )
    uid = pd.RangeIndex(1, len(key) + 1)
    return key.assign(
        uid=uid,
        batch=(uid - 1) // batch_size + 1,
        question=(uid - 1) % batch_size + 1,
        key_complete=~(key == "").any(axis=1),
    )


def normalise_answer(text: str) -> str:
    """Drop every whitespace character, the no-break space U+00A0 included.

    >>> normalise_answer("A\\xa0\\xa0 \\xa0"), normalise_answer("C equally fluent")
    ('A', 'Cequallyfluent')
    """
    return "".join(ch for ch in str(text) if not ch.isspace() and ch != "\xa0")


def code_answers(answers: pd.Series, answer_map: dict, where: str) -> pd.Series:
    """Map normalised answers to +1 / -1 / 0 with ``answer_map`` (keys normalised too)."""
    lookup = {normalise_answer(k): int(v) for k, v in answer_map.items()}
    normalised = answers.map(normalise_answer)
    coded = normalised.map(lookup)
    if coded.isna().any():
        first = answers[coded.isna()].iloc[0]
        raise HumevalError(
            f"answer {first!r} is not one of {sorted(answer_map)} (after removing whitespace)", file=where
        )
    return coded.astype(int)
