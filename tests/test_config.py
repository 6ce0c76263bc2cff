from pathlib import Path

import pytest
import yaml
from helpers import REPO

from humeval.config.load import load_study, validate_against
from humeval.config.studyfile import raw_filename
from humeval.errors import HumevalError

HOSKING = REPO / "config/studies/hosking-2022-paraphrase-meaning.yaml"


def study_variant(source: Path, tmp_path: Path, change) -> Path:
    """A copy of a study file, changed, under its own name (the name must equal the file's)."""
    study = yaml.safe_load(source.read_text())
    change(study)
    path = tmp_path / source.name
    path.write_text(yaml.safe_dump(study, sort_keys=False))
    return path


def write_variant(tmp_path: Path, change) -> Path:
    return study_variant(HOSKING, tmp_path, change)


def test_every_enabled_study_validates():
    """As workflow/rules/common.smk does: the main config against its schema, then every enabled study's file."""
    config = yaml.safe_load((REPO / "config/config.yaml").read_text())
    validate_against(config, "config.schema.yaml", "config/config.yaml")
    studies = {name: load_study(REPO / "config/studies" / f"{name}.yaml") for name in config["studies"]}
    assert "hosking-2022-paraphrase-meaning" in studies


def test_missing_key_names_file_and_key(tmp_path):
    path = write_variant(tmp_path, lambda s: s["raw"][0].pop("sha256"))
    with pytest.raises(HumevalError) as info:
        load_study(path)
    message = str(info.value)
    assert str(path) in message and "key raw.0: needs 'sha256' or 'git_blob'" in message


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda s: s["raw"][0].pop("url"), r"key raw\.0\.url: 'url' is a required property"),
        (lambda s: s["raw"][1].update(sha256="abc"), r"key raw\.1\.sha256"),
        (lambda s: s["extract"][0].update(loader="excel_magic"), "unknown loader 'excel_magic'"),
        (lambda s: s["metrics"][0].update(metric="bleu"), "unknown metric 'bleu'"),
        (lambda s: s["extract"][0]["inputs"].update(items="nope"), "'nope' is not the id of a raw file"),
    ],
)
def test_a_broken_hosking_file_is_one_line_naming_the_key(tmp_path, change, expected):
    with pytest.raises(HumevalError, match=expected):
        load_study(write_variant(tmp_path, change))


def test_main_config_typo_is_caught():
    with pytest.raises(HumevalError, match=r"key raw_mirorr: unknown parameter; did you mean 'raw_mirror'\?"):
        validate_against({"studies": ["hosking-2022-paraphrase-meaning"], "raw_mirorr": "x"}, "config.schema.yaml", "x")


def test_raw_filename_keeps_id_and_suffix():
    assert raw_filename({"id": "database", "url": "https://x/y/Data%20Extraction/database.db"}) == "database.db"
    assert raw_filename({"id": "b7", "url": "https://x/Fluency%20of%20text%20(b7)(1-3).csv"}) == "b7.csv"


YAO = REPO / "config/studies/yao-2022-storybook-qag.yaml"


def yao_variant(tmp_path: Path, change) -> Path:
    return study_variant(YAO, tmp_path, change)


@pytest.mark.parametrize(
    "change, expected",
    [
        (
            lambda s: s["experiments"].append({"id": "R3", "label": "R99", "citation": "x"}),
            r"key experiments: experiment id\(s\) \['R3'\] used twice",
        ),
        (  # an unused id
            lambda s: s["experiments"].append({"id": "R99", "citation": "x"}),
            "experiment 'R99' has neither raw data",
        ),
        (lambda s: s["extract"][1].update(side="R9"), r"key extract\.1\.side: 'R9' is no experiment's label"),
        (
            lambda s: s["qra3"][1].update(experiments=["O", "R7"]),
            r"key qra3\.1\.experiments: \['R7'\] are not experiment ids",
        ),
    ],
)
def test_experiments_that_do_not_add_up_are_one_line(tmp_path, change, expected):
    with pytest.raises(HumevalError, match=expected):
        load_study(yao_variant(tmp_path, change))


