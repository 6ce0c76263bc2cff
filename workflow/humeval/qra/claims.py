"""QRA Type IV: findings (claims) evaluated on the original and on the reproduction, or on any number of
experiments (``sides``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.qra.inputs import cell_value

__all__ = [
    "OPERATORS",
    "certainly",
    "claim_holds",
    "claims_entry",
    "compared",
    "expects_no_difference",
    "interval",
    "replicated",
    "significance_holds",
]

#: A comparison's operator by its config spelling: numpy's, so that it compares numbers and arrays of draws alike.
OPERATORS = {">": np.greater, ">=": np.greater_equal, "<": np.less, "<=": np.less_equal}


def _operand(values: pd.DataFrame, published: pd.DataFrame, operand, side: str) -> float:
    """A claim operand: a number, or ``{table, row, column}`` where ``{side}`` in a label is replaced by the
    side's label; the recomputed value is used where there is one, else the published one."""
    if isinstance(operand, (int, float)):
        return float(operand)
    cell = {k: str(v).format(side=side) for k, v in operand.items()}
    value, source = cell_value(values, published, cell["table"], cell["row"], cell["column"])
    if source != "missing":
        return value
    raise HumevalError(f"claim operand {cell} has no {side} value")


def _bound(values: pd.DataFrame, published: pd.DataFrame, operand, side: str) -> str:
    """The bound a claim operand was printed as (``<`` for "< 0.05"), where it is read from a published number
    (no recomputed value); "" for an exact number."""
    from humeval.rounding import printed_bound

    if isinstance(operand, (int, float)):
        return ""
    cell = {k: str(v).format(side=side) for k, v in operand.items()}
    _, source = cell_value(values, published, cell["table"], cell["row"], cell["column"])
    if source != "published" or "published_text" not in published:
        return ""
    hit = published[
        (published["table"] == cell["table"])
        & (published["row"] == cell["row"])
        & (published["column"] == cell["column"])
    ]
    return printed_bound(hit["published_text"].iloc[0]) if not hit.empty else ""


def interval(value: float, bound: str = "") -> tuple[float, bool, float, bool]:
    """The values a printed number admits, ``(low, low open, high, high open)``: ``< 0.05`` is (-inf, 0.05), an
    exact number [x, x]."""
    if bound in ("<", "<="):
        return -np.inf, True, value, bound == "<"
    if bound in (">", ">="):
        return value, bound == ">", np.inf, True
    return value, False, value, False


def certainly(op: str, left: tuple, right: tuple) -> bool:
    """Whether ``left op right`` holds for every value of the two intervals (:func:`interval`): a printed bound
    decides a comparison only where every number it admits does; NaN decides none.

    >>> certainly("<", interval(0.05, "<"), interval(0.05)), certainly("<", interval(0.05, "<="), interval(0.05))
    (True, False)
    >>> certainly(">=", interval(0.2, ">"), interval(0.1)), certainly(">", interval(0.1, "<"), interval(0.2, ">"))
    (True, False)
    >>> certainly(">", interval(0.1, ">"), interval(0.1)), certainly(">", interval(0.1, ">="), interval(0.1))
    (True, False)
    >>> certainly(">", interval(0.1), interval(0.1, "<=")), certainly(">=", interval(0.1, ">="), interval(0.1))
    (False, True)
    >>> certainly(">", interval(np.inf), interval(0.2, ">")), certainly("<", interval(-np.inf), interval(0.2, "<"))
    (True, True)
    """
    if op in ("<", "<="):
        op, left, right = {"<": ">", "<=": ">="}[op], right, left
    low, low_open, high, high_open = left[0], left[1], right[2], right[3]
    if op == ">=":
        return bool(low >= high)
    return bool(low > high or (low == high and (low_open or high_open)))


def compared(op: str, left, right, left_bound: str = "", right_bound: str = ""):
    """``left op right`` (numbers or arrays of draws, numpy's operator), or, where either was printed as a bound,
    whether it holds for every number the bound admits (:func:`certainly`)."""
    if left_bound or right_bound:
        return certainly(op, interval(left, left_bound), interval(right, right_bound))
    return OPERATORS[op](left, right)


