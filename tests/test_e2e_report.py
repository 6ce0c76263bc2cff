"""The self-contained HTML report renders in a real browser and every figure in it decodes."""

import pytest
from browser import find_browser, headless_chromium
from helpers import skip_or_fail

pytestmark = pytest.mark.e2e

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


def test_report_renders_and_every_figure_loads(full_run, tmp_path):
    if None in find_browser():
        skip_or_fail(
            "no headless Chromium/chromedriver (Debian packages chromium, chromium-driver; .ci/run installs them)"
        )
    report = full_run / "results/report.html"
    with headless_chromium(str(tmp_path / "profile")) as browser:
        browser.goto(report.as_uri())
        state = browser.run("return [document.readyState, document.body.innerText.length, Object.keys(categories)];")
        assert state[0] == "complete" and state[1] > 100
        assert {"hosking-2022-paraphrase-meaning", "santhanam-2019-dialogue-design", "Summary"} <= set(state[2])
        loaded = dict(browser.run(CHECK_IMAGES, asynchronous=True))
    figures = {path for path in loaded if path.endswith(".png")}
    expected = {
        f"results/{name}/figures/{figure['id']}.png"
        for name, study in configured_studies(full_run).items()
        for figure in study.get("figures", [])
    } | {"results/summary/figure_cv_star.png", "results/summary/figure_qra3.png"}
    assert figures == expected
    assert all(width > 0 for width in loaded.values()), {p: w for p, w in loaded.items() if w == 0}


def configured_studies(workdir):
    import yaml

    from humeval.config import load_study

    names = yaml.safe_load((workdir / "config/config.yaml").read_text())["studies"]
    return {name: load_study(workdir / "config/studies" / f"{name}.yaml") for name in names}


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
