"""The registered games (a literal dict: adding a game is one line here)."""

from toolkit.games import attila, halali, herrlof, valhalla, walhalla

GAMES = {
    "valhalla": valhalla.SPEC,
    "herrlof": herrlof.SPEC,
    "halali": halali.SPEC,
    "attila": attila.SPEC,
    "walhalla": walhalla.SPEC,
}
