"""Classes 1, 2 and 10: no config or export text in Snakemake's params (so none in the report's inline script),
raw URLs exactly ``scheme://host/path``, and no markup built from data on the report's front page."""

import re

import pytest
from helpers import REPO, copy_project, run_snakemake

from humeval.errors import HumevalError
from humeval.fetch import check_url

PINNED = "https://raw.githubusercontent.com/o/r/0123456789abcdef0123456789abcdef01234567/report.csv"


@pytest.mark.parametrize(
    "suffix, what",
    [
        ("?x=</script><img src=x onerror=alert(1)>", "a query"),
        (";x=1", "parameters"),
        ("#top", "a fragment"),
        ("%20x y", "white space"),
    ],
)
def test_a_raw_url_is_exactly_scheme_host_path(suffix, what):
    with pytest.raises(HumevalError, match=f"must be exactly scheme://host/path, without {what}"):
        check_url(PINNED + suffix)
    with pytest.raises(HumevalError, match="without user info"):
        check_url(PINNED.replace("https://", "https://user@"))
    check_url(PINNED)  # the plain form passes


def test_a_url_with_a_query_is_refused_at_a_dry_run_in_one_line(tmp_path):
    workdir = copy_project(tmp_path / "project", ["example-2025-ranking"])
    study = workdir / "config/studies/example-2025-ranking.yaml"
    text = (REPO / "config/studies/_template.yaml").read_text()
    url = next(line.split("url:")[1].strip() for line in text.splitlines() if "url:" in line)
    study.write_text(text.replace(url, url + "?x=</script><img src=x onerror=alert(1)>", 1))
    result = run_snakemake(workdir, "-n")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output
    line = next(line for line in output.splitlines() if "must be exactly scheme://host/path" in line)
    assert "example-2025-ranking.yaml" in line and "key raw.0.url" in line


def test_every_job_param_is_a_digest_not_config_text():
    """What a rule's params carry of a study (humeval.config.studyfile.slice_param): its keys and a digest, whatever the
    study holds; the job reads the text from the study file and checks it against the digest."""
    from humeval.config.studyfile import slice_param

    hostile = {"name": "s", "raw": [{"id": "a", "url": "https://x/</script><img src=x onerror=alert(1)>"}]}
    param = slice_param(hostile, ["raw"])
    assert param.startswith("raw sha256:") and len(param) == len("raw sha256:") + 16
    assert "<" not in param and "script" not in param
    assert slice_param({**hostile, "raw": []}, ["raw"]) != param  # a changed value reruns the job


def test_a_job_refuses_a_study_file_edited_after_the_run_started(tmp_path):
    from humeval.config.studyfile import job_study, slice_param, study_slice

    text = (REPO / "config/studies/_template.yaml").read_text()
    (tmp_path / "example-2025-ranking.yaml").write_text(text)
    config = {"study_dir": str(tmp_path)}
    from humeval.config.load import load_study

    param = slice_param(study_slice(load_study(tmp_path / "example-2025-ranking.yaml"), ["raw"]), ["raw"])
    assert job_study(config, "example-2025-ranking", param)["raw"][0]["id"]
    (tmp_path / "example-2025-ranking.yaml").write_text(text.replace("sha256: ff7bb78f", "sha256: 007bb78f", 1))
    with pytest.raises(HumevalError, match="changed after this run started"):
        job_study(config, "example-2025-ranking", param)