def test_a_qra3_criterion_an_experiment_lacks_needs_a_rule(tmp_path):
    def change(study):
        study["qra3"][0]["experiments"] = ["O", "R1", "R2", "R3"]  # R2 rated readability only

    path = yao_variant(tmp_path, change)
    with pytest.raises(HumevalError, match=r"key qra3\.0\.criteria\.1: experiment\(s\) \['R2'\] did not evaluate"):
        load_study(path)

    def skip(study):
        change(study)
        study["qra3"][0]["missing"] = "skip_experiment"

    assert load_study(yao_variant(tmp_path, skip))["qra3"][0]["missing"] == "skip_experiment"


def test_qra3_tables_are_declared_for_the_audit():
    tables = [t["id"] for t in load_study(YAO)["tables"]]
    assert {"qra3_n3", "qra3_n3_pairwise", "qra3_n3_input", "qra3_n4"} <= set(tables)


@pytest.mark.parametrize(
    "change,expected",
    [
        (
            lambda s: s["metrics"][0].update(stat=["mean"]),
            r"key metrics\.0\.stat: unknown parameter; did you mean 'stats'\?",
        ),
        (
            lambda s: s["extract"][0]["params"].update(participnt="x"),
            r"key extract\.0\.params\.participnt: unknown parameter; did you mean 'participant'\?",
        ),
        (
            lambda s: s["exclusions"][1]["params"].update(patern="x"),
            r"key exclusions\.1\.params\.patern: unknown parameter; did you mean 'pattern'\?",
        ),
        (
            lambda s: s["figures"][0].update(ylable="x"),
            r"key figures\.0\.ylable: unknown parameter; did you mean 'ylabel'\?",
        ),
        (lambda s: s["metrics"][0].pop("row"), r"key metrics\.0: describe needs parameter\(s\) \['row'\]"),
        (
            lambda s: s["published"][0]["cells"].update({"Readability|R9": {"QAG_mean": "1.00"}}),
            r"row 'Readability\|R9' is not in table 'table1'; did you mean 'Readability\|R\d'\?",
        ),
        (
            lambda s: s["published"][1]["cells"]["O"].update(Readabilty="0.5"),
            r"column 'Readabilty' is not in table 'table2'; did you mean 'Readability'\?",
        ),
    ],
)
def test_a_typo_stops_validation_naming_the_key(tmp_path, change, expected):
    with pytest.raises(HumevalError, match=expected) as info:
        load_study(yao_variant(tmp_path, change))
    assert "yao-2022-storybook-qag.yaml" in str(info.value)


def test_a_claim_naming_an_undeclared_cell_is_rejected(tmp_path):
    def change(study):
        claims = next(e for e in study["qra"] if e["type"] == "claims")
        claims["claims"][0]["comparisons"][0]["left"]["row"] = "VAEE"

    with pytest.raises(HumevalError, match=r"key qra\.\d\.claims\.0\.comparisons\.0\.left: row 'VAEE' is not in table"):
        load_study(write_variant(tmp_path, change))


def test_a_misspelled_qra3_key_gets_a_close_match(tmp_path):
    path = yao_variant(tmp_path, lambda s: s["qra3"][0].update(scale_start_at=1))
    with pytest.raises(
        HumevalError, match=r"key qra3\.0\.scale_start_at: unknown parameter; did you mean 'scale_starts_at'\?"
    ):
        load_study(path)


def test_text_where_a_loader_expects_a_list_is_refused_naming_the_key(tmp_path):
    path = yao_variant(tmp_path, lambda s: s["extract"][0]["params"].update(item="item_id"))
    with pytest.raises(HumevalError, match=r"key extract\.0\.params\.item: expected a list, e\.g\. \[item_id\]"):
        load_study(path)


def test_a_reserved_carry_name_is_refused(tmp_path):
    path = yao_variant(tmp_path, lambda s: s["extract"][0]["params"].update(carry={"rater": "item_id"}))
    with pytest.raises(HumevalError, match=r"key extract\.0\.params\.carry\.rater: the name 'rater' is reserved"):
        load_study(path)


def test_duplicate_keys_and_alias_bombs_are_refused_in_one_line(tmp_path):
    text = YAO.read_text()
    twice = tmp_path / "yao-2022-storybook-qag.yaml"
    twice.write_text(text.replace("title:", "title: first\ntitle:", 1))
    with pytest.raises(HumevalError, match="key 'title' appears twice in one mapping") as caught:
        load_study(twice)
    assert "\n" not in str(caught.value)
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
    )
    twice.write_text(bomb + text)
    with pytest.raises(
        HumevalError,
        match=r"key i holds 490,3\d\d,\d\d\d of its values, its aliases expanded \(a study file holds at most 100,000\)",
    ):
        load_study(twice)


