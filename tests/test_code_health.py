"""Code health, checked like tests so CI runs them: ruff (lint and format), snakefmt, snakemake --lint,
and the catalogue-style test configuration in ``.test/`` (lint, dry run and a full run in seconds).

These run first (``conftest.py`` orders the ``checks`` marker before everything else). The tools come from
``requirements-dev.txt``; without them the checks skip, and under ``CI=true`` fail.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from helpers import CI_LIMIT, REPO, skip_or_fail, trueskill_in_order

from humeval.stages import stage_sources

pytestmark = pytest.mark.checks
SNAKEMAKE_FILES = ["Snakefile", "workflow/Snakefile", "workflow/rules"]


def run(*command, cwd=REPO, timeout=CI_LIMIT, env=None):
    return subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False, env=env)


def tool(name):
    path = shutil.which(name, path=str(REPO / ".venv/bin")) or shutil.which(name)
    if path is None:
        skip_or_fail(f"{name} is not installed (pip install -r requirements-dev.txt)")
    return path


def test_ruff_finds_nothing():
    result = run(tool("ruff"), "check", "--output-format", "concise", ".")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-1000:]


def test_ruff_format_would_change_nothing():
    result = run(tool("ruff"), "format", "--check", ".")
    assert result.returncode == 0, result.stdout[-3000:]


def test_snakefmt_would_change_nothing():
    result = run(tool("snakefmt"), "--check", *SNAKEMAKE_FILES)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def test_snakemake_lint_is_clean():
    result = run(sys.executable, "-m", "snakemake", "--lint")
    assert result.returncode == 0 and "good condition" in result.stdout + result.stderr, result.stdout + result.stderr


@pytest.fixture(scope="module")
def dot_test(tmp_path_factory):
    """A throw-away copy of ``.test/``, so runs leave the checkout clean (it holds no symlink: a copy runs as is)."""
    target = tmp_path_factory.mktemp("dottest") / ".test"
    shutil.copytree(REPO / ".test", target, ignore=shutil.ignore_patterns("results", "data", ".snakemake"))
    return target


def snakemake_in(directory, *args, env=None):
    return run(
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(directory),
        *args,
        env=env,
    )


#: Put first on PYTHONPATH, this records, as each Python process of a run ends, its command line and the files of
#: the ``humeval`` modules it loaded: what each job really ran, to hold its code inputs against.
RECORD_MODULES = """
import atexit, os, sys
def record():
    files = [getattr(m, "__file__", None) for n, m in list(sys.modules.items()) if n.split(".")[0] == "humeval"]
    with open(os.path.join({folder!r}, f"{{os.getpid()}}.txt"), "w") as out:
        out.write("\\n".join([" ".join(sys.argv), *sorted(filter(None, files))]))
