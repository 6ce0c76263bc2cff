"""Loader for a Figure Eight (CrowdFlower) "full report" of a ranking task (Shardlow & Nawaz 2019).

One record per judgement; the ``*_gold`` cells are quoted multi-line values, so the file is read with a
real CSV parser. Each rank i has an answer column (mapped by *name* in the config, since the header
order is not rank order) holding the index k (1..n, shown as A..D) of the sentence placed at rank i.
Sentence k is system ``position_systems[k]`` (the presentation order is fixed; there is no system
column). The tidy table gets one row per rank slot: ``system`` = the system placed there, ``value`` =
the rank; for a valid ranking that is exactly each system's rank (the per-rank index inverted).

Personal data (``_ip``, ``_city``, ``_region``) is never read out; worker ids are pseudonymised.

Bespoke because a ranking is stored as answer columns holding sentence *positions* that a per-unit position map turns into systems, with gold and tainted rows to keep apart: a two-step lookup the generic loader has no vocabulary for.
"""

from __future__ import annotations

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.loaders import read_csv_export, require_inputs
from humeval.tidy import pseudonyms

__all__ = ["load"]

PERSONAL_COLUMNS = ("_ip", "_city", "_region")
META = {
    "_unit_id": "unit",
    "_id": "judgement",
    "_worker_id": "worker",
    "_golden": "golden",
    "_tainted": "tainted",
    "_trust": "trust",
}


def read_report(path: str, required: list[str]) -> pd.DataFrame:
    """The report as text cells, without the personal-data columns; checks ``required`` columns."""
    try:
        frame = read_csv_export(path, usecols=lambda c: c not in PERSONAL_COLUMNS)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise HumevalError(f"cannot parse the Figure Eight report as UTF-8 CSV: {exc}", file=path) from None
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise HumevalError(
            f"missing column(s) {missing}; a Figure Eight full report of this task has {required}", file=path
        )
    if frame.empty:
        raise HumevalError("the report holds no judgement", file=path)
    return frame


def invert_answers(
    frame: pd.DataFrame, answer_columns: dict[int, str], position_systems: dict[int, str], path: str
) -> pd.DataFrame:
    """Long (row, rank, system) from the per-rank sentence indices; checks every index is 1..n."""
    long = frame[list(answer_columns.values())].rename(columns={c: r for r, c in answer_columns.items()})
    long = long.reset_index(names="row").melt(id_vars="row", var_name="rank", value_name="position")
    long = long[long["position"].str.strip() != ""]
    positions = pd.to_numeric(long["position"], errors="coerce")
    bad = ~positions.isin(list(position_systems))
    if bad.any():
        first = long[bad].iloc[0]
        raise HumevalError(
            f"record {int(first['row']) + 1}, column {answer_columns[first['rank']]!r}: "
            f"{first['position']!r} is not a sentence index {sorted(position_systems)}",
            file=path,
        )
    return long.assign(system=positions.astype(int).map(position_systems), rank=long["rank"].astype(int))


