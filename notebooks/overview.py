# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     notebook_metadata_filter: -jupytext.text_representation.jupytext_version
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The games side by side: fair, finished, decided by skill or by luck?
#
# The toolkit simulates every registered game (the table below, from `toolkit.GAMES`; Pig is the small
# tutorial game). Each game has its own notebook; this one puts them next to each other on the same
# yardsticks, the *design metrics* of `toolkit.analysis.metrics`. Their names follow the evaluation metrics
# of the Ludii general game system (Browne et al., `Evaluation/src/metrics`) where one exists:
#
# | metric | Ludii | what it says |
# |---|---|---|
# | `completion` | *Completion* | share of games that ended by the rules, not cut off at `max_turns` (1 = always finishes) |
# | `drawishness` | *Drawishness* | share of games that ended without a sole winner: a draw, or a win shared by tied seats |
# | `balance` | *Balance* | 1 − the largest gap between the win rates of two places in the turn order (1 = every place wins equally often) |
# | `seat_balance` | | the same over seat numbers (a check: most games draw who starts at random) |
# | `first_player_win_rate` | *AdvantageP1* | win rate of the player who moved first |
# | `first_player_advantage` | | that rate minus the mean win rate of all places: the fair share 1 / players when every game has one winner, less with draws, more with shared wins (0 = no advantage) |
# | `duration_turns`, `duration_plies` | *DurationTurns*, *DurationMoves* | mean turns and plies per game, each in the game's own unit (see below) |
# | `decisions` | (*DecisionMoves* counts their share) | decision points per game, all seats |
# | `branching_factor` | *BranchingFactorAvg* | options per decision point, pooled over the run |
# | `lead_changes` | *LeadChange* (the "drama") | how often the leader changed in a game; the leader is the seat strictly ahead on a public measure (Valhalla: fewest pips to travel; the others: the score so far) |
# | `decisiveness` | *DecisivenessTurns* | the turn from which the eventual winner led for good, as a share of the game's length (lower = decided earlier; games with a sole winner) |
# | skill gap | (*SkillTrace* asks the same) | win rate of a skilled policy (`lookahead`) against an unskilled one (`random`), over every seating, minus the fair share |
# | luck | | the same chance streams (throws, deals, draws) replayed with the policies swapped between seats: the share of games won by the same *seat* whoever sat there is decided by chance, the share won by the same *policy* is decided by play |
#
# Every estimate carries a 95% interval: Wilson for shares, the normal interval of a mean for durations and
# counts, the delta method for the branching factor. Balance has none (it is a range of several rates).
#
# Three policies play every game: `random` picks uniformly among the legal options (each spec's reference
# player), `greedy` follows a rule of thumb, and `lookahead` searches: expectimax over the next throw in
# Valhalla and Halali, Monte Carlo over guesses of the hidden cards in Herrlof, Attila and Walhalla, over
# imagined rolls in Pig (each game's `policies.py` says how).
# `lookahead:S` uses `S` guesses; the notebook uses fewer guesses than the default where `lookahead` is slow
# (Herrlof 8 instead of 32, Attila 2 and Walhalla 4 instead of 8), so the "skilled" player of those games is
# a weaker searcher than it could be.
#
# `N` sets the number of games per run (20,000 by default; the test suite runs the notebook with a small `N`). Every other size follows `N`: the runs with
# slower players, the searches' budgets and samples, the games a panel change replays; at the test's `N`
# every cell runs its real code, but its numbers say nothing);
# runs with a lookahead player play fewer games, `N_LOOK` per seating, scaled by how fast each game's
# lookahead is. `TOOLKIT_NOTEBOOK_GAMES` (names, comma-separated) keeps the notebook to some of the games.

# %%
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import toolkit
from toolkit.analysis import metrics, tournament
from toolkit.analysis.ratings import in_words, ratings
from toolkit.analysis.sweep import sweep
from toolkit.viz import plots

N = int(os.environ.get("TOOLKIT_NOTEBOOK_N", "20000"))
SEED = 2024
ONLY = [g for g in os.environ.get("TOOLKIT_NOTEBOOK_GAMES", "").split(",") if g]
if set(ONLY) - set(toolkit.GAMES):
    unknown = ", ".join(sorted(set(ONLY) - set(toolkit.GAMES)))
    raise ValueError(f"TOOLKIT_NOTEBOOK_GAMES={','.join(ONLY)} is not allowed: {unknown} not registered "
                     f"(one of {', '.join(toolkit.GAMES)})")
