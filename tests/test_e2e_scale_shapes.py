"""The scaling benchmark's synthetic studies (``python tools/scale.py judgements``), small: each shape's export and
study file build end to end, give the tidy rows the generator promises, and give numbers that equal the same
statistics computed straight from the raw export with pandas and scipy (not through the pipeline)."""

import io

import numpy as np
import pandas as pd
import pytest
import yaml
from helpers import copy_project, run_snakemake
from scale import SHAPES, SLOTS, mirror_path
from scipy import stats

from humeval.config.studyfile import raw_filename

pytestmark = pytest.mark.e2e
SIZE = 5000  # 500 pairwise tasks: 10 careless participants, some of whom choose the distractor


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("scale-shapes")
    workdir, mirror = copy_project(tmp / "project", []), tmp / "mirror"
    exports = {}
    for shape, (filename, export, build) in SHAPES.items():
        data = export(SIZE)
        study = build(f"scale-{shape}", filename, data)
        target = mirror / mirror_path(study["raw"][0]["url"])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        (workdir / f"config/studies/scale-{shape}.yaml").write_text(yaml.safe_dump(study, sort_keys=False))
        exports[shape] = (data, raw_filename(study["raw"][0]))
    main = yaml.safe_load((workdir / "config/config.yaml").read_text())
    main["studies"] = [f"scale-{shape}" for shape in SHAPES]
    (workdir / "config/config.yaml").write_text(yaml.safe_dump(main, sort_keys=False))
    result = run_snakemake(workdir, "--config", f"raw_mirror={mirror}")
    assert result.returncode == 0, result.stderr[-3000:]
    return workdir, exports


def numbers(workdir, shape: str) -> pd.Series:
    audit = pd.read_csv(workdir / f"results/scale-{shape}/numbers.csv")
    return audit.set_index(["table", "row", "column"])["value"]


def raw(exports, shape: str) -> pd.DataFrame:
    data, name = exports[shape]
    sep = "\t" if name.endswith(".tsv") else ","
    return pd.read_csv(io.BytesIO(data), sep=sep, dtype=str, keep_default_na=False)


@pytest.mark.parametrize(("shape", "rows"), [("ranking", 4998), ("long", 5000), ("wide", 4980), ("pairwise", 5000)])
def test_each_shape_gives_the_promised_tidy_rows(built, shape, rows):
    workdir, _ = built
    tidy = pd.read_csv(workdir / f"results/scale-{shape}/tidy/judgements.csv")
    assert len(tidy) == rows  # ranking: 1,666 rankings x 3; wide: 83 items x 4 systems x 5 raters x 3 criteria
    counts = numbers(workdir, shape)
    if shape != "ranking":
        assert counts[("counts", "judgements", "n")] == rows
        assert counts[("counts", "kept", "n")] + counts[("counts", "excluded", "n")] == rows


def test_long_ratings_equal_pandas_and_scipy_on_the_export(built):
    workdir, exports = built
    frame = raw(exports, "long")
    frame = frame[(frame["score"] != "") & (frame["attention"] == "pass")].assign(
        score=lambda f: f["score"].astype(int)
    )
    got = numbers(workdir, "long")
    for (system, criterion), scores in frame.groupby(["system", "criterion"])["score"]:
        assert got[("means", system, f"{criterion}_mean")] == pytest.approx(scores.mean(), abs=1e-12)
        assert got[("means", system, f"{criterion}_sd")] == pytest.approx(scores.std(ddof=1), abs=1e-12)
        assert got[("means", system, f"{criterion}_n")] == len(scores)
    for criterion, part in frame.groupby("criterion"):
        f = stats.f_oneway(*[g.to_numpy() for _, g in part.groupby("system")["score"]])
        assert got[("tests", f"{criterion}|anova", "statistic")] == pytest.approx(f.statistic, rel=1e-12)
        assert got[("tests", f"{criterion}|anova", "p")] == pytest.approx(f.pvalue, rel=1e-9)


def test_wide_ratings_equal_pandas_on_the_export(built):
    workdir, exports = built
    frame = raw(exports, "wide")
    got = numbers(workdir, "wide")
    for header, criterion in [("Fluency (1-5)", "fluency"), ("Coherence (1-5)", "coherence")]:
        scores = frame[frame[header] != ""].assign(score=lambda f, h=header: f[h].astype(int))
        for system, part in scores.groupby("model")["score"]:
            assert got[("means", system, f"{criterion}_mean")] == pytest.approx(part.mean(), abs=1e-12)
            assert got[("means", system, f"{criterion}_n")] == len(part)


def test_pairwise_slots_tally_equals_a_count_on_the_export(built):
    """Participants who chose the distractor in any slot are dropped whole; the distractor slots go too. Wins of
    each system counted over the remaining slots of the raw rows."""
    workdir, exports = built
    frame = raw(exports, "pairwise")
    slots = pd.concat(
        [
            pd.DataFrame(
                {
                    "pid": frame["PROLIFIC_PID"],
                    "a": frame[f"systema{k}"],
                    "b": frame[f"systemb{k}"],
                    "choice": frame[f"fluency{k}"],
                }
            )
            for k in range(1, SLOTS + 1)
        ]
    )
    failed = set(slots.loc[(slots["b"] == "DIST") & (slots["choice"] == "B"), "pid"])
    assert failed  # the generator plants some
    kept = slots[~slots["pid"].isin(failed) & (slots["b"] != "DIST")]
    winner = np.where(kept["choice"] == "A", kept["a"], kept["b"])
    loser = np.where(kept["choice"] == "A", kept["b"], kept["a"])
    got = numbers(workdir, "pairwise")
    for system in ("S1", "S2", "S3", "S4"):
        wins, losses = int((winner == system).sum()), int((loser == system).sum())
        assert got[("bws", system, "wins")] == wins
        assert got[("bws", system, "losses")] == losses
        assert got[("bws", system, "bws")] == pytest.approx(100 * (wins - losses) / (wins + losses), abs=1e-12)
