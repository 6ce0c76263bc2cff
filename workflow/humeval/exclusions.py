"""Exclusion mechanics: named exclusions from the study config, every dropped judgement logged.

An exclusion is a function ``f(judgements, participants, *, <parameters>) -> pandas.Series`` of reasons
registered with ``@register("exclusion", <name>)``, indexed like ``judgements``, holding a one-sentence reason
for each row to drop and NA for rows to keep; the keyword-only parameters are the entry's ``params``. Config
entries ``{exclusion: <registered name>, name?, sides?, params?}`` are applied in order, each to the rows
the earlier ones kept; a row is attributed to the first exclusion that drops it. :func:`apply_exclusions`
returns the kept rows and the exclusion log (``exclusions.csv``: column ``rule`` holds the entry's name),
one row per dropped judgement (a whole ranking is one judgement).
"""

from __future__ import annotations

import logging

import pandas as pd

from humeval.config.registry import function, register
from humeval.errors import HumevalError

__all__ = [
    "EXCLUSION_COLUMNS",
    "apply_exclusions",
    "attention_check",
    "complete_respondents",
    "drop_groups_containing",
    "drop_systems",
    "drop_uncovered",
    "drop_where",
    "exclude_study",
    "invalid_permutation",
    "missing_value",
    "variant_exclusions",
]

log = logging.getLogger(__name__)

EXCLUSION_COLUMNS = ["study", "side", "judgement_id", "participant", "item", "rule", "reason"]


@register("exclusion", "missing_value")
def missing_value(judgements: pd.DataFrame, participants: pd.DataFrame) -> pd.Series:
    """Drop a row whose value the export left empty (an unanswered rating). Applied before every configured
    exclusion (unless an entry names it, which places it there), so judgements in = kept + excluded always holds.

    Returns
    -------
    Series
        A one-sentence reason per judgement row with no value, NA for a row kept.

    Notes
    -----
    Complete-case analysis of each judgement: a row is kept when its value is a number, so that every statistic
    reads the same rows and judgements in = kept + excluded holds for every side. The rater's other judgements
    stay (a respondent-level rule is ``complete_respondents``).

    References
    ----------
    Little & Rubin (2019), *Statistical Analysis with Missing Data*, 3rd ed., Wiley, chapter 3 (complete-case and
    available-case analysis).

    Examples
    --------
    >>> judgements = pd.DataFrame({"participant": ["p1", "p1", "p2"], "value": [4.0, None, 2.0]})
    >>> missing_value(judgements, pd.DataFrame()).tolist()
    [<NA>, 'no value in the export (empty cell)', <NA>]
    """
    missing = pd.to_numeric(judgements["value"], errors="coerce").isna()
    return pd.Series(pd.NA, index=judgements.index, dtype=object).mask(missing, "no value in the export (empty cell)")


@register("exclusion", "complete_respondents")
def complete_respondents(
    judgements: pd.DataFrame, participants: pd.DataFrame, *, unit: str = "participant"
) -> pd.Series:
    """Complete respondents only: drop every judgement of a participant who left any question unanswered (a value
    the export left empty). List it before ``missing_value`` in ``exclusions`` (validation says so otherwise), so
    that it sees the unanswered rows and the participant's other judgements go with them under its name.

    Parameters
    ----------
    unit : str
        The column whose value is dropped as a whole (the participant, or a response).

    Returns
    -------
    Series
        A one-sentence reason per judgement row of an incomplete respondent, naming how many questions they left
        unanswered; NA for a row kept.

    Notes
    -----
    Listwise deletion at the respondent: with m_u the number of empty values of unit u, every row of u is dropped
    when m_u > 0. Unbiased only where whole respondents are missing completely at random; the reason logged names
    m_u so that a reader can judge what was lost.

    References
    ----------
    Little & Rubin (2019), *Statistical Analysis with Missing Data*, 3rd ed., Wiley, chapter 3 (complete-case
    analysis); lux-2022's authors compute their complete-case Krippendorff's alpha this way (a variant there).

    Examples
    --------
    >>> judgements = pd.DataFrame({"participant": ["p1", "p1", "p2"], "value": [4.0, None, 2.0]})
    >>> complete_respondents(judgements, pd.DataFrame()).tolist()
    ['incomplete respondent: 1 question(s) unanswered', 'incomplete respondent: 1 question(s) unanswered', nan]
    """
    missing = pd.to_numeric(judgements["value"], errors="coerce").isna()
    unanswered = missing.groupby(judgements[unit]).transform("sum")
    reasons = "incomplete respondent: " + unanswered.astype(int).astype(str) + " question(s) unanswered"
    return reasons.where(unanswered > 0).astype(object)


