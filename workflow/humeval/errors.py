"""The one error type of the package.

Every error a user can cause (a bad config, a wrong checksum, a malformed export) is raised as
:class:`HumevalError` with the file, the row or column and what was expected, so the pipeline can
report it in one line instead of a traceback.
"""

__all__ = ["HumevalError"]


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
