"""Hostile input that must end in one clear line, never an internal error or exhausted memory: workbook zip bombs,
a full disk in a job, and hypothesis-generated study files (wrong types, missing keys, hostile
strings) through the config checks that ``snakemake -n`` runs."""

import copy
import re
import zipfile
from pathlib import Path

import pytest
import yaml
from helpers import REPO, SUMMARY_LINES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from humeval.errors import HumevalError

TEMPLATE = yaml.safe_load((REPO / "config/studies/_template.yaml").read_text())


def test_a_workbook_zip_bomb_is_refused_before_it_is_unpacked(tmp_path):
    from humeval.loaders import read_workbook_sheet

    bomb = tmp_path / "bomb.xlsx"
    with (
        zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open("xl/worksheets/sheet1.xml", "w") as member,  # 60 MB of zeros pack into ~60 kB
    ):
        for _ in range(60):
            member.write(b"0" * (1 << 20))
    assert bomb.stat().st_size < 200_000
    with pytest.raises(HumevalError, match="unpacks to 62,914,560 bytes.*zip bomb"):
        read_workbook_sheet(str(bomb), 0)


def test_a_full_disk_in_a_job_is_one_line_not_a_traceback(tmp_path, capsys):
    import errno
    from types import SimpleNamespace

    from humeval.runner import run

    job = SimpleNamespace(log=[str(tmp_path / "job.log")], rule="summary", wildcards={})

    def main():
        raise OSError(errno.ENOSPC, "No space left on device", "results/summary/qra.csv")

    with pytest.raises(SystemExit) as exit_:
        run(job, main)
    assert exit_.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["humeval error in summary {}: No space left on device (results/summary/qra.csv)"]


HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(
        [
            "</script><img src=x onerror=alert(1)>",
            "../../etc/passwd",
            "=cmd|' /C calc'!A0",
            "1e999",
            "{x}",
            "{system:>300000000}",  # a format width that would write gigabytes
            "{system.__class__}",  # a field reaching into an attribute
            "{stat:d}",
            r"$\frac{1}{$",  # unbalanced mathtext
        ]
    ),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def paths(node, prefix=()):
    """Every (path, value) of a nested config."""
    yield prefix, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(node, list):
        for k, value in enumerate(node):
            yield from paths(value, (*prefix, k))


PATHS = [p for p, _ in paths(TEMPLATE) if p]


@st.composite
def mutated_study(draw):
    study = copy.deepcopy(TEMPLATE)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PATHS))
        parent = study
        try:
            for key in path[:-1]:
                parent = parent[key]
            if draw(st.booleans()) and isinstance(parent, dict):
                parent.pop(path[-1], None)  # a missing key
            else:
                parent[path[-1]] = draw(HOSTILE)  # a wrong type or a hostile string
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed the path
    return study


CASES = {"ran": 0, "valid": 0, "refused": 0}
#: YAML 1.1 spellings of integers (octal, base 60, underscores, hexadecimal, a sign): a study file is read as YAML
#: 1.2 core, where 010 is ten and 1:20 and 1_000 are text (refused where a number is needed).
YAML11 = {"010": 10, "0o10": 8, "0x1F": 31, "+12": 12, "1:20": None, "1_000": None, "0b11": None}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(study=mutated_study(), spelling=st.sampled_from(sorted(YAML11)))
def test_generated_study_files_end_in_one_clear_line_or_load(tmp_path, study, spelling):
    from humeval.config.load import load_study

    path = Path(tmp_path) / "example-2025-ranking.yaml"
    # one integer of the file spelled as YAML 1.1 writes it, unquoted
    text = re.sub(r"(?m)^(\s+[a-z_]+: )(\d+)$", lambda m: m.group(1) + spelling, yaml.safe_dump(study), count=1)
    path.write_text(text)
    CASES["ran"] += 1
    try:
        load_study(path)
        CASES["valid"] += 1
    except HumevalError as exc:
        CASES["refused"] += 1
        assert "\n" not in str(exc) and str(path) in str(exc)


def test_the_generated_study_files_were_both_loaded_and_refused():
    """After the generated test (it runs first in this module): every file either loaded or was refused, and the
    generator made both kinds (a mutation that always broke, or never did, would test nothing)."""
    if not CASES["ran"]:
        pytest.skip("runs after test_generated_study_files_end_in_one_clear_line_or_load")
    assert CASES["ran"] >= 300 and CASES["valid"] + CASES["refused"] == CASES["ran"]
    assert CASES["valid"] > 0 and CASES["refused"] > 0, CASES
    SUMMARY_LINES.append(
        f"config fuzzing: {CASES['ran']} generated study files, {CASES['refused']} refused in one line, "
        f"{CASES['valid']} valid, no internal error"
    )


@pytest.mark.parametrize(("spelling", "value"), sorted(YAML11.items()))
def test_a_yaml_1_1_integer_is_read_as_yaml_1_2_or_refused_in_one_line(tmp_path, spelling, value):
    """The template's published total of 10 rankings, spelled otherwise: YAML 1.2 reads 010 as ten (YAML 1.1: eight)
    and loads; 0o10, 0x1F and +12 are 8, 31 and 12, which the counts (summing to 10) refuse; 1:20, 1_000 and 0b11
    are text (YAML 1.1: 80, 1000, 3), refused as not an integer. Each refusal is one line naming the key."""
    from humeval.config.load import load_study

    path = tmp_path / "example-2025-ranking.yaml"
    text = (REPO / "config/studies/_template.yaml").read_text()
    assert "\n    total: 10\n" in text
    path.write_text(text.replace("\n    total: 10\n", f"\n    total: {spelling}\n", 1))
    if value == 10:
        assert load_study(path)["published_aggregates"][0]["total"] == 10
        return
    with pytest.raises(HumevalError) as refused:
        load_study(path)
    message = str(refused.value)
    assert "\n" not in message and "key published_aggregates.0" in message
    assert f"expected total {value}" in message if value is not None else "is not of type 'integer'" in message


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda text: text.replace("title:", "title: twice\ntitle:", 1), "key 'title' appears twice in one mapping"),
        (
            lambda text: text.replace(
                "inputs: {report: report}", "inputs: {report: report}\n    x: &a [1, 1]\n    y: [*a, *a]"
            ),
            "unknown parameter",
        ),
        (lambda text: text.replace("sha256: ff7bb78f", "sha256: zz7bb78f"), "key raw.0.sha256"),
        (
            lambda text: text.replace("raw.githubusercontent.com", "evil.example.org"),
            "host 'evil.example.org' is not allowed",
        ),
    ],
)
def test_hostile_study_files_through_a_dry_run_end_in_one_line(tmp_path, change, expected):
    from helpers import copy_project, run_snakemake

    workdir = copy_project(tmp_path / "project", ["example-2025-ranking"])
    text = (REPO / "config/studies/_template.yaml").read_text()
    (workdir / "config/studies/example-2025-ranking.yaml").write_text(change(text))
    result = run_snakemake(workdir, "-n")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and expected in output, output[-2000:]
    assert "Traceback" not in output and "internal error" not in output
    line = next(line for line in output.splitlines() if expected in line)
    assert "example-2025-ranking.yaml" in line  # the one line names the file
