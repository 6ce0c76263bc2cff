"""Pairwise-preference metrics (Hosking et al. 2022, Watson & Gkatzia 2024, Table 1)."""

from __future__ import annotations

from typing import get_args

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import SCALES, Columns, Frame, Scale, StudyData, groups_of, render, value_frame
from humeval.metrics.tally import PERCENT_STATS, TALLY_STATS, TallyStat, pairwise_tally

__all__ = [
    "OUTCOMES",
    "majority_vote",
    "pairwise_tally_numbers",
    "position_bias_numbers",
    "preference_outcomes",
    "preference_scores",
    "preference_share_numbers",
    "relative_preference_numbers",
]


def majority_vote(judgements: pd.DataFrame) -> pd.DataFrame:
    """Per item, the majority of its pairwise judgements.

    Returns one row per item with ``system``, ``system_b`` and ``vote`` = sign(sum of values):
    +1 ``system`` wins, -1 ``system_b`` wins, 0 tie. Every item must show the same pair in every
    judgement.

    >>> j = pd.DataFrame({"item": ["i", "i", "i"], "system": ["a"] * 3, "system_b": ["b"] * 3,
    ...                   "value": [1, -1, 1]})
    >>> majority_vote(j)[["item", "vote"]].values.tolist()
    [['i', 1]]
    """
    # codes and sums, not a groupby (which cost hosking's planning 14 ms a simulation); items in sorted order
    code, items = pd.factorize(judgements["item"], sort=True)
    first = np.full(len(items), len(code))
    np.minimum.at(first, code, np.arange(len(code)))  # each item's first judgement
    system, system_b = judgements["system"].to_numpy(), judgements["system_b"].to_numpy()
    differs = (system != system[first][code]) | (system_b != system_b[first][code])
    if differs.any():
        bad = items[code[differs].min()]  # the first in sorted order
        raise HumevalError(f"item {bad!r} shows different system pairs across judgements")
    total = np.bincount(code, weights=pd.to_numeric(judgements["value"]).to_numpy(dtype=float), minlength=len(items))
    return pd.DataFrame(
        {"item": items, "system": system[first], "system_b": system_b[first], "vote": np.sign(total).astype(int)}
    )


def preference_scores(votes: pd.DataFrame) -> pd.Series:
    """Per system: +1 for each item it won, -1 for each it lost (ties score 0): wins - losses of
    :func:`humeval.metrics.tally.pairwise_tally` over the votes."""
    tally = vote_tally(votes)
    return tally["wins"] - tally["losses"]


def vote_tally(votes: pd.DataFrame) -> pd.DataFrame:
    """:func:`humeval.metrics.tally.pairwise_tally` of per-item votes (``vote`` as the pairwise value)."""
    return pairwise_tally(votes.rename(columns={"vote": "value"}))


def relative_preference(scores: pd.Series, denominator: float | pd.Series) -> pd.Series:
    """Relative preference % = 100 x score(system) / denominator.

    Hosking et al. (2022) divide by the total number of comparisons (1800 in Watson & Gkatzia 2024),
    not by the comparisons a system appears in.

    >>> relative_preference(pd.Series({"hrq": 64}), 1800).round(2).tolist()
    [3.56]
    """
    return 100.0 * scores / denominator


