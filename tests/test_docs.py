"""The generated vocabulary docs are current, and list every registered name."""

import gendocs as docs
from helpers import REPO

from humeval import vocabulary
from humeval.loaders import LOADERS
from humeval.metrics import METRICS
from humeval.qra import QRA_TYPES


def test_generated_docs_are_current():
    for path, text in docs.render(REPO).items():
        assert path.read_text() == text, f"{path} is stale: run python tools/gendocs.py"


def test_docs_name_every_registered_loader_metric_exclusion_qra_type_and_figure_kind():
    rendered = {p.name: t for p, t in docs.render(REPO).items()}
    for name in [*METRICS, *vocabulary.exclusion_entries(), *QRA_TYPES, *vocabulary.figure_entries()]:
        assert f"### `{name}`" in rendered["metrics.md"], name
    for name in LOADERS:
        assert f"### `{name}`" in rendered["loaders.md"], name


def test_loader_parameters_are_read_from_the_code():
    params = {p.name: p for p in vocabulary.loader_entries()["tabular"].parameters}
    assert params["participant"].required and params["item"].required
    assert not params["shape"].required and params["shape"].default == "'wide'"
