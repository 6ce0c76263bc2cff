"""planning/power.csv -> its HTML page and the power figure (rule planning_report)."""

from pathlib import Path

from humeval.figures import power_figure
from humeval.html_tables import frame_html
from humeval.intermediate import read_csv
from humeval.planning import TARGET, as_numbers
from humeval.runner import run


def main():
    out, study = snakemake.output, snakemake.wildcards.study
    power = as_numbers(read_csv(snakemake.input.power))
    Path(out.power_html).write_text(
        frame_html(
            power,
            f"{study}: reproduction planning",
            "Per finding, the simulated power of a reproduction of each planned size (design planned) and of each "
            "reproduction at its actual size (design R1, ...) to recover it, with the 95% Wilson interval over the "
            "simulations; pilot: the experiment whose judgements were resampled.",
            csv=snakemake.input.power,
        )
    )
    power_figure(power, Path(out.figure).with_suffix(""), tuple(snakemake.params.formats), TARGET)


run(snakemake, main)
