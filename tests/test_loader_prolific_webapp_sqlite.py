import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from humeval.errors import HumevalError
from humeval.loaders.prolific_webapp_sqlite import FIELDS, load

FAKE_PID = "FAKE-PROLIFIC-ID-0001"
FAKE_SESSION = "FAKE-SESSION-0001"


def make_database(path, answers_by_task):
    """answers_by_task: {task_number: [answers of response 1 as list, ...]} (2 questions per task)."""
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE tasks (id TEXT PRIMARY KEY, task_number INTEGER, prolific_id TEXT, "
            "time_allocated TEXT, session_id TEXT, status TEXT)"
        )
        db.execute("CREATE TABLE results (id TEXT PRIMARY KEY, json_string TEXT, prolific_id TEXT)")
        k = 0
        for task, responses in answers_by_task.items():
            for answers in responses:
                k += 1
                record = {str(q): {"meaning": a} for q, a in enumerate(answers)}
                record.update(task_id=f"task{task}", prolific_pid=FAKE_PID, session_id=FAKE_SESSION)
                db.execute(
                    "INSERT INTO tasks VALUES (?, ?, ?, '', ?, 'completed')", (f"r{k}", task, FAKE_PID, FAKE_SESSION)
                )
                db.execute("INSERT INTO results VALUES (?, ?, ?)", (f"r{k}", repr(record), FAKE_PID))


def make_items(path, rows):
    """rows: per task, a list of (systema, systemb) for positions 0..1."""
    records = []
    for pairs in rows:
        record = {}
        for field in FIELDS:
            for n, (a, b) in enumerate(pairs):
                record[f"{field}{n}"] = {"systema": a, "systemb": b}.get(field, f"{field}-{n}")
        records.append(record)
    pd.DataFrame(records).to_csv(path, index=False)


@pytest.fixture
def export(tmp_path):
    db, items = tmp_path / "database.db", tmp_path / "items.csv"
    make_database(db, {1: [["A", "B"], ["A", "A"]], 2: [["B", "B"]]})
    make_items(items, [[("vae", "hrq"), ("distractor", "golds")], [("lbow", "sep_ae"), ("golds", "inputs")]])
    return {"database": str(db), "items": str(items)}


def test_load_maps_answers_positionally_and_pseudonymises(export):
    judgements, participants = load(export, "s", "reproduction", criterion="meaning", positions=2)
    assert len(judgements) == 6 and len(participants) == 3
    task2 = judgements[judgements["task"] == 2].sort_values("question")
    assert task2[["system", "system_b", "value"]].values.tolist() == [["lbow", "sep_ae", -1], ["golds", "inputs", -1]]
    assert judgements["item"].tolist()[:2] == ["t01q00", "t01q01"]
    text = judgements.to_csv() + participants.to_csv()
    assert FAKE_PID not in text and FAKE_SESSION not in text and "r1" not in set(judgements["participant"])


def test_truncated_database_gives_one_clear_error(export, tmp_path):
    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(Path(export["database"]).read_bytes()[:600])
    with pytest.raises(HumevalError) as info:
        load({**export, "database": str(truncated)}, "s", "reproduction", positions=2)
    assert "truncated.db" in str(info.value) and "SQLite" in str(info.value)


def test_item_file_with_missing_column_names_it(export, tmp_path):
    broken = tmp_path / "broken.csv"
    pd.read_csv(export["items"]).drop(columns="systemb1").to_csv(broken, index=False)
    with pytest.raises(HumevalError) as info:
        load({**export, "items": str(broken)}, "s", "reproduction", positions=2)
    assert "broken.csv" in str(info.value) and "systemb1" in str(info.value)


def test_task_without_item_row_is_an_error(export, tmp_path):
    short = tmp_path / "short.csv"
    pd.read_csv(export["items"]).head(1).to_csv(short, index=False)
    with pytest.raises(HumevalError, match="task_number 2 has no row"):
        load({**export, "items": str(short)}, "s", "reproduction", positions=2)


def test_answer_other_than_a_or_b_is_an_error(tmp_path, export):
    db = tmp_path / "odd.db"
    make_database(db, {1: [["A", "C"]]})
    with pytest.raises(HumevalError, match="'C' is not 'A' or 'B'"):
        load({**export, "database": str(db)}, "s", "reproduction", positions=2)
