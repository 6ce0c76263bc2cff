"""Evaluator-group comparisons (Finch, Finch & Choi 2024): samplers, agreement, effect sizes.

An *annotation row* is one (category, item, criterion) of one group with its annotations in JSON list
order (Likert item = dialogue; pairwise item = one orientation of a dialogue pair). Within-group
agreement uses the first two annotations of rows that have two or more; between-group agreement pairs
one annotation per row and group, chosen by a sampler:

- ``authors``: Python's ``random`` seeded per group, rows in the authors' order (Likert before pairwise,
  dialogue id sorted, label in JSON order); every row with two or more annotations draws
  ``randint(0, 1)``, and the first draw of an item (Likert: the dialogue; pairwise: the unordered pair, so
  both orientations share it) is reused for all its later rows.
- ``first``: always the first annotation (a sensitivity check of the sampler).
"""

from __future__ import annotations

import random

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import StudyData, value_frame
from humeval.metrics.agreement import Level, krippendorff_alpha

__all__ = [
    "annotation_rows",
    "group_agreement_numbers",
    "group_count_numbers",
    "singly_annotated",
    "within_group_alpha",
]

ROW_KEY = ["side", "category", "item", "criterion"]


def annotation_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Annotations numbered per row (``k`` = 0, 1, ... in JSON list order), rows in the authors' order."""
    ordered = frame.assign(
        _cat=(frame["category"] != "likert").astype(int),
        _order=pd.to_numeric(frame["order"]),
        _label=pd.to_numeric(frame["label_order"]),
    )
    ordered = ordered.sort_values(["side", "_cat", "dialogue", "_label", "_order"], kind="stable")
    ordered["k"] = ordered.groupby(ROW_KEY, sort=False).cumcount()
    ordered["n"] = ordered.groupby(ROW_KEY, sort=False)["k"].transform("size")
    return ordered.drop(columns=["_cat", "_order", "_label"])


def draw_key(rows: pd.DataFrame) -> pd.Series:
    """The item a draw belongs to: the dialogue (Likert) or the unordered pair (pairwise)."""
    return rows["dialogue"].where(rows["category"] == "likert", rows["pair"])


def authors_picks(first_rows: pd.DataFrame, seed: int) -> pd.Series:
    """Which annotation (0 or 1) the authors' sampler keeps for each row of one group, rows in order.

    One ``randint(0, 1)`` per row with two or more annotations (drawn even when the item already has a
    draw, as ``dict.setdefault`` evaluates its argument), then the item's first draw for all its rows.

    >>> rows = pd.DataFrame({"category": ["likert"] * 3, "dialogue": ["d1", "d1", "d2"], "pair": "",
    ...                      "n": [2, 2, 2]})
    >>> rng = random.Random(123); expected = [rng.randint(0, 1) for _ in range(3)]
    >>> authors_picks(rows, 123).tolist() == [expected[0], expected[0], expected[2]]
    True
    """
    doubly = first_rows["n"].to_numpy() >= 2
    rng = random.Random(seed)
    draws = pd.Series([rng.randint(0, 1) for _ in range(int(doubly.sum()))], dtype=int)
    keys = draw_key(first_rows)[doubly].reset_index(drop=True)
    picks = pd.Series(0, index=first_rows.index, dtype=int)
    picks[doubly] = draws.groupby(keys.to_numpy()).transform("first").to_numpy()
    return picks


def singly_annotated(rows: pd.DataFrame, sampler: dict) -> pd.DataFrame:
    """One annotation per row and group, chosen by ``sampler`` ({name: authors, seed} or {name: first})."""
    name = sampler.get("name", "authors")
    if name == "first":
        return rows[rows["k"] == 0]
    if name != "authors":
        raise HumevalError(f"unknown sampler {name!r} (authors, first)")
    picked = []
    for _, group_rows in rows.groupby("side", sort=False):
        first = group_rows[group_rows["k"] == 0]
        picks = authors_picks(first, int(sampler["seed"]))
        chosen = first[ROW_KEY].assign(k=picks.to_numpy())
        picked.append(group_rows.merge(chosen, on=ROW_KEY + ["k"]))
    return pd.concat(picked, ignore_index=True) if picked else rows.iloc[:0]


def within_group_alpha(rows: pd.DataFrame, level: str = "ordinal") -> pd.Series:
    """Alpha per criterion over rows with two or more annotations (their first two as two coders)."""
    doubly = rows[(rows["n"] >= 2) & (rows["k"] < 2)].assign(coder=lambda f: f["k"].astype(str))
    return doubly.groupby("criterion").apply(
        lambda f: krippendorff_alpha(f, ["item"], level, coder="coder"), include_groups=False
    )


def between_group_alpha(single_a: pd.DataFrame, single_b: pd.DataFrame, level: str = "ordinal") -> pd.Series:
    """Alpha per criterion over rows both groups annotated (one annotation each: the two coders)."""
    key = ["category", "item", "criterion"]
    both = single_a[key + ["value"]].merge(single_b[key + ["value"]], on=key, suffixes=("_a", "_b"))
    long = both.melt(id_vars=key, value_vars=["value_a", "value_b"], var_name="coder", value_name="value")
    return long.groupby("criterion").apply(
        lambda f: krippendorff_alpha(f, ["item"], level, coder="coder"), include_groups=False
    )


