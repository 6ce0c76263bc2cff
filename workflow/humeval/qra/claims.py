"""QRA Type IV: findings (claims) evaluated on the original and on the reproduction, or on any number of
experiments (``sides``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.qra.inputs import cell_value
from humeval.vocabulary import register

__all__ = ["OPERATORS", "claim_holds", "claims_entry", "expects_no_difference", "significance_holds"]

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


def claim_holds(claim: dict, operand) -> tuple[bool, dict]:
    """Whether ``claim`` holds where ``operand(spec)`` gives an operand's number: every comparison holds, and the
    test's p-value is below its alpha where the claim has one (``significance: {p, alpha?}``, alpha 0.05 by
    default; or, with ``expect: not_significant``, at or above it: :func:`significance_holds`); a NaN operand makes
    a comparison fail. Also the operands read: ``{comparisons: [(left, right)],
    p?}``. Shared by Type IV and the planning of reproductions (:mod:`humeval.planning`).

    >>> claim = {"comparisons": [{"left": 2, "op": ">", "right": 1}], "significance": {"p": 0.04, "alpha": 0.01}}
    >>> claim_holds(claim, float)
    (False, {'comparisons': [(2.0, 1.0)], 'p': 0.04})
    """
    holds, read = True, {"comparisons": []}
    for comparison in claim["comparisons"]:
        left, right = operand(comparison["left"]), operand(comparison["right"])
        holds &= bool(OPERATORS[comparison["op"]](left, right))
        read["comparisons"].append((left, right))
    if claim.get("significance"):
        read["p"] = operand(claim["significance"]["p"])
        holds &= bool(significance_holds(claim["significance"], read["p"]))
    return holds, read


def significance_holds(significance: dict, p):
    """Whether a claim's test says what the paper found, for one p or an array of them: p < alpha (``expect:
    significant``, the default) or p >= alpha (``expect: not_significant``, a paper's "no significant
    difference"); alpha 0.05 unless stated. A NaN p says neither. The one place a claim's test is read (Type IV,
    the findings of every experiment and the planning bootstrap).

    >>> bool(significance_holds({"p": None}, 0.03)), bool(significance_holds({"expect": "not_significant"}, 0.03))
    (True, False)
    >>> significance_holds({"p": None, "alpha": 0.01, "expect": "not_significant"}, np.array([0.01, 0.005, np.nan]))
    array([ True, False, False])
    """
    alpha = significance.get("alpha", 0.05)
    if significance.get("expect", "significant") == "not_significant":
        return np.greater_equal(p, alpha)
    return np.less(p, alpha)


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
    """
    if sides:
        return claims_in_experiments(values, published, table, claims, sides), []
    out = []
    labels = {"original": "original", "reproduction": "reproduction", **(labels or {})}
    for claim in claims:
        verdicts = {}
        for side in ("original", "reproduction"):
            holds, operands = claim_holds(
                claim, lambda operand, s=side: _operand(values, published, operand, labels[s])
            )
            out += operand_cells(table, claim["id"], side, operands)
            verdicts[side] = holds
        out += [
            (table, claim["id"], "original", float(verdicts["original"])),
            (table, claim["id"], "reproduction", float(verdicts["reproduction"])),
            (table, claim["id"], "replicated", float(verdicts["original"] and verdicts["reproduction"])),
        ]
    return out, []


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
                holds, operands = claim_holds(claim, lambda operand, s=label: _operand(values, published, operand, s))
            except HumevalError:  # an operand without a value: this experiment does not measure the claim
                continue
            out += operand_cells(table, claim["id"], experiment, operands)
            out.append((table, claim["id"], experiment, float(holds)))
    return out