@register("exclusion", "attention_check")
def attention_check(
    judgements: pd.DataFrame, participants: pd.DataFrame, *, distractor: str, unit: str = "participant"
) -> pd.Series:
    """Pairwise attention check: a participant who chose the ``distractor`` side in any item fails, and every
    judgement of that participant is dropped. A pairwise row chose the distractor when ``system == distractor
    and value == +1`` or ``system_b == distractor and value == -1``.

    Parameters
    ----------
    distractor : str
        The system code of the distractor (an output no attentive rater prefers).
    unit : str
        The column whose value fails as a whole (the participant, or a work unit).

    Returns
    -------
    Series
        A one-sentence reason per judgement row of a failed unit, naming the item(s), NA for a row kept.

    Notes
    -----
    A unit fails when it chose the distractor in any pairwise row: (system = d and value = +1) or (system_b = d and
    value = -1), the distractor being an output no attentive rater prefers (a paraphrase of another sentence, say);
    all of the unit's rows go, since its other answers are no more attentive than the failed one.

    References
    ----------
    Oppenheimer, Meyvis & Davidenko (2009), "Instructional manipulation checks: Detecting satisficing to increase
    statistical power", *Journal of Experimental Social Psychology* 45(4): 867-872; the distractors of Hosking, Tang
    & Lapata (2022), *ACL 2022*, as reproduced by Watson & Gkatzia (2024) and by arvan-2024.

    Examples
    --------
    >>> judgements = pd.DataFrame({"participant": ["p1", "p1", "p2"], "item": ["i1", "i2", "i1"],
    ...                            "system": ["ours", "ours", "ours"], "system_b": ["dis", "base", "dis"],
    ...                            "value": [-1, 1, 1]})
    >>> attention_check(judgements, pd.DataFrame(), distractor="dis").tolist()
    ['failed the attention check: chose the distractor in item(s) i1', 'failed the attention check: chose the distractor in item(s) i1', <NA>]
    """
    chose = ((judgements["system"] == distractor) & (judgements["value"] == 1)) | (
        (judgements["system_b"] == distractor) & (judgements["value"] == -1)
    )
    failed_items = judgements.loc[chose].groupby(unit)["item"].agg(lambda s: ", ".join(sorted(set(s))))
    items = judgements[unit].map(failed_items)
    reasons = pd.Series(pd.NA, index=judgements.index, dtype="object")
    failed = items.notna()
    reasons[failed] = "failed the attention check: chose the distractor in item(s) " + items[failed].astype(str)
    return reasons


