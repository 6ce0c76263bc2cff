"""QRA Type IV: findings (claims) evaluated on the original and on the reproduction."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.qra.inputs import cell_value

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


def claims_entry(values: pd.DataFrame, published: pd.DataFrame, entry: dict) -> tuple[list[tuple], list[tuple]]:
    """QRA Type IV: each claim is a list of comparisons ``{left, op, right}`` that must all hold; it is
    evaluated on the original and on the reproduction side (``labels`` maps each side to the text that
    replaces ``{side}`` in operand labels, e.g. ``O`` and ``R``), reading recomputed values where there
    are any and published ones otherwise.

    Rows ``<claim>``: columns ``original``, ``reproduction`` (1 holds, 0 not) and ``replicated`` (1 when it
    holds on both sides); rows ``<claim>.<k>``: the operands of comparison k on both sides.
    """
    out = []
    labels = {"original": "original", "reproduction": "reproduction", **entry.get("labels", {})}
    for claim in entry["claims"]:
        verdicts = {}
        for side in ("original", "reproduction"):
            holds = True
            for k, comparison in enumerate(claim["comparisons"], 1):
                left = _operand(values, published, comparison["left"], labels[side])
                right = _operand(values, published, comparison["right"], labels[side])
                holds &= bool(_OPERATORS[comparison["op"]](left, right))
                out += [
                    (entry["table"], f"{claim['id']}.{k}", f"{side}_left", left),
                    (entry["table"], f"{claim['id']}.{k}", f"{side}_right", right),
                ]
            verdicts[side] = holds
        out += [
            (entry["table"], claim["id"], "original", float(verdicts["original"])),
            (entry["table"], claim["id"], "reproduction", float(verdicts["reproduction"])),
            (entry["table"], claim["id"], "replicated", float(verdicts["original"] and verdicts["reproduction"])),
        ]
    return out, []