@register("metric", "group_agreement")
def group_agreement_numbers(
    data: StudyData,
    *,
    table: str,
    category: str,
    pairs: list[list[str]],
    within: list[str],
    sampler: dict,
    criteria: dict[str, str],
    level: Level = "ordinal",
) -> pd.DataFrame:
    """Agreement between and within evaluator groups for one task (Finch et al. 2024, Table 3): Krippendorff's
    alpha between the groups of each pair (one annotation per item and group: the two coders), and within each
    group (the first two annotations of items annotated twice or more).

    Parameters
    ----------
    category : str
        The task: ``likert`` or ``pairwise`` rows of the tidy ``category`` column.
    pairs : list of list of str
        The group pairs ``[a, b]``; a pair whose group has no rows is left out.
    within : list of str
        The groups whose within-group alpha is reported.
    level : {'nominal', 'ordinal', 'interval', 'ratio'}
        The level of measurement.

    Returns
    -------
    DataFrame
        Cells (table, row, column, alpha): rows ``<a>/<b>`` and ``<group>``, columns the criterion labels.

    Notes
    -----
    Krippendorff's alpha = 1 - D_o / D_e (observed over expected disagreement, from the coincidence matrix of
    the pairable values; the ``krippendorff`` package), at ``level``. Between groups a and b the two coders are
    the groups, each contributing its one sampled annotation of an item (``sampler``); within a group the coders
    are an item's first and second annotation.

    References
    ----------
    Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", Annenberg School for Communication
    Departmental Papers 43; Finch, Finch & Choi (2024), "Exploring the Impact of Human Evaluator Group on
    Chat-Oriented Dialogue Evaluation", *LREC-COLING 2024* (Table 3).

    Examples
    --------
    Two groups code three items 1, 2, 1 and 1, 2, 2 (nominal): coincidences o_11 = o_22 = 2, o_12 = o_21 = 1 of n =
    6 values, D_o = 2 / 6 and D_e = 2 x 3 x 3 / (6 x 5) = 0.6, so alpha = 1 - (1/3) / 0.6 = 0.4444.

    >>> a = pd.DataFrame({"category": "likert", "item": ["i1", "i2", "i3"], "criterion": "q", "value": [1, 2, 1]})
    >>> b = a.assign(value=[1, 2, 2])
    >>> round(float(between_group_alpha(a, b, "nominal")["q"]), 4)
    0.4444
    """
    part = data.kept[data.kept["category"] == category]
    rows = annotation_rows(part)
    single = singly_annotated(rows, sampler)
    present = set(part["side"])
    out = []
    for a, b in pairs:
        if a in present and b in present:
            alphas = between_group_alpha(single[single["side"] == a], single[single["side"] == b], level)
            out += [(f"{a}/{b}", criteria[c], float(v)) for c, v in alphas.items()]
    for group in within:
        if group in present:
            out += [
                (group, criteria[c], float(v))
                for c, v in within_group_alpha(rows[rows["side"] == group], level).items()
            ]
    return value_frame(table, out)


@register("metric", "group_counts")
def group_count_numbers(data: StudyData, *, table: str, groups: list[str]) -> pd.DataFrame:
    """Evaluators and annotated items per evaluator group (Finch et al. 2024, Table 2).

    Parameters
    ----------
    groups : list of str
        The groups (sides), one row each; a group without kept rows is left out.

    Returns
    -------
    DataFrame
        Cells (table, row, column, count): columns ``evaluators``, ``likert_total`` and ``likert_double``
        (dialogues with one or more, and exactly two, annotations), ``pairwise_total`` and ``pairwise_double``.

    Notes
    -----
    Per group: the distinct participants; per task, the items (dialogues, or unordered pairs of dialogues) with
    at least one annotation and those with exactly two (distinct work units), the items on which a within-group
    agreement can be computed.

    References
    ----------
    Finch, Finch & Choi (2024), "Exploring the Impact of Human Evaluator Group on Chat-Oriented Dialogue
    Evaluation", *LREC-COLING 2024* (Table 2).

    Examples
    --------
    Three people in group G: dialogue d1 annotated twice, d2 once, one pair once.

    >>> j = pd.DataFrame({"side": "G", "participant": ["p1", "p2", "p1", "p3"],
    ...                   "category": ["likert", "likert", "likert", "pairwise"], "item": ["d1", "d1", "d2", "x"],
    ...                   "pair": ["", "", "", "a|b"], "work_unit": ["w1", "w2", "w3", "w4"]})
    >>> out = group_count_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", groups=["G"])
    >>> dict(zip(out["column"], out["value"]))
    {'evaluators': 3.0, 'likert_total': 2.0, 'likert_double': 1.0, 'pairwise_total': 1.0, 'pairwise_double': 0.0}
    """
    out = []
    for group in groups:
        part = data.kept[data.kept["side"] == group]
        if part.empty:
            continue
        likert = part[part["category"] == "likert"].groupby("item")["work_unit"].nunique()
        pairwise = part[part["category"] == "pairwise"].groupby("pair")["work_unit"].nunique()
        out += [
            (group, "evaluators", part["participant"].nunique()),
            (group, "likert_total", len(likert)),
            (group, "likert_double", int((likert == 2).sum())),
            (group, "pairwise_total", len(pairwise)),
            (group, "pairwise_double", int((pairwise == 2).sum())),
        ]
    return value_frame(table, [(r, c, float(v)) for r, c, v in out])