@register("exclusion", "drop_systems")
def drop_systems(
    judgements: pd.DataFrame, participants: pd.DataFrame, *, systems: list[str], reason: str = "check item, not scored"
) -> pd.Series:
    """Drop every judgement whose ``system`` or ``system_b`` is one of ``systems`` (check items, not scored).

    Parameters
    ----------
    systems : list of str
        The system codes dropped.
    reason : str
        The reason logged (the pair is added).

    Returns
    -------
    Series
        A one-sentence reason per judgement row showing one of the systems, NA for a row kept.

    Notes
    -----
    A row is dropped when system or system_b is in the set S of ``systems``: check items (a distractor, the input
    copied as an output) measure the raters, not a system, and a study scores the systems without them.

    References
    ----------
    Hosking, Tang & Lapata (2022), "Hierarchical Sketch Induction for Paraphrase Generation", *ACL 2022* (its
    distractor and input checks, dropped before scoring), as hosking-2022 and arvan-2024 apply them.

    Examples
    --------
    >>> judgements = pd.DataFrame({"system": ["ours", "ours"], "system_b": ["dis", "base"]})
    >>> drop_systems(judgements, pd.DataFrame(), systems=["dis"]).tolist()
    ['check item, not scored (ours vs dis)', nan]
    """
    codes = set(systems)
    hit = judgements["system"].isin(codes) | judgements["system_b"].isin(codes)
    pair = judgements["system"].astype(str) + " vs " + judgements["system_b"].astype(str)
    return (f"{reason} (" + pair + ")").where(hit)


@register("exclusion", "drop_where")
def drop_where(
    judgements: pd.DataFrame, participants: pd.DataFrame, *, column: str, values: list, reason: str
) -> pd.Series:
    """Drop every judgement whose ``column`` (of the judgements, else of the participants) holds one of ``values``.

    Parameters
    ----------
    column : str
        The column tested, compared as text.
    values : list
        The values dropped.

    Returns
    -------
    Series
        A one-sentence reason per judgement row whose column holds one of the values, NA for a row kept.

    Notes
    -----
    A row is dropped when str(column) is in {str(v) for v in ``values``}, compared as the export's text (a YAML
    number 1 matches the cell "1"); a participant-level column (a failed qualification, a group) is looked up by
    the row's participant. The reason and the value are logged, as a datasheet asks of every exclusion.

    References
    ----------
    Shimorina & Belz (2022), "The Human Evaluation Datasheet: A Template for Recording Details of Human Evaluation
    Experiments in NLP", *HumEval 2022* (which asks what was excluded and why).

    Examples
    --------
    >>> judgements = pd.DataFrame({"participant": ["p1", "p2"], "item": ["gold1", "i1"]})
    >>> drop_where(judgements, pd.DataFrame({"participant": []}), column="item", values=["gold1"],
    ...            reason="gold item").tolist()
    ['gold item (item = gold1)', nan]
    """
    if column in judgements.columns:
        series = judgements[column]
    elif column in participants.columns:
        series = judgements["participant"].map(participants.set_index("participant")[column])
    else:
        raise HumevalError(
            f"exclusion rule drop_where: column {column!r} is in neither the tidy judgements nor the participants table"
        )
    as_text = series.astype(str)
    hit = as_text.isin([str(v) for v in values])
    return (reason + f" ({column} = " + as_text + ")").where(hit)


