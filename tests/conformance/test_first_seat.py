"""Conformance, part 6: ``first_seat``, the one name of the first mover in every game (issue 15), is
the seat that really moved first.

Every result frame has ``first_seat`` right after ``game_index`` (``docs/architecture.md`` decision 5),
made once, by ``toolkit.core.results.to_frame``, from the game's ``GameSpec.first_mover`` over its own
§6 columns (Valhalla's ``start_seat``, Herrlof's ``first_dealer``, Halali's ``first_player``, Attila's
and Walhalla's ``start_player``).  Here it is checked against a derivation that does not read those
columns: the same seeded games stepped through the kernel protocol (``core.protocol.KernelGame``),
where ``advance()`` returns the seat of the first decision point.  What the spec says of that seat:

- Herrlof (R-1, §5 DP-1): the first decision of a game is the bid of the *non-dealer* of round 1, who
  also leads first; the first mover is that seat, not the ``first_dealer`` (their sum is 1).
- Halali (H-1.4, H-2, H-8): the first player's first action is a decision (a reveal is always legal in
  the main phase).  With ``match_games = 2`` a row is a match and ``first_player`` the seat that moved
  first in its first game, which is the first decision of the match: the same seat.
- Attila (A-3.1, §5 DP-1) and Walhalla (W-2.8, §5 DP-1): the start player's turn opens with a decision
  (the tile window: every tile is unused; the boarding: Midgard >= 1), so it is the first decision.
- Valhalla is an exception (and Pig, whose first roll can bust, P-3.2): the start player's turn 1 can pass
  without a decision point (V-3: the opening move of ``first_natural_one`` and of ``alternating_blocks`` is
  automatic; V-4: a throw of 0 or one with no legal move is no decision), so the first decision is often
  the other seat's.  Turns alternate (V-4.6), so the seat deciding in turn ``t`` (the kernel state's turn
  counter) moved first when ``t`` is odd; that seat is compared.

Every game is checked at every preset and seat count, and with the rule values that choose the first
mover set otherwise (``FIRST_MOVER_VARIANTS`` in the game's ``tests/games/<game>/<game>_configs.py``).
The streaming summary's wins by place in the turn order (``keep="summary"``) are checked against the
frame's ``first_seat`` too.  A game's first decision
is taken to be its first mover's unless its configs module defines ``first_mover(game, seat)``
(``tests/game_data.py``).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import toolkit
from conformance_games import NAMES, SPECS
from game_data import game_configs
from toolkit.core.protocol import KernelGame

GAMES = NAMES  # the registered games and the test-only ones (conformance_games.py)
SEED = 20261203
N = 12  # seeded games per case


def cases():
    for name in GAMES:
        spec = SPECS[name]
        counts = spec.seat_counts()
        for preset in spec.Rules.PRESETS:
            for seats in counts:
                yield name, preset, ({"num_players": seats} if len(counts) > 1 else {})
        for settings in getattr(game_configs(name), "FIRST_MOVER_VARIANTS", ()):
            yield name, "standard", settings


CASES = list(cases())


def first_movers_by_protocol(spec, rules, seed: int, n_games: int) -> list[int]:
    """Games ``0 .. n_games - 1`` of the run seeded ``seed``, each stepped to its first decision point:
    the seat that moved first, as the spec says of that decision (module docstring)."""
    policies = ("random",) * spec.seats(rules)  # no choice is made before the first decision
    adjust = getattr(game_configs(spec.name), "first_mover", lambda game, seat: seat)
    out = []
    for g in range(n_games):
        game = KernelGame(spec.kernel, rules, policies, seed, g)
        seat = game.advance()
        out.append(-1 if seat < 0 else adjust(game, seat))
    return out


def first_seat_problems(spec, rules, seed: int = SEED, n_games: int = N) -> list[str]:
    """``first_seat`` of a run's frame and its summary's wins by place against the stepped games."""
    if spec.first_mover is None:
        return [f"{spec.name} declares no first_mover: its frames have no first_seat"]
    df = toolkit.simulate(spec, rules, n_games, seed=seed, policies="random", progress=False)
    if "first_seat" not in df or list(df.columns[:2]) != ["game_index", "first_seat"]:
        return [f"columns {list(df.columns[:3])}: first_seat is not right after game_index"]
    problems = []
    first = df["first_seat"].to_numpy()
    if first.dtype != np.int64:
        problems.append(f"first_seat is {first.dtype}, not int64")
    expected = first_movers_by_protocol(spec, rules, seed, n_games)
    for g, (got, want) in enumerate(zip(first.tolist(), expected)):
        if got != want:
            problems.append(f"game {g}: first_seat {got}, but seat {want} moved first (kernel protocol)")
    seats = spec.seats(rules)
    wins = df[[f"win_{s}" for s in range(seats)]].to_numpy() == 1
    places = np.bincount(((np.arange(seats)[None, :] - first[:, None]) % seats)[wins], minlength=seats)
    summary = toolkit.simulate(spec, rules, n_games, seed=seed, policies="random", keep="summary", progress=False)
    if summary.position_wins.tolist() != places.tolist():
        problems.append(f"the summary's wins by place {summary.position_wins.tolist()} are not those of "
                        f"first_seat {places.tolist()}")
    return problems


@pytest.mark.parametrize("game,preset,settings", CASES,
                         ids=[f"{g}-{p}-{'-'.join(f'{k}={v}' for k, v in s.items()) or 'default'}"
                              for g, p, s in CASES])
def test_first_seat_is_the_seat_that_moved_first(game, preset, settings):
    spec = toolkit.GAMES[game]
    assert first_seat_problems(spec, toolkit.rules(game, preset, **settings)) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_first_mover_that_varies(game):
    """Every game declares one, and its cases above see more than one first mover (a constant
    first_seat could not tell a right declaration from a wrong one)."""
    spec = toolkit.GAMES[game]
    assert spec.first_mover is not None
    seen = set()
    for name, preset, settings in CASES:
        if name == game:
            rules = toolkit.rules(game, preset, **settings)
            seen.update(first_movers_by_protocol(spec, rules, SEED, N))
    assert len(seen) >= 2, seen


# ---------------------------------------------------------------------- negative controls


@pytest.mark.parametrize("game,wrong", [
    ("herrlof", lambda column: column("first_dealer")),  # the dealer of round 1 (the opposite meaning)
    ("valhalla", lambda column: 1 - column("start_seat")),  # the seat that usually makes the first decision
    ("halali", lambda column: column("colour_0")),  # seat 0's colour: right only while Blue starts on seat 0
    ("attila", lambda column: (column("start_player") + 1) % 3),
    ("walhalla", lambda column: 0 * column("start_player")),
], ids=lambda value: value if isinstance(value, str) else "wrong")
def test_a_wrong_first_mover_is_reported(game, wrong):
    spec = toolkit.GAMES[game]
    settings = {"halali": {"first_player": "random", "match_games": 2}, "attila": {"num_players": 3}}.get(game, {})
    rules = toolkit.rules(game, **settings)
    assert first_seat_problems(spec, rules) == []
    assert first_seat_problems(dataclasses.replace(spec, first_mover=wrong), rules)


def test_a_missing_first_mover_is_reported():
    spec = dataclasses.replace(toolkit.GAMES["attila"], first_mover=None)
    assert first_seat_problems(spec, toolkit.rules("attila"))