@register("metric", "relative_preference")
def relative_preference_numbers(
    data: StudyData,
    *,
    table: str,
    side: str,
    column: str,
    score_column: str | None = None,
    per_appearance_suffix: str | None = None,
) -> pd.DataFrame:
    """Relative preference per system for one side (Hosking et al. 2022, Table 1): the share of all
    comparisons of the system that it won minus the share it lost, in per cent.

    Parameters
    ----------
    side : str
        The side whose kept pairwise judgements are counted; rows are the system labels (``systems``).
    column : str
        The column of the relative preference.
    score_column : str, optional
        A column for the raw score (wins minus losses).
    per_appearance_suffix : str, optional
        A sensitivity row ``<label><suffix>`` per system: the preference per appearance of the system.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one row per system label.

    Notes
    -----
    Each item's judgements are reduced to a majority vote (:func:`majority_vote`, the sign of their sum); over the
    N compared items, system s scores w_s - l_s (items won minus items lost, ties 0), and its relative preference
    is 100 (w_s - l_s) / N, divided by all comparisons as Hosking et al. do, not by the n_s items s appears in
    (the per-appearance row, 100 (w_s - l_s) / n_s). hosking's four reproduction values (23.0, -8.67, -17.89,
    3.56: scores 414, -156, -322 and 64 over 1,800 items) match Watson & Gkatzia's Table 1 in its audit.

    References
    ----------
    Hosking, Tang & Lapata (2022), *Hierarchical Sketch Induction for Paraphrase Generation*, ACL 2022, Table 1;
    Watson & Gkatzia (2024), *ReproHum #0712-01*, HumEval 2024, Table 1.

    Examples
    --------
    Three items: a beats b by two votes to one, c beats a twice, b and c tie (+1, -1). Scores a 1 - 1 = 0, b -1,
    c +1 over N = 3 items: 0, -33.33, 33.33; each system appears in two, so per appearance 0, -50, 50.

    >>> j = pd.DataFrame({"side": "R1", "response_type": "pairwise", "item": [1, 1, 1, 2, 2, 3, 3],
    ...                   "system": ["a", "a", "a", "a", "a", "b", "b"], "system_b": ["b", "b", "b", "c", "c", "c", "c"],
    ...                   "value": [1, 1, -1, -1, -1, 1, -1]})
    >>> config = {"systems": [{"code": "a"}, {"code": "b"}, {"code": "c"}]}
    >>> out = relative_preference_numbers(StudyData(j, j, j, j.iloc[:0], config=config), table="t", side="R1",
    ...                                   column="pct", per_appearance_suffix=" per appearance")
    >>> out.set_index("row")["value"].round(2).to_dict()
    {'a': 0.0, 'a per appearance': 0.0, 'b': -33.33, 'b per appearance': -50.0, 'c': 33.33, 'c per appearance': 50.0}
    """
    judgements = data.kept[(data.kept["side"] == side) & (data.kept["response_type"] == "pairwise")]
    if judgements.empty:
        raise HumevalError(f"metric relative_preference: no pairwise judgements on side {side!r}")
    votes = majority_vote(judgements)
    tally = vote_tally(votes)
    scores = tally["wins"] - tally["losses"]
    labels = data.system_labels()
    unknown = sorted(set(scores.index) - set(labels))
    if unknown:
        raise HumevalError(f"metric relative_preference: system code(s) {unknown} are not in the config's systems")
    pct = relative_preference(scores, len(votes))
    per_appearance = relative_preference(scores, tally["n"])  # n: the compared items a system appears in
    rows = []
    for code, label in labels.items():
        if code not in scores.index:
            continue
        rows.append((label, column, float(pct[code])))
        if score_column:
            rows.append((label, score_column, float(scores[code])))
        if per_appearance_suffix:
            rows.append((label + per_appearance_suffix, column, float(per_appearance[code])))
    return value_frame(table, rows)


OUTCOMES = ("focus", "equal", "baseline")


def preference_outcomes(judgements: pd.DataFrame, focus: str) -> pd.DataFrame:
    """Each pairwise judgement of ``focus`` against another system as (baseline, outcome).

    outcome is ``focus`` (the focus system preferred), ``baseline`` or ``equal``, whichever side (A or B)
    the focus system was shown on. Judgements not involving ``focus`` are an error.
    """
    as_a = judgements["system"] == focus
    as_b = judgements["system_b"] == focus
    if (~(as_a ^ as_b)).any():
        row = judgements[~(as_a ^ as_b)].iloc[0]
        raise HumevalError(
            f"judgement {row['judgement_id']!r} compares {row['system']!r} with {row['system_b']!r}; "
            f"exactly one side must be the focus system {focus!r}"
        )
    towards_focus = judgements["value"].where(as_a, -judgements["value"])
    outcome = towards_focus.map({1: "focus", 0: "equal", -1: "baseline"})
    return pd.DataFrame({"baseline": judgements["system_b"].where(as_a, judgements["system"]), "outcome": outcome})


def preference_shares(judgements: pd.DataFrame, focus: str) -> pd.DataFrame:
    """Share of all judgements (not per-item majorities) per baseline and outcome (rows sum to 1).

    >>> j = pd.DataFrame({"judgement_id": list("abcd"), "system": ["X", "X", "b", "b"],
    ...                   "system_b": ["b", "b", "X", "X"], "value": [1, 0, 1, -1]})
    >>> preference_shares(j, "X").loc["b"].tolist()
    [0.5, 0.25, 0.25]
    """
    outcomes = preference_outcomes(judgements, focus)
    counted = outcomes[outcomes["outcome"].notna()]  # a value other than 1, 0 and -1 is no outcome
    baselines, baseline = np.unique(counted["baseline"].astype(str).to_numpy(), return_inverse=True)
    outcome = pd.Categorical(counted["outcome"], categories=list(OUTCOMES)).codes
    counts = np.bincount(baseline * len(OUTCOMES) + outcome, minlength=len(baselines) * len(OUTCOMES))
    counts = counts.reshape(len(baselines), len(OUTCOMES)).astype(float)
    # a cross-tabulation normalised per baseline, as pd.crosstab(normalize="index"), without its pivot table
    # (8 ms of liu's 17 ms per planning simulation)
    return pd.DataFrame(counts / counts.sum(axis=1, keepdims=True), index=baselines, columns=list(OUTCOMES))


