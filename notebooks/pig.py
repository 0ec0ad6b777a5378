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
# # Pig: press your luck, and is moving first fair?
#
# **Pig** is the toolkit's tutorial game (spec: `docs/rules/pig.md`): two players, one die. On your turn you
# roll as often as you like, adding each face to the turn's total; a 1 loses the whole turn's total, and
# holding banks it. The first to bank 100 wins. It is the smallest game with everything a game has, and
# `docs/adding-a-game.md` walks through its files.
#
# Everything below calls the `toolkit` package; no rule is written in this notebook. `N` sets the number
# of simulated games (100,000 by default; the test suite runs the notebook with a small `N`). Every other size follows `N`: the runs with
# slower players, the searches' budgets and samples, the games a panel change replays; at the test's `N`
# every cell runs its real code, but its numbers say nothing).

# %%
import os

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

import toolkit
from toolkit.analysis import tournament
from toolkit.games.pig import odds
from toolkit.viz import plots
from toolkit.viz.prose import edge
from toolkit.viz.widgets import rules_panel

N = int(os.environ.get("TOOLKIT_NOTEBOOK_N", "100000"))
N_POLICY = max(2, N // 20)  # games per ordered pair of policies (lookahead plays 16 imagined turns a choice)
SEED = 2024
STANDARD = toolkit.rules("pig")
print(f"N = {N:,} games per run, {N_POLICY:,} games per policy pair, seed {SEED}")

# %% [markdown]
# ## 1. The exact odds beside a run
#
# A roll busts with probability 1/6. A player who holds at random banks 240/49 ≈ 4.9 points a turn; one who
# rolls until the turn's total reaches 20 (the `greedy` rule of thumb) banks 8.14 on average, though most of
# its turns bank nothing. The exact values (`toolkit.games.pig.odds`, in fractions) stand beside what a run
# of random games measured.

# %%
games = toolkit.simulate("pig", STANDARD, N, seed=SEED, policies="random", progress=False)
table = odds.summary(STANDARD).set_index("quantity")
table["simulated (random games)"] = pd.Series(odds.simulated(games, STANDARD, ("random", "random")))
rolls = int(games["rolls_0"].sum() + games["rolls_1"].sum())
busts = int(games["busts_0"].sum() + games["busts_1"].sum())
rate, low, high = toolkit.wilson(busts, rolls)
display(table)
display(Markdown(f"Of {rolls:,} rolls, {rate:.4f} busted (95% interval {low:.4f} to {high:.4f}; exactly 1/6 = "
                 f"{1 / 6:.4f} is {'inside' if low <= 1 / 6 <= high else '**outside**'} it)."))

# %% [markdown]
# ## 2. Is moving first an advantage?
#
# The start player is drawn at random, so seats are even; what matters is who moved first (`first_seat`).
# The rates come with 95% Wilson intervals (the bars), and the sentences with intervals corrected for the two
# read together; Pig has no draws, so 0.5 means no advantage.

# %%
rows = []
for policy in ("random", "greedy"):
    df = games if policy == "random" else toolkit.simulate("pig", STANDARD, N, seed=SEED, policies=policy,
                                                           progress=False)
    wins = int((df["winner"] == df["first_seat"]).sum())
    rate, low, high = toolkit.wilson(wins, len(df))
    rows.append({"policy": policy, "games": len(df), "first player wins": wins, "win_rate": rate,
                 "ci_low": low, "ci_high": high})
first = pd.DataFrame(rows)
plots.win_rates_bar(first, labels=list(first["policy"]), title="P(first player wins)", fair=0.5)
plt.gca().set_ylabel("P(first player wins)")


def verdict(row):
    """The first player's share, its interval corrected for the two read here (one per policy)."""
    said = edge("the first player", row["first player wins"], row["games"], comparisons=len(first))
    return f"- *{row['policy']}* players: {said}."


display(Markdown("\n".join(verdict(row) for _, row in first.iterrows())))

# %% [markdown]
# ## 3. Which policy is stronger?
#
# `toolkit.compare` plays every ordered pair, `N_POLICY` games each, on the same seed (common random
# numbers). The cell in row *A*, column *B* is A's win rate against B over both seatings, with its 95%
# interval. `lookahead` plays each option 16 times to the end of the turn (greedy deciding afterwards) and
# keeps the one that banks most.

# %%
POLICIES = ["random", "greedy", "lookahead"]
comparison = toolkit.compare("pig", POLICIES, N_POLICY, seed=SEED, rules=STANDARD, progress=False)
grid = tournament.matrix(comparison)
plots.comparison_matrix(grid, title=f"standard rules, {2 * N_POLICY:,} games per pair of policies")
rate, low, high = grid["win_rate"], grid["ci_low"], grid["ci_high"]
display(Markdown("\n".join(
    f"- *{a}* wins **{rate.loc[a, b]:.1%}** of {int(grid['games'].loc[a, b]):,} games against *{b}* "
    f"(95% interval {low.loc[a, b]:.1%} to {high.loc[a, b]:.1%})."
    for a, b in [("greedy", "random"), ("lookahead", "random"), ("lookahead", "greedy")])))

# %% [markdown]
# ## 4. Try other rules
#
# The panel is generated from the `Rules` declaration: one control per rule, a preset menu and a game count.
# `second_player_bonus` is the rule a designer would tune against the first player's advantage.

# %%
def run(rules, n_games):
    summary = toolkit.simulate("pig", rules, n_games, seed=SEED, keep="summary", policies="greedy",
                               progress=False)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6))
    plots.win_rates_bar(summary.win_rates(), ax=left)
    plots.length_histogram(summary, "turns", ax=right)
    fig.tight_layout()
    return fig


