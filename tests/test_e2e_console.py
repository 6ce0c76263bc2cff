"""What a full run prints (the logger plugin humeval of profiles/default, and the Snakefile's ``onsuccess``): a line
per finished job with the run's progress and the job's study and stage, and at the end one line per study, the
verdict as ``summary/verdict.csv`` has it. Snakemake's default console printed 1,003 lines for the same run."""

import os
import re

import pytest
import yaml
from helpers import run_snakemake

from humeval.intermediate import read_csv

pytestmark = pytest.mark.e2e


def test_a_full_run_prints_a_line_per_job_and_ends_with_a_line_per_study(full_run):
    printed = (full_run / "console.txt").read_text().splitlines()
    (total,) = [int(m.group(1)) for line in printed if (m := re.fullmatch(r"(\d+) jobs to run", line))]
    studies = yaml.safe_load((full_run / "config/config.yaml").read_text())["studies"]
    # a job still running after 15 s says so once (how many depends on the machine's load), before its own line
    running = [line for line in printed if line.startswith("  still running: ")]
    lines = [line for line in printed if line not in running]
    assert len(running) == len(set(running)) <= total
    for line in running:  # "  still running: <study>, <rule> (15 s)", then that job's progress line
        study, _, rule = line.removeprefix("  still running: ").rsplit(" (", 1)[0].rpartition(", ")
        head = f"] {study}, job " if study else f"] {rule}"  # a job of no study (the summary) is named by its rule
        own = [k for k, p in enumerate(printed) if p.startswith("[") and head in p and p.endswith(rule)]
        assert (not study or study in studies) and any(k > printed.index(line) for k in own), line
    # a line per job and per study, and at most 15 besides (was 1,003 lines for six studies): 156 for fifteen
    assert len(lines) <= total + len(studies) + 15, (len(lines), total, len(studies))
    progress = [line for line in lines if line.startswith("[")]
    assert [int(re.match(r"\[(\d+)/(\d+)\]", p).group(1)) for p in progress] == list(range(1, total + 1))
    assert all(p.startswith(f"[{i}/{total}] ") for i, p in enumerate(progress, 1))

    # each study's jobs, numbered per study, each naming its stage; in the shared run every study's (a folder given
    # by $HUMEVAL_FULL_RUN may hold a run that added studies to a finished one: tests/test_e2e_added_study.py)
    ran = [study for study in studies if any(f"] {study}, job " in p for p in progress)]
    assert ran == studies or os.environ.get("HUMEVAL_FULL_RUN"), sorted(set(studies) - set(ran))
    for study in ran:
        own = [p.split(": ", 1) for p in progress if f"] {study}, job " in p]
        assert [int(head.rsplit(" ", 1)[1]) for head, _ in own] == list(range(1, len(own) + 1))
        assert {"extract", "metrics", "tables"} <= {stage for _, stage in own}
    verdicts = read_csv(full_run / "results/summary/verdict.csv").fillna("")
    closing = lines[-len(studies) :]
    assert lines[-len(studies) - 1].startswith("Done. The report: snakemake --report results/report.html")
    audit = read_csv(full_run / "results/summary/audit.csv").set_index("study")
    for line, row in zip(closing, verdicts.itertuples(index=False), strict=True):
        # those that differ, the undiagnosed apart (issue 55: "29 of 42 match" read as 13 failures)
        differ, undiagnosed = int(audit.loc[row.study, "mismatch"]), int(audit.loc[row.study, "mismatch_undiagnosed"])
        notes = read_csv(full_run / "results" / row.study / "numbers.csv").fillna("")
        mismatched = notes[notes["status"] == "mismatch"]
        assert (differ, undiagnosed) == (len(mismatched), int(mismatched["note"].str.startswith("UNDIAGNOSED").sum()))
        said = "" if not differ else f", {differ} differ, all diagnosed" if not undiagnosed else f", {differ} differ: "
        if differ and undiagnosed:
            said += f"{differ - undiagnosed} diagnosed, {undiagnosed} undiagnosed"
        held = "no findings stated" if row.findings_hold == "none stated" else f"findings {row.findings_hold} hold"
        assert line == f"{row.study}: {held}; {row.numbers_match} published numbers match{said}; results/{row.study}/"
    assert [line.split(":")[0] for line in closing] == studies


def test_a_rerun_with_nothing_to_do_prints_the_verdict_it_found(full_run):
    """Issue 55: the user who reruns to see the result got "Nothing to be done" alone (Snakemake runs no
    ``onsuccess`` then); the logger plugin prints the same closing lines from the results it found."""
    rerun = run_snakemake(full_run)
    lines = rerun.stdout.splitlines() + rerun.stderr.splitlines()
    assert rerun.returncode == 0 and any(line.startswith("Nothing to be done") for line in lines), lines
    console = (full_run / "console.txt").read_text().splitlines()
    done = console.index(next(line for line in console if line.startswith("Done. The report")))
    assert lines[lines.index(console[done]) :] == console[done:]
