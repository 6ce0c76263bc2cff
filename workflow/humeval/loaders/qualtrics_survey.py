"""Loader for a Qualtrics CSV export of a rating survey (Braggaar et al. 2022, ReproGen).

Three header rows (export tags, full question texts, ImportId JSON); responses from the 4th row; UTF-8
with quoted multi-line header cells. Columns 0..``metadata_columns``-1 are metadata (``Duration (in
seconds)``, ``Finished``, ``ResponseId``, ...); then the item columns, parsed **by position** (the export
tags are duplicated or wrong) and checked against the criterion word in each question text; the last
two columns are the experience questions q1 and q2 (Yes/No). Values: the leading integer of each cell
(Likert '6 = High Coherence' -> 6; magnitudes and ranks are integers). Participants are pseudonymised
``ResponseId``s; their CSV row order is kept (``row``), since a published subgroup split depends on it.
Each value keeps its column's export tag and index (``export_tag``, ``export_column``).

Bespoke because Qualtrics repeats export tags across questions, so columns are read by position with a per-design layout (and the QSF for context turns).
"""

from __future__ import annotations

import html
import json
import re

import pandas as pd

from humeval import strict_json
from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.loaders import require_inputs
from humeval.loaders.survey_common import (
    SurveyDesign,
    SurveyLayout,
    check_criterion_words,
    check_range,
    item_layout,
    leading_integer,
    tidy_from_wide,
    yes_no,
)
from humeval.patterns import config_pattern
from humeval.tidy import pseudonyms

__all__ = ["context_texts", "load"]


def response_texts(questions: list[str], layout: pd.DataFrame, pattern: str) -> dict[tuple, str]:
    """Response text per (context, position) from the question-text header row (first match of ``pattern``)."""
    texts = {}
    for text, (context, position, _) in zip(questions, layout.itertuples(index=False)):
        match = config_pattern(pattern, dot_all=True).search(str(text))
        if match and (context, position) not in texts:
            texts[(context, position)] = re.sub(r"\s+", " ", match.group(1)).strip()
    return texts


def context_texts(path: str, contexts: int, tag: str = "C{context}") -> pd.Series:
    """The two context turns (Person A, Person B) of each context from a Qualtrics survey definition (.qsf):
    the descriptive-text elements (QuestionType DB) tagged ``C1``..``C<contexts>``, joined by a space."""
    try:
        with open(path, encoding="utf-8") as handle:
            survey = strict_json.load(handle)
        questions = {
            e["Payload"].get("DataExportTag"): e["Payload"].get("QuestionText", "")
            for e in survey["SurveyElements"]
            if e.get("Element") == "SQ" and e["Payload"].get("QuestionType") == "DB"
        }
    except (
        json.JSONDecodeError,
        strict_json.DuplicateKey,
        UnicodeDecodeError,
        KeyError,
        TypeError,
        AttributeError,
        RecursionError,
    ) as exc:
        raise HumevalError(
            f"not a Qualtrics survey definition (SurveyElements with SQ payloads): {type(exc).__name__}: {exc}",
            file=path,
        ) from None
    texts = {}
    for context in range(1, contexts + 1):
        name = tag.format(context=context)
        if name not in questions:
            raise HumevalError(f"no descriptive-text element tagged {name!r}", file=path)
        plain = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", questions[name])))
        match = re.search(r"Person A:\s*(.*?)\s*Person B:\s*(.*?)\s*Your task", plain)
        if not match:
            raise HumevalError(f"element {name!r}: no 'Person A: ... Person B: ...' turns", file=path)
        texts[context] = f"{match.group(1)} {match.group(2)}"
    return pd.Series(texts)