def claim_holds(claim: dict, operand, bound=None) -> tuple[bool, dict]:
    """Whether ``claim`` holds where ``operand(spec)`` gives an operand's number: every comparison holds, and the
    test's p-value is below its alpha where the claim has one (``significance: {p, alpha?}``, alpha 0.05 by
    default; or, with ``expect: not_significant``, at or above it: :func:`significance_holds`); a NaN operand makes
    a comparison fail. ``bound(spec)`` gives the bound an operand was printed as ("<" for "< 0.05"; default none),
    which decides a comparison only where every number it admits does (:func:`compared`). Also the operands read: ``{comparisons: [(left, right)],
    p?}``. Shared by Type IV and the planning of reproductions (:mod:`humeval.planning.plan`).

    >>> claim = {"comparisons": [{"left": 2, "op": ">", "right": 1}], "significance": {"p": 0.04, "alpha": 0.01}}
    >>> claim_holds(claim, float)
    (False, {'comparisons': [(2.0, 1.0)], 'p': 0.04})
    """
    bound = bound or (lambda spec: "")
    holds, read = True, {"comparisons": []}
    for comparison in claim["comparisons"]:
        left, right = operand(comparison["left"]), operand(comparison["right"])
        signs = bound(comparison["left"]), bound(comparison["right"])
        holds &= bool(compared(comparison["op"], left, right, *signs))
        read["comparisons"].append((left, right))
    if claim.get("significance"):
        read["p"] = operand(claim["significance"]["p"])
        holds &= bool(significance_holds(claim["significance"], read["p"], bound(claim["significance"]["p"])))
    return holds, read


def significance_holds(significance: dict, p, bound: str = ""):
    """Whether a claim's test says what the paper found, for one p or an array of them: p < alpha (``expect:
    significant``, the default) or p >= alpha (``expect: not_significant``, a paper's "no significant
    difference"); alpha 0.05 unless stated. A NaN p says neither. A p printed as a bound (``bound``: "< 0.05") is
    significant where every p it admits is (:func:`certainly`). The one place a claim's test is read (Type IV,
    the findings of every experiment and the planning bootstrap).

    >>> bool(significance_holds({"p": None}, 0.03)), bool(significance_holds({"expect": "not_significant"}, 0.03))
    (True, False)
    >>> significance_holds({}, 0.05, "<"), significance_holds({}, 0.1, "<"), significance_holds({}, 0.05, "<=")
    (True, False, False)
    >>> significance_holds({"p": None, "alpha": 0.01, "expect": "not_significant"}, np.array([0.01, 0.005, np.nan]))
    array([ True, False, False])
    """
    alpha = significance.get("alpha", 0.05)
    op = ">=" if significance.get("expect", "significant") == "not_significant" else "<"
    return compared(op, p, alpha, bound)


def expects_no_difference(finding: dict) -> bool:
    """Whether a finding is a paper's "no significant difference" (``significance.expect: not_significant``)."""
    return (finding.get("significance") or {}).get("expect") == "not_significant"


