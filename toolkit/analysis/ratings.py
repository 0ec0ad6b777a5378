"""Ratings of policies from a tournament (:func:`toolkit.analysis.tournament.compare`).

- **Two seats: Elo.**  The Bradley–Terry model on the Elo scale,
  ``P(A beats B) = 1 / (1 + 10 ** ((R_B - R_A) / 400))``, fitted by maximum
  likelihood to the pooled results of every pairing (both seatings).  A game
  nobody won counts half a win for each side.  One virtual drawn game per
  pairing keeps the ratings finite when a policy wins every game.  The mean
  rating is 1500; ``se`` is the standard error from the Fisher information
  (relative to that mean), and ``ci_low`` / ``ci_high`` the 95% interval.
- **Three to five seats: OpenSkill** (the ``openskill`` package, the
  Plackett–Luce model, Weng & Lin 2011, with ``tau = 0`` because a policy's
  strength does not drift).  The tournament plays a tested policy in one seat
  against a field policy in the others; each game is rated as a free-for-all
  of one player per seat, the winner ranked first and the rest tied second
  (a game nobody won: all tied).  A field policy filling several seats is
  one player: it takes the mean of its seats' updated ``mu`` and ``sigma``.
  The tournament table holds counts, not game records, so its games are fed
  in a fixed pseudo-random order (from the table's seed); games of one
  pairing are exchangeable, so the order carries no information.  A shared
  win that includes the tested policy is rated as its win.  The rating is
  ``mu`` with ``sigma`` as its uncertainty; ``ordinal = mu - 3 sigma`` is the
  conservative estimate OpenSkill ranks by.

Examples
--------
>>> from toolkit.analysis.tournament import compare
>>> t = compare("valhalla", "random,greedy", n_games=400, seed=2, progress=False)
>>> r = ratings(t)
>>> r.index[0]
'greedy'
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from toolkit.analysis import verdicts
from toolkit.core import stats

ELO_SCALE = 400.0
ELO_MEAN = 1500.0


def ratings(table: pd.DataFrame) -> pd.DataFrame:
    """Elo (two seats) or OpenSkill (three or more) ratings of the policies of ``table``, best first."""
    if "tested_policy" in table.columns:
        return openskill_ratings(table)
    return elo(table)


def elo(table: pd.DataFrame, prior_draws: float = 1.0) -> pd.DataFrame:
    """Maximum-likelihood Elo ratings from a two-seat tournament table.

    Returns a frame indexed by ``policy`` with ``elo``, ``se``, ``ci_low``,
    ``ci_high``, ``games`` (rated games, both seatings of every pairing) and
    ``score`` (wins + half the games nobody won, over those games), best first.
    """
    if "seat0_policy" not in table.columns:
        raise ValueError("table is not allowed: a two-seat table of compare()")
    names = list(dict.fromkeys(list(table["seat0_policy"]) + list(table["seat1_policy"])))
    k = len(names)
    index = {n: i for i, n in enumerate(names)}
    score = np.zeros((k, k))  # score[a, b]: a's points against b
    games = np.zeros((k, k))
    for _, row in table.iterrows():
        a, b = index[row["seat0_policy"]], index[row["seat1_policy"]]
        if a == b:
            continue
        n = float(row["games"])
        wa, wb = float(row["wins_0"]), float(row["wins_1"])
        nobody = n - wa - wb
        score[a, b] += wa + nobody / 2
        score[b, a] += wb + nobody / 2
        games[a, b] += n
        games[b, a] += n
    played = games.copy()
    scored = score.copy()
    off = ~np.eye(k, dtype=bool)
    score[off] += prior_draws / 2 * (games[off] > 0)
    games[off] += prior_draws * (games[off] > 0)
    c = np.log(10.0) / ELO_SCALE
    r = np.zeros(k)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-c * (r[:, None] - r[None, :])))
        grad = c * (score - games * p).sum(axis=1)
        w = c * c * games * p * (1 - p)
        info = np.diag(w.sum(axis=1)) - w  # Fisher information (a graph Laplacian)
        step = np.linalg.pinv(info) @ grad
        r += step
        r -= r.mean()
        if np.abs(step).max() < 1e-9:
            break
    p = 1.0 / (1.0 + np.exp(-c * (r[:, None] - r[None, :])))
    w = c * c * games * p * (1 - p)
    cov = np.linalg.pinv(np.diag(w.sum(axis=1)) - w)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    out = pd.DataFrame({"elo": ELO_MEAN + r, "se": se, "ci_low": ELO_MEAN + r - stats.Z95 * se,
                        "ci_high": ELO_MEAN + r + stats.Z95 * se, "games": played.sum(axis=1).astype(int),
                        "score": np.divide(scored.sum(axis=1), played.sum(axis=1),
                                           out=np.full(k, np.nan), where=played.sum(axis=1) > 0)},
                       index=pd.Index(names, name="policy"))
    out = out.sort_values("elo", ascending=False)
    out.attrs.update(table.attrs)
    out.attrs["rating"] = "elo"
    return out


def openskill_ratings(table: pd.DataFrame) -> pd.DataFrame:
    """OpenSkill (Plackett–Luce) ratings from a three-or-more-seat tournament table.

    Returns a frame indexed by ``policy`` with ``mu``, ``sigma``,
    ``ordinal`` (``mu - 3 sigma``), ``ci_low`` / ``ci_high``
    (``mu -/+ 1.96 sigma``) and ``games`` (the games it played in), best
    ``ordinal`` first.
    """
    from openskill.models import PlackettLuce

    if "tested_policy" not in table.columns:
        raise ValueError("table is not allowed: a table of compare() with three or more seats")
    model = PlackettLuce(tau=0.0)
    names = list(dict.fromkeys(list(table["tested_policy"]) + list(table["field_policy"])))
    # what the page prints beside the ratings, which the verdicts are read from (in_words): each tested
    # policy's wins against a field of each other one, pooled over its seats (tournament.matrix's counts)
    counts = {(row["tested_policy"], row["field_policy"]): (int(row["wins"]), int(row["seats"]) * int(row["games"]))
              for _, row in table.iterrows() if row["tested_policy"] != row["field_policy"]}
    mu = {n: model.mu for n in names}
    sigma = {n: model.sigma for n in names}
    played = dict.fromkeys(names, 0)
    games = []  # (tested, field, seats, tested seat, outcome: 1 tested won, 0 a field seat won, -1 nobody)
    for _, row in table.iterrows():
        tested, field, seats, n = row["tested_policy"], row["field_policy"], int(row["seats"]), int(row["games"])
        if tested == field:
            continue
        nobody_total = int(row["no_winner"])
        for seat in range(seats):
            wins = int(row[f"wins_{seat}"])
            nobody = nobody_total // seats + (1 if seat < nobody_total % seats else 0)
            nobody = min(nobody, n - wins)
            games += [(tested, field, seats, seat, 1)] * wins
            games += [(tested, field, seats, seat, -1)] * nobody
            games += [(tested, field, seats, seat, 0)] * (n - wins - nobody)
    order = np.random.default_rng(int(table.attrs.get("seed", 0))).permutation(len(games))
    for i in order:
        tested, field, seats, seat, outcome = games[i]
        teams = [[model.rating(mu=mu[tested if s == seat else field], sigma=sigma[tested if s == seat else field])]
                 for s in range(seats)]
        if outcome == 1:
            ranks = [1 if s == seat else 2 for s in range(seats)]
        elif outcome == 0:
            first_field = 1 if seat == 0 else 0
            ranks = [1 if s == first_field else 2 for s in range(seats)]
        else:
            ranks = [1] * seats
        new = model.rate(teams, ranks=ranks)
        mu[tested], sigma[tested] = new[seat][0].mu, new[seat][0].sigma
        copies = [new[s][0] for s in range(seats) if s != seat]
        mu[field] = float(np.mean([c.mu for c in copies]))
        sigma[field] = float(np.mean([c.sigma for c in copies]))
        played[tested] += 1
        played[field] += 1
    out = pd.DataFrame({"mu": [mu[n] for n in names], "sigma": [sigma[n] for n in names]},
                       index=pd.Index(names, name="policy"))
    out["ordinal"] = out["mu"] - 3 * out["sigma"]
    out["ci_low"] = out["mu"] - stats.Z95 * out["sigma"]
    out["ci_high"] = out["mu"] + stats.Z95 * out["sigma"]
    out["games"] = [played[n] for n in names]
    out = out.sort_values("ordinal", ascending=False)
    out.attrs.update(table.attrs)
    out.attrs["rating"] = "openskill"
    out.attrs["field"] = counts
    out.attrs["seats"] = int(table["seats"].iloc[0])
    return out


def in_words(rated: pd.DataFrame) -> str:
    """The ratings of :func:`ratings` as sentences, each policy against the next one down.

    Two seats: "lookahead is about 260 Elo above greedy (95%: 222 to 298); it wins about 82% of their games",
    or that two cannot be told apart.  The difference's interval takes the two ratings' errors as independent
    (an approximation: they share the tournament); with ``k`` policies the ``k - 1`` intervals hold together
    at 95% (:func:`toolkit.analysis.verdicts.together`), as each is a claim of its own.

    Three or more seats: from the win rates the page prints beside the ratings (:func:`field_words`), not
    from OpenSkill's ``mu``, whose ``sigma`` reflects its prior and update order more than the games (issue
    50: "cannot be told apart: 3.2 mu (95%: -0.4 to 6.8)" beside a 0.495 win rate against a field whose fair
    share is 0.25)."""
    if rated.attrs.get("rating") == "openskill":
        return field_words(rated)
    order = rated.sort_values("elo", ascending=False)
    said = []
    m = max(len(order) - 1, 1)
    z = verdicts.together(m)
    for (a, ra), (b, rb) in zip(order.iterrows(), list(order.iterrows())[1:]):
        diff = float(ra["elo"] - rb["elo"])
        half = z * float(np.hypot(ra["se"], rb["se"]))
        low, high = diff - half, diff + half
        size = f"{diff:.0f} Elo ({verdicts.level(m)}: {low:.0f} to {high:.0f})"
        if verdicts.shown(low, high) > 0:
            wins = 1.0 / (1.0 + 10.0 ** (-diff / ELO_SCALE))
            said.append(f"{a} is about {size} above {b}; it wins about {wins:.0%} of their games")
        else:
            said.append(f"{a} and {b} cannot be told apart: {a} is {size} above")
    return "; ".join(said) + "." if said else ""



def field_words(rated: pd.DataFrame) -> str:
    """Three or more seats: each policy against the next one down the ratings, judged by the tournament's win
    rates: ``a``'s share of wins against a field of ``b`` (every other seat ``b``) and ``b``'s against a field
    of ``a``, each with a Wilson interval, Bonferroni-corrected over the ``2 (k - 1)`` intervals read (95% for
    all together), against the fair share ``1 / seats``.  ``a`` is stronger when its rate against ``b``'s lies
    above the fair share or ``b``'s against ``a``'s below it (and nothing says the reverse); two policies
    cannot be told apart when both intervals hold the fair share.  ``rated`` is :func:`openskill_ratings`'s,
    which keeps the counts (``attrs["field"]``).

    >>> rated = pd.DataFrame({"mu": [27.0, 23.0]}, index=["lookahead", "greedy"])
    >>> rated.attrs.update(rating="openskill", seats=4, field={("lookahead", "greedy"): (99, 200),
    ...                                                        ("greedy", "lookahead"): (24, 200)})
    >>> field_words(rated)
    'lookahead is stronger than greedy: lookahead wins 0.495 [0.417, 0.573] of its games against a field of greedy, greedy wins 0.120 [0.078, 0.181] against a field of lookahead (the fair share 0.25; 95% intervals for the 2 together).'
    """
    field, seats = rated.attrs.get("field"), rated.attrs.get("seats")
    if not field or not seats:
        raise ValueError("rated is not allowed: the ratings of openskill_ratings(table), which keep the table's "
                         "counts the verdicts are read from")
    fair = 1.0 / seats
    order = list(rated.index)
    pairs = [(a, b) for a, b in zip(order, order[1:]) if (a, b) in field and (b, a) in field]
    z = verdicts.together(2 * len(pairs))
    said = []
    rates = {pair: stats.wilson(*counts, z=z) for pair, counts in field.items()}

    def shown(x, y) -> str:
        (r, lo, hi), (r2, lo2, hi2) = rates[(x, y)], rates[(y, x)]
        return (f"{x} wins {r:.3f} [{lo:.3f}, {hi:.3f}] of its games against a field of {y}, {y} wins "
                f"{r2:.3f} [{lo2:.3f}, {hi2:.3f}] against a field of {x}")

    for a, b in pairs:
        ab, ba = rates[(a, b)], rates[(b, a)]
        a_up = verdicts.shown(ab[1], ab[2], fair) > 0 or verdicts.shown(ba[1], ba[2], fair) < 0
        b_up = verdicts.shown(ba[1], ba[2], fair) > 0 or verdicts.shown(ab[1], ab[2], fair) < 0
        if a_up and not b_up:
            said.append(f"{a} is stronger than {b}: {shown(a, b)}")
        elif b_up and not a_up:
            said.append(f"{b} is stronger than {a}: {shown(b, a)}")
        elif a_up and b_up:
            said.append(f"{a} and {b} each do better than the fair share against a field of the other: "
                        f"{shown(a, b)}")
        else:
            said.append(f"{a} and {b} cannot be told apart at these games: {shown(a, b)}")
    if not said:
        return ""
    return "; ".join(said) + f" (the fair share {fair:.3g}; 95% intervals for the {2 * len(pairs)} together)."
