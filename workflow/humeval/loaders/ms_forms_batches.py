"""Loader for per-batch Microsoft Forms exports of a pairwise task (Dinkar et al. 2024).

Each export holds one batch: one row per respondent, the questions in fixed column positions (the
header texts differ between files, so columns are selected by position, 0-based). Input roles
``batch_<N>`` (or ``batch_<N>_<anything>`` for further exports of the same batch, e.g. more
respondents) give the batch number; question q of batch N is key item ``uid = (N - 1) * size + q``.
Answers are normalised (all whitespace and U+00A0 removed) before mapping. Identifying columns (name,
e-mail, the participant number) never leave the loader; the participant number is pseudonymised (the
same number in two batches is taken to be the same person).

Bespoke because MS Forms headers repeat the question text, so answers are found by position (first question column, questions per batch) and joined to an item key per batch file.
"""

from __future__ import annotations

import re

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.loaders import read_csv_export, require_inputs
from humeval.loaders.pairwise_item_key import code_answers, read_item_key
from humeval.tidy import pseudonyms

__all__ = ["load"]

_ROLE = re.compile(r"^batch_(\d+)(?:_.+)?$")


def read_batch(
    path: str, batch: int, *, columns: int, participant_column: int, first_question_column: int, questions: int
) -> pd.DataFrame:
    """Long (batch, respondent, question, answer) of one export, columns by position (:func:`load`)."""
    try:
        frame = read_csv_export(path)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise HumevalError(f"cannot parse the MS Forms export as UTF-8 CSV: {exc}", file=path) from None
    expected = columns
    if frame.shape[1] != expected:
        raise HumevalError(
            f"{frame.shape[1]} columns, expected {expected} (participant number in column "
            f"{participant_column}, questions 1..{questions} from column "
            f"{first_question_column}, 0-based)",
            file=path,
        )
    if frame.empty:
        raise HumevalError("the export holds no response", file=path)
    first, n = first_question_column, questions
    answers = frame.iloc[:, first : first + n].set_axis(range(1, n + 1), axis=1)
    answers.insert(0, "respondent", frame.iloc[:, participant_column].str.strip())
    if answers["respondent"].duplicated().any():
        row = int(answers["respondent"].duplicated().to_numpy().argmax()) + 2
        raise HumevalError(
            f"row {row}: participant number (column {participant_column}) appears twice in this batch",
            file=path,
        )
    if (answers["respondent"] == "").any():
        raise HumevalError(
            f"row {int((answers['respondent'] == '').to_numpy().argmax()) + 2}: empty participant "
            f"number (column {participant_column})",
            file=path,
        )
    long = answers.melt(id_vars="respondent", var_name="question", value_name="answer")
    return long.assign(batch=batch, file=path)


