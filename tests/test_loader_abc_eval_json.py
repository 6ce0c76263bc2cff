import json
from pathlib import Path

import pytest

from humeval.errors import HumevalError
from humeval.exclusions import apply_exclusions
from humeval.loaders.abc_eval_json import load

GROUPS = {
    "Devx": {"workers": ["w1"]},
    "Stux": {"workers": "rest"},
    "Stui": {"evaluation": "dialogue_collection"},
    "Surx": {"evaluation": "surge_evaluation"},
}


def evaluation(likert=None, comparative=None, workers=None):
    dialogues = {}
    for dialogue, bot, annotations in likert or []:
        dialogues.setdefault(
            dialogue,
            {"dialogue_id": dialogue, "bot": bot, "likert_annotations": {}, "comparative_annotations": {}, "turns": []},
        )
        for unit, label, score in annotations:
            dialogues[dialogue]["likert_annotations"].setdefault(label, []).append(
                {"work_unit_id": unit, "label": label, "score": score}
            )
    for (d1, b1), (d2, b2), unit, label, score in comparative or []:
        for da, ba, db, bb, s in ((d1, b1, d2, b2, score), (d2, b2, d1, b1, -score)):
            dialogues.setdefault(
                da, {"dialogue_id": da, "bot": ba, "likert_annotations": {}, "comparative_annotations": {}, "turns": []}
            )
            dialogues[da]["comparative_annotations"].setdefault(label, []).append(
                {
                    "work_unit_id": unit,
                    "label": label,
                    "dialogue_compared_to_id": db,
                    "score": s,
                    "bot": ba,
                    "bot_compared_to": bb,
                }
            )
    units = {u: {"id": u, "worker_id": w, "task": "x"} for u, w in (workers or {}).items()}
    return {"dialogues": dialogues, "work_units": units}


@pytest.fixture
def files(tmp_path):
    likert = evaluation(
        likert=[("d1", "emora", [("u1", "quality", "4"), ("u2", "quality", "2")])], workers={"u1": "w1", "u2": "w2"}
    )
    comparative = evaluation(
        comparative=[
            (("d1", "emora"), ("d2", "blender2_3B"), "u3", "quality", 1),
            (("d3", "emora"), ("d4", "blender2_3B"), "u4", "quality", -1),
        ],
        workers={"u3": "w1", "u4": "w2"},
    )
    project = {
        "dialogue_collection": evaluation(likert=[("d1", "emora", [("s1", "quality", 5)])], workers={"s1": "st1"}),
        "surge_evaluation": evaluation(
            likert=[("d1", "emora", [("x1", "quality", 3)])],
            comparative=[(("d1", "emora"), ("d2", "blender2_3B"), "x2", "quality", 1)],
            workers={"x1": "sx1", "x2": "sx1"},
        ),
    }
    paths = {}
    for name, doc in {
        "likert": {"student_external_likert": likert},
        "comparative": {"student_external_comparative": comparative},
        "abc_eval": project,
    }.items():
        paths[name] = str(tmp_path / f"{name}.json")
        with open(paths[name], "w") as handle:
            json.dump(doc, handle)
    return paths


def test_public_files_split_into_configured_groups_with_string_scores(files):
    public = {k: v for k, v in files.items() if k != "abc_eval"}
    judgements, _ = load(public, "s", "groups", groups=GROUPS)
    likert = judgements[judgements["category"] == "likert"].set_index("side")["value"]
    assert likert.to_dict() == {"Devx": 4, "Stux": 2}
    pairwise = judgements[judgements["category"] == "pairwise"]
    assert len(pairwise) == 4 and set(pairwise["orientation"]) == {"primary", "mirror"}
    assert "w1" not in set(judgements["participant"])


def test_groups_can_be_given_by_pseudonym(files):
    from humeval.tidy import pseudonym

    public = {k: v for k, v in files.items() if k != "abc_eval"}
    groups = {**GROUPS, "Devx": {"pseudonyms": [pseudonym("w1", "s", prefix="W")]}}
    judgements, _ = load(public, "s", "groups", groups=groups)
    assert judgements[judgements["category"] == "likert"].set_index("side")["value"].to_dict() == {"Devx": 4, "Stux": 2}


def test_data_json_adds_stui_and_surx_and_the_surx_coverage_rule_applies(files):
    judgements, participants = load(files, "s", "groups", groups=GROUPS)
    assert set(judgements["side"]) == {"Devx", "Stux", "Stui", "Surx"}
    rule = [
        {
            "exclusion": "drop_uncovered",
            "name": "not_judged_by_surx",
            "params": {"reference": "Surx", "keys": {"likert": "item", "pairwise": "pair"}},
        }
    ]
    kept, log = apply_exclusions(judgements, participants, rule)
    # Surx compared only d1|d2: the Stux pair d3|d4 (both orientations) goes; every d1 Likert rating stays
    assert sorted(log["item"]) == ["d3|d4", "d4|d3"]
    assert set(kept.loc[kept["category"] == "likert", "side"]) == {"Devx", "Stux", "Stui", "Surx"}


def test_without_surx_the_coverage_rule_drops_nothing(files):
    public = {k: v for k, v in files.items() if k != "abc_eval"}
    judgements, participants = load(public, "s", "groups", groups=GROUPS)
    _, log = apply_exclusions(
        judgements,
        participants,
        [
            {
                "exclusion": "drop_uncovered",
                "params": {"reference": "Surx", "keys": {"likert": "item", "pairwise": "pair"}},
            }
        ],
    )
    assert log.empty


def test_unmirrored_pairwise_judgement_is_an_error(files, tmp_path):
    doc = json.loads(Path(files["comparative"]).read_text())
    dialogues = doc["student_external_comparative"]["dialogues"]
    dialogues["d2"]["comparative_annotations"]["quality"][0]["score"] = 1  # should be -1
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(doc))
    with pytest.raises(HumevalError, match="not stored mirrored"):
        load({"likert": files["likert"], "comparative": str(broken)}, "s", "g", groups=GROUPS)


def test_likert_score_out_of_range_names_dialogue_and_label(files, tmp_path):
    doc = json.loads(Path(files["likert"]).read_text())
    doc["student_external_likert"]["dialogues"]["d1"]["likert_annotations"]["quality"][0]["score"] = "9"
    broken = tmp_path / "likert9.json"
    broken.write_text(json.dumps(doc))
    with pytest.raises(HumevalError, match="dialogue 'd1', label 'quality': Likert score '9' is not 1..5"):
        load({"likert": str(broken), "comparative": files["comparative"]}, "s", "g", groups=GROUPS)
