"""Loader for an Amazon Mechanical Turk batch-results CSV of a pairwise task (Liu et al. 2021).

One record per assignment (quoted multi-line cells: read with a CSV parser). ``Input.<field>`` columns
identify the item and are joined to the item key on ids (never on text: AMT stripped leading whitespace);
``Answer.<criterion>`` holds ``a``/``b``/``c`` (A better, B better, equal). Worker ids were removed by the
authors; each assignment is a participant (work unit), pseudonymised.

Bespoke because each record must be joined 1:1 to a separate item key on ids (AMT stripped whitespace from the text) and checked for the expected assignments per item.
"""

from __future__ import annotations

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.loaders import read_csv_export, require_inputs
from humeval.loaders.pairwise_item_key import code_answers, read_item_key
from humeval.tidy import pseudonyms

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

    Notes
    -----
    A pairwise judgement is coded on the scale the tally and its sign test read: +1 when ``sourcea`` is preferred,
    -1 when ``sourceb`` is, 0 for a tie (``answer_map``; whitespace in an answer, AMT's no-break spaces included,
    is ignored). Key item ``uid`` (1-based, in the key's order) sits in batch ``(uid - 1) // batch_size + 1`` as
    question ``(uid - 1) % batch_size + 1``. The join is many-to-one on the id fields and must be complete: every
    record finds its item, and every item has ``assignments_per_item`` records, else one line says which.

    References
    ----------
    Liu, Sap, Lu, Swayamdipta, Bhagavatula, Smith & Choi (2021), "DExperts: Decoding-Time Controlled Text
    Generation with Experts and Anti-Experts", *ACL 2021* (the study whose batches this reads); Amazon Mechanical
    Turk, batch results CSV: one row per assignment with ``AssignmentId``, ``Input.<field>`` and ``Answer.<field>``.

    Examples
    --------
    Two items of one batch, two assignments each; the second item's first assignment calls the two equal:

    >>> import pathlib, shutil, tempfile
    >>> from humeval.loaders import extract_study
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "key.csv").write_text("prompt_id,sourcea,sourceb\\n7,dexperts,gpt2\\n9,gpt2,dexperts\\n")
    >>> _ = (folder / "batch.csv").write_text("AssignmentId,Input.prompt_id,Answer.qFluent\\n"
    ...     "3AAA00000001,7,a\\n3AAA00000002,7,b\\n3AAA00000003,9,c\\n3AAA00000004,9,a\\n")
    >>> params = {"key_columns": ["prompt_id"], "batch_size": 2, "answer_column": "Answer.qFluent",
    ...           "answer_map": {"a": 1, "b": -1, "c": 0}}
    >>> study = {"name": "demo", "raw": [{"id": "batch"}, {"id": "key"}], "extract": [{"side": "O",
    ...     "loader": "amt_pairwise_batch", "inputs": {"results": "batch", "key": "key"}, "params": params}]}
    >>> judgements, _ = extract_study(study, {"batch": str(folder / "batch.csv"), "key": str(folder / "key.csv")})
    >>> judgements[["item", "system", "system_b", "value", "question"]].to_string(index=False)
    '   item   system system_b  value  question\\nuid0001 dexperts     gpt2      1         1\\nuid0001 dexperts     gpt2     -1         1\\nuid0002     gpt2 dexperts      0         2\\nuid0002     gpt2 dexperts      1         2'
    >>> shutil.rmtree(folder)
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
