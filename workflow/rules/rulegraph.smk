rule rulegraph:
    """The rule graph for reviewers: DOT always, SVG via graphviz when installed (else matplotlib)."""
    input:
        code=code_for("rulegraph"),
        snakefiles=[os.path.relpath(workflow.main_snakefile)]
        + sorted(os.path.relpath(p) for p in Path(WORKFLOW_ROOT, "rules").glob("*.smk")),
    output:
        dot="results/rulegraph.dot",
        svg=report("results/rulegraph.svg", caption="../report/rulegraph.rst", category="Rule graph"),
    log:
        "results/logs/rulegraph/rulegraph.log",
    params:
        snakefile=lambda wildcards, input: input.snakefiles[0],
    run:
        run_script("rulegraph", rule, input, output, params, wildcards, threads, resources, log)
