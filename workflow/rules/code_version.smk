rule code_version:
    """Stamp the package sources (sha256 per file); a change to the package reruns every stage."""
    input:
        PACKAGE_SOURCES,
    output:
        CODE_VERSION,
    log:
        "results/logs/code_version/code_version.log",
    priority: stage_priority("code_version")
    run:
        run_script("code_version", rule, input, output, params, wildcards, threads, resources, log)
