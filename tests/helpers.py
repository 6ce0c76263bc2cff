"""Shared test helpers: the repository root, a throw-away copy of the project, and running Snakemake.

End-to-end tests need the raw exports: from the mirror in ``$HUMEVAL_RAW_MIRROR`` (CI sets it to
``../shared/raw``) or, failing that, from the network. Without either they skip with the reason, except
under ``CI=true``, where a skipped end-to-end test is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# lines a test wants in the run's summary (e.g. how many values an independent check compared); printed by
# conftest.py's pytest_terminal_summary, so they show in CI output even when the test passes
SUMMARY_LINES: list[str] = []
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def skip_or_fail(reason: str):
    """Skip with ``reason``; under CI=true fail instead (CI must run every end-to-end test)."""
    if in_ci():
        pytest.fail(f"CI=true and an end-to-end test cannot run: {reason}")
    pytest.skip(reason)


def network_reachable(url: str = "https://raw.githubusercontent.com/", timeout: float = 5.0) -> bool:
    try:
        urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout)
        return True
    except urllib.error.HTTPError:
        return True  # the host answered
    except OSError:
        return False


def raw_source() -> dict:
    """Environment for Snakemake to get raw files: the mirror if configured and present, else the network."""
    mirror = os.environ.get("HUMEVAL_RAW_MIRROR")
    if mirror:  # one folder or several joined with os.pathsep, as the pipeline reads it (humeval.fetch)
        folders = [Path(m) for m in mirror.split(os.pathsep) if m]
        missing = [str(m) for m in folders if not m.is_dir()]
        if not missing:
            return {"HUMEVAL_RAW_MIRROR": os.pathsep.join(str(m.resolve()) for m in folders)}
        skip_or_fail(f"HUMEVAL_RAW_MIRROR: {', '.join(missing)} is not a folder")
    if network_reachable():
        return {}
    skip_or_fail("no raw-data mirror (set HUMEVAL_RAW_MIRROR=DIR) and raw.githubusercontent.com is unreachable")
    return {}


def mirror_file(url: str) -> Path | None:
    """The file of a pinned raw ``url`` in the test mirror(s) (``$HUMEVAL_RAW_MIRROR``, one folder or several
    joined with os.pathsep, searched in order as the pipeline does), or None."""
    from humeval.fetch import in_mirror

    folders = raw_source().get("HUMEVAL_RAW_MIRROR", "")
    return next((f for f in (in_mirror(Path(m), url) for m in folders.split(os.pathsep) if m) if f), None)


def copy_project(target: Path, studies: list[str] | None = None) -> Path:
    """Copy Snakefile, workflow/ and config/ to ``target``; optionally enable only ``studies``."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "Snakefile", target / "Snakefile")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "workflow", target / "workflow", ignore=ignore)
    shutil.copytree(REPO / "config", target / "config", ignore=ignore)
    shutil.copytree(REPO / "envs", target / "envs", ignore=ignore)
    shutil.copytree(REPO / "profiles", target / "profiles", ignore=ignore)
    import yaml

    main = yaml.safe_load((target / "config/config.yaml").read_text())
    main["studies"] = main["studies"] if studies is None else studies
    main.pop(
        "raw_mirror", None
    )  # the tests' mirror is $HUMEVAL_RAW_MIRROR (raw_source), whatever the clone's config says
    (target / "config/config.yaml").write_text(yaml.safe_dump(main, sort_keys=False))
    return target


def package_path(workdir: Path) -> dict:
    """``PYTHONPATH`` that makes ``workdir``'s own copy of the package the one imported, where it has one."""
    if not (Path(workdir) / "workflow/humeval/__init__.py").is_file():
        return {}
    return {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(workdir) / "workflow"), os.environ.get("PYTHONPATH")]))
    }


#: The longest any subprocess of a test may take: CI's own limit for the whole run (5,400 s). A test bounds a run
#: only so that a hang ends; a tighter bound fails on a loaded machine (the full run's 600 s once did).
CI_LIMIT = 5400


def run_snakemake(workdir: Path, *args: str, env: dict | None = None, timeout: int = CI_LIMIT):
    """Run ``python -m snakemake`` in ``workdir``; return the CompletedProcess (text output). In a copy of the
    project (:func:`copy_project`) Snakemake and its jobs import the copy's package, so an edit there is an edit
    of the code that runs."""
    full_env = {k: v for k, v in os.environ.items() if k != "HUMEVAL_RAW_MIRROR"}
    full_env.update(package_path(workdir))
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", *args],
        cwd=workdir,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def trueskill_in_order(records) -> dict:
    """The trueskill package's ratings after one update per choice of ``records`` (rows with ``system_a``,
    ``system_b`` and ``choice`` a, b or tie), in their order, draw probability 0.10: the independent computation
    the TrueSkill metric is checked against."""
    import trueskill

    env, ratings = trueskill.TrueSkill(draw_probability=0.10), {}
    for record in records.itertuples():
        a, b = (ratings.setdefault(s, env.create_rating()) for s in (record.system_a, record.system_b))
        if record.choice == "b":
            b, a = trueskill.rate_1vs1(b, a, env=env)
        else:
            a, b = trueskill.rate_1vs1(a, b, drawn=record.choice == "tie", env=env)
        ratings[record.system_a], ratings[record.system_b] = a, b
    return ratings


def study_audit(built: Path):
    """A study's ``numbers.csv`` indexed by (table, row, column), empty cells missing and text kept as written."""
    import pandas as pd

    return pd.read_csv(built / "numbers.csv", keep_default_na=False, na_values=[""]).set_index(
        ["table", "row", "column"]
    )


def tidy_frame(**columns):
    """A tidy judgements table of study ``s``, side ``O``, criterion ``c``, ratings of system ``A`` (what the
    columns given do not say otherwise)."""
    import pandas as pd

    defaults = {"study": "s", "side": "O", "criterion": "c", "response_type": "rating", "system": "A", "system_b": ""}
    return pd.DataFrame({**defaults, **columns})
