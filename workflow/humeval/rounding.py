"""Rounding as papers print numbers (half away from zero), not as Python's ``round`` (half to even)."""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

__all__ = ["PRINTED_NUMBER", "printed_bound", "r_signif3_half_up", "round_half_up", "truncate"]

#: A number as a paper prints it: an optional bound (``< 2e-16``, ``> 0.99``, ``<=``, ``>=``), the number (sign,
#: decimals, exponent) and a trailing marker (``0.95*``); groups ``bound``, ``number`` and ``marker``. Read by the
#: published numbers (:func:`humeval.published.parse_published`) and by config validation.
PRINTED_NUMBER = re.compile(
    r"^\s*(?P<bound><=|>=|<|>)?\s*(?P<number>[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(?P<marker>\S*)\s*$"
)


def round_half_up(value: float, decimals: int) -> float:
    """Round half away from zero at ``decimals`` (what a paper's printed numbers use), via Decimal.

    >>> round_half_up(2.675, 2), round_half_up(-0.125, 2)
    (2.68, -0.13)
    """
    quantum = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(float(value))).quantize(quantum, rounding=ROUND_HALF_UP))


def r_signif3_half_up(value: float, precision: int) -> float:
    """The authors' rounding of an R print-out: 3 significant digits, then half up to ``precision`` decimals.

    >>> r_signif3_half_up(0.8849, 2), round(0.8849, 2)
    (0.89, 0.88)
    """
    return round_half_up(float(f"{value:.3g}"), precision)


def truncate(value: float, decimals: int) -> float:
    """Cut (towards zero) at ``decimals``, as a paper that truncates instead of rounding prints.

    >>> truncate(0.1379, 2), truncate(-0.486, 2)
    (0.13, -0.48)
    """
    quantum = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(float(value))).quantize(quantum, rounding=ROUND_DOWN))


def printed_bound(text) -> str:
    """The bound a printed number states (``<``, ``>``, ``<=``, ``>=``), or ``""`` for a number.

    >>> printed_bound("< 2e-16"), printed_bound(">=0.99"), printed_bound("0.5")
    ('<', '>=', '')
    """
    match = PRINTED_NUMBER.match(str(text))
    return (match["bound"] or "") if match else ""
