"""The games the toolkit knows, by name: :data:`GAMES`.

Core looks games up here (``toolkit.core.runner.get_spec``, ``toolkit.core.results.load``) and never
imports them: the registry is filled from above, by ``toolkit/games/__init__.py`` (one line a game: its name
and package), which ``import toolkit`` runs.  Registering imports nothing: a game's declaration (its
package's ``SPEC``) is imported when the game is first looked up, and what its folder provides (the kernel,
the reference, ...) when first used (``toolkit.core.game.Folder``).  A game whose folder fails to import
breaks its own commands only: looking it up raises :class:`~toolkit.core.game.GameUnavailable` with the
error, the views over every game (``values()``, ``items()``) pass it over with a warning, and
``toolkit list`` / ``toolkit check`` name it (:meth:`Registry.unavailable`).

>>> from toolkit.core.registry import Registry
>>> games = Registry()
>>> games.register("pig", "toolkit.games.pig")
>>> list(games), games["pig"].title
(['pig'], 'Pig')
>>> games.register("nothing", "toolkit.games.no_such_game")
>>> games.unavailable()["nothing"].where
'toolkit.games.no_such_game'
>>> import warnings
>>> with warnings.catch_warnings(record=True) as said:
...     warnings.simplefilter("always")
...     [spec.name for spec in games.values()], len(said)  # the broken game left out, with a warning
(['pig'], 1)
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Mapping

from toolkit.core.game import GameUnavailable


class Registry(Mapping):
    """Game name -> its declaration (``GameSpec``), in the order registered (the first is the default game),
    each imported on first lookup."""

    def __init__(self):
        self._packages: dict[str, str] = {}
        self._specs: dict = {}

    def register(self, name: str, package: str) -> None:
        """Add the game ``name`` whose package (``SPEC`` in its ``__init__.py``) is ``package``; nothing is
        imported yet.  Registering a name again replaces it (a test's stand-in)."""
        self._packages[name] = package
        self._specs.pop(name, None)

    def unregister(self, name: str) -> None:
        self._packages.pop(name)
        self._specs.pop(name, None)

    def __getitem__(self, name: str):
        if name not in self._specs:
            package = self._packages[name]  # KeyError: not registered
            try:
                spec = importlib.import_module(package).SPEC
            except Exception as error:  # a broken folder breaks its own game only
                raise GameUnavailable(name, package, error) from error
            if spec.name != name:
                raise GameUnavailable(name, package, ValueError(f"its SPEC is named {spec.name!r}"))
            self._specs[name] = spec
        return self._specs[name]

    def __setitem__(self, name: str, spec) -> None:
        """Stand ``spec`` in for the game ``name`` (a test's: ``monkeypatch.setitem(GAMES, name, spec)``)."""
        self._packages.setdefault(name, spec.package)
        self._specs[name] = spec

    def __delitem__(self, name: str) -> None:
        self.unregister(name)

    def __iter__(self):
        return iter(self._packages)

    def __len__(self) -> int:
        return len(self._packages)

    def __contains__(self, name) -> bool:
        return name in self._packages

    def package(self, name: str) -> str:
        """The package ``name`` was registered with."""
        return self._packages[name]

    def _usable(self):
        for name in self._packages:
            try:
                yield name, self[name]
            except GameUnavailable as error:
                warnings.warn(f"{error}; left out", stacklevel=3)

    def values(self):
        """The declarations of the games that load (one that does not is left out, with a warning)."""
        return [spec for _, spec in self._usable()]

    def items(self):
        """(name, declaration) of the games that load (one that does not is left out, with a warning)."""
        return list(self._usable())

    def unavailable(self, parts: tuple = ("kernel",)) -> dict:
        """Name -> :class:`GameUnavailable` of each game whose declaration, or one of its folder's ``parts``
        (module names), cannot be imported."""
        found = {}
        for name in self._packages:
            try:
                folder = self[name].folder
                for part in parts:
                    folder.module(part)
            except GameUnavailable as error:
                found[name] = error
        return found


GAMES = Registry()
