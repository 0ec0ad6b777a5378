"""Data files shipped inside the package (a game's ``data/`` folder), found with ``importlib.resources``.

A game's fixed components (Attila's map, Walhalla's tiles, dragons and
action cards) live in ``toolkit/games/<game>/data/`` and travel in the wheel,
so an installed toolkit finds them wherever it is installed.  A rule that
names a data file accepts a path to the user's own file or the name of a
packaged one:

>>> resolve("attila_map.json", "toolkit.games.attila").name
'attila_map.json'
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path


def data_dir(package: str):
    """The ``data/`` folder of ``package`` (e.g. ``"toolkit.games.walhalla"``)."""
    return resources.files(package) / "data"


def packaged_names(package: str) -> list[str]:
    """The JSON files shipped in ``package``'s ``data/`` folder."""
    return sorted(f.name for f in data_dir(package).iterdir() if f.name.endswith(".json"))


def resolve(value, package: str):
    """``value`` as a readable file (a ``Path`` or an ``importlib.resources`` Traversable): a path
    to an existing file as given (the user's own file), else the packaged file of that name,
    else ``None``."""
    if not isinstance(value, (str, os.PathLike)):  # already a Traversable, e.g. data_dir(...) / name
        return value if value.is_file() else None
    path = Path(value)
    if path.is_file():
        return path
    packaged = data_dir(package) / str(value)
    if path.name == str(value) and packaged.is_file():  # a bare file name, not a path that does not exist
        return packaged
    return None


def where(package: str) -> str:
    """How an error message names the packaged files: ``one of a.json, b.json``."""
    return f"a path to a JSON file, or one of the packaged files {', '.join(packaged_names(package))}"