@register("exclusion", "invalid_permutation")
def invalid_permutation(judgements: pd.DataFrame, participants: pd.DataFrame, *, k: int | None = None) -> pd.Series:
    """Drop a ranking that is not a permutation: each of its k systems at exactly one of the ranks 1..k. Rank rows
    are slots (the system placed at rank ``value``); a ranking fails when a system fills two slots, a slot is
    empty, or (with ``k``) it ranks other than ``k`` systems.

    Parameters
    ----------
    k : int, optional
        The systems every ranking must rank (default: its own number of rows).

    Returns
    -------
    Series
        A one-sentence reason per judgement row of a failing ranking, listing its rank=system slots, NA for a row kept.

    Notes
    -----
    A ranking of k slots is valid when it is a bijection from its systems onto {1, ..., k}: k distinct systems, k
    distinct ranks, the smallest 1 and the largest k (with ``k`` given, exactly k slots). Any other ranking (a system
    placed twice, a rank left out) has no rank per system, so average ranks and rank counts cannot use it.

    References
    ----------
    Shardlow & Nawaz (2019), *ACL 2019*, as reproduced by Mondella, Lai & Nissim (2024), *HumEval @ LREC-COLING
    2024*: 20 of the 1,000 non-gold rankings are not permutations, and Table 3 counts the other 980.

    Examples
    --------
    Ranking j1 places SYS1 twice; j2 is a permutation:

    >>> judgements = pd.DataFrame({"judgement_id": ["j1", "j1", "j2", "j2"], "response_type": "rank",
    ...                            "system": ["SYS1", "SYS1", "SYS1", "SYS2"], "value": [1, 2, 2, 1]})
    >>> invalid_permutation(judgements, pd.DataFrame()).tolist()[:3]
    ['not a permutation of 1..2 (rank=system: 1=SYS1, 2=SYS1)', 'not a permutation of 1..2 (rank=system: 1=SYS1, 2=SYS1)', nan]
    """
    ranks = judgements[judgements["response_type"] == "rank"]
    by_judgement = ranks.groupby("judgement_id")
    size = by_judgement["value"].transform("size")
    expected = size if k is None else pd.Series(k, index=ranks.index)
    ok = (
        (size == expected)
        & (by_judgement["system"].transform("nunique") == size)
        & (by_judgement["value"].transform("nunique") == size)
        & (by_judgement["value"].transform("min") == 1)
        & (by_judgement["value"].transform("max") == size)
    )
    bad = ranks[~ok]  # the listing is built for the failing rankings only, grouped once (no per-group Python)
    placed = bad["value"].astype(int).astype(str) + "=" + bad["system"].astype(str)
    listed = bad["judgement_id"].map(placed.groupby(bad["judgement_id"], sort=False).agg(", ".join))
    reasons = "not a permutation of 1.." + expected[~ok].astype(str) + " (rank=system: " + listed + ")"
    return reasons.reindex(judgements.index)


@register("exclusion", "drop_uncovered")
def drop_uncovered(
    judgements: pd.DataFrame, participants: pd.DataFrame, *, reference: str, keys: dict[str, str]
) -> pd.Series:
    """Drop judgements of other sides whose item the ``reference`` side never judged in that category. Without any
    judgement of the reference side (an optional input absent) nothing is dropped.

    Parameters
    ----------
    reference : str
        The side whose items the others are restricted to.
    keys : dict of str to str
        Category -> the column identifying its item (``{likert: item, pairwise: pair}``).

    Returns
    -------
    Series
        A one-sentence reason per judgement row whose item the reference side did not judge, NA for a row kept.

    Notes
    -----
    With R the reference side and, per category c, I_c the items (``keys[c]`` column) R judged in c, a row of
    another side in category c is dropped when its item is not in I_c: every group is compared on the items all
    of them judged.

    References
    ----------
    Finch, Finch & Choi (2024), "Exploring the Impact of Human Evaluator Group on Chat-Oriented Dialogue
    Evaluation", *LREC-COLING 2024* (its analysis keeps only the dialogues and pairs the Surx group judged).

    Examples
    --------
    >>> judgements = pd.DataFrame({"side": ["Surx", "Stux", "Stux"], "category": "likert",
    ...                            "item": ["d1", "d1", "d2"]})
    >>> drop_uncovered(judgements, pd.DataFrame(), reference="Surx", keys={"likert": "item"}).tolist()
    [<NA>, <NA>, 'likert item not judged by Surx (the authors keep only items Surx judged)']
    """
    reasons = pd.Series(pd.NA, index=judgements.index, dtype="object")
    ours = judgements["side"] == reference
    if not ours.any():
        return reasons
    for category, column in keys.items():
        in_category = judgements["category"] == category
        covered = set(judgements.loc[ours & in_category, column])
        hit = in_category & ~ours & ~judgements[column].isin(covered)
        reasons[hit] = f"{category} {column} not judged by {reference} (the authors keep only items {reference} judged)"
    return reasons


