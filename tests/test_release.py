"""The release is stated once and said alike everywhere (docs/releasing.md): ``humeval.__version__``, the newest
release heading of CHANGELOG.md, CITATION.cff (version and date) and any version tag of the checkout."""

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


def test_every_version_tag_is_annotated_and_names_its_release():
    """A ``vX.Y.Z`` tag present in this checkout is annotated and tags a commit whose ``__version__`` is X.Y.Z.

    Tags are pushed apart from branches and a CI clone may hold none (the project's CI fetches the branch only), so
    the check is on the tags there are, not on the current version having one: docs/releasing.md tags after the
    commit that passed CI."""
    if not (REPO / ".git").exists() or not shutil.which("git"):
        pytest.skip("a source archive has no history")

    def git(*args):
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()

    for tag in git("tag", "--list", "v*").split():
        assert git("cat-file", "-t", tag) == "tag", f"{tag} is a lightweight tag; docs/releasing.md uses -a"
        init = git("show", f"{tag}^{{commit}}:workflow/humeval/__init__.py")
        assert f'__version__ = "{tag[1:]}"' in init, f"{tag} tags a commit whose __version__ is not {tag[1:]}"
