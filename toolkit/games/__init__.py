"""The registered games, put in core's registry (``toolkit.core.registry``: core looks games up there and
never imports this package).  Adding a game is one line here: its package name, whose ``SPEC`` is
registered (``docs/adding-a-game.md``)."""

import importlib

from toolkit.core.registry import GAMES

REGISTERED = (
    "valhalla",
    "herrlof",
    "halali",
    "attila",
    "walhalla",
    "pig",
)

GAMES.update({name: importlib.import_module(f"toolkit.games.{name}").SPEC for name in REGISTERED})