@register("loader", "qualtrics_survey", renamed={"range": "scale"})
def load(
    inputs: dict[str, str],
    study: str,
    side: str,
    *,
    condition: str,
    design: SurveyDesign,
    contexts: int,
    responses: int,
    layout: SurveyLayout,
    criteria: list[str] = ("readability", "coherence"),
    metadata_columns: int = 11,
    criterion_spellings: dict[str, list[str]] | None = None,
    scale: list[int] | None = None,
    response_text_pattern: str | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy judgements and participants of one Qualtrics export (one condition); input role ``survey``, and
    optionally ``qsf`` (the survey definition), whose context turns are added as ``context_text``.

    Parameters
    ----------
    metadata_columns : int
        The columns before the first item column (``ResponseId``, ``Duration (in seconds)`` and ``Finished`` among them).
    response_text_pattern : str, optional
        A regular expression whose first group finds each response's text in the question-text header row
        (tidy ``response_text``).

    Returns
    -------
    judgements, participants : DataFrame
        One row per item cell with ``context``, ``position``, ``condition``, ``export_tag`` and
        ``export_column``; one participant per response (pseudonymised ``ResponseId``) with ``duration_s``,
        ``minutes``, ``finished``, ``q1`` and ``q2``.

    Notes
    -----
    Item column k (0-based, after the metadata columns) is the k-th (context, position, criterion) of the survey's
    order (:func:`humeval.loaders.survey_common.item_layout`), checked against the criterion word in its question
    text (row 2); its value is the cell's leading integer (``6 = High Coherence`` is 6), within ``scale`` where one
    is given. Minutes are ``Duration (in seconds)`` / 60, which the study's timing and exclusions read; the CSV row
    order is kept as ``row``, since a published subgroup split depends on it.

    References
    ----------
    Braggaar, Tomas, Blomsma, Hommes, Braun, van Miltenburg, van der Lee, Goudbeek & Krahmer (2022), "A
    reproduction study of methods for evaluating dialogue system output: Replicating Santhanam and Shaikh (2019)",
    *INLG 2022* (the exports this reads); Qualtrics, "Data export" (CSV with three header rows: export tags,
    question texts, ImportIds).

    Examples
    --------
    One context with one response, rated for readability and coherence on 1-6 by one respondent:

    >>> import pathlib, shutil, tempfile
    >>> from humeval.loaders import extract_study
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> export = folder / "survey.csv"
    >>> rows = [["ResponseId", "Duration (in seconds)", "Finished", "Q1_1", "Q1_1", "q1", "q2"],
    ...         ["Response ID", "Duration", "Finished", "Rate its readability", "Rate its coherence", "Q1", "Q2"],
    ...         ["{}"] * 7,
    ...         ["R_1a2B3c4D5e6F7g8", "630", "True", "5", "6 = High Coherence", "Yes", "No"]]
    >>> _ = export.write_text("".join(",".join(row) + "\\n" for row in rows))
    >>> params = {"condition": "Likert", "design": "likert", "contexts": 1, "responses": 1, "layout": "alternate",
    ...           "metadata_columns": 3, "scale": [1, 6]}
    >>> study = {"name": "demo", "raw": [{"id": "survey"}], "extract": [{"side": "R1",
    ...     "loader": "qualtrics_survey", "inputs": {"survey": "survey"}, "params": params}]}
    >>> judgements, people = extract_study(study, {"survey": str(export)})
    >>> judgements[["item", "criterion", "value", "export_column"]].to_string(index=False)
    ' item   criterion  value  export_column\\nc01r1 readability      5              3\\nc01r1   coherence      6              4'
    >>> people[["minutes", "finished"]].values.tolist(), "R_1a2B3c4D5e6F7g8" in judgements.to_string() + people.to_string()
    ([[10.5, True]], False)
    >>> shutil.rmtree(folder)
    """
    require_inputs(inputs, ["survey"], "qualtrics_survey", study)
    path = inputs["survey"]
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, header=None, encoding="utf-8")
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise HumevalError(f"cannot parse the Qualtrics export as UTF-8 CSV: {exc}", file=path) from None
    layout = item_layout(contexts, responses, layout, list(criteria))
    first = metadata_columns
    expected = first + len(layout) + 2
    if raw.shape[1] != expected:
        raise HumevalError(
            f"{raw.shape[1]} columns, expected {expected} ({first} metadata, {len(layout)} item columns, q1, q2)",
            file=path,
        )
    if raw.shape[0] <= 3:
        raise HumevalError("no response below the three header rows", file=path)
    tags, questions, body = raw.iloc[0], raw.iloc[1], raw.iloc[3:].reset_index(drop=True)
    for name in ("ResponseId", "Duration (in seconds)", "Finished"):
        if name not in set(tags.iloc[:first]):
            raise HumevalError(f"metadata column {name!r} missing from the first {first} columns", file=path)
    meta = body.iloc[:, :first].set_axis(list(tags.iloc[:first]), axis=1)
    check_criterion_words(list(questions.iloc[first : first + len(layout)]), layout, path, first, criterion_spellings)

    def column_of(k):
        return f"row {4 + k % len(body)}, column {first + k // len(body)}"

    cells = body.iloc[:, first : first + len(layout)]
    values = leading_integer(cells.T.stack(future_stack=True).reset_index(drop=True), path, column_of)
    check_range(values, tuple(scale) if scale else None, path, column_of)
    ratings = pd.DataFrame(values.to_numpy().reshape(len(layout), len(body)).T)
    participant = pseudonyms(meta["ResponseId"], study, source=path)
    if participant.duplicated().any():
        raise HumevalError(
            f"ResponseId in row {4 + int(participant.duplicated().to_numpy().argmax())} appears twice", file=path
        )
    judgements = tidy_from_wide(
        ratings, layout, participant, study=study, side=side, condition=condition, design=design
    )
    # rows are column-major (every participant of item column 0, then column 1, ...): keep each value's
    # export tag and column, so a published-mode variant can model tools that key columns by tag
    judgements["export_tag"] = list(tags.iloc[first : first + len(layout)].repeat(len(body)))
    judgements["export_column"] = [c for c in range(first, first + len(layout)) for _ in range(len(body))]
    if response_text_pattern:
        texts = response_texts(list(questions.iloc[first : first + len(layout)]), layout, response_text_pattern)
        judgements["response_text"] = [
            texts.get((c, p), "") for c, p in zip(judgements["context"], judgements["position"])
        ]
    if inputs.get("qsf"):
        judgements["context_text"] = judgements["context"].map(context_texts(inputs["qsf"], contexts))
    duration = pd.to_numeric(meta["Duration (in seconds)"], errors="coerce")
    if duration.isna().any():
        raise HumevalError(
            f"row {4 + int(duration.isna().to_numpy().argmax())}: Duration (in seconds) is not a number", file=path
        )
    participants = pd.DataFrame(
        {
            "study": study,
            "side": side,
            "participant": participant,
            "condition": condition,
            "row": range(len(body)),
            "duration_s": duration,
            "minutes": duration / 60,
            "finished": meta["Finished"].str.lower() == "true",
            "q1": yes_no(body.iloc[:, -2], path, f"{expected - 2} (q1)"),
            "q2": yes_no(body.iloc[:, -1], path, f"{expected - 1} (q2)"),
        }
    )
    return judgements, participants