GAMES = [g for g in toolkit.GAMES if not ONLY or g in ONLY]
# the skilled policy of each game, and games per seating with it (each game declares them: about 1,000
# lookahead games a second against random in Valhalla and Halali, 60-70 with the cheaper settings of the
# card games, on two cores)
LOOKAHEAD = {g: toolkit.GAMES[g].presentation.notebook_lookahead for g in GAMES}
N_LOOK = {g: toolkit.GAMES[g].presentation.lookahead_games(N) for g in GAMES}
TASK_GAMES = max(1, N // 4)  # games per task of a sweep: four tasks per variant, to spread over Dask workers
MCTS_SHARE = N / 20_000  # a tree search's budget scales with N: its own at the default N


def at_size(policy: str) -> str:
    """``policy`` at this notebook's size: ``mcts:B`` with its budget ``B`` scaled by ``MCTS_SHARE``."""
    base, _, budget = policy.partition(":")
    return f"mcts:{max(4, round(int(budget) * MCTS_SHARE))}" if base == "mcts" and budget.isdigit() else policy


print(f"N = {N:,} games per run, seed {SEED}; with a lookahead player: "
      + ", ".join(f"{g} {N_LOOK[g]:,} ({LOOKAHEAD[g]})" for g in GAMES))
pd.DataFrame({"game": [toolkit.GAMES[g].title for g in GAMES],
              "players": [", ".join(map(str, toolkit.GAMES[g].seat_counts())) for g in GAMES],
              "what it is": [toolkit.GAMES[g].description for g in GAMES]})

# %% [markdown]
# ## 1. Every game on the design metrics
#
# Each game plays `N` games of its standard preset (4 players for Attila and Walhalla) twice, once with
# `random` and once with `greedy` in every seat, on one seed. The runs keep only a streaming summary
# (`keep="summary"`): counts, sums and histograms, so memory stays flat however large `N` is, and
# `design_metrics` reads every metric from it. A *turn* means something different in each game (first row of
# the table), so durations compare games only loosely; what a designer compares is the same game under two
# policies or two rule sets.

# %%
def with_interval(row) -> str:
    """``value [low, high]`` with as many decimals as the size of the value calls for."""
    value, low, high = row["value"], row["ci_low"], row["ci_high"]
    if not np.isfinite(value):
        return ""
    digits = 3 if abs(value) < 10 else 1 if abs(value) < 1000 else 0
    if not np.isfinite(low):
        return f"{value:,.0f}" if row.name == "games" else f"{value:.{digits}f}"
    return f"{value:,.{digits}f} [{low:,.{digits}f}, {high:,.{digits}f}]"


design = {}  # (policy, game) -> design_metrics table
for policy in ("random", "greedy"):
    for game in GAMES:
        summary = toolkit.simulate(game, n_games=N, seed=SEED, policies=policy, keep="summary", progress=False)
        design[policy, game] = metrics.design_metrics(summary)

table = pd.DataFrame({key: m.apply(with_interval, axis=1) for key, m in design.items()})
table.columns.names = ["policy", "game"]
turn_words = {(policy, game): toolkit.GAMES[game].turn_word for policy, game in table.columns}
pd.concat([pd.DataFrame(turn_words, index=pd.Index(["a turn is"], name="metric")), table])

# %% [markdown]
# The left plot shows the first-player advantage of each game and policy with its 95% interval: the win
# rate of whoever moved first minus the fair share (1/2 in the 2-player games, 1/4 in Attila and Walhalla,
# adjusted for draws and shared wins).
# The right plot shows the mean game length in turns, each in its game's own unit, on a log scale because
# the games' lengths differ by orders of magnitude (the intervals are mostly narrower than the bar edges at
# the default `N`).

# %%
rows = []
for (policy, game), m in design.items():
    for metric in ("first_player_advantage", "duration_turns", "lead_changes", "decisiveness"):
        rows.append({"game": game, "policy": policy, "label": f"{game} / {policy}", "metric": metric,
                     "value": m.loc[metric, "value"], "ci_low": m.loc[metric, "ci_low"],
                     "ci_high": m.loc[metric, "ci_high"]})
long = pd.DataFrame(rows)
fig, (left, right) = plt.subplots(1, 2, figsize=(15, 4.8))
plots.interval_plot(long[long["metric"] == "first_player_advantage"].sort_values(["policy", "game"]), ax=left,
                    value="value", digits=3, xlabel="first player's win rate minus the fair share (95% CI)",
                    ylabel="game / policy", title="first-player advantage")
plots.means_bar(long[long["metric"] == "duration_turns"], ax=right, x="game", hue="policy", value="value",
                xlabel="", ylabel="mean turns per game (log scale)", title="duration")
right.set_yscale("log")
fig.tight_layout()

# %% [markdown]
# The same for the drama of a game: how often the lead changes, and how late the winner takes the lead for
# good (as a share of the game).

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(15, 4))
for ax, metric, ylabel in ((left, "lead_changes", "lead changes per game"),
                           (right, "decisiveness", "winner leads for good from (share of the game)")):
    plots.means_bar(long[long["metric"] == metric], ax=ax, x="game", hue="policy", value="value", xlabel="",
                    ylabel=ylabel, title=f"{metric} (95% CI)")
