"""Figures in one style (matplotlib, non-interactive backend), each saved as PNG and PDF.

By family: :mod:`~humeval.report.figures.style` (the shared style, saving, labels), :mod:`~humeval.report.figures.bars`,
:mod:`~humeval.report.figures.intervals`, :mod:`~humeval.report.figures.scatter`, :mod:`~humeval.report.figures.power` (planning) and
:mod:`~humeval.report.figures.draw` (a study's configured figures).

A figure is chosen by ``kind`` in the study config and drawn from the audit (``numbers.csv``), so a
figure always shows the same numbers as the tables; bars drawn from published-only numbers are hatched. A kind is
a function ``f(audit, plt, *, table, <parameters>) -> Figure`` registered with ``@register("figure", <kind>)``
(:mod:`humeval.config.registry`); the entry's other keys are its parameters, and its ``id`` names the file.
"""

__all__ = []
