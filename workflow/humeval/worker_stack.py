"""What the warm worker (:mod:`humeval.worker`) imports once, so no stage job imports it again.

The libraries stage jobs use, and every module of this package the stage scripts run. textacy (with
spaCy) is left to the one study that uses it: it would hold every job back by 1.3 s (pingouin, on top of
the rest, costs 0.2 s).
"""

import importlib
import pkgutil

import matplotlib

import humeval

#: The libraries, and what unpickles a job's ``snakemake`` object.
LIBRARIES = (
    "pandas",
    "scipy.stats",
    "pingouin",
    "krippendorff",
    "matplotlib.pyplot",
    "openpyxl",
    "snakemake.iocontainers",
)
#: Package modules that are tools, not stages (benchmark, scaling, this worker).
NOT_STAGES = {"humeval.bench", "humeval.scale", "humeval.worker", "humeval.worker_stack"}

matplotlib.use("Agg")
for name in LIBRARIES:
    importlib.import_module(name)
for module in pkgutil.walk_packages(humeval.__path__, "humeval."):
    if module.name not in NOT_STAGES:
        importlib.import_module(module.name)
