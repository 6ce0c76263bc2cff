"""Loader for the Prolific web-app export of Watson & Gkatzia (2024): a SQLite database + item file.

``database`` (SQLite): ``tasks(id, task_number, ...)`` and ``results(id, json_string, ...)``, joined on
``id``. ``json_string`` is a *Python dict literal* (``ast.literal_eval``, not JSON) with keys
``'0'..'N-1'`` holding ``{criterion: 'A'|'B'}`` plus Prolific identifiers, which are never read out.

``items`` (CSV, the original study's batch input): row i (0-based) defines ``task_number`` i+1; for each
position N the fields ``systemaN, systembN, datasetN, ixN, inputN, outputaN, outputbN``. The join is
positional: the file is never sorted or filtered before it.

Participants are the responses (``results.id``), pseudonymised.

Bespoke because the judgements are JSON blobs inside SQLite rows and the systems are positional indices into a separate item CSV: no tabular layout to map by config.
"""

from __future__ import annotations

import ast
import sqlite3

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError, refuse_first
from humeval.loaders import read_csv_export, require_inputs
from humeval.tidy import pseudonyms

__all__ = ["FIELDS", "load"]

FIELDS = ("systema", "systemb", "dataset", "ix", "input", "outputa", "outputb")
_QUERY = (
    "SELECT r.id AS response_id, t.task_number AS task_number, r.json_string AS json_string "
    "FROM results r LEFT JOIN tasks t ON r.id = t.id ORDER BY t.task_number, r.id"
)


def read_responses(path: str) -> pd.DataFrame:
    """Responses as (response_id, task_number, json_string); raises on a damaged or foreign file."""
    try:
        uri = f"file:{path}?mode=ro"
        with sqlite3.connect(uri, uri=True) as connection:
            frame = pd.read_sql_query(_QUERY, connection)
    except (sqlite3.DatabaseError, pd.errors.DatabaseError) as exc:
        raise HumevalError(
            f"not a readable SQLite database with tables results(id, json_string) and tasks(id, task_number): {exc}",
            file=path,
        ) from None
    if frame.empty:
        raise HumevalError("table 'results' holds no response", file=path)
    orphans = frame["task_number"].isna()
    if orphans.any():
        raise HumevalError(
            f"{int(orphans.sum())} result(s) have no row in 'tasks' (first id "
            f"{frame.loc[orphans, 'response_id'].iloc[0]!r})",
            file=path,
        )
    frame["task_number"] = frame["task_number"].astype(int)
    return frame


def parse_answers(responses: pd.DataFrame, criterion: str, path: str) -> pd.DataFrame:
    """Long frame (response_id, task_number, question, answer) from the dict literals.

    Only the numbered keys are kept; identifiers in the same dict are dropped here.
    """
    rows = []
    for response_id, task, text in responses[["response_id", "task_number", "json_string"]].itertuples(index=False):
        try:
            record = ast.literal_eval(text)
        except (ValueError, SyntaxError) as exc:
            raise HumevalError(
                f"results.json_string of id {response_id!r} is not a Python dict literal: {exc}", file=path
            ) from None
        for key, answer in record.items():
            if str(key).isdigit():
                if not isinstance(answer, dict) or criterion not in answer:
                    raise HumevalError(
                        f"results.json_string of id {response_id!r}, question {key}: "
                        f"expected a dict with key {criterion!r}, got {answer!r}",
                        file=path,
                    )
                rows.append((response_id, task, int(key), answer[criterion]))
    return pd.DataFrame(rows, columns=["response_id", "task_number", "question", "answer"])


def read_items(path: str, positions: int) -> pd.DataFrame:
    """Long item table (task_number, question, systema, systemb, dataset, ix) from the positional file."""
    try:
        wide = read_csv_export(path)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise HumevalError(f"cannot parse the item CSV: {exc}", file=path) from None
    expected = [f"{field}{n}" for field in FIELDS for n in range(positions)]
    missing = [c for c in expected if c not in wide.columns]
    if missing:
        raise HumevalError(
            f"missing column(s) {missing[:5]}{'...' if len(missing) > 5 else ''}: expected "
            f"{len(FIELDS)} fields x {positions} positions "
            f"({', '.join(f + 'N' for f in FIELDS)})",
            file=path,
        )
    repeated = wide.duplicated(expected)
    if repeated.any():  # rows are tasks by position: a repeated row would shift every later task
        row = int(repeated.to_numpy().argmax())
        raise HumevalError(f"row {row + 2} repeats an earlier task row; tasks are read by position", file=path)
    wide = wide.reset_index(names="row")
    wide["task_number"] = wide["row"] + 1
    stubs = ["systema", "systemb", "dataset", "ix"]
    long = pd.wide_to_long(
        wide[["task_number"] + [f"{s}{n}" for s in stubs for n in range(positions)]],
        stubnames=stubs,
        i="task_number",
        j="question",
    ).reset_index()
    return long


