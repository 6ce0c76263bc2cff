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
from humeval.loaders import require_inputs
from humeval.loaders.pairwise_item_key import code_answers, read_item_key
from humeval.tidy import pseudonyms


def load(inputs: dict, params: dict, *, study: str, side: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy pairwise judgements of an AMT batch joined 1:1 to the item key."""
    require_inputs(inputs, ["results", "key"], "amt_pairwise_batch", study)
    key_fields = params["key_columns"]
    key = read_item_key(
        inputs["key"], key_fields + ["sourcea", "sourceb"], int(params["batch_size"]), unique=key_fields
    )
    answer = params["answer_column"]
    needed = [f"Input.{f}" for f in key_fields] + ["AssignmentId", answer]
    try:
        results = pd.read_csv(
            inputs["results"], dtype=str, keep_default_na=False, encoding="utf-8", usecols=lambda c: c in needed
        )
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
    expected = int(params.get("assignments_per_item", per_item.max()))
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
            "criterion": params.get("criterion", "fluency"),
            "response_type": "pairwise",
            "system": merged["sourcea"],
            "system_b": merged["sourceb"],
            "value": code_answers(merged[answer], params["answer_map"], inputs["results"]),
            "uid": merged["uid"].astype(int),
            "batch": merged["batch"].astype(int),
            "question": merged["question"].astype(int),
            "key_complete": merged["key_complete"],
        }
    )
    participants = judgements[["study", "side", "participant", "batch"]].drop_duplicates("participant")
    return judgements, participants.reset_index(drop=True)
