"""End to end: the shardlow study from the Figure Eight export (mirror or network)."""

import pandas as pd
import pytest

STUDY = "shardlow-2019-clinical-simplification"
pytestmark = pytest.mark.e2e


def test_original_rank_counts_and_average_ranks_equal_table3(built):
    audit = pd.read_csv(built / "numbers.csv")
    original = audit[(audit["table"] == "table3") & audit["column"].str.endswith("_O")]
    assert len(original) == 20  # 16 counts + 4 averages
    assert (original["status"] == "match").all(), original[original["status"] != "match"]
    counts = original[original["column"].str.startswith("rank")]
    assert (counts["value"] == counts["published"]).all()  # counts equal exactly


def test_reproduction_averages_from_the_published_counts_match_and_counts_are_published_only(built):
    audit = pd.read_csv(built / "numbers.csv").set_index(["table", "row", "column"])
    assert audit.loc[("table3", "NTS+PT", "avg_R"), "value"] == pytest.approx((517 + 2 * 214 + 3 * 197 + 4 * 72) / 1000)
    assert audit.loc[("table3", "PTB", "rank4_R"), "status"] == "published_only"
    for system in ["NTS+PT", "NTS", "ORIG", "PTB"]:
        assert audit.loc[("table3", system, "avg_R"), "status"] == "match"


def test_exclusions_list_740_gold_and_20_invalid_rankings(built):
    exclusions = pd.read_csv(built / "exclusions.csv")
    assert exclusions["rule"].value_counts().to_dict() == {"gold": 740, "invalid_ranking": 20}
    assert exclusions.loc[exclusions["rule"] == "invalid_ranking", "item"].nunique() == 20
    counts = pd.read_csv(built / "tables/counts.csv").set_index("count")["n"]
    assert counts[["workers", "valid_rankings", "units", "workers_20_judgements"]].tolist() == [98, 980, 100, 76]


def test_interval_alpha_was_checked_against_ordinal_and_no_personal_data_leaks(built):
    audit = pd.read_csv(built / "numbers.csv").set_index(["table", "row", "column"])
    assert audit.loc[("table4", "iaa_original", "krippendorff_alpha"), "status"] == "recomputed_only"
    raw = pd.read_csv(built.parent.parent / "data/raw" / STUDY / "report.csv", dtype=str, keep_default_na=False)
    secrets = set(raw["_ip"]) | set(raw["_worker_id"]) | (set(raw["_city"]) - {""})
    for path in built.rglob("*.csv"):
        text = path.read_text()
        assert not [s for s in secrets if s and s in text], path
    assert (built / "figures/figure_ranks.png").is_file()
