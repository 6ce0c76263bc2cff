"""The one error type of the package.

Every error a user can cause (a bad config, a wrong checksum, a malformed export) is raised as
:class:`HumevalError` with the file, the row or column and what was expected, so the pipeline can
report it in one line instead of a traceback.
"""

__all__ = ["HumevalError", "refuse_first"]


class HumevalError(Exception):
    r"""A problem with the user's input: config, raw export or published numbers. Always one line: a control
    character that a config key or an export cell carried into the message (a newline, say) is written escaped.

    >>> str(HumevalError("key published.0.cells.\n: bad", file="s.yaml"))
    's.yaml: key published.0.cells.\\n: bad'
    """

    def __init__(self, message: str, *, study: str | None = None, file: str | None = None):
        self.study = study
        self.file = file
        prefix = ""
        if study:
            prefix += f"[{study}] "
        if file:
            prefix += f"{file}: "
        text = prefix + str(message)
        super().__init__("".join(c if c.isprintable() else repr(c)[1:-1] for c in text))


def refuse_first(frame, bad, message, file: str | None = None) -> None:
    """Raise :class:`HumevalError` naming the first row of ``frame`` that ``bad`` (a boolean Series) marks, in the
    words ``message(row)`` gives it; nothing when no row is bad.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"answer": ["A", "C"]})
    >>> refuse_first(frame, ~frame["answer"].isin(["A", "B"]), lambda r: f"answer {r['answer']!r}", "x.csv")
    Traceback (most recent call last):
    humeval.errors.HumevalError: x.csv: answer 'C'
    """
    if bad.any():
        raise HumevalError(message(frame[bad].iloc[0]), file=file)
