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
    """The package's version is the newest release, or the development version of a later one (X.Y.Z.devN),
    never a release's number for other code; CITATION.cff cites the newest release."""
    version, date = newest_release()
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert (str(citation["version"]), str(citation["date-released"])) == (version, date)
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    development = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)\.dev\d+", humeval.__version__)
    if development:
        assert tuple(map(int, development.groups())) > tuple(map(int, version.split("."))), humeval.__version__
    else:
        assert humeval.__version__ == version


def release_copy(tmp_path):
    """The three files a release changes, copied under a root ``tools/release.py`` is pointed at."""
    root = tmp_path / "repo"
    (root / "workflow/humeval").mkdir(parents=True)
    (root / "workflow/humeval/__init__.py").write_text('"""x"""\n\n__version__ = "1.0.0"\n')
    (root / "CITATION.cff").write_text("cff-version: 1.2.0\nversion: 1.0.0\ndate-released: 2026-11-26\n")
    (root / "CHANGELOG.md").write_text(
        "# Changelog\n\n## [Unreleased]\n\n### Added\n\n- a thing\n\n## [1.0.0] - 2026-11-26\n\n- first\n"
    )
    return root


def test_the_release_command_cuts_from_main_alone(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("release", REPO / "tools/release.py")
    release = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(release)
    root = release_copy(tmp_path)
    release.main(["develop", "1.1.0", "--root", str(root)])
    assert '__version__ = "1.1.0.dev0"' in (root / "workflow/humeval/__init__.py").read_text()
    release.main(["cut", "2.0.0", "--date", "2026-11-28", "--root", str(root)])
    assert (root / "CHANGELOG.md").read_text() == (
        "# Changelog\n\n## [Unreleased]\n\n## [2.0.0] - 2026-11-28\n\n### Added\n\n- a thing\n\n"
        "## [1.0.0] - 2026-11-26\n\n- first\n"
    )
    assert '__version__ = "2.0.0"' in (root / "workflow/humeval/__init__.py").read_text()
    assert "version: 2.0.0\ndate-released: 2026-11-28" in (root / "CITATION.cff").read_text()
    with pytest.raises(SystemExit, match="nothing to release"):
        release.main(["cut", "2.0.1", "--root", str(root)])
    root = release_copy(tmp_path / "again")
    with pytest.raises(SystemExit, match="not above the newest release"):
        release.main(["cut", "1.0.0", "--root", str(root)])


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


def test_the_readme_claims_no_version_of_its_own():
    """README.md said "Version 1.0.0" at 2.1.0.dev0, a release and 100 commits later (issue 57: a version that never
    lies): it names no version; CHANGELOG.md and each run's results/summary/run.csv do."""
    readme = (REPO / "README.md").read_text()
    assert not re.search(r"[Vv]ersion \d+\.\d+", readme), re.search(r"[Vv]ersion \d+\.\d+", readme)
