"""The start-up state (validated study configs, each stage's code dependencies) cached between runs: read
back unchanged, recomputed after any edit of a file it comes from, never cached for an invalid config."""

import shutil
from pathlib import Path

import pytest
from helpers import REPO

from humeval.errors import HumevalError
from humeval.startup import compute_state, workflow_state

TEMPLATE = REPO / "config/studies/_template.yaml"
SCRIPTS = REPO / "workflow/scripts"


@pytest.fixture
def study(tmp_path) -> dict[str, Path]:
    path = tmp_path / "studies" / "example-2025-ranking.yaml"
    path.parent.mkdir()
    shutil.copy(TEMPLATE, path)
    return {"example-2025-ranking": path}


def test_a_second_start_reads_the_same_state_from_the_cache(study, tmp_path):
    cache = tmp_path / "cache"
    first = workflow_state(study, SCRIPTS, cache)
    assert len(list(cache.glob("state-*.pickle"))) == 1
    assert workflow_state(study, SCRIPTS, cache) == first == compute_state(study, SCRIPTS)
    assert first["code"][("extract", "example-2025-ranking")] == sorted(
        first["code"][("extract", "example-2025-ranking")]
    )
    assert "loaders/figure_eight_ranking.py" in first["code"][("extract", "example-2025-ranking")]
    assert "loaders/figure_eight_ranking.py" not in first["code"][("extract", None)]


def test_an_edited_study_file_is_validated_again(study, tmp_path):
    cache = tmp_path / "cache"
    workflow_state(study, SCRIPTS, cache)
    path = study["example-2025-ranking"]
    path.write_text(path.read_text().replace("title: Ranking three", "title: Ranking 3"))
    state = workflow_state(study, SCRIPTS, cache)
    assert state["studies"]["example-2025-ranking"]["title"].startswith("Ranking 3")
    assert len(list(cache.glob("state-*.pickle"))) == 1  # the stale entry is replaced


def test_an_invalid_config_fails_at_every_start_and_is_never_cached(study, tmp_path):
    cache = tmp_path / "cache"
    path = study["example-2025-ranking"]
    path.write_text(path.read_text().replace("loader: figure_eight_ranking", "loader: figure_eight_rankin"))
    for _ in range(2):
        with pytest.raises(HumevalError, match="unknown loader 'figure_eight_rankin'"):
            workflow_state(study, SCRIPTS, cache)
    assert not list(cache.glob("state-*.pickle"))


def test_a_damaged_cache_file_is_recomputed(study, tmp_path):
    cache = tmp_path / "cache"
    workflow_state(study, SCRIPTS, cache)
    (entry,) = cache.glob("state-*.pickle")
    entry.write_bytes(b"not a pickle")
    assert workflow_state(study, SCRIPTS, cache) == compute_state(study, SCRIPTS)
