"""Regular expressions a study config writes (header patterns, file-name patterns, answer-text patterns), run in
linear time.

Python's own engine backtracks: a config pattern such as ``^(a+)+$`` against a header of 47 ``a`` and a ``!`` runs
at full CPU for minutes. Config patterns are compiled with RE2 (``google-re2``, a dependency for this reason: its
matching time is linear in the text whatever the pattern), which has no backreferences or lookaround; a pattern
that uses them is refused in one line at ``snakemake -n``, naming the key.
"""

from __future__ import annotations

from functools import cache

from humeval.errors import HumevalError

__all__ = ["PATTERN_KEYS", "check_patterns", "config_pattern"]

#: The params of a loader whose values are config regular expressions.
PATTERN_KEYS = ("pattern", "part", "columns", "file_pattern", "response_text_pattern")


@cache
def config_pattern(pattern: str, ignore_case: bool = False, dot_all: bool = False):
    """``pattern`` compiled by RE2 (``search``, ``match``, ``groups``, ``groupdict`` as Python's ``re``); a
    :class:`HumevalError` saying why when RE2 cannot compile it.

    >>> config_pattern("^(?P<criterion>fluency)(?P<slot>\\\\d+)$", ignore_case=True).search("Fluency3").groupdict()
    {'criterion': 'Fluency', 'slot': '3'}
    >>> config_pattern("(a)\\\\1")
    Traceback (most recent call last):
    humeval.errors.HumevalError: regular expression '(a)\\\\1': invalid escape sequence: \\1 (patterns run in linear time (RE2): no backreferences or lookaround)
    """
    import re2

    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = not ignore_case
    options.dot_nl = dot_all
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise HumevalError(
            f"regular expression {pattern!r}: {reason} (patterns run in linear time (RE2): no backreferences or "
            "lookaround)"
        ) from None


def check_patterns(node, key: str, fail) -> None:
    """Compile every config pattern (:data:`PATTERN_KEYS`) under ``node`` (an extract entry's params), calling
    ``fail`` with the key and the reason for one RE2 cannot compile."""
    if isinstance(node, dict):
        for name, value in node.items():
            if name in PATTERN_KEYS and isinstance(value, str):
                try:
                    config_pattern(value)
                except HumevalError as exc:
                    fail(f"key {key}.{name}: {exc}")
            check_patterns(value, f"{key}.{name}", fail)
    elif isinstance(node, list):
        for k, value in enumerate(node):
            check_patterns(value, f"{key}.{k}", fail)
