rule figures:
    """The study's figures (PNG; PDF too with figure_formats), drawn from numbers.csv so they show what the tables show."""
    input:
        audit="results/{study}/numbers.csv",
        code=code_for("figures"),
    output:
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
    priority: stage_priority("figures")
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("figures"),
        formats=FIGURE_FORMATS,
    script:
        "../scripts/figures.py"
