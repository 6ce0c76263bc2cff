"""Rating-design metrics (Santhanam & Shaikh 2019; Braggaar et al. 2022, Tables 1-10 and Figure 1).

- ICC(C,k) and ICC(A,k): :mod:`humeval.metrics.designs.icc`.
- Subgroups: above/below the mean completion time, and the answers to the two experience questions.
  The authors' Likert time split (``time_split: published``) compared each participant's rounded minutes
  with the mean of *that row and all later rows* (an unanchored spreadsheet range); ``corrected`` uses the
  mean of all participants, as for the other designs.
- Per-item mode with spreadsheet MODE semantics; Spearman correlations with scipy (asymptotic p).
"""

from __future__ import annotations

import logging
from typing import Literal

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import StudyData, value_frame
from humeval.rounding import round_half_up

__all__ = [
    "auto_correlation_numbers",
    "fre_agreement_numbers",
    "human_modes",
    "mode_correlation_numbers",
    "original_vs_reproduction_numbers",
    "reliability_correlation_numbers",
    "spearman",
    "spreadsheet_mode",
    "subgroup_members",
    "timing_numbers",
    "unanchored_time_split",
]

log = logging.getLogger(__name__)


def spreadsheet_mode(frame: pd.DataFrame, order: str = "row") -> pd.Series:
    """Per item, the most frequent value; ties go to the value whose first occurrence (in ``order``,
    the participants' row order) is earliest, as a spreadsheet's MODE does.

    >>> f = pd.DataFrame({"item": ["i"] * 4, "value": [3, 5, 5, 3], "row": [0, 1, 2, 3]})
    >>> spreadsheet_mode(f).tolist()
    [3]
    """
    frame = frame[frame["item"].notna() & frame["value"].notna()]  # as a groupby leaves missing keys out
    item, items = pd.factorize(frame["item"], sort=True)
    value, values = pd.factorize(frame["value"])
    pair, inverse = np.unique(item * len(values) + value, return_inverse=True)
    count = np.bincount(inverse)
    first = np.full(pair.size, np.inf)
    np.minimum.at(first, inverse, pd.to_numeric(frame[order]).to_numpy(dtype=float))
    # per item (in sorted order), the most frequent value, ties to the earliest first occurrence: a lexsort of
    # codes where a groupby, a sort and a drop_duplicates cost santhanam's planning 9 ms a call
    ranked = np.lexsort((first, -count, pair // len(values)))
    first_of_item = np.ones(ranked.size, dtype=bool)
    first_of_item[1:] = np.diff(pair[ranked] // len(values)) != 0
    best = ranked[first_of_item]
    return pd.Series(
        values[pair[best] % len(values)], index=pd.Index(items[pair[best] // len(values)], name="item"), name="value"
    )


def unanchored_time_split(minutes: pd.Series) -> pd.Series:
    """The authors' spreadsheet split: above iff round(m_i) >= mean(round(m_i), ..., round(m_last)).

    ``minutes`` in participant row order; rounding half up as a spreadsheet does.

    >>> unanchored_time_split(pd.Series([10.0, 30.0, 20.0])).tolist()  # 10 < 20, 30 >= 25, 20 >= 20
    [False, True, True]
    """
    rounded = minutes.map(lambda m: round_half_up(float(m), 0)).to_numpy()
    tail_means = np.cumsum(rounded[::-1])[::-1] / np.arange(len(rounded), 0, -1)
    return pd.Series(rounded >= tail_means, index=minutes.index)


def subgroup_members(participants: pd.DataFrame, subgroup: str, *, time_split: str = "corrected") -> pd.Series:
    """Participants (of one side and condition, in row order) in ``subgroup``: all, above, below,
    q1yes, q1no, q2yes, q2no."""
    people = participants.sort_values("row", key=pd.to_numeric)
    if subgroup == "all":
        keep = pd.Series(True, index=people.index)
    elif subgroup in ("above", "below"):
        minutes = pd.to_numeric(people["minutes"])
        above = unanchored_time_split(minutes) if time_split == "published" else minutes > minutes.mean()
        keep = above if subgroup == "above" else ~above
    elif subgroup[:2] in ("q1", "q2") and subgroup[2:] in ("yes", "no"):
        keep = people[subgroup[:2]] == subgroup[2:]
    else:
        raise HumevalError(f"unknown subgroup {subgroup!r}")
    return people.loc[keep, "participant"]


def item_modes(data: StudyData, side: str, condition: str, criterion: str) -> pd.Series:
    """Per item, the spreadsheet mode (:func:`spreadsheet_mode`) of one side, condition and criterion, ties to the
    participant earliest in row order."""
    frame = data.cell(side, condition, criterion)
    rows = pd.to_numeric(data.participants[data.participants["side"] == side].set_index("participant")["row"])
    return spreadsheet_mode(frame.assign(row=frame["participant"].map(rows)))


def human_modes(data: StudyData, condition: str, criterion: str, side: str, mode_sides: dict | None) -> pd.Series:
    """Per-item modes of ``side``, unless ``mode_sides`` maps ``"<condition>|<criterion>"`` to another side
    (how a published-mode switch reproduces an author's data error, e.g. the Likert readability modes
    taken from the original study)."""
    return item_modes(data, (mode_sides or {}).get(f"{condition}|{criterion}", side), condition, criterion)


def spearman(x: pd.Series, y: pd.Series) -> tuple[float, float]:
    """Spearman's rho and its p-value (scipy's ``spearmanr``) over the index values ``x`` and ``y`` share
    (``tests/test_e2e_r_crosscheck.py`` checks every call against R's ``cor.test``)."""
    from scipy import stats

    joined = pd.concat([x.rename("x"), y.rename("y")], axis=1, join="inner")
    result = stats.spearmanr(joined["x"], joined["y"])
    return float(result.statistic), float(result.pvalue)


@register("metric", "mode_correlation")
def mode_correlation_numbers(
    data: StudyData,
    *,
    table: str,
    conditions: list[str],
    side: str = "reproduction",
    mode_sides: dict[str, str] | None = None,
) -> pd.DataFrame:
    """Spearman's rho between the per-item modes of coherence and readability, per condition (Table 9).

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows ``rho`` and ``p``, columns ``<condition>|<side>``.

    Notes
    -----
    Per item, the mode of its ratings on each criterion as the authors' spreadsheet takes it (ties to the value of
    the participant earliest in row order, :func:`spreadsheet_mode`; ``mode_sides`` takes a criterion's modes from
    another side, as a published-mode switch); then Spearman's rho, the Pearson correlation of the two modes' ranks
    (mid-ranks for ties) over the items both have, with the p of its t approximation t = rho sqrt((n - 2) /
    (1 - rho^2)) on n - 2 df (scipy's ``spearmanr``). Every Spearman pair santhanam's metrics compute equals R's
    ``cor.test(method = "spearman", exact = FALSE)``, rho and p, to 1e-9 (``tests/test_e2e_r_crosscheck.py``).

    References
    ----------
    Santhanam & Shaikh (2019), *Towards Best Experiment Design for Evaluating Dialogue System Output*, INLG 2019;
    Braggaar et al. (2022), *A reproduction study of methods for evaluating dialogue system output*, INLG 2022,
    Table 9; Spearman (1904), *The American Journal of Psychology* 15(1): 72-101.

    Examples
    --------
    One rater of three items (each mode is the rating): coherence 1, 2, 3 and readability 1, 3, 2 give rho = 1 -
    6 x 2 / (3 x 8) = 0.5; t = 0.5 sqrt(1 / 0.75) = 0.577 on 1 df, p = 1 - (2 / pi) atan(0.577) = 2/3.

    >>> j = pd.DataFrame({"side": "R1", "condition": "Likert", "participant": "a", "item": [1, 2, 3] * 2,
    ...                   "criterion": ["coherence"] * 3 + ["readability"] * 3, "value": [1, 2, 3, 1, 3, 2]})
    >>> people = pd.DataFrame({"side": ["R1"], "participant": ["a"], "row": [1]})
    >>> out = mode_correlation_numbers(StudyData(j, j, people, j.iloc[:0]), table="t", conditions=["Likert"], side="R1")
    >>> out.set_index("row")["value"].round(4).to_dict()
    {'rho': 0.5, 'p': 0.6667}
    """
    out = []
    for condition in conditions:
        rho, p = spearman(
            human_modes(data, condition, "coherence", side, mode_sides),
            human_modes(data, condition, "readability", side, mode_sides),
        )
        out += [("rho", f"{condition}|{side}", rho), ("p", f"{condition}|{side}", p)]
    return value_frame(table, out)


@register("metric", "auto_correlation")
def auto_correlation_numbers(
    data: StudyData,
    *,
    table: str,
    conditions: list[str],
    criteria: list[str],
    side: str = "reproduction",
    auto_side: str = "automatic",
    mode_sides: dict[str, str] | None = None,
) -> pd.DataFrame:
    """Spearman's rho between the per-item mode of the human rating and the automatic score (Table 8).

    Parameters
    ----------
    criteria : list of str
        The criteria, one row pair each.
    auto_side : str
        The side holding the automatic scores (the ``auto_score_workbook`` loader).

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows ``<criterion>`` and ``<criterion>|p``, columns
        ``<condition>|<side>``.

    Notes
    -----
    Per condition and criterion, Spearman's rho (and its t-approximation p) between the per-item mode of the human
    ratings (:func:`spreadsheet_mode`, as :func:`mode_correlation_numbers`) and the item's automatic score, over
    the items both have (scipy's ``spearmanr``); every such pair of santhanam's run equals R's ``cor.test``
    (``exact = FALSE``) to 1e-9 (``tests/test_e2e_r_crosscheck.py``).

    References
    ----------
    Santhanam & Shaikh (2019), INLG 2019; Braggaar et al. (2022), INLG 2022, Table 8; Spearman (1904), *The
    American Journal of Psychology* 15(1): 72-101.

    Examples
    --------
    One rater's coherence modes 1, 2, 3 against automatic scores 0.1, 0.3, 0.2: ranks (1, 2, 3) and (1, 3, 2),
    rho = 0.5 and p = 2/3 (:func:`mode_correlation_numbers`' example).

    >>> j = pd.DataFrame({"side": ["R1"] * 3 + ["auto"] * 3, "condition": "Likert", "participant": "a",
    ...                   "item": [1, 2, 3] * 2, "criterion": "coherence", "value": [1, 2, 3, 0.1, 0.3, 0.2]})
    >>> people = pd.DataFrame({"side": ["R1"], "participant": ["a"], "row": [1]})
    >>> out = auto_correlation_numbers(StudyData(j, j, people, j.iloc[:0]), table="t", conditions=["Likert"],
    ...                                criteria=["coherence"], side="R1", auto_side="auto")
    >>> out.set_index("row")["value"].round(4).to_dict()
    {'coherence': 0.5, 'coherence|p': 0.6667}
    """
    out = []
    for condition in conditions:
        for criterion in criteria:
            auto = data.cell(auto_side, condition, criterion).set_index("item")["value"]
            rho, p = spearman(human_modes(data, condition, criterion, side, mode_sides), auto)
            out += [(criterion, f"{condition}|{side}", rho), (f"{criterion}|p", f"{condition}|{side}", p)]
    return value_frame(table, out)


@register("metric", "original_vs_reproduction")
def original_vs_reproduction_numbers(
    data: StudyData, *, table: str, conditions: list[str], criteria: list[str]
) -> pd.DataFrame:
    """Spearman's rho over items between the original (INLG) and the reproduction per-item means and modes
    (santhanam's derived ``table10``).

    Parameters
    ----------
    criteria : list of str
        The criteria.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows ``<criterion>|<mean|mode>`` and ``...|p``, columns the
        conditions.

    Notes
    -----
    Per condition and criterion, each item's mean rating and its mode (:func:`spreadsheet_mode`) on the ``original``
    and on the ``reproduction`` side; then Spearman's rho between the two sides' means, and between their modes,
    over the items both have, with the t-approximation p (scipy's ``spearmanr``, as :func:`mode_correlation_numbers`;
    every Spearman pair of santhanam's run equals R's ``cor.test`` to 1e-9, ``tests/test_e2e_r_crosscheck.py``).
    santhanam's ``table10`` is derived (the study names no paper table for it): nothing printed to compare.

    References
    ----------
    Santhanam & Shaikh (2019), INLG 2019, and Braggaar et al. (2022), INLG 2022 (the two sides' ratings);
    Spearman (1904), *The American Journal of Psychology* 15(1): 72-101.

    Examples
    --------
    One rater per side on three items: the original rates 1, 2, 3 and the reproduction 1, 3, 2, so means and modes
    both correlate at rho = 0.5, p = 2/3 (:func:`mode_correlation_numbers`' example).

    >>> j = pd.DataFrame({"side": ["original"] * 3 + ["reproduction"] * 3, "condition": "Likert",
    ...                   "criterion": "coherence", "participant": ["o"] * 3 + ["r"] * 3, "item": [1, 2, 3] * 2,
    ...                   "value": [1.0, 2, 3, 1, 3, 2]})
    >>> people = pd.DataFrame({"side": ["original", "reproduction"], "participant": ["o", "r"], "row": [1, 1]})
    >>> out = original_vs_reproduction_numbers(StudyData(j, j, people, j.iloc[:0]), table="t", conditions=["Likert"],
    ...                                        criteria=["coherence"])
    >>> out.set_index("row")["value"].round(4).to_dict()
    {'coherence|mean': 0.5, 'coherence|mean|p': 0.6667, 'coherence|mode': 0.5, 'coherence|mode|p': 0.6667}
    """
    out = []
    for condition in conditions:
        for criterion in criteria:
            sides = {}
            for side in ("original", "reproduction"):
                frame = data.cell(side, condition, criterion)
                sides[side] = (frame.groupby("item")["value"].mean(), item_modes(data, side, condition, criterion))
            for k, statistic in enumerate(("mean", "mode")):
                rho, p = spearman(sides["original"][k], sides["reproduction"][k])
                out += [(f"{criterion}|{statistic}", condition, rho), (f"{criterion}|{statistic}|p", condition, p)]
    return value_frame(table, out)


def leave_one_out_reliability(frame: pd.DataFrame) -> pd.Series:
    """Per participant, Spearman between their item scores and the mean of all other participants' scores
    (NaN where a participant's scores are constant)."""
    from scipy import stats

    wide = frame.pivot(index="item", columns="participant", values="value")
    totals = wide.sum(axis=1)
    others = (totals.to_numpy()[:, None] - wide.to_numpy()) / (wide.shape[1] - 1)
    ranks_self = wide.rank().to_numpy()
    ranks_others = pd.DataFrame(others).rank().to_numpy()
    rho = [
        stats.pearsonr(ranks_self[:, k], ranks_others[:, k]).statistic if np.ptp(ranks_self[:, k]) > 0 else np.nan
        for k in range(wide.shape[1])
    ]
    return pd.Series(rho, index=wide.columns)


def collapse_duplicate_tags(frame: pd.DataFrame) -> pd.DataFrame:
    """The authors' Figure 1 data handling (published mode): their notebooks read the Qualtrics CSV with
    ``csv.DictReader``, which keys each row by export tag, so columns that share a tag merge: the item of the
    tag's first column keeps the value of its last column, and the other columns' items are gone.

    >>> frame = pd.DataFrame({"participant": ["p"] * 3, "export_tag": ["C2_R2_R", "C2_R1_R", "C2_R2_R"],
    ...                       "export_column": [21, 23, 25], "item": ["c02r2", "c02r1", "c03r1"], "value": [1, 2, 3]})
    >>> collapse_duplicate_tags(frame)[["item", "value"]].to_dict("records")
    [{'item': 'c02r2', 'value': 3}, {'item': 'c02r1', 'value': 2}]
    """
    ordered = frame.sort_values("export_column", kind="stable")
    last = ordered.groupby(["participant", "export_tag"])["value"].transform("last")
    first = ~ordered.duplicated(["participant", "export_tag"], keep="first")
    return ordered[first].assign(value=last[first])


@register("metric", "reliability_correlation")
def reliability_correlation_numbers(
    data: StudyData,
    *,
    table: str,
    conditions: list[str],
    points_table: str,
    side: str = "reproduction",
    duplicate_tags: Literal["collapse_last"] | None = None,
) -> pd.DataFrame:
    """Spearman's rho, across participants, between coherence and readability reliability (Figure 1): each
    participant's leave-one-out Spearman with the mean of the others. Every response is kept.

    Parameters
    ----------
    table : str
        The table of r, p and n per condition.
    points_table : str
        The table of the per-participant reliabilities (the scatter's points).
    duplicate_tags : {'collapse_last'}, optional
        ``collapse_last`` is the published mode: the authors' notebooks merged columns sharing an export tag, the
        later one winning (:func:`collapse_duplicate_tags`); without it every item counts (the corrected mode).

    Returns
    -------
    DataFrame
        Cells: rows = conditions with columns ``r``, ``p``, ``n``, ``items_coherence``, ``items_readability``;
        in ``points_table`` rows ``<condition>|<participant>`` with one column per criterion.

    Notes
    -----
    Per criterion, participant j's reliability is rho_j = Spearman(x_j, mean of x_k over k != j) over the items
    (:func:`leave_one_out_reliability`: Pearson's r of the ranks, ties averaged; NaN where x_j is constant); then
    r = Spearman(rho_coherence, rho_readability) across the participants with both, and its p (scipy's
    ``spearmanr``). A high r says that a participant who agrees with the others on one
    criterion agrees on the other: rater reliability is a property of the rater, not of the criterion.

    References
    ----------
    Santhanam & Shaikh (2019), "Towards Best Experiment Design for Evaluating Dialogue System Output", *INLG
    2019* (Figure 1); Braggaar et al. (2022), *INLG 2022* (its reproduction).

    Examples
    --------
    Three participants rate four items 1 2 3 4, 1 2 3 4 and 2 1 4 3: the first two against the others' means
    1.5 1.5 3.5 3.5 give rho = 4 / (2 sqrt 5) = 0.8944; the third against 1 2 3 4 gives rho = 3 / 5 = 0.6.

    >>> f = pd.DataFrame({"participant": ["p1"] * 4 + ["p2"] * 4 + ["p3"] * 4, "item": list("abcd") * 3,
    ...                   "value": [1, 2, 3, 4, 1, 2, 3, 4, 2, 1, 4, 3]})
    >>> leave_one_out_reliability(f).round(4).to_dict()
    {'p1': 0.8944, 'p2': 0.8944, 'p3': 0.6}
    """
    if duplicate_tags not in (None, "collapse_last"):
        raise HumevalError(f"metric reliability_correlation: duplicate_tags {duplicate_tags!r} is not collapse_last")
    out, points = [], []
    for condition in conditions:
        frame = data.cell(side, condition)
        if duplicate_tags:
            if "export_tag" not in frame.columns:
                raise HumevalError(
                    "metric reliability_correlation: duplicate_tags needs the loader's export_tag column"
                )
            frame = collapse_duplicate_tags(frame)
        counts = frame.groupby("criterion")["item"].nunique().to_dict()
        log.info("%s %s: items per criterion %s", table, condition, counts)
        reliability = pd.concat(
            {c: leave_one_out_reliability(frame[frame["criterion"] == c]) for c in ("coherence", "readability")}, axis=1
        ).dropna()
        rho, p = spearman(reliability["coherence"], reliability["readability"])
        out += [(condition, "r", rho), (condition, "p", p), (condition, "n", float(len(reliability)))]
        out += [(condition, f"items_{c}", float(counts.get(c, 0))) for c in ("coherence", "readability")]
        points += [
            (f"{condition}|{participant}", criterion, float(value))
            for participant, row in reliability.iterrows()
            for criterion, value in row.items()
        ]
    return pd.concat([value_frame(table, out), value_frame(points_table, points)], ignore_index=True)


@register("metric", "timing")
def timing_numbers(data: StudyData, *, table: str, conditions: list[str], side: str = "reproduction") -> pd.DataFrame:
    """Mean and SD (ddof 1) of the completion time in minutes per condition; its parameters (table, conditions,
    side) are the metrics' shared ones.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows = conditions, columns ``mean_minutes`` and ``sd_minutes``.

    Notes
    -----
    Over the participants of ``side`` in each condition (their ``minutes``, one per participant), the mean and the
    sample SD with n - 1. santhanam's reproduction: all eight values (four conditions, mean and SD) match Braggaar
    et al.'s printed ones in its audit (Likert 58.0 and 24.47 minutes).

    References
    ----------
    Braggaar et al. (2022), *A reproduction study of methods for evaluating dialogue system output*, INLG 2022
    (the completion times per condition, in its text).

    Examples
    --------
    Three participants in one condition, 10, 20 and 30 minutes: mean 20, SD 10.

    >>> people = pd.DataFrame({"side": "R1", "condition": "Likert", "minutes": ["10", "20", "30"]})
    >>> out = timing_numbers(StudyData(people, people, people, people.iloc[:0]), table="t", conditions=["Likert"],
    ...                      side="R1")
    >>> list(zip(out["column"], out["value"]))
    [('mean_minutes', 20.0), ('sd_minutes', 10.0)]
    """
    out = []
    for condition in conditions:
        minutes = pd.to_numeric(
            data.participants.loc[
                (data.participants["side"] == side) & (data.participants["condition"] == condition), "minutes"
            ]
        )
        out += [
            (condition, "mean_minutes", float(minutes.mean())),
            (condition, "sd_minutes", float(minutes.std(ddof=1))),
        ]
    return value_frame(table, out)


def flesch_reading_ease(texts: pd.Series, model: str | None = None) -> pd.Series:
    """Flesch Reading Ease of each text with textacy (``text_stats.flesch_reading_ease`` on a spaCy Doc).

    The pipeline is ``spacy.blank("en")`` + ``sentencizer`` unless ``model`` names an installed spaCy
    model (the authors used ``en_core_web_sm``; sentence splits, hence a few scores, may differ).
    """
    import spacy
    from textacy import text_stats

    if model:
        nlp = spacy.load(model)
    else:
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
    return pd.Series([text_stats.flesch_reading_ease(doc) for doc in nlp.pipe(texts.tolist())], index=texts.index)


@register("metric", "fre_agreement")
def fre_agreement_numbers(
    data: StudyData,
    *,
    table: str,
    condition: str,
    model: str | None = None,
    side: str = "reproduction",
    auto_side: str = "automatic",
    criterion: str = "readability",
) -> pd.DataFrame:
    """Flesch Reading Ease (textacy) recomputed on the context turns and response against the authors'
    automatic readability scores.

    Parameters
    ----------
    condition : str
        The survey condition whose items are scored.
    model : str, optional
        An installed spaCy model to split sentences (the authors used ``en_core_web_sm``). Default: spaCy's blank
        English with the sentencizer.
    auto_side : str
        The side holding the automatic scores.
    criterion : str
        The criterion of the automatic scores.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): row = the condition, columns ``n`` (items), ``exact`` (the share equal
        at 2 decimals), ``within_1`` (the share within 1 point) and ``spearman``.

    Notes
    -----
    FRE = 206.835 - 1.015 (words / sentences) - 84.6 (syllables / words) of each item's context and response
    (textacy's ``flesch_reading_ease``: its syllables by pyphen's hyphenation, its sentences by spaCy), against
    the authors' automatic score of the same item: the share equal after rounding both to 2 decimals, the share
    within 1 point, and Spearman's rho. Differences come from sentence splitting (the authors' spaCy model
    against the blank pipeline's sentencizer) and tokenisation, not from the formula.

    References
    ----------
    Flesch (1948), "A new readability yardstick", *Journal of Applied Psychology* 32(3): 221-233; Santhanam &
    Shaikh (2019), *INLG 2019* (the automatic readability of its items).

    Examples
    --------
    "The cat sat.": 3 words, 1 sentence, 3 syllables, so 206.835 - 1.015 x 3 - 84.6 x 1 = 119.19 (textacy gives
    the same).

    >>> round(206.835 - 1.015 * (3 / 1) - 84.6 * (3 / 3), 2)
    119.19
    """
    frame = data.tidy[(data.tidy["side"] == side) & (data.tidy["condition"] == condition)]
    if "context_text" not in frame.columns or "response_text" not in frame.columns:
        raise HumevalError(
            "metric fre_agreement: the tidy table has no context_text/response_text (give the "
            "Qualtrics loader the qsf input and a response_text_pattern)"
        )
    texts = frame.drop_duplicates("item").set_index("item")
    fre = flesch_reading_ease(texts["context_text"].astype(str) + " " + texts["response_text"].astype(str), model)
    auto = data.tidy[
        (data.tidy["side"] == auto_side) & (data.tidy["condition"] == condition) & (data.tidy["criterion"] == criterion)
    ].set_index("item")["value"]
    joined = pd.concat([fre.rename("fre"), auto.rename("auto")], axis=1, join="inner")
    rho, _ = spearman(joined["fre"], joined["auto"])
    difference = (joined["fre"].round(2) - joined["auto"].round(2)).abs()
    return value_frame(
        table,
        [
            (condition, "n", float(len(joined))),
            (condition, "exact", float((difference < 0.005).mean())),
            (condition, "within_1", float((difference <= 1).mean())),
            (condition, "spearman", rho),
        ],
    )
