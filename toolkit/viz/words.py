"""The words a page shows for the columns of the analysis' tables (issue 52, point 4).

The tables keep their names (the CSV files, the API); a page shows each column by its words here, or,
for a metric, by :func:`toolkit.analysis.metrics.label`.  A column with no words is shown by its name,
which tests/test_effect_dashboard_tables.py would find on the page.
"""

from __future__ import annotations

import pandas as pd

from toolkit.analysis.metrics import LABELS, label

COLUMNS = {
    "policy": "player",
    "elo": "Elo rating",
    "se": "standard error",
    "ci_low": "95% interval: low",
    "ci_high": "95% interval: high",
    "games": "games",
    "score": "score (share of the points)",
    "mu": "skill μ (OpenSkill)",
    "sigma": "uncertainty σ",
    "ordinal": "rating μ − 3σ",
}


def column(name: str) -> str:
    """A column in words: :data:`COLUMNS`, a metric's label, ``X_low`` / ``X_high`` as X's interval ends."""
    if name in COLUMNS:
        return COLUMNS[name]
    for end, said in (("_low", "low"), ("_high", "high")):
        if name.endswith(end) and (name[: -len(end)] in LABELS or name[: -len(end)].startswith("win_rate_")):
            return f"{label(name[: -len(end)])}: 95% {said}"
    return label(name)


def in_words(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its columns and its index's name in words (the values untouched)."""
    out = frame.rename(columns=lambda c: column(str(c)))
    if out.index.name is not None:
        out.index.name = column(str(out.index.name))
    return out
