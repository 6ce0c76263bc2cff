"""A sixth study added by config alone: the template, with generated Figure Eight exports in a mirror."""

import hashlib
import math

import pandas as pd
import pytest
import yaml
from helpers import REPO, copy_project, run_snakemake

pytestmark = pytest.mark.e2e
NAME = "example-2025-ranking"
POSITIONS = {1: "SRC", 2: "SYS1", 3: "SYS2"}  # as in the template's position_systems
# 12 valid rankings (system -> rank): average ranks SYS1 1.5, SYS2 2.0, SRC 2.5 (worked out by hand)
A, B, C, D = (
    {"SYS1": 1, "SYS2": 2, "SRC": 3},
    {"SYS1": 2, "SYS2": 1, "SRC": 3},
    {"SYS1": 1, "SYS2": 3, "SRC": 2},
    {"SYS1": 2, "SYS2": 3, "SRC": 1},
)
RANKINGS = [
    ("u1", "w1", A),
    ("u1", "w2", A),
    ("u1", "w3", A),
    ("u2", "w1", A),
    ("u2", "w2", B),
    ("u2", "w3", B),
    ("u3", "w1", B),
    ("u3", "w2", B),
    ("u3", "w3", C),
    ("u4", "w1", C),
    ("u4", "w2", D),
    ("u4", "w3", D),
]


def export() -> bytes:
    rows = []
    for k, (unit, worker, ranks) in enumerate(RANKINGS):
        position_of = {system: position for position, system in POSITIONS.items()}
        answers = {rank: position_of[system] for system, rank in ranks.items()}
        rows.append(
            {
                "_unit_id": unit,
                "_id": f"j{k}",
                "_worker_id": worker,
                "_golden": "false",
                "_tainted": "false",
                "_trust": "1.0",
                "easiest": answers[1],
                "middle": answers[2],
                "hardest": answers[3],
            }
        )
    rows.append(
        {
            "_unit_id": "u9",
            "_id": "gold",
            "_worker_id": "w1",
            "_golden": "true",
            "_tainted": "false",
            "_trust": "1.0",
            "easiest": 1,
            "middle": 2,
            "hardest": 3,
        }
    )
    rows.append(
        {
            "_unit_id": "u1",
            "_id": "tie",
            "_worker_id": "w4",
            "_golden": "false",
            "_tainted": "false",
            "_trust": "1.0",
            "easiest": 2,
            "middle": 2,
            "hardest": 1,
        }
    )
    frame = pd.DataFrame(rows)
    for position in POSITIONS:
        frame[f"sentence{position}"] = f"sentence {position} text"
    return frame.to_csv(index=False).encode()


def cv_star_by_hand(a: float, b: float) -> float:
    # n = 2: (1 + 1/8) * (s / c4(2)) / |mean| * 100, s = |a - b| / sqrt(2), c4(2) = sqrt(2 / pi)
    return 1.125 * (abs(a - b) / math.sqrt(2)) / math.sqrt(2 / math.pi) / abs((a + b) / 2) * 100


def test_a_sixth_study_builds_from_config_alone(tmp_path):
    study = yaml.safe_load((REPO / "config/studies/_template.yaml").read_text())
    data = export()
    url = study["raw"][0]["url"]
    mirror = tmp_path / "mirror"
    target = mirror / "github" / url.split("raw.githubusercontent.com/")[1]
    target.parent.mkdir(parents=True)
    target.write_bytes(data)
    study["raw"][0]["sha256"] = hashlib.sha256(data).hexdigest()
    workdir = copy_project(tmp_path / "project", [NAME])
    (workdir / "config/studies" / f"{NAME}.yaml").write_text(yaml.safe_dump(study, sort_keys=False))
    result = run_snakemake(workdir, "--config", f"raw_mirror={mirror}")  # the config route to a mirror
    assert result.returncode == 0, result.stderr[-3000:]

    audit = pd.read_csv(workdir / "results" / NAME / "numbers.csv").set_index(["table", "row", "column"])
    assert audit.loc[("ranks", "System 1", "rank1_O"), "value"] == 6  # rankings A and C
    assert audit.loc[("ranks", "Source", "rank3_O"), "value"] == 8  # rankings A and B
    for system, average in {"System 1": 1.5, "System 2": 2.0, "Source": 2.5}.items():
        assert audit.loc[("ranks", system, "avg_O"), "value"] == pytest.approx(average)
        assert audit.loc[("ranks", system, "avg_O"), "status"] == "match"
    assert audit.loc[("ranks", "System 2", "avg_R"), "value"] == pytest.approx(1.9)  # (3 + 2*5 + 3*2) / 10
    assert audit.loc[("ranks", "System 2", "cv_star"), "value"] == pytest.approx(cv_star_by_hand(2.0, 1.9))
    assert audit.loc[("ranks", "Source", "cv_star"), "value"] == pytest.approx(cv_star_by_hand(2.5, 2.6))
    assert audit.loc[("counts", "valid_rankings", "n"), "value"] == 12
    exclusions = pd.read_csv(workdir / "results" / NAME / "exclusions.csv")
    assert exclusions.set_index("judgement_id")["rule"].to_dict() == {"Jgold": "gold", "Jtie": "invalid_ranking"}
    assert (workdir / "results" / NAME / "figures/figure_ranks.png").is_file()
