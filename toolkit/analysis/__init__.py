"""Analyses over many runs: tournaments and ratings, design metrics, sweeps, the strength ladder, rule tuning.

``toolkit.analysis.ladder(game, ...)`` is :func:`toolkit.analysis.strength.ladder`;
``toolkit.analysis.tune(game, targets, vary, ...)`` is :func:`toolkit.analysis.tuning.tune`.
"""

from toolkit.analysis.strength import ladder  # noqa: F401
from toolkit.analysis.tuning import tune  # noqa: F401
