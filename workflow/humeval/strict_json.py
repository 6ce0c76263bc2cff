"""JSON as exports and datasheets are read: a key given twice in one object is refused (Python's parser keeps the
last silently, so one of two values would vanish), naming the key. The one place every JSON reader parses."""

from __future__ import annotations

import json

__all__ = ["DuplicateKey", "load", "loads"]


class DuplicateKey(ValueError):
    """A JSON object that gives a key twice."""

    def __init__(self, key: str):
        super().__init__(f"the key {key!r} appears twice in one object")
        self.key = key


def unique_pairs(pairs: list[tuple[str, object]]) -> dict:
    """``object_pairs_hook`` that builds the object, refusing a key given twice.

    >>> unique_pairs([("a", 1), ("b", 2)])
    {'a': 1, 'b': 2}
    >>> unique_pairs([("a", 1), ("a", 2)])
    Traceback (most recent call last):
    ...
    humeval.strict_json.DuplicateKey: the key 'a' appears twice in one object
    """
    out = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def loads(text: str, **options):
    """``json.loads`` with :func:`unique_pairs` (a :class:`DuplicateKey` is a ``ValueError``)."""
    return json.loads(text, object_pairs_hook=unique_pairs, **options)


def load(handle, **options):
    """``json.load`` with :func:`unique_pairs`."""
    return json.load(handle, object_pairs_hook=unique_pairs, **options)
