"""Each stage's job imports only what it uses, and its code inputs (humeval.stages) cover the code it runs.

- The code inputs are derived from each stage's script (imports anywhere, modules named in text, kinds looked up
  by name): checked on a package written here with hand-listed answers, and against what the jobs of the `.test`
  run really loaded (tests/test_code_health.py records every job's ``humeval`` modules).
- No package module imports a heavy library at its top level, so a job imports scipy, pingouin, krippendorff,
  matplotlib, textacy, openpyxl or statsmodels only when a function that calls it runs; and importing a stage's
  script loads none of them (checked in a fresh interpreter).
"""

import ast
import re
import subprocess
import sys

import pytest
from helpers import REPO

from humeval.config.registry import entries
from humeval.stages import PACKAGE_DIR, stage_sources

SCRIPTS = REPO / "workflow/scripts"
RULES = REPO / "workflow/rules"
HEAVY = ("scipy", "pingouin", "krippendorff", "matplotlib", "textacy", "spacy", "openpyxl", "statsmodels")
STAGES = sorted(p.stem for p in SCRIPTS.glob("*.py") if p.stem != "code_version")


def test_every_rule_has_a_script_and_takes_its_own_scripts_code_as_inputs():
    rules = {name: p for p in RULES.glob("*.smk") for name in re.findall(r"^rule (\w+):", p.read_text(), re.MULTILINE)}
    assert {p.stem for p in SCRIPTS.glob("*.py")} == set(rules)
    for stage in STAGES:
        # fetch_raw's output is the verified raw files: a code edit must not refetch them (its sha256 pins them)
        takes_code = f'code=code_for("{stage}")' in rules[stage].read_text()
        assert takes_code == (stage != "fetch_raw"), f"rule {stage}: code=code_for({stage!r})"


def test_code_inputs_follow_imports_anywhere_parents_and_module_names_in_text(tmp_path):
    package = tmp_path / "pkg"
    for name, text in {
        "__init__.py": "",
        "a/__init__.py": "",
        "a/inner.py": "def f():\n    from pkg.b import thing\n",  # an import inside a function
        "b.py": "thing = 1\nLATER = ('pkg.c', 'Name')\n",  # a module named in text (import_module)
        "c.py": "",
        "d.py": "import pandas\n",  # reached by nothing
        "e.py": "from . import d\n",  # relative imports: not used by the package, not followed
    }.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    script = tmp_path / "stage.py"
    script.write_text("import os\nfrom pkg.a.inner import f\n")
    found = [str(p.relative_to(package)) for p in stage_sources(script, package)]
    assert found == ["__init__.py", "a/__init__.py", "a/inner.py", "b.py", "c.py"]


@pytest.mark.parametrize("kind", ["loader", "metric", "exclusion", "qra", "figure"])
def test_a_kind_looked_up_by_name_brings_every_module_that_registers_one(tmp_path, kind):
    script = tmp_path / "stage.py"
    script.write_text(f"def main(name):\n    return function({kind!r}, name)\n")
    found = set(stage_sources(script))
    registering = {PACKAGE_DIR.parent / f"{e.module.replace('.', '/')}.py" for e in entries(kind).values()}
    registering = {p if p.is_file() else p.with_suffix("") / "__init__.py" for p in registering}
    assert registering and registering <= found, sorted(map(str, registering - found))
    assert PACKAGE_DIR / "stages.py" not in found  # only what is reached


def test_no_package_module_imports_a_heavy_library_at_its_top_level():
    offenders = [
        f"{path.relative_to(PACKAGE_DIR)}:{node.lineno} {module}"
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for module in ([node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names])
        if module and module.split(".")[0] in HEAVY
    ]
    assert not offenders, offenders


@pytest.mark.parametrize("stage", STAGES + ["code_version"])
def test_importing_a_stages_script_loads_no_heavy_library(stage):
    imports = [ast.unparse(n) for n in ast.parse((SCRIPTS / f"{stage}.py").read_text()).body]
    imports = [line for line in imports if line.startswith(("import ", "from "))]
    probe = "\n".join(
        imports + [f"import sys; print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))"]
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", f"{stage} imports {result.stdout.strip()} before any of its code runs"
