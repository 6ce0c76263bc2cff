"""Cut a release, or start the next one, from main alone (docs/releasing.md).

``python tools/release.py cut X.Y.Z`` moves the entries under ``## [Unreleased]`` in CHANGELOG.md to
``## [X.Y.Z] - <today>`` (leaving an empty ``[Unreleased]``), and sets ``__version__`` in
``workflow/humeval/__init__.py`` (pyproject.toml reads it) and ``version`` and ``date-released`` in CITATION.cff.
``python tools/release.py develop X.Y.Z`` sets ``__version__`` to ``X.Y.Z.dev0``, the next release's development
version, so that a run of code past a release never says it ran that release (the run page adds the commit).
Hosted CI (``.github/workflows/release.yml``) tags ``vX.Y.Z`` and publishes the release when a cut lands on main.
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION = re.compile(r"^\d+\.\d+\.\d+$")
INIT = Path("workflow/humeval/__init__.py")


def set_version(root: Path, version: str) -> None:
    """``__version__ = "<version>"`` in the package."""
    path = root / INIT
    text, count = re.subn(
        r'^__version__ = "[^"]*"$', f'__version__ = "{version}"', path.read_text(), flags=re.MULTILINE
    )
    if count != 1:
        raise SystemExit(f"{path}: no single __version__ line")
    path.write_text(text)


def cut(root: Path, version: str, date: str) -> None:
    """Release ``version`` on ``date``: the CHANGELOG's unreleased entries under its heading, the package and
    CITATION.cff set to it. Refuses an empty ``[Unreleased]`` and a version not above the newest release."""
    changelog = root / "CHANGELOG.md"
    text = changelog.read_text()
    head = "## [Unreleased]\n"
    if head not in text:
        raise SystemExit("CHANGELOG.md has no '## [Unreleased]' section")
    start = text.index(head) + len(head)
    following = re.search(r"^## \[(\d+\.\d+\.\d+)\] - ", text[start:], flags=re.MULTILINE)
    end = start + following.start() if following else len(text)
    entries = text[start:end].strip("\n")
    if not entries:
        raise SystemExit("nothing to release: '## [Unreleased]' is empty")
    if following and tuple(map(int, version.split("."))) <= tuple(map(int, following.group(1).split("."))):
        raise SystemExit(f"{version} is not above the newest release {following.group(1)}")
    released = f"{head}\n## [{version}] - {date}\n\n{entries}\n\n"
    changelog.write_text(text[: text.index(head)] + released + text[end:])
    set_version(root, version)
    citation = root / "CITATION.cff"
    cff = re.sub(r"^version: .*$", f"version: {version}", citation.read_text(), flags=re.MULTILINE)
    citation.write_text(re.sub(r"^date-released: .*$", f"date-released: {date}", cff, flags=re.MULTILINE))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["cut", "develop"])
    parser.add_argument("version", help="X.Y.Z: the release (cut) or the next release (develop)")
    parser.add_argument("--date", default=datetime.date.today().isoformat(), help="the release date (cut)")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not VERSION.match(args.version):
        sys.exit(f"{args.version!r} is not X.Y.Z")
    if args.action == "cut":
        cut(args.root, args.version, args.date)
    else:
        set_version(args.root, f"{args.version}.dev0")


if __name__ == "__main__":
    main()
