"""Every configured figure of a study, each kind found in the vocabulary (:mod:`humeval.config.registry`) by name."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from humeval.config.registry import function
from humeval.errors import HumevalError
from humeval.report.figures.style import pyplot, save

__all__ = ["draw_figures", "draw_key"]

#: The key's font size (points): a caption's, smaller than the tick labels.
KEY_FONTSIZE = 8


def draw_figures(
    audit: pd.DataFrame, specs: list[dict], outdir: str | Path, formats: tuple[str, ...] = ("png",)
) -> list[Path]:
    """Draw every configured figure of a study into ``outdir``; return the written paths."""
    plt = pyplot()
    written = []
    Path(outdir).mkdir(parents=True, exist_ok=True)
    for spec in specs:
        params = {k: v for k, v in spec.items() if k not in ("id", "kind", "description", "paper", "key")}
        fig = None
        try:
            fig = function("figure", spec["kind"])(audit, plt, **params)
            if spec.get("key"):
                draw_key(fig, spec["key"])
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


def draw_key(fig, key: dict) -> None:
    """The figure's key below everything it draws: each abbreviation its labels use and what it stands for
    (``key: {Con: consistent, Devx: chatbot developers}``), wrapped to the figure's width, placed under the lowest
    tick label or legend so that it covers no mark (the saved figure grows to hold it: ``savefig.bbox`` tight)."""
    import textwrap

    text = "; ".join(f"{short}: {meaning}" for short, meaning in key.items())
    width = max(40, int(fig.get_figwidth() * 72 / (0.6 * KEY_FONTSIZE)))  # characters a line holds
    lowest = fig.get_tightbbox(fig.canvas.get_renderer()).y0 / fig.get_figheight()  # figure fraction, may be < 0
    fig.text(
        0.02,
        lowest - 0.01,
        textwrap.fill(text, width, break_on_hyphens=False),
        ha="left",
        va="top",
        fontsize=KEY_FONTSIZE,
    )
