import copy

import pandas as pd
import pytest
from helpers import REPO

from humeval.aggregates import rank_count_rows
from humeval.config.load import load_study
from humeval.config.studyfile import read_yaml
from humeval.errors import HumevalError
from humeval.metrics.ranking import average_rank, rank_counts

SHARDLOW = REPO / "config/studies/shardlow-2019-clinical-simplification.yaml"


def test_average_rank_is_a_micro_average_by_hand():
    # system x: ranks 1, 1, 3 -> counts f(x,1)=2, f(x,3)=1 -> (1*2 + 3*1) / 3 = 5/3
    judgements = pd.DataFrame({"system": ["x", "x", "x", "y", "y", "y"], "value": [1, 1, 3, 2, 3, 2]})
    counts = rank_counts(judgements)
    assert counts.loc["x"].tolist() == [2, 0, 1] and counts.loc["y"].tolist() == [0, 2, 1]
    assert average_rank(counts).to_dict() == pytest.approx({"x": 5 / 3, "y": 7 / 3})


def test_published_aggregate_of_the_reproduction_validates():
    aggregate = read_yaml(SHARDLOW)["published_aggregates"][0]
    rank_count_rows(aggregate)  # the paper's R counts: every row and rank sums to 1000


def test_aggregate_whose_system_counts_do_not_sum_is_rejected():
    aggregate = copy.deepcopy(read_yaml(SHARDLOW)["published_aggregates"][0])
    aggregate["counts"]["NTS"][0] += 1
    with pytest.raises(HumevalError, match="system 'NTS' sum to 1001, expected total 1000"):
        rank_count_rows(aggregate)


def test_aggregate_whose_rank_counts_do_not_sum_is_rejected_at_config_load(tmp_path):
    import yaml

    study = read_yaml(SHARDLOW)
    counts = study["published_aggregates"][0]["counts"]
    counts["NTS"][0] += 1
    counts["NTS"][1] -= 1  # system still sums to 1000, but ranks 1 and 2 no longer do
    path = tmp_path / SHARDLOW.name
    path.write_text(yaml.safe_dump(study, sort_keys=False))
    with pytest.raises(HumevalError) as info:
        load_study(path)
    assert "published_aggregates.0" in str(info.value) and "rank 1 sum to 1001" in str(info.value)
