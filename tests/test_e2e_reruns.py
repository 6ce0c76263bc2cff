"""A rerun touches only what changed (dry runs after a full run): a figure option reruns that study's
figures, package code reruns only the stages that run it (humeval.stages: a loader reruns extraction, not the
downloads or the published numbers), a new study no existing study's jobs. Snakemake compares checksums, so
each edit changes content, not only the mtime."""

import re
import shutil

import pytest
import yaml
from helpers import raw_source, run_snakemake

pytestmark = pytest.mark.e2e
JOB = re.compile(r"^(?:local)?rule (\w+):\n(?:    .*\n)*?    wildcards: study=([\w-]+)", re.MULTILINE)


@pytest.fixture
def built(full_run, tmp_path):
    target = tmp_path / "project"
    shutil.copytree(full_run, target, symlinks=True, ignore=shutil.ignore_patterns("report.html"))
    return target


def planned(workdir) -> set[tuple[str, str]]:
    result = run_snakemake(workdir, "-n", env=raw_source())
    assert result.returncode == 0, result.stderr[-2000:]
    text = result.stdout + result.stderr
    jobs = set(JOB.findall(text))
    jobs |= {
        (rule, "")
        for rule in re.findall(r"^(?:local)?rule (\w+):\n(?!(?:    .*\n)*?    wildcards:)", text, re.MULTILINE)
    }
    return jobs


def edit_yaml(path, change):
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def test_nothing_to_do_after_a_full_run(built):
    assert {rule for rule, _ in planned(built)} <= {"all"} or planned(built) == set()


def test_a_figure_option_reruns_only_that_studys_figures(built):
    edit_yaml(
        built / "config/studies/hosking-2022-paraphrase-meaning.yaml",
        lambda s: s["figures"][0].update(title="another title"),
    )
    jobs = planned(built) - {("all", "")}
    assert jobs == {("figures", "hosking-2022-paraphrase-meaning")}, jobs


def test_editing_figures_py_reruns_only_figure_drawing_jobs(built):
    with open(built / "workflow/humeval/report/figures/style.py", "a") as handle:
        handle.write("\n# a comment\n")
    rules = {rule for rule, _ in planned(built)} - {"all"}
    assert rules == {"figures", "summary", "code_version"}, rules  # these draw figures (the planning figure too)


def test_editing_a_stage_script_reruns_only_that_stage(built):
    with open(built / "workflow/scripts/qra.py", "a") as handle:
        handle.write("\n# a comment\n")
    jobs = planned(built)
    assert {rule for rule, _ in jobs} - {"all"} == {"qra", "tables", "figures", "summary"}, jobs  # and downstream
    studies = yaml.safe_load((built / "config/config.yaml").read_text())["studies"]
    assert {study for rule, study in jobs if rule == "qra"} == set(studies), jobs


def test_editing_a_loader_reruns_extraction_not_downloads(built):
    with open(built / "workflow/humeval/loaders/tabular.py", "a") as handle:
        handle.write("\n# a comment\n")
    jobs = planned(built)
    studies = yaml.safe_load((built / "config/config.yaml").read_text())["studies"]
    assert {study for rule, study in jobs if rule == "extract"} == set(studies), jobs  # loaders/ is one input set
    assert not {rule for rule, _ in jobs} & {"fetch_raw", "published"}, jobs


def test_a_published_number_reruns_only_that_study_from_the_published_stage(built):
    edit_yaml(
        built / "config/studies/hosking-2022-paraphrase-meaning.yaml",
        lambda s: s["published"][1]["cells"]["VAE"].update(reproduction="23.01"),
    )
    jobs = planned(built)
    assert {study for _, study in jobs if study} == {"hosking-2022-paraphrase-meaning"}
    assert not {rule for rule, _ in jobs} & {"fetch_raw", "extract", "exclude"}
    assert ("tables", "hosking-2022-paraphrase-meaning") in jobs  # the audit and the tables
    dry = run_snakemake(built, "-n", env=raw_source())
    reasons = dry.stdout + dry.stderr
    # the params hold the keys a job reads and their digest (humeval.config.studyfile.slice_param), not the config
    assert "Params have changed" in reasons and "Watson & Gkatzia" not in reasons and "23.01" not in reasons


def test_adding_a_study_reruns_no_existing_study(built):
    from helpers import REPO

    shutil.copy(REPO / "config/studies/_template.yaml", built / "config/studies/example-2025-ranking.yaml")
    edit_yaml(built / "config/config.yaml", lambda c: c["studies"].append("example-2025-ranking"))
    jobs = planned(built)
    assert {study for _, study in jobs if study} == {"example-2025-ranking"}, jobs
