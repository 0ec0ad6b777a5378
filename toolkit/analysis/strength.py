"""The strength ladder: does the game change as its players get better?

:func:`ladder` rates a line of policies from weak to strong (default :data:`LADDER`: ``random``,
``greedy``, ``lookahead``, ``mcts:100``, ``mcts:1000``) and measures, at each strength, the design
metrics that depend on play, each with its 95% interval:

- **rating**: Elo (two seats) or OpenSkill ``mu`` (three or more) from a tournament of every pair of
  the policies on common random numbers (:func:`toolkit.analysis.tournament.compare`,
  :mod:`toolkit.analysis.ratings`);
- from a run of the policy in every seat (self-play, ``selfplay_games`` games): the first player's win
  rate and advantage over the mean place, the duration in turns, decisiveness (the share of the game
  after which the winner led for good), lead changes, drawishness (:mod:`toolkit.analysis.metrics`);
- **skill gap**: the policy's win rate against ``random`` over every seating (from the tournament),
  minus the fair share.

:func:`edge_trend` answers "does the first player's edge grow as players improve?" from the weakest
and the strongest rung: it grows (or shrinks) when their intervals do not overlap.

Examples
--------
>>> table = ladder("valhalla", policies=("random", "greedy"), n_games=200, seed=1, progress=False)
>>> table.index.tolist(), table.attrs["rating"]
(['random', 'greedy'], 'elo')
>>> bool(table.loc["greedy", "rating"] > table.loc["random", "rating"])
True
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from toolkit.analysis import metrics, ratings, tournament
from toolkit.core import results
from toolkit.core.runner import get_spec, resolve_rules, simulate

LADDER = ("random", "greedy", "lookahead", "mcts:100", "mcts:1000")
# the self-play metrics of each rung: (column, ladder label)
PLAY_METRICS = (("first_player_win_rate", "first player's win rate"),
                ("first_player_advantage", "first player's advantage"),
                ("duration_turns", "duration (turns)"),
                ("decisiveness", "decisiveness"),
                ("lead_changes", "lead changes"),
                ("drawishness", "drawishness"))
DESCRIPTIONS = {
    "rating": "Elo (two seats, mean 1500) or OpenSkill mu (three or more) from every pairing",
    "first_player_win_rate": "self-play: win rate of the seat that moved first",
    "first_player_advantage": "self-play: first player's win rate minus the mean win rate of all places",
    "duration_turns": "self-play: mean turns per game",
    "decisiveness": "self-play: share of the game after which the winner led for good (lower = decided earlier)",
    "lead_changes": "self-play: mean lead changes per game",
    "drawishness": "self-play: share of games with no sole winner",
    "skill_gap": "win rate against random, every seating pooled, minus the fair share",
}


def ladder(game, rules=None, *, policies=LADDER, n_games: int = 100, selfplay_games: int | None = None,
           seed: int = 0, preset=None, threads: int | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Ratings and play-dependent design metrics of ``policies``, weakest first.

    Parameters
    ----------
    game : str or GameSpec
    rules, preset
        As in :func:`toolkit.simulate` (``rules={"num_players": 3}`` for Attila with 3 players).
    policies : sequence of str
        The rungs, weakest first (any policy names of the game, e.g. ``mcts:300``); at least two.
    n_games : int
        Games per ordered pair (two seats) or per seating (three or more) of the rating tournament.
    selfplay_games : int, optional
        Games of each policy in every seat (default ``n_games``: then the tournament's own self-play
        run of each policy, not played again).
    seed : int
        One seed for every run (common random numbers).

    Returns
    -------
    DataFrame
        Index ``policy`` in the given order; ``rung`` (0 = weakest), ``rating``, ``rating_low``,
        ``rating_high``, then for each metric of :data:`PLAY_METRICS` and ``skill_gap`` its value and
        ``_low`` / ``_high`` 95% bounds.  ``attrs``: the provenance, ``rating`` (``"elo"`` or
        ``"openskill"``), ``fair`` (the fair share), ``selfplay_games``, ``answer`` (:func:`edge_trend`).
    """
    spec = get_spec(game)
    rules = resolve_rules(spec, rules, preset)
    names = [spec.check_policies((p,), rules)[0] for p in _names(policies)]
    if len(names) < 2:
        raise ValueError(f"policies={','.join(names)!r} is not allowed: a ladder needs at least two policies")
    for label, value in (("n_games", n_games), ("selfplay_games", selfplay_games)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1):
            raise ValueError(f"{label}={value!r} is not allowed: an integer >= 1")
    selfplay_games = n_games if selfplay_games is None else selfplay_games
    seats = spec.seats(rules)
    played = {}  # line-up -> Summary: each rung's self-play is one of the tournament's runs
    table = tournament.compare(spec, names, n_games, seed=seed, rules=rules, threads=threads, progress=progress,
                               runs=played)
    rated = ratings.ratings(table)
    kind = rated.attrs["rating"]
    value, low, high = ("elo", "ci_low", "ci_high") if kind == "elo" else ("mu", "ci_low", "ci_high")
    against = tournament.matrix(table)
    rows = []
    for rung, name in enumerate(names):
        row = {"policy": name, "rung": rung, "rating": float(rated.loc[name, value]),
               "rating_low": float(rated.loc[name, low]), "rating_high": float(rated.loc[name, high])}
        summary = played.get((name,) * seats) if selfplay_games == n_games else None
        if summary is None:
            summary = simulate(spec, rules, selfplay_games, seed=seed, policies=(name,) * seats, threads=threads,
                               keep="summary", progress=progress)
        found = metrics.metrics_row(summary)
        for column, _ in PLAY_METRICS:
            for suffix in ("", "_low", "_high"):
                row[column + suffix] = float(found.get(column + suffix, np.nan))
        fair = 1.0 / seats
        if "random" in names:
            for stat, suffix in (("win_rate", ""), ("ci_low", "_low"), ("ci_high", "_high")):
                row["skill_gap" + suffix] = float(against[stat].loc[name, "random"]) - fair
        rows.append(row)
    out = pd.DataFrame(rows).set_index("policy")
    out.attrs.update(results.provenance(spec, rules, names, seed, n_games))
    out.attrs.update({"rating": kind, "fair": 1.0 / seats, "selfplay_games": selfplay_games})
    out.attrs["answer"] = edge_trend(out)
    return out