@register("loader", "figure_eight_ranking")
def load(
    inputs: dict[str, str],
    study: str,
    side: str,
    *,
    answer_columns: dict[int, str],
    position_systems: dict[int, str],
    criterion: str = "understandability",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy rank judgements and participants (workers) of a Figure Eight full report; input role ``report``.

    Parameters
    ----------
    answer_columns : dict of int to str
        Rank (1..n) -> the column holding the position of the sentence placed at that rank.
    position_systems : dict of int to str
        Position (1..n, shown as A..D) -> the system whose sentence is shown there.
    criterion : str
        The tidy ``criterion``.

    Returns
    -------
    judgements, participants : DataFrame
        One rank row per rank slot (``value`` = the rank of ``system``; ``judgement_id`` one ranking) with
        ``golden``, ``tainted`` and ``trust``; one participant per worker (pseudonymised) with
        ``judgements`` and ``gold_judgements``.

    Notes
    -----
    A ranking of n sentences is stored as, for each rank r, the position p_r of the sentence placed there (a
    permutation of 1..n); the system shown at position p is ``position_systems[p]``, so each system's rank is the
    inverse permutation: rank(position_systems[p_r]) = r. A position outside 1..n is an error naming the record and
    column; an empty answer is not a rank (a ranking left incomplete keeps its other ranks). Gold (``_golden``) and
    tainted (``_tainted``) judgements are kept with their flags, for the study's exclusions to drop with a reason.

    References
    ----------
    Shardlow & Nawaz (2019), "Neural Text Simplification of Clinical Letters with a Domain Specific Phrase Table",
    *ACL 2019* (the study whose report this reads); Figure Eight (now Appen), "Full report" of a job: one
    row per judgement with ``_unit_id``, ``_id``, ``_worker_id``, ``_golden``, ``_tainted`` and ``_trust``.

    Examples
    --------
    One worker ranks three sentences: position 2 (SYS1) easiest, 3 (SYS2) in the middle, 1 (SRC) hardest:

    >>> import pathlib, shutil, tempfile
    >>> from humeval.loaders import extract_study
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> report = folder / "report.csv"
    >>> _ = report.write_text("_unit_id,_id,_worker_id,_golden,_tainted,_trust,_ip,easiest,middle,hardest\\n"
    ...                       "u1,101,w-000001,false,false,0.9,203.0.113.7,2,3,1\\n")
    >>> params = {"answer_columns": {1: "easiest", 2: "middle", 3: "hardest"},
    ...           "position_systems": {1: "SRC", 2: "SYS1", 3: "SYS2"}}
    >>> study = {"name": "demo", "raw": [{"id": "report"}], "extract": [
    ...     {"side": "O", "loader": "figure_eight_ranking", "inputs": {"report": "report"}, "params": params}]}
    >>> judgements, workers = extract_study(study, {"report": str(report)})
    >>> judgements[["judgement_id", "item", "system", "value"]].to_string(index=False)
    'judgement_id item system  value\\n        J101   u1   SYS1      1\\n        J101   u1   SYS2      2\\n        J101   u1    SRC      3'
    >>> workers[["judgements", "gold_judgements"]].values.tolist(), "_ip" in judgements
    ([[1, 0]], False)
    >>> shutil.rmtree(folder)
    """
    require_inputs(inputs, ["report"], "figure_eight_ranking", study)
    path = inputs["report"]
    answer_columns = {int(k): v for k, v in answer_columns.items()}  # YAML may quote the keys
    position_systems = {int(k): v for k, v in position_systems.items()}
    if sorted(answer_columns) != list(range(1, len(answer_columns) + 1)):
        raise HumevalError(
            f"loader params: answer_columns must be keyed by ranks 1..n, got {sorted(answer_columns)}", study=study
        )
    frame = read_report(path, list(META) + list(answer_columns.values()))
    meta = frame[list(META)].rename(columns=META)
    meta["worker"] = pseudonyms(meta["worker"], study, prefix="W", source=path)
    long = invert_answers(frame, answer_columns, position_systems, path).join(meta, on="row")
    judgements = (
        pd.DataFrame(
            {
                "study": study,
                "side": side,
                "judgement_id": "J" + long["judgement"],
                "participant": long["worker"],
                "item": long["unit"],
                "criterion": criterion,
                "response_type": "rank",
                "system": long["system"],
                "system_b": "",
                "value": long["rank"],
                "golden": long["golden"],
                "tainted": long["tainted"],
                "trust": long["trust"],
            }
        )
        .sort_values(["judgement_id", "value"], kind="stable")
        .reset_index(drop=True)
    )
    participants = (
        meta.assign(gold=meta["golden"] == "true")
        .groupby("worker")
        .agg(judgements=("judgement", "size"), gold_judgements=("gold", "sum"))  # vectorised, not a lambda per worker
        .reset_index()
        .rename(columns={"worker": "participant"})
    )
    participants.insert(0, "side", side)
    participants.insert(0, "study", study)
    return judgements, participants
