"""What a full run prints (the logger plugin humeval of profiles/default, and the Snakefile's ``onsuccess``): a line
per finished job with the run's progress and the job's study and stage, and at the end one line per study, the
verdict as ``summary/verdict.csv`` has it. Snakemake's default console printed 1,003 lines for the same run."""

import re

import pytest
import yaml

from humeval.intermediate import read_csv

pytestmark = pytest.mark.e2e


def test_a_full_run_prints_a_line_per_job_and_ends_with_a_line_per_study(full_run):
    lines = (full_run / "console.txt").read_text().splitlines()
    (total,) = [int(m.group(1)) for line in lines if (m := re.fullmatch(r"(\d+) jobs to run", line))]
    studies = yaml.safe_load((full_run / "config/config.yaml").read_text())["studies"]
    # a line per job and per study, and at most 15 besides (was 1,003 lines for six studies): 156 for fifteen
    assert len(lines) <= total + len(studies) + 15, (len(lines), total, len(studies))
    progress = [line for line in lines if line.startswith("[")]
    assert [int(re.match(r"\[(\d+)/(\d+)\]", p).group(1)) for p in progress] == list(range(1, total + 1))
    assert all(p.startswith(f"[{i}/{total}] ") for i, p in enumerate(progress, 1))

    for study in studies:  # each study's jobs, numbered per study, each naming its stage
        own = [p.split(": ", 1) for p in progress if f"] {study}, job " in p]
        assert [int(head.rsplit(" ", 1)[1]) for head, _ in own] == list(range(1, len(own) + 1))
        assert {"extract", "metrics", "tables"} <= {stage for _, stage in own}
    verdicts = read_csv(full_run / "results/summary/verdict.csv").fillna("")
    closing = lines[-len(studies) :]
    assert lines[-len(studies) - 1].startswith("Done. The report: snakemake --report results/report.html")
    for line, row in zip(closing, verdicts.itertuples(index=False), strict=True):
        assert line == (
            f"{row.study}: findings {row.findings_hold} hold; {row.numbers_match} published numbers match; "
            f"results/{row.study}/"
        )
    assert [line.split(":")[0] for line in closing] == studies