@register("qra", "claims")
def claims_entry(
    values: pd.DataFrame,
    published: pd.DataFrame,
    *,
    table: str,
    claims: list[dict],
    labels: dict[str, str] | None = None,
    sides: dict[str, str] | None = None,
) -> tuple[list[tuple], list[tuple]]:
    """QRA Type IV: each claim is a list of comparisons ``{left, op, right}`` that must all hold, and, where the
    paper tested it, a test whose p-value must be below its alpha (``significance``); it is evaluated on the
    original and on the reproduction side, reading recomputed values where there are any and published ones
    otherwise.

    Parameters
    ----------
    claims : list of dict
        ``[{id, text, comparisons: [{left, op, right}], significance?: {p, alpha?}}]``: ``op`` one of ``>``, ``>=``,
        ``<``, ``<=``; an operand is a number or ``{table, row, column}`` with ``{side}`` placeholders;
        ``significance.p`` is the cell of the paper's test's p-value (same form), ``alpha`` the paper's level
        (default 0.05): the claim holds only where p < alpha, or, with ``expect: not_significant`` (a paper's "no
        significant difference"), only where p >= alpha.
    labels : dict of str to str, optional
        The text that replaces ``{side}`` in operand labels, per side (``{original: O, reproduction: R}``;
        default: ``original``, ``reproduction``).
    sides : dict of str to str, optional
        ``{experiment id: text that replaces {side}}``: judge each claim in every experiment named, any number of
        them (``{O: O, R1: R1, R2: R2}``), instead of on original and reproduction. An experiment whose operand
        cells have no value (recomputed or published) does not measure the claim: it gets no cells.

    Returns
    -------
    cells, summary : list of tuple
        Cells: rows ``<claim>`` with columns ``original``, ``reproduction`` (1 holds, 0 not) and
        ``replicated`` (1 when it holds on both sides); rows ``<claim>.<k>`` with the operands of comparison k
        on both sides; rows ``<claim>.p`` with each side's p-value (column ``<side>_p``) where the claim has a test.
        With ``sides``, the columns are the experiment ids instead (``O``, ``R1``, ``O_left``, ``R1_p``, ...), and
        no ``replicated``. No summary rows.

    Notes
    -----
    QRA Type IV asks whether the reproduction supports the same findings (Belz et al.'s "proportion of
    findings"): here a finding holds in an experiment when every comparison holds on its cells and, where the
    paper tested it, p < alpha (p >= alpha for ``expect: not_significant``); ``replicated`` = holds in the original
    and in the reproduction (:func:`replicated`). A printed bound ("< 0.05") is read as the interval it states
    (:func:`certainly`): a comparison holds only if it holds for every number in it. The claims summary, the
    findings and planning read a claim through the same :func:`claim_holds`; ``tests/test_claims.py`` kills the
    one-line mutants of this module (42 of 42, docs/testing.md).

    References
    ----------
    Belz, Popovic & Mille (2022), "Quantified Reproducibility Assessment of NLP Results", *ACL 2022*: 16-28
    (Type IV); Belz (2022), *Computational Linguistics* 48(4): 1125-1135.

    Examples
    --------
    "A is rated above B (p < 0.05)": the original 4.2 > 3.1 at p 0.01 holds; the reproduction 3.9 > 3.8 at p 0.2
    does not, so the claim is not replicated.

    >>> v = pd.DataFrame({"table": "t", "row": ["A", "B", "p"] * 2, "column": ["original"] * 3 + ["reproduction"] * 3,
    ...                   "value": [4.2, 3.1, 0.01, 3.9, 3.8, 0.2]})
    >>> cell = {"table": "t", "row": "A", "column": "{side}"}
    >>> claim = {"id": "C1", "text": "A above B", "comparisons": [{"left": cell, "op": ">", "right": {**cell, "row": "B"}}],
    ...          "significance": {"p": {**cell, "row": "p"}}}
    >>> cells, _ = claims_entry(v, v.iloc[:0], table="q", claims=[claim])
    >>> {column: value for _, row, column, value in cells if row == "C1"}
    {'original': 1.0, 'reproduction': 0.0, 'replicated': 0.0}
    """
    if sides:
        return claims_in_experiments(values, published, table, claims, sides), []
    out = []
    labels = {"original": "original", "reproduction": "reproduction", **(labels or {})}
    for claim in claims:
        verdicts = {}
        for side in ("original", "reproduction"):
            holds, operands = claim_holds(
                claim,
                lambda operand, s=side: _operand(values, published, operand, labels[s]),
                lambda operand, s=side: _bound(values, published, operand, labels[s]),
            )
            out += operand_cells(table, claim["id"], side, operands)
            verdicts[side] = holds
        out += [
            (table, claim["id"], "original", float(verdicts["original"])),
            (table, claim["id"], "reproduction", float(verdicts["reproduction"])),
            (table, claim["id"], "replicated", float(replicated(verdicts["original"], verdicts["reproduction"]))),
        ]
    return out, []


def replicated(original: bool | None, reproduction: bool) -> bool:
    """Whether a claim replicated: it holds in the reproduction, and in the original where the original was
    measured (``None``: an original known only from its design states the finding, as the front page counts it).
    The one place this is said: Type IV's ``replicated`` cell and ``summary/claims.csv``.

    >>> replicated(True, True), replicated(True, False), replicated(False, True), replicated(None, True)
    (True, False, False, True)
    """
    return (original is None or bool(original)) and bool(reproduction)


def operand_cells(table: str, claim: str, column: str, operands: dict) -> list[tuple]:
    """The numbers a claim rests on, as cells: comparison k's two sides in row ``<claim>.<k>``, columns
    ``<column>_left`` and ``<column>_right``, and the test's p in row ``<claim>.p``, column ``<column>_p``."""
    cells = []
    for k, (left, right) in enumerate(operands["comparisons"], 1):
        cells += [(table, f"{claim}.{k}", f"{column}_left", left), (table, f"{claim}.{k}", f"{column}_right", right)]
    if "p" in operands:
        cells.append((table, f"{claim}.p", f"{column}_p", operands["p"]))
    return cells


def claims_in_experiments(
    values: pd.DataFrame, published: pd.DataFrame, table: str, claims: list[dict], sides: dict[str, str]
) -> list[tuple]:
    """Each claim judged in every experiment of ``sides`` ({experiment id: {side} text}): column ``<id>`` 1 or 0,
    its operands in ``<id>_left``/``<id>_right`` of rows ``<claim>.<k>`` and its p in ``<id>_p`` of ``<claim>.p``;
    an experiment lacking an operand's value gets no cells (not measured)."""
    out = []
    for claim in claims:
        for experiment, label in sides.items():
            try:
                holds, operands = claim_holds(
                    claim,
                    lambda operand, s=label: _operand(values, published, operand, s),
                    lambda operand, s=label: _bound(values, published, operand, s),
                )
            except HumevalError:  # an operand without a value: this experiment does not measure the claim
                continue
            out += operand_cells(table, claim["id"], experiment, operands)
            out.append((table, claim["id"], experiment, float(holds)))
    return out
