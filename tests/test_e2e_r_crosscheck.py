"""Independent checks of the statistics: R (Debian's r-base-core and r-cran-psych) for santhanam's ICCs
and Spearman correlations, a textbook Krippendorff's alpha (coincidence matrix, pairable values only)
written here for liu's and shardlow's alphas.

Each santhanam metric is re-run in-process on the full run's intermediate files with a spy on the
functions that compute ICCs and correlations, so every value the pipeline computed is checked with
exactly the data it used: ICC(C,k) and ICC(A,k) against psych::ICC's ICC3k and ICC2k (ICC(C,k)'s F-test p
against ICC3k's), and rho against R's cor.test (p with exact = FALSE, the t approximation scipy uses).
Skipped only when R cannot be run, and then loudly; under CI=true that fails (``.ci/run`` installs R).
"""

import shutil
import subprocess
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from helpers import SUMMARY_LINES, skip_or_fail

from humeval.intermediate import kept_judgements, read_csv
from humeval.metrics import StudyData, agreement, metrics_study
from humeval.metrics.designs import icc as icc_module
from humeval.metrics.designs import rating_designs as surveys

pytestmark = pytest.mark.e2e


def rscript():
    path = shutil.which("Rscript")
    if path is None:
        skip_or_fail("no R here (Debian packages r-base-core, r-cran-psych; .ci/run installs them)")
    check = subprocess.run([path, "-e", "library(psych)"], capture_output=True, text=True, check=False)
    if check.returncode != 0:
        skip_or_fail(f"R has no psych package (r-cran-psych): {check.stderr[-300:]}")
    return path


def study_inputs(full_run, name):
    from humeval.config.load import load_study

    base = full_run / "results" / name
    study = load_study(full_run / "config/studies" / f"{name}.yaml")
    tidy, exclusions = read_csv(base / "tidy/judgements.csv"), read_csv(base / "exclusions.csv")
    return StudyData(
        kept=kept_judgements(tidy, exclusions),
        tidy=tidy,
        participants=read_csv(base / "tidy/participants.csv"),
        exclusions=exclusions,
        published=read_csv(base / "intermediate/published.csv"),
        config=study,
        variant_exclusions=read_csv(base / "exclusions_variants.csv"),
    )


@pytest.fixture(scope="module")
def santhanam_calls(full_run):
    """Every ICC input matrix and every Spearman pair the santhanam metrics computed, with the results."""
    iccs, spearmans = [], []
    icc, spearman = icc_module.icc, surveys.spearman

    def spy_icc(frame):
        out = icc(frame)
        iccs.append((frame.pivot(index="item", columns="participant", values="value"), out))
        return out

    def spy_spearman(x, y):
        rho, p = spearman(x, y)
        joined = pd.concat([x.rename("x"), y.rename("y")], axis=1, join="inner")
        spearmans.append((joined, rho, p))
        return rho, p

    mp = pytest.MonkeyPatch()
    mp.setattr(icc_module, "icc", spy_icc)
    mp.setattr(surveys, "spearman", spy_spearman)
    try:
        metrics_study(study_inputs(full_run, "santhanam-2019-dialogue-design"))
    finally:
        mp.undo()
    return iccs, spearmans


def run_r(script: str, workdir) -> pd.DataFrame:
    path = workdir / "check.R"
    path.write_text(script)
    result = subprocess.run([rscript(), str(path)], capture_output=True, text=True, check=False, cwd=workdir)
    assert result.returncode == 0, result.stderr[-3000:]
    return pd.read_csv(workdir / "out.csv")


def test_santhanam_iccs_equal_psych(santhanam_calls, tmp_path):
    iccs, _ = santhanam_calls
    for k, (matrix, _) in enumerate(iccs):
        matrix.to_csv(tmp_path / f"m{k}.csv", index=False)
    out = run_r(
        f"""suppressMessages(library(psych))
rows <- list()
for (k in 0:{len(iccs) - 1}) {{
  m <- as.matrix(read.csv(sprintf("m%d.csv", k), check.names = FALSE))
  r <- ICC(m, lmer = FALSE)$results
  rows[[k + 1]] <- data.frame(k = k, c = r["Average_fixed_raters", "ICC"], a = r["Average_random_raters", "ICC"],
                              p = r["Average_fixed_raters", "p"])
}}
write.csv(do.call(rbind, rows), "out.csv", row.names = FALSE)
""",
        tmp_path,
    )
    ours = pd.DataFrame(
        [(res["ICC-C"][0], res["ICC-A"][0], res["ICC-C"][1]) for _, res in iccs], columns=["c", "a", "p"]
    )
    diff_icc = np.abs(np.r_[ours["c"] - out["c"], ours["a"] - out["a"]]).max()
    # psych prints an F-test p of exactly 0 below double precision; compare where R's p is representable
    p_mask = out["p"] > 0
    diff_p = np.abs(ours.loc[p_mask, "p"] - out.loc[p_mask, "p"]).max()
    SUMMARY_LINES.append(
        f"R psych::ICC: {2 * len(iccs)} ICCs compared (ICC3k, ICC2k), largest difference {diff_icc:.2e}; "
        f"{int(p_mask.sum())} ICC(C,k) p-values, largest difference {diff_p:.2e}"
    )
    assert 2 * len(iccs) >= 120 and diff_icc < 1e-9 and diff_p < 1e-9