fig.tight_layout()

# %%
def metric(policy, game, name):
    return design[policy, game].loc[name]


def interval(row, digits=3, scale=1.0, unit=""):
    return (f"{scale * row['value']:.{digits}f}{unit} ({scale * row['ci_low']:.{digits}f} to "
            f"{scale * row['ci_high']:.{digits}f})")


RUNS = list(design)
incomplete = [f"{g} / {p}" for p, g in RUNS if metric(p, g, "completion")["value"] < 1]
draws = {(p, g): metric(p, g, "drawishness")["value"] for p, g in RUNS}
most_draws = max(draws, key=draws.get)
no_draws = sorted({g for g in GAMES if all(draws[p, g] == 0 for p in ("random", "greedy"))})
clear = [(p, g) for p, g in RUNS if metric(p, g, "first_player_advantage")["ci_low"] > 0
         or metric(p, g, "first_player_advantage")["ci_high"] < 0]
balance = {(p, g): metric(p, g, "balance")["value"] for p, g in RUNS}
lowest = sorted(balance, key=balance.get)[:2]
lines = [
    ("Every game finishes: completion is 1 in all " + f"{len(RUNS)} runs." if not incomplete else
     f"Completion is below 1 in {', '.join(incomplete)}."),
    f"Draws and shared wins: at most {draws[most_draws]:.1%} ({most_draws[1]}, {most_draws[0]})"
    + (f"; none at all in {', '.join(no_draws)}." if no_draws else "."),
    "**First-player advantage** (win rate of whoever moved first minus the fair share, in points): "
    + ("intervals clear of 0 in " + "; ".join(
        f"{g} / {p} {interval(metric(p, g, 'first_player_advantage'), 1, 100)}" for p, g in clear)
       + "; every other interval holds 0." if clear else "every interval holds 0.")
    + " Lowest balance: " + ", ".join(f"{g} / {p} ({balance[p, g]:.2f})" for p, g in lowest) + ".",
    "**Length**, mean turns per game (each game's own turn), random against greedy: " + "; ".join(
        f"{g} {metric('random', g, 'duration_turns')['value']:,.1f} against "
        f"{metric('greedy', g, 'duration_turns')['value']:,.1f}" for g in GAMES) + ".",
    "**Drama**, lead changes per game, random / greedy: " + "; ".join(
        f"{g} {metric('random', g, 'lead_changes')['value']:.1f} / {metric('greedy', g, 'lead_changes')['value']:.1f}"
        for g in GAMES) + ". With greedy players the winner leads for good from this share of the game on: "
    + ", ".join(f"{g} {metric('greedy', g, 'decisiveness')['value']:.0%}"
                for g in sorted(GAMES, key=lambda g: -metric("greedy", g, "decisiveness")["value"]))
    + " (lower = decided earlier).",
]
display(Markdown(f"**Reading the numbers (N = {N:,}, seed {SEED}).**\n\n" + "\n".join(f"- {line}" for line in lines)
                 + f"\n\n*{len(RUNS)} first-player intervals are read at once: if no game had an advantage, at "
                 f"least one would still clear 0 in about {1 - 0.95 ** len(RUNS):.0%} of runs.*"))

