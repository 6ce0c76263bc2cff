"""Every configured figure of a study, each kind found in the vocabulary (:mod:`humeval.vocabulary`) by name."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from humeval.errors import HumevalError
from humeval.report.figures.style import pyplot, save
from humeval.vocabulary import function

__all__ = ["draw_figures"]


def draw_figures(
    audit: pd.DataFrame, specs: list[dict], outdir: str | Path, formats: tuple[str, ...] = ("png",)
) -> list[Path]:
    """Draw every configured figure of a study into ``outdir``; return the written paths."""
    plt = pyplot()
    written = []
    Path(outdir).mkdir(parents=True, exist_ok=True)
    for spec in specs:
        params = {k: v for k, v in spec.items() if k not in ("id", "kind", "description", "paper")}
        fig = None
        try:
            fig = function("figure", spec["kind"])(audit, plt, **params)
            written += save(fig, Path(outdir) / spec["id"], formats)
        except HumevalError as exc:
            raise HumevalError(f"figure {spec['id']}: {exc}") from None
        except (ValueError, TypeError, KeyError, IndexError) as exc:  # a template or label the data cannot fill
            templates = sorted(k for k, v in params.items() if isinstance(v, str) and "{" in v)
            raise HumevalError(
                f"figure {spec['id']} ({spec['kind']}): cannot draw it ({type(exc).__name__}: {exc})"
                + (f"; check its keys {templates}" if templates else "")
            ) from None
        finally:
            if fig is not None:
                plt.close(fig)
    return written
