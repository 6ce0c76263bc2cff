"""Ranking metrics (Shardlow & Nawaz 2019, Table 3; Mondella, Lai & Nissim 2024, Tables 3-5).

f(s, i) = number of valid rankings putting system s at rank i; average rank
r_s = sum_i i f(s, i) / sum_i f(s, i) (a micro-average over rankings).
"""

from __future__ import annotations

import pandas as pd

from humeval.aggregates import rank_count_rows
from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import StudyData, value_frame

__all__ = [
    "average_rank",
    "find_aggregate",
    "published_aggregate_counts",
    "rank_counts",
    "rank_table_numbers",
    "sentence_average_numbers",
]


def rank_counts(judgements: pd.DataFrame) -> pd.DataFrame:
    """f(s, i): systems x ranks count table of rank rows.

    >>> j = pd.DataFrame({"system": ["a", "b", "a", "b"], "value": [1, 2, 2, 1]})
    >>> rank_counts(j).values.tolist()
    [[1, 1], [1, 1]]
    """
    return pd.crosstab(judgements["system"], judgements["value"].astype(int)).rename_axis(index=None, columns=None)


def average_rank(counts: pd.DataFrame) -> pd.Series:
    """r_s = sum_i i f(s, i) / sum_i f(s, i) from a systems x ranks count table.

    >>> average_rank(pd.DataFrame({1: [430], 2: [255], 3: [230], 4: [65]}, index=["NTS+PT"])).round(4).tolist()
    [1.9286]
    """
    ranks = pd.Series(counts.columns.astype(float), index=counts.columns)
    return counts.mul(ranks, axis=1).sum(axis=1) / counts.sum(axis=1)


def sentence_average_ranks(judgements: pd.DataFrame) -> pd.DataFrame:
    """Per (item, system): mean rank over the item's valid rankings and their number."""
    return judgements.groupby(["item", "system"], as_index=False)["value"].agg(avg_rank="mean", n="size")


def aggregate_counts(aggregate: dict) -> pd.DataFrame:
    """A ``published_aggregates`` entry of kind rank_counts as a systems x ranks table (labels as rows)."""
    counts = rank_count_rows(aggregate)
    return pd.DataFrame.from_dict(counts, orient="index", columns=range(1, len(next(iter(counts.values()))) + 1))


def published_aggregate_counts(published: pd.DataFrame, aggregate: dict) -> pd.DataFrame:
    """The counts of a rank_counts aggregate as parsed into the published numbers (systems x ranks), laid out
    by the config entry (its systems in order, ranks 1..k in columns named by its ``column`` template)."""
    ranks = range(1, aggregate_counts(aggregate).shape[1] + 1)
    cells = published[published["table"] == aggregate["table"]].set_index(["row", "column"])["value"]
    return pd.DataFrame(
        {
            rank: [cells[(system, aggregate["column"].format(rank=rank))] for system in aggregate["counts"]]
            for rank in ranks
        },
        index=list(aggregate["counts"]),
    )


def find_aggregate(config: dict, aggregate_id: str) -> dict:
    for aggregate in config.get("published_aggregates", []):
        if aggregate["id"] == aggregate_id:
            return aggregate
    raise HumevalError(f"no published aggregate with id {aggregate_id!r}")


