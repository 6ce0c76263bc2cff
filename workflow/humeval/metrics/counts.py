"""Counts: the design counts every study carries (``counts``), and the shares a printed count table implies
(``answer_shares``)."""

from __future__ import annotations

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import SCALES, Scale, StudyData, value_frame

__all__ = ["answer_share_numbers", "count_numbers"]


def count_rows(frame: pd.DataFrame, *, distinct: list[str] | None = None) -> int:
    """Number of rows of ``frame``, or of distinct combinations of the ``distinct`` columns."""
    if not distinct:
        return len(frame)
    missing = [c for c in distinct if c not in frame.columns]
    if missing:
        raise HumevalError(f"metric counts: column(s) {missing} not in the counted frame")
    return len(frame.drop_duplicates(distinct))


@register("metric", "counts")
def count_numbers(data: StudyData, *, table: str, rows: dict[str, dict], column: str = "n") -> pd.DataFrame:
    """One count per configured row: judgements, exclusions, participants or distinct values.

    Parameters
    ----------
    rows : dict of str to dict
        Row label -> what it counts: ``frame`` (``tidy``: every judgement; ``kept``: after the exclusions;
        ``excluded``: the exclusion log; ``participants``; ``variants``: the exclusion-variant log; default
        ``tidy``), optional ``side``, ``exclusion`` (``excluded`` only: the exclusion's name in
        ``exclusions.csv``) and ``where`` ``{column: value}`` filters, and ``distinct`` columns (default: rows).
    column : str
        The column of every count.

    Returns
    -------
    DataFrame
        Cells (table, row, column, count): one per row label.

    Notes
    -----
    A count is |F| for the chosen frame F after its filters, or |{distinct (c_1, ..., c_m)}| over the ``distinct``
    columns (pandas ``drop_duplicates``). The design counts a reproduction report states first (HEDS, the Human
    Evaluation Datasheet, sections 3 and 4: evaluators, items, judgements, and how many were excluded and why)
    are therefore numbers the audit checks against the paper like any other.

    References
    ----------
    Shimorina & Belz (2022), "The Human Evaluation Datasheet: A Template for Recording Details of Human
    Evaluation Experiments in NLP", *Proc. of the 2nd Workshop on Human Evaluation of NLP Systems (HumEval)*.

    Examples
    --------
    Four judgements by two participants on three items: 4 judgements, 2 distinct participants.

    >>> j = pd.DataFrame({"side": "R1", "participant": ["p1", "p1", "p2", "p2"], "item": ["a", "b", "a", "c"]})
    >>> out = count_numbers(StudyData(j, j, j, j.iloc[:0]), table="t",
    ...                     rows={"judgements": {}, "people": {"distinct": ["participant"]}})
    >>> dict(zip(out["row"], out["value"]))
    {'judgements': 4.0, 'people': 2.0}
    """
    frames = {
        "tidy": data.tidy,
        "kept": data.kept,
        "excluded": data.exclusions,
        "participants": data.participants,
        "variants": data.variant_exclusions,
    }
    out = []
    for label, spec in rows.items():
        frame = frames[spec.get("frame", "tidy")]
        if "side" in spec:
            frame = frame[frame["side"] == spec["side"]]
        if "exclusion" in spec:
            frame = frame[frame["rule"] == spec["exclusion"]]
        if spec.get("where"):
            from humeval.metrics import filter_where

            reference = data.tidy if spec.get("frame", "tidy") in ("tidy", "kept") else frame
            frame = filter_where(frame, spec["where"], reference)
        out.append((label, column, float(count_rows(frame, distinct=spec.get("distinct")))))
    return value_frame(table, out)


@register("metric", "answer_shares")
def answer_share_numbers(
    data: StudyData,
    *,
    table: str,
    aggregate: str,
    column: str = "{answer}",
    row: str = "{system}",
    scale: Scale = "percent",
) -> pd.DataFrame:
    """Each system's share of each answer, from a printed count table (a ``published_aggregates`` entry of kind
    ``answer_counts``): an original known only from its counts is checked against its printed percentages, and
    its shares can be a QRA input like any metric value.

    Parameters
    ----------
    aggregate : str
        The ``id`` of the ``answer_counts`` aggregate.
    column, row : str
        Templates over ``{answer}`` and ``{system}``.
    scale : {'percent', 'proportion'}
        The shares in per cent or as proportions.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): per system and answer, count / the system's total.

    Notes
    -----
    share(s, a) = n(s, a) / sum_b n(s, b), times 100 on the ``percent`` scale, from the printed counts as the
    aggregate states them (every system must give the same answers, and sum to ``total`` where it is stated). lux's
    original is known only from its counts as the reproduction's script transcribes them: five of its six
    percentages match the printed ones in its audit (FastSpeech baseline 63 of 202 = 31.19, printed 31); the sixth,
    FastSpeech "about equal" 43.56, is printed 43, a diagnosed mismatch.

    References
    ----------
    Lux & Vu (2022), *Language-Agnostic Meta-Learning for Low-Resource Text-to-Speech with Articulatory Features*,
    ACL 2022 (the human preference test); ReproNLP 2023 reproduction, repository manhue/repronlp2023_lux_and_vu,
    ``compute_pearson_and_coefficient_of_variation.py`` (the counts).

    Examples
    --------
    One system judged 3 times better, once worse: 75 and 25 per cent.

    >>> config = {"published_aggregates": [{"id": "c", "kind": "answer_counts", "column": "{answer}",
    ...                                     "counts": {"A": {"better": 3, "worse": 1}}}]}
    >>> j = pd.DataFrame({"side": []})
    >>> out = answer_share_numbers(StudyData(j, j, j, j, config=config), table="t", aggregate="c")
    >>> list(zip(out["row"], out["column"], out["value"]))
    [('A', 'better', 75.0), ('A', 'worse', 25.0)]
    """
    from humeval.aggregates import answer_count_rows

    found = [a for a in data.config.get("published_aggregates", []) if a["id"] == aggregate]
    if not found or found[0]["kind"] != "answer_counts":
        raise HumevalError(f"no published aggregate {aggregate!r} of kind answer_counts")
    out = []
    for system, counts in answer_count_rows(found[0]).items():
        total = sum(counts.values())
        for answer, n in counts.items():
            fields = {"system": system, "answer": answer}
            out.append((row.format(**fields), column.format(**fields), 100 * n / total * SCALES[scale]))
    return value_frame(table, out)
