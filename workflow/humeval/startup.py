"""What Snakemake's own process computes at every start, cached between runs: the validated study configs
(:func:`humeval.config.load_study`) and the package sources each stage's job runs
(:func:`humeval.code_deps.script_files`).

Both are pure functions of files: the study files, the JSON schemas, the pipeline scripts and the package
sources. The cache is keyed by the sha256 of all of them, so any edit recomputes both; a config that fails
validation is never cached (its error is raised at every start). On a hit a start reads one pickle instead of
parsing YAML, validating schemas and reading the package with :mod:`ast` (about 0.5 s of every no-op run).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path

from humeval.code_deps import ROOT as PACKAGE_DIR
from humeval.code_deps import script_files, study_modules
from humeval.config import SCHEMA_DIR, load_study

STATE_VERSION = 1  # bump when the cached structure changes


def key_files(study_files: list[Path], scripts_dir: Path) -> list[Path]:
    """Every file the cached state is computed from, in a fixed order."""
    return [
        *study_files,
        *sorted(SCHEMA_DIR.glob("*.yaml")),
        *sorted(scripts_dir.glob("*.py")),
        *sorted(PACKAGE_DIR.rglob("*.py")),
    ]


def digest(paths: list[Path]) -> str:
    """sha256 over each file's path and bytes (a missing file counts as missing)."""
    h = hashlib.sha256(f"v{STATE_VERSION}".encode())
    for path in paths:
        h.update(str(path).encode() + b"\0")
        h.update(path.read_bytes() if path.is_file() else b"<missing>")
        h.update(b"\0")
    return h.hexdigest()


def compute_state(study_files: dict[str, Path], scripts_dir: Path) -> dict:
    """``{"studies": {name: study dict}, "code": {(stage, study or None): [package sources]}}``, the sources
    as paths inside the package (``metrics/surveys.py``)."""
    studies = {name: load_study(path) for name, path in study_files.items()}

    def relative(files: list[str]) -> list[str]:
        return [Path(f).relative_to(PACKAGE_DIR).as_posix() for f in files]

    code = {}
    for script in sorted(scripts_dir.glob("*.py")):
        code[(script.stem, None)] = relative(script_files(script, ()))
        for name, study in studies.items():
            code[(script.stem, name)] = relative(script_files(script, tuple(study_modules(script.stem, study))))
    return {"studies": studies, "code": code}


def workflow_state(study_files: dict[str, Path], scripts_dir: Path, cache_dir: Path) -> dict:
    """:func:`compute_state`, read from ``cache_dir`` when none of its files changed since it was written."""
    key = digest(key_files(list(study_files.values()), scripts_dir))
    path = cache_dir / f"state-{key[:32]}.pickle"
    if path.is_file():
        try:
            with open(path, "rb") as handle:
                return pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError):
            pass  # a damaged cache file: recompute and replace it
    state = compute_state(study_files, scripts_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    for old in cache_dir.glob("state-*.pickle"):
        old.unlink(missing_ok=True)
    handle, tmp = tempfile.mkstemp(dir=cache_dir, suffix=".tmp")
    with os.fdopen(handle, "wb") as out:
        pickle.dump(state, out)
    os.replace(tmp, path)
    return state
