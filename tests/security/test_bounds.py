"""Class 6 and the hangs and crashes of the red team (11-13): config regular expressions run in linear time, every
YAML and JSON read is bounded in depth and size, the download deadline covers connecting, headers and body, and
a read-only results folder is one line before any job runs. Each case that could hang runs in a child process
with a bound, so a regression fails the test instead of hanging the suite."""

import shutil
import subprocess
import sys
import textwrap

import pytest
from helpers import CI_LIMIT, REPO, copy_project, package_path, run_snakemake

from humeval.errors import HumevalError


def child(code: str, timeout: int = 120) -> subprocess.CompletedProcess:
    """Run ``code`` in a child Python; a hang ends at ``timeout`` (a guard, not a measurement)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout, check=False
    )


def test_a_nested_quantifier_header_pattern_runs_in_linear_time():
    """``^(a+)+$|^fluency$`` against a header of 47 ``a`` and ``!``: Python's engine backtracks for minutes; RE2
    answers at once and finds the one header that matches."""
    result = child(
        """
        from humeval.loaders.tabular_read import find_column
        print(find_column(["a" * 47 + "!", "fluency"], {"pattern": "^(a+)+$|^fluency$"}, "x.csv", "criterion"))
        """
    )
    assert result.returncode == 0 and result.stdout.strip() == "fluency", result.stderr[-2000:]


def pattern_keys():
    from humeval.patterns import PATTERN_KEYS

    return PATTERN_KEYS


@pytest.mark.parametrize("key", pattern_keys())
def test_a_pattern_re2_cannot_run_is_refused_at_load_naming_the_key(tmp_path, key):
    """Every key a loader reads as a regular expression (``humeval.patterns.PATTERN_KEYS``: a key added there is
    attacked here the day it is added), given a backreference: one line at load naming the key."""
    from humeval.config.load import load_study

    text = (REPO / "config/studies/yao-2022-storybook-qag.yaml").read_text()
    path = tmp_path / "yao-2022-storybook-qag.yaml"
    spec = (
        'readability: {pattern: "(a)\\\\1"}'
        if key == "pattern"
        else f'readability: {{pattern: "^readability\\\\(", {key}: "(a)\\\\1"}}'
    )
    path.write_text(text.replace('readability: {pattern: "^readability\\\\("}', spec, 1))
    with pytest.raises(HumevalError) as info:
        load_study(path)
    message = str(info.value)
    assert "\n" not in message and f"key extract.0.params.criteria.readability.{key}" in message, message
    assert "no backreferences or lookaround" in message


@pytest.mark.parametrize("depth", [100, 5_000])
def test_a_deeply_nested_study_file_is_one_line(tmp_path, depth):
    from humeval.config.load import load_study

    path = tmp_path / "deep-2025-x.yaml"
    path.write_text("name: deep-2025-x\nextra: " + "[" * depth + "]" * depth + "\n")
    with pytest.raises(HumevalError, match=f"nests {depth + 1:,} levels deep") as info:
        load_study(path)
    assert "\n" not in str(info.value)


def test_a_deeply_nested_datasheet_is_a_warning_and_the_other_outputs_build(tmp_path):
    from humeval.heds import conditions_frame

    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "nested.json").write_text('{"heds-x": ' + '{"a": ' * 50 + "1" + "}" * 50 + "}")
    study = {
        "experiments": [{"id": "O", "datasheet": "a"}, {"id": "R1", "datasheet": "b"}],
    }
    frame, warnings = conditions_frame(study, {"a": str(tmp_path / "deep.json"), "b": str(tmp_path / "nested.json")})
    assert frame is not None and any("nested more deeply" in w or "not a readable" in w for w in warnings)
    assert any("R1: nested.json: nested more deeply than 20 levels" in w for w in warnings), warnings


def test_a_server_that_drips_its_headers_is_stopped_by_the_deadline():
    """A server that sends its status line and then one header byte every 0.2 s: each read is quick, so only a
    deadline over the whole attempt (connect, headers, body) ends it; on d9d9851 the download never ended."""
    result = child(
        """
        import socket, threading, time
        from pathlib import Path
        server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(1)
        def drip():
            connection, _ = server.accept()
            connection.recv(4096)
            connection.sendall(b"HTTP/1.1 200 OK\\r\\n")
            for _ in range(600):  # bounded: 120 s at the most
                try:
                    connection.sendall(b"X")
                except OSError:
                    return
                time.sleep(0.2)
        threading.Thread(target=drip, daemon=True).start()
        from humeval.fetch import _download
        try:
            _download(f"http://127.0.0.1:{server.getsockname()[1]}/x.csv", Path("x.csv"), timeout=1.0, attempts=1)
        except Exception as exc:
            print(type(exc).__name__, exc)
        """,
        timeout=CI_LIMIT,
    )
    assert "timed out" in result.stdout, result.stdout + result.stderr[-2000:]


@pytest.mark.e2e
def test_a_read_only_results_folder_is_one_line_before_any_job(tmp_path):
    if not shutil.which("unshare") or subprocess.run(["unshare", "--mount", "true"], check=False).returncode:
        pytest.skip("unshare --mount is not available to mount a read-only folder")
    workdir = copy_project(tmp_path / "project", ["example-2025-ranking"])
    template = (REPO / "config/studies/_template.yaml").read_text()
    (workdir / "config/studies/example-2025-ranking.yaml").write_text(template)
    shutil.copytree(REPO / ".test/raw", workdir / "mirror")
    (workdir / "results").mkdir()
    env = " ".join(f"{k}={v}" for k, v in package_path(workdir).items())
    script = (
        "mount --bind -o ro results results && "
        f"env {env} HUMEVAL_RAW_MIRROR=mirror {sys.executable} -m snakemake --cores 1"
    )
    result = subprocess.run(
        ["unshare", "--mount", "sh", "-c", script],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=CI_LIMIT,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output and "Errno 30" not in output, output[-3000:]
    assert "cannot write to results/" in output and "Read-only file system" in output
    assert run_snakemake(workdir, "-n", env={"HUMEVAL_RAW_MIRROR": "mirror"}).returncode == 0  # writable: it passes


def test_a_deeply_nested_json_export_is_one_line(tmp_path):
    """The loaders that read JSON documents (ABC-Eval, a Qualtrics survey definition): a file nested 100,000 deep
    is a HumevalError naming it, not a RecursionError."""
    from humeval.loaders.abc_eval_json import read_json
    from humeval.loaders.qualtrics_survey import context_texts

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for read in (read_json, lambda path: context_texts(path, 2)):
        with pytest.raises(HumevalError, match="deep.json") as info:
            read(str(deep))
        assert "\n" not in str(info.value)


def test_an_oversized_study_file_is_one_line_before_it_is_parsed(tmp_path):
    from humeval.config.load import load_study

    path = tmp_path / "big-2025-x.yaml"
    with open(path, "w") as handle:
        handle.write("name: big-2025-x\nnotes:\n")
        handle.writelines(f"  - note {k}\n" for k in range(600_000))  # about 8 MB
    with pytest.raises(HumevalError, match="larger than 5,000,000 bytes") as info:
        load_study(path)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("template", "expected"),
    [("{:>300000000}", "the format width 300000000 is over 100"), ("{system.__class__}", "reaches into an attribute")],
)
def test_a_format_template_in_a_study_file_is_bounded_before_any_job(tmp_path, template, expected):
    """A format width in a row template or a figure's label format wrote 1.2 GB; a field could reach into an
    attribute. Every template string of a study file is checked when it loads, whichever key holds it."""
    import yaml

    from humeval.config.load import load_study
    from humeval.errors import HumevalError

    toy = REPO / ".test/config/studies/every-measure-2026-toy.yaml"
    study = yaml.safe_load(toy.read_text())
    tally = next(m for m in study["metrics"] if m["metric"] == "pairwise_tally" and m["table"] == "tally")
    tally["row"] = template
    path = tmp_path / toy.name
    path.write_text(yaml.safe_dump(study, sort_keys=False))
    with pytest.raises(HumevalError) as info:
        load_study(path)
    assert "key metrics." in str(info.value) and ".row: " in str(info.value) and expected in str(info.value)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda s: s.update(planning={"simulations": 100000}), "key planning.simulations: 100,000 is over the budget"),
        (
            lambda s: s.update(planning={"simulations": 5000, "evaluators": [2000], "items": [1000]}),
            (
                "key planning: simulations x the judgements of every planned design (evaluators x items x 2, summed "
                "over the grid and planning.sizes) = 20,000,000,000, over the budget of 100,000,000"
            ),
        ),
        (  # inside the old budget (the largest design alone, 180 million cells) and past 4 minutes on 2 cores
            lambda s: s.update(planning={"simulations": 20, "evaluators": [3000], "items": [3000]}),
            "= 360,000,000, over the budget of 100,000,000",
        ),
        (  # every design counts: ten designs, each within the budget alone (50 x 1,000 x 2 x 1,000 = 100 million)
            lambda s: s.update(planning={"evaluators": [10, 20, 30, 40, 50], "items": [500, 1000]}),
            "= 450,000,000, over the budget",
        ),
        (  # and the reproductions' sizes
            lambda s: s.update(planning={"simulations": 100, "sizes": {"R1": {"evaluators": 1000, "items": 1000}}}),
            "= 200,000,000, over the budget",
        ),
        (
            lambda s: next(m for m in s["metrics"] if m["metric"] == "effect_size").update(resamples=1_000_000_000),
            "resamples: 1,000,000,000 resamples is over the budget of 100,000",
        ),
    ],
)
def test_planning_and_resampling_have_a_budget_checked_before_any_job(tmp_path, change, expected):
    """simulations: 100000 meant about 14 hours; resamples: 1000000000 asked for 89 GiB; 20 simulations of a
    3,000 x 3,000 design ran past 4 minutes."""
    import yaml

    from humeval.config.load import load_study

    toy = REPO / ".test/config/studies/every-measure-2026-toy.yaml"
    study = yaml.safe_load(toy.read_text())
    change(study)
    path = tmp_path / toy.name
    path.write_text(yaml.safe_dump(study, sort_keys=False))
    with pytest.raises(HumevalError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        load_study(path)
