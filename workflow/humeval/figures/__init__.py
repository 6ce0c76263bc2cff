"""Figures in one style (matplotlib, non-interactive backend), each saved as PNG and PDF.

By family: :mod:`~humeval.figures.style` (the shared style, saving, labels), :mod:`~humeval.figures.bars`,
:mod:`~humeval.figures.intervals`, :mod:`~humeval.figures.scatter`, :mod:`~humeval.figures.power` (planning) and
:mod:`~humeval.figures.draw` (a study's configured figures).

A figure is chosen by ``kind`` in the study config and drawn from the audit (``numbers.csv``), so a
figure always shows the same numbers as the tables; bars drawn from published-only numbers are hatched. A kind is
a function ``f(audit, plt, *, table, <parameters>) -> Figure`` registered with ``@register("figure", <kind>)``
(:mod:`humeval.vocabulary`); the entry's other keys are its parameters, and its ``id`` names the file.
"""

__all__ = []