panel = rules_panel("pig", run, preset="standard", n_games=N)
panel


# %% [markdown]
# ## 5. See a game, play a seat, and which decisions matter
#
# `viewer` opens one seeded game of these rules: the game `toolkit.simulate` plays as row `game_index` with the
# same seed, rules and players. Step through its decisions with the buttons or the slider: the picture, every
# option in words and the chosen one marked. Nothing is hidden in Pig, so every seat sees the same picture and the viewer offers no "seen by". "what `SEARCH` thinks" (mcts:1000 at the default `N`) adds the search's estimate of
# each option's win probability for the deciding seat, with a 95% interval from its visits, beside the
# players' choice; in "jump to", "find the decisions that swung the game" lists the decisions where the
# eventual winner's estimated chance moved most (`JUDGE` rates each one: a few seconds), and choosing one shows it.

# %%
from toolkit.analysis.decisions import answer, decisions, shown
from toolkit.viz.viewer import play, viewer

SEARCH = f"mcts:{max(20, N // 100)}:0:flat"  # the search whose win probabilities the viewer shows: mcts:1000:0:flat at the default N
JUDGE = f"mcts:{max(10, N // 500)}:0:flat"  # the search that rates decisions here and below: mcts:200:0:flat at the default N
# (":0:flat": every option searched alike and its rollouts played to the end, so that every estimate is a win
# probability)
viewer("pig", STANDARD, policies=("greedy", "greedy"), seed=SEED, game_index=0, judge=SEARCH, swing_judge=JUDGE)

# %% [markdown]
# `play` gives you seat 0: your options as buttons under the picture as your seat sees it, the other seat played by `greedy`
# between your decisions, under the same rules (tweaked ones too). The seed and game number are shown, so
# the game can be opened again in the viewer; what your seat cannot see stays hidden.

# %%
play("pig", STANDARD, policies=("greedy", "greedy"), seed=SEED, seat=0)

# %% [markdown]
# **Which decisions matter?** For each decision kind of the spec's §5, over `N_DECISIONS` games of greedy
# self-play (`max(2, N // 200)`: 500 at the default `N`; a kind is judged only from 50 games with it): how often it is forced (a single option), how often it is trivial (every option within 0.02 of
# the best by a search's estimate), and its *impact*, the win probability of the option `JUDGE` (`mcts:200` at the default `N`) picks
# minus the mean over all options, which is what a random choice gets, a decision and summed over a game.
# Each comes with a 95% interval counted over games, and the sentence claims only what the intervals support
# (`toolkit decisions pig -n GAMES --seed SEED` does the same from the command line).

# %%
N_DECISIONS = max(2, N // 200)  # 50 games with a kind are the fewest the sentence judges it on
judged = decisions("pig", STANDARD, n_games=N_DECISIONS, seed=SEED, judge=JUDGE, policies=("greedy", "greedy"), progress=False)
display(Markdown(answer(judged)))
shown(judged)
