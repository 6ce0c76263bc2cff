"""What the warm worker (:mod:`humeval.worker`) imports first in every run: pandas, the ``snakemake`` object's
classes (to unpickle a job), every module of this package the stage scripts run, and matplotlib's backend set
to Agg (so a preloaded ``matplotlib.pyplot`` draws off screen). The libraries only some rules use follow
(:data:`humeval.worker.RULE_LIBRARIES`), then :mod:`humeval.worker_freeze`.
"""

import importlib
import pkgutil

import matplotlib
import pandas  # noqa: F401
import snakemake.iocontainers  # noqa: F401

import humeval

#: Package modules that are tools, not stages (benchmark, scaling, this worker).
NOT_STAGES = {"humeval.bench", "humeval.scale", "humeval.worker", "humeval.worker_stack", "humeval.worker_freeze"}

matplotlib.use("Agg")
for module in pkgutil.walk_packages(humeval.__path__, "humeval."):
    if module.name not in NOT_STAGES:
        importlib.import_module(module.name)
