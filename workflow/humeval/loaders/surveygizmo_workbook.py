"""Loader for the original study's SurveyGizmo export kept in a workbook (Santhanam & Shaikh 2019, "INLG").

Sheet ``original_data``: one header row, one row per participant; ``metadata_columns`` metadata columns
(among them an MTurk worker id, IP address, longitude, latitude and city: never read), then the item
columns by position, then q1, q2 (Yes/No in any case), a confirmation code (never read), and the time
columns ``Time Spent`` and ``Time Minutes``. The ``Response ID`` cells are empty in these workbooks, so a
participant is its data row (``<condition>:row<k>``, pseudonymised).

Bespoke because the workbook keeps positional survey columns after metadata columns, like the Qualtrics export, with the authors' own sheet edits.
"""

from __future__ import annotations

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.loaders import read_workbook_sheet, require_inputs
from humeval.loaders.survey_common import (
    SurveyDesign,
    SurveyLayout,
    check_criterion_words,
    check_range,
    item_layout,
    tidy_from_wide,
    yes_no,
)
from humeval.tidy import pseudonym

__all__ = ["load"]


@register("loader", "surveygizmo_workbook", renamed={"range": "scale"})
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
    metadata_columns: int = 18,
    criterion_spellings: dict[str, list[str]] | None = None,
    scale: list[int] | None = None,
    sheet: str = "original_data",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy judgements and participants of one INLG workbook (one condition); input role ``workbook``.

    Parameters
    ----------
    metadata_columns : int
        The columns before the first item column (``Time Minutes`` among them).
    sheet : str
        The sheet holding the responses.

    Returns
    -------
    judgements, participants : DataFrame
        One row per item cell with ``context``, ``position`` and ``condition``; one participant per row
        (pseudonymised from the condition and row) with ``minutes``, ``q1`` and ``q2``.

    Notes
    -----
    Item column k (0-based, after the metadata columns) is the k-th (context, position, criterion) of the survey's
    order (:func:`humeval.loaders.survey_common.item_layout`: ``alternate`` gives each response's criteria in turn,
    ``criterion_blocks`` each criterion's responses); its question text must name that criterion, so that a layout
    that does not fit the export is refused instead of read shifted. A value is a number within ``scale`` (a
    Likert rating) or any number (a magnitude estimate), and item ``c<context>r<position>`` is the response shown
    at that position. The export's ids are empty, so a participant is its row, pseudonymised.

    References
    ----------
    Santhanam & Shaikh (2019), "Towards Best Experiment Design for Evaluating Dialogue System Output", *INLG 2019*
    (the workbooks this reads, as published with Braggaar et al. (2022), *INLG 2022*); SurveyGizmo (now Alchemer)
    response export: one row per response, one column per question.

    Examples
    --------
    One context with two responses, readability and coherence of each in turn, rated 1-6 by two participants:

    >>> import pathlib, shutil, tempfile
    >>> from humeval.loaders import extract_study
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> workbook = folder / "inlg.xlsx"
    >>> header = ["Worker ID", "Time Minutes", "R1 readability", "R1 coherence", "R2 readability", "R2 coherence",
    ...           "q1", "q2"]
    >>> rows = [header, ["A1B2C3D4E5F6G7", "12.5", "5", "4", "2", "3", "Yes", "no"],
    ...         ["H8I9J0K1L2M3N4", "9", "6", "6", "1", "2", "yes", "Yes"]]
    >>> pd.DataFrame(rows).to_excel(workbook, sheet_name="original_data", header=False, index=False)
    >>> params = {"condition": "Likert", "design": "likert", "contexts": 1, "responses": 2, "layout": "alternate",
    ...           "metadata_columns": 2, "scale": [1, 6]}
    >>> study = {"name": "demo", "raw": [{"id": "inlg"}], "extract": [{"side": "O",
    ...     "loader": "surveygizmo_workbook", "inputs": {"workbook": "inlg"}, "params": params}]}
    >>> judgements, people = extract_study(study, {"inlg": str(workbook)})
    >>> first = people.loc[people["row"] == 0, "participant"].item()
    >>> judgements.loc[judgements["participant"] == first, ["item", "criterion", "value"]].to_string(index=False)
    ' item   criterion  value\\nc01r1 readability      5\\nc01r1   coherence      4\\nc01r2 readability      2\\nc01r2   coherence      3'
    >>> people[["minutes", "q1", "q2"]].values.tolist(), "A1B2C3D4E5F6G7" in judgements.to_string() + people.to_string()
    ([[12.5, 'yes', 'no'], [9.0, 'yes', 'yes']], False)
    >>> shutil.rmtree(folder)
    """
    require_inputs(inputs, ["workbook"], "surveygizmo_workbook", study)
    path = inputs["workbook"]
    raw = read_workbook_sheet(path, sheet, header=None, dtype=str)
    layout = item_layout(contexts, responses, layout, list(criteria))
    first = metadata_columns
    header, body = raw.iloc[0].fillna(""), raw.iloc[1:].reset_index(drop=True)
    names = list(header)
    q1 = first + len(layout)
    body = body[body.iloc[:, first:q1].notna().any(axis=1)].reset_index(drop=True)
    for name in ("Time Minutes",):
        if name not in names:
            raise HumevalError(f"column {name!r} missing from sheet {sheet!r}", file=path)
    check_criterion_words(list(header.iloc[first:q1]), layout, path, first, criterion_spellings)

    def column_of(k):
        return f"sheet {sheet!r} row {2 + k % len(body)}, column {first + k // len(body)}"

    values = pd.to_numeric(body.iloc[:, first:q1].T.stack(future_stack=True).reset_index(drop=True), errors="coerce")
    if values.isna().any():
        raise HumevalError(f"{column_of(int(values.isna().to_numpy().argmax()))}: not a number", file=path)
    check_range(values, tuple(scale) if scale else None, path, column_of)
    ratings = pd.DataFrame(values.to_numpy().reshape(len(layout), len(body)).T)
    participant = pd.Series([pseudonym(f"{condition}:row{k}", study) for k in range(len(body))])
    judgements = tidy_from_wide(
        ratings, layout, participant, study=study, side=side, condition=condition, design=design
    )
    participants = pd.DataFrame(
        {
            "study": study,
            "side": side,
            "participant": participant,
            "condition": condition,
            "row": range(len(body)),
            "minutes": pd.to_numeric(body.iloc[:, names.index("Time Minutes")], errors="coerce"),
            "q1": yes_no(body.iloc[:, q1], path, f"{q1} (q1)"),
            "q2": yes_no(body.iloc[:, q1 + 1], path, f"{q1 + 1} (q2)"),
        }
    )
    return judgements, participants
