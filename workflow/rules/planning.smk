rule planning:
    """Reproduction planning (humeval.planning.plan): the simulated power of a reproduction of each size, and of each
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
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("planning"),
    script:
        "../scripts/planning.py"
