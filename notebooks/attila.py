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
# # Attila: does the first player win, which tribe rules, and what is a tile worth?
#
# **Attila** is an area-majority card game for 2–5 players (spec: `docs/rules/attila.md`). Six barbarian
# tribes (Franks, Goths, Saxons, Vandals, Teutons, Huns) invade a map of 25 Roman provinces from the six
# **start provinces** on the northern border. Nobody owns a tribe: every player backs the tribes through
# **influence** tracks. A turn plays one card of a tribe and places one of its figures in a start province
# or next to a figure of that tribe, then either gains influence in that tribe (1, 2, 3 or 4 by century)
# or places a second figure. The fifth figure in a province starts a **war**: every player may lay cards
# face down in support, the weakest tribe (figures plus support cards) leaves, and the province is
# **pacified** for good with a peace tile. The ten peace tiles are stacked 1, 2, 3 and 4 for centuries
# IV to VII; when a century's stack runs out, every tribe is **scored**: the player with the most
# influence in it gets 1 VP per figure of it on the map, the second 1 VP per province holding it. The
# game ends after the tenth war, or when an influence marker reaches space 22 (**track end**). Each player
# also has three once-per-game **action tiles**: Double turn (two plays), +2 influence, and Exchange
# (swap cards).
#
# Everything below calls the `toolkit` package; no rule is written in this notebook. `N` sets the number
# of simulated games per run (100,000 by default; the test suite runs the notebook with a small `N`).
# Three policies play:
#
# - `random` picks uniformly among the legal options of every decision (the spec's reference player, §5);
# - `greedy` values a position by the VP a scoring would give it now: it plays the card and province that
#   raise that most (and avoids starting wars), supports the tribes it leads with all their cards, uses
#   +2 as soon as it raises that score, Double turn from century VI on and Exchange only when no card
#   can be placed; ties between equally good options are broken uniformly at random (from the seat's own
#   decision stream), so no tribe or province is favoured by its number;
# - `lookahead` (`lookahead:S`) is `greedy` except for its play: it scores each candidate by playing out
#   the rest of the turn and one turn of every opponent with `greedy`, in S guesses of the hidden cards
#   (8 by default), and breaks ties as `greedy` does. Against greedy players it is about a hundred times
#   slower, so it plays few games.
#
# `greedy:no_double_turn`, `greedy:no_plus_two` and `greedy:no_exchange` are `greedy` that never uses
# that tile: section 5 measures what each tile is worth with them.

# %%
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import toolkit
from toolkit.core import stats
from toolkit.games.attila import odds
from toolkit.games.attila.rules import TILES, TRIBES
from toolkit.viz import plots
from toolkit.viz.attila_map import TRIBE_COLOURS, draw_map, war_frequencies, war_heatmap, war_log, war_logs
from toolkit.viz.widgets import rules_panel

