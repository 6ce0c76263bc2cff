"""Mutation testing of the code that decides what a reader sees: does a one-line change make a test fail?

    python tools/mutate.py                       # every module of MODULES, its tests, two at a time
    python tools/mutate.py --module rounding     # one module
    python tools/mutate.py --list                # the mutants, without running anything

Each mutant is one change to one node of the module's syntax tree, the kinds the issue named (issue 52): a
comparison's operator (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``, ``in`` and ``not in``), ``and`` and
``or``, an arithmetic operator (``+`` and ``-``, ``*`` and ``/``), a number constant (an integer plus one, a float
doubled: alpha 0.05 becomes 0.1), ``True`` and ``False``, a ``not`` dropped. Docstrings and messages are left
alone. The mutated module is written to a copy of ``workflow/`` (the package and the schemas beside it), which the module's tests import first
(``PYTHONPATH``), and the tests (with the module's doctests) run with ``-x``: a mutant is *killed* when a test fails, *survived* when all pass,
*timeout* when they take ten times the clean run. The score is killed over all; every survivor is printed with its
line, to be killed by a test or written down as equivalent in docs/testing.md.

Why not mutmut: mutmut 3.2 mutates only a folder it guesses (``src``, ``lib``, the project's name) and this
package lives in ``workflow/humeval``; this file is the "equivalent documented command" of issue 52, 200 lines, no
dependency.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "workflow/humeval"

#: The tests of the QRA package (issue 52 names ``qra/`` whole).
QRA_TESTS = ["tests/test_qra.py", "tests/test_qra3.py", "tests/test_qra_study.py", "tests/test_claims.py"]

#: Module (under workflow/humeval) -> the tests that guard it (fast ones; -m "not e2e and not slow").
MODULES = {
    "qra/claims.py": ["tests/test_claims.py", "tests/test_qra.py"],
    "qra/__init__.py": QRA_TESTS,
    "qra/inputs.py": QRA_TESTS,
    "qra/precision.py": QRA_TESTS,
    "qra/correlation.py": QRA_TESTS,
    "qra/qra3.py": QRA_TESTS,
    "qra/qra3_tables.py": QRA_TESTS,
    "audit.py": ["tests/test_audit.py", "tests/test_claims.py"],
    "rounding.py": ["tests/test_audit.py", "tests/test_claims.py", "tests/test_tables.py"],
    "findings.py": ["tests/test_claims.py", "tests/test_qra.py", "tests/test_planning.py"],
    "metrics/tally.py": ["tests/test_pairwise.py", "tests/test_claims.py"],
    "planning/bootstrap.py": ["tests/test_planning_bootstrap.py", "tests/test_planning.py"],
    "planning/crossed_model.py": ["tests/test_crossed_model.py"],
    "cv_star.py": QRA_TESTS,
    "report/front_page.py": ["tests/test_front_page.py"],
    "report/verdict_card.py": ["tests/test_verdict_card.py"],
    "summary.py": ["tests/test_summary.py", "tests/test_audit.py", "tests/test_qra3.py"],
    "planning/power_table.py": ["tests/test_power_table.py", "tests/test_summary.py", "tests/test_planning.py"],
}

#: The package is copied with the folder around it (the schemas beside it are found from it).
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")

SWAPS = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.And: ast.Or,
    ast.Or: ast.And,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
}


def docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of the docstring constants (left alone)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def sites(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """Every mutable site of the tree in walk order: (node, what changes)."""
    skip = docstring_nodes(tree)
    inside_text = {id(n) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for n in ast.walk(node)}
    out = []
    for node in ast.walk(tree):
        if id(node) in inside_text:
            continue
        if isinstance(node, ast.Compare):
            out += [(node, f"compare {k}") for k, op in enumerate(node.ops) if type(op) in SWAPS]
        elif isinstance(node, (ast.BoolOp, ast.BinOp)) and type(node.op) in SWAPS:
            out.append((node, "operator"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((node, "drop not"))
        elif isinstance(node, ast.Constant) and id(node) not in skip and isinstance(node.value, (int, float)):
            out.append((node, "constant"))  # a number, or True and False (bool is an int)
    return out


def mutate(source: str, index: int) -> tuple[str, str]:
    """The module's source with its ``index``-th site changed, and a line saying what changed where."""
    tree = ast.parse(source)
    node, what = sites(tree)[index]
    line = node.lineno
    if what.startswith("compare"):
        k = int(what.split()[1])
        before = type(node.ops[k]).__name__
        node.ops[k] = SWAPS[type(node.ops[k])]()
        said = f"{before} -> {type(node.ops[k]).__name__}"
    elif what == "operator":
        before = type(node.op).__name__
        node.op = SWAPS[type(node.op)]()
        said = f"{before} -> {type(node.op).__name__}"
    elif what == "drop not":
        replacement = node.operand
        for parent in ast.walk(tree):
            for field, value in ast.iter_fields(parent):
                if value is node:
                    setattr(parent, field, replacement)
                elif isinstance(value, list) and any(v is node for v in value):
                    setattr(parent, field, [replacement if v is node else v for v in value])
        said = "not dropped"
    else:
        before = node.value
        if isinstance(before, bool):
            node.value = not before
        elif isinstance(before, int):
            node.value = before + 1
        else:
            node.value = before * 2 if before else 1.0
        said = f"{before!r} -> {node.value!r}"
    return ast.unparse(tree), f"line {line}: {said}"