def test_santhanam_spearman_correlations_equal_cor_test(santhanam_calls, tmp_path):
    _, spearmans = santhanam_calls
    for k, (joined, _, _) in enumerate(spearmans):
        joined.to_csv(tmp_path / f"s{k}.csv", index=False)
    out = run_r(
        f"""rows <- list()
for (k in 0:{len(spearmans) - 1}) {{
  d <- read.csv(sprintf("s%d.csv", k))
  t <- suppressWarnings(cor.test(d$x, d$y, method = "spearman", exact = FALSE))
  rows[[k + 1]] <- data.frame(k = k, rho = unname(t$estimate), p = t$p.value)
}}
write.csv(do.call(rbind, rows), "out.csv", row.names = FALSE)
""",
        tmp_path,
    )
    ours = pd.DataFrame([(rho, p) for _, rho, p in spearmans], columns=["rho", "p"])
    diff_rho = np.abs(ours["rho"] - out["rho"]).max()
    diff_p = np.abs(ours["p"] - out["p"]).max()
    SUMMARY_LINES.append(
        f"R cor.test: {len(spearmans)} Spearman correlations compared, largest difference rho {diff_rho:.2e}, "
        f"p {diff_p:.2e}"
    )
    assert len(spearmans) >= 30 and diff_rho < 1e-9 and diff_p < 1e-9


def textbook_alpha(matrix: np.ndarray, level: str) -> float:
    """Krippendorff's alpha from the coincidence matrix (Krippendorff 2011), pairable values only: units with
    at least two values; o_ck = sum over units of pairs (c, k) / (m_u - 1); alpha = 1 - D_o / D_e."""
    values = np.unique(matrix[~np.isnan(matrix)])
    index = {v: i for i, v in enumerate(values)}
    o = np.zeros((len(values), len(values)))
    for unit in matrix.T:
        present = unit[~np.isnan(unit)]
        if present.size < 2:
            continue
        for a, b in combinations(range(present.size), 2):
            i, j = index[present[a]], index[present[b]]
            o[i, j] += 1 / (present.size - 1)
            o[j, i] += 1 / (present.size - 1)
    n_c = o.sum(axis=1)
    n = n_c.sum()
    if level == "nominal":
        delta = 1.0 - np.eye(len(values))
    elif level == "interval":
        delta = (values[:, None] - values[None, :]) ** 2
    else:  # ordinal
        cumulative = np.cumsum(n_c)
        delta = np.zeros((len(values), len(values)))
        for i in range(len(values)):
            for j in range(len(values)):
                lo, hi = min(i, j), max(i, j)
                delta[i, j] = (cumulative[hi] - (cumulative[lo - 1] if lo else 0) - (n_c[i] + n_c[j]) / 2) ** 2
    observed = (o * delta).sum() / n
    expected = (np.outer(n_c, n_c) * delta).sum() / (n * (n - 1))
    return float(1 - observed / expected)


@pytest.mark.parametrize("name", ["liu-2021-dexperts-fluency", "shardlow-2019-clinical-simplification"])
def test_krippendorff_alphas_equal_the_textbook_definition(full_run, name):
    calls = []
    alpha = agreement.krippendorff_alpha

    def spy(frame, units, level, coder="participant", value="value"):
        out = alpha(frame, units, level, coder, value)
        matrix = agreement.reliability_matrix(frame, units, coder, value)
        data = matrix.to_numpy()
        if data.dtype == object:
            codes = {v: i for i, v in enumerate(sorted(pd.unique(matrix.stack().dropna())))}
            data = matrix.map(lambda v: codes.get(v, np.nan)).to_numpy(dtype=float)
        calls.append((data.astype(float), level, out))
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(agreement, "krippendorff_alpha", spy)
        metrics_study(study_inputs(full_run, name))
    diffs = [abs(textbook_alpha(data, level) - ours) for data, level, ours in calls]
    SUMMARY_LINES.append(
        f"{name}: {len(calls)} Krippendorff alphas compared with the textbook formula, largest difference "
        f"{max(diffs):.2e}"
    )
    assert calls and max(diffs) < 1e-9


