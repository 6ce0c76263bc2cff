"""What pyproject.toml cannot say: the package list, found rather than kept by hand (every package under workflow/:
humeval and its subpackages, and the logger plugin ``snakemake_logger_plugin_humeval``, ``--logger humeval``), and
the JSON Schemas of workflow/schemas (the catalogue's place for them) copied into the built package as
humeval/schemas, where a non-editable install finds them (humeval.config.load.schema_dir). A hand-kept list once left
out humeval.metrics.designs, and a wheel lacked the ICC metrics; a package mapped to workflow/schemas made the
editable install an import hook, which Snakemake's plugin discovery (pkgutil.iter_modules) does not see."""

import shutil
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py


class BuildWithSchemas(build_py):
    """build_py, then workflow/schemas/*.yaml into the build's humeval/schemas."""

    def run(self):
        super().run()
        target = Path(self.build_lib, "humeval", "schemas")
        target.mkdir(parents=True, exist_ok=True)
        for schema in sorted(Path("workflow/schemas").glob("*.yaml")):
            shutil.copy(schema, target / schema.name)


setup(
    packages=find_packages("workflow", include=["humeval", "humeval.*", "snakemake_logger_plugin_humeval"]),
    cmdclass={"build_py": BuildWithSchemas},
)
