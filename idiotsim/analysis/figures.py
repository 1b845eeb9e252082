"""How every figure of the project is drawn and written: headless matplotlib, one DPI, and `save_png`, whose
bytes depend on the data alone (the committed reports' PNGs regenerate byte-identical on any machine)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from idiotsim.runs.atomic_files import write_atomic  # noqa: E402

DPI = 110
LAYOUT_DECIMALS = 6  # figure fractions: a millionth of the width is under a thousandth of a pixel


def lay_out(fig):
    """Lay `fig` out as `save_png` does (tight_layout, its margins rounded) and return it: what a test
    measures (text extents with the renderer) is then what the PNG shows."""
    fig.tight_layout()
    params = fig.subplotpars
    fig.subplots_adjust(**{side: round(getattr(params, side), LAYOUT_DECIMALS)
                           for side in ("left", "right", "bottom", "top", "wspace", "hspace")})
    return fig


def save_png(fig, path: Path, dpi: int = DPI) -> Path:
    """Lay out, write and close `fig`, its PNG bytes a function of the data alone.

    tight_layout's margins come out of numpy code whose last bit depends on the CPU (numpy picks SIMD
    kernels by CPU feature), and an axes edge that falls on a half pixel, where drawing snaps to one pixel
    or the next, then lands on either side of it, moving a spine by a pixel: the committed reports would not match their regeneration on another
    machine. Rounded margins are the same everywhere. No "Software" metadata: no matplotlib version."""
    lay_out(fig)
    write_atomic(path, lambda tmp: fig.savefig(tmp, format="png", dpi=dpi, metadata={"Software": None}))
    plt.close(fig)
    return path
