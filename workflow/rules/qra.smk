rule qra:
    """QRA as the study sets: pairwise Type I (CV*), II (correlations), IV (claims); QRA3 over experiments O, R1, ..."""
    input:
        metrics="results/{study}/intermediate/metrics.csv",
        published="results/{study}/intermediate/published.csv",
        judgements="results/{study}/tidy/judgements.csv",
        exclusions="results/{study}/exclusions.csv",
        code=code_for("qra"),
    output:
        qra="results/{study}/intermediate/qra.csv",
        summary="results/{study}/intermediate/qra_summary.csv",
        qra3=directory("results/{study}/qra3"),
    log:
        "results/logs/qra/{study}.log",
    benchmark:
        "results/benchmarks/qra/{study}.tsv"
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("qra"),
    script:
        "../scripts/qra.py"