def test_a_published_block_may_target_a_qra3_table(tmp_path):
    def change(study):
        study["published"].append(
            {"table": "qra3_n3", "source": "the QRA3 tool", "cells": {"Readability|GT": {"sd_ci_high": "0.50"}}}
        )

    study = load_study(yao_variant(tmp_path, change))
    assert any(b["table"] == "qra3_n3" for b in study["published"])


def test_a_published_number_that_is_not_finite_is_refused_at_load(tmp_path):
    def change(study):
        study["published"][0]["cells"] = {
            row: {column: "1e999"}
            for row, columns in list(study["published"][0]["cells"].items())[:1]
            for column in list(columns)[:1]
        }

    with pytest.raises(HumevalError, match=r"'1e999' is not a finite number"):
        load_study(yao_variant(tmp_path, change))


def test_a_correlation_over_one_measurand_row_is_refused_in_one_whole_sentence(tmp_path):
    def change(study):
        entry = next(e for e in study["qra"] if e["type"] == "correlation")
        entry["rows"] = entry["rows"][:1]

    with pytest.raises(
        HumevalError, match=r"key qra\.\d+\.rows: a correlation needs two or more measurand rows, got \['"
    ):
        load_study(study_variant(REPO / "config/studies/hosking-2022-paraphrase-meaning.yaml", tmp_path, change))


def test_a_stray_key_in_a_figures_labels_is_refused(tmp_path):
    def change(study):
        study["figures"][0]["labels"] = {"reproductoin": "Reproduction"}

    with pytest.raises(
        HumevalError, match=r"key figures\.0\.labels\.reproductoin: not a column .*did you mean 'reproduction'"
    ):
        load_study(study_variant(REPO / "config/studies/hosking-2022-paraphrase-meaning.yaml", tmp_path, change))


def pairwise_intervals(ci_columns, add_columns=False):
    def change(study):
        entry = next(q for q in study["qra"] if q.get("table") == "table5_standard")
        entry["ci_columns"] = ci_columns
        if add_columns:
            table = next(t for t in study["tables"] if t["id"] == "table5_standard")
            table["columns"] += [c.format(system=s) for s in ("QAG", "PAQ", "GT") for c in ci_columns]

    return change


def test_cv_star_pairwise_intervals_name_their_columns_by_system_at_load(tmp_path):
    load_study(yao_variant(tmp_path, pairwise_intervals(["{system} low", "{system} high"], add_columns=True)))
    with pytest.raises(HumevalError, match=r"key qra\.\d+: column 'QAG low' is not in table 'table5_standard'"):
        load_study(yao_variant(tmp_path, pairwise_intervals(["{system} low", "{system} high"])))
    with pytest.raises(HumevalError, match=r"key qra\.\d+\.ci_columns: 'low' must name each system's column"):
        load_study(yao_variant(tmp_path, pairwise_intervals(["low", "{system} high"])))


def test_yaml_reads_on_off_yes_and_no_as_text_so_a_bare_on_key_is_the_key_on(tmp_path):
    """YAML 1.2 booleans: ``join: {on: item}`` holds the key 'on' (YAML 1.1 made it True, which passed -n and then
    failed at run time with KeyError 'on')."""
    from humeval.config.studyfile import read_yaml

    path = tmp_path / "s.yaml"
    path.write_text("join: {role: key, on: item_id, columns: [model]}\nflags: [yes, no, on, off, true, False]\n")
    assert read_yaml(path) == {
        "join": {"role": "key", "on": "item_id", "columns": ["model"]},
        "flags": ["yes", "no", "on", "off", True, False],
    }


def test_every_published_cell_that_names_no_table_cell_is_listed_in_one_line(tmp_path):
    def rename(study):
        study["published"][0]["cells"]["Latent BoW"] = study["published"][0]["cells"].pop("Latent BoW", {}) | {
            "relative preferance": "1"
        }
        study["published"][0]["cells"]["Nonesuch"] = {"a": "1", "b": "2"}

    with pytest.raises(HumevalError) as caught:
        load_study(write_variant(tmp_path, rename))
    message = str(caught.value)
    assert "\n" not in message and message.count("published.0.cells.") == 3, message
    assert "(and 2 more cell(s): published.0.cells.Nonesuch.a, published.0.cells.Nonesuch.b)" in message


