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

:func:`edge_trend` answers "does the first player's edge grow as players improve?" from every pair of
rungs, with intervals adjusted for the number of comparisons, and says when there are not enough games
to tell.

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
from toolkit.core import costs, jobs, results
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
        Index ``policy``, weakest first by the measured rating (``attrs["asked"]``: the order given);
        ``rung`` (0 = weakest), ``rating``, ``rating_low``,
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
    games = n_games * len(tournament.lineups(names, seats)) + (0 if selfplay_games == n_games
                                                               else len(names) * selfplay_games)
    work = (sum(costs.per_game(spec, p) for p in tournament.lineups(names, seats)) * n_games
            + (0 if selfplay_games == n_games else sum(costs.per_game(spec, (p,) * seats) for p in names) * selfplay_games))
    with jobs.planned(games, work):  # a watched ladder: the tournament's and the self-play's games, each at its cost
        return _ladder(spec, rules, names, n_games, selfplay_games, seats, played, seed=seed, threads=threads,
                       progress=progress)


def _ladder(spec, rules, names, n_games, selfplay_games, seats, played, *, seed, threads, progress) -> pd.DataFrame:
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
    # weakest first by the rating measured here, not by the order asked: a rung asked as stronger can
    # rate lower (Herrlof's mcts:100 below its lookahead); ``attrs["asked"]`` keeps the order asked
    out = pd.DataFrame(rows).sort_values("rating", kind="stable").set_index("policy")
    out["rung"] = range(len(out))
    out.attrs.update(results.provenance(spec, rules, names, seed, n_games))
    out.attrs.update({"rating": kind, "fair": 1.0 / seats, "selfplay_games": selfplay_games, "asked": list(names)})
    out.attrs["answer"] = edge_trend(out)
    return out


def _names(policies) -> list[str]:
    if isinstance(policies, str):
        policies = policies.split(",")
    return list(dict.fromkeys(p.strip() for p in policies if p.strip()))


def not_played(policies, game: str) -> str:
    """The sentence that names the rungs of the full ladder (:data:`LADDER`) a shorter one left out, and
    why ("" when none is left out): a page's ladder leaves out its slowest rungs to stay within minutes."""
    played = {p.split(":")[0] if p.startswith("lookahead") else p for p in policies}
    missing = [p for p in LADDER if p not in played]
    if not missing:
        return ""
    return (f"Not on this ladder: {', '.join(missing)} (left out to keep the page's runs within minutes, "
            f"their games being the slowest; `toolkit ladder {game}` plays every rung, up to {LADDER[-1]}).")


RESOLUTION = 0.05  # the smallest change in the first player's edge a ladder is asked to tell apart
MIN_SELFPLAY = 100  # self-play games per rung below which the edge's intervals are not read (issue 50)