@register("loader", "prolific_webapp_sqlite")
def load(
    inputs: dict[str, str],
    study: str,
    side: str,
    *,
    criterion: str = "meaning",
    positions: int = 32,
    system_codes: list[str] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy judgements and participants of the Prolific web-app export (see the module docstring); input roles
    ``database`` (the SQLite file) and ``items`` (the item CSV).

    Parameters
    ----------
    criterion : str
        The key of the criterion in each answer dict (``{criterion: 'A'|'B'}``); the tidy ``criterion``.
    positions : int
        The positions per task in the item file (its fields ``systema0`` .. ``systema<positions - 1>``).
    system_codes : list of str, optional
        The system codes the item file may hold; any other code is an error naming the task and question (a
        damaged or mistyped code must not become a new system). Default: any code.

    Returns
    -------
    judgements, participants : DataFrame
        One pairwise row per answer (``value`` +1 when ``system`` (A) was chosen, -1 for ``system_b``), with
        ``task``, ``question``, ``dataset`` and ``input_ix`` columns; one participant per response (pseudonymised)
        with its ``task`` and ``n_answers``.

    Notes
    -----
    A forced choice between outputs A and B is coded +1 (A, ``system``) or -1 (B, ``system_b``), the scale of the
    pairwise tally and its sign test; there is no tie. Response r of task t answered question q about the pair
    (``systema<q>``, ``systemb<q>``) of row t - 1 of the item file (the join is positional, so the file is never
    sorted or filtered). The answers are Python literals, read by :func:`ast.literal_eval`, which evaluates no code;
    their Prolific identifiers are never read out.

    References
    ----------
    Watson & Gkatzia (2024), "ReproHum #0712-01: Reproducing Human Evaluation of Meaning Preservation in Paraphrase
    Generation", *HumEval @ LREC-COLING 2024* (the export this reads), reproducing Hosking, Tang & Lapata (2022),
    "Hierarchical Sketch Induction for Paraphrase Generation", *ACL 2022*.

    Examples
    --------
    One response to task 1, whose two questions compare ``vae`` with ``hrq`` and ``hrq`` with ``lbow``:

    >>> import pathlib, shutil, sqlite3, tempfile
    >>> from humeval.loaders import extract_study
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with sqlite3.connect(folder / "app.db") as db:
    ...     _ = db.execute("CREATE TABLE tasks (id TEXT, task_number INTEGER)")
    ...     _ = db.execute("CREATE TABLE results (id TEXT, json_string TEXT)")
    ...     _ = db.execute("INSERT INTO tasks VALUES ('r1', 1)")
    ...     _ = db.execute("INSERT INTO results VALUES ('r1', ?)", ["{'0': {'meaning': 'B'}, '1': {'meaning': 'A'}, "
    ...                                                         "'PROLIFIC_PID': '5f1a2b3c4d5e6f7a8b9c0d1e'}"])
    >>> db.close()
    >>> fields = [f"{f}{n}" for f in FIELDS for n in range(2)]
    >>> row = ["vae", "hrq", "hrq", "lbow", "mscoco", "mscoco", "11", "12", "x", "y", "a", "b", "c", "d"]
    >>> _ = (folder / "items.csv").write_text(",".join(fields) + "\\n" + ",".join(row) + "\\n")
    >>> study = {"name": "demo", "raw": [{"id": "database"}, {"id": "items"}], "extract": [{"side": "R1",
    ...     "loader": "prolific_webapp_sqlite", "inputs": {"database": "database", "items": "items"},
    ...     "params": {"positions": 2}}]}
    >>> judgements, responses = extract_study(study, {"database": str(folder / "app.db"),
    ...                                               "items": str(folder / "items.csv")})
    >>> judgements[["item", "system", "system_b", "value"]].to_string(index=False)
    '  item system system_b  value\\nt01q00    vae      hrq     -1\\nt01q01    hrq     lbow      1'
    >>> responses["n_answers"].tolist(), "5f1a2b3c4d5e6f7a8b9c0d1e" in judgements.to_string()
    ([2], False)
    >>> shutil.rmtree(folder)
    """
    require_inputs(inputs, ["database", "items"], "prolific_webapp_sqlite", study)
    responses = read_responses(inputs["database"])
    answers = parse_answers(responses, criterion, inputs["database"])
    items = read_items(inputs["items"], positions)
    if system_codes is not None:  # a damaged or mistyped code in the item file must not become a new system
        known = set(system_codes)
        for column in ("systema", "systemb"):
            unknown = items[~items[column].isin(known)]
            if not unknown.empty:
                first = unknown.iloc[0]
                raise HumevalError(
                    f"task {first['task_number']}, question {first['question']}: {column} {first[column]!r} is not "
                    f"one of the configured system_codes {sorted(known)}",
                    file=inputs["items"],
                )
    n_tasks = items["task_number"].max()
    beyond = answers["task_number"] > n_tasks
    if beyond.any():
        raise HumevalError(
            f"task_number {int(answers.loc[beyond, 'task_number'].max())} has no row in the "
            f"item file ({n_tasks} rows; row i defines task i+1)",
            file=inputs["items"],
        )
    refuse_first(
        answers,
        ~answers["answer"].isin(["A", "B"]),
        lambda r: f"results id {r['response_id']!r} question {r['question']}: answer {r['answer']!r} is not 'A' or 'B'",
        inputs["database"],
    )
    merged = answers.merge(items, on=["task_number", "question"], how="left", validate="many_to_one")
    refuse_first(
        merged,
        merged["systema"].isna(),
        lambda r: (
            f"task {r['task_number']} question {r['question']} is not defined in the item file ({positions} positions)"
        ),
        inputs["items"],
    )
    participant = pseudonyms(merged["response_id"], study, source=inputs["database"])
    judgements = pd.DataFrame(
        {
            "study": study,
            "side": side,
            "judgement_id": participant + ":q" + merged["question"].astype(str).str.zfill(2),
            "participant": participant,
            "item": "t"
            + merged["task_number"].astype(str).str.zfill(2)
            + "q"
            + merged["question"].astype(str).str.zfill(2),
            "criterion": criterion,
            "response_type": "pairwise",
            "system": merged["systema"],
            "system_b": merged["systemb"],
            "value": merged["answer"].map({"A": 1, "B": -1}),
            "task": merged["task_number"],
            "question": merged["question"],
            "dataset": merged["dataset"],
            "input_ix": merged["ix"],
        }
    )
    participants = judgements.groupby(["study", "side", "participant"], as_index=False).agg(
        task=("task", "first"), n_answers=("value", "size")
    )
    return judgements, participants
