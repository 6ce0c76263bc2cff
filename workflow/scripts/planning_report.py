"""planning/power.csv -> its HTML page and the power figure (rule planning_report)."""

from pathlib import Path

from humeval.figures.power import power_figure
from humeval.html_tables import frame_html
from humeval.intermediate import read_csv
from humeval.power_table import TARGET, as_numbers, headline
from humeval.runner import run


def main():
    out, study = snakemake.output, snakemake.wildcards.study
    power = as_numbers(read_csv(snakemake.input.power))
    Path(out.power_html).write_text(
        frame_html(
            power,
            f"{study}: reproduction planning",
            "Per finding, the simulated power (or, untested, the probability of the same direction) of a "
            "reproduction of each planned size (design planned) and of each reproduction at its actual size (design "
            "R1, ...), in people x items x judgements per item, at each effect basis (observed; safeguard: the lower "
            "limit of the effect's 60% interval; assumed) and by each method (model: crossed random effects, any "
            "size; bootstrap: the pilot's people, its items resampled), with the 95% Wilson interval over the "
            "simulations, the analytic power and the minimum detectable effect (mde) at 80%; pilot: the experiment "
            "planned from (docs/planning.md).",
            csv=snakemake.input.power,
        )
    )
    figure = Path(out.figure).with_suffix("")
    power_figure(power, headline(power), figure, tuple(snakemake.params.formats), TARGET)


run(snakemake, main)