# %% [markdown]
# What the policies do to these numbers, by their design: greedy Valhalla players attack whenever they can,
# greedy Attila players avoid starting wars, greedy Herrlof players bid their hand and play to it, and
# greedy Halali players prefer to reveal. Whoever moves first in Halali is always Blue, so its first-player
# advantage is also the colour's.

# %% [markdown]
# ### Skill and luck
#
# `skill_gap` sits the skilled policy in each seat in turn, with `random` in every other seat, and reports
# its win rate over all seatings minus the fair share; the top of the scale is 1 − fair share (0.5 with two
# players, 0.75 with four). `luck` replays the same games (the same chance streams) in every seating and
# sorts the games with a sole winner in every seating: *luck* is the share that the same seat won whoever sat
# there, *skill* the share that the skilled policy won wherever it sat (with two seats also the share that
# the other policy won both times). The rest were decided by the two together.
#
# `luck` plays exactly the runs `skill_gap` would, so one call reports both.
#
# Both are asked for two pairs: the skilled policy against `random` and against `greedy`. The first says how
# far play can take you at all, the second how much a better player gains over a sensible one, which is
# closer to what a table of real players feels. The games with a lookahead player are slow, so these rows
# rest on `N_LOOK` games per seating: their intervals are wide.

# %%
skill_rows = []
for game in GAMES:
    for opponent in ("random", "greedy"):
        skilled = LOOKAHEAD[game]
        # luck's runs are skill_gap's runs (the skilled policy in each seat in turn): one call gives both
        share = metrics.luck(game, n_games=N_LOOK[game], seed=SEED, policies=(skilled, opponent), progress=False)
        skill_rows.append({"game": game, "pair": f"{skilled} vs {opponent}", "label": f"{game}: vs {opponent}",
                           **share, "games": share["games"] * share["seats"]})
skill = pd.DataFrame(skill_rows)
fig, axes = plt.subplots(1, 3, figsize=(19, 4.8))
plots.interval_plot(skill, ax=axes[0], value="skill_gap", low="skill_gap_low", high="skill_gap_high", digits=2,
                    xlabel="skilled win rate minus the fair share (95% CI)", ylabel="game: opponent",
                    title="skill gap")
for ax, name in zip(axes[1:], ("luck", "skill")):
    plots.interval_plot(skill, ax=ax, value=name, low=f"{name}_low", high=f"{name}_high", digits=2,
                        reference=None, xlabel=f"share of decided games ({name}, 95% CI)", ylabel=" ",
                        title=f"decided by {name}")
fig.tight_layout()
skill[["game", "pair", "seats", "games", "win_rate", "ci_low", "ci_high", "fair", "skill_gap", "decided", "luck",
       "luck_low", "luck_high", "skill", "skill_low", "skill_high"]].round(3)

# %%
def skill_line(row):
    text = (f"{row['game']}, {row['pair']}: wins {row['win_rate']:.1%} ({row['ci_low']:.1%} to {row['ci_high']:.1%}) "
            f"of {int(row['games']):,} games against a fair {row['fair']:.2f}, a skill gap of {row['skill_gap']:.2f} "
            f"({row['skill_gap_low']:.2f} to {row['skill_gap_high']:.2f}) out of {1 - row['fair']:.2f}")
    if row["seats"] == 2:
        text += (f"; of the decided games {row['luck']:.0%} went to the same seat in both seatings (luck), "
                 f"{row['skill']:.0%} to the same policy (skill)")
    return f"- {text}."


display(Markdown(f"**Reading the numbers ({', '.join(f'{g} {N_LOOK[g]:,}' for g in GAMES)} games per seating, "
                 f"seed {SEED}).**\n\n"
                 + "\n\n".join(f"*Against `{opponent}`:*\n\n" + "\n".join(
                     skill_line(row) for _, row in skill[skill["pair"].str.endswith(f" vs {opponent}")].iterrows())
                     for opponent in ("random", "greedy"))))

# %% [markdown]
# With four seats *luck* and *skill* are both strict (the same seat, or the skilled policy, must win all four
# seatings of a game), so most 4-player games fall in neither share and the two are not comparable with the
# 2-player ones; the skill gap is.

# %% [markdown]
# ## 2. One rule per game, swept
#
# `sweep` plays every value of a rule on the same seed (so neighbouring values face the same chance
# streams) in summary mode and returns one tidy row per value, with every design metric and its interval.
# All sweeps play `greedy` self-play, `N` games per value. The rule chosen for each game is one a designer
# would want to see the effect of (each game may declare its question: `Presentation.rule_question`), listed
# below.
#
# Each table shows the rule, the games per value and the main metrics (value and 95% interval). The full
# tables (`sweeps[game]`) also hold the win rate of every seat, balance, completion, plies and decisions.

