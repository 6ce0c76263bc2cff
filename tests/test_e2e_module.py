"""The workflow used as a module, as a consumer workflow in another folder uses it (docs/deployment.md): its own
config, ``module humeval: snakefile: <clone>/workflow/Snakefile`` and ``use rule * from humeval``. It runs a
study to the same outputs as the clone does, and validates the consumer's config like the clone's."""

import shutil

import pytest
from helpers import REPO, raw_source, run_snakemake

pytestmark = pytest.mark.e2e
STUDY = "hosking-2022-paraphrase-meaning"
CONSUMER = """\
configfile: "config/config.yaml"


module humeval:
    snakefile:
        "{snakefile}"
    config:
        config


use rule * from humeval
"""


def consumer(target, studies):
    (target / "config/studies").mkdir(parents=True)
    (target / "Snakefile").write_text(CONSUMER.format(snakefile=REPO / "workflow/Snakefile"))
    (target / "config/config.yaml").write_text(f"studies: {studies}\n")
    for study in studies:
        shutil.copy(REPO / "config/studies" / f"{study}.yaml", target / "config/studies")
    return target


def test_a_consumer_workflow_runs_a_study_to_the_clones_outputs(full_run, tmp_path):
    workdir = consumer(tmp_path / "consumer", [STUDY])
    result = run_snakemake(workdir, env=raw_source())
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    mine, clones = workdir / "results" / STUDY, full_run / "results" / STUDY
    compared = [p.relative_to(clones) for p in sorted(clones.rglob("*")) if p.is_file()]
    assert len(compared) > 10
    differ = [str(p) for p in compared if (mine / p).read_bytes() != (clones / p).read_bytes()]
    assert not differ, differ
    assert (workdir / "results/summary/audit.csv").is_file()


def test_a_consumers_bad_config_is_one_line_before_any_job(tmp_path):
    workdir = consumer(tmp_path / "consumer", [STUDY])
    (workdir / "config/config.yaml").write_text("studies: [no-such-study]\n")
    result = run_snakemake(workdir, "-n", env=raw_source())
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "no-such-study.yaml: file not found" in output, output[-2000:]


def test_a_module_read_over_http_runs_as_a_github_module_would(tmp_path):
    """A hosted workflow source (as ``github(...)`` gives): Snakemake reads the Snakefile, rules, schemas and
    scripts over HTTP from a server on localhost, and nothing of the workflow assumes a local folder."""
    import functools
    import http.server
    import threading

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(REPO))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("localhost", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://localhost:{server.server_address[1]}/workflow/Snakefile"
        workdir = tmp_path / "consumer"
        (workdir / "config/studies").mkdir(parents=True)
        (workdir / "Snakefile").write_text(CONSUMER.format(snakefile=url))
        shutil.copy(REPO / "config/studies/_template.yaml", workdir / "config/studies/example-2025-ranking.yaml")
        (workdir / "config/config.yaml").write_text(
            f"studies: [example-2025-ranking]\nraw_mirror: {REPO / '.test/raw'}\n"
        )
        result = run_snakemake(workdir)
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    audit = (workdir / "results/example-2025-ranking/numbers.csv").read_text()
    assert audit.count(",match,") == 3 and "UNDIAGNOSED" not in audit and "mismatch" not in audit  # as the clone
