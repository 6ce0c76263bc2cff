"""The release is stated once and said alike everywhere (docs/releasing.md): ``humeval.__version__``, the newest
release heading of CHANGELOG.md, CITATION.cff (version and date) and, in a git checkout, an annotated tag."""

import re
import shutil
import subprocess

import pytest
import yaml
from helpers import REPO

import humeval


def newest_release():
    """The first ``## [x.y.z] - date`` heading of CHANGELOG.md (Keep a Changelog), as (version, date)."""
    return re.search(
        r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", (REPO / "CHANGELOG.md").read_text(), re.MULTILINE
    ).groups()


def test_the_version_changelog_and_citation_agree():
    version, date = newest_release()
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert (humeval.__version__, str(citation["date-released"])) == (version, date)
    assert str(citation["version"]) == version
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)


def test_the_release_has_an_annotated_tag():
    if not (REPO / ".git").exists() or not shutil.which("git"):
        pytest.skip("a source archive has no history (the clone CI runs from has)")
    tag = f"v{humeval.__version__}"
    kind = subprocess.run(["git", "cat-file", "-t", tag], cwd=REPO, capture_output=True, text=True, check=False)
    assert kind.stdout.strip() == "tag", f"no annotated tag {tag} (docs/releasing.md): {kind.stderr.strip()}"