@register("metric", "preference_shares")
def preference_share_numbers(
    data: StudyData,
    *,
    table: str,
    side: str,
    focus: str,
    columns: dict[str, str],
    row: str = "{system}",
    frame: Frame = "kept",
    scale: Scale = "proportion",
) -> pd.DataFrame:
    """Preference shares of ``side`` per comparison system: of the judgements comparing ``focus`` with a
    baseline system, the shares preferring ``focus``, calling them equal and preferring the baseline.

    Parameters
    ----------
    side : str
        The side whose pairwise judgements are read.
    focus : str
        The system compared with every other (the baselines).
    columns : dict of str to str
        Outcome (``focus``, ``equal``, ``baseline``) -> its column label; any subset.
    row : str
        The row template over ``{system}`` (the baseline's label).
    frame : {'kept', 'tidy'}
        ``kept`` (after the exclusions) or ``tidy`` (every judgement, to report a variant without an exclusion).
    scale : {'percent', 'proportion'}
        The shares as proportions (0..1) or in per cent.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one row per baseline, one share per outcome.

    Notes
    -----
    Each judgement of ``focus`` against baseline b is turned towards ``focus`` (its value +1, 0 or -1 negated where
    ``focus`` was shown second) and counted as an outcome: share_o(b) = n_o(b) / n(b) for o in focus, equal and
    baseline, over every judgement (not per-item majorities), so the three shares of a baseline sum to 1. liu's
    Original rows of Figure 2 (twelve shares, four baselines, from the authors' released judgements) match the
    printed two decimals.

    References
    ----------
    Liu et al. (2021), *DExperts: Decoding-Time Controlled Text Generation with Experts and Anti-Experts*, ACL
    2021, section 3.2.4 and Figure 2; Dinkar, Abercrombie & Rieser (2024), *ReproHum #0927-03*, HumEval 2024.

    Examples
    --------
    Against b, X is preferred twice (shown first and shown second), they are called equal once, b is preferred
    once: 50, 25 and 25 per cent; against c, c is preferred in the one judgement.

    >>> j = pd.DataFrame({"side": "R1", "response_type": "pairwise", "judgement_id": list("abcde"),
    ...                   "system": ["X", "X", "b", "b", "X"], "system_b": ["b", "b", "X", "X", "c"],
    ...                   "value": [1, 0, 1, -1, -1]})
    >>> out = preference_share_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", side="R1", focus="X",
    ...                                columns={"focus": "X", "equal": "equal", "baseline": "other"}, scale="percent")
    >>> out.pivot(index="row", columns="column", values="value")[["X", "equal", "other"]].values.tolist()
    [[50.0, 25.0, 25.0], [0.0, 0.0, 100.0]]
    """
    source = data.kept if frame == "kept" else data.tidy
    judgements = source[(source["side"] == side) & (source["response_type"] == "pairwise")]
    if judgements.empty:
        raise HumevalError(f"metric preference_shares: no pairwise judgements on side {side!r}")
    shares = preference_shares(judgements, focus)
    if scale == "percent":
        shares = 100 * shares
    labels = data.system_labels()
    ordered = [code for code in labels if code in shares.index] + [c for c in shares.index if c not in labels]
    return value_frame(
        table,
        [
            (row.format(system=labels.get(code, code)), column, float(shares.loc[code, outcome]))
            for code in ordered
            for outcome, column in columns.items()
        ],
    )


@register("metric", "position_bias")
def position_bias_numbers(
    data: StudyData, *, table: str, side: str, row: str = "answer_a_share", column: str = "value"
) -> pd.DataFrame:
    """Share of the kept pairwise judgements that chose the system shown first (A): a diagnostic of
    position bias (0.5 = none), not an exclusion. Ties count as not choosing A.

    Parameters
    ----------
    table : str
        The table the cell goes to.
    side : str
        The side whose kept pairwise judgements are read.
    row, column : str
        The cell.

    Returns
    -------
    DataFrame
        One cell (table, row, column, share).

    Notes
    -----
    share_A = #{value = +1} / N over the N kept pairwise judgements of ``side`` (+1: the system shown first, A,
    chosen; -1: B; 0: a tie). Without position bias, and with each system shown first as often as second, its
    expectation is (1 - t) / 2 for a tie rate t, 0.5 without ties; a share far from it says the order of
    presentation moved the choices (a binomial test of the A choices against the B choices, ties left out,
    is ``pairwise_tally``'s ``sign_p`` on a side whose systems are the positions).

    References
    ----------
    David (1988), *The Method of Paired Comparisons*, 2nd ed., Griffin (order effects in paired comparisons);
    Wang et al. (2024), "Large Language Models are not Fair Evaluators", *ACL 2024* (position bias of pairwise
    judges).

    Examples
    --------
    Two of four judgements chose A, one chose B, one is a tie: 2 / 4 = 0.5.

    >>> j = pd.DataFrame({"side": "r", "response_type": "pairwise", "value": [1, 1, -1, 0]})
    >>> position_bias_numbers(StudyData(j, j, pd.DataFrame(), pd.DataFrame()), table="t", side="r")["value"].tolist()
    [0.5]
    """
    judgements = data.kept[(data.kept["side"] == side) & (data.kept["response_type"] == "pairwise")]
    if judgements.empty:
        raise HumevalError(f"metric position_bias: no pairwise judgements on side {side!r}")
    return value_frame(table, [(row, column, float((judgements["value"] == 1).mean()))])


