"""Config alone, one synthetic study per common export shape, read by the generic ``tabular`` loader:
long ratings (CSV), wide ratings (TSV, verbose headers), pairwise choices (JSON lines), best-worst (XLSX)
and rankings (CSV). Every number is worked out by hand and given as the 'published' value, so each
study's audit must say ``match`` everywhere."""

import hashlib
import io
import json

import pandas as pd
import pytest
import yaml
from helpers import copy_project, run_snakemake
from scale import LONG_PARAMS

pytestmark = pytest.mark.e2e
BASE = "https://raw.githubusercontent.com/example/shapes/0000000000000000000000000000000000000001/"


def csv(rows: list[dict], sep: str = ",") -> bytes:
    return pd.DataFrame(rows).to_csv(index=False, sep=sep).encode()


def xlsx(rows: list[dict]) -> bytes:
    buffer = io.BytesIO()
    pd.DataFrame(rows).to_excel(buffer, index=False, sheet_name="answers")
    return buffer.getvalue()


LONG = csv(
    [
        {"rater": r, "item": i, "system": s, "criterion": "fluency", "score": v}
        for r, i, s, v in [
            ("r1", "i1", "A", 4),
            ("r1", "i1", "B", 2),
            ("r2", "i1", "A", 5),
            ("r2", "i1", "B", 3),
            ("r1", "i2", "A", 3),
            ("r1", "i2", "B", ""),
        ]
    ]
)
WIDE = csv(
    [
        {"rater": r, "item": i, "system": s, "Fluency (1-5)": f, "Adequacy (how much meaning is kept, 1-5)": a}
        for r, i, s, f, a in [
            ("r1", "i1", "A", 4, 5),
            ("r1", "i1", "B", 2, 3),
            ("r2", "i1", "A", 5, 4),
            ("r2", "i1", "B", 3, 3),
        ]
    ],
    sep="\t",
)
PAIRWISE = "".join(
    json.dumps({"annotator": a, "pair": p, "left": "S1", "right": "S2", "choice": c}) + "\n"
    for a, p, c in [("a1", "p1", "left"), ("a1", "p2", "right"), ("a2", "p3", "left"), ("a2", "p4", "same")]
).encode()
BEST_WORST = xlsx(
    [
        {"tuple": t, "annotator": "b1", "system": s, "choice": c}
        for t, picks in [("t1", "A+ B- C D"), ("t2", "A+ C- B D"), ("t3", "B+ A- C D")]
        for s, c in [(x[0], {"+": "best", "-": "worst"}.get(x[1:], "none")) for x in picks.split()]
    ]
)
RANKINGS = csv(
    [
        {"judge": j, "item": "i1", "system": s, "rank": r}
        for j, ranks in [("j1", {"A": 1, "B": 2, "C": 3}), ("j2", {"A": 2, "B": 1, "C": 3})]
        for s, r in ranks.items()
    ]
)


def study(name, filename, data, params, systems, metrics, tables, published):
    return (
        name,
        filename,
        data,
        {
            "name": name,
            "title": f"synthetic {name}",
            "experiments": [{"id": "O", "label": "O", "citation": "synthetic"}],
            "raw": [
                {"id": "export", "url": BASE + filename, "sha256": hashlib.sha256(data).hexdigest(), "role": "export"}
            ],
            "extract": [{"side": "O", "loader": "tabular", "inputs": {"export": "export"}, "params": params}],
            "systems": [{"code": s, "label": s} for s in systems],
            "metrics": metrics,
            "tables": tables,
            "published": [{"table": t, "source": "worked out by hand", "cells": c} for t, c in published.items()],
        },
    )


def describe(table, by=("system",), column="{stat}"):
    return {
        "metric": "describe",
        "table": table,
        "by": list(by),
        "stats": ["mean"],
        "row": "{system}",
        "column": column,
    }


