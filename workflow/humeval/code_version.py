"""The code version: a sha256 per package source and one combined digest (``results/code_version.txt``)."""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path

__all__ = ["write_code_version"]


def write_code_version(sources: list[str], target: str) -> None:
    """Write ``sha256  humeval/<path>`` per package source and a combined digest (the code version)."""
    root = Path(os.path.commonpath([os.path.abspath(s) for s in sources])).parent

    lines = []
    for source in sorted(sources):
        digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
        lines.append(f"{digest}  {Path(source).resolve().relative_to(root.resolve()).as_posix()}")
    combined = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    Path(target).write_text(f"humeval code version {combined}\n" + "\n".join(lines) + "\n")
    logging.getLogger("humeval").info("%d package sources, code version %s", len(lines), combined)
