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
# # Herrlof: the deal, the bid, and what the special cards are worth
#
# **Herrlof** is a trick-taking card game for two with secret bids (spec: `docs/rules/herrlof.md`). The deck has
# 42 cards: four suits of 1–9 and six unsuited cards, three **Valknuts** (V) and three **Hagalaz** (N). Each
# player gets 15 cards; the top card of the 12 left over is turned and sets the trump suit, and a V or N
# turned there means a round without trump. Both players then secretly bid how many tricks they will take.
#
# In a trick the follower must follow suit if able (a V or N may always be played; a trump only when void).
# A **Valknut** destroys the trick, which then counts for nobody (two Valknuts also turn a new trump card);
# a **Hagalaz** loses the trick, and its player leads the next one. Four ranks have powers after the trick:
# a **3** played to a trick may be traded for the top card of the stock, a trick won with a **1** may steal
# the opponent's latest trick, a trick won with a **6** takes a random card from the opponent's hand and gives
# one back, and a trick won with a **9** hands the lead to the opponent.
#
# A round scores 1 point per trick, +10 for an exact bid, and +5 for taking 3, 4 or 5 tricks whatever the
# bid (the `publisher` preset gives the +5 only for 3 or 4). The game ends after the round in which someone
# reaches 50 points, or after ten rounds; the dealer alternates and the non-dealer leads the first trick.
#
# Everything below calls the `toolkit` package; no rule is written in this notebook. `N` sets the number
# of simulated games (100,000 by default; the test suite runs the notebook with a small `N`). Every other size follows `N`: the runs with
# slower players, the searches' budgets and samples, the games a panel change replays; at the test's `N`
# every cell runs its real code, but its numbers say nothing). Three
# policies play: `random` (uniform over the legal options, bids included: the spec's reference player),
# `greedy` (bids its hand strength and plays to its bid) and `LOOKAHEAD`, `lookahead:8` at the default `N` (Monte Carlo sampling of the
# unseen cards, 8 samples per decision; about a hundred times slower, so it plays fewer games).

# %%
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import toolkit
from toolkit.analysis import tournament
from toolkit.core import stats
from toolkit.games.herrlof import odds, policies, round_log, viz
from toolkit.viz import plots
from toolkit.viz.prose import caution, edge
from toolkit.viz.widgets import rules_panel

