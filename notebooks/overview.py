# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Five games side by side: fair, finished, decided by skill or by luck?
#
# The toolkit simulates five games: **Valhalla** (a 2-player race with fate sticks), **Herrlof** (a
# 2-player trick-taking and bidding card game), **Halali** (a 2-player hidden-tile hunting game), **Attila**
# (an area-majority card game, 2–5 players, 4 by default) and **Walhalla** (a Viking raid game, 3–4
# players, 4 by default). Each game has its own notebook; this one puts them next to each other on the same
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
# Valhalla and Halali, Monte Carlo over guesses of the hidden cards in Herrlof, Attila and Walhalla.
# `lookahead:S` uses `S` guesses; the notebook uses fewer guesses than the default where `lookahead` is slow
# (Herrlof 8 instead of 32, Attila 2 and Walhalla 4 instead of 8), so the "skilled" player of those games is
# a weaker searcher than it could be.
#
# `N` sets the number of games per run (20,000 by default; the test suite runs the notebook with a small `N`);
# runs with a lookahead player play fewer games, `N_LOOK` per seating, scaled by how fast each game's
# lookahead is.

# %%
import os

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import TwoSlopeNorm
import pandas as pd
from IPython.display import Markdown, display

import toolkit
from toolkit.analysis import metrics, tournament
from toolkit.analysis.ratings import ratings
from toolkit.analysis.sweep import sweep
from toolkit.viz import plots

N = int(os.environ.get("TOOLKIT_NOTEBOOK_N", "20000"))
SEED = 2024
GAMES = list(toolkit.GAMES)
# the skilled policy of each game, and games per seating with it: about 1,000 lookahead games a second
# against random in Valhalla and Halali, 60-70 with the cheaper settings of the card games (two cores)
LOOKAHEAD = {"valhalla": "lookahead", "herrlof": "lookahead:8", "halali": "lookahead", "attila": "lookahead:2",
             "walhalla": "lookahead:4"}