# %%
SWEEPS = {  # game -> (base rules, rule, values, the metric plotted against it): each game's declared question
    g: (dict(q.base) or None, q.rule, list(q.values), q.metric)
    for g, q in ((g, toolkit.GAMES[g].presentation.rule_question) for g in GAMES) if q is not None}


def rule_range(game, rule) -> str:
    """``1..6, default 5`` from the rule's declaration and the standard preset."""
    from toolkit.core.params import params_of

    base = dict(toolkit.GAMES[game].presentation.rule_question.base)
    default = toolkit.rules(game, **base).to_json()[rule]
    return f"{params_of(toolkit.GAMES[game].Rules)[rule].kind.allowed()}, default {default}"


display(Markdown("\n".join(
    f"- **{toolkit.GAMES[g].title} `{q.rule}`** "
    + (f"({', '.join(f'{k}={v}' for k, v in q.base.items())}; " if q.base else "(")
    + f"{rule_range(g, q.rule)}): {q.why}"
    for g, q in ((g, toolkit.GAMES[g].presentation.rule_question) for g in SWEEPS))))
SHOWN = ["first_player_advantage", "drawishness", "duration_turns", "lead_changes", "decisiveness",
         "branching_factor"]


def value_labels(values) -> list[str]:
    return ["none" if v is None else str(v) for v in values]


def sweep_table(table, rule, values) -> pd.DataFrame:
    """The main metrics of a sweep, one row per value of ``rule``, each as ``value [low, high]``."""
    out = pd.DataFrame({rule: value_labels(values), "games": table["games"]})
    for metric in SHOWN:
        out[metric] = table.apply(lambda r: with_interval(pd.Series(
            {"value": r[metric], "ci_low": r[f"{metric}_low"], "ci_high": r[f"{metric}_high"]}, name=metric)),
            axis=1)
    return out.set_index(rule)


sweeps = {}
for game, (base, rule, values, _) in SWEEPS.items():
    sweeps[game] = sweep(game, {rule: values}, n_games=N, seed=SEED, rules=base, policies="greedy",
                         task_games=TASK_GAMES, progress=False)
    display(Markdown(f"**{game}**, greedy self-play, `{rule}` (default "
                     f"{toolkit.rules(game, **(base or {})).to_json()[rule]}):"))
    display(sweep_table(sweeps[game], rule, values))

# %% [markdown]
# The top row plots the metric each rule is about against the rule's value, the bottom row the
# first-player advantage, which every rule change may shift. The bars are 95% intervals; the default value
# is the darker bar.

# %%
if SWEEPS:  # the games that declare a rule question
    fig, axes = plt.subplots(2, len(SWEEPS), figsize=(22, 7.5), squeeze=False)
    for column, (game, (base, rule, values, metric)) in enumerate(SWEEPS.items()):
        default = str(toolkit.rules(game, **(base or {})).to_json()[rule])
        for ax, shown in ((axes[0, column], metric), (axes[1, column], "first_player_advantage")):
            t = sweeps[game]
            bars = pd.DataFrame({"value": value_labels(values), "mean": t[shown], "ci_low": t[f"{shown}_low"],
                                 "ci_high": t[f"{shown}_high"]})
            plots.means_bar(bars, ax=ax, x="value", xlabel=rule, ylabel=shown, title=f"{game}: {shown}")
            for patch, label in zip(ax.patches, bars["value"]):
                patch.set_alpha(1.0 if label == default.lower() else 0.45)
        axes[1, column].axhline(0, color="grey", linestyle="--", linewidth=1)
    fig.tight_layout()

# %%
def metric_text(row, name):
    value, low, high = row[name], row[f"{name}_low"], row[f"{name}_high"]
    if name in ("first_player_advantage", "drawishness", "decisiveness"):
        return f"{100 * value:.1f} ({100 * low:.1f} to {100 * high:.1f})"
    return f"{value:,.2f} ({low:,.2f} to {high:,.2f})" if abs(value) < 100 else f"{value:,.0f}"