atexit.register(record)
"""


def loaded_modules_by_stage(folder):
    """{stage: the package files its jobs loaded}, from the records of :data:`RECORD_MODULES` (a script job runs
    Snakemake's copy of the script, ``.snakemake/scripts/tmp<random>.<stage>.py``)."""
    loaded = {}
    for record in folder.glob("*.txt"):
        command, *files = record.read_text().splitlines()
        script = re.search(r"scripts/tmp\w+\.(\w+)\.py", command)
        if script:
            loaded.setdefault(script.group(1), set()).update(map(Path, files))
    return loaded


@pytest.mark.slow  # a full Snakemake run of .test/: CI runs it
def test_the_dot_test_lints_dry_runs_and_runs(dot_test, tmp_path):
    lint = snakemake_in(dot_test, "--lint")
    assert lint.returncode == 0 and "good condition" in lint.stdout + lint.stderr, lint.stdout + lint.stderr
    dry = snakemake_in(dot_test, "-n", "--quiet")
    assert dry.returncode == 0, dry.stderr[-3000:]
    (tmp_path / "site").mkdir()
    (tmp_path / "records").mkdir()
    (tmp_path / "site/sitecustomize.py").write_text(RECORD_MODULES.format(folder=str(tmp_path / "records")))
    paths = [str(tmp_path / "site"), os.environ.get("PYTHONPATH")]
    full = snakemake_in(dot_test, "--cores", "2", env=os.environ | {"PYTHONPATH": os.pathsep.join(filter(None, paths))})
    assert full.returncode == 0, full.stderr[-3000:]
    # every package module a job loaded is among its rule's code inputs (humeval.stages, derived from its script)
    loaded = loaded_modules_by_stage(tmp_path / "records")
    assert set(loaded) >= {"extract", "exclude", "metrics", "qra", "tables", "figures", "planning", "summary"}
    for stage, files in loaded.items():
        stale = files - set(stage_sources(REPO / f"workflow/scripts/{stage}.py"))
        assert not stale, f"{stage}: its jobs ran {sorted(map(str, stale))}, which its code inputs miss"
    report = snakemake_in(dot_test, "--report", "results/report.html")  # the profile's stylesheet found from here
    assert report.returncode == 0, report.stderr[-3000:]
    assert "div:has(> #rulegraph)" in (dot_test / "results/report.html").read_text(errors="ignore")
    # the study that gives every otherwise unused metric its documented example: all 166 numbers worked out by hand
    # (among them a derived frame, raters chosen by number, a claim judged in three experiments, the ANOVA table,
    # Dunn's test, a t interval, arithmetic on cells, agreement with the majority and a complete-respondents variant, read through
    # Snakemake)
    toy = pd.read_csv(dot_test / "results/every-measure-2026-toy/numbers.csv")
    # (published only: 6, and the 3 printed numbers of printed_means, which no judgements compute: P3's table)
    assert toy["status"].value_counts().to_dict() == {
        "match": 165,
        "recomputed_only": 88,
        "published_only": 9,
        "mismatch": 1,
    }
    # R1's agreement mean 2/3 printed truncated, "0.666": explained by its block's note, which names that column
    truncated = toy.set_index(["table", "row", "column"]).loc[("agreement", "R1", "mean")]
    assert truncated["status"] == "mismatch" and truncated["note"].startswith("[explained] The paper truncated")
    # planning's crossed model at the assumed effect 0.5 and the stated components, 3 people x 4 items x 6 (each
    # item rated by all three for each system): by hand, Var(d) = 2(0.3)/4 + 2(0.4)/12 + 2(0.1)/3 (the evaluator
    # intercept cancels), E[s^2] = 12/11 (1 - (0.2/3 + 0.1/3 + 0.3/4 + 0.4/12)), SE = sqrt(E[s^2] 2/12), and
    # power = Phi((0.5 - t_0.975,22 SE) / sd(d)) = 0.2950
    import numpy as np
    from scipy.stats import norm
    from scipy.stats import t as t_dist

    power = pd.read_csv(dot_test / "results/every-measure-2026-toy/planning/power.csv")
    row = power.query("finding == 'P2' and design == 'planned' and basis == 'assumed' and items == 4").iloc[0]
    assert (row["evaluators"], row["judgements_per_item"], row["effect"]) == (3, 6, 0.5)
    sd = np.sqrt(2 * 0.3 / 4 + 2 * 0.4 / 12 + 2 * 0.1 / 3)
    se = np.sqrt(12 / 11 * (1 - (0.2 / 3 + 0.1 / 3 + 0.3 / 4 + 0.4 / 12)) * 2 / 12)
    closed = norm.sf((t_dist.ppf(0.975, 22) * se - 0.5) / sd)
    assert round(closed, 4) == 0.2950 and row["analytic_power"] == pytest.approx(closed, rel=1e-9)
    assert row["ci_low"] <= closed <= row["ci_high"], row.to_dict()
    # planning without data: P3 has no experiment whose judgements compute it, the same stated components and
    # effect, and a fully crossed design of the same size: the same closed form, by the model alone
    stated = power.query("finding == 'P3' and design == 'planned' and items == 4 and evaluators == 3").iloc[0]
    assert (stated["method"], stated["basis"], stated["judgements_per_item"]) == ("model", "assumed", 6)
    assert stated["analytic_power"] == pytest.approx(closed, rel=1e-9)
    assert stated["ci_low"] <= closed <= stated["ci_high"], stated.to_dict()
    assert stated["note"].startswith("planned without data") and pd.isna(stated["pilot"])
    # a free-text column declared as such (carry_as: text) leaves extraction with its e-mail addresses, coordinates,
    # user agents, phone number, IPv6 addresses and URL query removed, each whole (a2219f7's firewall kept the
    # coordinates, the user agent, the phone number and the IPv6 address in part; 64d6758's the HTML-spelled
    # address, the app's user agent, the decimal minutes, the embedded IPv4 address's last three parts, the
    # hyphenated MAC address and the query without a scheme), and none of them reaches any output a person reads
    tidy = pd.read_csv(dot_test / "results/every-measure-2026-toy/tidy/judgements.csv")
    comments = set(tidy.loc[tidy["side"] == "Q", "comment"].dropna())
    assert comments == {
        "clear; sent from [removed]",
        "write to [removed]; see [removed]",
        "skipped ([removed] or [removed])",
        "ok, call [removed] near [removed][removed]",
        "ok from [removed] or [removed] via [removed]",
    }, comments
    payloads = ("example.org", "51.50735", "-0.12776", "Mozilla/5.0", "Firefox/115", "7946 0958", "2001:db8")
    payloads += ("s1&#64;", "PROLIFIC_PID", "Dalvik", "Android", "30.44", "7.66", "64:ff9b", "192.0.2.1", "4D-5E")
    readable = [p for p in (dot_test / "results").rglob("*") if p.suffix in {".csv", ".md", ".html", ".tex", ".log"}]
    assert not [(p, x) for p in readable for x in payloads if x in p.read_text(errors="ignore")]
    # the bootstrap interval of TrueSkill's mu, against the trueskill package run on the raw file's resampled choices
    raw = pd.read_csv(REPO / ".test/raw/github/example-owner/every-measure" / ("1" * 40) / "pairs.csv")
    mus = {s: [] for s in "ABC"}
    for draw in np.random.default_rng(7).integers(0, len(raw), size=(200, len(raw))):
        for system, rating in trueskill_in_order(raw.iloc[draw]).items():
            mus[system].append(rating.mu)
    interval = toy[toy["table"] == "ratings_interval"].set_index(["row", "column"])["value"]
    for system, values in mus.items():
        assert interval[(system, "mu_low")] == pytest.approx(np.percentile(values, 2.5), abs=1e-9)
        assert interval[(system, "mu_high")] == pytest.approx(np.percentile(values, 97.5), abs=1e-9)


def test_the_hosted_ci_workflow_runs_what_ci_and_the_readme_run():
    """.github/workflows/main.yml (the catalogue's form) runs the lint checks, the README's .test command and
    .ci/run itself, so that what runs here is what a hosted CI runs."""
    import yaml

    jobs = yaml.safe_load((REPO / ".github/workflows/main.yml").read_text())["jobs"]
    runs = {name: "\n".join(step.get("run", "") for step in job["steps"]) for name, job in jobs.items()}
    readme = (REPO / "README.md").read_text()
    dot_test_command = ".venv/bin/python -m snakemake --directory .test --cores 2"
    assert dot_test_command in readme and dot_test_command in runs["testing"]
    assert "pytest -m checks" in runs["linting"]
    assert "bash .ci/run" in runs["test-suite"] and jobs["test-suite"]["needs"] == ["linting", "testing"]


#: What every carried text of the toy is prefixed with: markup and a formula (control and bidi characters are refused at -n).
CARRIED_PAYLOAD = '<img src=x onerror=alert(1)> =HYPERLINK("http://x") '
#: Carried keys that name something other keys refer to (an experiment's label is its side, a variant is named by a
#: metric, an aggregate's id by the audit): markup in experiment and system labels runs through the whole pipeline
#: in tests/security/test_hostile_pipeline.py; here only the prose is changed, so every number stays put.
CARRIED_NAMES = {
    "experiments.[].label",
    "systems.[].label",
    "exclusions.[].variant",
    "exclusions.[].name",
    "planning.labels.*",
    "published_aggregates.[].id",
    "qra.[].row_labels.*",
    "qra3.[].criteria.[].name",
    "qra3.[].criteria.[].key",
    "tables.[].significance.p_suffix",
    "tables.[].labels.*",
}
#: Prose keys the toy does not give, planted where the toy has the structure: (path, value).
CARRIED_PLANTS = [
    (("tables", 0, "labels"), {"wins": "Wins"}),
    (("tables", 0, "key"), {"W": "wins"}),
    (("tables", 0, "paper"), "Table 1"),
    (("notes",), ["A note."]),
    (("metrics", 0, "description"), "Each system's best item mean."),
    (("qra", 0, "description"), "The findings, judged in every experiment."),
    (("exclusions", 0, "description"), "Gold items."),
]


def toy_copy(dot_test, tmp_path):
    """(the clean run's numbers.csv, a fresh copy of ``.test`` to change, its study file)."""
    clean = dot_test / "results/every-measure-2026-toy/numbers.csv"
    if not clean.exists():
        assert snakemake_in(dot_test, "--cores", "2").returncode == 0
    target = tmp_path / ".test"
    shutil.copytree(dot_test, target, ignore=shutil.ignore_patterns("results", "data", ".snakemake"))
    return clean, target, target / "config/studies/every-measure-2026-toy.yaml"


def run_inert(target):
    """Run the pipeline and build the report in ``target`` (a copy of ``.test`` with payloads in its study file):
    both end well, no payload is live in the report's HTML or data, and no CSV cell is a formula."""
    from test_e2e_privacy import report_data
    from test_hostile_pipeline import formula_cells

    run = snakemake_in(target, "--cores", "2")
    assert run.returncode == 0, run.stderr[-3000:]
    report = snakemake_in(target, "--report", "results/report.html")
    assert report.returncode == 0, report.stderr[-3000:]
    html = (target / "results/report.html").read_text(errors="ignore")
    data = report_data(target / "results/report.html")
    for live in ("onerror=alert(1)>", "<img src=x"):
        assert live not in html and live not in data, live
    assert not formula_cells(target / "results"), formula_cells(target / "results")[:5]


@pytest.mark.slow  # a full Snakemake run of .test/: CI runs it
def test_every_carried_text_of_the_schema_reaches_every_output_inert(dot_test, tmp_path):
    """Every prose key the schema has (tests/security/test_schema_keys.py: CARRIED) that the toy gives, or that can
    be planted in it, prefixed with markup and a formula, through the whole pipeline and
    the report: the run completes, no payload is live in the report or any CSV, and every number and status is the
    clean run's."""
    import yaml
    from schema_keys import get_at, instances, set_at
    from test_schema_keys import CARRIED

    clean, target, path = toy_copy(dot_test, tmp_path)
    study = yaml.safe_load(path.read_text())
    for where, value in CARRIED_PLANTS:
        study = set_at(study, where, value)
    changed = set()
    for key in sorted(CARRIED - CARRIED_NAMES):
        for found in list(instances(study, key.split("."))):
            if isinstance(get_at(study, found), str):
                study = set_at(study, found, CARRIED_PAYLOAD + get_at(study, found))
                changed.add(key)
    assert len(changed) >= 18, sorted(changed)  # the prose keys the toy gives or takes
    path.write_text(yaml.safe_dump(study, sort_keys=False, allow_unicode=True))
    run_inert(target)
    key = ["table", "row", "column"]
    before = pd.read_csv(clean).set_index(key)[["value", "status", "published"]]
    after = pd.read_csv(target / "results/every-measure-2026-toy/numbers.csv").set_index(key)[before.columns]
    pd.testing.assert_frame_equal(after.sort_index(), before.sort_index())


def renamed_everywhere(node, names: dict):
    """``node`` with every text value equal to a key of ``names`` replaced by its value, wherever it stands: a name
    and every reference to it alike (mapping keys, which are parameters, stay)."""
    if isinstance(node, dict):
        return {k: renamed_everywhere(v, names) for k, v in node.items()}
    if isinstance(node, list):
        return [renamed_everywhere(v, names) for v in node]
    return names.get(node, node) if isinstance(node, str) else node


@pytest.mark.slow  # a full Snakemake run of .test/: CI runs it
def test_every_carried_name_of_the_schema_reaches_every_output_inert(dot_test, tmp_path):
    """The names other keys refer to (CARRIED_NAMES but the experiments', systems' and sides' labels, which
    test_hostile_pipeline.py attacks): exclusion names and variants, aggregate ids, table labels, each prefixed with markup and a formula wherever the toy writes it, references included: the run
    completes, no payload is live in the report or any CSV, and every number and status is the clean run's once
    the prefix is taken out of the cells' names."""
    import yaml
    from schema_keys import get_at, instances

    clean, target, path = toy_copy(dot_test, tmp_path)
    study = yaml.safe_load(path.read_text())
    study["tables"][0]["labels"] = {"wins": "Wins"}  # a table's labels, which the toy does not give
    names, keys = {}, set()
    # experiment and system labels: test_hostile_pipeline.py; planning's labels are the sides' names (the toy's
    # are its experiments' labels), which its tables' rows are named by: attacked there with them
    for key in sorted(CARRIED_NAMES - {"experiments.[].label", "systems.[].label", "planning.labels.*"}):
        for found in instances(study, key.split(".")):
            value = get_at(study, found)
            if isinstance(value, str) and value:
                names[value] = CARRIED_PAYLOAD + value
                keys.add(key)
    assert len(keys) >= 4, sorted(keys)  # the names the toy gives
    path.write_text(yaml.safe_dump(renamed_everywhere(study, names), sort_keys=False, allow_unicode=True))
    run_inert(target)
    carried = [p.name for p in (target / "results").rglob("*.csv") if "onerror=alert(1)" in p.read_text()]
    assert "exclusions_variants.csv" in carried, carried  # the names did reach the outputs (a variant's log)
    key = ["table", "row", "column"]
    before = pd.read_csv(clean).set_index(key)[["value", "status", "published"]]
    after = pd.read_csv(target / "results/every-measure-2026-toy/numbers.csv")
    after[key] = after[key].apply(lambda column: column.astype(str).str.replace(CARRIED_PAYLOAD, "", regex=False))
    after = after.set_index(key)[before.columns]
    pd.testing.assert_frame_equal(after.sort_index(), before.sort_index())
