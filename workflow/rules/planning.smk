rule planning:
    """Reproduction planning (humeval.planning): the simulated power of a reproduction of each size, and of each
    actual reproduction, to recover each finding, from a crossed random-effects model of the pilot's ratings and
    a bootstrap of its items, at named effect bases. Its own rule, so that a normal run's reruns stay minimal;
    --config planning=false skips it."""
    input:
        judgements="results/{study}/tidy/judgements.csv",
        participants="results/{study}/tidy/participants.csv",
        exclusions="results/{study}/exclusions.csv",
        published="results/{study}/intermediate/published.csv",
        metrics="results/{study}/intermediate/metrics.csv",
        code=code_for("planning"),
    output:
        power="results/{study}/planning/power.csv",
    log:
        "results/logs/planning/{study}.log",
    benchmark:
        "results/benchmarks/planning/{study}.tsv"
    priority: stage_priority("planning")
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("planning"),
    script:
        "../scripts/planning.py"


rule planning_report:
    """The planning's page and figure (power curves per finding, each reproduction at its size, the 80% line), drawn
    from power.csv: editing the figure code redraws them without simulating again."""
    input:
        power="results/{study}/planning/power.csv",
        code=code_for("planning_report"),
    output:
        power_html=report(
            "results/{study}/planning/power.html",
            caption="../report/planning.rst",
            category="{study}",
            subcategory="planning",
            labels={"study": "{study}", "table": "power", "kind": "planning"},
        ),
        figure=report(
            "results/{study}/planning/figure_power.png",
            caption="../report/planning.rst",
            category="{study}",
            subcategory="planning",
            labels={"study": "{study}", "figure": "figure_power", "kind": "planning"},
        ),
    log:
        "results/logs/planning_report/{study}.log",
    benchmark:
        "results/benchmarks/planning_report/{study}.tsv"
    priority: stage_priority("planning_report")
    conda:
        "../../envs/humeval.yaml"
    params:
        formats=FIGURE_FORMATS,
    script:
        "../scripts/planning_report.py"