def run_tests(root: Path, tests: list[str], timeout: float, module: str) -> str:
    """Run the module's tests and its own doctests (as the suite does) against the package under ``root``."""
    env = {**os.environ, "PYTHONPATH": f"{root / 'workflow'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-m", "pytest", "-x", "-q", "--no-header", "-p", "no:cacheprovider"]
    command += ["-m", "not e2e and not slow", *tests, str(root / "workflow/humeval" / module)]
    try:
        result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if result.returncode == 0 else "killed"


def module_mutants(module: str) -> list[tuple[int, str, str]]:
    source = (PACKAGE / module).read_text()
    return [(k, *mutate(source, k)) for k in range(len(sites(ast.parse(source))))]


def run_module(module: str, workers: int) -> dict:
    """Each mutant of ``module`` against its tests, ``workers`` at a time, each in its own copy of the package."""
    tests = MODULES[module]
    mutants = module_mutants(module)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        clean_root = Path(tmp) / "clean"
        shutil.copytree(REPO / "workflow", clean_root / "workflow", ignore=IGNORED)
        if run_tests(clean_root, tests, 3600, module) != "survived":
            raise SystemExit(f"{module}: its tests fail without a mutant: {tests}")
    clean = time.perf_counter() - started

    def one(mutant):
        k, source, said = mutant
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            shutil.copytree(REPO / "workflow", root / "workflow", ignore=IGNORED)
            (root / "workflow/humeval" / module).write_text(source)
            return k, said, run_tests(root, tests, max(60.0, 10 * clean), module)

    with ThreadPoolExecutor(workers) as pool:
        results = list(pool.map(one, mutants))
    counts = {status: sum(1 for *_, s in results if s == status) for status in ("killed", "survived", "timeout")}
    return {"module": module, "counts": counts, "survivors": [(k, said) for k, said, s in results if s == "survived"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", action="append", help="a module of MODULES (default all), e.g. rounding")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--list", action="store_true", help="print the mutants and stop")
    args = parser.parse_args(argv)
    chosen = [m for m in MODULES if not args.module or any(m.startswith(a) or a in m for a in args.module)]
    total = {"killed": 0, "survived": 0, "timeout": 0}
    for module in chosen:
        if args.list:
            for k, _, said in module_mutants(module):
                print(f"{module} #{k} {said}")
            continue
        result = run_module(module, args.workers)
        for status, n in result["counts"].items():
            total[status] += n
        n = sum(result["counts"].values())
        print(
            f"{module}: {result['counts']['killed']} of {n} killed, {result['counts']['timeout']} timed out", flush=True
        )
        for k, said in result["survivors"]:
            print(f"  survived #{k} {said}", flush=True)
    if not args.list:
        n = sum(total.values())
        print(
            f"score: {total['killed'] + total['timeout']} of {n} ({(total['killed'] + total['timeout']) / max(n, 1):.1%})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
