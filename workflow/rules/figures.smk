rule figures:
    """The study's figures (PNG + PDF), drawn from numbers.csv so they show what the tables show."""
    input:
        audit="results/{study}/numbers.csv",
        code=CODE_VERSION,
    output:
        figures=report(
            directory("results/{study}/figures"),
            patterns=["{name}.png"],
            caption="../report/figures.rst",
            category="{study}",
            subcategory="figures",
        ),
    log:
        "results/logs/figures/{study}.log",
    conda:
        "../../envs/humeval.yaml"
    params:
        study=get_study,
    script:
        "../scripts/figures.py"
