"""The games the conformance suite runs over, and how it samples their positions (issue 53, point 3).

The suite runs over every registered game (``toolkit.GAMES``) and then the test-only games
(``tests/game_data.py``'s ``TEST_GAMES``: Tiny, a game of a handful of decisions under
``tests/conformance/tiny/``), each the same way: no test treats a game apart (a few negative controls make one
registered game's declaration wrong on purpose).

- :data:`SPECS`, name -> ``GameSpec`` of all of them, readable when the tests are collected (a test-only game's
  declaration is imported from its package), and :data:`NAMES`, the names, the registered games first;
- :func:`registered`: the test-only games in ``toolkit.GAMES`` for a while, so that ``toolkit.simulate``, the
  CLI and the report take them; ``tests/conformance/conftest.py`` keeps them registered while a conformance
  module runs, and only then, so that no test elsewhere in the same process sees them;
- :func:`games_until`: the samplers' rule.  A test that needs some positions plays seeded games, at least as
  many as it always played, then more until it has them: a short game is sampled in more games, not failed.
  Past :data:`MAX_GAMES` a sampler fails, saying what it looked for (a game that never offers what a test
  needs, e.g. no decision with several options, is reported, not passed).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Mapping

import toolkit
from game_data import TEST_GAMES, local_package

MAX_GAMES = 300  # the most seeded games a sampler plays for the positions it needs


class ConformanceGames(Mapping):
    """The registered games, then the test-only ones: name -> ``GameSpec`` (a test-only game's from its package,
    whether or not it is registered at the moment)."""

    def __getitem__(self, name: str):
        if name in toolkit.GAMES:
            return toolkit.GAMES[name]
        if name in TEST_GAMES:
            return importlib.import_module(local_package(name)).SPEC
        raise KeyError(name)

    def __iter__(self):
        return iter(dict.fromkeys([*toolkit.GAMES, *TEST_GAMES]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*toolkit.GAMES, *TEST_GAMES]))


SPECS = ConformanceGames()
NAMES = list(SPECS)


@contextlib.contextmanager
def registered():
    """The test-only games registered in ``toolkit.GAMES`` (each under its own package) for the ``with`` block,
    and unregistered after it (a game registered before is left as it was)."""
    added = [name for name in TEST_GAMES if name not in toolkit.GAMES]
    for name in added:
        toolkit.GAMES.register(name, local_package(name))
    try:
        yield
    finally:
        for name in added:
            toolkit.GAMES.unregister(name)


def games_until(enough, games: int = 1, what: str = "the positions the test needs", most: int = MAX_GAMES):
    """Game indices ``0, 1, 2, ...``: the first ``games``, then more while ``enough()`` is false; an
    ``AssertionError`` naming ``what`` once ``most`` games did not give it.

    >>> found = []
    >>> for g in games_until(lambda: len(found) >= 3, games=2):
    ...     found.append(g)
    >>> found
    [0, 1, 2]
    """
    g = 0
    while g < games or not enough():
        if g >= most:
            raise AssertionError(f"{most} seeded games did not give {what}")
        yield g
        g += 1
