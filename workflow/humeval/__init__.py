"""humeval: regenerate human-evaluation reproduction studies from raw exports.

The package is grouped by pipeline stage: ``fetch`` (pinned raw files), ``loaders`` (one per export
format, raw -> tidy), ``tidy`` (the long schema), ``exclusions``, ``metrics``, ``qra``, ``audit``,
``tables`` and ``figures``. Heavy libraries (scipy, pingouin, krippendorff, matplotlib, textacy) are
imported inside the functions that use them, so every pipeline step pays only for what it needs.
"""

from humeval.errors import HumevalError

#: The release (semantic versioning; CHANGELOG.md, CITATION.cff and the report's run page give the same; docs/releasing.md).
__version__ = "3.2.0.dev0"

__all__ = ["HumevalError", "__version__"]
