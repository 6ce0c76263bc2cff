"""End to end: the Yao 2022 family (O, R1, R2, R3) from its four plain CSV exports, by config alone."""

import json
import re

import pandas as pd
import pytest
import yaml
from helpers import REPO

from humeval.config.load import load_study
from humeval.intermediate import kept_judgements, read_csv

STUDY = "yao-2022-storybook-qag"
MIRROR_QRA = "github/SamsungLabs/ReproNLP2026/e42008ac9275cf22f67b781263a1ce8ccbbd6944/qra"
pytestmark = pytest.mark.e2e
EXPERIMENTS = {"O", "R1", "R2", "R3"}
EXPERIMENT_ID = re.compile(r"^(O|R\d+)$")


@pytest.fixture(scope="module")
def audit(built):
    return pd.read_csv(built / "numbers.csv").set_index(["table", "row", "column"])


def cells(audit, table):
    """A table's cells of the experiments the papers printed (O, R1-R3): an experiment added to the study later
    (tests/test_e2e_added_study.py) adds rows these tests do not count."""
    part = audit.loc[table]
    tokens = part.index.get_level_values("row").astype(str).str.split("|")
    ours = [all(t in EXPERIMENTS for t in parts if EXPERIMENT_ID.match(t)) for parts in tokens]
    return part[ours]


@pytest.mark.parametrize("table,count", [("table1", 60), ("table2", 10), ("table3", 45)])
def test_every_published_cell_of_tables_1_to_3_matches(audit, table, count):
    part = cells(audit, table)
    assert len(part) == count and (part["status"] == "match").all(), part[part["status"] != "match"]


def test_table1_values(audit):
    t1 = cells(audit, "table1")
    assert t1.loc[("Readability|O", "GT_mean"), "value"] == pytest.approx(4.946281, abs=1e-6)  # 1197 / 242
    assert t1.loc[("Answer Relevance|R1", "QAG_mean"), "value"] == pytest.approx(3.2)
    assert t1.loc[("Readability|R2", "PAQ_sd"), "value"] == pytest.approx(1.43, abs=0.005)


def test_table4_t_and_df_match_and_unprinted_p_values_are_recomputed_only(audit):
    t4 = cells(audit, "table4")
    assert (t4.xs("t", level="column")["status"] == "match").all()
    assert t4.loc[("Readability|O", "df"), "value"] == 477 and t4.loc[("Readability|R3", "df"), "value"] == 478
    assert t4.loc[("Answer Relevance|R1", "t"), "value"] == pytest.approx(0.0, abs=1e-12)
    assert set(t4.index[t4["status"] == "recomputed_only"].get_level_values("column")) == {"p"}  # '< .01' cells


def test_table5_notebook_formula_matches_and_florescus_printed_rows_stay_published_only(audit):
    t5 = cells(audit, "table5")
    recomputed = t5[t5["published"].notna() & t5["value"].notna()]
    assert len(recomputed) == 31 and (recomputed["status"] == "match").all()
    printed = t5[t5.index.get_level_values("row").str.contains("R1 printed")]
    assert len(printed) == 13 and (printed["status"] == "published_only").all()
    assert printed["note"].str.startswith("[hypothesis]").all()
    standard = cells(audit, "table5_standard")
    ratio = standard.loc[("Readability|R2", "QAG"), "value"] / t5.loc[("Readability|R2", "QAG"), "value"]
    assert ratio == pytest.approx(1 / 0.7978845608, rel=1e-9)  # 1 / c4(2)


def test_the_val_variant_drops_23_sections_and_388_rows_in_o_and_r3(built, audit):
    counts = cells(audit, "counts")["value"]
    assert counts[("O_val_sections", "n")] == 23 and counts[("O_val_rows", "n")] == 388
    assert counts[("R3_val_sections", "n")] == 23 and counts[("R3_val_rows", "n")] == 388
    variants = pd.read_csv(built / "exclusions_variants.csv")
    assert set(variants["variant"]) == {"val"} and set(variants["rule"]) == {"val_sections"}
    val = cells(audit, "table3_val")
    assert len(val) == 90 and val["value"].notna().all()
    full = cells(audit, "table3")
    # fewer ratings without the val sections: the t test's df drops below the full data's 480
    assert val.loc[("R3|Readability|GT>QAG", "df"), "value"] < full.loc[("Readability|GT>QAG", "df"), "value"]


