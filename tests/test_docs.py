"""The generated vocabulary docs are current, and every registered function documents itself: each parameter's
meaning, what it writes, and an example from a study a test runs."""

import re

import gendocs as docs
import pytest
from helpers import REPO

from humeval.config import registry as vocabulary

RENDERED = {p.name: t for p, t in docs.render(REPO).items()}
REGISTERED = [(kind, name) for kind in vocabulary.KINDS for name in vocabulary.entries(kind)]


def test_generated_docs_are_current():
    for path, text in docs.render(REPO).items():
        assert path.read_text() == text, f"{path} is stale: run python tools/gendocs.py"


def test_every_kind_is_registered_and_in_the_docs():
    counts = {kind: len(vocabulary.entries(kind)) for kind in vocabulary.KINDS}
    assert counts == {"loader": 9, "metric": 35, "exclusion": 8, "qra": 4, "figure": 5}
    for kind, name in REGISTERED:
        assert f"### `{name}`" in RENDERED["loaders.md" if kind == "loader" else "metrics.md"], name


def test_each_kind_read_alone_finds_every_registration_a_scan_of_all_sources_finds():
    """``entries(kind)`` parses only the files that name the kind; a plain scan of every package file's
    decorators, by pattern, finds the same names of each kind."""
    decorator = re.compile(r"""^@register\(\s*["'](\w+)["'],\s*["']([^"']+)["']""", re.MULTILINE)
    scanned = {kind: set() for kind in vocabulary.KINDS}
    for path in (REPO / "workflow/humeval").rglob("*.py"):
        for kind, name in decorator.findall(path.read_text()):
            scanned[kind].add(name)
    assert scanned == {kind: set(vocabulary.entries(kind)) for kind in vocabulary.KINDS}


def entry_docs(kind: str, name: str) -> str:
    text = RENDERED["loaders.md" if kind == "loader" else "metrics.md"]
    section = text.split(f"\n### `{name}`\n", 1)[1]
    return re.split(r"\n##+ ", section, maxsplit=1)[0]


@pytest.mark.parametrize(("kind", "name"), REGISTERED, ids=[f"{k}:{n}" for k, n in REGISTERED])
def test_a_registered_function_documents_each_parameter_what_it_writes_and_an_example(kind, name):
    entry = vocabulary.entries(kind)[name]
    undocumented = [p.name for p in entry.parameters if not p.meaning]
    assert not undocumented, f"{entry.target}: no numpydoc Parameters entry for {undocumented}"
    stray = sorted(entry.documented - set(entry.names()))
    assert not stray, f"{entry.target}: Parameters documents {stray}, which it does not take"
    assert entry.returns.strip(), f"{entry.target}: no numpydoc Returns section (what it writes)"
    assert entry.doc.strip(), f"{entry.target}: no summary"
    section = entry_docs(kind, name)
    assert "**Writes:**" in section and "Example (`" in section, f"{name}: no example in a study a test runs"


def test_allowed_values_and_named_constants_are_shown_by_value():
    tally = {p.name: p for p in vocabulary.entries("metric")["pairwise_tally"].parameters}
    assert tally["stats"].default == "TALLY_STATS"
    assert tally["stats"].value == "('wins', 'losses', 'ties', 'n', 'win_pct', 'bws', 'bws_scaled')"  # as shipped
    assert tally["stats"].allowed == ("wins", "losses", "ties", "n", "win_pct", "bws", "bws_scaled", "score", "sign_p")
    assert tally["frame"].allowed == ("kept", "tidy")
    assert "`wins`, `losses`, `ties`" in entry_docs("metric", "pairwise_tally")


def test_loader_parameters_are_read_from_the_signature():
    params = {p.name: p for p in vocabulary.entries("loader")["tabular"].parameters}
    assert params["participant"].required and params["item"].required
    assert not params["shape"].required and params["shape"].default == "'wide'"
    assert params["shape"].allowed == ("wide", "long", "melt")
    assert "inputs" not in params and "study" not in params  # positional: handed over by the pipeline


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"stats": "wins"}, r"key metrics\.0\.stats: expected a list, e\.g\. \[wins\], not the text 'wins'"),
        ({"stats": ["wins", "draws"]}, r"key metrics\.0\.stats: \['wins', 'draws'\] is not allowed; allowed: \['wins'"),
        ({"frame": "all"}, r"key metrics\.0\.frame: 'all' is not allowed; allowed: \['kept', 'tidy'\]"),
        ({"majority": "yes"}, r"key metrics\.0\.majority: expected bool, not str 'yes'"),
        ({"stat": ["wins"]}, r"key metrics\.0\.stat: unknown parameter; did you mean 'stats'\?"),
    ],
)
def test_a_parameter_of_the_wrong_type_or_value_is_refused_naming_the_key(given, message):
    entry = vocabulary.entries("metric")["pairwise_tally"]
    assert re.match(message, vocabulary.check_entry(entry, {"table": "t", **given}, "metrics.0"))