N_LOOK = {"valhalla": max(50, N // 20), "herrlof": max(10, N // 100), "halali": max(50, N // 20),
          "attila": max(5, N // 200), "walhalla": max(10, N // 100)}
TASK_GAMES = max(500, N // 4)  # games per task of a sweep: four tasks per variant, to spread over Dask workers
print(f"N = {N:,} games per run, seed {SEED}; with a lookahead player: "
      + ", ".join(f"{g} {N_LOOK[g]:,} ({LOOKAHEAD[g]})" for g in GAMES))

# %% [markdown]
# ## 1. All five games on the design metrics
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
# The right plot shows the mean game length in turns (log scale, since a greedy Valhalla game lasts a
# thousand times longer than a Herrlof trick count suggests; the intervals are mostly narrower than the
# bar edges at this `N`).

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

# %% [markdown]
# **Reading the numbers (default run: N = 20,000, seed 2024).** Every game finishes: completion is 1 in all
# ten runs (no game reached `max_turns`). Draws and shared wins are rare: at most 3.6% (Walhalla, greedy),
# none at all in Valhalla.
#
# - **Who moves first matters in Halali only, and there a lot.** Blue, who always moves first, wins 65.0%
#   of random games and 59.4% of greedy ones: an advantage of 15.4 points (14.7 to 16.0) and 9.6 points
#   (8.9 to 10.3), the lowest balance of the five (0.69 and 0.81). Attila's first player has a small edge
#   among greedy players, 6.1 points (5.4 to 6.7) over the fair share (balance 0.92), and 2.3 points with
#   random players. Walhalla's first player gains 0.9 points (0.3 to 1.5) with greedy players. Valhalla and
#   Herrlof show none: every interval holds 0.
# - **Greedy play changes the length of a game in both directions.** Greedy Valhalla players attack
#   whenever they can, so their games last 1,634 throw sequences against 380 for random players, and the
#   lead changes hands 69 times a game. Greedy Attila players avoid starting wars (87 turns against 36);
#   greedy bidders in Herrlof reach 50 points sooner (65.5 tricks against 87.5), and greedy Halali games end
#   sooner (73.5 actions against 100).
# - **Drama.** Apart from Valhalla's race, the lead changes hands less than three times a game (0.5 to
#   0.9 times in Herrlof and Attila, 1.4 to 1.6 in Halali, 1.9 to 2.9 in Walhalla). With greedy players the
#   winner takes the lead for good after 87% of a Valhalla game, 76% of an Attila game and 72% of a
#   Walhalla game, but after about half of a Herrlof or Halali game: those two are decided earliest.

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

# %% [markdown]
# **Reading the numbers (default run).** Against `random`, play decides nearly everything in all five
# games: the skilled policy wins 97% of Valhalla and Halali games, 89% of Herrlof games and 99% to 100% of
# Attila and Walhalla games, and in the 2-player games at most 17% of the decided games (Herrlof) went to
# the same seat in both seatings. Against `greedy` the games differ:
#
# - Valhalla's lookahead wins 72.6% (70.7% to 74.6%), Herrlof's 64.8% (59.9% to 69.3%), Halali's 63.8%
#   (61.7% to 65.9%): skill gaps of 0.23, 0.15 and 0.14 out of 0.5. In Halali 69% of the decided games went
#   to the same seat whoever sat there (its first-player advantage), in Herrlof 51% and in Valhalla 41%:
#   between two sensible players the chance stream, or the seat, decides about half of the games.
# - Attila's cheap lookahead (2 guesses) wins 49.8% (44.9% to 54.6%) against three greedy players, twice the
#   fair share; Walhalla's (4 guesses) wins 32.4% (29.2% to 35.7%), a gap of 7 points (4 to 11).
#
# With four seats *luck* and *skill* are both strict (the same seat, or the skilled policy, must win all four
# seatings of a game), so most 4-player games fall in neither share and the two rows are not comparable with
# the 2-player ones; the skill gap is.

# %% [markdown]
# ## 2. One rule per game, swept
#
# `sweep` plays every value of a rule on the same seed (so neighbouring values face the same chance
# streams) in summary mode and returns one tidy row per value, with every design metric and its interval.
# All sweeps play `greedy` self-play, `N` games per value. The rule chosen for each game is one a designer
# would want to see the effect of:
#
# - **Valhalla `zero_runes_value`** (1..6, default 5): a throw with no rune up is worth 5 in the seed's
#   simplified table, but the runes rules do not say what it is worth ([inf] in the spec). It comes up once
#   in sixteen throws and is the largest throw, so it sets the pace of the race.
# - **Herrlof `exact_bid_bonus`** (0..20, default 10): the bonus for making one's bid exactly is the heart of
#   the bidding game. It decides how fast the 50 points are reached and how much a round can swing.
# - **Halali `end_phase_moves`** (1..12, default 5): the actions each player has after the last tile is
#   revealed, when hunters and lumberjacks may leave by the exits. Blue always moves first, and the end
#   phase is where the last points are taken, so it may even out the first-player advantage.
# - **Attila `two_player_second_place_gap`** (2 players; none, or 0..5, default 2): in the 2-player variant
#   the second place of a tribe scores only within this many spaces of the first. It is the one rule that
#   exists to fix the 2-player game; `none` is the rule of 3–5 players.
# - **Walhalla `raids`** (1..5, default 3): the number of raids is the length of the game. How much of the
#   outcome is fixed in the first raid?
#
# Each table shows the rule, the games per value and the main metrics (value and 95% interval). The full
# tables (`sweeps[game]`) also hold the win rate of every seat, balance, completion, plies and decisions.

# %%
SWEEPS = {  # game -> (base rules, rule, values, the metric plotted against it)
    "valhalla": (None, "zero_runes_value", [1, 2, 3, 4, 5, 6], "duration_turns"),
    "herrlof": (None, "exact_bid_bonus", [0, 5, 10, 15, 20], "lead_changes"),
    "halali": (None, "end_phase_moves", [1, 3, 5, 8, 12], "lead_changes"),
    "attila": ({"num_players": 2}, "two_player_second_place_gap", [None, 0, 1, 2, 3, 5], "drawishness"),
    "walhalla": (None, "raids", [1, 2, 3, 4, 5], "decisiveness"),
}
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
fig, axes = plt.subplots(2, len(SWEEPS), figsize=(22, 7.5))
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

# %% [markdown]
# **Reading the numbers (default run, 20,000 greedy games per value).**
#
# - **Valhalla.** The value of a throw with no rune up sets the length of the race: greedy games last
#   2,294 throw sequences when it is worth 1, 1,634 at the default 5 and 1,364 at 6, and the lead changes
#   less often (82 times a game at 1, 69 at 5, 59 at 6). It does not create a first-player advantage: every
#   interval holds 0.
# - **Herrlof.** The exact-bid bonus sets how fast 50 points are reached: 99 tricks without a bonus, 65.5
#   at 10, 49.5 at 20. A large bonus also makes games less dramatic: fewer lead changes (0.66 at 5, 0.43
#   at 20) and a winner who takes the lead for good later (57.9% of the game at 20 against 51.3% at 10):
#   with a big bonus one round's exact bid can still turn the game late. Draws rise slightly (1.7% to 2.7%).
# - **Halali.** More end-phase actions shrink Blue's first-player advantage steadily, from 12.9 points (12.2
#   to 13.6) with one action to 9.6 at the default 5 and 7.7 (7.0 to 8.4) with twelve, and add lead changes
#   (1.35 to 1.75 a game). A longer end phase helps, but no value tried makes the game fair.
# - **Attila, 2 players.** The gap rule does what it was made for: with a gap of 0 to 2 the first player's
#   edge is 0.5 to 0.7 points (intervals holding 0), with no gap rule (or a gap of 3 or more) it is 2.3 to
#   2.5 points. Shared wins halve with a gap of 0 to 2 (1.4% to 1.7% against 3.0%), and a gap of 1 or 2 gives
#   the most lead changes (0.70 a game against 0.62).
# - **Walhalla.** Every extra raid makes the winner lead later (from 90.5% of a 1-raid game to 61.9% of a
#   5-raid game), adds lead changes (1.2 to 3.7) and cuts the shared wins (10.3% with one raid, 2.4% with
#   five), but it also grows the first player's edge, from none with one raid to 2.0 points (1.3 to 2.6)
#   with five.

# %% [markdown]
# ### The same sweep on a Dask cluster
#
# `sweep(..., backend="dask")` sends the same tasks (here `TASK_GAMES` games each, four per value) to the
# workers of a `distributed` cluster instead of running them one after another in this process. Every game
# draws from its own random streams, derived from the seed and the game's number, and the tasks of a value
# are merged in a fixed order, so the table is the same however the tasks were spread. The cell below starts
# a `LocalCluster` of two single-threaded workers, reruns the Valhalla sweep on it and compares the two tables
# cell by cell. (It needs the `dask` extra; without it the cell says so and does nothing.)

# %%
try:
    import distributed
except ImportError:
    distributed = None

if distributed is None:
    print('distributed is not installed: pip install "toolkit[dask]" to run this cell')
else:
    base, rule, values, _ = SWEEPS["valhalla"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        on_dask = sweep("valhalla", {rule: values}, n_games=N, seed=SEED, rules=base, policies="greedy",
                        task_games=TASK_GAMES, backend="dask", client=client, progress=False)
    pd.testing.assert_frame_equal(sweeps["valhalla"], on_dask, check_exact=True)
    display(Markdown(f"The Dask table equals the local one in all {on_dask.size:,} cells "
                     f"({len(on_dask)} values × {on_dask.shape[1]} columns, backend `{on_dask.attrs['backend']}`)."))

# %% [markdown]
# ## 3. Tournaments: which policy is stronger, and by how much?
#
# `compare` plays every ordered pair of `random`, `greedy` and the game's lookahead on one seed, `N_LOOK`
# games per pair (2 players: A in seat 0 against B in seat 1) or per seating (4 players: the tested policy A
# in each seat in turn against a field of three B). `matrix` pools the seatings: the cell in row A, column B
# is A's win rate against B with its 95% interval. With two players the diagonal is 0.5 and a cell and its
# mirror add up to 1 (less the draws); with four the fair share is 0.25, and a cell says how A fares against
# a table full of B. White is the fair share, blue better, red worse.

# %%
comparisons = {}
fig, axes = plt.subplots(2, 3, figsize=(19, 10))
for ax, game in zip(axes.flat, GAMES):
    comparisons[game] = toolkit.compare(game, ["random", "greedy", LOOKAHEAD[game]], N_LOOK[game], seed=SEED,
                                        progress=False)
    seats = toolkit.GAMES[game].seats(toolkit.rules(game))
    plots.comparison_matrix(tournament.matrix(comparisons[game]), ax=ax, xlabel="opponent (B)",
                            ylabel="policy (A)",
                            title=f"{game}, {seats} players: A's win rate (95% CI)\n{N_LOOK[game]:,} games per "
                                  + ("pair and seating" if seats == 2 else "seating"))
    # comparison_matrix centres its colours on 0.5; with four players white should be the fair share 1/4
    norm = TwoSlopeNorm(vcenter=1 / seats, vmin=0.0, vmax=1.0)
    ax.images[0].set_norm(norm)
    for text in ax.texts:  # and the written values stay legible on the recentred colours
        text.set_color("white" if abs(norm(float(text.get_text().split()[0])) - 0.5) > 0.3 else "black")
axes.flat[-1].axis("off")
fig.tight_layout()

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
display(Markdown("**Elo** (two players)"))
display(pd.concat(elo, names=["game"]).round({"elo": 1, "se": 1, "ci_low": 1, "ci_high": 1, "score": 3}))
display(Markdown("**OpenSkill** (four players)"))
pd.concat(openskill, names=["game"]).round(2)

# %% [markdown]
# **Reading the numbers (default run).** The order is the same in every game: random, then greedy, then
# lookahead, but the steps differ. `greedy` beats `random` in 88% (Herrlof) to 97% (Halali) of 2-player
# games and wins 99% to 100% of 4-player games against a random field, so a rule of thumb is worth a lot
# everywhere. `lookahead` beats `greedy` in 73% of Valhalla games (Elo 1,771 against 1,603) and in 64% to
# 65% of Herrlof and Halali games (about 95 to 100 Elo points). In Attila the 2-guess lookahead wins half
# its games against a greedy field (OpenSkill `mu` 74.3 against 71.2, each ± 1.9); in Walhalla the
# 4-guess lookahead wins 32% against a greedy field, but the OpenSkill ratings of the two (75.4 and 74.9)
# cannot be told apart at this number of games.
#
# *(These paragraphs describe the default run; the tables and plots above always show the run in front of
# you.)*
