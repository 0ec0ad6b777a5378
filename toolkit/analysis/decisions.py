"""Which decisions matter: for each decision kind of a game, how often it is forced, how often trivial, and how
much a good choice gains over a random one (issue 38).

Over ``n_games`` seeded games played by a stated line-up, at every decision point (the spec's §5, kind by
kind):

- **forced**: a single option;
- **trivial** (of the decisions with a choice): every option's estimated win probability for the deciding seat
  within ``epsilon`` of the best's;
- **impact** (of the decisions with a choice): the estimated win probability of the option the judge prefers,
  less the mean over all options, which is what a uniformly random choice gets: what choosing well is worth
  over choosing blindly, in win probability;
- **impact per game**: the sum of those gains over a game's decisions of the kind, averaged over the games: how
  much is at stake in the kind over a whole game (a kind worth +0.005 a decision that comes up 40 times a game
  is no busywork).  It adds gains measured one decision at a time, each with the other choices as the line-up
  made them, so it is the kind's first-order stake, not the win rate of a player who chooses well at all of them
  (a sum of gains, not a probability: it can exceed 1).

The estimates are a tree search's (``judge``, ``mcts:200:0:flat`` by default; :meth:`toolkit.core.protocol.KernelGame.
root_statistics`) whose rollouts are played to the end of the game, so that every estimate is a win
probability: the deciding seat's chance to be among the winners if, after the option, every seat plays as the
rollouts play (the game's ``MCTS_ROLLOUT``), in the worlds the seat can see (cards it cannot see dealt
uniformly: in Attila the real games are won about 0.04 more often than those worlds say, a level shift the
options of one position share).  :mod:`toolkit.analysis.calibration` checks it against played-out games
(``benchmarks/notes/calibration.md``: within the intervals in every bin of every game, in those worlds).  The ``mcts`` players of
Valhalla, Attila and Halali cut their rollouts off and score the position with a heuristic, which is not a
win probability (``benchmarks/calibration.py``: Halali's leaves that say "won" are won 0.80 of the time), so a
judge cut off (``mcts:N:D``, D > 0, or a bare ``mcts:N`` in those games) is refused: the thresholds and
every sentence here are in win probability (issue 50).  The judge is run twice at each decision, on independent streams: the first search
picks the best option (its ties broken uniformly at random, :func:`_fair_pick`), the second rates the options.  Rating with the search that picked would add the
maximum of the noise to every gap (the best of several noisy estimates is biased upward); with two searches
the impact is an unbiased estimate of what the first search's pick gains, so no gap is made of noise alone.
It is a lower bound on what the best option gains (the judge can miss it), and a decision is called
trivial by estimates that have their own noise: with ``mcts:200:0:flat`` and many options each option has few
visits, so fewer decisions look trivial than are.

Judging every decision costs two searches each (Valhalla's games hold about 230 decisions, Herrlof's
about 180), so the judge rates a sample: in each game, up to ``per_kind`` decisions of each kind with a
choice, drawn uniformly from that game's decisions of the kind (from a stream of its own, seeded by the
seed and the game), each standing for ``m / k`` of them (``m`` the game's decisions of the kind, ``k`` those
judged).  The sums over a game are then unbiased, every kind is judged wherever it occurs however rare, and
the sampling's noise is in the intervals.  ``forced`` is counted over every decision.

Decisions of one game are not independent, so every 95% interval is counted over games (a ratio
estimator, the games as clusters), not over decisions, with Student's t quantile for the number of games
(the gains are skewed: most near 0, a few large, so a small sample's interval is too narrow; measured on
Valhalla's moves, 20 games' upper bounds fell below the 3,000-game estimate 3 times in 20 seeds).  A share's
interval (forced, trivial) is kept within [0, 1] and never narrower than the Wilson interval of the pooled
count: where no game (or every game) has a forced decision, the games' residuals are all 0 and the ratio
estimator's interval has no width.  The Wilson floor treats the decisions as independent, which they are not,
so it is a floor only (a share of 0 in 14,000 decisions gets an upper bound of 0.03%), not an interval over
games.  A kind that came up with a choice in fewer than :data:`MIN_GAMES` games is
shown with its numbers but :func:`answer` says nothing about it beyond how rare it was: a ratio estimator
over a handful of clusters states intervals it cannot support.  The games are the line-up's ``simulate`` games: game
``g`` here is row ``g`` of ``simulate(game, rules, n, seed=seed, policies=policies)``; the judge draws from
its own streams, never the game's.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

from toolkit.analysis import verdicts
from toolkit.core import jobs, mcts, rng
from toolkit.core.protocol import KernelGame
from toolkit.core.rng import Stream
from toolkit.core.runner import get_spec, resolve_rules
from toolkit.core.stats import wilson

JUDGE = "mcts:200:0:flat"  # flat, rollouts played to the end: win probabilities (module docstring)
EPSILON = 0.02  # win probability: options this close to the best are as good as it
PER_KIND = 2  # decisions of each kind judged per game (issue 38's target: 1,000 games in 2 minutes)
SALT = np.uint64(0x5DEECE66D2545F49)  # the second search's stream: the first's mixed with this


def _judge(game: KernelGame, judge: str, epsilon: float) -> tuple[bool, float]:
    """``(trivial, impact)`` at ``game``'s decision point (more than one option).  Where the rating search
    never played the first search's pick (more options than it had iterations for), the pick is searched on
    its own (:func:`_rated_after`): rating it at the rater's best option, as before issue 50, added the
    maximum of the noise back."""
    first = game.root_statistics(judge)
    rater = rater_of(game)
    pick = _fair_pick(first, rater.rs[1 + game.seat])
    mean = rater.root_statistics(judge).estimates()[0]
    rated = mean[~np.isnan(mean)]
    if np.isnan(mean[pick]):
        gain = _rated_after(rater, first.codes[pick], judge, game.seat)
        spread = np.append(rated, gain)  # the pick's value counts toward "trivial" too
    else:
        gain, spread = mean[pick], rated
    return bool(np.max(spread) - np.min(spread) <= epsilon), float(gain - np.mean(rated))


TIE = np.uint64(0x94D049BB133111EB)  # the stream that breaks the first search's ties: the rater's mixed with this


def _fair_pick(first, state) -> int:
    """The first search's pick with its ties broken uniformly at random (from ``state``, a stream word of
    the rater's, mixed with :data:`TIE`), not to the first option in canonical order as the search itself
    breaks them.  A flat search picks the best mean, and with few visits an option's mean is a handful of
    0s and 1s, so ties are common (with fewer iterations than options, every option played once, and none
    won: all tie); the first option then stood for "choosing well", and where the first options of a kind
    are poor ones the gain came out below zero (Walhalla's board decision at ``mcts:8:0:flat``: -0.52 at
    most over a game, measured over 400 games, said as a gain).  Broken uniformly, the pick among equals is
    a random choice among them, so a tie adds nothing to the gain and takes nothing from it.  A search that
    picks by visits (not swept) has its ties in visits broken the same way."""
    visits = np.asarray(first.visits, float)
    played = visits > 0
    swept = np.all(visits[played] == visits[played][0])  # every option played equally often: picked by mean
    key = np.where(played, np.asarray(first.wins, float) / np.where(played, visits, 1.0), -1.0) if swept else visits
    tied = np.flatnonzero(key == key[first.choice])
    if tied.size == 1:
        return int(first.choice)
    draw = rng.mix64_nb(np.uint64(state) ^ TIE)
    return int(tied[int(draw % np.uint64(tied.size))])


def rater_of(game: KernelGame) -> KernelGame:
    """A copy of ``game`` whose deciding seat's stream is mixed with :data:`SALT`: its search is independent of
    the one ``game`` itself would run (the rating search of :func:`_judge`)."""
    rater = game.copy()
    k = 1 + game.seat
    rater.rs[k] = rng.mix64_nb(np.uint64(rater.rs[k]) ^ SALT)
    return rater


SALT_AFTER = np.uint64(0x2545F4914F6CDD1D)  # the streams of a search after the pick: the rater's mixed with this


def _rated_after(rater: KernelGame, code: int, judge: str, seat: int) -> float:
    """``seat``'s estimated win probability after playing ``code`` here, searched from the position after it:
    in a world ``seat`` knows (a determinization from its stream), with every stream of the rater's mixed
    anew (chance drawn as the search draws it, never the game's own), the judge's search at the next
    decision, read for ``seat`` over all its iterations: the value of the node after the pick, as the rater
    values the options it played (the game's result for ``seat`` where the pick ends it)."""
    after = rater.copy()
    after.st[:] = after.determinize(seat)
    for k in range(after.rs.size):
        after.rs[k] = rng.mix64_nb(np.uint64(after.rs[k]) ^ SALT_AFTER)
    after.apply(code)
    if after.advance() < 0:
        return float(after.returns()[seat])
    found = after.root_statistics(judge)
    visits = sum(found.visits)
    return float(sum(every[seat] for every in found.every_seat) / visits)


def check_judge(spec, judge: str) -> None:
    """Refuse a ``judge`` that is not a tree search, or one whose rollouts are cut off in ``spec``'s game (its
    values are heuristic scores, and the decisions are judged in win probability: module docstring)."""
    if mcts.parse(judge) is None:
        raise ValueError(f"judge={judge!r} is not allowed: a tree search, {mcts.ALLOWED}")
    depth = mcts.depth_of(spec.kernel, judge)
    if depth:
        raise ValueError(f"judge={judge!r} is not allowed: in {spec.title} its rollouts are cut off after {depth} plies "
                         f"and scored by the game's heuristic, a score, not a win probability; the decisions are "
                         f"judged in win probability: play them to the end (mcts:N:0, for example {JUDGE})")


SAMPLE_STREAM = 0x7A4D  # the stream index of a game's sample of decisions to judge (the game's own are 0, 1 + seat)


def _play(spec, rules, policies, seed: int, game_index: int, judge: str, epsilon: float,
          per_kind: int, check=None) -> dict:
    """One game's tallies by decision kind: ``kind -> [decisions, forced, with a choice, trivial, impact,
    judged]``, trivial and impact the weighted sums over the judged sample (module docstring), judged its size.
    ``check`` (a job's, or None) is called at every decision of the game and before every judged one: a
    cancel stops a game between two searches, not at its end (a game's searches to the end can take seconds;
    CI's browser test saw a cancel wait over 2 s with checks before the judged decisions alone)."""
    game = KernelGame(spec.kernel, rules, policies, seed, game_index)
    tally, choices = {}, {}  # choices: kind -> the game at each of its decisions with a choice
    while game.advance() >= 0:
        if check is not None:  # a game with a searching seat plays for seconds before its first judged decision
            check()
        options, kind = game.options(), game.kind()
        counts = tally.setdefault(kind, [0, 0, 0, 0.0, 0.0, 0])
        counts[0] += 1
        if len(options) == 1:
            counts[1] += 1
        else:
            counts[2] += 1
            choices.setdefault(kind, []).append(game.copy())
        game.apply(options[game.choose()])
    sample = Stream(seed, game_index, SAMPLE_STREAM)
    for kind, games in choices.items():
        judged = sample.shuffle(list(range(len(games))))[:per_kind]
        weight = len(games) / len(judged)
        tally[kind][5] = len(judged)
        for i in judged:
            if check is not None:
                check()
            trivial, impact = _judge(games[i], judge, epsilon)
            tally[kind][3] += weight * trivial
            tally[kind][4] += weight * impact
    return tally


def _ratio(numerators: np.ndarray, denominators: np.ndarray) -> tuple[float, float, float]:
    """``sum(numerators) / sum(denominators)`` with a 95% interval counted over the games (clusters): the
    ratio estimator's standard error from the per-game residuals ``numerator - ratio * denominator``, over the
    games where the denominator is not 0 (a game without the kind adds nothing to the spread, so it adds no
    degree of freedom either)."""
    total = denominators.sum()
    if total == 0:
        return float("nan"), float("nan"), float("nan")
    ratio = numerators.sum() / total
    k = int(np.count_nonzero(denominators))
    residual = numerators - ratio * denominators
    se = np.sqrt(k / (k - 1) * np.sum(residual ** 2)) / total if k > 1 else float("inf")
    return float(ratio), float(ratio - t95(k) * se), float(ratio + t95(k) * se)


def t_quantile(n: int, m: int = 1) -> float:
    """The two-sided 95% quantile of Student's t with ``n - 1`` degrees of freedom (``n`` games), corrected
    for ``m`` intervals at once (Bonferroni: each at 1 - 0.05 / m)."""
    from scipy.stats import t

    return float(t.ppf(1 - 0.025 / m, n - 1)) if n > 1 else float("inf")


def t95(n: int) -> float:
    """The two-sided 95% quantile of Student's t with ``n - 1`` degrees of freedom (``n`` games): wider than
    the normal's 1.96 where there are few games (2.09 at 20, 2.01 at 50)."""
    return t_quantile(n)


def _mean(values: np.ndarray) -> tuple[float, float, float]:
    """The mean over games of ``values`` (one per game) with its 95% t interval."""
    n = len(values)
    mean = float(values.mean())
    half = t95(n) * float(values.std(ddof=1)) / np.sqrt(n) if n > 1 else float("inf")
    return mean, mean - half, mean + half


def _share(numerators: np.ndarray, denominators: np.ndarray, trials: float) -> tuple[float, float, float]:
    """A share with its 95% interval: the games' ratio estimator (:func:`_ratio`), widened to the Wilson
    interval of ``share * trials`` successes in ``trials`` (the decisions it was counted on) where that is
    wider, within [0, 1] (module docstring)."""
    share, low, high = _ratio(numerators, denominators)
    if not np.isfinite(share):
        return share, low, high
    _, w_low, w_high = wilson(share * trials, trials)
    return share, max(0.0, min(low, w_low)), min(1.0, max(high, w_high))


def decisions(game: str, rules=None, n_games: int = 1000, seed: int = 0, policies=None, judge: str = JUDGE,
              epsilon: float = EPSILON, per_kind: int = PER_KIND, threads: int | None = None,
              progress: bool | None = None) -> pd.DataFrame:
    """The decision metrics of ``game``'s decision kinds (module docstring): one row per kind, in the spec's
    DP order, with ``decisions`` and ``with_choice`` (per game), ``games`` (the games in which it came up with a
    choice), ``judged`` (the decisions the judge rated), and ``forced``, ``trivial``, ``impact`` and
    ``game_impact`` with each one's 95% interval (``forced`` a share of the kind's decisions; ``trivial`` and
    ``impact`` over those with a choice; ``game_impact`` the impact summed over a game's decisions of the kind).

    Parameters
    ----------
    game : str
        A registered game's name.
    rules : Rules, optional
        The game's rules (default: its standard preset).
    n_games : int
        Seeded games played by ``policies`` (default: the game's default line-up).
    judge : str
        The tree search that rates the options, ``mcts:N:0[:flat]`` (rollouts played to the end; a search cut off
        rates in score, not win probability, and is refused).
    epsilon : float
        Options within this of the best (win probability) are as good as it.
    per_kind : int
        Decisions of each kind judged per game, at most (a seeded sample; module docstring).
    threads : int, optional
        Python threads playing games at once (the searches run without the GIL); default: the cores.
    progress : bool or None
        A progress bar (None: once the run has taken a second; False: never).

    Under a job (:mod:`toolkit.core.jobs`, the dashboard's "which decisions matter?") each game judged is a
    game done of the ``n_games`` planned, and a cancel stops the judging after the games under way.

    Examples
    --------
    >>> from toolkit.analysis.decisions import decisions
    >>> table = decisions("pig", n_games=20, seed=1, progress=False)
    >>> table.index.tolist(), bool((table["forced"] == 0).all())
    (['roll or hold'], True)
    """
    spec = get_spec(game)
    rules = resolve_rules(spec, rules)
    policies = spec.check_policies(spec.default_policies(rules) if policies is None else policies, rules)
    check_judge(spec, judge)
    if not 0.0 <= epsilon < 1.0:
        raise ValueError(f"epsilon={epsilon!r} is not allowed: a win probability in [0, 1)")
    if per_kind < 1:
        raise ValueError(f"per_kind={per_kind!r} is not allowed: at least 1 decision of a kind judged per game")
    if n_games < 2:
        raise ValueError(f"n_games={n_games!r} is not allowed: at least 2 (the intervals are counted over games)")
    names = spec.view_module().DECISIONS
    threads = threads or os.cpu_count() or 1
    bar = None
    if progress is not False:  # None: the bar shows once the run has taken a second (tqdm's delay)
        from tqdm.auto import tqdm

        bar = tqdm(total=n_games, desc=f"{spec.title}: judging decisions with {judge}", unit="game", delay=1.0)

    job, counted = jobs.current(), threading.Lock()  # the pool's threads do not see the caller's job: passed here

    def one(g):
        check = None if job is None else job.check  # cancelled: the games not yet begun stop, and those under
        if check is not None:  # way stop at their next judged decision
            check()
        result = _play(spec, rules, policies, seed, g, judge, epsilon, per_kind, check)
        if bar is not None:
            bar.update(1)
        if job is not None:
            with counted:
                job.advance(1)
        return result

    pool = ThreadPoolExecutor(max(1, threads))
    try:
        with jobs.planned(n_games, unit="games judged"):
            games = list(pool.map(one, range(n_games)))
    finally:
        pool.shutdown(cancel_futures=True)  # after a cancel, the games queued behind it are dropped unplayed
    if bar is not None:
        bar.close()
    kinds = sorted(names)
    # kind, [decisions, forced, with a choice, trivial, impact, judged], game
    totals = np.zeros((len(kinds), 6, n_games))
    for g, tally in enumerate(games):
        for kind, counts in tally.items():
            totals[kinds.index(kind), :, g] = counts
    count, forced, unforced, trivial, impact, judged = (totals[:, j] for j in range(6))
    rows = []
    for i, kind in enumerate(kinds):
        f, f_low, f_high = _share(forced[i], count[i], count[i].sum())
        t, t_low, t_high = _share(trivial[i], unforced[i], judged[i].sum())
        m, m_low, m_high = _ratio(impact[i], unforced[i])
        g, g_low, g_high = _mean(impact[i]) if unforced[i].sum() else (float("nan"),) * 3
        rows.append({"kind": names[kind], "dp": kind, "decisions": count[i].sum() / n_games,
                     "with_choice": unforced[i].sum() / n_games, "games": int(np.count_nonzero(unforced[i])),
                     "judged": int(judged[i].sum()),
                     "forced": f, "forced_low": f_low, "forced_high": f_high,
                     "trivial": t, "trivial_low": t_low, "trivial_high": t_high,
                     "impact": m, "impact_low": m_low, "impact_high": m_high,
                     "game_impact": g, "game_impact_low": g_low, "game_impact_high": g_high})
    table = pd.DataFrame(rows).set_index("kind")
    table.attrs["forced_all"] = _share(forced.sum(axis=0), count.sum(axis=0), count.sum())
    table.attrs.update(game=spec.name, title=spec.title, rules=rules.to_json(), policies=",".join(policies), seed=seed, n_games=n_games,
                       judge=judge, epsilon=epsilon, per_kind=per_kind)
    return table


MEANINGLESS = 0.01  # win probability: a kind whose gains over a whole game are surely below this is busywork
MIN_GAMES = 50  # a kind that came up with a choice in fewer games is too rare for answer() to judge


def _a(words: str) -> str:
    """``words`` with its indefinite article: "a move", "an action"."""
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _percent(value: float, low: float, high: float, whole: bool = True) -> tuple[str, str, str]:
    """A share and its interval as percentages, with the decimals that show the upper bound (a whole percent
    from 10% where ``whole``, a tenth from 0.1%, else a hundredth): a small share is not rounded to
    "0% [0%, 0%]"."""
    form = ".0%" if whole and high >= 0.1 else ".1%" if high >= 0.001 else ".2%"
    return f"{value:{form}}", f"{low:{form}}", f"{high:{form}}"


def _games(need: float) -> str:
    return f"about {int(np.ceil(need / 100) * 100):,}"


def answer(table: pd.DataFrame) -> str:
    """The table of :func:`decisions` in sentences that claim only what its intervals support:

    - how often a decision is forced;
    - which kind matters most, by its impact a decision: only where its interval, corrected for the kinds
      compared (Bonferroni, Student's t), clears every other kind's; else which kinds it cannot be told
      from, and about how many games would tell;
    - a kind whose gains summed over a game are surely below zero: the judge's picks lose to random ones, so
      the judge is too weak to rate it (a gain below zero is not a decision that could be cut);
    - a kind whose gains summed over a game (``game_impact``) are surely below :data:`MEANINGLESS`, by the
      upper bound corrected for the kinds judged: a designer could cut it (a small gain a decision that
      comes up often is no busywork); a kind small by the estimate but not shown small "may be busywork",
      with about how many games would show it;
    - a kind whose every decision had a single option, and the kinds too rare to judge (with a choice in
      fewer than :data:`MIN_GAMES` games), of which nothing else is claimed.
    """
    title, n = table.attrs.get("title", table.attrs.get("game", "the game")), table.attrs.get("n_games", 0)
    judge = table.attrs.get("judge", JUDGE)
    parts = []
    forced = table.attrs.get("forced_all", (float("nan"),) * 3)
    if np.isfinite(forced[0]):
        f, low, high = _percent(*forced)
        parts.append(f"In {title}, over {n:,} games, {f} of decisions are forced [95% CI {low}, {high}].")
    came = table[table["with_choice"] > 0].dropna(subset=["impact"])
    games = came["games"] if "games" in came else pd.Series(n, index=came.index)
    rated, rare = came[games >= MIN_GAMES], came[games < MIN_GAMES]
    m = len(rated)
    of_judged = " of the kinds judged" if len(rare) else ""
    named = set()  # the kind said to matter most
    if m == 1:
        r = rated.iloc[0]
        parts.append(f"Choosing well at {_a(rated.index[0])} decision gains {r['impact']:+.3f} win probability over "
                     f"a random choice [{r['impact_low']:+.3f}, {r['impact_high']:+.3f}] ({judge} judging).")
    elif m > 1:
        impact = rated["impact"]
        widen = pd.Series({k: t_quantile(int(games[k]), m) / t95(int(games[k])) for k in rated.index})
        half = (rated["impact_high"] - rated["impact_low"]) / 2 * widen  # the intervals corrected for m kinds
        order = impact.sort_values(ascending=False).index
        top = order[0]
        r = rated.loc[top]
        blockers = [k for k in order[1:] if impact[k] + half[k] >= impact[top] - half[top]]
        if not blockers:
            named.add(top)
            parts.append(f"The choice at {_a(top)} decision matters most{of_judged}: {r['impact']:+.3f} win probability "
                         f"over a random choice [{r['impact_low']:+.3f}, {r['impact_high']:+.3f}] ({judge} judging).")
        else:
            need = max(verdicts.games_to_tell(n, half[top] + half[k], impact[top] - impact[k])
                       if impact[top] > impact[k] else float("inf") for k in blockers)
            more = (f"{_games(need)} games would tell" if np.isfinite(need) else
                    "more games would not tell them apart if they are equal")
            others = ", ".join(f"{k} ({impact[k]:+.3f})" for k in blockers)
            parts.append(f"The {top} decision has the largest estimated impact{of_judged} ({r['impact']:+.3f} "
                         f"[{r['impact_low']:+.3f}, {r['impact_high']:+.3f}]), but {n:,} games are not enough to tell "
                         f"it from {others}; {more}.")
    if m and "game_impact" in rated:
        g = rated["game_impact"]
        upper = g + (rated["game_impact_high"] - g) * (t_quantile(n, m) / t95(n))
        corrected = f", corrected for the {m} kinds judged" if m > 1 else ""
        for kind in rated.index:
            if upper[kind] < 0:  # the judge's picks lose to random choices: its ratings, not the decision, fail
                parts.append(f"At the {kind} decision the {judge} judge's picks do worse than random choices: "
                             f"{g[kind]:+.3f} summed over a game, at most {upper[kind]:+.3f} (95% upper bound"
                             f"{corrected}); a judge this weak cannot rate it: judge with more iterations.")
            elif upper[kind] < MEANINGLESS:  # a one-sided equivalence: the whole interval below MEANINGLESS
                parts.append(f"Choosing well at every {kind} decision of a game gains at most {upper[kind]:+.3f} win "
                             f"probability over random choices, in all ({judge} judging; 95% upper bound{corrected}): "
                             f"a designer could cut it or make it automatic, unless a stronger player finds more in it.")
            elif g[kind] < MEANINGLESS / 2 and kind not in named:  # small by the estimate, not shown small
                need = verdicts.games_to_tell(n, upper[kind] - g[kind], MEANINGLESS - g[kind])
                parts.append(f"The {kind} decision may be busywork: its gains summed over a game are estimated at "
                             f"{g[kind]:+.3f}, at most {upper[kind]:+.3f} (95% upper bound{corrected}); {n:,} games "
                             f"cannot show they are below {MEANINGLESS}, {_games(need)} would if the estimate holds.")
    for kind, r in table.iterrows():
        if r["decisions"] > 0 and r["with_choice"] == 0:
            parts.append(f"Every {kind} decision in these games had a single option: it asks the player nothing.")
    for kind, r in rare.iterrows():
        parts.append((f"{n:,} games are too few to judge the {kind} decision" if int(r["games"]) == n else
                      f"{_capital(_a(kind))} decision with a choice came up in only {int(r['games'])} of {n:,} "
                      f"games, too few to judge") + f" (judging takes {MIN_GAMES} games with a choice).")
    never = table[table["decisions"] == 0].index.tolist()
    if never:
        parts.append(f"No {', '.join(never)} decision came up in these games (rules and line-up as run).")
    return " ".join(parts)


def shown(table: pd.DataFrame, missing: str = "–") -> pd.DataFrame:
    """The table of :func:`decisions` as people read it: one row per kind, each value with its 95% interval in
    one cell (shares as percentages, the impact in win probability), ``missing`` where a kind had no decision
    to count it on."""
    epsilon = table.attrs.get("epsilon", EPSILON)
    out = pd.DataFrame(index=table.index.rename("decision"))
    out["decision point (rules §5)"] = table["dp"].map(lambda v: f"DP{int(v)}")  # as the rules docs tag it
    out["per game"] = table["decisions"].map(lambda v: f"{v:.1f}")
    if "games" in table:
        out["games with a choice"] = table["games"].map(lambda v: f"{int(v):,}")
    for column, label in (("forced", "forced [95% CI]"), ("trivial", f"trivial (within {epsilon}) [95% CI]"),
                          ("impact", "impact: best - random [95% CI]"), ("game_impact", "summed over a game [95% CI]")):
        cells = []
        for _, r in table.iterrows():
            value, low, high = (r.get(column + suffix, float("nan")) for suffix in ("", "_low", "_high"))
            if not np.isfinite(value):
                cells.append(missing)
            elif column in ("forced", "trivial"):
                v, lo, hi = _percent(value, low, high, whole=False)
                cells.append(f"{v} [{lo}, {hi}]")
            else:
                cells.append(f"{value:+.3f} [{low:+.3f}, {high:+.3f}]")
        out[label] = cells
    return out