def test_a_renamed_parameter_says_in_one_line_what_to_rename():
    entry = vocabulary.entries("loader")["qualtrics_survey"]
    message = vocabulary.check_entry(entry, {"range": [1, 6]}, "extract.2.params")
    assert message == "key extract.2.params.range: renamed to 'scale' (same meaning): rename the key"


#: Each command of the README, and the file that runs it (with the text there that does): the test fails when a
#: command is added without a runner, or a runner stops running it.
README_COMMANDS = {
    "python3 -m venv .venv && .venv/bin/python -m pip install -r requirements.txt -e . && "
    ".venv/bin/python -m snakemake --cores 4": ("tests/conftest.py", "result = run_snakemake(workdir, env=env)"),
    "python3 -m venv .venv && .venv/bin/python -m pip install -r requirements-dev.txt -e . && "
    ".venv/bin/python -m pytest": (
        ".ci/run",
        (
            "python3 -m venv .venv && .venv/bin/python -m pip install -r requirements-dev.txt -e . && "
            ".venv/bin/python -m pytest"
        ),
    ),
    ".venv/bin/python -m snakemake --cores 4 --config raw_mirror=../shared/raw": (
        "tests/test_e2e_new_study.py",
        '"--config", f"raw_mirror={TEST_MIRROR}"',
    ),
    "HUMEVAL_RAW_MIRROR=../shared/raw .venv/bin/python -m pytest": (".ci/run", 'export HUMEVAL_RAW_MIRROR="$mirror"'),
    ".venv/bin/python -m snakemake --directory .test --cores 2": ("tests/test_code_health.py", '"--directory"'),
    ".venv/bin/python -m snakemake --report results/report.html": (
        "tests/conftest.py",
        '"--report", "results/report.html"',
    ),
}


def test_the_readme_is_short_and_each_of_its_commands_is_run_by_a_test_or_ci():
    readme = (REPO / "README.md").read_text()
    assert len(readme.encode()) < 8000
    blocks = re.findall(r"```bash\n(.*?)```", readme, re.DOTALL)
    commands = [line.split(" #")[0].strip() for block in blocks for line in block.splitlines()]
    commands = [c for c in commands if c and not c.startswith("#")]
    assert set(commands) == set(README_COMMANDS), set(commands) ^ set(README_COMMANDS)
    for command, (path, runs) in README_COMMANDS.items():
        assert runs in (REPO / path).read_text(), f"{path} no longer runs {command!r}"


def test_the_layout_in_docs_testing_names_every_module_of_the_package():
    """docs/testing.md's layout missed 13 modules (issue 57): now every module of the package is named there."""
    layout = (REPO / "docs/testing.md").read_text().split("## Layout", 1)[1]
    package = REPO / "workflow/humeval"
    modules = sorted(p.stem for p in package.rglob("*.py") if p.stem != "__init__")
    assert [m for m in modules if not re.search(rf"\b{re.escape(m)}\b", layout)] == []


@pytest.mark.parametrize(("kind", "name"), REGISTERED, ids=[f"{k}:{n}" for k, n in REGISTERED])
def test_every_registered_function_gives_its_formula_papers_and_a_worked_example(kind, name):
    """Issue 57: every registered loader, exclusion, metric, QRA type and figure kind gives its science as pingouin
    and scipy do: the formula (``Notes``), the papers or software it follows (``References``) and a doctested
    ``Examples`` on a tiny input, rendered in the generated docs. A function registered without them fails here."""
    science = vocabulary.entries(kind)[name].science
    assert set(science) == set(vocabulary.SCIENCE), f"{name}: lacks {set(vocabulary.SCIENCE) - set(science)}"
    assert ">>> " in science["Examples"] and "(" in science["References"]  # a doctest; a paper with its year
    assert f"*Notes.* {' '.join(science['Notes'].split()[:6])}" in entry_docs(kind, name)  # rendered in the docs
