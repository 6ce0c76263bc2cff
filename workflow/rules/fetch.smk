rule fetch_raw:
    """Copy a pinned raw export from the mirror or download it; refuse it unless its sha256 matches."""
    output:
        f"{RAW_DIR}/{{study}}/{{filename}}",
    log:
        "results/logs/fetch_raw/{study}/{filename}.log",
    params:
        entry=get_raw_entry,
        mirror=RAW_MIRROR,
    localrule: True
    run:
        try:
            fetch_raw_logged(params.entry, output[0], log[0], mirror=params.mirror, study=wildcards.study)
        except HumevalError as exc:
            raise WorkflowError(str(exc)) from None