TOY = REPO / ".test/config/studies/every-measure-2026-toy.yaml"


def with_derived_frame(study):
    study["derived"] = [
        {"id": "input_scores", "where": {"side": "P"}, "by": ["item", "system"], "reduce": "pairwise_score"},
        *study.get("derived", []),
    ]
    study["metrics"][0] = {
        "metric": "describe",
        "table": "tally",
        "frame": "input_scores",
        "by": ["system"],
        "row": "{system}",
        "column": "score",
    }


def test_a_metric_may_read_a_derived_frame_by_its_id(tmp_path):
    assert load_study(study_variant(TOY, tmp_path, with_derived_frame))["derived"][0]["id"] == "input_scores"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda s: s["metrics"][0].update(frame="input_score"), r"key metrics\.0\.frame: 'input_score' is not allowed"),
        (
            lambda s: s["derived"].append({"id": "x", "by": ["item"], "reduce": "total"}),
            r"key derived\.\d+\.reduce: unknown reducer 'total'",
        ),
        (
            lambda s: s["derived"].append({"id": "x", "from": "y", "by": ["item"], "reduce": "sum"}),
            r"key derived\.\d+\.from: 'y' is not kept, tidy",
        ),
        (
            lambda s: s["derived"].append({"id": "kept", "by": ["item"], "reduce": "sum"}),
            r"key derived\.\d+\.id: 'kept' is taken",
        ),
    ],
)
def test_derived_frames_are_checked_before_any_job_runs(tmp_path, change, expected):
    def derive(study):
        with_derived_frame(study)
        change(study)

    with pytest.raises(HumevalError, match=expected):
        load_study(study_variant(TOY, tmp_path, derive))


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({"A": {"better": 13, "worse": 7}, "B": {"better": 4, "same": 16}}, r"systems give different answers"),
        (
            {"A": {"better": 13, "same": 3, "worse": 5}, "B": {"better": 4, "same": 3, "worse": 13}},
            r"counts of system 'A' sum to 21, expected total 20",
        ),
        ({"A": [13, 7], "B": [4, 16]}, r"answer_counts give \{answer: count\} per system"),
    ],
)
def test_a_printed_count_table_is_checked_when_the_study_is_loaded(tmp_path, counts, expected):
    path = study_variant(TOY, tmp_path, lambda s: s["published_aggregates"][0].update(counts=counts))
    with pytest.raises(
        HumevalError, match=r"key published_aggregates\.0: published aggregate printed_choices: " + expected
    ):
        load_study(path)


def test_selecting_raters_through_a_column_copied_from_the_participant_column_gets_its_migration(tmp_path):
    """Before the identifier firewall a carried copy of the rater column held raw ids (0, 1, ...); since, it holds
    pseudonyms, so ``where: {slot: [0, 1]}`` matches nothing: -n says what to write instead."""
    toy = REPO / ".test/config/studies/every-measure-2026-toy.yaml"

    def change(study):
        study["extract"][0]["params"]["carry"] = {"slot": "rater"}
        study["metrics"][1]["where"] = {"side": "O", "slot": [0, 1]}

    with pytest.raises(HumevalError) as info:
        load_study(study_variant(toy, tmp_path, change))
    message = str(info.value)
    assert "key metrics.1.where.slot: 'slot' is built from the participant column" in message
    assert "where: {rater_number: [1, 2, ...]}" in message and "\n" not in message


TOY = REPO / ".test/config/studies/every-measure-2026-toy.yaml"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda s: s["derived"][0].update(by=["itme", "system"]),
            "key derived.0.by: no column 'itme' in the judgements; did you mean 'item'?",
        ),
        (
            lambda s: s["metrics"][0].update(frame="item_mean"),
            "key metrics.0.frame: 'item_mean' is not allowed; allowed: ['kept', 'tidy', 'best_item', ",
        ),
        (
            lambda s: next(m for m in s["metrics"] if m["metric"] == "k_sample_tests").update(order="firts"),
            ".order: 'firts' is not allowed; allowed: ['first', 'printed'] or a list",
        ),
    ],
)
def test_what_a_dry_run_can_know_is_one_line_naming_the_key(tmp_path, change, expected):
    with pytest.raises(HumevalError) as info:
        load_study(study_variant(TOY, tmp_path, change))
    assert expected in str(info.value) and "\n" not in str(info.value)