def sweep_lines(game):
    base, rule, values, shown = SWEEPS[game]
    t = sweeps[game].assign(label=value_labels(values))
    holds = t[(t["first_player_advantage_low"] <= 0) & (t["first_player_advantage_high"] >= 0)]["label"].tolist()
    clear = [v for v in t["label"] if v not in holds]
    names = [shown] + [m for m in ("duration_turns", "lead_changes", "drawishness") if m != shown]
    return (f"- **{game}**, `{rule}` = " + ", ".join(t["label"]) + ": "
            + "; ".join(f"{name} " + ", ".join(metric_text(r, name) for _, r in t.iterrows()) for name in names)
            + ". First-player advantage (points): " + ", ".join(metric_text(r, "first_player_advantage")
                                                                 for _, r in t.iterrows())
            + ("; its interval holds 0 at every value." if not clear else
               f"; its interval clears 0 at {', '.join(clear)}" + (f" and holds it at {', '.join(holds)}." if holds
                                                                   else ".")))


display(Markdown(f"**Reading the numbers ({N:,} greedy games per value, seed {SEED}).** Shares (drawishness, "
                 "decisiveness, first-player advantage) in percent.\n\n"
                 + "\n".join(sweep_lines(game) for game in SWEEPS)
                 + f"\n\n*{sum(len(v[2]) for v in SWEEPS.values())} first-player intervals are read at once: if no "
                 "value made a difference, some would still clear 0 by chance.*"))

# %% [markdown]
# What each rule is about, by the rules: the value of a throw with no rune up sets the pace of Valhalla's
# race; the exact-bid bonus sets how fast Herrlof's 50 points come and how much one round can swing; Halali's
# end phase is where the last points are taken, after Blue has moved first; Attila's gap rule exists to fix
# the 2-player game (`none` is the rule of 3–5 players); Walhalla's raids are the length of the game; and Pig's
# target is the length of its race.

# %% [markdown]
# ### The same sweep on a Dask cluster
#
# `sweep(..., backend="dask")` sends the same tasks (here `TASK_GAMES` games each, four per value) to the
# workers of a `distributed` cluster instead of running them one after another in this process. Every game
# draws from its own random streams, derived from the seed and the game's number, and the tasks of a value
# are merged in a fixed order, so the table is the same however the tasks were spread. The cell below starts
# a `LocalCluster` of two single-threaded workers, reruns the first game's sweep on it and compares the two
# tables cell by cell. (It needs the `dask` extra; without it the cell says so and does nothing.)

# %%
try:
    import distributed
except ImportError:
    distributed = None

if distributed is None:
    print('distributed is not installed: pip install "toolkit[dask]" to run this cell')
elif not SWEEPS:
    print("no game here declares a rule question: nothing to sweep")
else:
    game = next(iter(SWEEPS))  # the first game with a sweep
    base, rule, values, _ = SWEEPS[game]
    # dashboard_address=":0": any free port (with None it still tries 8787 and warns when that is taken)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        on_dask = sweep(game, {rule: values}, n_games=N, seed=SEED, rules=base, policies="greedy",
                        task_games=TASK_GAMES, backend="dask", client=client, progress=False)
    pd.testing.assert_frame_equal(sweeps[game], on_dask, check_exact=True)
    display(Markdown(f"{toolkit.GAMES[game].title}: the Dask table equals the local one in all {on_dask.size:,} cells "
                     f"({len(on_dask)} values × {on_dask.shape[1]} columns, backend `{on_dask.attrs['backend']}`)."))

# %% [markdown]
# ## 3. Tournaments: which policy is stronger, and by how much?
#
# `compare` plays every ordered pair of `random`, `greedy` and the game's lookahead on one seed, `N_LOOK`
# games per pair (2 players: A in seat 0 against B in seat 1) or per seating (4 players: the tested policy A
# in each seat in turn against a field of three B). `matrix` pools the seatings: the cell in row A, column B
# is A's win rate against B with its 95% interval. With two players the diagonal is 0.5 and a cell and its
# mirror add up to 1 (less the draws); with four a cell says how A fares against a table full of B, and
# the fair share is a quarter plus a little, since a shared win counts for every sharer (the diagonal, A
# against a field of its own kind, shows how much). White is 1 / players, blue better, red worse.