STUDIES = [
    study(
        "shape-long-ratings",
        "long.csv",
        LONG,
        LONG_PARAMS,
        ["A", "B"],
        [describe("means")],
        [{"id": "means", "rows": ["A", "B"], "columns": ["mean"]}],
        {"means": {"A": {"mean": "4.00"}, "B": {"mean": "2.50"}}},
    ),  # A (4+5+3)/3; B (2+3)/2, one empty cell
    study(
        "shape-wide-ratings",
        "wide.tsv",
        WIDE,
        {
            "participant": "rater",
            "item": ["item"],
            "system": "system",
            "criteria": {"fluency": {"pattern": "^fluency"}, "adequacy": {"pattern": "^adequacy"}},
        },
        ["A", "B"],
        [describe("means", by=("system", "criterion"), column="{criterion}")],
        [{"id": "means", "rows": ["A", "B"], "columns": ["fluency", "adequacy"]}],
        {"means": {"A": {"fluency": "4.50", "adequacy": "4.50"}, "B": {"fluency": "2.50", "adequacy": "3.00"}}},
    ),
    study(
        "shape-pairwise",
        "pairs.jsonl",
        PAIRWISE,
        {
            "shape": "long",
            "response_type": "pairwise",
            "participant": "annotator",
            "item": ["pair"],
            "system": "left",
            "system_b": "right",
            "criterion": "quality",
            "value": "choice",
            "value_map": {"left": 1, "right": -1, "same": 0},
        },
        ["S1", "S2"],
        [
            {
                "metric": "preference_shares",
                "table": "shares",
                "side": "O",
                "focus": "S1",
                "columns": {"focus": "S1", "equal": "equal", "baseline": "other"},
            }
        ],
        [{"id": "shares", "rows": ["S2"], "columns": ["S1", "equal", "other"]}],
        {"shares": {"S2": {"S1": "0.50", "equal": "0.25", "other": "0.25"}}},
    ),  # 2 of 4 left, 1 same, 1 right
    study(
        "shape-best-worst",
        "bws.xlsx",
        BEST_WORST,
        {
            "shape": "long",
            "sheet": "answers",
            "participant": "annotator",
            "item": ["tuple"],
            "system": "system",
            "criterion": "quality",
            "value": "choice",
            "value_map": {"best": 1, "worst": -1, "none": 0},
        },
        ["A", "B", "C", "D"],
        [describe("bws")],
        [{"id": "bws", "rows": ["A", "B", "C", "D"], "columns": ["mean"]}],
        # best - worst over appearances: A (1 + 1 - 1)/3, B (-1 + 0 + 1)/3, C (0 - 1 + 0)/3, D 0
        {"bws": {"A": {"mean": "0.33"}, "B": {"mean": "0.00"}, "C": {"mean": "-0.33"}, "D": {"mean": "0.00"}}},
    ),
    study(
        "shape-rankings",
        "ranks.csv",
        RANKINGS,
        {
            "shape": "long",
            "response_type": "rank",
            "participant": "judge",
            "item": ["item"],
            "system": "system",
            "criterion": "simplicity",
            "value": "rank",
            "judgement": ["judge", "item"],
        },
        ["A", "B", "C"],
        [{"metric": "rank_table", "table": "ranks", "sides": [{"side": "O", "avg_column": "avg"}]}],
        [{"id": "ranks", "rows": ["A", "B", "C"], "columns": ["avg"]}],
        {"ranks": {"A": {"avg": "1.50"}, "B": {"avg": "1.50"}, "C": {"avg": "3.00"}}},
    ),
]