@register("loader", "ms_forms_batches")
def load(
    inputs: dict[str, str],
    study: str,
    side: str,
    *,
    columns: int,
    participant_column: int,
    first_question_column: int,
    questions: int,
    batch_size: int,
    answer_map: dict[str, int],
    criterion: str = "fluency",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy pairwise judgements of all batch exports, mapped to the item key; input roles ``key`` (the item key
    CSV) and ``batch_<N>`` or ``batch_<N>_<label>`` (the exports of batch N).

    Parameters
    ----------
    columns : int
        The columns every export must have (a different count is an error naming the file).
    participant_column : int
        The 0-based position of the participant number (pseudonymised; the same number in two batches is one
        person).
    first_question_column : int
        The 0-based position of question 1; questions follow in order.
    questions : int
        Questions per export.
    batch_size : int
        Items per batch in the key: question q of batch N is key item ``uid = (N - 1) * batch_size + q``.
    answer_map : dict of str to int
        Answer text (all whitespace removed) -> tidy value: +1 for ``sourcea`` preferred, -1 for ``sourceb``, 0
        for equal; an answer it lacks is an error.
    criterion : str
        The tidy ``criterion``.

    Returns
    -------
    judgements, participants : DataFrame
        One pairwise row per answer with ``uid``, ``batch``, ``question`` and ``key_complete``; one participant
        per participant number (pseudonymised).

    Notes
    -----
    Question q (1-based) of batch N is key item uid = (N - 1) x ``batch_size`` + q, and its answer is coded on the
    pairwise scale: +1 for ``sourcea`` preferred, -1 for ``sourceb``, 0 for equal (``answer_map``, after every
    whitespace character, U+00A0 included, is removed: the exports differ in it). Columns are taken by position,
    since Forms repeats each question's text as its header; every export must have ``columns`` columns, so that a
    changed form is refused rather than read shifted.

    References
    ----------
    Dinkar, Abercrombie & Rieser (2024), "ReproHum #0927-03: DExpert Evaluation? Reproducing Human Judgements of the
    Fluency of Generated Text", *HumEval @ LREC-COLING 2024* (the exports this reads), reproducing Liu et al. (2021),
    "DExperts", *ACL 2021*, section 3.2.4.

    Examples
    --------
    Batch 2 of a key of two items per batch: respondent 17 prefers A in question 1 and calls question 2 equal:

    >>> import pathlib, shutil, tempfile
    >>> from humeval.loaders import extract_study
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "key.csv").write_text("sourcea,sourceb\\ngpt2,dexperts\\ngpt2,dapt\\ndexperts,gpt2\\ndapt,gpt2\\n")
    >>> _ = (folder / "batch2.csv").write_text("Id,Name,Number,Q1 text,Q2 text\\n1,Jo Bloggs,17,A,C\\xa0equally fluent\\n")
    >>> params = {"columns": 5, "participant_column": 2, "first_question_column": 3, "questions": 2,
    ...           "batch_size": 2, "answer_map": {"A": 1, "B": -1, "C equally fluent": 0}}
    >>> study = {"name": "demo", "raw": [{"id": "key"}, {"id": "b2"}], "extract": [{"side": "R1",
    ...     "loader": "ms_forms_batches", "inputs": {"key": "key", "batch_2": "b2"}, "params": params}]}
    >>> judgements, people = extract_study(study, {"key": str(folder / "key.csv"), "b2": str(folder / "batch2.csv")})
    >>> judgements[["item", "system", "system_b", "value"]].to_string(index=False)
    '   item   system system_b  value\\nuid0003 dexperts     gpt2      1\\nuid0004     dapt     gpt2      0'
    >>> "Bloggs" in judgements.to_string() + people.to_string(), people["batches"].tolist()
    (False, ['2'])
    >>> shutil.rmtree(folder)
    """
    require_inputs(inputs, ["key"], "ms_forms_batches", study)
    size = batch_size
    key = read_item_key(inputs["key"], ["sourcea", "sourceb"], size).set_index("uid")
    batches = []
    for role, path in inputs.items():
        if role == "key":
            continue
        match = _ROLE.match(role)
        if not match:
            raise HumevalError(f"input role {role!r}: expected 'key' or 'batch_<N>[_<label>]'", study=study)
        layout = {"participant_column": participant_column, "first_question_column": first_question_column}
        batches.append(read_batch(path, int(match.group(1)), columns=columns, questions=questions, **layout))
    if not batches:
        raise HumevalError("no batch_<N> input", study=study)
    long = pd.concat(batches, ignore_index=True)
    long["uid"] = (long["batch"] - 1) * size + long["question"].astype(int)
    beyond = ~long["uid"].isin(key.index)
    if beyond.any():
        raise HumevalError(
            f"batch {int(long.loc[beyond, 'batch'].iloc[0])} has no rows in the item key "
            f"({len(key)} items, {size} per batch)",
            file=str(long.loc[beyond, "file"].iloc[0]),
        )
    items = key.loc[long["uid"]]
    values = pd.concat(
        [code_answers(part["answer"], answer_map, file) for file, part in long.groupby("file", sort=False)]
    ).reindex(long.index)
    participant = pseudonyms(long["respondent"], study, source=long["file"])
    judgements = pd.DataFrame(
        {
            "study": study,
            "side": side,
            "judgement_id": participant
            + ":b"
            + long["batch"].astype(str).str.zfill(2)
            + "q"
            + long["question"].astype(str).str.zfill(2),
            "participant": participant,
            "item": "uid" + long["uid"].astype(str).str.zfill(4),
            "criterion": criterion,
            "response_type": "pairwise",
            "system": items["sourcea"].to_numpy(),
            "system_b": items["sourceb"].to_numpy(),
            "value": values,
            "uid": long["uid"],
            "batch": long["batch"],
            "question": long["question"].astype(int),
            "key_complete": items["key_complete"].to_numpy(),
        }
    )
    participants = (
        judgements.groupby(["study", "side", "participant"], as_index=False)["batch"]
        .agg(lambda b: ",".join(str(x) for x in sorted(set(b))))
        .rename(columns={"batch": "batches"})
    )
    return judgements, participants