def test_dunn_and_shapiro_equal_r(tmp_path):
    """k_sample_tests' Dunn test (Holm-adjusted) and Shapiro-Wilk against rstatix::dunn_test and R's shapiro.test,
    on the .test toy study's ratings grouped by item (four groups, many ties)."""
    rscript()
    from helpers import REPO

    from humeval.metrics.significance import k_sample_tests

    raw = pd.read_csv(REPO / ".test/raw/github/example-owner/every-measure" / ("1" * 40) / "ratings.csv")
    samples = {item: part["quality"].to_numpy(float) for item, part in raw.groupby("item")}
    ours = {(t, s): v for t, s, v in k_sample_tests(samples, ["dunn", "shapiro"], adjust="holm")}
    raw.to_csv(tmp_path / "ratings.csv", index=False)
    script = tmp_path / "check.R"
    script.write_text(
        "suppressMessages(library(rstatix))\n"
        f"d <- read.csv('{tmp_path / 'ratings.csv'}')\n"
        "r <- as.data.frame(dunn_test(d, quality ~ item, p.adjust.method = 'holm'))\n"
        "f <- function(x) sprintf('%.15g', x)\n"
        "for (k in seq_len(nrow(r))) cat('dunn', r$group1[k], r$group2[k], f(r$statistic[k]), f(r$p[k]), "
        "f(r$p.adj[k]), '\\n')\n"
        "for (g in sort(unique(d$item))) { s <- shapiro.test(d$quality[d$item == g]); "
        "cat('shapiro', g, f(s$statistic), f(s$p.value), '\\n') }\n"
    )
    result = subprocess.run([rscript(), str(script)], capture_output=True, text=True, check=False)
    if "rstatix" in result.stderr and result.returncode:
        skip_or_fail(f"R has no rstatix package (r-cran-rstatix): {result.stderr[-300:]}")
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [line.split() for line in result.stdout.splitlines() if line.strip()]
    for kind, *fields in lines:
        if kind == "dunn":
            a, b, z, p, adjusted = fields[0], fields[1], *map(float, fields[2:])
            pair = f"{a} vs {b}"
            assert ours[(pair, "z")] == pytest.approx(-z, abs=1e-9)  # rstatix: group2 - group1; ours a - b
            assert ours[(pair, "p")] == pytest.approx(p, rel=1e-9)
            assert ours[(pair, "p_adjusted")] == pytest.approx(adjusted, rel=1e-9)
        else:
            group, w, p = fields[0], *map(float, fields[1:])
            assert ours[(f"shapiro|{group}", "statistic")] == pytest.approx(w, abs=1e-9)
            assert ours[(f"shapiro|{group}", "p")] == pytest.approx(p, rel=1e-6)
    assert sum(kind == "dunn" for kind, *_ in lines) == 6


def test_wilcoxon_effect_size_r_equals_rstatix(tmp_path):
    """Mann-Whitney's effect size r = |Z| / sqrt(N) against rstatix::wilcox_effsize, on every pair of items of the
    .test toy study's ratings (many ties) and on the toy's two systems of O (its hand-computed 0.8560)."""
    rscript()
    from helpers import REPO, SUMMARY_LINES

    from humeval.metrics.significance import mann_whitney_u

    raw = pd.read_csv(REPO / ".test/raw/github/example-owner/every-measure" / ("1" * 40) / "ratings.csv")
    raw.to_csv(tmp_path / "ratings.csv", index=False)
    script = tmp_path / "effsize.R"
    script.write_text(
        "suppressMessages(library(rstatix))\n"
        f"d <- read.csv('{tmp_path / 'ratings.csv'}')\n"
        "items <- sort(unique(d$item))\n"
        "for (i in seq_along(items)) for (j in seq_along(items)) if (i < j) {\n"
        "  p <- d[d$item %in% c(items[i], items[j]), ]; p$item <- factor(p$item, levels = c(items[i], items[j]))\n"
        "  cat(items[i], items[j], sprintf('%.15g', wilcox_effsize(p, quality ~ item)$effsize), '\\n') }\n"
        "t <- data.frame(v = c(4,4,5,5,4,4,3,4,4,4,5,5, 2,3,2,3,3,2,2,2,1,1,2,2), g = factor(rep(c('A','B'), each = 12)))\n"
        "cat('A', 'B', sprintf('%.15g', wilcox_effsize(t, v ~ g)$effsize), '\\n')\n"
    )
    result = subprocess.run([rscript(), str(script)], capture_output=True, text=True, check=False)
    if "rstatix" in result.stderr and result.returncode:
        skip_or_fail(f"R has no rstatix package (r-cran-rstatix): {result.stderr[-300:]}")
    assert result.returncode == 0, result.stderr[-2000:]
    toy = {"A": [4, 4, 5, 5, 4, 4, 3, 4, 4, 4, 5, 5], "B": [2, 3, 2, 3, 3, 2, 2, 2, 1, 1, 2, 2]}
    groups = {**{str(k): g["quality"].to_numpy(float) for k, g in raw.groupby("item")}, **toy}
    diffs = []
    for line in result.stdout.splitlines():
        a, b, r = line.split()
        diffs.append(abs(mann_whitney_u(groups[a], groups[b])["r"] - float(r)))
    SUMMARY_LINES.append(f"R rstatix::wilcox_effsize: {len(diffs)} effect sizes r, largest difference {max(diffs):.2e}")
    assert len(diffs) >= 7 and max(diffs) < 1e-9
