"""The package as a non-editable install gives it (docs/deployment.md, 1): a wheel built from the sources, installed
into a fresh virtual environment without the checkout on the path, runs the `.test` configuration and a real study
through the module route, to the clone's numbers. A hand-kept package list once left ``humeval.metrics.designs``
out of the wheel: 20 of 33 metrics registered, and santhanam failed with ``unknown metric 'icc'``."""

import csv
import os
import shutil
import subprocess
import sys
import sysconfig

import pytest
from helpers import CI_LIMIT, REPO, raw_source
from test_e2e_module import CONSUMER

pytestmark = pytest.mark.e2e
STUDY = "santhanam-2019-dialogue-design"  # its ICC metrics live in humeval.metrics.designs
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "requirements.txt", "requirements-slurm.txt")


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, timeout=CI_LIMIT, check=False, **kwargs)
    assert result.returncode == 0, f"{args}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A virtual environment holding the wheel built from a copy of the sources (the build never writes into the
    checkout); its dependencies are the test environment's, reached by a path entry (so no download), which runs
    no ``.pth`` of that environment and so not the editable install's finder."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    source.mkdir()
    for name in SOURCES:
        shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "workflow", source / "workflow", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", root / "dist", source])
    (wheel,) = (root / "dist").glob("humeval_repro-*.whl")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    (venv / purelib / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel])
    return venv


def clean_env(venv) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HUMEVAL_RAW_MIRROR", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    return env


def test_the_wheel_holds_every_package_and_registers_every_metric(installed):
    code = (
        "import humeval, humeval.config.load as c; from humeval.config.registry import entries; "
        "print(humeval.__file__); print(len(entries('metric'))); print(c.schema_dir())"
    )
    where, metrics, schemas = run(
        [installed / "bin/python", "-c", code], cwd="/", env=clean_env(installed)
    ).stdout.split()
    assert where.startswith(str(installed)), where  # the wheel's copy, not the checkout
    assert schemas.startswith(str(installed)), schemas
    sys.path.insert(0, str(REPO / "workflow"))
    from humeval.config.registry import entries

    assert int(metrics) == len(entries("metric")) > 30


def test_the_wheel_runs_the_test_configuration_and_a_real_study_as_a_module(installed, full_run, tmp_path):
    env = clean_env(installed)
    snakemake = [installed / "bin/python", "-m", "snakemake", "--cores", "2"]
    shutil.copytree(REPO / ".test", tmp_path / "test", ignore=shutil.ignore_patterns("results", ".snakemake", "data"))
    run([*snakemake, "--snakefile", REPO / "workflow/Snakefile", "--directory", tmp_path / "test"], cwd=REPO, env=env)
    lines = (tmp_path / "test/results/summary/audit.csv").read_text().splitlines()
    audit = {row["study"]: row for row in csv.DictReader(lines)}
    # the toy's 165 matches and its one explained mismatch (R1's agreement mean printed truncated), as the clone gives
    assert {s: (row["match"], row["mismatch"]) for s, row in audit.items()} == {"every-measure-2026-toy": ("165", "1")}

    consumer = tmp_path / "consumer"
    (consumer / "config/studies").mkdir(parents=True)
    (consumer / "Snakefile").write_text(CONSUMER.format(snakefile=REPO / "workflow/Snakefile"))
    (consumer / "config/config.yaml").write_text(f"studies: [{STUDY}]\n")
    shutil.copy(REPO / "config/studies" / f"{STUDY}.yaml", consumer / "config/studies")
    run(snakemake, cwd=consumer, env={**env, **raw_source()})
    mine, clones = consumer / "results" / STUDY, full_run / "results" / STUDY
    for name in ("numbers.csv", "intermediate/metrics.csv", "planning/power.csv"):
        assert (mine / name).read_bytes() == (clones / name).read_bytes(), name
