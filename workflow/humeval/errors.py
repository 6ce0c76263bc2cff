"""The one error type of the package.

Every error a user can cause (a bad config, a wrong checksum, a malformed export) is raised as
:class:`HumevalError` with the file, the row or column and what was expected, so the pipeline can
report it in one line instead of a traceback.
"""


class HumevalError(Exception):
    """A problem with the user's input: config, raw export or published numbers."""

    def __init__(self, message: str, *, study: str | None = None, file: str | None = None):
        self.study = study
        self.file = file
        prefix = ""
        if study:
            prefix += f"[{study}] "
        if file:
            prefix += f"{file}: "
        super().__init__(prefix + message)
