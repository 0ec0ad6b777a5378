"""Conformance: the design-metric columns ``decisions`` and ``options`` are the protocol's, in every game, and
the protocol's ``returns`` are the winners of the record.

Every game's record counts ``decisions``, the decision points presented (a single option included), and
``options``, the options they offered, summed (each game's module docstring says so in its terms).  Here
they are counted from outside the kernel's record code: seeded games are stepped through the protocol
(:class:`toolkit.core.protocol.KernelGame`), one ``advance`` per decision point and its ``count`` added
up, for every seat count and policy (the lookahead's rollouts, which run the same state machine in
worlds of their own, must add nothing).  The per-game ``test_*_metrics_columns.py`` check the same
columns against the references' own observers and check ``lead_changes`` and ``decisive_turn``.
"""

from __future__ import annotations

import pytest

import toolkit
from conformance_games import NAMES
from toolkit.core.protocol import KernelGame

SEED = 20261204


def lineups(name):
    spec = toolkit.GAMES[name]
    for seats in spec.seat_counts():
        rules = toolkit.rules(name, **({"num_players": seats} if len(spec.seat_counts()) > 1 else {}))
        for policy in spec.policies:
            try:  # a fast lookahead where the game takes a sample count
                spec.kernel.policy_ids((f"{policy}:1",) * seats)
                policy = f"{policy}:1"
            except (KeyError, ValueError):
                pass
            yield rules, (policy,) * seats


def count_problems(name, rules, lineup, games, row_of=lambda game: game.record()) -> list:
    kernel = toolkit.GAMES[name].kernel
    columns = list(kernel.COLUMNS)
    problems = []
    for g in range(games):
        game = KernelGame(kernel, rules, lineup, SEED, g)
        decisions = options = 0
        while game.advance() >= 0:
            decisions += 1
            options += int(kernel.count(game.params, game.st))
            game.apply(game.options()[game.choose()])
        row = dict(zip(columns, row_of(game).tolist()))
        if (row["decisions"], row["options"]) != (decisions, options):
            problems.append(f"{lineup} game {g}: record ({row['decisions']}, {row['options']}), "
                            f"stepped ({decisions}, {options})")
    return problems


@pytest.mark.parametrize("name", sorted(NAMES))
def test_decisions_and_options_are_the_protocols(name):
    for rules, lineup in lineups(name):
        games = 1 if lineup[0].startswith("lookahead") else 4
        assert count_problems(name, rules, lineup, games) == []


def test_a_miscounted_record_is_caught():
    """Negative control: one decision too many in the record."""
    kernel = toolkit.GAMES["valhalla"].kernel
    at = list(kernel.COLUMNS).index("decisions")

    def plus_one(game):
        row = game.record()
        row[at] += 1
        return row

    assert len(count_problems("valhalla", toolkit.rules("valhalla"), ("random", "random"), 3, plus_one)) == 3


def returns_problems(name, games=6, returns_of=lambda game: game.returns()) -> list:
    """The protocol's ``returns`` against the record: 1 exactly for the seats among the winners."""
    spec = toolkit.GAMES[name]
    columns = list(spec.kernel.COLUMNS)
    problems = []
    for seats in spec.seat_counts():
        rules = toolkit.rules(name, **({"num_players": seats} if len(spec.seat_counts()) > 1 else {}))
        for g in range(games):
            game = KernelGame(spec.kernel, rules, ("greedy",) * seats, SEED, g)
            while game.advance() >= 0:
                game.apply(game.options()[game.choose()])
            row = dict(zip(columns, game.record().tolist()))
            got = returns_of(game)
            winners = [s for s in range(seats) if row[f"win_{s}"] == 1]
            if got[:seats] != [1.0 if s in winners else 0.0 for s in range(seats)] or any(got[seats:]):
                problems.append(f"{seats} seats, game {g}: returns {got}, winners {winners}")
            if row["winner"] >= 0 and winners != [row["winner"]]:
                problems.append(f"{seats} seats, game {g}: winner {row['winner']} but win columns {winners}")
    return problems


@pytest.mark.parametrize("name", sorted(NAMES))
def test_returns_are_the_winners(name):
    assert returns_problems(name) == []


def test_returns_of_the_losers_are_caught():
    """Negative control: returns turned round."""
    assert returns_problems("herrlof", 3, lambda game: [1.0 - r for r in game.returns()]) != []
