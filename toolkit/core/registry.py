"""The games the toolkit knows, by name.

Core looks games up here (``toolkit.core.runner.get_spec``, ``toolkit.core.results.load``) and never
imports them: the registry is filled from above, by ``toolkit/games/__init__.py`` (one line a game),
which ``import toolkit`` runs first.  Imports run downward (``tests/test_layers.py``).
"""

from __future__ import annotations

GAMES: dict = {}  # name -> GameSpec, in the order the games are listed (the first is the default game)
