"""QRA Type IV: findings (claims) evaluated on the original and on the reproduction."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.qra.inputs import cell_value
from humeval.vocabulary import register

_OPERATORS = {">": np.greater, ">=": np.greater_equal, "<": np.less, "<=": np.less_equal}


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


@register("qra", "claims")
def claims_entry(
    values: pd.DataFrame,
    published: pd.DataFrame,
    *,
    table: str,
    claims: list[dict],
    labels: dict[str, str] | None = None,
) -> tuple[list[tuple], list[tuple]]:
    """QRA Type IV: each claim is a list of comparisons ``{left, op, right}`` that must all hold; it is
    evaluated on the original and on the reproduction side, reading recomputed values where there are any and
    published ones otherwise.

    Parameters
    ----------
    table : str
        The table the results go to.
    claims : list of dict
        ``[{id, text, comparisons: [{left, op, right}]}]``: ``op`` one of ``>``, ``>=``, ``<``, ``<=``; an operand
        is a number or ``{table, row, column}`` with ``{side}`` placeholders.
    labels : dict of str to str, optional
        The text that replaces ``{side}`` in operand labels, per side (``{original: O, reproduction: R}``;
        default: ``original``, ``reproduction``).

    Returns
    -------
    cells, summary : list of tuple
        Cells: rows ``<claim>`` with columns ``original``, ``reproduction`` (1 holds, 0 not) and
        ``replicated`` (1 when it holds on both sides); rows ``<claim>.<k>`` with the operands of comparison k
        on both sides. No summary rows.
    """
    out = []
    labels = {"original": "original", "reproduction": "reproduction", **(labels or {})}
    for claim in claims:
        verdicts = {}
        for side in ("original", "reproduction"):
            holds = True
            for k, comparison in enumerate(claim["comparisons"], 1):
                left = _operand(values, published, comparison["left"], labels[side])
                right = _operand(values, published, comparison["right"], labels[side])
                holds &= bool(_OPERATORS[comparison["op"]](left, right))
                out += [
                    (table, f"{claim['id']}.{k}", f"{side}_left", left),
                    (table, f"{claim['id']}.{k}", f"{side}_right", right),
                ]
            verdicts[side] = holds
        out += [
            (table, claim["id"], "original", float(verdicts["original"])),
            (table, claim["id"], "reproduction", float(verdicts["reproduction"])),
            (table, claim["id"], "replicated", float(verdicts["original"] and verdicts["reproduction"])),
        ]
    return out, []