def test_claims_over_several_experiments_are_checked_at_load(tmp_path):
    def no_design_flag(study):
        study["experiments"][2].pop("design_only")

    with pytest.raises(HumevalError, match="an original known only from its design says design_only: true"):
        load_study(study_variant(TOY, tmp_path, no_design_flag))

    def table_lacks_a_column(study):
        table = next(t for t in study["tables"] if t["id"] == "claims")
        table["columns"].remove("R2_left")

    with pytest.raises(
        HumevalError, match=r"key qra\.0\.sides: the table 'claims' lacks the column\(s\) \['R2_left'\]"
    ):
        load_study(study_variant(TOY, tmp_path, table_lacks_a_column))
    with pytest.raises(HumevalError, match=r"key planning\.pilot: 'R7' is not an experiment id"):
        load_study(study_variant(TOY, tmp_path, lambda s: s.update(planning={"pilot": "R7"})))
    load_study(study_variant(TOY, tmp_path, lambda s: s.update(planning={"pilot": "R1", "labels": {"R1": "R1"}})))


def test_a_table_that_relied_on_score_among_the_tally_defaults_gets_its_migration(tmp_path):
    def change(study):
        tally = next(m for m in study["metrics"] if m["metric"] == "pairwise_tally" and m["table"] == "tally")
        tally.pop("stats")
        next(t for t in study["tables"] if t["id"] == tally["table"])["columns"].append("score")

    with pytest.raises(HumevalError, match=r"key metrics\.\d+\.stats: the table 'tally' has a score column") as info:
        load_study(study_variant(TOY, tmp_path, change))
    assert "add stats: [wins, losses, ties, n, win_pct, bws, bws_scaled, score]" in str(info.value)


def test_planning_labels_as_docs_planning_md_once_showed_them_load():
    """docs/planning.md showed ``labels: {original: O}`` while validation refused it: both forms load now."""
    for labels in ({"original": "O"}, {"O": "O", "reproduction": "R1"}):
        study = yaml.safe_load(TOY.read_text())
        study["planning"] = dict(study.get("planning", {}), labels=labels)
        assert load_study(write_study(study))["planning"]["labels"] == labels


def write_study(study: dict) -> Path:
    import tempfile

    folder = Path(tempfile.mkdtemp())
    path = folder / f"{study['name']}.yaml"
    path.write_text(yaml.safe_dump(study, sort_keys=False))
    return path


def test_study_files_are_read_with_yaml_1_2_core_scalars(tmp_path):
    """YAML 1.1 (PyYAML's default) read 010 as octal 8, 1:20 as base-60 80 and 1_000 as 1000: silent wrong numbers
    in a study file. YAML 1.2's core schema reads 010 as ten and the others as text, which validation then names."""
    from humeval.config.studyfile import read_yaml

    path = tmp_path / "forms.yaml"
    path.write_text("a: 010\nb: 1:20\nc: 1_000\nd: 0o17\ne: 0x1F\nf: 2.5e-3\ng: on\nh: 2024-05-01\ni: 1_000.5\n")
    assert read_yaml(path) == {
        "a": 10,
        "b": "1:20",
        "c": "1_000",
        "d": 15,
        "e": 31,
        "f": 0.0025,
        "g": "on",
        "h": "2024-05-01",
        "i": "1_000.5",
    }
    variant = tmp_path / TOY.name
    variant.write_text(TOY.read_text().replace("scale: [1, 5]", "scale: [1, 1_0]", 1))
    with pytest.raises(HumevalError, match=r"key extract\.0\.params\.scale"):
        load_study(variant)


def test_the_participant_column_is_never_read_as_a_value_criterion_or_system(tmp_path):
    def change(study):
        study["extract"][0]["params"]["system"] = {"column": "rater"}

    with pytest.raises(HumevalError, match=r"key extract\.0\.params\.system: 'rater' is the participant column"):
        load_study(study_variant(TOY, tmp_path, change))
    with pytest.raises(HumevalError, match=r"key extract\.0\.params\.criteria\.quality: 'rater' is the participant"):
        load_study(
            study_variant(TOY, tmp_path, lambda s: s["extract"][0]["params"].update(criteria={"quality": "rater"}))
        )


