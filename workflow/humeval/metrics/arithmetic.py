"""Safe arithmetic on computed cells: a cell shifted, scaled, or the sum, difference or ratio of two cells that the
study's earlier metric entries computed (a mean on a shifted scale as a CV* input, a ratio of two counts). The
operations are a closed set applied with :mod:`operator`; no expression is parsed or evaluated."""

from __future__ import annotations

import operator
from typing import Literal

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import StudyData, value_frame

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

    Notes
    -----
    Each cell is :math:`v = l \\circ r` with :math:`\\circ \\in \\{+, -, \\times, /\\}`, in IEEE 754 double
    precision, as Python's :mod:`operator` and numpy compute it; :math:`l / 0` is NaN (an empty cell, which the audit
    reports as not recomputed), not :math:`\\pm\\infty`. Its use is to put a score on the scale a published table
    used before a further statistic: CV* needs a ratio scale with a true zero, so a score on a scale that can be
    negative is shifted first (Belz, Popovic & Mille 2022; the ``shift`` of ``cv_star`` and ``item_cv_star``);
    arvan-2024's best-worst scores (-100..100) are shifted by +100 as the reproduction's ``cv_2_way.csv`` printed them
    (``reproduced_shifted``, checked by the audit against its printed cells).

    References
    ----------
    Belz, Popovic & Mille (2022), "Quantified Reproducibility Assessment of NLP Results", *ACL 2022*: 16-28;
    IEEE 754-2019, *Standard for Floating-Point Arithmetic* (the four operations, correctly rounded).

    Examples
    --------
    A best-worst score of -42.0 shifted to the 0..200 scale (+100), and a ratio of two counts; a division by zero is
    an empty cell:

    >>> computed = pd.DataFrame({"table": "t", "row": "r", "column": ["bws", "n"], "value": [-42.0, 4.0]})
    >>> data = StudyData(kept=None, tidy=None, participants=None, exclusions=None, computed_frames=[computed])
    >>> bws, n = ({"table": "t", "row": "r", "column": c} for c in ("bws", "n"))
    >>> cell_arithmetic(data, table="t", cells=[
    ...     {"row": "r", "column": "shifted", "left": bws, "op": "+", "right": 100},
    ...     {"row": "r", "column": "per_item", "left": bws, "op": "/", "right": n},
    ...     {"row": "r", "column": "by_zero", "left": n, "op": "/", "right": 0},
    ... ])
      table row    column  value
    0     t   r   shifted   58.0
    1     t   r  per_item  -10.5
    2     t   r   by_zero    NaN

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
