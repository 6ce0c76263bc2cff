"""Bad input through the whole pipeline: one clear error, no partial result."""

import hashlib
import shutil

import pandas as pd
import pytest
import yaml
from helpers import copy_project, mirror_file, raw_source, run_snakemake, skip_or_fail

STUDY = "hosking-2022-paraphrase-meaning"
pytestmark = pytest.mark.e2e


def study_config(workdir):
    return workdir / "config/studies" / f"{STUDY}.yaml"


def edit_study(workdir, change):
    path = study_config(workdir)
    study = yaml.safe_load(path.read_text())
    change(study)
    path.write_text(yaml.safe_dump(study, sort_keys=False))
    return study


def no_results(workdir):
    """No output that depends on the raw data; the published numbers (parsed from the config alone, by a rule
    that does not read raw data) may be complete already."""
    base = workdir / "results" / STUDY
    independent = {base / "intermediate/published.csv"}
    return not any(p.suffix in {".csv", ".md", ".png"} and p not in independent for p in base.rglob("*"))


def test_wrong_sha256_stops_with_study_file_and_url(tmp_path):
    env = raw_source()
    workdir = copy_project(tmp_path / "p", [STUDY])
    study = edit_study(workdir, lambda s: s["raw"][0].update(sha256="0" * 64))
    result = run_snakemake(workdir, env=env)
    assert result.returncode != 0
    assert "sha256 mismatch" in result.stderr and STUDY in result.stderr and study["raw"][0]["url"] in result.stderr
    assert not (workdir / "data/raw" / STUDY / "database.db").exists()
    assert no_results(workdir)


def test_config_with_missing_key_stops_before_any_job(tmp_path):
    workdir = copy_project(tmp_path / "p", [STUDY])
    edit_study(workdir, lambda s: s.pop("extract"))
    result = run_snakemake(workdir, "-n")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "key extract: 'extract' is a required property" in output and f"{STUDY}.yaml" in output
    assert "Traceback" not in output


def mirror_with_modified(tmp_path, raw_id, modify):
    """A private mirror holding the real files except ``raw_id``, replaced by ``modify(bytes)``;
    returns (mirror dir, new sha256)."""
    if raw_source().get("HUMEVAL_RAW_MIRROR") is None:
        skip_or_fail("needs a raw mirror to build a modified copy from")
    workdir = copy_project(tmp_path / "p", [STUDY])
    study = yaml.safe_load(study_config(workdir).read_text())
    mirror = tmp_path / "mirror"
    new_sha = None
    from humeval.fetch import mirror_relpath

    for entry in study["raw"]:
        rel = mirror_relpath(entry["url"])
        (mirror / rel).parent.mkdir(parents=True, exist_ok=True)
        if entry["id"] == raw_id:
            data = modify(mirror_file(entry["url"]).read_bytes())
            (mirror / rel).write_bytes(data)
            new_sha = hashlib.sha256(data).hexdigest()
        else:
            shutil.copy(mirror_file(entry["url"]), mirror / rel)
    edit_study(workdir, lambda s: [e.update(sha256=new_sha) for e in s["raw"] if e["id"] == raw_id])
    return workdir, {"HUMEVAL_RAW_MIRROR": str(mirror)}


def test_truncated_database_fails_in_extract_without_partial_tidy(tmp_path):
    workdir, env = mirror_with_modified(tmp_path, "database", lambda data: data[: len(data) // 3])
    result = run_snakemake(workdir, env=env)
    assert result.returncode != 0
    assert "humeval error in extract" in result.stderr and "database.db" in result.stderr
    assert no_results(workdir)


def test_item_file_with_missing_column_fails_naming_it(tmp_path):
    def drop_column(data):
        import io

        frame = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)
        return frame.drop(columns="systemb7").to_csv(index=False).encode()

    workdir, env = mirror_with_modified(tmp_path, "authors_data", drop_column)
    result = run_snakemake(workdir, env=env)
    assert result.returncode != 0
    assert "authors_data.csv" in result.stderr and "systemb7" in result.stderr
    assert no_results(workdir)


def test_a_qra3_item_label_criterion_no_judgement_has_stops_the_qra_job_in_one_line(tmp_path):
    """Type III reads the kept judgements of ``item_labels.criterion``: one that none has (a misspelling) stops
    the QRA job in one line naming the key and the criteria there are; it left Type III empty, silently."""
    env = raw_source()
    study = "liu-2021-dexperts-fluency"
    workdir = copy_project(tmp_path / "p", [study])
    path = workdir / "config/studies" / f"{study}.yaml"
    config = yaml.safe_load(path.read_text())
    config["qra3"][0]["criteria"][0]["item_labels"]["criterion"] = "fluncy"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    assert run_snakemake(workdir, "-n", env=env).returncode == 0  # only the judgements can tell
    result = run_snakemake(workdir, "--config", "planning=false", env=env)
    assert result.returncode != 0
    line = "key qra3.0: criteria.0.item_labels.criterion 'fluncy': no kept judgement of ['O', 'R1'] has it"
    assert line in result.stderr and "(their criteria: ['fluency'])" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (workdir / "results" / study / "intermediate/qra.csv").exists()
