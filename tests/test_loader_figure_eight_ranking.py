import pandas as pd
import pytest
from helpers import FIXTURES, REPO

from humeval.config.studyfile import read_yaml
from humeval.errors import HumevalError
from humeval.exclusions import apply_exclusions
from humeval.loaders.figure_eight_ranking import load
from humeval.metrics import StudyData
from humeval.metrics.ranking import rank_table_numbers

STUDY = read_yaml(REPO / "config/studies/shardlow-2019-clinical-simplification.yaml")
PARAMS = STUDY["extract"][0]["params"]
EXPORT = {"report": str(FIXTURES / "figure_eight_3_judgements.csv")}


def loaded(params=PARAMS):
    return load(EXPORT, "s", "original", **params)


def test_multiline_gold_cells_parse_into_three_judgements_of_four_slots():
    judgements, participants = loaded()
    assert judgements["judgement_id"].nunique() == 3 and len(judgements) == 12
    assert sorted(participants["judgements"]) == [1, 2]


def test_per_rank_sentence_index_is_inverted_into_a_rank_per_system():
    judgements, _ = loaded()
    ranks = judgements[judgements["judgement_id"] == "J7001"].set_index("system")["value"].to_dict()
    # rank 1 = sentence 3 (NTS+PT), rank 2 = sentence 2 (NTS), rank 3 = sentence 1 (ORIG), rank 4 = sentence 4 (PTB)
    assert ranks == {"NTS+PT": 1, "NTS": 2, "ORIG": 3, "PTB": 4}


def test_gold_and_tie_rankings_are_excluded_with_reasons():
    judgements, participants = loaded()
    kept, log = apply_exclusions(judgements, participants, STUDY["exclusions"])
    assert log.set_index("judgement_id")["rule"].to_dict() == {"J7003": "gold", "J7002": "invalid_ranking"}
    assert "1=ORIG, 2=ORIG" in log.set_index("judgement_id").loc["J7002", "reason"]
    assert set(kept["judgement_id"]) == {"J7001"}


def test_personal_data_and_worker_ids_never_leave_the_loader():
    judgements, participants = loaded()
    text = judgements.to_csv() + participants.to_csv()
    for secret in ("ip-fake", "Faketown", "REGION-FAKE", "11111111", "22222222"):
        assert secret not in text


def test_position_to_system_map_is_really_used():
    swapped = {**PARAMS, "position_systems": {1: "PTB", 2: "NTS", 3: "NTS+PT", 4: "ORIG"}}
    tables = []
    for params in (PARAMS, swapped):
        judgements, participants = loaded(params)
        kept, log = apply_exclusions(judgements, participants, STUDY["exclusions"])
        data = StudyData(kept=kept, tidy=judgements, participants=participants, exclusions=log, config=STUDY)
        numbers = rank_table_numbers(data, table="table3", sides=[STUDY["metrics"][0]["sides"][0]])
        tables.append(numbers.set_index(["row", "column"])["value"])
    assert tables[0][("ORIG", "avg_O")] == 3 and tables[0][("PTB", "avg_O")] == 4
    assert tables[1][("ORIG", "avg_O")] == 4 and tables[1][("PTB", "avg_O")] == 3


def test_answer_outside_the_sentence_indices_names_record_and_column(tmp_path):
    frame = pd.read_csv(EXPORT["report"], dtype=str, keep_default_na=False)
    frame.loc[1, "which_is_the_second_easiest_to_understand_statement"] = "5"
    bad = tmp_path / "bad.csv"
    frame.to_csv(bad, index=False)
    with pytest.raises(HumevalError) as info:
        load({"report": str(bad)}, "s", "original", **PARAMS)
    assert "record 2" in str(info.value) and "which_is_the_second_easiest" in str(info.value)


def test_missing_answer_column_is_named(tmp_path):
    frame = pd.read_csv(EXPORT["report"], dtype=str, keep_default_na=False)
    bad = tmp_path / "renamed.csv"
    frame.rename(columns={"_unit_id": "unit"}).to_csv(bad, index=False)
    with pytest.raises(HumevalError, match="_unit_id"):
        load({"report": str(bad)}, "s", "original", **PARAMS)