N = int(os.environ.get("TOOLKIT_NOTEBOOK_N", "100000"))
N_LOOK = max(2, N // 200)  # games with a lookahead player (~70 games a second against random)
N_POLICY = max(2, N // 100)  # games per ordered pair of policies in section 7
N_PANEL = N  # games per change of the rules panel
SEED = 2024
LOOKAHEAD = f"lookahead:{min(8, max(2, N // 10_000))}"  # samples a decision: 8 at the default N

STANDARD = toolkit.rules("herrlof", "standard")
PUBLISHER = toolkit.rules("herrlof", "publisher")
print(f"N = {N:,} games per run, {N_LOOK:,} with a lookahead player, {N_POLICY:,} per policy pair, seed {SEED}")


# %% [markdown]
# Every run below uses the same seed, so game *g* of every run starts from the same shuffle (common random
# numbers). Two kinds of record are kept: one row per **game** (`toolkit.simulate`) and one row per **round
# and player** (`round_log`: the bid, the tricks, the points, and what the player was dealt).

# %%
games = {
    "random": toolkit.simulate("herrlof", STANDARD, N, seed=SEED, policies="random", progress=False),
    "greedy": toolkit.simulate("herrlof", STANDARD, N, seed=SEED, policies="greedy", progress=False),
    "greedy vs random": toolkit.simulate("herrlof", STANDARD, N, seed=SEED, policies="greedy,random",
                                         progress=False),
    f"{LOOKAHEAD} vs random": toolkit.simulate("herrlof", STANDARD, N_LOOK, seed=SEED,
                                               policies=f"{LOOKAHEAD},random", progress=False),
}
logs = {
    "random": round_log(STANDARD, N, seed=SEED, policies=("random", "random")),
    "greedy": round_log(STANDARD, N, seed=SEED, policies=("greedy", "greedy")),
    "greedy vs random": round_log(STANDARD, N, seed=SEED, policies=("greedy", "random")),
    f"{LOOKAHEAD} vs random": round_log(STANDARD, N_LOOK, seed=SEED, policies=(LOOKAHEAD, "random")),
}
pd.DataFrame({
    name: {
        "games": len(df),
        "draws": int((df["result"] == "draw").sum()),
        "P(seat 0 wins)": df["win_0"].mean(),
        "mean rounds": df["rounds"].mean(),
        "longest game (rounds)": df["rounds"].max(),
        "mean score seat 0": df["score_0"].mean(),
        "mean score seat 1": df["score_1"].mean(),
        "exact bids per round, seat 0": (df["exact_bids_0"] / df["rounds"]).mean(),
        "destroyed tricks per round": (df["destroyed_tricks"] / df["rounds"]).mean(),
        "rounds without trump per round": (df["no_trump_rounds"] / df["rounds"]).mean(),
    }
    for name, df in games.items()
}).round(3)

# %% [markdown]
# The column names give the line-up: one name is self-play, "A vs random" has A in seat 0. The games are
# short, since a round is worth several points to each player (section 6 shows the distribution): 50
# points come within the few rounds of the row "mean rounds", and the row "longest game" shows how far the
# ten-round limit is from the games actually played.
#
# ## 1. The deal: exact odds beside simulated hands
#
# The deal is a uniform shuffle, so what one player holds follows hypergeometric laws, computed exactly in
# `toolkit.games.herrlof.odds` (fractions, no sampling). The table lists a few headline numbers; the
# simulated column counts seat 0's hand in every round of the random self-play run (each round is a new
# shuffle), with a 95% interval (Wilson for a probability, ± 1.96 standard errors for a mean).

# %%
deals = logs["random"][logs["random"]["seat"] == 0]
rounds_dealt = len(deals)


def rate_row(quantity, exact, hits):
    rate, low, high = toolkit.wilson(int(hits.sum()), len(hits))
    return {"quantity": quantity, "exact": str(exact), "exact value": float(exact), "simulated": rate,
            "ci_low": low, "ci_high": high}


def mean_row(quantity, exact, values):
    mean, se = stats.mean_se(values)
    return {"quantity": quantity, "exact": str(exact), "exact value": float(exact), "simulated": mean,
            "ci_low": mean - stats.Z95 * se, "ci_high": mean + stats.Z95 * se}


effect_cards = deals[["ones", "threes", "sixes", "nines"]].sum(axis=1)
pd.DataFrame([
    rate_row("P(no trump)", odds.p_no_trump(STANDARD), deals["trump"] == -1),
    mean_row("mean trumps in a hand", odds.mean_trumps(STANDARD), deals["trumps"]),
    rate_row("P(at least 4 trumps)", odds.p_at_least_trumps(STANDARD, 4), deals["trumps"] >= 4),
    rate_row("P(at least one V or N)", 1 - odds.special_count_distribution(STANDARD)[0], deals["specials"] >= 1),
    mean_row("mean V or N cards in a hand",
             sum(k * p for k, p in odds.special_count_distribution(STANDARD).items()), deals["specials"]),
    mean_row("mean effect cards (1, 3, 6, 9)",
             4 * sum(k * p for k, p in odds.rank_count_distribution(STANDARD, 1).items()), effect_cards),
]).round(4)

# %% [markdown]
# The bars are the exact distributions, the red points the simulated frequencies with 95% Wilson
# intervals, over the same rounds. A round without trump counts as a hand with 0 trumps, which is why 0
# trumps is more likely than 1. Every rank has the same law (one card of it per suit), so the four effect
# ranks share one set of bars.

# %%
def nonzero(dist):
    return {k: p for k, p in dist.items() if p > 0}


panels = [("trumps", odds.trump_count_distribution(STANDARD), "trump cards in the hand"),
          ("specials", odds.special_count_distribution(STANDARD), "V and N cards in the hand")]
panels += [(column, odds.rank_count_distribution(STANDARD, rank), f"{rank}s in the hand")
           for column, rank in [("ones", 1), ("threes", 3), ("sixes", 6), ("nines", 9)]]
fig, axes = plt.subplots(2, 3, figsize=(14, 7))
for ax, (column, exact, label) in zip(axes.ravel(), panels):
    plots.odds_vs_simulated(nonzero(exact), deals[column].to_numpy(), ax=ax, xlabel=label)
fig.suptitle(f"one player's hand at the deal: exact (bars) and {rounds_dealt:,} simulated rounds (points)")
fig.tight_layout()

# %% [markdown]
# ## 2. Bids against tricks
#
# Each heatmap is one policy playing against `random`; a column is one bid, coloured by how the rounds with
# that bid ended (each column sums to 1), and the black points are the mean tricks won per bid with 95%
# intervals. Bids on the dashed diagonal were met; the legend gives the share of exact bids.
#
# - `random` bids uniformly and then plays without looking at its bid, so every column shows the same
#   spread of tricks and the black points lie on a flat line: the bid is pure luck.
# - `greedy` and `lookahead` bid from the hand, so their bids fall in a narrower band, and they play to the
#   bid, which pulls the rounds towards the diagonal.

# %%
heatmaps = [("random", logs["random"]), ("greedy", logs["greedy vs random"]),
            (LOOKAHEAD, logs[f"{LOOKAHEAD} vs random"])]
fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
for ax, (policy, log) in zip(axes, heatmaps):
    rows = log[log["policy"] == policy]
    viz.bid_tricks_heatmap(rows, ax=ax, hand_size=STANDARD.hand_size,
                           title=f"{policy} (vs random), {rows['game'].nunique():,} games")
fig.tight_layout()

lines = []
for policy, log in heatmaps:
    rows = log[log["policy"] == policy]
    rate, low, high = toolkit.wilson(int((rows["bid"] == rows["tricks"]).sum()), len(rows))
    lines.append(f"- *{policy}* met its bid in **{rate:.1%}** of {len(rows):,} rounds (95% interval {low:.1%} "
                 f"to {high:.1%}), with a mean bid of {rows['bid'].mean():.2f} and "
                 f"{rows['tricks'].mean():.2f} tricks won on average.")
display(Markdown("\n".join(lines)))

# %% [markdown]
# ## 3. What should you bid with a given hand?
#
# `round_log` records each hand's **strength** at the deal, once the trump is known: the part of `greedy`'s
# estimate that comes from the high cards, in quarter tricks (a high trump counts a whole trick, an
# off-suit 9 three quarters, and so on). It leaves out the tricks every hand takes with its low cards, its
# Valknuts and Hagalaz and its play, so a hand of strength 0 still takes a few tricks: `greedy` bids the
# strength **plus a base** (`policies.bid_base`, 4/5 of a quarter trick per card in the hand), printed
# below. Below the strength is divided by 4 and grouped in bins of half a trick; the axes say "tricks from
# high cards" for it.
#
# The `random` player makes this question clean: its bid is uniform and independent of its hand and of its
# play, so within a strength bin every bid meets the same hands and the same play, and the mean points of
# each bid are an unbiased estimate of what that bid is worth with such a hand. The answer is for a player
# who plays at random after bidding; a player who steers towards its bid, like `greedy`, can do better
# than these points.
#
# - **Left:** for each strength bin, the mean tricks won (blue, 95% interval) and the bid with the most
#   points (red). The red bar spans the bids whose points are not below the best at the 95% level. The
#   grey steps are the bid `greedy` makes with that strength (from its own log).
# - **Right:** mean points as a function of the bid for three strength bins (weak, typical and strong
#   hands), with 95% bands. The peak is the +10 for an exact bid, placed at the most likely trick count.

# %%
random_rows = logs["random"]
greedy_rows = logs["greedy vs random"][logs["greedy vs random"]["policy"] == "greedy"]
min_rounds = max(5, len(random_rows) // 20_000)
BASE = policies.bid_base(STANDARD.hand_size) / 4  # tricks greedy adds to the strength when it bids a full hand
STRENGTH_LABEL = f"hand strength at the deal: tricks from high cards (greedy bids it + {BASE:g})"
print(f"greedy's bid base with {STANDARD.hand_size} cards: {BASE:g} tricks")
fig, (left, right) = plt.subplots(1, 2, figsize=(14, 4.8))
viz.best_bid_by_strength(random_rows, ax=left, width=2, min_rounds=min_rounds,
                         title=f"random player, {len(random_rows):,} rounds")
greedy_bid = greedy_rows.groupby("strength")["bid"].mean()
left.step(greedy_bid.index / 4, greedy_bid.to_numpy(), where="mid", color="grey", label="greedy's bid")
left.legend(fontsize=8)
left.set_xlabel(STRENGTH_LABEL)
viz.points_by_bid(random_rows, ax=right, width=2, title="random player: points by bid")
handles, labels = right.get_legend_handles_labels()
right.legend(handles, [label.replace("tricks", "tricks from high cards") for label in labels], fontsize=8,
             title="hand strength (band: 95% CI)", title_fontsize=8)
fig.tight_layout()
best = viz.best_bid_table(random_rows, width=2, min_rounds=min_rounds)
best.round(2)

# %% [markdown]
# The table is the left panel in numbers (`strength_low` in quarter tricks, `strength` the bin's centre in
# tricks). The sentence below compares the best bid with the mean tricks, and with greedy's bid:

# %%
greedy_at = greedy_rows.groupby(greedy_rows["strength"] // 2 * 2)["bid"].mean().reindex(best["strength_low"])
above = int((greedy_at.to_numpy() > best["bid_high"].to_numpy()).sum())
below = int((greedy_at.to_numpy() < best["bid_low"].to_numpy()).sum())
inside = len(best) - above - below
slope = np.polyfit(best["strength"], best["tricks"], 1)[0] if len(best) > 1 else float("nan")
display(Markdown(
    f"- Over the {len(best)} strength bins with enough rounds, a random player's tricks rise by "
    f"**{slope:.2f}** per trick of strength (a least-squares line through the blue points), from "
    f"{best['tricks'].min():.2f} to {best['tricks'].max():.2f}; in the weakest bin (strength "
    f"{best['strength'].iloc[0]:.2f}) it still takes {best['tricks'].iloc[0]:.2f} tricks, "
    f"{best['tricks'].iloc[0] - best['strength'].iloc[0]:.2f} more than the strength counts.\n"
    f"- The best bid is within one trick of the mean tricks won in "
    f"{int((abs(best['best_bid'] - best['tricks']) <= 1).sum())} of {len(best)} bins.\n"
    f"- Greedy's mean bid lies above the range of best bids in {above} bins, inside it in {inside} and below "
    f"it in {below} (the range is the random player's, see above)."))

# %% [markdown]
# ## 4. The special effects: how often they fire and what they are worth
#
# ### How often
#
# The bars count per round, averaged over games: steals (1), trades with the stock (3) and swaps (6)
# executed by the seat-0 player of each line-up, and the destroyed tricks and double-Valknut trump
# changes of the whole round (they depend on both players). `greedy` accepts every trade and swap (it can
# always discard the card it drew or give back the card it took) and steals only while it still needs
# tricks; a 1 or a 6 fires only in a trick its player won, and greedy wins more tricks than random.

# %%
frequency = []
for policy, df in [("random", games["random"]), ("greedy", games["greedy vs random"]),
                   (LOOKAHEAD, games[f"{LOOKAHEAD} vs random"])]:
    for quantity, column in [("steals (1)", "steals_0"), ("trades (3)", "trades_0"), ("swaps (6)", "swaps_0"),
                             ("destroyed tricks (V)", "destroyed_tricks"),
                             ("trump changes (VV)", "trump_changes")]:
        mean, se = stats.mean_se(df[column] / df["rounds"])
        frequency.append({"quantity": quantity, "policy": policy, "games": len(df), "mean": mean,
                          "ci_low": mean - stats.Z95 * se, "ci_high": mean + stats.Z95 * se})
frequency = pd.DataFrame(frequency)
fig, ax = plt.subplots(figsize=(11, 4))
plots.means_bar(frequency, ax=ax, x="quantity", hue="policy", xlabel="effect",
                ylabel="per round (mean over games)",
                title="effects per round: seat 0 against random (steals, trades, swaps) and whole round (V, VV)")
fig.tight_layout()
frequency.pivot(index="quantity", columns="policy", values="mean").round(3)

# %% [markdown]
# ### What each effect is worth
#
# To price an effect we switch it off and replay the **same games**: greedy (seat 0) against random, on
# common seeds, once with the standard rules and once with one effect set to `off` (for the Valknut pair,
# `double_valknut_changes_trump = False`). Each game is paired with its twin, and the difference "effect on
# minus effect off" is averaged with a 95% interval (`toolkit.paired_difference`). A positive value means
# the effect helps greedy against random. `changed games` counts the pairs that differ at all.

# %%
EFFECTS = [("1 steals", {"effect_1": "off"}), ("3 trades", {"effect_3": "off"}), ("6 swaps", {"effect_6": "off"}),
           ("9 cedes the lead", {"effect_9": False}),
           ("VV changes trump", {"double_valknut_changes_trump": False})]
with_effects = games["greedy vs random"]
worth = []
for name, off in EFFECTS:
    without = toolkit.simulate("herrlof", toolkit.rules("herrlof", **off), N, seed=SEED,
                               policies="greedy,random", progress=False)
    changed = int((with_effects[["score_0", "score_1", "plies"]] != without[["score_0", "score_1", "plies"]])
                  .any(axis=1).sum())
    for measure, a, b in [("greedy's final score", with_effects["score_0"], without["score_0"]),
                          ("score margin greedy - random", with_effects["score_0"] - with_effects["score_1"],
                           without["score_0"] - without["score_1"]),
                          ("P(greedy wins)", with_effects["win_0"], without["win_0"])]:
        d = toolkit.paired_difference(a, b)
        worth.append({"effect": name, "measure": measure, "with effect": d["mean_a"], "without": d["mean_b"],
                      "difference": d["difference"], "ci_low": d["ci_low"], "ci_high": d["ci_high"],
                      "se paired": d["se"], "se unpaired": d["se_unpaired"], "changed games": changed})
worth = pd.DataFrame(worth)
worth.round(3)

# %% [markdown]
# Both players have the effect, so the difference is the net worth to greedy of an effect that random can
# use too. Switching an effect off changes the play from its first use on, and the games drift apart, so
# the common seeds remove only part of the luck: compare `se paired` with `se unpaired` (the sentences
# below give the ratio). When `changed games` is 0, the switch changed nothing in any game and the
# difference is exactly zero.
#
# A second, cruder measure is in the right panel below: greedy's points in the rounds where it executed an
# effect, minus its points in the rounds where it did not (greedy vs random, per round, difference of two
# means with a 95% interval). This is an association, not a price: a 1 or a 6 fires only in a trick that
# greedy has won, and greedy steals only while it needs tricks, so these rounds differ in more than the
# effect.

# %%
fired = []
for name, column in [("1 steals", "steals"), ("3 trades", "trades"), ("6 swaps", "swaps")]:
    yes = greedy_rows.loc[greedy_rows[column] > 0, "points"]
    no = greedy_rows.loc[greedy_rows[column] == 0, "points"]
    (m1, s1), (m0, s0) = stats.mean_se(yes), stats.mean_se(no)
    diff, se = m1 - m0, float(np.hypot(s1, s0))
    fired.append({"effect": name, "rounds fired": len(yes), "rounds not": len(no), "points fired": m1,
                  "points not": m0, "difference": diff, "ci_low": diff - stats.Z95 * se,
                  "ci_high": diff + stats.Z95 * se})
fired = pd.DataFrame(fired)

fig, axes = plt.subplots(1, 3, figsize=(16, 3.8))
for ax, measure, unit in [(axes[0], "greedy's final score", "points"),
                          (axes[1], "P(greedy wins)", "win rate")]:
    plots.interval_plot(worth[worth["measure"] == measure], ax=ax, label="effect", digits=3,
                        xlabel=f"effect on - effect off ({unit})", title=f"{measure}, paired games")
plots.interval_plot(fired, ax=axes[2], label="effect",
                    xlabel="points: rounds fired - rounds not", title="greedy's round points when it fired")
fig.tight_layout()
fired.round(3)

# %% [markdown]
# The sentences below are written from the numbers of this run:

# %%
def worth_sentence(row):
    if row["changed games"] == 0:
        return f"- *{row['effect']}*: switching it off changed none of the {N:,} games."
    interval = (f"{row['difference']:+.3f} points (95% interval {row['ci_low']:+.3f} to {row['ci_high']:+.3f}; "
                f"{row['changed games']:,} of {N:,} games changed)")
    if row["ci_low"] > 0:
        return f"- *{row['effect']}* **raises** greedy's final score: {interval}."
    if row["ci_high"] < 0:
        return f"- *{row['effect']}* **lowers** greedy's final score: {interval}."
    return f"- *{row['effect']}*: no change in greedy's final score can be seen, {interval}."


FIRES = {"1 steals": "steals (1)", "3 trades": "trades (3)", "6 swaps": "swaps (6)",
         "VV changes trump": "trump changes (VV)"}  # effect -> its row in the frequency bars
fires = frequency[frequency["policy"] == "greedy"].set_index("quantity")["mean"]
score_rows = worth[worth["measure"] == "greedy's final score"]
notes = []
for _, row in score_rows.iterrows():
    if row["changed games"] == 0 and row["effect"] in FIRES and fires[FIRES[row["effect"]]] > 0:
        notes.append(f"*{row['effect']}* happens ({fires[FIRES[row['effect']]]:.3f} times per round in greedy "
                     "against random) yet changed no game. A plausible reason, from greedy's design rather than "
                     "from these numbers: greedy sheds its Valknuts last, so two Valknuts meet late in a round, "
                     "when a new trump has little or nothing left to decide.")
changed = worth[worth["changed games"] > 0]
ratio = changed["se unpaired"] / changed["se paired"]
display(Markdown("\n".join(worth_sentence(row) for _, row in score_rows.iterrows())
                 + ("" if changed.empty else
                    f"\n\nWhere the switch changed games, the unpaired standard error is {ratio.min():.2f} to "
                    f"{ratio.max():.2f} times the paired one.")
                 + "".join(f"\n\n{note}" for note in notes)
                 + f"\n\n{caution(len(score_rows))}"))

# %% [markdown]
# ### What each effect is worth between evenly matched players
#
# The prices above are greedy's against random, a mismatch (greedy wins most games whatever the effects).
# Between two equal players, switching an effect off for both changes nothing on average: each seat gains
# and loses it alike. What an effect is worth to a player is then what *using* it gains: set a player
# against itself declining that one effect. Declining is a legal strategy (the 1, 3 and 6 effects are
# optional), and the toolkit names it as Attila's notebook does its unused tiles: `greedy:no_steal`,
# `lookahead:8:no_trade`, `:no_swap`.
# Both seatings are played on one seed; the share is the user's wins among the decided games (0.5: the
# effect is worth nothing to whoever can use it), with its 95% Wilson interval. Two levels of play:
# `greedy` against `greedy` (`N_EVEN` games per seating) and `LOOKAHEAD` against `LOOKAHEAD`
# (`N_LOOK`). The 9 (the winner cedes the lead) is no one's choice, so it has no price of this kind.

# %%
N_EVEN = max(2, N // 10)  # games per seating between two greedy players (greedy is fast)


def head_to_head(user, decliner, n_games):
    """``user``'s share of the decided games against ``decliner``, both seatings on SEED."""
    wins = losses = 0
    for seat in (0, 1):
        lineup = (user, decliner) if seat == 0 else (decliner, user)
        frame = toolkit.simulate("herrlof", STANDARD, n_games, seed=SEED, policies=lineup, progress=False)
        wins += int(frame[f"win_{seat}"].sum())
        losses += int(frame[f"win_{1 - seat}"].sum())
    rate, low, high = stats.wilson(wins, wins + losses)
    return {"games": 2 * n_games, "decided": wins + losses, "user wins": wins, "share": float(rate),
            "ci_low": float(low), "ci_high": float(high)}


evenly = pd.DataFrame([{"level": player.split(":")[0], "effect": name, "decliner": f"{player}:no_{option}",
                        **head_to_head(player, f"{player}:no_{option}", n_games)}
                       for player, n_games in [("greedy", N_EVEN), (LOOKAHEAD, N_LOOK)]
                       for name, option in [("the 1's steal", "steal"), ("the 3's trade", "trade"),
                                            ("the 6's swap", "swap")]])
evenly["label"] = evenly["effect"] + ", " + evenly["level"]
fig, ax = plt.subplots(figsize=(8, 3.8))
plots.interval_plot(evenly, ax=ax, value="share", reference=0.5, digits=3,
                    xlabel="share of decided games won by the player who uses the effect",
                    title="an effect's worth between evenly matched players")
fig.tight_layout()
evenly.drop(columns="label").round(3)

# %%
def even_sentence(row):
    interval = (f"{row['share']:.1%} of {row['decided']:,} decided games (95% interval {row['ci_low']:.1%} to "
                f"{row['ci_high']:.1%})")
    who = f"a *{row['level']}* player who uses *{row['effect']}* against one who declines it wins {interval}"
    if row["ci_low"] > 0.5:
        return f"- The effect **is worth something**: {who}."
    if row["ci_high"] < 0.5:
        return f"- Using the effect **costs**: {who}."
    return f"- No worth can be seen: {who}."


display(Markdown("\n".join(even_sentence(row) for _, row in evenly.iterrows()) + f"\n\n{caution(len(evenly))}"))

# %% [markdown]
# ## 5. Does dealing or leading pay?
#
# The dealer alternates and the **non-dealer leads** the first trick of each round, so the first dealer
# leads in rounds 2, 4, …, and the other player in rounds 1, 3, …. Two questions:
#
# - **Per game:** does the first dealer win more often? The bars are the first dealer's share of the games
#   that had a winner, with 95% Wilson intervals, in self-play (both seats use the same policy, so only the
#   deal order differs). 0.5 means no advantage.
# - **Per round:** within each round, the dealer's points minus the non-dealer's (paired by round, 95%
#   interval); a negative value means the leader of the first trick has the edge. The tricks and the bids
#   are compared the same way.
#
# Because the deal alternates, a per-round edge of the dealer is shared by both players over a game: the
# first dealer deals one round more than the other only when the game has an odd number of rounds.

# %%
dealer_games = []
for policy in ("random", "greedy"):
    df = games[policy]
    decided = df[df["result"] == "win"]
    wins = int((decided["winner"] == decided["first_dealer"]).sum())
    rate, low, high = toolkit.wilson(wins, len(decided))
    dealer_games.append({"policy": policy, "games": len(df), "draws": len(df) - len(decided),
                         "first dealer wins": wins, "win_rate": rate, "ci_low": low, "ci_high": high})
dealer_games = pd.DataFrame(dealer_games)

dealer_rounds = []
for policy in ("random", "greedy"):
    by_round = logs[policy].set_index(["game", "round", "dealer"])
    for measure in ("points", "tricks", "bid"):
        pair = by_round[measure].unstack("dealer")
        d = toolkit.paired_difference(pair[1], pair[0])
        dealer_rounds.append({"label": f"{policy}: {measure}", "dealer": d["mean_a"], "non-dealer": d["mean_b"],
                              "difference": d["difference"], "ci_low": d["ci_low"], "ci_high": d["ci_high"],
                              "rounds": d["games"]})
dealer_rounds = pd.DataFrame(dealer_rounds)

fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4))
plots.win_rates_bar(dealer_games, ax=left, labels=list(dealer_games["policy"]),
                    title="P(first dealer wins | a winner)", fair=0.5)  # one bar per policy, not per seat
left.set_xlabel("policy (self-play)")
left.set_ylabel("first dealer's share of wins")
plots.interval_plot(dealer_rounds, ax=right, digits=3, xlabel="dealer - non-dealer, per round",
                    ylabel="policy: measure", title="per round: the dealer against the first leader")
fig.tight_layout()
display(dealer_games.round(4))
dealer_rounds.round(3)

# %%
def dealer_sentence(row):
    """The first dealer's share of the decided games, its interval corrected for every interval of this cell."""
    word = edge("the first dealer", row["first dealer wins"], row["games"] - row["draws"],
                comparisons=len(dealer_games) + len(dealer_rounds), of="the decided games")
    return f"- *{row['policy']}* self-play, {row['games']:,} games, {row['draws']:,} drawn: {word}."


def round_sentence(row):
    if row["ci_low"] > 0 or row["ci_high"] < 0:
        who = "dealer" if row["difference"] > 0 else "non-dealer (the first leader)"
        return (f"- {row['label']}: the {who} is ahead by {abs(row['difference']):.3f} per round "
                f"(95% interval {row['ci_low']:+.3f} to {row['ci_high']:+.3f}).")
    return (f"- {row['label']}: no difference can be seen ({row['difference']:+.3f}, "
            f"95% interval {row['ci_low']:+.3f} to {row['ci_high']:+.3f}).")


display(Markdown("\n".join([dealer_sentence(r) for _, r in dealer_games.iterrows()]
                           + [round_sentence(r) for _, r in dealer_rounds.iterrows()])
                 + f"\n\n{caution(len(dealer_games) + len(dealer_rounds))}"))

# %% [markdown]
# ## 6. Standard against publisher scoring
#
# The two presets differ in one parameter: the +5 consolation bonus is paid for 3, 4 or 5 tricks (`standard`,
# the seed) or only for 3 or 4 (`publisher`). Greedy plays random in both, on the same seeds, so each game
# under one scoring is paired with its twin under the other. The table gives the publisher-minus-standard
# difference of each per-game measure with its 95% interval.

# %%
publisher_games = toolkit.simulate("herrlof", PUBLISHER, N, seed=SEED, policies="greedy,random", progress=False)
publisher_log = round_log(PUBLISHER, N, seed=SEED, policies=("greedy", "random"))
standard_games = games["greedy vs random"]
standard_log = logs["greedy vs random"]
measures = {
    "rounds": lambda df: df["rounds"],
    "P(greedy wins)": lambda df: df["win_0"],
    "greedy's final score": lambda df: df["score_0"],
    "random's final score": lambda df: df["score_1"],
    "greedy's points per round (mean over games)": lambda df: df["score_0"] / df["rounds"],
    "random's points per round (mean over games)": lambda df: df["score_1"] / df["rounds"],
    "greedy's exact bids per round": lambda df: df["exact_bids_0"] / df["rounds"],
    "random's exact bids per round": lambda df: df["exact_bids_1"] / df["rounds"],
}
scoring = []
for name, measure in measures.items():
    d = toolkit.paired_difference(measure(publisher_games), measure(standard_games))
    scoring.append({"measure": name, "standard": d["mean_b"], "publisher": d["mean_a"],
                    "difference": d["difference"], "ci_low": d["ci_low"], "ci_high": d["ci_high"]})
scoring = pd.DataFrame(scoring)
scoring.round(4)

# %% [markdown]
# The left panel overlays the game lengths in rounds (mean with its shaded 95% interval, median dotted). The
# other two show the distribution of the points a player scores in one round, for each scoring: under
# `standard` a 5-trick round is worth 10 points, under `publisher` only 5, and the bumps move accordingly.
#
# Two averages of the points per round appear in this section, and they differ. The table's "points per
# round (mean over games)" takes each game's score divided by its rounds and averages over the games, so
# every game counts once and a round of a short game weighs more than a round of a long one (the paired
# comparison needs one number per game). The legends of the two histograms give the mean over all rounds
# pooled, where every round counts once. The sentence under the figure gives both, from this run.

# %%
fig, axes = plt.subplots(1, 3, figsize=(16, 4))
for label, df in [("standard", standard_games), ("publisher", publisher_games)]:
    plots.length_histogram(df, "rounds", ax=axes[0], label=label, title="game length, greedy vs random")
axes[0].set_ylabel("share of games")
for ax, policy in zip(axes[1:], ("greedy", "random")):
    for label, log in [("standard", standard_log), ("publisher", publisher_log)]:
        plots.length_histogram(log[log["policy"] == policy], "points", ax=ax, label=label,
                               title=f"{policy}'s points in a round (all rounds pooled)")
    ax.set_ylabel("share of rounds")
    ax.set_xlabel("points in the round")
fig.tight_layout()

per_game = scoring.set_index("measure")
lines = []
for policy in ("greedy", "random"):
    measure = f"{policy}'s points per round (mean over games)"
    for label, log in (("standard", standard_log), ("publisher", publisher_log)):
        over_games, pooled = per_game.loc[measure, label], log.loc[log["policy"] == policy, "points"].mean()
        lines.append(f"- *{policy}*, {label} scoring: {over_games:.2f} points per round as the mean over games, "
                     f"{pooled:.2f} over all rounds pooled"
                     + (": the short games have the richer rounds." if round(over_games, 2) > round(pooled, 2) else
                        ": the long games have the richer rounds." if round(over_games, 2) < round(pooled, 2)
                        else "."))
display(Markdown("\n".join(lines)))

# %%
def scoring_sentence(row):
    interval = (f"{row['difference']:+.3g}, 95% interval {row['ci_low']:+.3g} to {row['ci_high']:+.3g}")
    if row["ci_low"] > 0 or row["ci_high"] < 0:
        direction = "higher" if row["difference"] > 0 else "lower"
        return (f"- *{row['measure']}* is {direction} under publisher scoring: {row['publisher']:.4g} against "
                f"{row['standard']:.4g} ({interval}).")
    return f"- *{row['measure']}*: no difference can be seen ({interval})."


display(Markdown("\n".join(scoring_sentence(r) for _, r in scoring.iterrows()) + f"\n\n{caution(len(scoring))}"))

# %% [markdown]
# ## 7. Which policy is stronger?
#
# `toolkit.compare` plays every ordered pair of policies, `N_POLICY` games each, on the standard preset and
# one seed, so every pairing sees the same shuffles (common random numbers). The matrix pools both
# seatings: the cell in row *A*, column *B* is A's win rate against B with its 95% Wilson interval; drawn
# games count as not won, so a diagonal cell can sit a little below 0.5.

# %%
POLICIES = ["random", "greedy", LOOKAHEAD]
comparison = toolkit.compare("herrlof", POLICIES, N_POLICY, seed=SEED, rules=STANDARD, progress=False)
grid = tournament.matrix(comparison)
fig, ax = plt.subplots(figsize=(6.5, 5))
plots.comparison_matrix(grid, ax=ax, title=f"standard rules, {2 * N_POLICY:,} games per pair of policies")
fig.tight_layout()
comparison[["seat0_policy", "seat1_policy", "games", "win_rate_0", "ci_low_0", "ci_high_0", "no_winner",
            "mean_turns"]].round(3)

# %%
rate = grid["win_rate"]
low, high = grid["ci_low"], grid["ci_high"]
display(Markdown("\n".join(
    f"- *{a}* beats *{b}* in **{rate.loc[a, b]:.1%}** of {int(grid['games'].loc[a, b]):,} games "
    f"(95% interval {low.loc[a, b]:.1%} to {high.loc[a, b]:.1%})."
    for a, b in [("greedy", "random"), (LOOKAHEAD, "random"), (LOOKAHEAD, "greedy")])))

# %% [markdown]
# ## 8. Try other rules
#
# The panel below is generated from the `Rules` declaration: one control per parameter, a preset menu and a
# game count. Every change rebuilds the rules (a value that is not allowed shows the reason instead of
# plots), reruns `N_PANEL` games (`N`) of greedy against random in summary mode, and redraws
# the win rate per seat and the game length in rounds. Rules reach the compiled kernel as values, so no
# change recompiles anything; a run of 20,000 games takes well under a second.

# %%
def run(rules, n_games):
    summary = toolkit.simulate("herrlof", rules, n_games, seed=SEED, policies="greedy,random", keep="summary",
                               progress=False)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6))
    plots.win_rates_bar(summary.win_rates(), ax=left, labels=["seat 0: greedy", "seat 1: random"])
    plots.length_histogram(summary, "rounds", ax=right)
    right.set_ylabel("share of games")
    fig.tight_layout()
    return fig


panel = rules_panel("herrlof", run, preset="standard", n_games=N_PANEL)
panel


# %% [markdown]
# ## 9. See a game, play a seat, and which decisions matter
#
# `viewer` opens one seeded game of these rules: the game `toolkit.simulate` plays as row `game_index` with the
# same seed, rules and players. Step through its decisions with the buttons or the slider: the picture, every
# option in words and the chosen one marked. "seen by" a seat shows its own hand and the opponent's as backs; "open" shows both hands and says so. "what `SEARCH` thinks" (mcts:1000 at the default `N`) adds the search's estimate of
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
viewer("herrlof", STANDARD, policies=("greedy", "greedy"), seed=SEED, game_index=0, judge=SEARCH, swing_judge=JUDGE)

# %% [markdown]
# `play` gives you seat 0: your options as buttons under the picture as your seat sees it, the other seat played by `greedy`
# between your decisions, under the same rules (tweaked ones too). The seed and game number are shown, so
# the game can be opened again in the viewer; what your seat cannot see stays hidden.

# %%
play("herrlof", STANDARD, policies=("greedy", "greedy"), seed=SEED, seat=0)

# %% [markdown]
# **Which decisions matter?** For each decision kind of the spec's §5, over `N_DECISIONS` games of greedy
# self-play (`max(2, N // 200)`: 500 at the default `N`; a kind is judged only from 50 games with it): how often it is forced (a single option), how often it is trivial (every option within 0.02 of
# the best by a search's estimate), and its *impact*, the win probability of the option `JUDGE` (`mcts:200` at the default `N`) picks
# minus the mean over all options, which is what a random choice gets, a decision and summed over a game.
# Each comes with a 95% interval counted over games, and the sentence claims only what the intervals support
# (`toolkit decisions herrlof -n GAMES --seed SEED` does the same from the command line).

# %%
N_DECISIONS = max(2, N // 200)  # 50 games with a kind are the fewest the sentence judges it on
judged = decisions("herrlof", STANDARD, n_games=N_DECISIONS, seed=SEED, judge=JUDGE, policies=("greedy", "greedy"), progress=False)
display(Markdown(answer(judged)))
shown(judged)
