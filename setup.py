"""The package list, found rather than kept by hand (pyproject.toml holds everything else): every package under
workflow/humeval, plus humeval.schemas, which pyproject.toml maps to workflow/schemas (the catalogue's place for
schemas). A hand-kept list once left out humeval.metrics.designs, and a wheel lacked the ICC metrics."""

from setuptools import find_packages, setup

setup(packages=[*find_packages("workflow", include=["humeval", "humeval.*"]), "humeval.schemas"])