def test_missing_ratings_are_excluded_per_criterion_and_reconcile(built):
    tidy = read_csv(built / "tidy/judgements.csv")
    excluded = read_csv(built / "exclusions.csv")
    kept = kept_judgements(tidy, excluded)
    assert len(tidy) == len(kept) + len(excluded)  # every logged judgement is one tidy row, and no id is logged twice
    missing = excluded[excluded["rule"] == "missing_value"].groupby("side").size().to_dict()
    assert missing == {"O": 5, "R1": 3, "R2": 1}  # O 1/2/2, R1 1/1/1, R2 1; R3 none


def test_item_correlation_o_vs_r3(audit):
    ic = cells(audit, "item_correlation")
    for criterion in ("Readability", "Question Relevance", "Answer Relevance"):
        assert ic.loc[(criterion, "n"), "value"] == 361  # every QA pair rated in both
        assert 0 < ic.loc[(criterion, "kendall_tau"), "value"] < ic.loc[(criterion, "pearson_r"), "value"] < 1


def test_qra3_worked_check_and_both_tables(audit):
    n3 = cells(audit, "qra3_n3")["value"]
    assert n3[("Answer Relevancy|GT", "cv_star")] == pytest.approx(6.0004, abs=1e-4)
    assert n3[("Answer Relevancy|GT", "sd_ci_low")] == pytest.approx(-0.1498, abs=1e-4)
    assert n3[("Answer Relevancy|GT", "within_1sd")] == 3
    assert {("all|all", "cv_star"), ("all|all", "p_findings"), ("Readability|all", "kendall_w")} <= set(n3.index)
    n4 = cells(audit, "qra3_n4")["value"]
    assert not any(r.startswith(("Answer", "Question")) for r, _ in n4.index)  # n = 4: Readability only
    assert ("Readability|all", "alpha") in n4.index


def test_recomputed_qra3_inputs_equal_the_published_files(built, audit):
    for table in ("qra3_n3_input", "qra3_n4_input"):
        part = cells(audit, table)
        assert (part["status"] == "match").all() and len(part) in (27, 12)
    mirror = REPO.parent / "shared/raw" / MIRROR_QRA
    for n in (3, 4):
        exported = (built / f"qra3/qra3_n{n}/qra3_input.csv").read_text()
        if mirror.is_dir():
            assert exported == (mirror / f"metrics-{n}-studies.csv").read_text()  # same rows, order and digits
        config = json.loads((built / f"qra3/qra3_n{n}/qra3_config.json").read_text())["Yao2022"]
        assert config["scale_starts_at"] == 1 and config["type_iii_krippendorff_alpha_mode"] == "ordinal"
        assert list(config["experiments"]) == (["O", "R1", "R3"] if n == 3 else ["O", "R1", "R2", "R3"])


def test_the_study_uses_only_generic_loaders_and_metrics():
    from humeval.config.registry import entries

    study = load_study(REPO / "config/studies" / f"{STUDY}.yaml")
    assert {e["loader"] for e in study["extract"]} == {"tabular"}
    designs = {
        m["metric"]
        for m in study["metrics"]
        if entries("metric")[m["metric"]].module.startswith("humeval.metrics.designs")
    }
    assert not designs  # no metric written for one paper's design
    assert yaml.safe_load((REPO / "config/config.yaml").read_text())["studies"].count(STUDY) == 1


def test_every_study_with_a_qra3_entry_is_in_the_qra3_summary(full_run):
    summary = pd.read_csv(full_run / "results/summary/qra3.csv")
    studies = yaml.safe_load((full_run / "config/config.yaml").read_text())["studies"]
    with_qra3 = {
        name
        for name in studies
        if yaml.safe_load((full_run / "config/studies" / f"{name}.yaml").read_text()).get("qra3")
    }
    assert set(summary["study"]) == with_qra3
    # finch's original groups need the optional data.json: its QRA3 cells are empty, and the summary says why
    finch = summary[(summary["study"] == "finch-2024-evaluator-groups") & (summary["level"] == "criterion")]
    assert finch["cv_star"].isna().all() and finch["note"].str.contains("need two or more experiments").all()
    assert (full_run / "results/summary/figure_qra3.png").stat().st_size > 1000
