"""Safe arithmetic on computed cells: a cell shifted, scaled, or the sum, difference or ratio of two cells that the
study's earlier metric entries computed (a mean on a shifted scale as a CV* input, a ratio of two counts). The
operations are a closed set applied with :mod:`operator`; no expression is parsed or evaluated."""

from __future__ import annotations

import operator
from typing import Literal

import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, value_frame
from humeval.vocabulary import register

__all__ = ["OPERATIONS", "cell_arithmetic"]

#: The operations a cell may apply.
Operation = Literal["+", "-", "*", "/"]
OPERATIONS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def operand_value(computed: dict, operand, where: str) -> float:
    """A number, or the value of the cell ``{table, row, column}`` among the ``computed`` ones (an error naming
    the cell where no earlier entry computed it)."""
    if isinstance(operand, (int, float)) and not isinstance(operand, bool):
        return float(operand)
    if not isinstance(operand, dict) or set(operand) != {"table", "row", "column"}:
        raise HumevalError(f"{where}: an operand is a number or {{table, row, column}}, not {operand!r}")
    key = (str(operand["table"]), str(operand["row"]), str(operand["column"]))
    if key not in computed:
        raise HumevalError(f"{where}: no earlier metric entry computed the cell {'/'.join(key)}")
    return computed[key]


@register("metric", "cell_arithmetic")
def cell_arithmetic(data: StudyData, *, table: str, cells: list[dict]) -> pd.DataFrame:
    """Cells computed from cells: each ``{row, column, left, op, right}`` writes ``left op right``, where an
    operand is a number or a cell ``{table, row, column}`` that an earlier ``metrics`` entry of the study computed.

    Parameters
    ----------
    cells : list of dict
        ``{row, column, left, op, right}``: ``op`` one of ``+``, ``-``, ``*``, ``/`` (a shift: ``{left: <cell>,
        op: '-', right: 1}``; a ratio: ``{left: <cell>, op: '/', right: <cell>}``). A division by zero gives an
        empty cell.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): one per entry of ``cells``.

    Examples
    --------
    >>> computed = pd.DataFrame({"table": "t", "row": "r", "column": ["a", "b"], "value": [3.0, 4.0]})
    >>> data = StudyData(kept=None, tidy=None, participants=None, exclusions=None, computed_frames=[computed])
    >>> cell = {"table": "t", "row": "r", "column": "a"}
    >>> cell_arithmetic(data, table="t", cells=[{"row": "r", "column": "a0", "left": cell, "op": "-", "right": 1}])
      table row column  value
    0     t   r     a0    2.0
    """
    computed = dict(
        zip(zip(data.computed["table"], data.computed["row"], data.computed["column"]), data.computed["value"])
    )
    out = []
    for k, spec in enumerate(cells):
        where = f"cells.{k}"
        if spec.get("op") not in OPERATIONS:
            raise HumevalError(f"{where}.op: {spec.get('op')!r} is not one of {list(OPERATIONS)}")
        left, right = (operand_value(computed, spec.get(side), f"{where}.{side}") for side in ("left", "right"))
        value = float("nan") if spec["op"] == "/" and right == 0 else OPERATIONS[spec["op"]](left, right)
        out.append((str(spec["row"]), str(spec["column"]), value))
    return value_frame(table, out)
