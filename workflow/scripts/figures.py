"""numbers.csv -> the study's figures, PNG and PDF; planning/power.csv -> its page and figure (rule figures)."""

from pathlib import Path

from humeval.intermediate import read_csv
from humeval.report.figures.draw import draw_figures
from humeval.runner import run, study_config

POWER_PAGE = (
    "Per finding, the simulated power (or, untested, the probability of the same direction) of a reproduction of each "
    "planned size (design planned) and of each reproduction at its actual size (design R1, ...), in people x items x "
    "judgements per item, at each effect basis (observed; safeguard: the lower limit of the effect's 60% interval; "
    "assumed) and by each method (model: crossed random effects, any size; bootstrap: the pilot's people, its items "
    "resampled), with the 95% Wilson interval over the simulations, the analytic power and the minimum detectable "
    "effect (mde) at 80%; pilot: the experiment planned from (docs/planning.md). The CSV holds each number in a "
    "column of its own, at full precision."
)


def planning_pages(power_csv: str, out, study: str, formats: tuple[str, ...]) -> None:
    """The planning page (``power_html``) and figure (``power_figure``) from ``power_csv`` (planning/power.csv)."""
    from humeval.planning.power_table import TARGET, as_numbers, headline
    from humeval.report.figures.power import power_figure
    from humeval.report.html_tables import frame_html, power_rows

    power = as_numbers(read_csv(power_csv))
    page = frame_html(power_rows(power), f"{study}: reproduction planning", POWER_PAGE, csv=power_csv)
    Path(out.power_html).write_text(page)
    power_figure(power, headline(power), Path(out.power_figure).with_suffix(""), formats, TARGET)


def main():
    formats = tuple(snakemake.params.formats)
    draw_figures(
        read_csv(snakemake.input.audit), study_config(snakemake).get("figures", []), snakemake.output.figures, formats
    )
    if snakemake.input.power:
        planning_pages(snakemake.input.power, snakemake.output, snakemake.wildcards.study, formats)


run(snakemake, main)
