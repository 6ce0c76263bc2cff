"""The warm worker (humeval.worker): a stage script runs in a forked process with the ``snakemake`` object it
is given, its outputs land, and a failing script (exit status 1, as humeval.runner exits on bad input) is an
error naming the rule and its log."""

from types import SimpleNamespace

import pytest

from humeval.errors import HumevalError
from humeval.worker import run_script


def job(tmp_path, rule="demo"):
    return SimpleNamespace(
        rule=rule, input=SimpleNamespace(value="21"), output=[str(tmp_path / "out.txt")], log=[str(tmp_path / "x.log")]
    )


def test_the_script_runs_with_the_snakemake_object(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(
        "import os\nfrom pathlib import Path\n"
        "Path(snakemake.output[0]).write_text(f'{2 * int(snakemake.input.value)} {__name__} {os.getpid()}')\n"
    )
    run_script(script, job(tmp_path))
    value, name, pid = (tmp_path / "out.txt").read_text().split()
    assert (value, name) == ("42", "__main__")
    assert int(pid) != __import__("os").getpid()  # its own process


def test_a_failing_script_is_an_error_naming_the_rule_and_its_log(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("import sys\nsys.exit(1)\n")
    with pytest.raises(HumevalError, match=r"rule extract failed \(exit status 1\); details in .*x\.log"):
        run_script(script, job(tmp_path, "extract"))


def test_many_jobs_from_many_threads_each_get_their_own_exit_status(tmp_path):
    """Snakemake runs jobs from a thread pool; multiprocessing's start() polls every other running job's status
    pipe, so unguarded concurrent reads once gave a finished job exit status 255 (EOF on its pipe)."""
    from concurrent.futures import ThreadPoolExecutor

    script = tmp_path / "script.py"
    script.write_text("import sys\nsys.exit(int(snakemake.input.value) % 2)\n")

    def one(k):
        folder = tmp_path / str(k)
        folder.mkdir()
        try:
            run_script(script, SimpleNamespace(rule=f"r{k}", input=SimpleNamespace(value=str(k)), log=["x"]))
        except HumevalError as exc:
            return str(exc)
        return "ok"

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(one, range(120)))
    assert results == ["ok" if k % 2 == 0 else f"rule r{k} failed (exit status 1); details in x" for k in range(120)]


def test_the_preload_table_lists_every_library_a_stages_code_imports():
    """RULE_LIBRARIES decides what the warm worker imports for a run; a library a stage's code (its script and
    every package source it runs, for every study: humeval.startup) imports but the table misses would be
    imported by each such job again. textacy and spaCy are left out on purpose (one study's readability)."""
    import ast
    from pathlib import Path

    from helpers import REPO

    from humeval.startup import PACKAGE_DIR, compute_state
    from humeval.worker import RULE_LIBRARIES

    heavy = {"scipy", "pingouin", "krippendorff", "matplotlib", "openpyxl"}
    studies = {p.stem: p for p in (REPO / "config/studies").glob("*.yaml") if not p.stem.startswith("_")}
    state = compute_state(studies, REPO / "workflow/scripts")
    missing = set()
    for (stage, _), files in state["code"].items():
        listed = {library.split(".")[0] for library in RULE_LIBRARIES.get(stage, ())}
        for file in files:
            for node in ast.walk(ast.parse(Path(PACKAGE_DIR, file).read_text())):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                names += [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
                missing |= {(stage, file, n) for n in names if n.split(".")[0] in heavy - listed}
    assert missing == set()


def test_exit_promptly_ends_pending_timers_and_freezes_the_collector():
    """Snakemake's scheduler leaves a 1 s job-rate timer pending (a non-daemon thread the interpreter waits for
    at exit); at the end of a run exit_promptly ends it at once and keeps the last collection off the DAG."""
    import gc
    import threading
    import time

    from humeval.worker import exit_promptly

    fired = []
    timer = threading.Timer(30, lambda: fired.append(True))
    timer.start()
    started = time.perf_counter()
    try:
        exit_promptly()
        timer.join(5)
        assert not timer.is_alive() and time.perf_counter() - started < 5
        assert fired == []  # cancelled, not run
        assert gc.get_freeze_count() > 0
    finally:
        timer.cancel()
        gc.unfreeze()