def edge_trend(table: pd.DataFrame, metric: str = "first_player_advantage", resolution: float = RESOLUTION) -> str:
    """One sentence: does ``metric`` (the first player's edge) change with skill, over every rung of a
    :func:`ladder` table?

    Every pair of rungs with the metric is compared (rungs ordered by rating), each difference with an
    interval that holds together with the others at 95% (Bonferroni over the pairs; each rung's standard
    error read from its 95% interval, the rungs' runs taken as independent).  The edge *grows* (or
    *shrinks*) with skill when every pair that differs has the stronger rung higher (lower); it changes
    *not in one direction* when they disagree.  When no pair differs, the answer says the edge does not
    change measurably only if every difference's whole interval lies within ± ``resolution`` (an
    equivalence, :func:`toolkit.analysis.verdicts.within`: a difference of 0.03 ± 0.03 is not "within
    ±0.03"); else there are not enough games to tell.  A rung without the metric is named as left out.  Below :data:`MIN_SELFPLAY`
    self-play games per rung (``table.attrs["selfplay_games"]``) nothing is read from the intervals: a rate
    from a handful of games (Attila's page ladder: 1, 6 and 0 first-player wins in 10 games a rung, where
    10,000 games give 0.317) is too coarse for the normal approximation of a difference, and the answer
    says so and how many games would do.

    >>> t = pd.DataFrame({"rating": [1400, 1600], "first_player_advantage": [0.01, 0.09],
    ...                   "first_player_advantage_low": [0.0, 0.07], "first_player_advantage_high": [0.02, 0.11]},
    ...                  index=pd.Index(["random", "mcts"], name="policy"))
    >>> edge_trend(t)
    "The first player's edge grows with skill: mcts's is higher than random's by +0.080 [+0.058, +0.102] (+0.010 [+0.000, +0.020] for random; +0.090 [+0.070, +0.110] for mcts; 1 comparison)."
    """
    from toolkit.analysis import verdicts

    if metric not in table.columns or table[metric].isna().all():
        return "The first player's edge is not defined for this game (no first mover)."
    played = table.attrs.get("selfplay_games")
    if played is not None and played < MIN_SELFPLAY:
        return (f"Too few games to read the first player's edge across the rungs: {played:,} self-play games a rung "
                f"(at least {MIN_SELFPLAY:,} are needed before its intervals are compared; `toolkit ladder "
                f"--selfplay-games {MIN_SELFPLAY * 10:,}` tells apart differences of about 0.05 between rungs).")
    finite = table[np.isfinite(table[metric]) & np.isfinite(table[metric + "_low"])
                   & np.isfinite(table[metric + "_high"])]
    left_out = [name for name in table.index if name not in finite.index]
    out_text = (f" Left out: {', '.join(left_out)} (no interval for the edge in its self-play)." if left_out else "")
    rungs = finite.sort_values("rating", kind="stable")
    if len(rungs) < 2:
        return f"Only one rung has the first player's edge: no trend to read.{out_text}"
    names = list(rungs.index)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]  # a weaker than b by rating
    z = verdicts.together(len(pairs))
    se = (rungs[metric + "_high"] - rungs[metric + "_low"]) / (2 * verdicts.Z95)

    def text(name):
        r = rungs.loc[name]
        return f"{r[metric]:+.3f} [{r[metric + '_low']:+.3f}, {r[metric + '_high']:+.3f}] for {name}"

    found, widest, bound, equal = [], 0.0, 0.0, True
    for a, b in pairs:
        diff = float(rungs.loc[b, metric] - rungs.loc[a, metric])
        half = float(z * np.hypot(se[a], se[b]))
        widest, bound = max(widest, half), max(bound, abs(diff) + half)  # bound: the farthest end of any interval
        equal &= verdicts.within(diff - half, diff + half, resolution)
        if verdicts.shown(diff - half, diff + half):
            found.append((abs(diff), a, b, diff, half))
    counted = f"{len(pairs)} comparison{'s' if len(pairs) > 1 else ''}"
    every = "; ".join(text(n) for n in names)
    if found:
        ups = {diff > 0 for _, _, _, diff, _ in found}
        verdict = ("grows with skill" if ups == {True} else "shrinks with skill" if ups == {False}
                   else "changes with skill, not in one direction")
        shown = sorted(found, reverse=True)[:3]
        said = "; ".join(f"{b}'s is {'higher' if diff > 0 else 'lower'} than {a}'s by {diff:+.3f} "
                         f"[{diff - half:+.3f}, {diff + half:+.3f}]" for _, a, b, diff, half in shown)
        return f"The first player's edge {verdict}: {said} ({every}; {counted}).{out_text}"
    if equal:  # every difference's whole interval within ± the resolution: an equivalence shown
        return (f"The first player's edge does not change measurably with skill: every difference between rungs "
                f"is within ±{bound:.3f} ({every}; {counted}).{out_text}")
    more = (f"about {verdicts.games_to_tell(played, widest, resolution):,} self-play games a rung would tell apart "
            f"{resolution:.2f}" if played else f"to tell apart {resolution:.2f}, play more games per rung")
    return (f"Not enough games to tell whether the first player's edge changes with skill: no two rungs differ "
            f"measurably, but differences up to ±{bound:.3f} could hide in the intervals ({more}) ({every}; "
            f"{counted}).{out_text}")