@register("exclusion", "drop_groups_containing")
def drop_groups_containing(
    judgements: pd.DataFrame, participants: pd.DataFrame, *, group: str, column: str, pattern: str, reason: str
) -> pd.Series:
    """Drop every row of each ``group`` (a story section, say) in which some row's ``column`` contains ``pattern``
    (a case-insensitive substring: an unfilled template token ``val`` in a question).

    Parameters
    ----------
    group : str
        The column whose values make a group, dropped as a whole.
    column : str
        The column searched.
    pattern : str
        The text searched for (no regular expression).

    Returns
    -------
    Series
        A one-sentence reason per judgement row of a group that holds the pattern, NA for a row kept.

    Notes
    -----
    With G the groups some row of which holds ``pattern`` in ``column`` (case-insensitive, a plain substring), every
    row whose ``group`` is in G is dropped: a flawed question makes its whole section unreliable, not only itself.

    References
    ----------
    Yao et al. (2022), "It is AI's Turn to Ask Humans a Question: Question-Answer Pair Generation for Children's
    Story Books", *ACL 2022* (the authors' sensitivity analysis without the sections whose questions hold the
    unfilled placeholder ``val``).

    Examples
    --------
    >>> judgements = pd.DataFrame({"section": ["s1", "s1", "s2"], "question": ["Who is VAL?", "Why?", "Where?"]})
    >>> drop_groups_containing(judgements, pd.DataFrame(), group="section", column="question", pattern="val",
    ...                        reason="placeholder").tolist()
    ['placeholder (section s1)', 'placeholder (section s1)', <NA>]
    """
    for name in (group, column):
        if name not in judgements.columns:
            raise HumevalError(f"exclusion drop_groups_containing: no column {name!r} in the tidy judgements")
    hit = judgements[column].astype(str).str.contains(pattern, case=False, regex=False)
    flagged = judgements[group].isin(set(judgements.loc[hit, group]))
    return pd.Series(pd.NA, index=judgements.index, dtype=object).mask(
        flagged, reason + " (" + group + " " + judgements[group].astype(str) + ")"
    )


VARIANT_COLUMNS = ["variant", *EXCLUSION_COLUMNS]


def check_sides(entries: list[dict], judgements: pd.DataFrame) -> None:
    """An exclusion's ``sides`` name sides the judgements have: a side that matches none would apply the exclusion
    to nothing, silently (a renamed extract side, a typo); one line naming the exclusion and the sides there are.

    >>> check_sides([{"exclusion": "gold", "sides": ["R2"]}], pd.DataFrame({"side": ["O", "R1"]}))
    Traceback (most recent call last):
    ...
    humeval.errors.HumevalError: exclusion gold: sides ['R2'] match no judgement; the judgements' sides are ['O', 'R1']
    """
    present = set(judgements["side"].astype(str).unique())
    for entry in entries:
        absent = [side for side in entry.get("sides") or [] if str(side) not in present]
        if absent:
            raise HumevalError(
                f"exclusion {entry.get('name', entry['exclusion'])}: sides {absent} match no judgement; the "
                f"judgements' sides are {sorted(present)}"
            )


