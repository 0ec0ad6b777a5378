"""The drawing kit every picture shares: a game's own drawings (``toolkit/games/<game>/viz.py``) and the
plots of outcomes (``toolkit.viz.plots``) take their axes, error bars, colours and input checks from here.
It lies below the games (``tests/test_layers.py``) and imports matplotlib only when a figure is made.

>>> from toolkit.core import drawing
>>> drawing.error_bars([0.5], [0.4], [0.7]).tolist()
[[0.09999999999999998], [0.19999999999999996]]
"""

from __future__ import annotations

import numpy as np

EXACT_COLOUR = "#9ecae1"  # an exact number (the odds)
SIM_COLOUR = "#d62728"  # a simulated one, with its interval


def axes(ax, size=(5, 3.5)):
    """``ax``, or the axes of a new figure of ``size`` inches (the games' ``viz.draw`` give their own size)."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=size)
    return ax


def error_bars(rate, low, high):
    """Asymmetric ``yerr`` (2, n) from an interval around ``rate``."""
    rate, low, high = (np.asarray(x, dtype=float) for x in (rate, low, high))
    return np.vstack([np.clip(rate - low, 0, None), np.clip(high - rate, 0, None)])


def require_columns(frame, columns, name: str = "log") -> None:
    """Raise ``ValueError`` naming ``name`` unless ``frame`` has rows and every one of ``columns``."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} is not allowed: it lacks the column(s) {', '.join(missing)}")
    if len(frame) == 0:
        raise ValueError(f"{name} is not allowed: it holds no rows")