def test_a_finding_that_names_no_side_is_refused_before_planning_gives_it_power(tmp_path):
    """yao's Y1 with every ``{side}`` written as ``O`` reads O's cells in every experiment: planning from R3 would
    never change them (it showed power 1.0); refused at load, naming the key and what to write."""

    def change(study):
        finding = study["planning"]["findings"][0]
        for comparison in finding["comparisons"]:
            for side in ("left", "right"):
                comparison[side]["row"] = comparison[side]["row"].replace("{side}", "O")
        finding["significance"]["p"]["row"] = finding["significance"]["p"]["row"].replace("{side}", "O")

    with pytest.raises(
        HumevalError, match=r"key planning\.findings\.0 \(Y1\): no cell it reads names \{side\}"
    ) as info:
        load_study(yao_variant(tmp_path, change))
    assert 'row: "{side}"' in str(info.value) and "\n" not in str(info.value)


def test_every_schema_problem_of_a_file_is_listed_at_once(tmp_path):
    """Three mistakes in one study file: one refusal naming all three (it named the first and "1 more problem(s)",
    so a researcher ran -n once per mistake); more than ten are counted past the tenth."""

    def three(study):
        study["title"] = 5
        study["experiments"][0]["label"] = ["O"]
        study["extract"][0]["loader"] = 7

    with pytest.raises(HumevalError) as info:
        load_study(study_variant(TOY, tmp_path, three))
    message = str(info.value)
    assert message.count("key ") >= 3 and "problems: " in message and "\n" not in message
    for key in ("key title:", "key experiments.0.label:", "key extract.0.loader:"):
        assert key in message, message

    def twelve(study):
        for entry in study["metrics"][:12]:
            entry["table"] = 5

    (tmp_path / "more").mkdir()
    with pytest.raises(HumevalError, match=r"^.*12 problems: .*; and 2 more problem\(s\)$"):
        load_study(study_variant(TOY, tmp_path / "more", twelve))


def test_a_claim_whose_sides_share_a_text_is_refused_naming_them(tmp_path):
    """``sides: {O: O, R1: O}`` (a copy-paste slip) judged R1 on O's cells with no message (issue 52)."""

    def slip(study):
        entry = next(e for e in study["qra"] if e["type"] == "claims" and isinstance(e.get("sides"), dict))
        entry["sides"] = {"O": "O", "R1": "O", "R2": "R2"}

    with pytest.raises(HumevalError, match=r"sides: experiments \['O', 'R1'\] both read the cells of \{side\} = 'O'"):
        load_study(study_variant(TOY, tmp_path, slip))


def test_a_pinned_file_no_stage_reads_is_refused_unless_declared_documentation(tmp_path):
    """A raw file pinned and read by nothing passed silently (issue 51: a study whose exports no extract read
    was then called reproduced from its published numbers alone); a task text kept for the reader says so."""

    def pinned(study, documentation):
        extra = {**study["raw"][0], "id": "codebook", "role": "the task text shown to raters"}
        study["raw"].append({**extra, **({"documentation": True} if documentation else {})})

    with pytest.raises(HumevalError, match=r"key raw\.\d+ \(codebook\): no extract entry, datasheet or published file"):
        load_study(study_variant(TOY, tmp_path, lambda s: pinned(s, False)))
    (tmp_path / "kept").mkdir()
    assert load_study(study_variant(TOY, tmp_path / "kept", lambda s: pinned(s, True)))["raw"][-1]["documentation"]


def test_a_planning_finding_with_a_claims_id_is_refused_naming_both(tmp_path):
    """arvan's first try planned A2t under the id of its claim: it loaded, then the summary job died ("setting an
    array element with a sequence"); ids of claims and planning findings are one namespace (issues 52, 53)."""

    def twice(study):
        claim = next(e for e in study["qra"] if e["type"] == "claims")["claims"][0]
        study.setdefault("planning", {}).setdefault("findings", []).append({**claim})

    with pytest.raises(
        HumevalError, match=r"key planning\.findings\.\d+\.id: 'C1' is also the id of qra\.\d+\.claims\.0"
    ):
        load_study(study_variant(TOY, tmp_path, twice))


