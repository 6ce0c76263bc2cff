"""Rounding as papers print numbers (half away from zero), not as Python's ``round`` (half to even)."""

from __future__ import annotations

import math
import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation, localcontext

from humeval.errors import HumevalError

__all__ = [
    "PRINTED_NUMBER",
    "parse_published",
    "printed_bound",
    "quantized",
    "r_signif3_half_up",
    "round_half_up",
    "truncate",
]

#: A number as a paper prints it: an optional bound (``< 2e-16``, ``> 0.99``, ``<=``, ``>=``), the number (sign,
#: decimals, exponent) and a trailing marker (``0.95*``); groups ``bound``, ``number`` and ``marker``. Read by the
#: published numbers (:func:`parse_published`) and by config validation.
PRINTED_NUMBER = re.compile(
    r"^\s*(?P<bound><=|>=|<|>)?\s*(?P<number>[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(?P<marker>\S*)\s*$"
)


def quantized(value: float, decimals: int, rounding: str) -> Decimal:
    """``value`` (finite) as the decimal it prints as, rounded at ``decimals`` by ``rounding`` (a :mod:`decimal`
    mode), with as many digits as that takes: Decimal's default 28 would refuse 2.75 at 32 decimals or 1e300 at 3
    (``InvalidOperation``).

    >>> str(quantized(2.75, 32, ROUND_HALF_UP)), str(quantized(1e300, 3, ROUND_HALF_UP))[-8:]
    ('2.75000000000000000000000000000000', '0000.000')
    """
    number = Decimal(repr(float(value)))
    with localcontext() as context:
        context.prec = max(28, number.adjusted() + int(decimals) + 3)
        return number.quantize(Decimal(1).scaleb(-int(decimals)), rounding=rounding)


def round_half_up(value: float, decimals: int) -> float:
    """Round half away from zero at ``decimals`` (what a paper's printed numbers use), via Decimal; an infinite or
    NaN value stays as it is.

    >>> round_half_up(2.675, 2), round_half_up(-0.125, 2), round_half_up(float("inf"), 2)
    (2.68, -0.13, inf)
    """
    if not math.isfinite(value):
        return float(value)
    return float(quantized(value, decimals, ROUND_HALF_UP))


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
    if not math.isfinite(value):
        return float(value)
    return float(quantized(value, decimals, ROUND_DOWN))


def printed_bound(text) -> str:
    """The bound a printed number states (``<``, ``>``, ``<=``, ``>=``), or ``""`` for a number.

    >>> printed_bound("< 2e-16"), printed_bound(">=0.99"), printed_bound("0.5")
    ('<', '>=', '')
    """
    match = PRINTED_NUMBER.match(str(text))
    return (match["bound"] or "") if match else ""


def parse_published(text) -> tuple[float, int, str]:
    """(value, precision, marker) of a printed number; a printed bound keeps its sign in ``published_text``
    (:func:`humeval.rounding.printed_bound`) and its number is the value.

    >>> parse_published("23.00"), parse_published("+36"), parse_published("0.95*"), parse_published("1.7e-05")
    ((23.0, 2, ''), (36.0, 0, ''), (0.95, 2, '*'), (1.7e-05, 6, ''))
    >>> parse_published("< 2e-16")
    (2e-16, 16, '')
    """
    match = PRINTED_NUMBER.match(str(text))
    if not match:
        raise HumevalError(
            f"published value {text!r} is not a printed number (e.g. '0.30', '-8.67', '0.95*', '< 2e-16')"
        )
    try:
        exponent = Decimal(match["number"]).as_tuple().exponent
    except InvalidOperation:  # pragma: no cover - the regex admits only valid decimals
        raise HumevalError(f"published value {text!r} is not a number") from None
    value = float(match["number"])
    if not math.isfinite(value):
        raise HumevalError(f"published value {text!r} is not a finite number")
    if value == 0 and Decimal(match["number"]) != 0:  # 1e-400: no double holds it, and 0.0 would match a zero
        raise HumevalError(f"published value {text!r} is below the smallest number a double holds")
    return value, max(0, -int(exponent)), match["marker"]