def test_every_common_shape_builds_from_config_alone(tmp_path):
    mirror = tmp_path / "mirror"
    names = []
    workdir = copy_project(tmp_path / "project", [])
    for name, filename, data, config in STUDIES:
        target = mirror / "github" / (BASE + filename).split("raw.githubusercontent.com/")[1]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        (workdir / "config/studies" / f"{name}.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
        names.append(name)
    main = yaml.safe_load((workdir / "config/config.yaml").read_text())
    main["studies"] = names
    (workdir / "config/config.yaml").write_text(yaml.safe_dump(main, sort_keys=False))
    result = run_snakemake(workdir, "--config", f"raw_mirror={mirror}")
    assert result.returncode == 0, result.stderr[-3000:]
    for name in names:
        audit = pd.read_csv(workdir / "results" / name / "numbers.csv")
        assert (audit["status"] == "match").all(), (name, audit[audit["status"] != "match"])
    long_excluded = pd.read_csv(workdir / "results/shape-long-ratings/exclusions.csv")
    assert list(long_excluded["rule"]) == ["missing_value"]
    ranks = pd.read_csv(workdir / "results/shape-rankings/tidy/judgements.csv")
    assert ranks["judgement_id"].nunique() == 2  # a ranking is one judgement


def one_study_project(tmp_path, name: str, filename: str, data: bytes, config: dict):
    """A copy of the project with the one synthetic study ``config`` enabled and its export in a mirror: (workdir,
    the study file, the mirror)."""
    mirror = tmp_path / "mirror"
    target = mirror / "github" / (BASE + filename).split("raw.githubusercontent.com/")[1]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    workdir = copy_project(tmp_path / "project", [])
    main = yaml.safe_load((workdir / "config/config.yaml").read_text())
    main["studies"] = [name]
    (workdir / "config/config.yaml").write_text(yaml.safe_dump(main, sort_keys=False))
    path = workdir / "config/studies" / f"{name}.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return workdir, path, mirror


def one_mean_study(name: str, filename: str, data: bytes, params: dict, mean: str) -> dict:
    """The study file of one export of system A whose one published number is its mean (``means``, row A)."""
    tables = [{"id": "means", "rows": ["A"], "columns": ["mean"]}]
    return study(name, filename, data, params, ["A"], [describe("means")], tables, {"means": {"A": {"mean": mean}}})[3]


def no_tidy_table(workdir, name: str) -> bool:
    """Whether the run left no tidy table of study ``name`` (a refused extraction writes none)."""
    tidy = workdir / "results" / name / "tidy"
    return not tidy.exists() or not any(tidy.iterdir())


def test_a_where_number_against_items_spelt_010_is_one_line_and_the_quoted_text_selects(tmp_path):
    """``where: {item: 010}`` is the number ten in YAML 1.2 (a leading zero is no octal there); the export's items
    are the texts '010' and '10'. Through Snakemake: the metrics job stops in one line saying to quote it (it
    selected the rows of '10', silently), and the quoted '010' selects its own rows (mean by hand 3.0 of 2 and 4;
    '10' alone 5.0)."""
    data = csv(
        [
            {"rater": r, "item": i, "system": "A", "criterion": "fluency", "score": v}
            for r, i, v in [("r1", "010", 2), ("r2", "010", 4), ("r1", "10", 5), ("r2", "10", 5)]
        ]
    )
    name, filename = "shape-where-010", "where010.csv"
    entry = {**describe("means"), "where": {"item": "010"}}
    _, _, _, config = study(
        name,
        filename,
        data,
        LONG_PARAMS,
        ["A"],
        [entry],
        [{"id": "means", "rows": ["A"], "columns": ["mean"]}],
        {"means": {"A": {"mean": "3.00"}}},
    )
    workdir, path, mirror = one_study_project(tmp_path, name, filename, data, config)
    quoted = run_snakemake(workdir, "--config", f"raw_mirror={mirror}", "planning=false")
    assert quoted.returncode == 0, quoted.stderr[-3000:]
    audit = pd.read_csv(workdir / "results" / name / "numbers.csv")
    assert audit.loc[0, "value"] == pytest.approx(3.0) and audit.loc[0, "status"] == "match"

    path.write_text(path.read_text().replace("item: '010'", "item: 010"))
    assert "item: 010\n" in path.read_text()  # as a researcher writes it, unquoted
    number = run_snakemake(workdir, "--config", f"raw_mirror={mirror}", "planning=false")
    assert number.returncode != 0
    assert (
        "where item: 10 is a number and the column holds the text '010' with that value: quote the value as the "
        "export writes it ('010' or '10')" in number.stderr
    )
    assert "key metrics.0 (describe)" in number.stderr and "Traceback" not in number.stderr


def test_a_bare_reference_to_a_repeated_header_is_one_line_at_dry_run_and_its_pandas_name_reads(tmp_path):
    """A form that asks one question twice under one header (pandas reads ``Fluent?`` and ``Fluent?.1``): naming
    it bare is ambiguous, refused by ``-n`` in one line (the export is in the mirror, so its header is known
    before any job; the extract job refuses in the same words, humeval.loaders.headers), and ``{column:
    Fluent?.1}`` reads the second: mean by hand (5 + 3) / 2 = 4.0."""
    data = csv([{"rater": "r1", "id": "i1", "q": 4, "q2": 5}, {"rater": "r2", "id": "i1", "q": 2, "q2": 3}])
    data = data.replace(b"q,q2", b"Fluent?,Fluent?")
    name, filename = "shape-repeated-header", "form.csv"
    params = {**LONG_PARAMS, "item": ["id"], "value": "Fluent?", "criterion": {"value": "fluency"}}
    params["system"] = {"value": "A"}
    config = one_mean_study(name, filename, data, params, "4.00")
    workdir, path, mirror = one_study_project(tmp_path, name, filename, data, config)
    planned = run_snakemake(workdir, "-n", "--config", f"raw_mirror={mirror}")
    assert planned.returncode != 0
    assert (
        f"[{name}] config/studies/{name}.yaml: key extract.0.params.value: the header 'Fluent?' appears 2 times, "
        "which pandas names 'Fluent?' and 'Fluent?.1': name the one you mean as such" in planned.stdout + planned.stderr
    ), planned.stdout[-2000:] + planned.stderr[-2000:]
    assert "Traceback" not in planned.stdout + planned.stderr and not (workdir / "results").exists()

    config["extract"][0]["params"]["value"] = {"column": "Fluent?.1"}
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    result = run_snakemake(workdir, "--config", f"raw_mirror={mirror}", "planning=false")
    assert result.returncode == 0, result.stderr[-3000:]
    audit = pd.read_csv(workdir / "results" / name / "numbers.csv")
    assert audit.loc[0, "value"] == pytest.approx(4.0) and audit.loc[0, "status"] == "match"


def test_a_location_column_carried_from_an_export_stops_extraction_in_one_line(tmp_path):
    """Issue 54: a Qualtrics-style ``LocationLatitude`` carried under another name is refused by its export header
    (personal data no scrubber makes anonymous), in one line naming the column, with no tidy table written."""
    data = csv(
        [
            {"rater": r, "item": "i1", "system": "A", "criterion": "fluency", "score": v, "LocationLatitude": g}
            for r, v, g in [("r1", 4, "51.5072"), ("r2", 2, "48.8566")]
        ]
    )
    name, filename = "shape-location", "located.csv"
    config = one_mean_study(name, filename, data, {**LONG_PARAMS, "carry": {"place": "LocationLatitude"}}, "3.00")
    workdir, _, mirror = one_study_project(tmp_path, name, filename, data, config)
    result = run_snakemake(workdir, "--config", f"raw_mirror={mirror}", "planning=false")
    assert result.returncode != 0
    assert "carried column 'place' holds a location by its header (['place', 'LocationLatitude'])" in result.stderr
    assert "51.5072" not in result.stdout + result.stderr and "Traceback" not in result.stderr
    assert no_tidy_table(workdir, name)


def test_a_bootstrap_over_the_jobs_resampling_budget_stops_it_in_one_line_before_it_resamples(tmp_path):
    """Bradley-Terry's bootstrap, 10,000 resamples (the entry's bound) of 120 choices, is counted at 10,000 x
    (2.5e-3 + 4.4e-6 x 120) = 30.3 s, over the metrics job's 30 s (humeval.resampling): through Snakemake the job
    stops in one line naming the entry and how many resamples fit, int(30 / 0.003028) = 9,907, before it draws any
    (it would have taken about 23 CPU s at 2.3 ms a fit)."""
    data = "".join(
        json.dumps({"annotator": f"a{k % 6}", "pair": f"p{k}", "left": "S1", "right": "S2", "choice": choice}) + "\n"
        for k, choice in enumerate(["left", "right", "left"] * 40)
    ).encode()
    params = dict(STUDIES[2][3]["extract"][0]["params"])  # the pairwise shape's reading of the same JSON lines
    entry = {"metric": "choice_ratings", "table": "ratings", "method": "bradley_terry", "alpha": 0.1}
    entry |= {"resamples": 10_000, "seed": 1}
    name, filename = "shape-resampling-budget", "budget.jsonl"
    stats = ["strength", "log_strength"]
    table = [
        {"id": "ratings", "rows": ["S1", "S2"], "columns": stats + [f"{x}_{e}" for x in stats for e in ("low", "high")]}
    ]
    _, _, _, config = study(
        name, filename, data, params, ["S1", "S2"], [entry], table, {"ratings": {"S1": {"strength": "0.6"}}}
    )
    workdir, _, mirror = one_study_project(tmp_path, name, filename, data, config)
    run = run_snakemake(workdir, "--config", f"raw_mirror={mirror}", "planning=false")
    assert run.returncode != 0
    expected = (
        "key metrics.0 (choice_ratings): resamples: 10,000 resamples at about 0.00303 s each (counted, not timed) "
        "would take 30.3 s, over the 30 s left of the job's 30 s for resampling (resamples: 9,907 or fewer)"
    )
    assert expected in run.stderr and "Traceback" not in run.stderr, run.stderr[-3000:]
    assert not (workdir / "results" / name / "intermediate/metrics.csv").exists()


def test_a_raters_id_typed_as_the_answer_stops_extraction_in_one_line_without_quoting_it(tmp_path):
    """Issue 54: a rater who typed their worker number into the answer field (a count asked for without a scale, so
    no range check catches it) stops the extract job in one line naming the export and the row; the id is never
    printed, and no tidy table is written (a2219f7 carried the raw number into the tidy judgements' value)."""
    worker = "1700000114283657"
    rows = [("1700000114283657", 4), ("1700000114283658", 2), ("1700000114283658", 3), (worker, worker)]
    data = csv(
        [
            {"rater": r, "item": f"i{k}", "system": "A", "criterion": "errors", "score": v}
            for k, (r, v) in enumerate(rows)
        ]
    )
    name, filename = "shape-id-as-value", "answers.csv"
    params = {key: value for key, value in LONG_PARAMS.items() if key != "scale"}
    config = one_mean_study(name, filename, data, params, "3.00")
    workdir, _, mirror = one_study_project(tmp_path, name, filename, data, config)
    result = run_snakemake(workdir, "--config", f"raw_mirror={mirror}", "planning=false")
    assert result.returncode != 0
    expected = "column 'value' row 3 holds a participant's raw id (a rater typed it as the answer?)"
    assert f"data/raw/{name}/export.csv: {expected}" in result.stderr, result.stderr[-3000:]  # the file as fetched
    assert worker not in result.stdout + result.stderr and "Traceback" not in result.stderr
    assert no_tidy_table(workdir, name)