# %%
comparisons = {}
for game in GAMES:  # one figure per game, sized by comparison_matrix so that its numbers stay legible
    comparisons[game] = toolkit.compare(game, ["random", "greedy", LOOKAHEAD[game]], N_LOOK[game], seed=SEED,
                                        progress=False)
    seats = toolkit.GAMES[game].seats(toolkit.rules(game))
    plots.comparison_matrix(tournament.matrix(comparisons[game]), xlabel="opponent (B)", ylabel="policy (A)",
                            centre=1 / seats,  # white at the fair share: 1/2, or 1/4 with four players
                            title=f"{game}, {seats} players: A's win rate (95% CI)\n{N_LOOK[game]:,} games per "
                                  + ("pair and seating" if seats == 2 else "seating"))
    plt.show()

# %% [markdown]
# **Ratings.** `ratings` turns each tournament into one number per policy. With two players it fits Elo
# ratings (Bradley–Terry, mean 1500; 400 points = 10 to 1 odds) by maximum likelihood to all the pairings;
# with four it runs OpenSkill (Plackett–Luce), whose `mu` is the rating, `sigma` its uncertainty and
# `ordinal = mu − 3 sigma` the cautious estimate it ranks by. The scales differ, so the two kinds are shown
# in separate tables, best policy first within each game.

# %%
rated = {game: ratings(comparisons[game]) for game in GAMES}
elo = {g: r for g, r in rated.items() if r.attrs["rating"] == "elo"}
openskill = {g: r for g, r in rated.items() if r.attrs["rating"] == "openskill"}
if elo:
    display(Markdown("**Elo** (two players)"))
    display(pd.concat(elo, names=["game"]).round({"elo": 1, "se": 1, "ci_low": 1, "ci_high": 1, "score": 3}))
if openskill:
    display(Markdown("**OpenSkill** (four players)"))
    display(pd.concat(openskill, names=["game"]).round(2))

# %%
def rating_line(game):
    r = rated[game]
    grid = tournament.matrix(comparisons[game])["win_rate"]
    order = " < ".join(reversed(list(r.index)))
    skilled = LOOKAHEAD[game]
    if r.attrs["rating"] == "elo":
        values = "Elo ± se: " + ", ".join(f"{p} {r.loc[p, 'elo']:,.0f} ± {r.loc[p, 'se']:.0f}" for p in r.index)
    else:
        values = "OpenSkill: " + ", ".join(f"{p} mu {r.loc[p, 'mu']:.1f}, sigma {r.loc[p, 'sigma']:.1f}"
                                          for p in r.index)
    top, second = r.index[0], r.index[1]
    apart = r.loc[top, "ci_low"] > r.loc[second, "ci_high"]
    head = (f"- *{game}*: {order} ({values}); greedy wins {grid.loc['greedy', 'random']:.0%} against random, "
            f"{skilled} {grid.loc[skilled, 'greedy']:.0%} against greedy. ")
    if r.attrs["rating"] != "elo":  # 3+ seats: the verdicts come from the win rates against a field (issue 50)
        return head + in_words(r)
    return head + (f"The intervals of {top} and {second} do not overlap." if apart else
                   f"**{top} and {second} cannot be told apart by their ratings**: the intervals overlap.")


display(Markdown(f"**Reading the numbers (seed {SEED}).** Policies from the weakest to the strongest by their "
                 "rating:\n\n" + "\n".join(rating_line(game) for game in GAMES)))

# %% [markdown]
# ## 4. The strength ladder: does the first player's edge grow as players improve?
#
# A designer's real question is whether a rule is fair *between good players*. `toolkit.analysis.ladder`
# rates a line of policies from weak to strong (one tournament of every pairing: Elo with two players,
# OpenSkill with more) and plays each in every seat (self-play), measuring the design metrics that depend on
# play at each strength: the first player's edge, duration, decisiveness, lead changes, and the skill gap
# (the win rate against random minus the fair share). The rungs are each game's page setting: `random`,
# `greedy`, its lookahead and the tree search `mcts:100` (its budget scaled with `N`: 100 at the default) (Attila and Walhalla leave the lookahead out, whose
# four-player tournaments are slow; `toolkit ladder GAME` plays the full ladder up to `mcts:1000`). Few
# games per pairing here, so the intervals are wide; the sentence under each plot says whether the edge
# moves by more than they allow.

