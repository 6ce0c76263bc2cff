def power_table(wildcards):
    """The study's planning/power.csv where planning runs: the figures job draws its page and figure too."""
    return results(wildcards.study, "planning/power.csv") if PLANNING else []


def planning_pages():
    """The planning page and figure (power curves per finding, each reproduction at its size, the 80% line), where
    planning runs: drawn by the figures job from power.csv, so editing the figure code redraws them without
    simulating again, and no job of their own starts another interpreter (docs/performance.md)."""
    if not PLANNING:
        return {}
    return {
        "power_html": report(
            "results/{study}/planning/power.html",
            caption="../report/planning.rst",
            category="{study}",
            subcategory="planning",
            labels={"study": "{study}", "table": "power", "kind": "planning"},
        ),
        "power_figure": report(
            "results/{study}/planning/figure_power.png",
            caption="../report/planning.rst",
            category="{study}",
            subcategory="planning",
            labels={"study": "{study}", "figure": "figure_power", "kind": "planning"},
        ),
    }


rule figures:
    """The study's figures (PNG; PDF too with figure_formats), drawn from numbers.csv so they show what the tables
    show; and, where planning runs, the planning page and figure from power.csv."""
    input:
        audit="results/{study}/numbers.csv",
        power=power_table,
        code=code_for("figures"),
    output:
        **planning_pages(),
        figures=report(
            directory("results/{study}/figures"),
            patterns=["{name}.png"],
            caption="../report/figures.rst",
            category="{study}",
            subcategory="figures",
            labels={"study": "{study}", "figure": "{name}", "kind": "figure"},
        ),
    log:
        "results/logs/figures/{study}.log",
    benchmark:
        "results/benchmarks/figures/{study}.tsv"
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("figures"),
        formats=FIGURE_FORMATS,
    script:
        "../scripts/figures.py"
