"""The registered games (a literal dict: adding a game is one line here), put in core's registry
(``toolkit.core.registry``: core looks games up there and never imports this package)."""

from toolkit.core.registry import GAMES
from toolkit.games import attila, halali, herrlof, valhalla, walhalla

GAMES.update({
    "valhalla": valhalla.SPEC,
    "herrlof": herrlof.SPEC,
    "halali": halali.SPEC,
    "attila": attila.SPEC,
    "walhalla": walhalla.SPEC,
})