N = int(os.environ.get("TOOLKIT_NOTEBOOK_N", "100000"))
N_WARS = min(300, max(30, N // 300))  # reference games for the war maps (about 10 greedy games a second)
N_LOOK = max(50, N // 500)  # games with a lookahead player (about 25 a second against greedy)
N_PANEL = max(10_000, min(N, 20_000))  # games per change of the rules panel
SEED = 2024
PLAYERS = (2, 3, 4, 5)
RULES = {n: toolkit.rules("attila", num_players=n) for n in PLAYERS}
print(f"N = {N:,} games per run, {N_WARS:,} reference games for the war maps, {N_LOOK:,} with a lookahead "
      f"player, {N_PANEL:,} per panel change, seed {SEED}")

# %% [markdown]
# ## 1. One game on the map
#
# `war_log` plays one seeded game with the readable reference implementation and notes, through its
# decision observer, when each war took place. The kernel plays the very same game (the two are tested to
# agree game by game): it is game 0 of every 4-player greedy run below. The map shows the end of the game.
# Each province is a circle at a rough geographic position (Britannia top left, Spain and Mauretania bottom
# left, Asia on the right); lines are land borders, dashed lines sea links, red rings the start provinces.
# The small squares are the figures, one per figure in the tribe's colour (Franks blue, Goths yellow,
# Saxons green, Vandals grey, Teutons red, Huns black); the circle's shade counts them. A white tile marks
# a pacified province, with the number of the war that pacified it.

# %%
game, log = war_log(RULES[4], SEED, 0)
record = toolkit.simulate("attila", RULES[4], 1, seed=SEED, policies="greedy", progress=False).iloc[0]
fig, ax = plt.subplots(figsize=(14, 7.2))
draw_map(RULES[4], game.figures, game.pacified, wars=log["province"], ax=ax,
         title=f"the end of game 0: four greedy players, {game.turns} turns, {game.wars} wars")
fig.tight_layout()
same = [int(record[f"score_{s}"]) for s in range(4)] == game.vp and int(record["turns"]) == game.turns
display(Markdown(
    f"Seat {game.start_player} starts. The game ends by **{game.end_reason}** after {game.turns} turns with VP "
    f"{game.vp}: " + ", ".join(f"seat {p}" for p in game.winners()) + " wins. The kernel's record of game 0: "
    f"VP {[int(record[f'score_{s}']) for s in range(4)]} in {record['turns']} turns, "
    + ("the same game." if same else "**a different game!**")))
log

# %% [markdown]
# The final influence tracks (one row per seat) and what the final scoring paid each seat per tribe
# (`odds.scoring_table`: first place 1 VP per figure of the tribe on the map, second place 1 VP per
# province holding it):

# %%
final = odds.scoring_table(RULES[4], game.influence, game.figures)
pd.concat({"influence": final.pivot(index="player", columns="tribe", values="influence")[list(TRIBES)],
           "VP in the final scoring": final.pivot(index="player", columns="tribe", values="vp")[list(TRIBES)]},
          axis=1)

# %% [markdown]
# ## 2. Does the first player win more often?
#
# Each run plays `N` games of greedy self-play (and of random self-play) for 2, 3, 4 and 5 players, all on
# one seed. The start player is drawn at random (`start_player = random`, the default), so the seat
# numbers themselves should not matter: the first table is a check that they do not. What may matter is
# the **turn order**: the player who moves first, second, and so on. A shared win counts for each tied
# player, so the rates of a row can add up to a little more than 1. The fair share is 1/n.

# %%
greedy = {n: toolkit.simulate("attila", RULES[n], N, seed=SEED, policies="greedy", progress=False)
          for n in PLAYERS}
random_runs = {n: toolkit.simulate("attila", RULES[n], N, seed=SEED, policies="random", progress=False)
               for n in PLAYERS}


def interval_text(rate, low, high):
    return f"{rate:.3f} [{low:.3f}, {high:.3f}]"


seat_table = pd.DataFrame({
    f"{n} players": {f"seat {row.seat}": interval_text(row.win_rate, row.ci_low, row.ci_high)
                     for row in toolkit.win_rates(greedy[n]).itertuples()}
    for n in PLAYERS}).fillna("")
display(Markdown("**Win rate by seat number, greedy self-play** (95% Wilson intervals):"))
seat_table


# %%
def by_turn_order(df, n):
    """Win rate of the player who moves 1st, 2nd, ... (seat = start_player + k, clockwise)."""
    wins = df[[f"win_{s}" for s in range(n)]].to_numpy()
    order = (df["start_player"].to_numpy()[:, None] + np.arange(n)) % n
    by_position = np.take_along_axis(wins, order, axis=1).sum(axis=0)
    rows = []
    for k in range(n):
        rate, low, high = toolkit.wilson(int(by_position[k]), len(df))
        rows.append({"players": f"{n} players", "n": n, "turn order": f"{k + 1}.", "games": len(df),
                     "win_rate": rate, "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)


order_tables = {name: pd.concat([by_turn_order(runs[n], n) for n in PLAYERS], ignore_index=True)
                for name, runs in (("greedy", greedy), ("random", random_runs))}
fig, axes = plt.subplots(1, 2, figsize=(15, 4.4))
for ax, (name, table) in zip(axes, order_tables.items()):
    plots.means_bar(table, ax=ax, x="players", hue="turn order", value="win_rate", xlabel="",
                    ylabel="win rate", title=f"{name} self-play: win rate by turn order, 95% Wilson intervals")
    for i, n in enumerate(PLAYERS):
        ax.hlines(1 / n, i - 0.42, i + 0.42, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 0.75)
fig.tight_layout()
pd.concat({name: table.assign(text=[interval_text(*r) for r in table[["win_rate", "ci_low", "ci_high"]].values])
           .pivot(index="turn order", columns="players", values="text").fillna("")
           for name, table in order_tables.items()}, axis=1)


# %%
def advantage_sentence(name, n):
    table = order_tables[name][order_tables[name]["n"] == n]
    first, rest = table.iloc[0], table.iloc[1:]
    verdict = ("**the first player is favoured**" if first["ci_low"] > rest["ci_high"].max() else
               "**the first player is at a disadvantage**" if first["ci_high"] < rest["ci_low"].min() else
               "no clear first-player edge")
    others = (f"the second {rest['win_rate'].iloc[0]:.1%}" if n == 2 else
              f"the others {rest['win_rate'].min():.1%} to {rest['win_rate'].max():.1%}")
    return (f"- *{name}, {n} players*: the first player wins {first['win_rate']:.1%} ({first['ci_low']:.1%} to "
            f"{first['ci_high']:.1%}) against a fair {1 / n:.1%}; {others}: {verdict}.")


display(Markdown("\n".join(advantage_sentence(name, n) for name in ("greedy", "random") for n in PLAYERS)))

# %% [markdown]
# **Reading the numbers (N = 100,000, seed 2024, rules version 1).** The seat numbers are fair, as they
# must be with a random start player: with four players every seat wins between 25.3% and 25.7%. The turn
# order is not fair. In greedy self-play the first player wins 52.3% (52.0% to 52.6%) of 2-player games
# against 49.5% for the second, 36.7% with three players (fair: 33.3%), 31.9% with four (fair: 25%) and
# 26.9% with five (fair: 20%). The later players share the rest about equally: 32.2% to 32.6% each with
# three players, 23.1% to 24.0% with four, 18.4% to 19.3% with five. Random players show a first-player
# edge too, less steep (much less with four and five players): the first player wins 51.7%, 35.9%, 28.1%
# and 23.0%, and each later player a little less than the one before. One reason is built into the rules:
# the game ends in the middle of a round (at the tenth war or a track end), so the players early in the
# turn order have often had one more turn than the others.

# %% [markdown]
# ## 3. Which tribe dominates?
#
# The rules treat the six tribes alike: the same number of cards and figures, the same start provinces.
# Any difference between them therefore comes from how the players play. Four measures, each the share of
# games in which a tribe is at the top (a tie counts for every tied tribe, so a row can add up to a little
# more than 1), with 95% Wilson intervals:
#
# - **most influence**: the tribe with the highest influence summed over all players at the end
#   (from the `N` simulated games);
# - **winner's tribe**: the tribe in which the winner holds the most influence (games with one winner);
# - **most figures**: the tribe with the most figures on the map at the end, and
# - **pays the winner most**: the tribe that gives the winner the most VP in the final scoring (the
#   biggest of the game); these two need the board, so they come from `N_WARS` reference games.

# %%
def influence_array(df, n):
    return np.stack([df[[f"influence_{s}_{t}" for t in range(len(TRIBES))]].to_numpy() for s in range(n)], axis=1)


def top_share(values, label, policy):
    """values: (games, 6); the share of games in which each tribe has the (joint) maximum."""
    top = values == values.max(axis=1, keepdims=True)
    rate, low, high = toolkit.wilson(top.sum(axis=0), len(values))
    return pd.DataFrame({"tribe": TRIBES, "measure": label, "policy": policy, "games": len(values),
                         "share": rate, "ci_low": low, "ci_high": high})


def tribe_measures(df, n, policy):
    influence = influence_array(df, n)
    single = df["n_winners"].to_numpy() == 1
    winner = df["winner"].to_numpy()[single]
    return [top_share(influence.sum(axis=1), "most influence", policy),
            top_share(influence[single, winner], "winner's tribe", policy)]


logs = {policy: war_logs(RULES[4], N_WARS, SEED, (policy,) * 4) for policy in ("greedy", "random")}


def board_measures(policy):
    games = [g for g, _ in logs[policy]]
    figures = np.array([np.array(g.figures).sum(axis=0) for g in games])
    paid = []
    for g in games:
        if len(g.winners()) == 1:
            table = odds.scoring_table(RULES[4], g.influence, g.figures)
            paid.append(table[table["player"] == g.winners()[0]]["vp"].to_numpy())
    return [top_share(figures, "most figures", policy), top_share(np.array(paid), "pays the winner most", policy)]


tribes = pd.concat(tribe_measures(greedy[4], 4, "greedy") + tribe_measures(random_runs[4], 4, "random")
                   + board_measures("greedy") + board_measures("random"), ignore_index=True)
fig, axes = plt.subplots(1, 2, figsize=(15, 4.2), sharey=True)
for ax, policy in zip(axes, ("greedy", "random")):
    plots.means_bar(tribes[tribes["policy"] == policy], ax=ax, x="tribe", hue="measure", value="share",
                    xlabel="", ylabel="share of games at the top", title=f"4 players, {policy} self-play")
    ax.axhline(1 / 6, color="grey", linestyle="--", linewidth=1)
    for label in ax.get_xticklabels():
        label.set_color(TRIBE_COLOURS[label.get_text()] if label.get_text() != "goths" else "#b8860b")
fig.tight_layout()
tribes.pivot_table(index=["policy", "measure"], columns="tribe", values="share", sort=False)[list(TRIBES)].round(3)

# %% [markdown]
# **Reading the numbers (default run).** Under `random` the tribes are equal, as the symmetric rules
# demand: each has the most total influence in 20.0% to 20.2% of the games (ties count for every tied
# tribe, hence more than a sixth) and is the winner's tribe in 23.1% to 23.5%. Under `greedy` they are
# equal as well: each tribe has the most influence in 17.9% to 18.0% of 4-player games (each interval is
# about ±0.24 points wide, and all of them overlap) and is the winner's tribe in 19.9% to 20.2%. Greedy
# breaks ties between equally good plays at random, so nothing favours a tribe by its number; its shares
# are lower than random's only because its tribes tie for the top less often. The two board measures come
# from only 300 games, so their intervals are about ±5 points wide: under greedy "most figures" ranges
# from 16.0% (Teutons) to 22.7% (Saxons) and "pays the winner most" from 14.2% (Teutons) to 20.9%
# (Vandals, Huns), with overlapping intervals, and a check on 3,000 random games gave 17.9% to 19.9% for
# "most figures": equal within the noise. No tribe dominates under either policy.

# %% [markdown]
# ## 4. Wars, centuries and how games end
#
# A game has at most ten wars (one per peace tile); it stops earlier if an influence marker reaches the
# last space (`track_end`). `century_end_turn_c` is the turn in which century c's peace stack ran out, so
# the length of a century is the difference of two of them (counted only when both centuries ended).

# %%
length_rows, end_rows, end_shares = [], [], []
for name, runs in (("greedy", greedy), ("random", random_runs)):
    for n in PLAYERS:
        df = runs[n]
        ends = df[[f"century_end_turn_{c}" for c in range(4)]].to_numpy()
        before = np.column_stack([np.zeros(len(df), dtype=ends.dtype), ends[:, :-1]])
        for c, century in enumerate(("IV", "V", "VI", "VII")):
            done = ends[:, c] > 0
            mean, se = stats.mean_se(ends[done, c] - before[done, c])
            length_rows.append({"policy": name, "players": f"{n} players", "century": century, "mean": mean,
                                "ci_low": mean - stats.Z95 * se, "ci_high": mean + stats.Z95 * se,
                                "share completed": done.mean()})
        wars, wars_se = stats.mean_se(df["wars"])
        turns, turns_se = stats.mean_se(df["turns"])
        row = {"policy": name, "players": n, "mean wars": wars, "± wars": stats.Z95 * wars_se,
               "mean turns": turns, "± turns": stats.Z95 * turns_se}
        row.update({f"end: {k}": v for k, v in df["end_reason"].value_counts(normalize=True).items()})
        row["mean figures removed"] = df["figures_removed"].mean()
        end_rows.append(row)
        for reason, count in df["end_reason"].value_counts().items():
            rate, low, high = toolkit.wilson(int(count), len(df))
            end_shares.append({"policy": name, "players": f"{n} players", "end reason": reason, "share": rate,
                               "ci_low": low, "ci_high": high})
centuries = pd.DataFrame(length_rows)
end_shares = pd.DataFrame(end_shares)
fig, axes = plt.subplots(1, 3, figsize=(17, 4.2))
for ax, name in zip(axes, ("greedy", "random")):
    plots.means_bar(centuries[centuries["policy"] == name], ax=ax, x="century", hue="players", xlabel="century",
                    ylabel="turns", title=f"{name} self-play: turns per century (95% CI)")
shown = end_shares[(end_shares["policy"] == "greedy") & end_shares["end reason"].isin(["track_end", "stall"])]
plots.means_bar(shown, ax=axes[2], x="players", hue="end reason", value="share", xlabel="",
                ylabel="share of games", title="greedy: games that end before the tenth war (95% CI)")
fig.tight_layout()
pd.DataFrame(end_rows).set_index(["policy", "players"]).round(3)

# %%
display(Markdown("**Share of games in which each century ended** (the rest ended earlier by track end):"))
centuries.pivot_table(index=["policy", "players"], columns="century", values="share completed",
                      sort=False).round(3)

# %% [markdown]
# **Reading the numbers (default run).** Random players fight all ten wars in practically every game (a
# stall, when no figure can be placed anywhere, ends 3 to 9 games in 100,000) and play about 36 turns,
# whatever the number of players: they spread their influence, so no track reaches 22. Greedy players,
# which break ties between tribes at random, spread theirs too once there are three players or more:
# 2.8% (2.7% to 2.9%) of 3-player greedy games end by track end, 0.2% with four players and 13 games in
# 100,000 with five. With two players it is different: 26.1% (25.9% to 26.4%) of the greedy games end by
# track end (9.47 wars on average) and miss century VII's scoring. Greedy also avoids starting wars, so
# its games are longer: 64.9 turns with two players, 90.9 with three, 87.1 with four and 85.1 with five. A
# stall ends at most 8 greedy games in 100,000. The centuries differ between the policies. Random players
# spend the most turns in century VII, with its four peace tiles (11 to 12 turns, against 7 to 9 in each
# of the others). Greedy players spend the most in century IV, before the first war: 35 to 38 turns with
# three to five players (20 with two), then 25 to 30 in century V (12 with two) and 10 to 17 in each of
# centuries VI and VII.

# %% [markdown]
# ### Where do the wars happen?
#
# A province can have one war only (it is pacified after it). The maps give the share of games in which
# each province saw a war, from `N_WARS` reference games of each policy (4 players, the same seed as
# above). The table lists, per province, the share with its interval, the mean number of its war (1 = the
# first war of the game) and how many of its wars fell in each century.

# %%
frequencies = {policy: war_frequencies(RULES[4], logs=logs[policy]) for policy in logs}
fig, axes = plt.subplots(1, 2, figsize=(19, 6))
for ax, policy in zip(axes, ("greedy", "random")):
    war_heatmap(RULES[4], frequencies=frequencies[policy], ax=ax,
                title=f"{policy}: share of games with a war in the province ({N_WARS:,} games)")
fig.tight_layout()
pd.concat(frequencies, axis=1).loc[:, (slice(None), ["share", "ci_low", "ci_high", "mean_war", "IV", "V", "VI",
                                                     "VII"])].round(2)

# %% [markdown]
# **Reading the maps (default run, 300 games each).** Random players fight a war in nearly every start
# province (95% to 97% of the games, war 3.9 to 4.6 on average) and then mostly in the centre and east:
# Italia Annonaria (78%), Moesia (70%), Belgica (61%), Dalmatia (54%); the far south-west (Lusitania,
# Baetica, Mauretania) and Crete see a war in at most one game of 300. Greedy players, which avoid
# starting wars, fight fewer of them in the start provinces: each of the six in 73% to 76% of the games
# (intervals about ±5 points), war 4.1 to 4.7 on average, in no fixed order. Their other wars
# spread farther over the map: Italia Annonaria (64%), Belgica (55%), Lugdunensis (55%), Moesia (54%),
# Dalmatia (45%), Narbonensis and Macedonia (39% each), Britannia (32%), and every province saw a greedy
# war, down to Lusitania, Baetica and Mauretania (8% to 9%) and Crete (5%).

# %% [markdown]
# ## 5. What is each action tile worth?
#
# A paired comparison: in one run seat 0 plays `greedy:no_TILE`, a greedy player that never uses that
# tile, in the other plain `greedy`; the other seats play `greedy` in both. Both runs use the same seed,
# so game *g* of both runs deals the same cards and picks the same start player, and the two games differ
# only from the first time seat 0 would have used the tile. The value of the tile is seat 0's win rate
# (and VP) with it minus without it, per game, with a 95% interval from the paired differences. This is
# the tile's worth **to a greedy player**, which uses it by a rule of thumb; a better player might get
# more out of it.

# %%
tile_rows, use_rows = [], []
for n in (2, 4):
    base = greedy[n]
    for tile in TILES:
        policies = ",".join([f"greedy:no_{tile}"] + ["greedy"] * (n - 1))
        without = toolkit.simulate("attila", RULES[n], N, seed=SEED, policies=policies, progress=False)
        for column, quantity in (("win_0", "win rate"), ("score_0", "VP")):
            d = stats.paired_difference(base[column], without[column])
            tile_rows.append({"players": n, "tile": tile, "quantity": quantity, "label": f"{n} players: {tile}",
                              "with the tile": d["mean_a"], "without": d["mean_b"], "value": d["difference"],
                              "ci_low": d["ci_low"], "ci_high": d["ci_high"],
                              "games that changed": float(np.mean(base[column].to_numpy()
                                                                  != without[column].to_numpy()))})
        used = base[f"{tile}_used_0"]
        use_rows.append({"players": n, "tile": tile, "share of games used": float((used > 0).mean()),
                         "median turn of use": float(used[used > 0].median()) if (used > 0).any() else np.nan})
tiles = pd.DataFrame(tile_rows)
fig, axes = plt.subplots(1, 2, figsize=(15, 3.8))
for ax, quantity in zip(axes, ("win rate", "VP")):
    plots.interval_plot(tiles[tiles["quantity"] == quantity], ax=ax, value="value", digits=3,
                        xlabel=f"seat 0's {quantity} with the tile minus without (paired, 95% CI)", ylabel="tile",
                        title=f"the value of each tile: {quantity}")
fig.tight_layout()
display(Markdown("**When greedy uses its tiles** (seat 0, greedy self-play):"))
display(pd.DataFrame(use_rows).set_index(["players", "tile"]).round(3))
tiles.drop(columns="label").set_index(["players", "tile", "quantity"]).round(4)

# %% [markdown]
# **Reading the numbers (default run).** With four players two of the tiles matter a lot to `greedy`.
# Without +2 influence seat 0's win rate falls from 25.5% to 12.1%: the tile is worth 13.4 percentage
# points (13.1 to 13.7) and 11.6 VP (11.4 to 11.9). Double turn is worth 7.7 points (7.4 to 8.0) and
# 5.7 VP (5.5 to 5.8). Exchange is worth 0.1 points (0.09 to 0.14) and 0.1 VP: greedy uses it only when
# no card in its hand can be placed, which happens in 1.1% of 4-player games. With two players all three
# tiles are worth little. +2 influence is worth 1.8 points (1.4 to 2.3) and no measurable VP (-0.15,
# -0.41 to 0.10), although greedy uses it in every game (median turn 3). Double turn is worth 1.3 points
# (0.9 to 1.7) and 0.3 VP, although greedy always uses it too (from century VI on, median turn 33 of 65).
# Exchange is worth 0.2 points (0.18 to 0.26): it is used in 1.9% of 2-player games and changes seat 0's
# result in 0.5% of them. These runs do not show why the tiles are worth so much less with two players;
# better tile rules for `greedy` might be worth trying.

# %% [markdown]
# ## 6. The 2-player gap rule
#
# With two players the official variant lets the second place of a tribe score only if it is within 2
# spaces of the first on that tribe's track (`two_player_second_place_gap = 2`, on by default with two
# players). The paired comparison plays the same `N` 2-player greedy games with the gap rule (2) and
# without it (`none`): the differences are "with the rule minus without", per game.

# %%
with_gap = greedy[2]
without_gap = toolkit.simulate("attila", toolkit.rules("attila", num_players=2, two_player_second_place_gap=None), N,
                               seed=SEED, policies="greedy", progress=False)


def two_player_quantities(df):
    vp = df[["score_0", "score_1"]].to_numpy()
    first = df["start_player"].to_numpy()
    return {
        "first player wins": np.take_along_axis(df[["win_0", "win_1"]].to_numpy(), first[:, None], 1)[:, 0],
        "shared win": (df["result"] == "shared").to_numpy(int),
        "winner's VP": vp.max(axis=1),
        "loser's VP": vp.min(axis=1),
        "VP margin": vp.max(axis=1) - vp.min(axis=1),
        "turns": df["turns"].to_numpy(),
        "track end": (df["end_reason"] == "track_end").to_numpy(int),
    }


a, b = two_player_quantities(with_gap), two_player_quantities(without_gap)
gap = pd.DataFrame([{"label": name, **stats.paired_difference(a[name], b[name])} for name in a])
fig, (left, right) = plt.subplots(1, 2, figsize=(15, 3.6))
plots.interval_plot(gap[gap["label"].isin(["first player wins", "shared win", "track end"])], ax=left,
                    value="difference", digits=4, xlabel="with the gap rule minus without (paired, 95% CI)",
                    ylabel="share of games", title="2 players, greedy: shares of games")
plots.interval_plot(gap[gap["label"].isin(["winner's VP", "loser's VP", "VP margin", "turns"])], ax=right,
                    value="difference", digits=2, xlabel="with the gap rule minus without (paired, 95% CI)",
                    ylabel="per game", title="2 players, greedy: VP and length")
fig.tight_layout()
gap[["label", "mean_a", "mean_b", "difference", "ci_low", "ci_high", "se", "se_unpaired"]].rename(
    columns={"mean_a": "with the rule", "mean_b": "without"}).set_index("label").round(4)

# %% [markdown]
# **Reading the numbers (default run).** The gap rule takes VP from whoever trails by more than two spaces
# on a track. The loser of a game scores 13.5 VP less (13.4 to 13.6), the winner 5.4 less (5.3 to 5.5),
# and the margin grows by 8.1 VP (8.0 to 8.2). The first player's edge shrinks a little: he wins 52.3% of
# the games with the rule and 54.0% without (a difference of -1.7 points, -2.1 to -1.3). Shared wins
# become rarer (1.8% against 3.1%). Track ends become more frequent (26.1% against 23.5%, +2.6 points,
# 2.3 to 2.9), and the games 1.4 turns longer: greedy scores positions under the rule in force, and with
# the gap rule it pays to pull far ahead on a track. The paired standard error (`se`) is up to three
# times smaller than two independent runs would give (`se_unpaired`).

# %% [markdown]
# ## 7. How strong are the policies?
#
# Seat 0 plays each policy against three `greedy` players (4 players; the start player is random, so
# seat 0 moves first in a quarter of the games). The fair share is 25%. The lookahead runs are short
# (`N_LOOK` games).

# %%
policy_rows = []
for policy, n_games in (("random", N), ("greedy", N), ("lookahead:4", N_LOOK), ("lookahead", N_LOOK)):
    df = (greedy[4] if policy == "greedy" else
          toolkit.simulate("attila", RULES[4], n_games, seed=SEED, policies=f"{policy},greedy,greedy,greedy",
                           progress=False))
    rate, low, high = toolkit.wilson(int(df["win_0"].sum()), len(df))
    vp, vp_se = stats.mean_se(df["score_0"])
    others, _ = stats.mean_se(df[["score_1", "score_2", "score_3"]].mean(axis=1))
    policy_rows.append({"seat 0 plays": policy, "games": len(df), "win_rate": rate, "ci_low": low, "ci_high": high,
                        "seat 0 VP": vp, "± VP": stats.Z95 * vp_se, "others' mean VP": others})
policy_table = pd.DataFrame(policy_rows)
fig, ax = plt.subplots(figsize=(8, 3.4))
plots.interval_plot(policy_table.rename(columns={"seat 0 plays": "label"}), ax=ax, value="win_rate",
                    reference=0.25, digits=3, xlabel="seat 0's win rate against three greedy players (95% CI)",
                    ylabel="seat 0 plays", title="policy strength, 4 players")
fig.tight_layout()
policy_table.round(3)

# %% [markdown]
# **Reading the numbers (default run).** A random player never beat three greedy ones in 100,000 games
# (the 95% interval reaches 0.004%). Greedy wins its fair share (25.5%, 25.2% to 25.8%). Lookahead wins
# 48.0% of its 200 games (41.2% to 54.9%) with 8 samples and 49.5% (42.6% to 56.4%) with 4, about twice
# the fair share; the two sample counts are equal within the noise. It scores fewer VP than greedy (94
# with 8 samples and 90 with 4, against 116) but keeps its opponents much lower (82 and 81 on average),
# since it values a play by its VP minus the best opponent's.

# %% [markdown]
# ## 8. The deal: exact odds
#
# `odds.summary` computes the hand odds exactly (hypergeometric: 54 cards, 9 per tribe, hands of 6): how
# likely a hand is to hold cards of a given tribe, how many tribes it shows, and so on. They are exact
# fractions, not simulations.

# %%
odds.summary(RULES[4])

# %% [markdown]
# ## 9. Try other rules
#
# The panel below is generated from the `Rules` declaration: one control per parameter, a preset menu and
# a game count. Every change rebuilds the rules (a value that is not allowed shows the reason instead of
# plots), reruns `N_PANEL` games (at least 10,000) of greedy self-play, and redraws the win rate by turn
# order, the game length and how the games ended. Rules reach the compiled kernel as values, so no change
# recompiles anything; greedy plays about 2,000–5,000 games a second on two cores, so a change takes a
# few seconds. With `num_players` = 2, set `two_player_second_place_gap` to 2 for the official 2-player
# rule (the panel keeps the field's value when the player count changes).

# %%
def run(rules, n_games):
    df = toolkit.simulate("attila", rules, n_games, seed=SEED, policies="greedy", progress=False)
    n = rules.num_players
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(15, 3.6))
    plots.means_bar(by_turn_order(df, n), ax=left, x="turn order", value="win_rate", xlabel="turn order",
                    ylabel="win rate", title=f"greedy self-play, {n} players, {len(df):,} games")
    left.axhline(1 / n, color="grey", linestyle="--", linewidth=1)
    plots.length_histogram(df, "turns", ax=middle)
    shares = df["end_reason"].value_counts(normalize=True)
    middle.set_xlabel("turns")
    right.bar(shares.index.astype(str), shares.to_numpy(), color="#9ecae1", edgecolor="black")
    right.set_ylabel("share of games")
    right.set_xlabel("end reason")
    right.set_title(f"how games end (mean wars {df['wars'].mean():.2f})")
    fig.tight_layout()
    return fig


panel = rules_panel("attila", run, preset="standard", n_games=N_PANEL)
panel
