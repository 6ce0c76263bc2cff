"""Loaders: one per export format, each turning raw files into the tidy tables and nothing else.

A loader is a function ``load(inputs, params, *, study, side) -> (judgements, participants)`` where
``inputs`` maps the roles named in the study config to local file paths. Loaders are registered here by
name; a study config picks one with ``loader: <name>``. Modules are imported only when used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from humeval.errors import HumevalError

LOADERS: dict[str, str] = {
    "prolific_webapp_sqlite": "humeval.loaders.prolific_webapp_sqlite",
    "figure_eight_ranking": "humeval.loaders.figure_eight_ranking",
    "amt_pairwise_batch": "humeval.loaders.amt_pairwise_batch",
    "ms_forms_batches": "humeval.loaders.ms_forms_batches",
    "abc_eval_json": "humeval.loaders.abc_eval_json",
    "qualtrics_survey": "humeval.loaders.qualtrics_survey",
    "surveygizmo_workbook": "humeval.loaders.surveygizmo_workbook",
    "auto_score_workbook": "humeval.loaders.auto_score_workbook",
    "tabular": "humeval.loaders.tabular",
}


def get_loader(name: str) -> Callable:
    """The ``load`` function of the loader registered as ``name``."""
    if name not in LOADERS:
        raise HumevalError(f"unknown loader {name!r}; known loaders: {sorted(LOADERS)}")
    return importlib.import_module(LOADERS[name]).load


def require_inputs(inputs: dict, roles: list[str], loader: str, study: str) -> None:
    """Raise a clear error when the config gives a loader fewer input roles than it needs."""
    missing = [r for r in roles if r not in inputs]
    if missing:
        raise HumevalError(
            f"loader {loader!r} needs raw input role(s) {missing}; config gives {sorted(inputs)}", study=study
        )


def read_workbook_sheet(path: str, sheet: str, **options):
    """One sheet of an XLSX workbook as a DataFrame; a missing sheet or a damaged workbook is a
    :class:`HumevalError` naming the file (openpyxl raises a zip, zlib, XML, key, OS or its own error for damage)."""
    import zipfile
    import zlib
    from xml.etree.ElementTree import ParseError

    import pandas as pd
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        return pd.read_excel(path, sheet_name=sheet, **options)
    except ValueError as exc:
        raise HumevalError(f"no sheet {sheet!r}: {exc}", file=path) from None
    except (zipfile.BadZipFile, InvalidFileException, KeyError, OSError, EOFError, ParseError, zlib.error) as exc:
        raise HumevalError(f"cannot read the workbook: {type(exc).__name__}: {exc}", file=path) from None
