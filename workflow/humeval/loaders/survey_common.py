"""Helpers shared by the survey loaders (Qualtrics CSV, SurveyGizmo workbook): item layout, values, tidy rows.

A survey shows ``contexts`` blocks; each block rates ``responses`` responses on two criteria. The item
columns of a block are either ``alternate`` (readability, coherence per response) or ``criterion_blocks``
(all readability columns, then all coherence columns). Items are keyed ``c<context>r<position>``.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from humeval.errors import HumevalError

__all__ = [
    "SurveyDesign",
    "SurveyLayout",
    "check_criterion_words",
    "check_range",
    "item_layout",
    "leading_integer",
    "tidy_from_wide",
    "yes_no",
]

RESPONSE_TYPES = {"likert": "rating", "magnitude": "magnitude", "bws": "rank"}
#: The survey designs: a Likert rating, a magnitude estimate, a best-worst ranking (:data:`RESPONSE_TYPES`).
SurveyDesign = Literal["likert", "magnitude", "bws"]
#: The order of a block's item columns (:func:`item_layout`).
SurveyLayout = Literal["alternate", "criterion_blocks"]


def item_layout(contexts: int, responses: int, layout: str, criteria: list[str]) -> pd.DataFrame:
    """One row per item column, in column order: context, position, criterion.

    >>> item_layout(1, 2, "alternate", ["readability", "coherence"]).values.tolist()
    [[1, 1, 'readability'], [1, 1, 'coherence'], [1, 2, 'readability'], [1, 2, 'coherence']]
    >>> item_layout(1, 2, "criterion_blocks", ["readability", "coherence"]).values.tolist()
    [[1, 1, 'readability'], [1, 2, 'readability'], [1, 1, 'coherence'], [1, 2, 'coherence']]
    """
    rows = []
    for context in range(1, contexts + 1):
        if layout == "alternate":
            rows += [(context, p, c) for p in range(1, responses + 1) for c in criteria]
        elif layout == "criterion_blocks":
            rows += [(context, p, c) for c in criteria for p in range(1, responses + 1)]
        else:
            raise HumevalError(f"unknown item layout {layout!r} (alternate, criterion_blocks)")
    return pd.DataFrame(rows, columns=["context", "position", "criterion"])


def check_criterion_words(
    texts: list[str], layout: pd.DataFrame, path: str, first_column: int, spellings: dict | None = None
) -> None:
    """Each item column's question text must name its criterion (tags are unreliable; texts are not).

    ``spellings`` adds accepted variants per criterion (a survey may misspell one: ``cohernce``).
    """
    spellings = spellings or {}
    for k, (text, criterion) in enumerate(zip(texts, layout["criterion"])):
        words = [criterion] + list(spellings.get(criterion, []))
        if not any(w.lower() in str(text).lower() for w in words):
            raise HumevalError(
                f"column {first_column + k}: question text does not mention {criterion!r} "
                f"(item columns are parsed by position; the layout does not fit this export): "
                f"{str(text)[:80]!r}",
                file=path,
            )


def leading_integer(values: pd.Series, path: str, column_of) -> pd.Series:
    """The leading integer of each cell ('6 = High Coherence' -> 6); empty cells are an error."""
    numbers = pd.to_numeric(values.astype(str).str.extract(r"^\s*(-?\d+)")[0], errors="coerce")
    bad = numbers.isna()
    if bad.any():
        k = bad.to_numpy().argmax()
        raise HumevalError(f"{column_of(k)}: {values.iloc[k]!r} is not a number", file=path)
    return numbers


def check_range(values: pd.Series, bounds: tuple[float, float] | None, path: str, column_of) -> None:
    if bounds is None:
        return
    bad = (values < bounds[0]) | (values > bounds[1])
    if bad.any():
        k = bad.to_numpy().argmax()
        raise HumevalError(f"{column_of(k)}: value {values.iloc[k]} is outside {bounds[0]}..{bounds[1]}", file=path)


def yes_no(values: pd.Series, path: str, column: str) -> pd.Series:
    """Normalise yes/no answers ('NO' -> 'no'); anything else is an error."""
    normal = values.astype(str).str.strip().str.lower()
    bad = ~normal.isin(["yes", "no"])
    if bad.any():
        raise HumevalError(f"column {column}: {values[bad].iloc[0]!r} is not Yes/No", file=path)
    return normal


def tidy_from_wide(
    ratings: pd.DataFrame,
    layout: pd.DataFrame,
    participants: pd.Series,
    *,
    study: str,
    side: str,
    condition: str,
    design: str,
) -> pd.DataFrame:
    """Tidy rows from a participants x item-columns frame of numbers (columns in ``layout`` order)."""
    people, columns = ratings.shape
    # column-major, as DataFrame.melt orders it (melt concatenates the hundreds of columns one by one, 10 times slower)
    long = pd.DataFrame(
        {
            "participant": np.tile(participants.to_numpy(), columns),
            "column": np.repeat(np.arange(columns), people),
            "value": ratings.to_numpy().ravel(order="F"),
        }
    ).join(layout, on="column")
    item = "c" + long["context"].astype(str).str.zfill(2) + "r" + long["position"].astype(str)
    response_type = RESPONSE_TYPES[design]
    judgement = long["participant"] + ":" + condition + ":" + item + ":" + long["criterion"]
    if design == "bws":  # one ranking per participant, context and criterion; rows are its slots
        judgement = (
            long["participant"]
            + ":"
            + condition
            + ":c"
            + long["context"].astype(str).str.zfill(2)
            + ":"
            + long["criterion"]
        )
    return pd.DataFrame(
        {
            "study": study,
            "side": side,
            "judgement_id": judgement,
            "participant": long["participant"],
            "item": item,
            "criterion": long["criterion"],
            "response_type": response_type,
            "system": "pos" + long["position"].astype(str),
            "system_b": "",
            "value": long["value"],
            "condition": condition,
            "context": long["context"],
            "position": long["position"],
        }
    )
