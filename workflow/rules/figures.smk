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
            labels=paper_labels("figures"),
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
