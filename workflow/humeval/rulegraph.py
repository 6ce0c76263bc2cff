"""The rule graph for reviewers: DOT from ``snakemake --rulegraph``, drawn as SVG.

graphviz's ``dot`` draws it when installed; otherwise a layered drawing with matplotlib (rules placed by
their longest path from the sources), so the SVG exists on any machine.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from humeval.errors import HumevalError

_NODE = re.compile(r'(\d+)\s*\[\s*label\s*=\s*"([^"]+)"', re.MULTILINE)
_EDGE = re.compile(r"(\d+)\s*->\s*(\d+)", re.MULTILINE)


def rulegraph_dot(snakefile: str | Path, workdir: str | Path = ".") -> str:
    """The DOT text of ``snakemake --rulegraph`` for ``snakefile`` run in ``workdir``."""
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "--snakefile", str(snakefile), "--rulegraph", "--nolock", "--quiet", "all"],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
    )
    start = result.stdout.find("digraph")
    if result.returncode != 0 or start < 0:
        raise HumevalError(f"snakemake --rulegraph failed: {result.stderr.strip()[-500:]}")
    return result.stdout[start:]


def parse_dot(dot: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Nodes (id -> label) and edges (from, to) of a rule-graph DOT.

    >>> parse_dot('digraph { 0[label = "all"]; 1[label = "fetch"]; 1 -> 0 }')
    ({'0': 'all', '1': 'fetch'}, [('1', '0')])
    """
    return dict(_NODE.findall(dot)), _EDGE.findall(dot)


def layers(nodes: dict, edges: list) -> dict[str, int]:
    """Longest-path layer of every node (sources at 0)."""
    layer = {n: 0 for n in nodes}
    for _ in range(len(nodes)):
        changed = False
        for a, b in edges:
            if layer[b] < layer[a] + 1:
                layer[b] = layer[a] + 1
                changed = True
        if not changed:
            break
    return layer


def draw_svg(dot: str, target: str | Path) -> str:
    """Write ``target`` (SVG) with graphviz if available, else with matplotlib; return which was used."""
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg", "-o", str(target)], input=dot, text=True, check=True)
        return "graphviz"
    from humeval.figures import pyplot

    plt = pyplot()
    nodes, edges = parse_dot(dot)
    layer = layers(nodes, edges)
    depth = max(layer.values(), default=0)
    columns: dict[int, list[str]] = {}
    for node in sorted(nodes, key=lambda n: nodes[n]):
        columns.setdefault(layer[node], []).append(node)
    position = {n: (i - (len(col) - 1) / 2, depth - level) for level, col in columns.items() for i, n in enumerate(col)}
    width = max(len(col) for col in columns.values())
    fig, ax = plt.subplots(figsize=(max(4, 2.2 * width), 1.0 * (depth + 1) + 0.5))
    for a, b in edges:
        (x0, y0), (x1, y1) = position[a], position[b]
        stamp = nodes[a] == "code_version"  # every stage depends on it: draw it faint, not in the way
        ax.annotate(
            "",
            xy=(x1, y1 + 0.18),
            xytext=(x0, y0 - 0.18),
            arrowprops={
                "arrowstyle": "->",
                "color": "0.75" if stamp else "0.35",
                "linestyle": "--" if stamp else "-",
                "linewidth": 0.6 if stamp else 1.0,
            },
        )
    for node, (x, y) in position.items():
        ax.text(
            x,
            y,
            nodes[node],
            ha="center",
            va="center",
            fontsize=9,
            bbox={"boxstyle": "round,pad=0.4", "fc": "#eef3fb", "ec": "#4C72B0"},
        )
    ax.set_xlim(-width / 2 - 0.5, width / 2 + 0.5)
    ax.set_ylim(-0.6, depth + 0.6)
    ax.axis("off")
    fig.savefig(target, format="svg", bbox_inches="tight")
    plt.close(fig)
    return "matplotlib"
