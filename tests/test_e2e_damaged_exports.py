"""Property-based damage of the real exports, for every loader (hypothesis): a file truncated, a column dropped
or renamed, a value replaced by text, the file emptied, re-encoded, or a row duplicated. Each case must end in
a HumevalError naming the damaged file, or in the undamaged judgements, or in ones that differ only by values
the export left empty (which the ``missing_value`` exclusion then logs): never an internal error. Damage a
loader cannot see (a file cut at a row boundary, a repeated record) is refused before the loader runs by the
extract stage's re-verification against the pinned sha256, which the test checks for those cases: never a
silently different table. The counts per outcome are printed in the run summary."""

import csv
import hashlib
import io
import shutil
from functools import cache
from pathlib import Path

import pandas as pd
import pytest
from helpers import REPO, SUMMARY_LINES, mirror_file
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from humeval.config.load import load_study
from humeval.config.registry import function
from humeval.config.studyfile import raw_filename
from humeval.errors import HumevalError
from humeval.fetch import verify_fetched
from humeval.tidy import JUDGEMENT_COLUMNS, validate_judgements

pytestmark = pytest.mark.e2e
# (study, extract entry, role damaged): one case per loader, the damaged file one it reads
CASES = [
    ("hosking-2022-paraphrase-meaning", 0, "items"),
    ("hosking-2022-paraphrase-meaning", 0, "database"),
    ("shardlow-2019-clinical-simplification", 0, "report"),
    ("liu-2021-dexperts-fluency", 0, "results"),
    ("liu-2021-dexperts-fluency", 1, "batch_1"),
    ("finch-2024-evaluator-groups", 0, "likert"),
    ("santhanam-2019-dialogue-design", 0, "survey"),
    ("santhanam-2019-dialogue-design", 4, "workbook"),
    ("santhanam-2019-dialogue-design", 8, "workbook"),
    ("yao-2022-storybook-qag", 0, "ratings"),
]
TEXT_OPS = ["truncate", "drop_column", "rename_column", "text_value", "empty", "latin1", "utf16", "duplicate_row"]
BINARY_OPS = ["truncate", "empty", "flip_bytes"]
OUTCOMES: dict[str, int] = {}


@cache
def setup(case):
    """The entry, the original files (role -> bytes) and the undamaged tidy table of a case."""
    study_name, index, _ = case
    study = load_study(REPO / "config/studies" / f"{study_name}.yaml")
    entry = study["extract"][index]
    raw = {r["id"]: r for r in study["raw"]}
    files = {}
    for input_role, raw_id in entry["inputs"].items():
        path = mirror_file(raw[raw_id]["url"])
        if path is not None:
            files[input_role] = (raw_filename(raw[raw_id]), path.read_bytes())
    baseline = run_loader(study_name, entry, files, Path(REPO / ".pytest_cache" / "damage-baseline" / f"{index}"))
    return study_name, entry, files, baseline


def run_loader(study_name, entry, files, folder: Path) -> pd.DataFrame:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    inputs = {}
    for role, (name, data) in files.items():
        (folder / name).write_bytes(data)
        inputs[role] = str(folder / name)
    judgements, _ = function("loader", entry["loader"])(inputs, study_name, entry["side"], **entry.get("params", {}))
    return validate_judgements(judgements, str(folder))


