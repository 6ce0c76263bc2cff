"""Generated hostile *study files*: a clean generated study (tests/security/hostile.py) mutated in the ways a study
file can be wrong before any export is read, each run alone with ``snakemake -n``. YAML 1.1 integer forms where an
integer is expected (``1_0``, base-60 ``1:20``; YAML 1.2 reads them as text), a key given twice, a format width
over the bound or a field reaching into an attribute or item in any template, a format spec in any text: each must
stop the run before any job in exactly one line that names the study file (and the key, where the file parses),
quote no raw id, and leave no ``results/``. The octal form ``010``, which YAML 1.2 reads as ten, is in the whole
pipeline suite (test_hostile_pipeline.py), where it must give ten decimals, not eight."""

import random
import re
import shutil

import pytest
import yaml
from helpers import SUMMARY_LINES, copy_project, run_snakemake
from hostile import case, write_batch
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.e2e

KINDS = ("underscore_int", "base60_int", "duplicate_key", "format_width", "format_field", "format_in_text")
PER_KIND = 4


def scalar_key_lines(text: str) -> list[int]:
    """Line numbers of ``key: value`` lines whose key is a plain word (a line that can be given twice)."""
    return [k for k, line in enumerate(text.splitlines()) if re.fullmatch(r"\s*[a-z_]+: \S.*", line)]


def mutated(study: dict, kind: str, rng: random.Random) -> tuple[str, str | None, str]:
    """The study file's text with one defect of ``kind``, the start of the key path the refusal must name (None
    where the file is not YAML at all) and a text it must quote (the form or the width)."""
    text = yaml.safe_dump(study, sort_keys=False, allow_unicode=True)
    if kind in ("underscore_int", "base60_int"):  # the value where an integer is expected, in a YAML 1.1 form
        form = "1_0" if kind == "underscore_int" else f"{rng.randint(1, 9)}:{rng.randint(10, 59)}"
        study["tables"][0]["precision"][rng.choice(sorted(study["tables"][0]["precision"]))] = 987654321
        text = yaml.safe_dump(study, sort_keys=False, allow_unicode=True).replace(": 987654321\n", f": {form}\n")
        return text, "tables.0.precision.", form
    if kind == "duplicate_key":
        lines = text.splitlines()
        k = rng.choice(scalar_key_lines(text))
        key = lines[k].strip().split(":")[0]
        return "\n".join(lines[: k + 1] + [lines[k]] + lines[k + 1 :]) + "\n", None, f"key '{key}' appears twice"
    width = rng.choice([101, 4096, 300000000])
    if kind == "format_width":
        field = rng.choice(["row", "column"])
        study["metrics"][0][field] = study["metrics"][0][field].replace("}", f":>{width}}}", 1)
        return yaml.safe_dump(study, sort_keys=False, allow_unicode=True), f"metrics.0.{field}", str(width)
    if kind == "format_field":
        field = rng.choice(["row", "column"])
        reach = rng.choice([".__class__", "[0]", ".__init__.__globals__"])
        study["metrics"][0][field] = study["metrics"][0][field].replace("}", f"{reach}}}", 1)
        return yaml.safe_dump(study, sort_keys=False, allow_unicode=True), f"metrics.0.{field}", reach
    where = rng.choice(["title", "tables.0.title", "tables.0.row_header", "exclusions.1.params.reason"])
    node = study
    for part in where.split(".")[:-1]:
        node = node[int(part)] if part.isdigit() else node[part]
    node[where.split(".")[-1]] += f" {{0:>{width}}}"
    return yaml.safe_dump(study, sort_keys=False, allow_unicode=True), where, str(width)


@settings(
    max_examples=1, deadline=None, derandomize=True, phases=[Phase.generate], suppress_health_check=list(HealthCheck)
)
@given(clean=case(0), seed=st.integers(0, 10**9))
def test_a_hostile_study_file_stops_the_run_in_one_line(clean, seed, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile_files")
    workdir = copy_project(tmp / "project", [])
    made = write_batch(workdir, tmp / "mirror", [clean], [])
    (name,) = made["good"]
    path = workdir / "config/studies" / f"{name}.yaml"
    study = yaml.safe_load(path.read_text())
    main = yaml.safe_load((workdir / "config/config.yaml").read_text())
    main["studies"] = [name]
    (workdir / "config/config.yaml").write_text(yaml.safe_dump(main))
    env = {"HUMEVAL_RAW_MIRROR": str(tmp / "mirror")}
    assert run_snakemake(workdir, "-n", env=env).returncode == 0  # the clean file plans

    rng = random.Random(seed)
    for kind in KINDS:
        for _ in range(PER_KIND):
            text, key, named = mutated(yaml.safe_load(yaml.safe_dump(study)), kind, rng)
            path.write_text(text)
            run = run_snakemake(workdir, "-n", env=env)
            output = run.stdout + run.stderr
            lines = [line for line in output.splitlines() if line.startswith("invalid configuration: ")]
            assert run.returncode != 0 and len(lines) == 1, (kind, output[-2000:])
            assert f"config/studies/{name}.yaml" in lines[0], (kind, lines[0])
            assert (key is None or f"key {key}" in lines[0]) and named in lines[0], (kind, key, named, lines[0])
            assert "Traceback" not in output and not [i for i in made["ids"] if i in output], (kind, lines[0])
            assert not (workdir / "results").exists(), kind
    SUMMARY_LINES.append(
        f"hostile study files: {len(KINDS) * PER_KIND} generated mutations ({', '.join(KINDS)}), each one line at -n"
    )
    shutil.rmtree(tmp, ignore_errors=True)