def apply_exclusions(
    judgements: pd.DataFrame, participants: pd.DataFrame, entries: list[dict]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Apply the exclusion ``entries`` (config ``{exclusion, name?, sides?, params?}``) in order, after
    ``missing_value`` (unless an entry names it, which places it there).

    Returns ``(kept, log)``; ``log`` has :data:`EXCLUSION_COLUMNS`, one row per dropped judgement.
    An exclusion drops whole judgements: if it flags one row of a ranking, the ranking goes.
    """
    kept = judgements
    logs = []
    check_sides(entries, judgements)
    if not any(entry["exclusion"] == "missing_value" for entry in entries):
        entries = [{"exclusion": "missing_value"}, *entries]
    for entry in entries:
        name = entry["exclusion"]
        label = entry.get("name", name)
        scope = kept if not entry.get("sides") else kept[kept["side"].isin(entry["sides"])]
        reasons = function("exclusion", name)(scope, participants, **entry.get("params", {})).dropna()
        if reasons.empty:
            continue
        dropped_ids = scope.loc[reasons.index, "judgement_id"].unique()  # an array: isin hashes it, no Python set
        dropping = kept["judgement_id"].isin(dropped_ids)
        dropped = kept[dropping]
        first = dropped.drop_duplicates("judgement_id")
        reason_by_id = pd.Series(reasons.to_numpy(), index=scope.loc[reasons.index, "judgement_id"])
        reason_by_id = reason_by_id[~reason_by_id.index.duplicated()]
        logs.append(first.assign(rule=label, reason=first["judgement_id"].map(reason_by_id))[EXCLUSION_COLUMNS])
        kept = kept[~dropping]
    log = pd.concat(logs, ignore_index=True) if logs else pd.DataFrame(columns=EXCLUSION_COLUMNS)
    return kept.reset_index(drop=True), log


def variant_exclusions(
    kept: pd.DataFrame, participants: pd.DataFrame, entries: list[dict], tidy: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Exclusion variants (sensitivity analyses): each entry with ``variant: <name>`` is applied to the kept
    judgements, not in place of them; the log (``exclusions_variants.csv``) says per variant which
    judgements it drops and why, and a metric with ``variant: <name>`` reads the kept judgements less those.
    ``complete_respondents`` looks at the ``tidy`` judgements (the unanswered questions ``missing_value`` took out
    of the kept ones) and drops the kept judgements of each incomplete respondent."""
    logs = []
    check_sides(entries, kept if tidy is None else tidy)
    for entry in entries:
        plain = {k: v for k, v in entry.items() if k != "variant"}
        if entry["exclusion"] == "complete_respondents" and tidy is not None:
            scope = tidy if not entry.get("sides") else tidy[tidy["side"].isin(entry["sides"])]
            reasons = complete_respondents(scope, participants, **entry.get("params", {})).dropna()
            unit = entry.get("params", {}).get("unit", "participant")
            flagged = pd.Series(reasons.to_numpy(), index=scope.loc[reasons.index, unit].to_numpy())
            flagged = flagged[~flagged.index.duplicated()]
            dropped = kept[kept[unit].isin(flagged.index)].drop_duplicates("judgement_id")
            log = dropped.assign(rule=entry.get("name", "complete_respondents"), reason=dropped[unit].map(flagged))
            log = log[EXCLUSION_COLUMNS]
        else:
            _, log = apply_exclusions(kept, participants, [plain])
        logs.append(log.assign(variant=entry["variant"]))
    return pd.concat(logs, ignore_index=True)[VARIANT_COLUMNS] if logs else pd.DataFrame(columns=VARIANT_COLUMNS)


def exclude_study(study: dict, tidy: pd.DataFrame, participants: pd.DataFrame):
    """Apply the study's exclusions; (kept judgements, exclusion log, exclusion-variant log). Entries with a
    ``variant`` are sensitivity analyses: logged apart and applied only by metrics that name the variant."""
    entries = study.get("exclusions", [])
    kept, excluded = apply_exclusions(tidy, participants, [e for e in entries if "variant" not in e])
    for rule, count in excluded["rule"].value_counts(sort=False).items():
        log.info("exclusion %s: %d judgements", rule, count)
    log.info("kept %d of %d judgement rows", len(kept), len(tidy))
    variants = variant_exclusions(kept, participants, [e for e in entries if "variant" in e], tidy)
    for (variant, rule), count in variants.groupby(["variant", "rule"]).size().items():
        log.info("variant %s, exclusion %s: %d judgements", variant, rule, count)
    return kept, excluded, variants