def damage(data: bytes, op: str, k: int, fraction: float) -> bytes:
    if op == "truncate":
        return data[: int(len(data) * fraction)]
    if op == "empty":
        return b""
    if op == "flip_bytes":
        middle = bytearray(data)
        start = int(len(middle) * fraction)
        middle[start : start + 64] = bytes(255 - b for b in middle[start : start + 64])
        return bytes(middle)
    text = data.decode("utf-8-sig", errors="replace")
    if op == "latin1":
        return text.replace("e", "é").encode("latin-1", errors="replace")
    if op == "utf16":
        return text.encode("utf-16")
    if text.lstrip().startswith("{"):  # JSON: damage a value or duplicate nothing
        if op in ("text_value", "drop_column", "rename_column"):
            return text.replace('"score": ', '"score": "garbage" or ', 1).encode() if op == "text_value" else data[:-2]
        return data
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) < 2:
        return data
    width = len(rows[0])
    column = k % width
    row = 1 + k % (len(rows) - 1)
    if op == "drop_column":
        rows = [r[:column] + r[column + 1 :] for r in rows]
    elif op == "rename_column":
        rows[0][column] = "renamed_by_the_test"
    elif op == "text_value" and column < len(rows[row]):
        rows[row][column] = "garbage text"
    elif op == "duplicate_row":
        rows.insert(row, rows[row])
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n" if "\r\n" in text else "\n").writerows(rows)
    return out.getvalue().encode()


def acceptable_difference(baseline: pd.DataFrame, result: pd.DataFrame) -> bool:
    """The judgements (the schema's columns; carried text such as a sentence may follow a text edit) are
    equal, or equal but for values the damaged export left empty (explicitly excluded later)."""
    if len(result) != len(baseline):
        return False
    result, baseline = (
        result[JUDGEMENT_COLUMNS].reset_index(drop=True),
        baseline[JUDGEMENT_COLUMNS].reset_index(drop=True),
    )
    changed = (result.astype(str) != baseline.astype(str)).any(axis=1)
    return bool(result.loc[changed, "value"].isna().all())


@pytest.mark.parametrize("case", CASES, ids=[f"{s.split('-')[0]}-{r}" for s, _, r in CASES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(op=st.sampled_from(TEXT_OPS + BINARY_OPS), k=st.integers(0, 10_000), fraction=st.floats(0.05, 0.95))
@example(op="flip_bytes", k=0, fraction=0.25)  # found by hypothesis: valid deflate, broken XML (ParseError)
def test_a_damaged_export_gives_a_clear_error_or_an_explicit_exclusion(case, op, k, fraction, tmp_path_factory):
    study_name, entry, files, baseline = setup(case)
    role = case[2]  # the damaged input
    name, data = files[role]
    binary = data[:16].startswith((b"PK", b"SQLite"))
    if (op in BINARY_OPS) != binary and op not in ("truncate", "empty"):
        op = "truncate"
    damaged = damage(data, op, k, fraction)
    folder = tmp_path_factory.mktemp("damaged")
    try:
        result = run_loader(study_name, entry, {**files, role: (name, damaged)}, folder)
    except HumevalError as exc:
        assert name in str(exc) or str(folder) in str(exc), f"{op}: the error does not name {name}: {exc}"
        OUTCOMES["loader error naming the file"] = OUTCOMES.get("loader error naming the file", 0) + 1
        return
    if acceptable_difference(baseline, result):
        OUTCOMES["same judgements or explicit exclusion"] = OUTCOMES.get("same judgements or explicit exclusion", 0) + 1
        return
    # a loader cannot tell this file from a valid one: the extract stage's re-verification must refuse it
    pinned = hashlib.sha256(data).hexdigest()
    assert hashlib.sha256(damaged).hexdigest() != pinned, f"{op}: a silently different table from identical bytes"
    raw = folder / "refetched"
    raw.mkdir()
    (raw / name).write_bytes(damaged)
    with pytest.raises(HumevalError, match="changed after it was fetched"):
        verify_fetched(raw, [{"filename": name, "sha256": pinned}], study=study_name)
    OUTCOMES["refused by the checksum before the loader"] = (
        OUTCOMES.get("refused by the checksum before the loader", 0) + 1
    )


def test_zz_report_how_many_damaged_cases_were_tried():
    total = sum(OUTCOMES.values())
    SUMMARY_LINES.append(
        f"damaged exports: {total} cases over {len(CASES)} loader inputs: "
        + ", ".join(f"{n} {outcome}" for outcome, n in OUTCOMES.items())
    )
    assert total >= len(CASES)
