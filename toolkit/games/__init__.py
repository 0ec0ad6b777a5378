"""The registered games, put in core's registry (``toolkit.core.registry``: core looks games up there and
never imports this package).  Adding a game is one line here: its package name (``toolkit.games.<name>``,
whose ``SPEC`` is its declaration; ``docs/adding-a-game.md``).  Nothing is imported here: a game's
declaration loads when the game is first looked up, its kernel when first used."""

from toolkit.core.registry import GAMES

REGISTERED = (
    "valhalla",
    "herrlof",
    "halali",
    "attila",
    "walhalla",
    "pig",
)

for _name in REGISTERED:
    GAMES.register(_name, f"toolkit.games.{_name}")
