"""Kernel records -> pandas, with provenance; CSV / Parquet export with a JSON sidecar.

Every frame the toolkit returns carries ``df.attrs``:

``game``, ``preset`` (or ``None`` if the rules match no preset), ``rules``
(every parameter, JSON form), ``rules_version``, ``policies``, ``seed``,
``n_games``, ``toolkit_version``.

:func:`save` writes ``NAME.csv`` (or ``NAME.parquet``) plus ``NAME.json``
holding those attrs, so a file found later still says how it was made;
:func:`load` reads both back.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from toolkit import __version__


def provenance(spec, rules, policies, seed, n_games) -> dict:
    return {
        "game": spec.name,
        "preset": rules.preset_name(),
        "rules": rules.to_json(),
        "rules_version": type(rules).RULES_VERSION,
        "policies": list(policies),
        "seed": int(seed),
        "n_games": int(n_games),
        "toolkit_version": __version__,
    }


def to_frame(spec, records: np.ndarray, first_game: int, attrs: dict, columns=None) -> pd.DataFrame:
    """One row per game: ``game_index`` then the kernel's columns (only ``columns`` if given,
    e.g. without the seats a 3-player game does not have)."""
    df = pd.DataFrame(records, columns=list(spec.columns))
    if columns is not None and list(columns) != list(spec.columns):
        df = df[list(columns)]
    df.insert(0, "game_index", np.arange(first_game, first_game + len(df), dtype=np.int64))
    for column, labels in spec.categories.items():
        if column in df:
            df[column] = pd.Categorical.from_codes(df[column].to_numpy(), categories=list(labels))
    df.attrs.update(attrs)
    return df


def sidecar_path(path) -> Path:
    path = Path(path)
    return path.with_suffix(".json")


def check_path(path) -> Path:
    """The output path, or a ``ValueError`` if :func:`save` could not write it (checked
    before a long run, so the run is not wasted)."""
    out = Path(path)
    if out.suffix not in (".csv", ".parquet"):
        raise ValueError(f"output={str(path)!r} is not allowed: the name must end in .csv or .parquet")
    if out.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise ValueError(f"output={str(path)!r} is not allowed: Parquet needs pyarrow "
                             "(pip install pyarrow); use a .csv name instead") from None
    return out


def save(df: pd.DataFrame, path) -> list[Path]:
    """Write ``df`` to CSV or Parquet (by suffix) and its attrs to a JSON sidecar.

    Returns the written paths.  Parquet needs ``pyarrow`` (``pip install pyarrow``).
    """
    path = check_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".parquet":
        table = df.copy()
        table.attrs = {}
        table.to_parquet(path, index=False)
    else:
        df.to_csv(path, index=False)
    meta = sidecar_path(path)
    meta.write_text(json.dumps(df.attrs, indent=2, default=str) + "\n")
    return [path, meta]


def load(path) -> pd.DataFrame:
    """Read a file written by :func:`save`, attrs included."""
    path = Path(path)
    df = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    meta = sidecar_path(path)
    if meta.exists():
        df.attrs.update(json.loads(meta.read_text()))
    return df