def _names(policies) -> list[str]:
    if isinstance(policies, str):
        policies = policies.split(",")
    return list(dict.fromkeys(p.strip() for p in policies if p.strip()))


def edge_trend(table: pd.DataFrame, metric: str = "first_player_advantage") -> str:
    """One sentence: does ``metric`` (the first player's edge) change from the weakest rung of a
    :func:`ladder` table to the strongest (the highest rating)?  It grows or shrinks when the two 95%
    intervals do not overlap; otherwise the ladder cannot tell.

    >>> t = pd.DataFrame({"rating": [1400, 1600], "first_player_advantage": [0.01, 0.09],
    ...                   "first_player_advantage_low": [0.0, 0.07], "first_player_advantage_high": [0.02, 0.11]},
    ...                  index=pd.Index(["random", "mcts"], name="policy"))
    >>> edge_trend(t)
    "The first player's edge grows with skill: +0.010 [+0.000, +0.020] for random, +0.090 [+0.070, +0.110] for mcts."
    """
    if metric not in table.columns or table[metric].isna().all():
        return "The first player's edge is not defined for this game (no first mover)."
    weak = table.index[0]
    strong = table["rating"].idxmax()

    def text(name):
        r = table.loc[name]
        return f"{r[metric]:+.3f} [{r[metric + '_low']:+.3f}, {r[metric + '_high']:+.3f}] for {name}"

    if strong == weak:
        return f"The strongest policy is the weakest rung ({weak}): no trend to read ({text(weak)})."
    w, s = table.loc[weak], table.loc[strong]
    if s[metric + "_low"] > w[metric + "_high"]:
        verdict = "grows with skill"
    elif s[metric + "_high"] < w[metric + "_low"]:
        verdict = "shrinks with skill"
    else:
        verdict = "does not change measurably with skill (the intervals overlap)"
    return f"The first player's edge {verdict}: {text(weak)}, {text(strong)}."