# %%
ladders = {}
for game in GAMES:
    runs = toolkit.GAMES[game].presentation.page_runs
    rungs = tuple(LOOKAHEAD[game] if p == "lookahead" else at_size(p) for p in runs.ladder_policies)
    ladders[game] = toolkit.analysis.ladder(game, policies=rungs, n_games=max(2, min(runs.ladder, N // 500)),
                                            seed=SEED, progress=False)
    axes = plots.ladder_plot(ladders[game])
    axes[0].figure.suptitle(f"{game}: the design metrics by strength ({ladders[game].attrs['n_games']:,} games "
                            "per pairing)")
    plt.show()
display(Markdown("\n".join(f"- *{game}*: {ladders[game].attrs['answer']} "
                             f"{toolkit.analysis.strength.not_played(ladders[game].index, game)}" for game in GAMES)))

# %% [markdown]
# ## 5. Tune toward a target: which rules answer a designer's question?
#
# A designer who sees an unfair rule wants the fix, not only the diagnosis. `toolkit.analysis.tune` (the
# command `toolkit tune`) asks for a target on any design metric (a number, or `max` / `min`; several
# combine as a weighted distance) and searches the rules given to it with Optuna's TPE sampler: every trial
# plays the same seed (common random numbers), so trials differ only by their rules. The best three distinct
# candidates are then played again on a fresh seed with more games, and the nearest of them and the base
# rules on a third, so the answer does not ride on the search's own luck nor on the finalists'. Each game may declare one question (`Presentation.tune_question`); the
# three plots show the search (each trial's distance to the target, the best so far, the finalists ringed),
# how much of the variation each rule explains (Optuna's importance) and the targeted metric under the base
# and the tuned rules with 95% intervals. `N` scales the games per trial and the trials (the questions' own sizes at the
# default `N`), so the answers here are a sketch; `toolkit tune` runs the
# full search from the command line and writes `best.json` with every trial.

# %%
tunings = {}
for game in GAMES:
    q = toolkit.GAMES[game].presentation.tune_question
    if q is None:
        display(Markdown(f"**{toolkit.GAMES[game].title}** declares no tuning question "
                         "(`Presentation.tune_question`)."))
        continue
    trials = max(6, round(q.trials * min(1, N / 20_000)))  # fewer: Optuna cannot rank the rules (it warns)
    tunings[game] = t = toolkit.analysis.tune(
        game, q.targets, q.vary, trials=trials, n_games=max(10, q.n_games * N // 20_000), seed=SEED,
        preset=q.preset, policies=q.policies, skilled=q.skilled, unskilled=q.unskilled, progress=False)
    plots.tuning_figure(t)
    plt.show()
    flags = (([f"--preset {q.preset}"] if q.preset else []) + [f"--policies {t.settings['policies']}"]
             + (t.set_flags() if t.proposed else []))
    display(Markdown(f"**{toolkit.GAMES[game].title}.** {q.question}\n\n"
                     f"*Found* ({t.settings['trials']} trials of {t.settings['n_games']:,} games): {t.answer()} "
                     + ("Reproduce" if t.proposed else "The base rules") + f": `toolkit simulate {game} {' '.join(flags)}`."))

# %% [markdown]
# ## 6. Keep a rule variant: a file every tool reads
#
# A set of rules worth keeping (tuned, or changed by hand) is saved as a small TOML file
# (`toolkit.save_rules`, `docs/variants.md`): the game, a name, the preset it starts from and only the rules
# that differ. Every command reads it with `--rules FILE` (`toolkit report --rules FILE` gives it a designer
# page beside a baseline), the dashboard saves and opens such files, and read back it plays exactly the games
# of the rules that saved it: the same seed gives the same rows.

# %%
import tempfile
from pathlib import Path

variant_rules = toolkit.rules("valhalla", "alternative", zero_runes_value=4)
variant_file = toolkit.save_rules(variant_rules, Path(tempfile.mkdtemp()) / "four-for-zero.toml", "four for zero",
                                  "a throw with no rune up counts 4")
print(variant_file.read_text())
again = toolkit.load_rules(variant_file)
same = toolkit.simulate("valhalla", again, N // 10, seed=SEED, progress=False).equals(
    toolkit.simulate("valhalla", variant_rules, N // 10, seed=SEED, progress=False))
display(Markdown(f"Read back: the same rules ({again == variant_rules}), the same {N // 10:,} games ({same}). "
                 f"At the command line: `toolkit simulate valhalla --rules {variant_file.name}`."))
