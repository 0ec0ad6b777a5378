"""Analyses over many runs: tournaments and ratings, design metrics, sweeps, the strength ladder.

``toolkit.analysis.ladder(game, ...)`` is :func:`toolkit.analysis.strength.ladder`.
"""

from toolkit.analysis.strength import ladder  # noqa: F401
