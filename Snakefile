# humeval-repro: the entry point of the clone. The workflow itself is workflow/Snakefile (the catalogue layout);
# this file uses it exactly as a consumer workflow does (docs/deployment.md): as a module, with this clone's
# config/config.yaml.


configfile: "config/config.yaml"


module humeval:
    snakefile:
        "workflow/Snakefile"
    config:
        config


use rule * from humeval
