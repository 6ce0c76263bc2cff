"""After a full run, no file under results/ (tables, logs, the HTML report) holds an identifier of the raw data."""

import ast
import json
import re
import sqlite3

import pandas as pd
import pytest

pytestmark = pytest.mark.e2e


def raw(full_run, study, name):
    return full_run / "data/raw" / study / name


def identifiers(full_run) -> dict[str, set[str]]:
    """Personal data and platform ids found in the raw exports, by kind."""
    found: dict[str, set[str]] = {"prolific": set(), "worker": set(), "ip": set(), "city": set(), "response": set()}
    with sqlite3.connect(raw(full_run, "hosking-2022-paraphrase-meaning", "database.db")) as db:
        for pid, session in db.execute("SELECT prolific_id, session_id FROM tasks"):
            found["prolific"] |= {pid, session}
        for rid, text in db.execute("SELECT id, json_string FROM results"):
            record = ast.literal_eval(text)
            found["prolific"] |= {record["prolific_pid"], record["session_id"]}
            found["response"].add(rid)
    report = pd.read_csv(
        raw(full_run, "shardlow-2019-clinical-simplification", "report.csv"), dtype=str, keep_default_na=False
    )
    found["worker"] |= set(report["_worker_id"])
    found["ip"] |= set(report["_ip"])
    found["city"] |= set(report["_city"]) | set(report["_region"])
    amt = pd.read_csv(raw(full_run, "liu-2021-dexperts-fluency", "amt_results.csv"), dtype=str, keep_default_na=False)
    found["worker"] |= set(amt["AssignmentId"])
    for name in ("likert.json", "comparative.json"):
        document = json.loads(raw(full_run, "finch-2024-evaluator-groups", name).read_text())
        units = next(iter(document.values()))["work_units"].values()
        found["worker"] |= {u["worker_id"] for u in units}
    for condition in ("likert", "rme", "bme", "bws"):
        survey = pd.read_csv(
            raw(full_run, "santhanam-2019-dialogue-design", f"survey_{condition}.csv"),
            dtype=str,
            keep_default_na=False,
            header=None,
            skiprows=3,
        )
        found["response"] |= set(survey.iloc[:, 7])
        sheet = pd.read_excel(
            raw(full_run, "santhanam-2019-dialogue-design", f"inlg_{condition}.xlsx"),
            sheet_name="original_data",
            dtype=str,
        )
        found["worker"] |= set(sheet.iloc[:, 1].dropna())
        found["ip"] |= set(sheet["IP Address"].dropna())
        found["city"] |= set(sheet["City"].dropna())
    found["email"], found["sheet_author"] = set(), set()
    for sheet in (full_run / "data/raw").glob("*/heds_*.json"):  # Human Evaluation Datasheets
        document = json.loads(sheet.read_text())
        found["email"] |= set(re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", sheet.read_text()))
        for key, value in document.items():
            if "names_and_affiliations" in key and key.endswith(("-name", "-email")):
                found["sheet_author"] |= {v for v in value.get("data", {}).values() if v and v != "N/A"}
    # drop empty values and values too short to be identifying on their own
    return {kind: {v for v in values if isinstance(v, str) and len(v.strip()) >= 6} for kind, values in found.items()}


TOKEN = re.compile(r"[\w@:-]+(?:[.'][\w@:-]+)*")


def report_data(path) -> str:
    """What the Snakemake report holds of ours: every embedded result decoded (tables are base64 CSV),
    with its caption and job properties, and the rules' params. The template's bundled libraries and
    their licence texts are not data and are not scanned."""
    import base64

    html = path.read_text(errors="ignore")
    parts = []
    for name in ("results", "rules", "categories"):
        match = re.search(r"var " + name + r" = (\{.*?\});\s*\n", html, flags=re.DOTALL)
        assert match, f"report.html has no 'var {name}'"
        parts.append(match.group(1))
        if name == "results":
            for entry in json.loads(match.group(1)).values():
                header, _, payload = entry.get("data_uri", "").partition(",")
                if ";base64" in header:
                    parts.append(base64.b64decode(payload).decode("utf-8", errors="ignore"))
    return "\n".join(parts)


def project_vocabulary(workdir) -> str:
    """The project's own code, config and captions: a value found there (the city "Reading" in "Flesch
    Reading Ease") is vocabulary, not evidence of a leak."""
    parts = [p for p in (workdir / "workflow").rglob("*") if p.suffix in {".py", ".smk", ".rst", ".yaml"}]
    parts += list((workdir / "config").rglob("*.yaml")) + [workdir / "Snakefile"]
    return "\n".join(p.read_text() for p in parts)


def find_leaks(root, ids: dict, vocabulary: str) -> dict:
    """Files under ``root`` holding any identifier (file -> kinds)."""
    kind_of = {v: kind for kind, values in ids.items() for v in values if v not in vocabulary}
    spaced = [v for v in kind_of if not TOKEN.fullmatch(v)]  # e.g. a two-word city: plain substring search
    files = [
        p
        for p in root.rglob("*")
        if p.is_file() and p.suffix in {".csv", ".md", ".log", ".txt", ".html", ".dot", ".svg"}
    ]
    leaks = {}
    for path in files:
        text = report_data(path) if path.name == "report.html" else path.read_text(errors="ignore")
        hits = (set(TOKEN.findall(text)) & kind_of.keys()) | {v for v in spaced if v in text}
        if hits:
            leaks[str(path.relative_to(root))] = sorted({kind_of[h] for h in hits})
    return leaks


def test_no_raw_identifier_in_any_output_log_or_report(full_run):
    ids = identifiers(full_run)
    assert len(ids["prolific"]) > 100 and len(ids["worker"]) > 100 and len(ids["ip"]) > 50
    assert ids["sheet_author"] and ids["email"] <= ids["sheet_author"] | ids["email"]  # the datasheets hold some
    assert (full_run / "results/report.html").is_file()
    leaks = find_leaks(full_run / "results", ids, project_vocabulary(full_run))
    assert not leaks, f"raw identifiers found (file -> kinds): {leaks}"


def test_the_check_finds_a_planted_identifier(full_run, tmp_path):
    ids = identifiers(full_run)
    planted = min(ids["ip"])
    (tmp_path / "table.csv").write_text(f"row,value\nx,{planted}\n")
    assert find_leaks(tmp_path, ids, project_vocabulary(full_run)) == {"table.csv": ["ip"]}


def test_no_raw_identifier_in_the_logs_or_messages_of_failed_runs(full_run, tmp_path):
    """Faults that stop a run inside a loader (a damaged Figure Eight report with worker ids, IP addresses and
    cities; a truncated Prolific database): the error message, results/logs and .snakemake/log hold no id."""
    import hashlib
    import shutil

    import yaml
    from helpers import copy_project, run_snakemake

    from humeval.fetch import mirror_relpath

    ids, vocabulary = identifiers(full_run), project_vocabulary(full_run)
    faults = {
        ("shardlow-2019-clinical-simplification", "report"): lambda data: data.replace(b",1,", b",first,", 40),
        ("hosking-2022-paraphrase-meaning", "database"): lambda data: data[: len(data) // 3],
    }
    for (study, raw_id), damage in faults.items():
        workdir = copy_project(tmp_path / study, [study])
        path = workdir / "config/studies" / f"{study}.yaml"
        config = yaml.safe_load(path.read_text())
        mirror = tmp_path / f"mirror-{study}"
        for entry in config["raw"]:
            original = next((full_run / "data/raw" / study).glob(entry["id"] + ".*"), None)
            if original is None:
                continue
            target = mirror / mirror_relpath(entry["url"])
            target.parent.mkdir(parents=True, exist_ok=True)
            if entry["id"] == raw_id:
                data = damage(original.read_bytes())
                target.write_bytes(data)
                entry["sha256"] = hashlib.sha256(data).hexdigest()
            else:
                shutil.copy(original, target)
        path.write_text(yaml.safe_dump(config, sort_keys=False))
        result = run_snakemake(workdir, "--config", f"raw_mirror={mirror}")
        assert result.returncode != 0 and "humeval error in extract" in result.stderr, result.stderr[-1500:]
        (workdir / "stderr.txt").write_text(result.stdout + result.stderr)
        for folder in (workdir / "results/logs", workdir / ".snakemake/log", workdir):
            leaks = find_leaks(folder, ids, vocabulary) if folder.exists() else {}
            leaks = {k: v for k, v in leaks.items() if not k.startswith(("config", "workflow", "data"))}
            assert not leaks, f"{study}: raw identifiers in {folder}: {leaks}"


def test_pseudonyms_cannot_be_recomputed_from_the_study_name_but_can_from_the_raw_files(full_run):
    """The red team re-identified all 98 of 98 shardlow workers from ``sha256("<study>:<worker id>")`` alone.
    Pseudonyms are now keyed with the study's raw files: the public derivations (the old hash, or an HMAC keyed
    with the study name or the public pinned sha256) match none; the key from the raw bytes matches all."""
    import hashlib
    import hmac

    from humeval.config.load import load_study
    from humeval.config.studyfile import raw_filename
    from humeval.tidy import keyed_pseudonyms, pseudonym, pseudonym_key

    name = "shardlow-2019-clinical-simplification"
    study = load_study(full_run / "config/studies" / f"{name}.yaml")
    report = pd.read_csv(raw(full_run, name, "report.csv"), dtype=str, keep_default_na=False)
    workers = sorted(set(report["_worker_id"]))
    written = set(pd.read_csv(full_run / "results" / name / "tidy/judgements.csv", dtype=str)["participant"])
    assert len(workers) == len(written) == 98
    public_keys = [name.encode()] + [bytes.fromhex(r["sha256"]) for r in study["raw"] if r.get("sha256")]
    guesses = {"W" + hashlib.sha256(f"{name}:{w}".encode()).hexdigest()[:10] for w in workers}
    for key in public_keys:
        guesses |= {"W" + hmac.new(key, f"{name}:{w}".encode(), hashlib.sha256).hexdigest()[:10] for w in workers}
    assert not guesses & written
    files = [str(raw(full_run, name, raw_filename(r))) for r in study["raw"] if not r.get("optional")]
    with keyed_pseudonyms(pseudonym_key(files)):
        assert {pseudonym(w, name, prefix="W") for w in workers} == written
