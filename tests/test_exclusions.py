import pandas as pd

from humeval.exclusions import EXCLUSION_COLUMNS, apply_exclusions


def pairwise():
    rows = [
        # participant p1 chose the distractor (as B) in item t1q2: fails the attention check
        ("p1", "t1q1", "vae", "hrq", 1),
        ("p1", "t1q2", "golds", "distractor", -1),
        ("p1", "t1q3", "inputs", "golds", 1),
        ("p2", "t1q1", "vae", "hrq", -1),
        ("p2", "t1q2", "golds", "distractor", 1),
        ("p2", "t1q3", "inputs", "golds", -1),
    ]
    frame = pd.DataFrame(rows, columns=["participant", "item", "system", "system_b", "value"])
    return frame.assign(
        study="s",
        side="reproduction",
        response_type="pairwise",
        judgement_id=frame["participant"] + ":" + frame["item"],
    )


RULES = [
    {"exclusion": "attention_check", "params": {"distractor": "distractor"}},
    {"exclusion": "drop_systems", "name": "check_items", "params": {"systems": ["distractor", "inputs", "golds"]}},
]


def test_attention_failure_drops_the_whole_participant_and_logs_each_judgement():
    kept, log = apply_exclusions(pairwise(), pd.DataFrame(), RULES)
    assert list(log.columns) == EXCLUSION_COLUMNS
    failed = log[log["rule"] == "attention_check"]
    assert sorted(failed["judgement_id"]) == ["p1:t1q1", "p1:t1q2", "p1:t1q3"]
    assert failed["reason"].str.contains("t1q2").all()
    # p2's two check items are dropped by the second rule, and only p2's system judgement remains
    assert sorted(log.loc[log["rule"] == "check_items", "judgement_id"]) == ["p2:t1q2", "p2:t1q3"]
    assert kept["judgement_id"].tolist() == ["p2:t1q1"]


def test_no_failure_logs_nothing_for_the_attention_rule():
    data = pairwise()
    data = data[data["participant"] == "p2"]
    kept, log = apply_exclusions(data, pd.DataFrame(), RULES)
    assert (log["rule"] == "attention_check").sum() == 0
    assert len(kept) == 1


def test_invalid_permutation_drops_whole_ranking_once():
    ranks = pd.DataFrame(
        {
            "judgement_id": ["r1"] * 4 + ["r2"] * 4,
            "participant": ["w1"] * 4 + ["w2"] * 4,
            "item": ["u1"] * 8,
            "system": ["A", "B", "C", "D"] * 2,
            "value": [1, 2, 3, 4, 1, 1, 3, 4],
        }
    ).assign(study="s", side="original", response_type="rank", system_b="")
    kept, log = apply_exclusions(ranks, pd.DataFrame(), [{"exclusion": "invalid_permutation"}])
    assert log["judgement_id"].tolist() == ["r2"]
    assert "1=A, 1=B, 3=C, 4=D" in log["reason"].iloc[0]
    assert set(kept["judgement_id"]) == {"r1"}


def test_drop_where_reads_participant_metadata():
    data = pairwise()
    people = pd.DataFrame({"participant": ["p1", "p2"], "golden": ["true", "false"]})
    _, log = apply_exclusions(
        data,
        people,
        [
            {
                "exclusion": "drop_where",
                "name": "gold",
                "params": {"column": "golden", "values": ["true"], "reason": "test question"},
            }
        ],
    )
    assert set(log["participant"]) == {"p1"} and log["reason"].str.startswith("test question").all()


def test_complete_respondents_drops_every_judgement_of_a_participant_with_an_unanswered_question():
    judgements = pd.DataFrame(
        {
            "study": "s",
            "side": "O",
            "participant": ["p1", "p1", "p1", "p2", "p2", "p3"],
            "item": ["i1", "i2", "i3"] * 2,
            "judgement_id": [f"j{k}" for k in range(6)],
            "system": "A",
            "system_b": "",
            "response_type": "rating",
            "value": [4, None, 3, 5, 4, 2],
        }
    )
    people = pd.DataFrame({"participant": ["p1", "p2", "p3"]})
    kept, log = apply_exclusions(
        judgements, people, [{"exclusion": "complete_respondents", "name": "complete"}, {"exclusion": "missing_value"}]
    )
    assert sorted(kept["participant"].unique()) == ["p2", "p3"]
    assert log["judgement_id"].tolist() == ["j0", "j1", "j2"] and set(log["rule"]) == {"complete"}
    assert log["reason"].iloc[0] == "incomplete respondent: 1 question(s) unanswered"


def test_complete_respondents_needs_missing_value_after_it(tmp_path):
    import pytest
    import yaml
    from helpers import REPO

    from humeval.config.load import load_study
    from humeval.errors import HumevalError

    study = yaml.safe_load((REPO / ".test/config/studies/every-measure-2026-toy.yaml").read_text())
    variants = [entry for entry in study["exclusions"] if "variant" in entry]  # a metric names one
    study["exclusions"] = [{"exclusion": "complete_respondents"}, *variants]
    path = tmp_path / "every-measure-2026-toy.yaml"
    path.write_text(yaml.safe_dump(study))
    with pytest.raises(
        HumevalError, match=r"key exclusions\.0: complete_respondents needs missing_value listed after it"
    ):
        load_study(path)
    study["exclusions"].append({"exclusion": "missing_value"})
    path.write_text(yaml.safe_dump(study))
    assert load_study(path)["exclusions"][0]["exclusion"] == "complete_respondents"


def test_an_exclusion_for_a_side_no_judgement_has_stops_in_one_line():
    """sides: [R2] where the judgements have O and R1 applied the exclusion to nothing, silently; in a variant too."""
    import pandas as pd
    import pytest

    from humeval.errors import HumevalError
    from humeval.exclusions import apply_exclusions, variant_exclusions

    judgements = pd.DataFrame(
        {"judgement_id": ["j1", "j2"], "side": ["O", "R1"], "participant": ["p1", "p2"], "value": [1.0, None]}
    ).assign(study="s", item="i1")
    with pytest.raises(HumevalError, match=r"^exclusion late: sides \['R2'\] match no judgement; .* \['O', 'R1'\]$"):
        apply_exclusions(judgements, pd.DataFrame(), [{"exclusion": "missing_value", "name": "late", "sides": ["R2"]}])
    with pytest.raises(HumevalError, match=r"^exclusion missing_value: sides \['R2'\] match no judgement"):
        variant_exclusions(
            judgements, pd.DataFrame(), [{"exclusion": "missing_value", "sides": ["R2"], "variant": "v"}]
        )
    kept, log = apply_exclusions(judgements, pd.DataFrame(), [{"exclusion": "missing_value", "sides": ["R1"]}])
    assert kept["judgement_id"].tolist() == ["j1"] and log["judgement_id"].tolist() == ["j2"]
