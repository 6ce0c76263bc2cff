"""One path from config to job: every top-level study key reaches the stages that read it (humeval.config.studyfile's
STAGE_KEYS, which the rules' params use), and a job that reads a key its stage was not given fails at once."""

import pytest
import yaml
from helpers import REPO

from humeval.config.studyfile import STAGE_KEYS, VALIDATION_ONLY, StudySlice


def test_every_schema_key_reaches_a_stage_or_is_validation_only():
    schema = yaml.safe_load((REPO / "workflow" / "schemas" / "study.schema.yaml").read_text())
    keys = set(schema["properties"])
    read = {k for stage in STAGE_KEYS.values() for k in stage}
    unread = sorted(keys - read - set(VALIDATION_ONLY))
    assert not unread, f"study keys no job reads (add each to the stages that need it): {unread}"
    unknown = sorted(read - keys)
    assert not unknown, f"STAGE_KEYS names keys the schema does not have: {unknown}"


def test_every_rule_with_a_study_slice_names_its_stage():
    rules = {p.stem: p.read_text() for p in (REPO / "workflow" / "rules").glob("*.smk")}
    for stage in STAGE_KEYS:
        text = next((t for t in rules.values() if f"rule {stage}:" in t), "")
        assert f'slice("{stage}")' in text, f"rule {stage} does not pass its stage's keys"


def test_a_key_outside_the_stage_fails_instead_of_looking_absent():
    part = StudySlice({"name": "s", "metrics": []}, STAGE_KEYS["metrics"], "metrics")
    assert part.get("derived", []) == []  # given to the stage, absent from this study: its default
    with pytest.raises(KeyError, match=r"metrics reads the study key 'figures' but its rule does not pass it"):
        part.get("figures", [])
    with pytest.raises(KeyError, match="figures"):
        _ = "figures" in part