def test_the_front_page_holds_no_markup_built_from_data():
    """overview.rst (the report's front page, rendered by docutils) from audits whose condition names and notes
    hold RST directives: none of them reaches the page, and docutils renders no raw HTML and includes no file."""
    import pandas as pd
    from docutils.core import publish_parts

    from humeval.report.front_page import misses_with_power, overview_rst, rst_text, verdict_rows

    directive = "Fluency\n\n.. raw:: html\n\n   <script>alert(1)</script>\n\n.. include:: /etc/passwd\n"
    audit = pd.DataFrame(
        {
            "table": ["conditions", "conditions", "t1"],
            "row": [directive, directive, "O"],
            "column": ["O", "R1", "x"],
            "status": ["condition", "condition", "mismatch"],
            "note": ["a", "b", "[hypothesis_] `x <javascript:alert(1)>`_ " + directive],
        }
    )
    counts = pd.DataFrame(
        [
            {
                "study": "s-2020-x",
                "match": 1,
                "mismatch": 1,
                "published_only": 0,
                "recomputed_only": 0,
                "published_input": 0,
                "no_raw_data": 0,
                "no_measure": 0,
                "reason_not_stated": 0,
                "match_printed": 0,  # every column summary/audit.csv has (humeval.summary.audit_summary)
                "mismatch_printed": 0,
                "mismatch_undiagnosed": 1,
            }
        ]
    )
    qra3 = pd.DataFrame(columns=["study", "level", "cv_star", "p_findings", "experiments"])
    found = pd.DataFrame(
        {
            "study": "s-2020-x",
            "finding": "F1",
            "experiment": ["O", "R1"],
            "holds": ["yes", "no"],
            "power": [float("nan"), 0.31],
        }
    )
    studies = {"s-2020-x": {"experiments": [{"id": "O"}, {"id": "R1"}]}}
    verdicts = verdict_rows(counts, found, qra3, studies)
    page = overview_rst(verdicts, {"s-2020-x": audit}, {"s-2020-x": []}, misses_with_power(found))
    assert "0 of 1 (R1)" in page and "s-2020 R1: F1 0.31" in page
    assert "raw::" not in page and "include::" not in page and "<script" not in page and "alert" not in page
    # the only script on the page is the project's own: link targets that open a card or a summary page, each a
    # fixed call whose only data is a study name through rst_text (issue 55's one click)
    safe = r"[A-Za-z0-9 .,;:()/-]+"
    own = re.compile(
        rf"\.\. _(card-{safe}|open-summary-[a-z-]+): javascript:app\.setView\(\{{content:'html',"
        rf"contentPath:results\['results/summary/{safe}\.html'\]\.data_uri,resultPath:'results/summary/{safe}\.html'\}}\)"
    )
    scripted = [line for line in page.splitlines() if "javascript" in line]
    assert scripted and all(own.fullmatch(line) for line in scripted), scripted
    html = publish_parts(page + "\n\n.. _s-2020-x:\n\nx\n\n.. _summary-raw-files.html:\n\nx\n", writer_name="html")[
        "body"
    ]
    assert "<script" not in html and "root:" not in html and "alert" not in html
    assert rst_text("a`b*c_d|e<f>\n.. raw::") == "a?b?c?d?e?f??.. raw::"


def test_figure_text_is_drawn_as_text_never_as_mathtext(tmp_path):
    """Labels and titles come from configs and exports: an unbalanced \\frac or hundreds of nested roots parsed as
    mathtext ended a figure job in a traceback; the project style draws them as plain text."""
    from humeval.report.figures.style import pyplot, save

    plt = pyplot()
    fig, ax = plt.subplots()
    ax.bar(["$\\frac{", "$" + "\\sqrt{" * 400 + "x" + "}" * 400 + "$"], [1, 2])
    ax.set_title("$\\frac{1}{$ and $x^{$")
    paths = save(fig, tmp_path / "hostile")
    plt.close(fig)
    assert paths[0].stat().st_size > 0


def test_a_figure_that_cannot_be_drawn_is_one_line_naming_it_and_its_template_keys(tmp_path):
    """{:d} on a float ended the figures job in a traceback."""
    import pandas as pd

    from humeval.errors import HumevalError
    from humeval.report.figures.draw import draw_figures

    audit = pd.DataFrame(
        {
            "table": "t",
            "row": ["A", "B"],
            "column": "c",
            "value": [1.5, 2.5],
            "published": [None, None],
            "precision": 2,
            "status": "recomputed_only",
            "note": "",
        }
    )
    spec = {"id": "f1", "kind": "bars", "table": "t", "rows": ["A", "B"], "columns": ["c"], "label_format": "{:d}"}
    with pytest.raises(HumevalError) as info:
        draw_figures(audit, [spec], tmp_path)
    message = str(info.value)
    assert message.startswith("figure f1 (bars): cannot draw it") and "['label_format']" in message
    assert "\n" not in message
