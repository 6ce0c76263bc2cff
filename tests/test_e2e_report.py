"""The reviewer's report in a real browser (headless Chromium): it renders, every figure decodes, every study's
audit and every table is an HTML table readable inline, the landing page shows the per-study audit counts of
``results/summary/audit.csv``, the rule graph has one node per stage, and no string of a config or an export
can run script in it. Screenshots of the landing page, one audit table and one figure are saved under
``results/screenshots/`` of the run, for a person to look at."""

import csv
import hashlib
import shutil

import pytest
from browser import find_browser, headless_chromium
from helpers import REPO, run_snakemake, skip_or_fail

from humeval.report import study_labels

pytestmark = pytest.mark.e2e
#: The most verdict rows that fit one screen at 1280x800 (750 px) with the text above and below them. Every
#: study's row is on the front page: the report's stylesheet sets the verdict from the page's top (Snakemake
#: centred it vertically and cut the top of a taller page), so more rows scroll from the top (measured below at
#: 1280x800 and 1920x1080).
ONE_SCREEN_STUDIES = 6

CHECK_IMAGES = """
const done = arguments[arguments.length - 1];
const entries = Object.entries(results).filter(([, r]) => r.mime_type && r.mime_type.startsWith("image/"));
Promise.all(entries.map(([path, r]) => new Promise(resolve => {
  const img = new Image();
  img.onload = () => resolve([path, img.naturalWidth]);
  img.onerror = () => resolve([path, 0]);
  img.src = r.data_uri;
}))).then(done);
"""
# Every HTML entry as the report embeds it (a data URI shown in an iframe): its rows of table.data.
HTML_TABLE_ROWS = """
const out = {};
for (const [path, r] of Object.entries(results)) {
  if (r.mime_type !== "text/html") continue;
  const bytes = Uint8Array.from(atob(r.data_uri.split(",")[1]), c => c.charCodeAt(0));
  const doc = new DOMParser().parseFromString(new TextDecoder().decode(bytes), "text/html");
  out[path] = [doc.querySelectorAll("table.data tbody tr").length, r.labels];
}
return out;
"""
LANDING_COUNTS = """
const table = [...document.querySelectorAll("table")].find(t => t.innerText.includes("findings hold"));
if (!table) return [];  // more studies than the front page holds: their rows are on summary-verdict.html
return [...table.querySelectorAll("tbody tr")].map(tr => [...tr.cells].map(td => td.innerText.trim()));
"""
# Where the front page's text column and the rule graph sit in the window.
LANDING_BOXES = """
const text = document.querySelector(".prose").getBoundingClientRect();
const graph = document.querySelector("#rulegraph canvas, #rulegraph svg").getBoundingClientRect();
return [window.innerWidth, window.innerHeight, text.top, text.bottom, text.left, text.right, graph.top,
        document.querySelector(".prose h2, .prose h1").getBoundingClientRect().top];
"""
VISIBLE_ROWS = """return [[...document.querySelectorAll("table.data tbody tr")].filter(r => !r.hidden).length,
document.getElementById("info").textContent];"""
WAIT_FOR_GRAPH = """
const done = arguments[arguments.length - 1];
const poll = () => document.querySelector("#rulegraph canvas, #rulegraph svg") ? done(true) : setTimeout(poll, 50);
poll();
"""
RULE_NODES = """return rulegraph_spec.data.find(d => d.name === "node-data").values.map(v => v.rule);"""


def browser_or_skip():
    if None in find_browser():
        skip_or_fail(
            "no headless Chromium/chromedriver (Debian packages chromium, chromium-driver; .ci/run installs them)"
        )


def configured_studies(workdir):
    import yaml

    from humeval.config.load import load_study

    names = yaml.safe_load((workdir / "config/config.yaml").read_text())["studies"]
    return {name: load_study(workdir / "config/studies" / f"{name}.yaml") for name in names}


