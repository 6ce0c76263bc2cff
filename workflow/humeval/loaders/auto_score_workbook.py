"""Loader for automatic metric scores kept in a workbook (Braggaar et al. 2022, Statistics/Table 9).

Each configured sheet (one per criterion) has a column (``Ground Truth``) of continuous scores, one row per
item in survey order: row i is context i // responses + 1, position i % responses + 1. The scores become
tidy rows of side ``automatic`` judged by participant ``metric``, so metrics can align them with human
ratings by item.

Bespoke because the items are implied by row order (context x response) in per-criterion sheets, not named in the file.
"""

from __future__ import annotations

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.loaders import read_workbook_sheet, require_inputs

__all__ = ["load"]


@register("loader", "auto_score_workbook")
def load(
    inputs: dict[str, str],
    study: str,
    side: str,
    *,
    responses: int,
    contexts: int,
    sheets: dict[str, str],
    condition: str,
    column: str = "Ground Truth",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy rows (side ``side``, response type magnitude) of the automatic scores of one condition; input role
    ``workbook``.

    Parameters
    ----------
    responses : int
        Responses per context: row i is context ``i // responses + 1``, position ``i % responses + 1``.
    contexts : int
        Contexts in the survey; each sheet must have ``contexts * responses`` numeric rows.
    sheets : dict of str to str
        Criterion -> the sheet holding its scores (``{readability: read_rank_all}``).
    condition : str
        The survey condition the scores belong to (tidy ``condition``; the participant is ``metric:<condition>``).
    column : str
        The column of each sheet holding the scores.

    Returns
    -------
    judgements, participants : DataFrame
        One magnitude row per item and criterion (item ``c<context>r<position>``, system ``pos<position>``)
        with ``condition``; one participant, ``metric:<condition>``.

    Notes
    -----
    Row i (0-based) of a sheet is the item of context c = floor(i / R) + 1 at position r = (i mod R) + 1, R the
    responses per context, the order in which the survey showed them; the score is kept as a magnitude (a
    continuous value, not a rating), so that a correlation with the human ratings pairs the two by item. A sheet
    must hold exactly contexts x R numeric scores: a missing or extra row would shift every later item.

    References
    ----------
    Braggaar, Tomas, Blomsma, Hommes, Braun, van Miltenburg, van der Lee, Goudbeek & Krahmer (2022), "A
    reproduction study of methods for evaluating dialogue system output: Replicating Santhanam and Shaikh (2019)",
    *INLG 2022* (the workbooks this reads: Statistics, Table 9); Santhanam & Shaikh (2019), "Towards Best Experiment
    Design for Evaluating Dialogue System Output", *INLG 2019*.

    Examples
    --------
    Two contexts of two responses each, one criterion's scores in sheet ``read_rank_all``:

    >>> import pathlib, shutil, tempfile
    >>> from humeval.loaders import extract_study
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> workbook = folder / "auto.xlsx"
    >>> pd.DataFrame({"Ground Truth": [0.9, 0.4, 0.7, 0.1]}).to_excel(workbook, sheet_name="read_rank_all", index=False)
    >>> params = {"condition": "Likert", "contexts": 2, "responses": 2, "sheets": {"readability": "read_rank_all"}}
    >>> study = {"name": "demo", "raw": [{"id": "auto"}], "extract": [{"side": "automatic",
    ...     "loader": "auto_score_workbook", "inputs": {"workbook": "auto"}, "params": params}]}
    >>> judgements, metric = extract_study(study, {"auto": str(workbook)})
    >>> judgements[["participant", "item", "system", "value"]].to_string(index=False)
    '  participant  item system  value\\nmetric:Likert c01r1   pos1    0.9\\nmetric:Likert c01r2   pos2    0.4\\nmetric:Likert c02r1   pos1    0.7\\nmetric:Likert c02r2   pos2    0.1'
    >>> shutil.rmtree(folder)
    """
    require_inputs(inputs, ["workbook"], "auto_score_workbook", study)
    path = inputs["workbook"]
    frames = []
    for criterion, sheet in sheets.items():
        frame = read_workbook_sheet(path, sheet)
        if column not in frame.columns:
            raise HumevalError(f"sheet {sheet!r} has no column {column!r}", file=path)
        scores = pd.to_numeric(frame[column], errors="coerce")
        if len(scores) != responses * contexts or scores.isna().any():
            raise HumevalError(
                f"sheet {sheet!r}, column {column!r}: expected {responses * contexts} numeric rows, "
                f"found {len(scores)} ({int(scores.isna().sum())} not numeric)",
                file=path,
            )
        k = pd.RangeIndex(len(scores))
        item = (
            "c"
            + pd.Series(k // responses + 1).astype(str).str.zfill(2)
            + "r"
            + pd.Series(k % responses + 1).astype(str)
        )
        frames.append(
            pd.DataFrame(
                {
                    "study": study,
                    "side": side,
                    "judgement_id": f"metric:{condition}:{criterion}:" + item,
                    "participant": f"metric:{condition}",
                    "item": item,
                    "criterion": criterion,
                    "response_type": "magnitude",
                    "system": "pos" + pd.Series(k % responses + 1).astype(str),
                    "system_b": "",
                    "value": scores.to_numpy(),
                    "condition": condition,
                }
            )
        )
    judgements = pd.concat(frames, ignore_index=True)
    participants = pd.DataFrame(
        {
            "study": [study],
            "side": [side],
            "participant": [f"metric:{condition}"],
            "condition": [condition],
        }
    )
    return judgements, participants
