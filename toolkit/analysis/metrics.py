"""Design metrics: is the game fair, does it finish, how much do skill and luck matter?

The names follow Ludii's evaluation metrics where one exists (Browne et al.,
``Evaluation/src/metrics`` in the Ludii repository).  Every metric of
:func:`design_metrics` is computed from a streaming
:class:`~toolkit.core.runner.Summary` (a per-game frame is folded into one
first), so a ``keep="summary"`` run of millions of games reports them in
flat memory.  Each comes with a 95% interval where one is defined.

Outcome
    ``completion``: share of games that ended by the rules (not stopped by
    the simulator's safety cap on length, such as Valhalla's ``max_turns``).  ``drawishness``: share of games that ended by the rules
    without a sole winner (a draw, or a win shared by tied seats).
    ``balance``: 1 − the largest gap between the win rates of two places in
    the turn order (Ludii's *Balance*, 1 = every place wins equally often);
    ``seat_balance``: the same over seat numbers.  ``first_player_win_rate``
    (Ludii's *AdvantageP1*) and ``first_player_advantage`` = that rate − the
    mean win rate of all places (the fair share ``1 / seats`` when every
    game has one winner; less with draws, more with shared wins; its
    interval is the first player's Wilson interval shifted by that mean).
    A shared win counts for each tied seat.
Duration
    ``duration_turns`` and ``duration_plies``: mean turns and plies (the
    game's §6 definitions; ``GameSpec.turn_word`` says what a turn is).
Decisions
    ``decisions``: decision points per game (§5, every seat);
    ``branching_factor``: options per decision point, pooled over all the
    decision points of the run (total options / total decisions; the
    interval is the delta method's).
Lead
    Each game defines a *lead measure* from public information
    (``toolkit/core/lead.py``).  ``lead_changes`` (Ludii's *LeadChange*, the
    "drama"): how often the leader changed, per game.  ``decisiveness_turns``:
    the turn from which the eventual winner led for good, and
    ``decisiveness``: that turn as a share of the game's length, both over
    the games with a sole winner (lower = decided earlier).

Two further measures need runs of their own:

- :func:`skill_gap`: the win rate of a skilled policy (``lookahead``) against
  an unskilled one (``random``), over every seating, minus the fair share.
- :func:`luck`: the same chance streams replayed with the policies swapped
  between seats.  A game whose winning *seat* is the same in every seating
  was decided by the chance stream (luck); one whose winning *policy* is the
  same was decided by play (skill).

Examples
--------
>>> from toolkit.core.runner import simulate
>>> s = simulate("valhalla", n_games=2000, seed=1, keep="summary", progress=False)
>>> m = design_metrics(s)
>>> float(m.loc["completion", "value"])
1.0
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from toolkit.core import stats
from toolkit.core.runner import Summary, get_spec, resolve_rules, simulate

Z95 = stats.Z95

DESCRIPTIONS = {
    "games": "games simulated",
    "completion": "share of games ended by the rules (not stopped by the simulator's safety cap on length)",
    "drawishness": "share of games ended by the rules with no sole winner (draw or shared win)",
    "balance": "1 - largest gap between the win rates of two places in the turn order",
    "seat_balance": "1 - largest gap between the win rates of two seats",
    "first_player_win_rate": "win rate of the seat that moved first",
    "first_player_advantage": "first player's win rate minus the mean win rate of all places",
    "duration_turns": "mean turns per game",
    "duration_plies": "mean plies per game (a ply is one decision point of one seat; a turn holds one or more)",
    "decisions": "mean decision points per game (all seats)",
    "branching_factor": "mean options per decision point (pooled)",
    "lead_changes": "mean lead changes per game (drama)",
    "decisiveness_turns": "mean turn from which the winner led for good (games with a sole winner)",
    "decisiveness": "that turn as a share of the game's turns (lower = decided earlier)",
}


# each metric in a few words, for menus and table rows (DESCRIPTIONS says what it measures)
LABELS = {
    "games": "games",
    "completion": "games ended by the rules",
    "drawishness": "games with no sole winner",
    "balance": "balance of the turn order",
    "seat_balance": "balance of the seats",
    "first_player_win_rate": "first player's win rate",
    "first_player_advantage": "first player's advantage",
    "duration_turns": "length in turns",
    "duration_plies": "length in plies",
    "decisions": "decisions per game",
    "branching_factor": "options per decision",
    "lead_changes": "lead changes per game",
    "decisiveness_turns": "turn the winner led for good",
    "decisiveness": "share of the game before the winner led for good",
    "skill_gap": "skill gap: win rate against random above the fair share",
}


def label(metric: str) -> str:
    """A metric in words: :data:`LABELS`, and ``win_rate_<k>`` as "seat k's win rate"; an unknown name is
    returned as it is (tests/core/test_words.py: every metric a menu offers has its words)."""
    if metric.startswith("win_rate_") and metric[len("win_rate_"):].isdigit():
        return f"seat {metric[len('win_rate_'):]}'s win rate"
    return LABELS.get(metric, metric)


def as_summary(data) -> Summary:
    """A :class:`Summary` from a summary or a per-game result frame (with its ``attrs``)."""
    if isinstance(data, Summary):
        return data
    if not isinstance(data, pd.DataFrame) or "game" not in data.attrs:
        raise ValueError("data is not allowed: a Summary or a result frame of toolkit.simulate (with its attrs)")
    spec = get_spec(data.attrs["game"])
    block = np.zeros((len(data), len(spec.columns)), np.int32)
    for j, c in enumerate(spec.columns):
        if c in data.columns:
            column = data[c]
            # coded columns (result, end_reason) are categoricals in a frame: back to their codes
            block[:, j] = column.cat.codes.to_numpy() if isinstance(column.dtype, pd.CategoricalDtype) \
                else column.to_numpy()
    summary = Summary(spec, data.attrs, [c for c in spec.columns if c in data.columns])
    if len(data):
        summary.add(block)
    return summary


def _row(value, low=np.nan, high=np.nan) -> dict:
    return {"value": float(value), "ci_low": float(low), "ci_high": float(high)}


def _mean_row(n, total, total_sq) -> dict:
    if n == 0:
        return _row(np.nan)
    mean, se = stats.mean_se_from_moments(n, total, total_sq)
    se = 0.0 if not np.isfinite(se) else se
    return _row(mean, mean - Z95 * se, mean + Z95 * se)


def _rate_row(k, n) -> dict:
    if n == 0:
        return _row(np.nan)
    return _row(*stats.wilson(int(k), int(n)))


def _balance(rates) -> float:
    rates = np.asarray(rates, float)
    return float(1.0 - (rates.max() - rates.min())) if rates.size else np.nan


def _code(spec, column, label) -> int | None:
    labels = spec.categories.get(column, ())
    return labels.index(label) if label in labels else None


def design_metrics(data) -> pd.DataFrame:
    """The design metrics of one run (see the module docstring for each definition).

    Parameters
    ----------
    data : Summary or DataFrame
        A ``keep="summary"`` run, or a result frame of ``simulate``.

    Returns
    -------
    DataFrame
        Index ``metric``; columns ``value``, ``ci_low``, ``ci_high`` (NaN
        where no interval is defined) and ``description``.  Metrics that need
        a column the game does not record are left out.  ``attrs`` carries
        the run's provenance.
    """
    s = as_summary(data)
    n = s.n_games
    col = s.columns.index
    rows = {"games": _row(n)}
    aborted_code = _code(s.spec, "result", "aborted")
    aborted = 0
    if aborted_code is not None and "result" in s.histograms:
        h = s.histograms["result"]
        aborted = int(h[aborted_code]) if h.size > aborted_code else 0
    rows["completion"] = _rate_row(n - aborted, n)
    no_sole_winner = int(s.histograms["winner"][0]) if s.histograms["winner"].size else 0
    rows["drawishness"] = _rate_row(no_sole_winner - aborted, n)
    seat_rates = [s.sums[col(f"win_{k}")] / n for k in range(s.seats)] if n else []
    if s.spec.first_mover is not None and n:
        rows["balance"] = _row(_balance(s.position_wins / n))
    rows["seat_balance"] = _row(_balance(seat_rates)) if n else _row(np.nan)
    if s.spec.first_mover is not None and n:
        first = _rate_row(s.position_wins[0], n)
        rows["first_player_win_rate"] = first
        fair = s.position_wins.sum() / (n * s.seats)  # 1 / seats, less the draws, more the shared wins
        rows["first_player_advantage"] = {k: v - fair for k, v in first.items()}
    for name, column in (("duration_turns", "turns"), ("duration_plies", "plies"), ("decisions", "decisions"),
                         ("lead_changes", "lead_changes")):
        if column in s.columns:
            rows[name] = _mean_row(n, s.sums[col(column)], s.sums_sq[col(column)])
    if "options" in s.columns and "decisions" in s.columns and n:
        rows["branching_factor"] = _ratio_row(n, s.sums[col("options")], s.sums_sq[col("options")],
                                              s.sums[col("decisions")], s.sums_sq[col("decisions")],
                                              s.products[0])
    if "decisive_turn" in s.columns:
        games, total, total_sq, share, share_sq = s.decided
        rows["decisiveness_turns"] = _mean_row(int(games), total, total_sq)
        rows["decisiveness"] = _mean_row(int(games), share, share_sq)
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "metric"
    out["description"] = [DESCRIPTIONS[m] for m in out.index]
    out.attrs.update(s.attrs)
    return out


def _ratio_row(n, a_sum, a_sq, b_sum, b_sq, ab_sum) -> dict:
    """Pooled ratio sum(a) / sum(b) with a delta-method 95% interval."""
    if b_sum == 0:
        return _row(np.nan)
    ratio = a_sum / b_sum
    if n < 2:
        return _row(ratio)
    resid_sq = a_sq - 2 * ratio * ab_sum + ratio * ratio * b_sq  # sum of (a - ratio b)^2
    se = np.sqrt(max(resid_sq, 0.0) / (n - 1) / n) / (b_sum / n)
    return _row(ratio, ratio - Z95 * se, ratio + Z95 * se)


def metrics_row(data) -> dict:
    """The metrics of one run flattened to one row: ``name``, ``name_low``, ``name_high``."""
    table = design_metrics(data)
    row = {}
    for name, r in table.iterrows():
        row[name] = r["value"]
        if np.isfinite(r["ci_low"]):
            row[f"{name}_low"] = r["ci_low"]
            row[f"{name}_high"] = r["ci_high"]
    return row


def outcome_row(data) -> dict:
    """:func:`metrics_row` after each seat's win rate, ``win_rate_<seat>`` with ``_low`` / ``_high``: the
    row of one run in a sweep's or a tuning's table."""
    s = as_summary(data)
    row = {}
    for seat, w in s.win_rates().set_index("seat").iterrows():
        row[f"win_rate_{seat}"] = w["win_rate"]
        row[f"win_rate_{seat}_low"] = w["ci_low"]
        row[f"win_rate_{seat}_high"] = w["ci_high"]
    row.update(metrics_row(s))
    row["games"] = int(row["games"])
    return row


def seat_advantage(data) -> pd.DataFrame:
    """Win rates with 95% intervals by seat number and by place in the turn order.

    Returns a frame with columns ``by`` (``seat`` or ``place``), ``index``,
    ``wins``, ``games``, ``win_rate``, ``ci_low``, ``ci_high`` and ``fair``
    (``1 / seats``).  The places need ``spec.first_mover``.
    """
    s = as_summary(data)
    rows = []
    for k in range(s.seats):
        wins = int(round(s.sums[s.columns.index(f"win_{k}")]))
        rows.append(("seat", k, wins))
    if s.spec.first_mover is not None:
        rows += [("place", k, int(w)) for k, w in enumerate(s.position_wins)]
    out = []
    for by, k, wins in rows:
        rate, low, high = stats.wilson(wins, s.n_games)
        out.append({"by": by, "index": k, "wins": wins, "games": s.n_games, "win_rate": float(rate),
                    "ci_low": float(low), "ci_high": float(high), "fair": 1.0 / s.seats})
    return pd.DataFrame(out)


# -- measures that need runs of their own ------------------------------------------------------------


def _seatings(spec, rules, tested, other):
    seats = spec.seats(rules)
    return [tuple(tested if s == seat else other for s in range(seats)) for seat in range(seats)]


def skill_gap(game, rules=None, n_games: int = 2_000, *, seed: int = 0, skilled: str = "lookahead",
              unskilled: str = "random", preset=None, threads=None, progress=None) -> dict:
    """How much skill matters: ``skilled``'s win rate against ``unskilled``, minus the fair share.

    ``skilled`` sits in each seat in turn (``n_games`` games each, the same
    seed: common random numbers) with ``unskilled`` in every other seat.

    Returns
    -------
    dict
        ``skilled``, ``unskilled``, ``seats``, ``games`` (all seatings),
        ``wins``, ``win_rate``, ``ci_low``, ``ci_high``, ``fair`` and
        ``skill_gap`` = ``win_rate - fair`` with ``skill_gap_low`` /
        ``skill_gap_high``.  A gap near 0 means play hardly matters; its top
        is ``1 - fair``.
    """
    spec = get_spec(game)
    rules = resolve_rules(spec, rules, preset)
    wins = games = 0
    for seat, lineup in enumerate(_seatings(spec, rules, skilled, unskilled)):
        summary = simulate(spec, rules, n_games, seed=seed, policies=lineup, keep="summary", threads=threads,
                           progress=progress)
        wins += int(round(summary.sums[summary.columns.index(f"win_{seat}")]))
        games += summary.n_games
    rate, low, high = (float(x) for x in stats.wilson(wins, games))
    fair = 1.0 / spec.seats(rules)
    return {"skilled": skilled, "unskilled": unskilled, "seats": spec.seats(rules), "games": games,
            "wins": wins, "win_rate": rate, "ci_low": low, "ci_high": high, "fair": fair,
            "skill_gap": rate - fair, "skill_gap_low": low - fair, "skill_gap_high": high - fair}


def luck(game, rules=None, n_games: int = 2_000, *, seed: int = 0, policies=("lookahead", "random"),
         preset=None, threads=None, progress=None) -> dict:
    """How much the chance stream decides: replay each game with the policies swapped between seats.

    With ``policies = (A, B)`` the tested policy ``A`` sits in each seat in
    turn (the others play ``B``), every seating on the same seed, so game
    ``g`` sees the same throws, deals and draws in every seating.  Among the
    games with a sole winner in every seating:

    - *chance-decided*: the same seat won in every seating, whoever sat there;
    - *skill-decided*: ``A`` won in every seating (or, with two seats, ``B``
      won in both: the policy, not the seat, decided);
    - the rest were decided by the interplay of both.

    Returns
    -------
    dict
        ``games``, ``decided`` (games with a sole winner in every seating),
        ``luck`` (chance-decided share of ``decided``) and ``skill``
        (skill-decided share), each with ``_low`` / ``_high`` Wilson bounds,
        and the policies.  These are the runs of :func:`skill_gap` too, so its
        ``win_rate``, ``ci_low``, ``ci_high``, ``fair`` and ``skill_gap`` (with
        bounds) are included, equal to what ``skill_gap`` would return.  Equal policies make every game chance-decided
        (``luck`` = 1) only if the policies draw nothing from their seat's
        decision stream.
    """
    spec = get_spec(game)
    rules = resolve_rules(spec, rules, preset)
    tested, other = (policies.split(",") if isinstance(policies, str) else list(policies))
    seatings = _seatings(spec, rules, tested, other)
    winners = []
    tested_wins = 0
    for seat, lineup in enumerate(seatings):
        frame = simulate(spec, rules, n_games, seed=seed, policies=lineup, keep="games", threads=threads,
                         progress=progress)
        winners.append(frame["winner"].to_numpy())
        tested_wins += int(frame[f"win_{seat}"].sum())
    w = np.vstack(winners)  # seating x game: the winning seat
    decided = (w >= 0).all(axis=0)
    same_seat = decided & (w == w[0]).all(axis=0)
    tested_won = decided & (w == np.arange(len(seatings))[:, None]).all(axis=0)
    skill = tested_won
    if len(seatings) == 2:  # two seats: the other policy winning both seatings is also decided by play
        skill = skill | (decided & (w == np.array([[1], [0]])).all(axis=0))
    k = int(decided.sum())
    out = {"policies": f"{tested},{other}", "seats": len(seatings), "games": int(w.shape[1]), "decided": k}
    # the same runs as skill_gap(skilled=tested, unskilled=other): its numbers come for free
    rate, low, high = (float(x) for x in stats.wilson(tested_wins, len(seatings) * int(w.shape[1])))
    fair = 1.0 / len(seatings)
    out.update({"win_rate": rate, "ci_low": low, "ci_high": high, "fair": fair, "skill_gap": rate - fair,
                "skill_gap_low": low - fair, "skill_gap_high": high - fair})
    for name, mask in (("luck", same_seat), ("skill", skill)):
        rate, low, high = stats.wilson(int(mask.sum()), k) if k else (np.nan, np.nan, np.nan)
        out[name], out[f"{name}_low"], out[f"{name}_high"] = float(rate), float(low), float(high)
    return out