def test_a_design_only_original_first_in_a_claims_sides_is_not_asked_for_cells():
    """An original known only from its design has no cells: the claims' cells are checked on the first experiment
    with numbers (a design-only original listed first was refused, issue 51)."""
    from humeval.config.cells import check_claim_cells

    study = {
        "experiments": [{"id": "O", "design_only": True}, {"id": "R1"}],
        "tables": [{"id": "claims", "columns": ["O", "O_left", "O_right", "R1", "R1_left", "R1_right"]}],
    }
    entry = {
        "table": "claims",
        "sides": {"O": "O", "R1": "R1"},
        "claims": [
            {
                "id": "K",
                "comparisons": [{"left": {"table": "t", "row": "{side}", "column": "a"}, "op": ">", "right": 0}],
            }
        ],
    }
    asked = []
    check_claim_cells(study, entry, 0, lambda table, row, column, path: asked.append(row), pytest.fail)
    assert asked == ["R1"]


def test_a_rater_selection_by_pseudonym_is_said_at_every_start_with_what_to_write():
    """Issue 51: a pseudonym is keyed with the study's name and raw files; a ``where`` on ``participant`` keeps its
    numbers and gets one line naming its key, and a pseudonym that matches no one says why in the job's line."""
    import pandas as pd

    from humeval.config.load import changed_default_notices
    from humeval.errors import HumevalError
    from humeval.metrics import filter_where

    study = {
        "planning": {"simulations": 200},
        "metrics": [{"where": {"participant": ["Pab12cd34ef"]}}, {"where": {"side": "O"}}],
        "derived": [{"where": {"side": "O", "participant": "Pab12cd34ef"}}],
    }
    lines = changed_default_notices("s", study)
    assert [line.split(" selects")[0] for line in lines] == [
        "s: key metrics.0.where.participant",
        "s: key derived.0.where.participant",
    ]
    assert all("where: {rater_number: [...]}" in line for line in lines)
    frame = pd.DataFrame({"participant": ["Pab12cd34ef", "P0000000000"], "value": [1, 2]})
    assert len(filter_where(frame, {"participant": "Pab12cd34ef"}, frame)) == 1
    with pytest.raises(HumevalError, match="pseudonyms are keyed with the study's name and raw files"):
        filter_where(frame, {"participant": ["P1111111111"]}, frame)


TOY = REPO / ".test/config/studies/every-measure-2026-toy.yaml"


def arithmetic_cell(study) -> dict:
    return next(m for m in study["metrics"] if m["metric"] == "cell_arithmetic")["cells"][0]


@pytest.mark.parametrize(
    "change,expected",
    [
        (lambda s: arithmetic_cell(s).pop("row"), "cells.0: the cell lacks ['row']"),
        (lambda s: arithmetic_cell(s).update(op=["-"]), "cells.0.op: ['-'] is not one of"),
        (lambda s: arithmetic_cell(s).update(op="**"), "cells.0.op: '**' is not one of"),
        (lambda s: arithmetic_cell(s).update(right="1"), "cells.0.right: an operand is a number or a cell"),
        (lambda s: arithmetic_cell(s).update(right=int("9" * 401)), "right: a number of a study file must be finite"),
        (lambda s: s["planning"]["effects"].update(P2=float("nan")), "key planning.effects.P2: a number of a study"),
        (lambda s: s["planning"]["components"]["P3"].update(item=float("inf")), "components.P3.item: a number"),
        (lambda s: s["planning"]["effects"].update(P9=0.4), "key planning.effects.P9: no finding has the id 'P9'"),
        (lambda s: s["tables"][0].update(key={"K" * 400_000: "k"}), "a key or text of a study file is at most"),
        (lambda s: s["tables"][0].update(title="t" * 10_001), "key tables.0.title: a key or text of a study"),
        (
            lambda s: s["published"][0]["cells"].update({"x": {"y": "1e-400"}}),
            "cells.x.y: published value '1e-400' is below the smallest number a double holds",
        ),
    ],
)
def test_keys_that_failed_minutes_later_are_one_line_at_load(tmp_path, change, expected):
    """Issue 52: each case passed ``-n`` and stopped a job minutes later (or made every power 0.0)."""

    def changed(study):
        study["metrics"] = [
            m if m["metric"] != "cell_arithmetic" else {**m, "cells": [dict(c) for c in m["cells"]]}
            for m in study["metrics"]
        ]
        change(study)

    with pytest.raises(HumevalError) as info:
        load_study(study_variant(TOY, tmp_path, changed))
    assert expected in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_the_arithmetic_operations_validation_knows_are_the_metrics():
    from humeval.config.load import ARITHMETIC_OPERATIONS
    from humeval.metrics.arithmetic import OPERATIONS

    assert set(ARITHMETIC_OPERATIONS) == set(OPERATIONS)


