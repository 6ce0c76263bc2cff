"""The study files researchers wrote by config alone are a contract (issue 51): each, unchanged, gives at least the
numbers it gave when it was written, with none undiagnosed, or is refused at ``-n`` in one line saying what to write
(an accepted migration, listed in the CHANGELOG under the version that needs it).

``tests/user_files/<study>/<study>.{first,extended,latest}.yaml`` are byte-for-byte the files of ``../shared/users/``
(checked where that folder is present). Each version's four files run in one copy of the project (three Snakemake
invocations in all: the names collide across versions, not within one), planning off, up to the audit.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
from helpers import REPO, SUMMARY_LINES, copy_project, raw_source, run_snakemake

pytestmark = pytest.mark.e2e

USER_FILES = REPO / "tests" / "user_files"
SHARED = REPO.parent / "shared" / "users"
VERSIONS = ("first", "extended", "latest")

#: What each file gave when it was written (``../shared/users/README.md``): the least number of matches it must
#: still reach, with none undiagnosed.
MATCHES = {
    ("arvan-2024-paraphrase-bws", "first"): 60,
    ("arvan-2024-paraphrase-bws", "extended"): 64,
    ("arvan-2024-paraphrase-bws", "latest"): 89,
    ("puduppully-2021-macro-planning", "first"): 262,
    ("puduppully-2021-macro-planning", "extended"): 265,
    ("puduppully-2021-macro-planning", "latest"): 276,
    ("lux-2022-tts-preference", "first"): 49,
    ("lux-2022-tts-preference", "extended"): 55,
    ("lux-2022-tts-preference", "latest"): 50,
    ("yao-2022-storybook-qag", "extended"): 307,
    ("yao-2022-storybook-qag", "latest"): 307,
}
#: The accepted migrations: a file refused at ``-n`` in one line that says what to write (CHANGELOG, 1.0.0's
#: successor: raters are selected by ``rater_number``, never by pseudonym).
MIGRATIONS = {
    ("yao-2022-storybook-qag", "first"): (
        "key metrics.8.where.slot: 'slot' is built from the participant column, which holds pseudonyms since the "
        "identifier firewall; select raters by number instead: where: {rater_number: [1, 2, ...]}"
    ),
}
STUDIES = sorted({study for study, _ in [*MATCHES, *MIGRATIONS]})
#: Files that select raters by pseudonym: they keep their numbers, and every start says, per selection, what to
#: write that a copy or one more raw file does not change (issue 51: raters by ``rater_number``).
PSEUDONYM_SELECTIONS = {("yao-2022-storybook-qag", "extended"): 10, ("yao-2022-storybook-qag", "latest"): 10}


def test_the_files_are_kept_as_written():
    """Every study, three versions each, and the copies equal the researchers' own files where they are here."""
    assert sorted(p.name for p in USER_FILES.iterdir() if p.is_dir()) == STUDIES
    for study in STUDIES:
        for version in VERSIONS:
            assert (study, version) in MATCHES or (study, version) in MIGRATIONS
            copy = USER_FILES / study / f"{study}.{version}.yaml"
            if SHARED.is_dir():
                assert copy.read_bytes() == (SHARED / study / copy.name).read_bytes(), copy


def project_with(tmp_path: Path, version: str, studies: list[str]) -> Path:
    """A copy of the project whose ``studies`` are the researchers' files of ``version``, as written."""
    workdir = copy_project(tmp_path / version, studies=studies)
    for study in studies:
        shutil.copy(USER_FILES / study / f"{study}.{version}.yaml", workdir / "config" / "studies" / f"{study}.yaml")
    return workdir


def counts(audit: Path) -> tuple[int, int]:
    """Matches and undiagnosed rows of a study's ``numbers.csv``."""
    frame = pd.read_csv(audit, keep_default_na=False)
    return int((frame["status"] == "match").sum()), int(frame["note"].str.startswith("UNDIAGNOSED").sum())


@pytest.mark.parametrize("version", VERSIONS)
def test_each_file_gives_its_numbers_or_one_migration_line(tmp_path, version):
    env = raw_source()
    for (study, wanted), line in MIGRATIONS.items():
        if wanted == version:
            refused = run_snakemake(project_with(tmp_path / "refused", version, [study]), "-n", env=env)
            output = refused.stdout + refused.stderr
            assert refused.returncode != 0 and line in output, output[-3000:]
            assert not (tmp_path / "refused" / version / "results").exists()
    studies = [study for study, wanted in MATCHES if wanted == version]
    workdir = project_with(tmp_path, version, studies)
    targets = [f"results/{study}/numbers.csv" for study in studies]
    result = run_snakemake(workdir, "--config", "planning=false", "--", *targets, env=env)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    for study in studies:
        said = result.stderr.count(f"humeval: {study}: key metrics.")
        assert said == PSEUDONYM_SELECTIONS.get((study, version), 0), (study, version, result.stderr[-3000:])
        matches, undiagnosed = counts(workdir / "results" / study / "numbers.csv")
        SUMMARY_LINES.append(f"user file {study}.{version}: {matches} match, {undiagnosed} undiagnosed")
        assert matches >= MATCHES[study, version] and undiagnosed == 0, (study, version, matches, undiagnosed)