@register("metric", "pairwise_tally")
def pairwise_tally_numbers(
    data: StudyData,
    *,
    table: str,
    row: str = "{system}",
    column: str = "{stat}",
    stats: list[TallyStat] = TALLY_STATS,
    by: Columns = (),
    majority: bool = False,
    scale: Scale = "percent",
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Wins, losses, ties, win % and best-worst scores per system (:func:`humeval.metrics.tally.pairwise_tally`)
    from the pairwise judgements, per group of ``by`` (criterion, side).

    Parameters
    ----------
    row, column : str
        Templates over the ``by`` keys, ``{system}`` and ``{stat}``.
    stats : list of {'wins', 'losses', 'ties', 'n', 'win_pct', 'bws', 'bws_scaled', 'score', 'sign_p'}
        The statistics: ``win_pct`` = 100 wins / n; ``bws`` = 100 (wins - losses) / n (the best-worst score,
        -100..100); ``bws_scaled`` = (bws + 100) / 2 (0..100); ``score`` = wins - losses; ``sign_p`` the exact
        two-sided sign test of wins against losses (ties left out; scipy's ``binomtest``), only when asked for.
    majority : bool
        Reduce each item's judgements to their majority vote (the sign of their sum) first, one comparison per
        item; else every judgement counts.
    scale : {'percent', 'proportion'}
        ``win_pct``, ``bws`` and ``bws_scaled`` in per cent (as above), or as proportions (divided by 100).

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one per group, system and statistic.

    Notes
    -----
    A pairwise choice is a best-worst choice between two: each comparison counts once for each of its systems, in
    either position, so a system's n is its comparisons; BWS = 100 (wins - losses) / n (Louviere, Flynn & Marley's
    best-minus-worst count over appearances), its 0..100 rescaling (BWS + 100) / 2, and the sign test's p =
    P(|B - (w + l)/2| >= |w - (w + l)/2|) for B ~ Binomial(w + l, 1/2), ties left out (scipy's ``binomtest``). The
    tally is checked against hand counts in the ``.test`` study and against arvan's printed results and lux's
    preferences and sign tests (their audits).

    References
    ----------
    Louviere, Flynn & Marley (2015), *Best-Worst Scaling: Theory, Methods and Applications*, Cambridge University
    Press, chapter 1; Kiritchenko & Mohammad (2017), "Best-Worst Scaling More Reliable than Rating Scales", *ACL
    2017*: 465-470; Dixon & Mood (1946), "The Statistical Sign Test", *JASA* 41(236): 557-566.

    Examples
    --------
    a beats b, ties c; b beats c: a has 1 win, 0 losses, 1 tie in 2, so win % 50, BWS 100 (1 - 0) / 2 = 50 and
    scaled 75; b 1 win, 1 loss: BWS 0.

    >>> j = pd.DataFrame({"response_type": "pairwise", "system": ["a", "a", "b"], "system_b": ["b", "c", "c"],
    ...                   "value": [1, 0, 1]})
    >>> out = pairwise_tally_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", stats=["win_pct", "bws"])
    >>> out.set_index(["row", "column"])["value"].to_dict()
    {('a', 'win_pct'): 50.0, ('a', 'bws'): 50.0, ('b', 'win_pct'): 50.0, ('b', 'bws'): 0.0, ('c', 'win_pct'): 0.0, ('c', 'bws'): -50.0}
    """
    known = get_args(TallyStat)
    unknown = [s for s in stats if s not in known]
    if unknown:
        raise HumevalError(f"metric pairwise_tally: unknown statistic(s) {unknown}; known: {list(known)}")
    rows = data.rows(frame, variant, where)
    rows = rows[rows["response_type"] == "pairwise"]
    out = []
    for keys, group in groups_of(rows, by):
        pairs = majority_vote(group).rename(columns={"vote": "value"}) if majority else group
        tally = pairwise_tally(pairs, sign_test="sign_p" in stats)
        tally[list(PERCENT_STATS)] *= SCALES[scale]
        for system, record in tally.iterrows():
            for stat in stats:
                fields = {**keys, "system": system, "stat": stat}
                out.append((render(row, fields, labels), render(column, fields, labels), float(record[stat])))
    return value_frame(table, out)