def explaining_block(study) -> dict:
    return next(b for b in study["published"] if "explains" in b)


@pytest.mark.parametrize(
    "change,expected",
    [
        (lambda b: b.pop("note"), "explains: it limits the block's note to some cells, and the block has no note"),
        (lambda b: b["explains"].update(columns=["mena"]), "explains.columns: ['mena'] are not columns of the block"),
        (
            lambda b: b["explains"].update(rows=["R2"]),
            "explains.rows: ['R2'] are not rows of the block's cells (['R1'])",
        ),
        (lambda b: b["explains"].update(columns=[]), "explains.columns: [] should be non-empty"),
        (
            lambda b: b["explains"].update(cells=["mean"]),
            "explains.cells: unknown parameter; (allowed: columns, rows)",
        ),
    ],
)
def test_a_block_notes_scope_names_its_own_cells(tmp_path, change, expected):
    """Issue 51: a block's note explains only the cells its ``explains`` names; a scope naming no cell of the block,
    or limiting a note the block lacks, is one line at load."""
    with pytest.raises(HumevalError) as info:
        load_study(study_variant(TOY, tmp_path, lambda s: change(explaining_block(s))))
    assert expected in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_a_block_note_explains_only_the_cells_it_names():
    """The toy's truncation note names the column mean: R1's mean carries it, R1's SD does not; without
    ``explains`` the note covers every cell of the block (the default every earlier study file relies on)."""
    from humeval.published import published_frame

    block = explaining_block(yaml.safe_load(TOY.read_text()))
    notes = published_frame([block]).set_index("column")["note"]
    assert notes["mean"].startswith("[explained] The paper truncated") and notes["sd"] == ""
    whole = published_frame([{k: v for k, v in block.items() if k != "explains"}]).set_index("column")["note"]
    assert whole["sd"] == whole["mean"] == notes["mean"]


PUDUPPULLY = REPO / "config/studies/puduppully-2021-macro-planning.yaml"


def without_column(table_id: str, column: str):
    def change(study):
        table = next(t for t in study["tables"] if t["id"] == table_id)
        table["columns"] = [c for c in table["columns"] if c != column]

    return change


@pytest.mark.parametrize(
    "change,expected",
    [
        (
            without_column("anova", "df_between"),
            "key metrics.24.column: k_sample_tests writes 'df_between' (statistic 'df_between'), which is not a column",
        ),
        (
            without_column("trueskill", "conservative"),
            "key metrics.31.column: choice_ratings writes 'conservative' (statistic 'conservative'), which is not",
        ),
        (  # with resamples, each statistic's bounds (the printed mu bounds are labelled low and high)
            without_column("trueskill", "sigma_low"),
            "key metrics.31.column: choice_ratings writes 'sigma_low' (statistic 'sigma_low')",
        ),
        (  # a label names the statistic: the table must have the label ('Stdev'), not 'sd'
            lambda s: s["metrics"][28]["labels"]["stat"].update(sd="SD"),
            "key metrics.28.column: describe writes 'SD' (statistic 'sd'), which is not a column of table",
        ),
    ],
)
def test_a_statistic_a_metric_writes_outside_its_table_is_one_line_at_load(tmp_path, change, expected):
    """Issue 52: an ANOVA table or TrueSkill statistic with no column in its table stopped the audit after every
    metric had run (puduppully's TrueSkill bootstrap alone is a minute)."""
    with pytest.raises(HumevalError) as info:
        load_study(study_variant(PUDUPPULLY, tmp_path, change))
    assert expected in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_the_statistics_a_test_writes_are_the_ones_the_check_expects():
    """:data:`TEST_STATS` is what :func:`k_sample_tests` writes, test by test (the check reads the constant)."""
    from humeval.metrics.choice_ratings import choice_rating_numbers, choice_stats
    from humeval.metrics.significance import TEST_STATS, k_sample_tests

    samples = {"a": [1.0, 2, 3, 4], "b": [2.0, 3, 5, 4], "c": [6.0, 7, 8, 6]}
    for test, stats in TEST_STATS.items():
        written = list(dict.fromkeys(stat for _, stat, _ in k_sample_tests(samples, [test])))
        assert written == list(stats), test
    assert choice_rating_numbers.__name__ and choice_stats("trueskill", 10)[-1] == "conservative_high"
