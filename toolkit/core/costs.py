"""What a run will cost, known before it plays: each player's seconds a game, shipped, refined by a probe.

``data/costs.json`` holds, for every game and every player the dashboard offers (``GameSpec.player_choices``),
the CPU seconds one game takes when every seat plays that player under the standard rules, measured by
``benchmarks/estimate.py --calibrate`` on the reference machine (2 cores).  A line-up's cost a game is the
mean of its seats' players' costs (a seat's player makes its share of the decisions); a run of ``n`` games
on ``t`` threads takes about ``n`` times that over ``min(t, n)``.  A player the table does not name is
costed by its kind: ``mcts:N`` from the two measured budgets, linear in ``N`` (a search's time is its
iterations'); ``lookahead:K`` or a greedy variant as its kind's default; anything else as the game's
``greedy``.

The rules change a game's length and the machine its speed, so ``core.runner.estimate`` (which can play
games, as this module cannot) also plays a short probe,
the run's first games timed: one a thread, or as many as take about :data:`PROBE_TARGET` seconds where games
are quick (a run's start-up of milliseconds must not be most of the probe's time); skipped where one game is
expected to take over :data:`PROBE_SECONDS`, or the whole run under :data:`PROBE_ABOVE`.  It is weighed
against the shipped cost, which counts as :data:`PRIOR_GAMES` games.  ``benchmarks/estimate.py`` checks the
estimate against the run's real time for every player of every game (the target: within 2x).

>>> round(per_game("valhalla", ("random", "random")) / per_game("valhalla", ("mcts:1000", "mcts:1000")), 4) < 0.01
True
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from importlib import resources

PRIOR_GAMES = 2  # the shipped cost counts as this many probed games
PROBE_SECONDS = 3.0  # a probe whose one game a thread is expected to take longer is not played (shipped cost alone)
PROBE_TARGET = 0.25  # seconds a probe of quick games is sized to: its start-up (milliseconds) is not its time
PROBE_ABOVE = 3.0  # a run expected quicker is not probed: the page says nothing of it (its redraw has no time for one)
ASK_ABOVE = 30.0  # seconds: a run expected to take longer is asked about before it starts (the dashboard)
CALIBRATED_THREADS = 2  # the reference machine's cores, on which data/costs.json was measured


@functools.cache
def shipped() -> dict:
    """``{game: {player: CPU seconds a game}}`` of ``data/costs.json``."""
    return json.loads((resources.files("toolkit.core") / "data" / "costs.json").read_text())


def player_cost(game: str, name: str) -> float:
    """CPU seconds a game of ``game`` with every seat played by ``name`` (see the module's note)."""
    from toolkit.core import mcts

    table = shipped().get(game, {})
    if name in table:
        return table[name]
    try:
        parsed = mcts.parse(name)
    except ValueError:
        parsed = None
    if parsed is not None and "mcts:100" in table and "mcts:1000" in table:
        low, high = table["mcts:100"], table["mcts:1000"]
        slope = max(high - low, 0.0) / 900
        return max(low + slope * (parsed[0] - 100), table.get("greedy", low), 1e-9)
    kind = name.partition(":")[0]
    return table.get(kind, table.get("greedy", 1e-3))


def per_game(game, policies) -> float:
    """CPU seconds a game of this line-up: the mean of its seats' players' costs."""
    name = game if isinstance(game, str) else game.name
    return sum(player_cost(name, p) for p in policies) / len(policies)


def seconds(cost: float, n_games: int, threads: int | None = None) -> float:
    """Wall seconds ``n_games`` games of ``cost`` CPU seconds each take on ``threads`` threads."""
    threads = threads or os.cpu_count() or 1
    return cost * n_games / max(1, min(threads, n_games))


def fitting(cost: float, budget: float, threads: int | None = None) -> int:
    """The most games of ``cost`` CPU seconds each that fit in ``budget`` wall seconds (at least 1)."""
    threads = threads or os.cpu_count() or 1
    return max(1, int(budget * threads / cost)) if cost > 0 else 1


@dataclasses.dataclass(frozen=True)
class Estimate:
    """A run's expected wall seconds, and how they were found."""

    seconds: float
    per_game: float  # CPU seconds a game, the shipped cost weighed with the probe's
    shipped: float  # the shipped cost alone
    probed: int  # games the probe played (0: none)
    threads: int

    def fitting(self, budget: float = ASK_ABOVE) -> int:
        """The games of this line-up that fit in ``budget`` seconds."""
        return fitting(self.per_game, budget, self.threads)

    def words(self) -> str:
        from toolkit.core.jobs import format_duration

        how = (f"the players' measured speed and a probe of {self.probed} game{'s' * (self.probed != 1)}"
               if self.probed else "the players' measured speed")
        return f"about {format_duration(self.seconds)} (estimated from {how})"
