"""Loader for an Amazon Mechanical Turk batch-results CSV of a pairwise task (Liu et al. 2021).

One record per assignment (quoted multi-line cells: read with a CSV parser). ``Input.<field>`` columns
identify the item and are joined to the item key on ids (never on text: AMT stripped leading whitespace);
``Answer.<criterion>`` holds ``a``/``b``/``c`` (A better, B better, equal). Worker ids were removed by the
authors; each assignment is a participant (work unit), pseudonymised.

Bespoke because each record must be joined 1:1 to a separate item key on ids (AMT stripped whitespace from the text) and checked for the expected assignments per item.
"""

from __future__ import annotations

import pandas as pd

from humeval.errors import HumevalError
from humeval.loaders import read_csv_export, require_inputs
from humeval.loaders.pairwise_item_key import code_answers, read_item_key
from humeval.tidy import pseudonyms
from humeval.vocabulary import register

__all__ = ["load"]


@register("loader", "amt_pairwise_batch")
def load(
    inputs: dict[str, str],
    study: str,
    side: str,
    *,
    key_columns: list[str],
    batch_size: int,
    answer_column: str,
    answer_map: dict[str, int],
    assignments_per_item: int | None = None,
    criterion: str = "fluency",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy pairwise judgements of an AMT batch joined 1:1 to the item key; input roles ``results`` (the batch
    CSV) and ``key`` (the item key CSV: ``uid``, the key columns, ``sourcea``, ``sourceb``).

    Parameters
    ----------
    key_columns : list of str
        The fields that identify an item: ``Input.<field>`` in the batch, ``<field>`` in the key (ids, never text).
    batch_size : int
        Items per batch in the key: key item ``uid`` is in batch ``uid // batch_size + 1``.
    answer_column : str
        The batch column holding the answer (``Answer.qFluent``).
    answer_map : dict of str to int
        Answer text -> tidy value: +1 for ``sourcea`` preferred, -1 for ``sourceb``, 0 for equal (``{a: 1, b: -1,
        c: 0}``); an answer it lacks is an error.
    assignments_per_item : int, optional
        The assignments each key item must have (every item is checked). Default: the largest count found.
    criterion : str
        The tidy ``criterion``.

    Returns
    -------
    judgements, participants : DataFrame
        One pairwise row per assignment (``value`` from ``answer_map``) with ``uid``, ``batch``, ``question``
        and ``key_complete``; one participant per assignment (pseudonymised) with its ``batch``.
    """
    require_inputs(inputs, ["results", "key"], "amt_pairwise_batch", study)
    key_fields = key_columns
    key = read_item_key(inputs["key"], key_fields + ["sourcea", "sourceb"], batch_size, unique=key_fields)
    answer = answer_column
    needed = [f"Input.{f}" for f in key_fields] + ["AssignmentId", answer]
    try:
        results = read_csv_export(inputs["results"], usecols=lambda c: c in needed)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise HumevalError(f"cannot parse the AMT batch results as UTF-8 CSV: {exc}", file=inputs["results"]) from None
    missing = [c for c in needed if c not in results.columns]
    if missing:
        raise HumevalError(f"missing column(s) {missing}", file=inputs["results"])
    results = results.rename(columns={f"Input.{f}": f for f in key_fields})
    merged = results.merge(key, on=key_fields, how="left", validate="many_to_one")
    unmatched = merged["uid"].isna()
    if unmatched.any():
        row = int(unmatched.to_numpy().argmax())
        raise HumevalError(
            f"record {row + 1}: item {merged.loc[row, key_fields].to_dict()} is not in the item key",
            file=inputs["results"],
        )
    per_item = merged.groupby("uid").size()
    expected = int(per_item.max()) if assignments_per_item is None else assignments_per_item
    if (per_item != expected).any() or len(per_item) != len(key):
        raise HumevalError(
            f"expected {expected} assignments for each of the {len(key)} key items; found "
            f"{len(per_item)} items with {sorted(per_item.unique())} assignments",
            file=inputs["results"],
        )
    participant = pseudonyms(merged["AssignmentId"], study, prefix="A", source=inputs["results"])
    judgements = pd.DataFrame(
        {
            "study": study,
            "side": side,
            "judgement_id": participant,
            "participant": participant,
            "item": "uid" + merged["uid"].astype(int).astype(str).str.zfill(4),
            "criterion": criterion,
            "response_type": "pairwise",
            "system": merged["sourcea"],
            "system_b": merged["sourceb"],
            "value": code_answers(merged[answer], answer_map, inputs["results"]),
            "uid": merged["uid"].astype(int),
            "batch": merged["batch"].astype(int),
            "question": merged["question"].astype(int),
            "key_complete": merged["key_complete"],
        }
    )
    participants = judgements[["study", "side", "participant", "batch"]].drop_duplicates("participant")
    return judgements, participants.reset_index(drop=True)
