"""The registered games (a literal dict: adding a game is one line here)."""

from toolkit.games import herrlof, valhalla

GAMES = {
    "valhalla": valhalla.SPEC,
    "herrlof": herrlof.SPEC,
}