def rows_of(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def test_report_renders_every_table_and_figure_and_the_audit_at_a_glance(full_run, tmp_path):
    browser_or_skip()
    report = full_run / "results/report.html"
    shots = full_run / "results/screenshots"
    shots.mkdir(exist_ok=True)
    studies = configured_studies(full_run)
    with headless_chromium(str(tmp_path / "profile")) as browser:
        browser.goto(report.as_uri())
        state = browser.run("return [document.readyState, document.body.innerText.length, Object.keys(categories)];")
        assert state[0] == "complete" and state[1] > 100
        assert set(studies) | {"Summary"} <= set(state[2])
        browser.screenshot(shots / "landing.png")
        loaded = dict(browser.run(CHECK_IMAGES, asynchronous=True))
        tables = browser.run(HTML_TABLE_ROWS)
        landing = browser.run(LANDING_COUNTS)
        nodes = browser.run(RULE_NODES)
        boxes = {}
        for width, height in ((1280, 800), (1920, 1080)):  # the front page fits: nothing cut off, graph below
            browser.resize(width, height)
            browser.goto(report.as_uri())
            browser.run(WAIT_FOR_GRAPH, asynchronous=True)
            boxes[(width, height)] = browser.run(LANDING_BOXES)
            browser.screenshot(shots / f"landing-{width}x{height}.png")
        first = next(iter(studies))
        browser.goto((full_run / "results" / first / "numbers.html").as_uri())
        browser.screenshot(shots / "audit.png")
        shown = browser.run(VISIBLE_ROWS)
        browser.run("document.getElementById('next').click();")
        shown_next = browser.run(VISIBLE_ROWS)
        figure = next(iter(studies[first].get("figures", [])), None)
        if figure:
            browser.goto((full_run / "results" / first / "figures" / f"{figure['id']}.png").as_uri())
            browser.screenshot(shots / "figure.png")
    figures = {path for path in loaded if path.endswith(".png")}
    assert figures == {
        f"results/{name}/figures/{figure['id']}.png"
        for name, study in studies.items()
        for figure in study.get("figures", [])
    } | {"results/summary/figure_cv_star.png", "results/summary/figure_qra3.png"} | {
        f"results/{name}/planning/figure_power.png" for name in studies
    }
    assert all(width > 0 for width in loaded.values()), {p: w for p, w in loaded.items() if w == 0}
    first_rows = len(rows_of(full_run / "results" / first / "numbers.csv"))  # 100 rows a page
    assert shown == [min(100, first_rows), f"rows 1-100 of {first_rows}" if first_rows > 100 else f"{first_rows} rows"]
    if first_rows > 100:
        assert shown_next == [min(100, first_rows - 100), f"rows 101-{min(200, first_rows)} of {first_rows}"]
    for name, study in studies.items():  # every audit and every table is an HTML table in the report
        audit_rows = len(rows_of(full_run / "results" / name / "numbers.csv"))
        assert tables[f"results/{name}/numbers.html"] == [
            audit_rows,
            {"study": name, "table": "numbers.csv", "kind": "audit"},
        ]
        for table in study["tables"]:
            rows, labels = tables[f"results/{name}/tables/{table['id']}.html"]
            assert rows == len(rows_of(full_run / "results" / name / "tables" / f"{table['id']}.csv"))
            # labelled as the paper names it (santhanam's table1: Table 1), or derived; the study is the category
            assert labels == {"in the paper": table.get("paper", "derived"), "table": table["id"]}
    counts = rows_of(full_run / "results/summary/audit.csv")
    found = rows_of(full_run / "results/summary/findings.csv")
    claims = rows_of(full_run / "results/summary/claims.csv")
    verdict = rows_of(full_run / "results/summary/verdict.csv")  # every study's verdict, whatever their number
    assert [v["study"] for v in verdict] == [c["study"] for c in counts]
    labels = [row[0] for row in landing]  # every study's row, labels unique by construction (issue 55)
    assert len(labels) == len(counts) and len(set(labels)) == len(labels), labels
    assert all(c["study"] == label or c["study"].startswith(f"{label}-") for label, c in zip(labels, counts))
    author_year = ["-".join(c["study"].split("-")[:2]) for c in counts]
    if len(set(author_year)) == len(author_year):  # the shipped studies: author-year, as the paper cites them
        assert labels == author_year
    for row, count in zip(landing, counts):  # the verdict: findings held (findings.csv), numbers matched (audit.csv)
        own = [f for f in found if f["study"] == count["study"]]
        first = {}  # each finding's first experiment (O, or the first its claims entry names)
        for f in own:
            first.setdefault(f["finding"], f)
        pairs = [
            f
            for f in own
            if f is not first[f["finding"]]
            and first[f["finding"]]["holds"] in ("yes", "not measured")
            and f["holds"] != "not measured"
        ]
        per_experiment = {}  # "k of n findings hold in R2", per reproduction
        for f in pairs:
            per_experiment.setdefault(f["experiment"], []).append(f["holds"] == "yes")
        expected = "; ".join(f"{sum(v)} of {len(v)} ({e})" for e, v in per_experiment.items()) or "none stated"
        assert row[1] == expected, (row, count)
        own_claims = [c for c in claims if c["study"] == count["study"]]  # claims: the same verdicts, per reproduction
        for claim in own_claims:
            finding = next(f for f in own if (f["finding"], f["experiment"]) == (claim["claim"], claim["experiment"]))
            assert claim["reproduction_holds"] == finding["holds"], (claim, finding)
        # numbers recomputed from judgements, and those computed from printed numbers alone after them (issue 51)
        printed = int(count["match_printed"]), int(count["match_printed"]) + int(count["mismatch_printed"])
        judged = int(count["match"]) - printed[0], int(count["match"]) + int(count["mismatch"]) - printed[1]
        expected = f"{judged[0]} of {judged[1]}" if judged[1] else "none from judgements"
        if printed[1]:
            expected += (
                f" (and {printed[0]} of {printed[1]} from printed numbers)"
                if judged[1]
                else (f" ({printed[0]} of {printed[1]} from printed numbers)")
            )
        assert row[2] == expected, (row, count)
        unstated = f" (and {count['reason_not_stated']} unstated)" if count["reason_not_stated"] != "0" else ""
        assert row[3] == f"{count['no_raw_data']} / {count['no_measure']}{unstated}", (row, count)  # apart by why
        assert int(count["no_raw_data"]) + int(count["no_measure"]) + int(count["reason_not_stated"]) == int(
            count["published_only"]
        )
    for size, (inner_width, inner_height, top, bottom, left, right, graph_top, heading) in boxes.items():
        assert 0 <= top, (size, inner_height, top, bottom)  # the top is never cut off
        if len(counts) <= ONE_SCREEN_STUDIES:  # up to six studies the verdict fits one screen; more scroll
            assert bottom <= inner_height, (size, inner_height, top, bottom)
        assert 0 <= heading < inner_height, (size, heading)  # the first heading is visible
        # the verdict takes the page's width (Snakemake's own layout gave it a 400 px column at 1920 beside the
        # rule graph), and the rule graph, for a reviewer auditing the workflow, is below it
        assert right - left >= inner_width / 2, (size, left, right)
        assert graph_top >= bottom, (size, bottom, graph_top)
    assert len(nodes) == len(set(nodes)), nodes  # one node per stage
    assert {"fetch_raw", "published", "extract", "exclude", "metrics", "qra", "tables", "figures", "summary"} <= set(
        nodes
    )


# Where the main pane's page sits after a click: the result it shows (the path whose data URI the iframe holds),
# and the iframe's box beside the navigation bar's.
SHOWN_PAGE = """
const done = arguments[arguments.length - 1], until = Date.now() + 5000;
const poll = () => {
  const frame = document.querySelector("iframe");
  if (!frame && Date.now() > until) return done([null, 0, 0, 0, 0]);  // the click opened no page in the pane
  if (!frame) return setTimeout(poll, 50);  // React renders the pane after the click's state change
  const shown = Object.entries(results).find(([, r]) => r.data_uri === frame.src);
  const box = frame.getBoundingClientRect(), bar = document.querySelector(".w-screen > div").getBoundingClientRect();
  done([shown ? shown[0] : "", box.left, box.width, box.height, bar.right]);
};
poll();
"""
# How far the widest table's box scrolls sideways: the pixels of its columns out of sight.
BOX_OVERFLOW = """
return [Math.max(0, ...[...document.querySelectorAll("div.scroll")].map(box => box.scrollWidth - box.clientWidth)), window.innerWidth, window.innerHeight, [...document.querySelectorAll("div.scroll")].map(b => [b.scrollWidth, b.clientWidth])];
"""
FRONT_PAGE_LINKS = """
return [...document.querySelectorAll(".prose a[href^='javascript:']")].map(a => a.textContent);
"""


def test_one_click_on_the_front_page_opens_each_card_and_summary_page_in_the_main_pane(full_run, tmp_path):
    """Issue 55: a reviewer on the front page clicks a study's name and sees its card, or a summary page's name and
    sees that page, in the main pane (before, a study link opened a sidebar folder and a summary link the sidebar's
    info panel, the pane keeping the previous page). Clicked with WebDriver at 1280x800 and 1920x1080, each link
    from a fresh front page; the pane is right of the navigation bar, and the card, laid out at the pane's size,
    is no wider than it (no column hidden); at 1920x1080 no table of a card or summary page scrolls sideways in its
    box (the findings summary's 19 columns did, its power out of sight, before they were laid out as 11)."""
    browser_or_skip()
    report = full_run / "results/report.html"
    studies = configured_studies(full_run)
    with headless_chromium(str(tmp_path / "profile")) as browser:
        for width, height in ((1280, 800), (1920, 1080)):
            browser.resize(width, height)
            browser.goto(report.as_uri())
            names = browser.run(FRONT_PAGE_LINKS)
            labels = study_labels(studies)
            expected = {labels[s]: f"results/summary/card-{s}.html" for s in studies}
            expected |= {n: f"results/summary/{n}" for n in names if n.startswith("summary-")}
            assert set(names) == set(expected), names
            assert {n for n in names if n.startswith("summary-")} >= {
                f"summary-{page}.html" for page in ("findings", "audit", "verdict", "raw-files", "run")
            }
            panes = {}
            for k, name in enumerate(names):
                browser.goto(report.as_uri())
                browser.click(".prose a[href^='javascript:']", k)
                shown, left, pane_width, pane_height, bar_right = browser.run(SHOWN_PAGE, asynchronous=True)
                assert shown == expected[name], (width, name, shown)
                assert left >= bar_right - 1, (width, name, left, bar_right)  # not behind the navigation bar
                panes[shown] = (round(pane_width), round(pane_height))
            # each card and summary page at the size the pane gives it: no page wider than the pane (a wide table
            # scrolls in its own box; the audit's columns share the page)
            for path, (pane_width, pane_height) in panes.items():
                browser.resize(pane_width, pane_height)
                browser.goto((full_run / path).as_uri())
                scroll_width, inner_width = browser.run(
                    "return [document.documentElement.scrollWidth, window.innerWidth];"
                )
                assert scroll_width <= inner_width, (width, path, scroll_width, inner_width)
                if width == 1920:  # and at 1920x1080 every column in sight: no table scrolls sideways in its box
                    hidden = browser.run(BOX_OVERFLOW)
                    assert hidden[0] <= 1, (path, hidden)
                browser.resize(width, height)


def test_every_page_of_the_report_fits_its_pane_at_1280_by_800(full_run, tmp_path):
    """Every HTML page the report shows (each study's audit, tables, power table and card, the summary pages),
    laid out at the pane's size at 1280x800 (925 x 800, measured above), is no wider than the pane: a table wider
    than it scrolls in its own box, with its header and first column held, and the audit's columns share the page,
    its notes beside the numbers. Before, 31 of 76 pages overflowed to the right (up to 2,697 px)."""
    browser_or_skip()
    pages = sorted(p for p in (full_run / "results").rglob("*.html") if p.name != "report.html")
    assert len(pages) > 60
    wide = []
    with headless_chromium(str(tmp_path / "profile")) as browser:
        browser.resize(925, 800)
        for page in pages:
            browser.goto(page.as_uri())
            scroll_width, inner_width = browser.run("return [document.documentElement.scrollWidth, window.innerWidth];")
            if scroll_width > inner_width:
                wide.append((str(page.relative_to(full_run)), scroll_width))
    assert not wide, wide


# The text of every cell of a page's table, header row first, as a reader sees it (rows in the CSV's order).
TABLE_TEXT = """
return [...document.querySelector("table.data").rows].map(r => [...r.cells].map(c => c.textContent));
"""


def shown_interval(value, low, high):
    """An estimate and its interval as the summary pages print them, from the CSV's text (3 decimals)."""
    if value == "":
        return ""
    return f"{float(value):.3f}" + (f" [{float(low):.3f}, {float(high):.3f}]" if low != "" and high != "" else "")


def test_the_findings_claims_and_qra3_pages_show_each_csv_row_a_column_per_question(full_run, tmp_path):
    """summary-findings.html, summary-claims.html and qra3.html, read in Chromium, hold every row of their CSV in
    its order, each estimate in one cell with its own interval (a power's limits beside the power, not the
    effect's), the power's basis and analysis, the paper's test's power with its rate at zero effect, the note; and
    QRA3's sd* with its interval, the experiments within one and two sd*, the correlations and Kendall's W."""
    from humeval.report.tables import format_number

    browser_or_skip()
    found = rows_of(full_run / "results/summary/findings.csv")
    claims = rows_of(full_run / "results/summary/claims.csv")
    qra3 = rows_of(full_run / "results/summary/qra3.csv")
    with headless_chromium(str(tmp_path / "profile")) as browser:
        browser.goto((full_run / "results/summary/summary-findings.html").as_uri())
        findings_page = browser.run(TABLE_TEXT)
        browser.goto((full_run / "results/summary/summary-claims.html").as_uri())
        claims_page = browser.run(TABLE_TEXT)
        browser.goto((full_run / "results/summary/qra3.html").as_uri())
        qra3_page = browser.run(TABLE_TEXT)
    header, *cells = findings_page
    assert len(header) == 11 and len(cells) == len(found) > 80, (header, len(cells))
    powered = 0
    for row, shown in zip(found, cells):
        page = dict(zip(header, shown))
        assert [page[c] for c in ("study", "finding", "text", "experiment", "holds")] == [
            row[c] for c in ("study", "finding", "text", "experiment", "holds")
        ]
        assert page["effect [95%]"] == shown_interval(row["effect"], row["effect_low"], row["effect_high"])
        assert page["power [95%]"] == shown_interval(row["power"], row["power_low"], row["power_high"])
        assert page["basis, analysis"] == ", ".join(v for v in (row["power_basis"], row["power_analysis"]) if v)
        paper = shown_interval(row["paper_power"], row["paper_power_low"], row["paper_power_high"])
        if paper and row["paper_null_rate"]:
            paper += f"; {float(row['paper_null_rate']):.3f} at zero effect"
        assert page["the paper's test [95%]; at zero effect"] == paper
        assert page["note"] == row["power_note"]
        powered += page["power [95%]"] != ""
    assert powered >= 5, powered  # rows with a power are checked, not only empty ones (8 of the nine studies)
    header, *cells = claims_page
    assert len(cells) == len(claims) > 20
    for row, shown in zip(claims, cells):
        page = dict(zip(header, shown))
        assert page["claim"] == row["claim"] and page["evidence"] == row["evidence"], (page, row)
        assert page["reproduction power [95%]"] == shown_interval(
            row["reproduction_power"], row["power_low"], row["power_high"]
        )
    header, *cells = qra3_page
    assert len(header) == 14 and len(cells) == len(qra3) > 50, (header, len(cells))
    for row, shown in zip(qra3, cells):
        page = dict(zip(header, shown))
        assert page["system"] == row["system"] and page["note"] == row["note"], (page, row)
        assert page["sd* [95%]"] == shown_interval(row["sd_star"], row["sd_ci_low"], row["sd_ci_high"])
        within = f"{int(float(row['within_1sd']))} / {int(float(row['within_2sd']))}" if row["within_1sd"] else ""
        assert page["within 1 / 2 sd*"] == within
        if row["pearson_mean"]:
            means = [format_number(float(row[c]), 3) for c in ("pearson_mean", "spearman_mean")]
            assert page["pearson / spearman mean"] == " / ".join(means)
            w, p = (format_number(float(row[c]), 3) for c in ("kendall_w", "kendall_w_p"))
            assert page["kendall W (p)"] == f"{w} (p {p})"


def test_report_shows_no_restructuredtext_system_messages(full_run):
    """docutils writes a 'System Message' box into the page for every warning in a caption or the front page
    (e.g. a duplicate target when a report category is named like Snakemake's own 'Workflow' section)."""
    html = (full_run / "results/report.html").read_text(encoding="utf-8")
    messages = [html[max(0, i - 200) : i + 300] for i in _find_all(html, "System Message")]
    assert not messages, f"{len(messages)} system message(s); first: {messages[0]}"
    assert "system-message" not in html


def _find_all(text, needle):
    start = text.find(needle)
    while start >= 0:
        yield start
        start = text.find(needle, start + 1)


PAYLOAD = "</script><img src=x onerror=top.name+=1><script>top.name+=2</script>"


def hostile_study(target):
    """A copy of the template study with markup in a table title, a system label and a raw text cell (the
    export re-pinned by its new sha256 in a mirror of its own)."""
    mirror = target / "mirror"
    shutil.copytree(REPO / ".test/raw", mirror)
    export = next(mirror.rglob("report.csv"))
    export.write_text(export.read_text().replace("sentence 1 text", f"sentence {PAYLOAD} text"))
    text = (REPO / "config/studies/_template.yaml").read_text()
    text = text.replace("Source", f"'Source {PAYLOAD}'")
    text = text.replace("title: Rank counts and average rank", f"title: '{PAYLOAD} Rank counts and average rank")
    text = text.replace("per system, original (O) vs reproduction (R), with CV*", "per system, with CV*'")
    text = text.replace(
        "ff7bb78f2a4fbb79a28a2ebf336330101894ca379b3539146e7a14e08c8ab6d0",
        hashlib.sha256(export.read_bytes()).hexdigest(),
    )
    (target / "config/studies").mkdir(parents=True)
    (target / "config/studies/example-2025-ranking.yaml").write_text(text)
    (target / "config/config.yaml").write_text(f"studies: [example-2025-ranking]\nraw_mirror: {mirror}\n")
    shutil.copy(REPO / "Snakefile", target / "Snakefile")
    for name in ("workflow", "profiles", "envs"):
        shutil.copytree(REPO / name, target / name, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_markup_in_a_config_or_an_export_never_runs_in_the_report(tmp_path):
    browser_or_skip()
    workdir = hostile_study(tmp_path / "hostile")
    run = run_snakemake(workdir)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    report = run_snakemake(workdir, "--report", "results/report.html")
    assert report.returncode == 0, report.stderr[-3000:]
    audit = (workdir / "results/example-2025-ranking/numbers.csv").read_text()
    assert "Source </script>" in audit  # the label reached the results: the payload is real
    pages = [workdir / "results/report.html", *sorted((workdir / "results").rglob("*.html"))]
    with headless_chromium(str(tmp_path / "profile")) as browser:
        for page in pages:
            browser.goto(page.as_uri())
            browser.run("return document.readyState;")
            assert browser.run("return window.name;") == "", f"markup ran in {page}"
        browser.goto((workdir / "results/report.html").as_uri())
        shown = browser.run(HTML_TABLE_ROWS)
    assert shown["results/example-2025-ranking/tables/ranks.html"][0] == 3
    # shown as text: the escaped label is in the page's table, not as an element
    ranks = (workdir / "results/example-2025-ranking/tables/ranks.html").read_text()
    assert "Source &lt;/script&gt;&lt;img" in ranks and "<img src=x" not in ranks


CARD = """
const tables = [...document.querySelectorAll("table.card")].map(t =>
  [...t.querySelectorAll("tbody tr")].map(tr => [...tr.cells].map(td => [td.innerText.trim(), td.className])));
return [tables, document.documentElement.scrollWidth, window.innerWidth];
"""
HOLDS_WORDS = {"yes": ("holds", "match"), "no": ("does not hold", "mismatch"), "not measured": ("not measured", "")}


def test_each_studys_verdict_card_says_what_held_what_each_reproduction_could_see_and_why_numbers_differ(
    full_run, tmp_path
):
    """The card at the top of each study's section, read in the browser at 1280x800 and 1920x1080, against the
    files it summarises: each finding's text and its state per experiment (findings.csv, coloured), each
    reproduction's power with its interval and what limits its meaning, or the reason there is none, and the mismatches grouped by diagnosis
    (numbers.csv: the groups' counts add up to the study's mismatches); no column wider than the window."""
    browser_or_skip()
    found = rows_of(full_run / "results/summary/findings.csv")
    shots = full_run / "results/screenshots"
    shots.mkdir(exist_ok=True)
    with headless_chromium(str(tmp_path / "profile")) as browser:
        for study in configured_studies(full_run):
            own = [f for f in found if f["study"] == study]
            audit = rows_of(full_run / "results" / study / "numbers.csv")
            for width, height in ((1280, 800), (1920, 1080)):
                browser.resize(width, height)
                browser.goto((full_run / "results/summary" / f"card-{study}.html").as_uri())
                tables, scroll_width, inner_width = browser.run(CARD)
                assert scroll_width <= inner_width, (study, width, scroll_width)  # nothing cut off the right edge
                browser.screenshot(shots / f"card-{study}-{width}x{height}.png")
            mismatches = tables[-1] if tables and tables[-1] and tables[-1][0][0][0].isdigit() else []
            assert sum(int(row[0][0]) for row in mismatches) == sum(a["status"] == "mismatch" for a in audit)
            if not own:
                continue
            findings, reproductions = tables[0], tables[1]
            experiments = list(dict.fromkeys(f["experiment"] for f in own))
            texts = list(dict.fromkeys((f["finding"], f["text"]) for f in own))
            assert [row[0][0] for row in findings] == [f"{text}{finding}" for finding, text in texts]
            for row, (finding, _) in zip(findings, texts, strict=True):
                state = {f["experiment"]: f for f in own if f["finding"] == finding}
                expected = []
                for e in experiments:
                    holds = state[e]["holds"] if e in state else "not measured"
                    words, kind = HOLDS_WORDS[holds]
                    p = state[e]["difference_p"] if e in state else ""
                    if holds == "no" and p:  # a miss: is the effect the original's?
                        words += f" (effect {'consistent with' if float(p) >= 0.05 else 'unlike'} the original's, "
                        words += f"p {float(p):.2g})"
                    expected.append([words, kind])
                assert [cell for cell in row[1:]] == expected, (study, finding)
            shown = [(row[-2][0], row[-1][0]) for row in reproductions]
            expected = []
            for e in experiments[1:]:  # per reproduction, findings with the same power or reason in one row
                said = {}
                for f in [f for f in own if f["experiment"] == e]:
                    if f["power"]:
                        interval = (
                            f" [{float(f['power_low']):.2f}, {float(f['power_high']):.2f}]" if f["power_low"] else ""
                        )
                        text = f"{float(f['power']):.2f}{interval} at the {f['power_basis']} effect"
                        if f["power_analysis"] == "valid":  # a valid analysis, the paper's test beside (issue 53)
                            paper = f"{float(f['paper_power']):.2f}"
                            if f["paper_power_low"]:
                                paper += f" [{float(f['paper_power_low']):.2f}, {float(f['paper_power_high']):.2f}]"
                            if f["paper_null_rate"]:
                                paper += f", holding at zero effect in {100 * float(f['paper_null_rate']):.1f}%"
                            text += f", a valid analysis (the paper's test: {paper}, nominal 2.5%)"
                        if f["power_note"]:  # what limits its meaning (liu's R1: drawn as one-shot judgements)
                            text += f" ({f['power_note']})"
                    else:
                        text = f["power_note"][0].upper() + f["power_note"][1:]
                    said.setdefault(text, []).append(f["finding"])
                expected += [(", ".join(findings), text) for text, findings in said.items()]
            assert shown == expected, study