@register("metric", "rank_table")
def rank_table_numbers(data: StudyData, *, table: str, sides: list[dict]) -> pd.DataFrame:
    """Rank counts f(s, i) and average ranks per system and side (Shardlow & Nawaz 2019, Table 3 layout).

    Parameters
    ----------
    sides : list of dict
        One per side: ``{side, avg_column, counts_column?}`` computed from the kept rank rows
        (``counts_column`` a template over ``{rank}``, ``"rank{rank}_O"``), or ``{aggregate: <id>, avg_column}``
        computed from published counts (``published_aggregates``; the audit shows them as published only).

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows = system labels; the average rank and the count per rank.

    Notes
    -----
    f(s, i) is the number of valid rankings putting system s at rank i (:func:`rank_counts`), and the average rank
    r_s = sum_i i f(s, i) / sum_i f(s, i), a micro-average over rankings (:func:`average_rank`). shardlow's Table 3
    matches both ways: the original's counts recomputed from its rankings (NTS+PT: 430, 255, 230, 65, so r =
    1,890 / 980 = 1.93) and the reproduction's average ranks from its printed counts (NTS+PT 1.82).

    References
    ----------
    Shardlow & Nawaz (2019), *Neural Text Simplification of Clinical Letters with a Domain Specific Phrase Table*,
    ACL 2019, Table 3; Mondella, Lai & Nissim (2024), *ReproHum #0892-01*, HumEval 2024, Tables 3-5.

    Examples
    --------
    Three rankings of two systems: a ranked 1, 1, 2 and b 2, 2, 1, so f(a) = (2, 1), f(b) = (1, 2), r_a = 4/3 and
    r_b = 5/3.

    >>> j = pd.DataFrame({"side": "O", "response_type": "rank", "system": ["a", "b"] * 3, "value": [1, 2, 1, 2, 2, 1]})
    >>> config = {"systems": [{"code": "a", "label": "A"}, {"code": "b", "label": "B"}]}
    >>> out = rank_table_numbers(StudyData(j, j, j, j.iloc[:0], config=config), table="t",
    ...                          sides=[{"side": "O", "avg_column": "avg", "counts_column": "rank{rank}"}])
    >>> [(r, c, round(v, 4)) for r, c, v in zip(out["row"], out["column"], out["value"])]
    [('A', 'rank1', 2.0), ('A', 'rank2', 1.0), ('B', 'rank1', 1.0), ('B', 'rank2', 2.0), ('A', 'avg', 1.3333), ('B', 'avg', 1.6667)]
    """
    labels = data.system_labels()
    rows = []
    for spec in sides:
        if "aggregate" in spec:
            counts = published_aggregate_counts(data.published, find_aggregate(data.config, spec["aggregate"]))
        else:
            kept = data.kept[(data.kept["side"] == spec["side"]) & (data.kept["response_type"] == "rank")]
            counts = rank_counts(kept).rename(index=labels)
            if spec.get("counts_column"):
                for system, row in counts.iterrows():
                    rows += [(system, spec["counts_column"].format(rank=rank), float(n)) for rank, n in row.items()]
        rows += [(system, spec["avg_column"], float(avg)) for system, avg in average_rank(counts).items()]
    return value_frame(table, rows)


@register("metric", "sentence_average_ranks")
def sentence_average_numbers(data: StudyData, *, table: str, side: str, units: list[str], column: str) -> pd.DataFrame:
    """Sentence-level average ranks of the listed units (Shardlow & Nawaz 2019, Table 5).

    Parameters
    ----------
    side : str
        The side whose kept rank rows are read.
    units : list of str
        The items (sentences) reported.
    column : str
        The column of the averages.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows ``<unit>|<system label>``, the mean rank.

    Notes
    -----
    For unit u and system s, r(u, s) = (1 / n_u) sum_k rank_k(u, s) over the n_u valid rankings of u
    (:func:`sentence_average_ranks`); a listed unit without a valid ranking is one line naming it. shardlow's two
    example sentences of Table 5 are recomputed from the original's rankings; its study file gives printed
    averages only for the reproduction's, whose rankings are not public, so nothing here is compared with a
    printed number yet (the audit: recomputed only, and published only).

    References
    ----------
    Shardlow & Nawaz (2019), *Neural Text Simplification of Clinical Letters with a Domain Specific Phrase Table*,
    ACL 2019, Table 5; Mondella, Lai & Nissim (2024), *ReproHum #0892-01*, HumEval 2024, Table 5.

    Examples
    --------
    Unit u1 ranked twice: a 1 then 2, b 2 then 1, so both average 1.5; unit u2 is not listed.

    >>> j = pd.DataFrame({"side": "O", "item": ["u1"] * 4 + ["u2"] * 2, "system": ["a", "b"] * 3,
    ...                   "value": [1, 2, 2, 1, 1, 2]})
    >>> out = sentence_average_numbers(StudyData(j, j, j, j.iloc[:0], config={"systems": [{"code": "a"},
    ...                                {"code": "b"}]}), table="t", side="O", units=["u1"], column="avg")
    >>> list(zip(out["row"], out["value"]))
    [('u1|a', 1.5), ('u1|b', 1.5)]
    """
    labels = data.system_labels()
    kept = data.kept[(data.kept["side"] == side) & (data.kept["item"].astype(str).isin([str(u) for u in units]))]
    averages = sentence_average_ranks(kept)
    missing = sorted({str(u) for u in units} - set(averages["item"].astype(str)))
    if missing:
        raise HumevalError(f"metric sentence_average_ranks: unit(s) {missing} have no valid ranking")
    return value_frame(
        table,
        [(f"{r.item}|{labels.get(r.system, r.system)}", column, float(r.avg_rank)) for r in averages.itertuples()],
    )
