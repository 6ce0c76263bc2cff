"""The workflow's rule graph -> results/rulegraph.dot and results/rulegraph.svg (rule rulegraph)."""

import logging
from pathlib import Path

from humeval.rulegraph import draw_svg, rulegraph_dot
from humeval.runner import run


def main():
    dot = rulegraph_dot(snakemake.params.snakefile)
    Path(snakemake.output.dot).write_text(dot)
    used = draw_svg(dot, snakemake.output.svg)
    logging.getLogger("humeval").info("rule graph drawn with %s", used)


run(snakemake, main)
