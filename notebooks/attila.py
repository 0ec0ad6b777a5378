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
# of simulated games per run (100,000 by default; the test suite runs the notebook with a small `N`). Every other size follows `N`: the runs with
# slower players, the searches' budgets and samples, the games a panel change replays; at the test's `N`
# every cell runs its real code, but its numbers say nothing).
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
#
# **Which rules are ours.** The seed and the public sources leave parts of Attila open, and the spec fills
# them with stand-ins of our own design (tagged [design] in `docs/rules/attila.md`). The biggest is the
# **map**: no public source gives the provinces' names or which of them border each other, only that there
# are 25 provinces, 6 of them start provinces on the northern border, so `attila_map.json` is a designed
# substitute with late-Roman province names and our own land borders and sea links (parameter `map`).
# Where wars happen (section 4) and how far a tribe can spread are therefore properties of our map, not
# of the published game. Smaller stand-ins: the war support is one pass round the table, a war of a
# single tribe removes nobody, removed figures go back to the supply, action tiles are used at the start
# of a turn, a player with no placeable card discards one, a **stall** (no figure can be placed anywhere)
# ends the game with a scoring, influence is never reset, players with no influence in a tribe are not
# eligible for its scoring, and the start player is drawn at random.

# %%
import os

import matplotlib.container
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import toolkit
from toolkit.core import stats
from toolkit.core.stats import bonferroni_z
from toolkit.games.attila import odds
from toolkit.games.attila.rules import TILES, TRIBES
from toolkit.games.attila.viz import TRIBE_COLOURS, draw_map, war_frequencies, war_heatmap, war_log, war_logs
from toolkit.viz import plots
from toolkit.viz.prose import pct
from toolkit.viz.widgets import rules_panel

N = int(os.environ.get("TOOLKIT_NOTEBOOK_N", "100000"))
N_WARS = min(300, max(2, N // 300))  # reference games for the war maps (about 10 greedy games a second)
N_LOOK = max(2, N // 500)  # games with a lookahead player (about 25 a second against greedy)
N_PANEL = min(N, 20_000)  # games per change of the rules panel
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
# player, so the rates of a row can add up to a little more than 1, and the share each position would get
# if the turn order did not matter is not 1/n but the mean number of winners per game divided by n (1/n
# plus 1/n of the share of games with two winners, and so on), computed from each run: the row `expected`
# and the dashed lines.
#
# Many intervals are read at once here (14 seats; 28 positions over both policies), and one 95% interval
# in twenty misses the truth by chance. So the sentences below call a seat or a position off its expected
# share only when a **Bonferroni-widened** interval (each at 1 − 0.05/m for m intervals, so that all hold
# together with 95%) excludes it.

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
    """Win rate of the player who moves 1st, 2nd, ... (seat = start_player + k, clockwise).

    ``expected`` is the share every position would get if the turn order did not matter: the mean
    number of winners per game over n (a shared win counts for each tied player)."""
    wins = df[[f"win_{s}" for s in range(n)]].to_numpy()
    order = (df["start_player"].to_numpy()[:, None] + np.arange(n)) % n
    by_position = np.take_along_axis(wins, order, axis=1).sum(axis=0)
    expected = df["n_winners"].mean() / n
    rows = []
    for k in range(n):
        rate, low, high = toolkit.wilson(int(by_position[k]), len(df))
        rows.append({"players": f"{n} players", "n": n, "turn order": f"{k + 1}.", "games": len(df),
                     "wins": int(by_position[k]), "win_rate": rate, "ci_low": low, "ci_high": high,
                     "expected": expected})
    return pd.DataFrame(rows)


order_tables = {name: pd.concat([by_turn_order(runs[n], n) for n in PLAYERS], ignore_index=True)
                for name, runs in (("greedy", greedy), ("random", random_runs))}
fig, axes = plt.subplots(1, 2, figsize=(15, 4.4))
for ax, (name, table) in zip(axes, order_tables.items()):
    plots.means_bar(table, ax=ax, x="players", hue="turn order", value="win_rate", xlabel="",
                    ylabel="win rate", title=f"{name} self-play: win rate by turn order, 95% Wilson intervals")
    for i, n in enumerate(PLAYERS):  # dashed: the expected share, mean winners per game / n
        ax.hlines(table[table["n"] == n]["expected"].iloc[0], i - 0.42, i + 0.42, color="grey", linestyle="--",
                  linewidth=1.2, zorder=3)
    ax.set_ylim(0, 0.75)
fig.tight_layout()


def turn_order_text(table):
    table = table.assign(text=[interval_text(*r) for r in table[["win_rate", "ci_low", "ci_high"]].values])
    out = table.pivot(index="turn order", columns="players", values="text").fillna("")
    expected = table.groupby("players")["expected"].first()
    out.loc["expected"] = [f"{expected[c]:.3f}" for c in out.columns]
    return out


pd.concat({name: turn_order_text(table) for name, table in order_tables.items()}, axis=1)


# %%
runs_by_name = {"greedy": greedy, "random": random_runs}
Z_SEATS, Z_ORDER = bonferroni_z(sum(PLAYERS)), bonferroni_z(2 * sum(PLAYERS))


def seat_sentence(n):
    df = greedy[n]
    wins = df[[f"win_{s}" for s in range(n)]].sum().to_numpy()
    expected = df["n_winners"].mean() / n
    _, low, high = toolkit.wilson(wins, len(df), z=Z_SEATS)
    off = [f"seat {s}" for s in range(n) if low[s] > expected or high[s] < expected]
    return (f"- {n} players: the seats win {pct(wins.min() / len(df))} to {pct(wins.max() / len(df))} (expected "
            f"{pct(expected)}); " + ("every widened interval holds it." if not off else
                                     f"**{', '.join(off)} off it** (widened interval)."))


def advantage_sentence(name, n):
    table = order_tables[name][order_tables[name]["n"] == n]
    first, rest = table.iloc[0], table.iloc[1:]
    expected = first["expected"]
    _, low, high = toolkit.wilson(table["wins"].to_numpy(), len(runs_by_name[name][n]), z=Z_ORDER)
    verdict = ("**the first player is favoured**" if low[0] > expected else
               "**the first player is at a disadvantage**" if high[0] < expected else
               "no first-player edge once the comparisons are allowed for")
    others = (f"the second {pct(rest['win_rate'].iloc[0])}" if n == 2 else
              f"the others {pct(rest['win_rate'].min())} to {pct(rest['win_rate'].max())}")
    shared = (runs_by_name[name][n]["n_winners"] > 1).mean()
    return (f"- *{name}, {n} players*: the first player wins "
            f"{pct(first['win_rate'], first['ci_low'], first['ci_high'])} against an expected {pct(expected)} "
            f"({pct(shared)} shared wins); {others}: {verdict}.")


display(Markdown(f"**Reading the numbers (N = {N:,}, seed {SEED}).** The seat numbers of greedy self-play, which "
                 f"should not matter with a random start player (Bonferroni over {sum(PLAYERS)} seats):\n\n"
                 + "\n".join(seat_sentence(n) for n in PLAYERS)
                 + f"\n\nThe turn order (Bonferroni over {2 * sum(PLAYERS)} positions):\n\n"
                 + "\n".join(advantage_sentence(name, n) for name in ("greedy", "random") for n in PLAYERS)))

# %% [markdown]
# One possible reason for a first-player edge is built into the rules: the game ends in the middle of a
# round (at the tenth war or a track end), so the players early in the turn order have often had one more
# turn than the others.

# %% [markdown]
# ## 3. Which tribe dominates?
#
# The rules treat the six tribes alike: the same number of cards and figures, the same start provinces.
# Any difference between them therefore comes from how the players play (or from our map, whose start
# provinces differ in their neighbours). Four measures, each the share of games in which a tribe is at the
# top, with 95% Wilson intervals. A tie counts for every tied tribe, so a row can add up to more than 1,
# and the share each tribe would get if the tribes were equal is not 1/6 but the mean number of tribes
# tied at the top divided by 6, computed for each measure from its games: the dashed line over each group
# of bars.
#
# - **most influence**: the tribe with the highest influence summed over all players at the end
#   (from the `N` simulated games);
# - **winner's tribe**: the tribe in which the winner holds the most influence (games with one winner);
# - **most figures**: the tribe with the most figures on the map at the end, and
# - **pays the winner most**: the tribe that gives the winner the most VP in the final scoring (the
#   biggest of the game); these two need the board, so they come from `N_WARS` reference games.
#
# "No tribe dominates" is a claim about 48 intervals at once (6 tribes, 4 measures, 2 policies), so the
# sentence below tests it with **Bonferroni-widened** intervals (each at 1 − 0.05/48, so that all 48 hold
# together with 95%): a tribe is called off its expected share only when its widened interval excludes it.

# %%
def influence_array(df, n):
    return np.stack([df[[f"influence_{s}_{t}" for t in range(len(TRIBES))]].to_numpy() for s in range(n)], axis=1)


def top_share(values, label, policy):
    """values: (games, 6); the share of games in which each tribe has the (joint) maximum.

    ``expected``: the share of every tribe if they were equal, the mean number of tribes tied at the top / 6."""
    top = values == values.max(axis=1, keepdims=True)
    rate, low, high = toolkit.wilson(top.sum(axis=0), len(values))
    return pd.DataFrame({"tribe": TRIBES, "measure": label, "policy": policy, "games": len(values),
                         "at the top": top.sum(axis=0), "share": rate, "ci_low": low, "ci_high": high,
                         "expected": top.sum(axis=1).mean() / len(TRIBES)})


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
MEASURES = list(dict.fromkeys(tribes["measure"]))
fig, axes = plt.subplots(1, 2, figsize=(15, 4.2), sharey=True)
for ax, policy in zip(axes, ("greedy", "random")):
    shown = tribes[tribes["policy"] == policy]
    plots.means_bar(shown, ax=ax, x="measure", hue="tribe", value="share", xlabel="",
                    ylabel="share of games at the top", title=f"4 players, {policy} self-play")
    bars = [c for c in ax.containers if isinstance(c, matplotlib.container.BarContainer)]
    for tribe, container in zip(TRIBES, bars):  # each tribe in its colour (Goths darker, to show on white)
        for patch in container:
            patch.set_facecolor(TRIBE_COLOURS[tribe] if tribe != "goths" else "#b8860b")
    ax.legend(fontsize=8, title="tribe (bars: 95% CI)", title_fontsize=8)
    for i, measure in enumerate(MEASURES):  # dashed: the expected share, mean tribes tied at the top / 6
        ax.hlines(shown[shown["measure"] == measure]["expected"].iloc[0], i - 0.42, i + 0.42, color="grey",
                  linestyle="--", linewidth=1.2, zorder=3)
fig.tight_layout()
tribe_table = tribes.pivot_table(index=["policy", "measure"], columns="tribe", values="share",
                                 sort=False)[list(TRIBES)]
tribe_table["expected"] = tribes.groupby(["policy", "measure"], sort=False)["expected"].first()
tribe_table.round(3)

# %%
Z_TRIBES = bonferroni_z(len(tribes))


def tribe_sentence(policy, measure):
    rows = tribes[(tribes["policy"] == policy) & (tribes["measure"] == measure)]
    expected = rows["expected"].iloc[0]
    _, low, high = toolkit.wilson(rows["at the top"].to_numpy(), int(rows["games"].iloc[0]), z=Z_TRIBES)
    above = [t for t, lo in zip(rows["tribe"], low) if lo > expected]
    below = [t for t, hi in zip(rows["tribe"], high) if hi < expected]
    top, bottom = rows.loc[rows["share"].idxmax()], rows.loc[rows["share"].idxmin()]
    verdict = ("every widened interval holds the expected share" if not above + below else
               "**off the expected share**: " + "; ".join(part for part in (
                   f"{', '.join(above)} above" if above else "", f"{', '.join(below)} below" if below else "")
                   if part))
    return (f"- *{measure}* ({int(rows['games'].iloc[0]):,} games): from {pct(bottom['share'])} ({bottom['tribe']}) "
            f"to {pct(top['share'])} ({top['tribe']}), each interval about ±"
            f"{100 * (rows['ci_high'] - rows['ci_low']).mean() / 2:.1f} points; expected {pct(expected)} "
            f"({6 * expected:.2f} tribes at the top on average); {verdict}.")


off = sum("off the expected" in tribe_sentence(p, m) for p in ("greedy", "random") for m in MEASURES)
display(Markdown(
    f"**Reading the numbers (N = {N:,}, {N_WARS:,} reference games, seed {SEED}).**\n\n"
    + "\n\n".join(f"*{policy} self-play:*\n\n" + "\n".join(tribe_sentence(policy, m) for m in MEASURES)
                    for policy in ("greedy", "random"))
    + "\n\n" + ("**No tribe dominates** under either policy: all 48 widened intervals hold their expected share."
                  if off == 0 else f"In {off} of the 8 measures a tribe is off its expected share (see above).")))

# %% [markdown]
# Greedy breaks ties between equally good plays at random, so nothing favours a tribe by its number. Where
# its shares are lower than random's, the expected share says why: its tribes tie for the top less often.
# The board measures come from far fewer games, so their intervals are much wider.

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

# %%
ENDS = end_shares.set_index(["policy", "players", "end reason"])
CENTURY_TURNS = centuries.set_index(["policy", "players", "century"])["mean"]


def ending(policy, n, reason):
    """The share of games that ended by ``reason``: a count when it is rare, else a rate with its interval."""
    key = (policy, f"{n} players", reason)
    if key not in ENDS.index:
        return f"0 of {N:,}"
    r = ENDS.loc[key]
    count = int(round(r["share"] * N))
    return f"{count:,} of {N:,}" if count < 1000 else pct(r["share"], r["ci_low"], r["ci_high"])


def end_sentence(policy, n):
    row = pd.DataFrame(end_rows).set_index(["policy", "players"]).loc[(policy, n)]
    turns = [CENTURY_TURNS[(policy, f"{n} players", c)] for c in ("IV", "V", "VI", "VII")]
    longest = ("IV", "V", "VI", "VII")[int(np.nanargmax(turns))]
    return (f"- {n} players: {row['mean turns']:.1f} turns and {row['mean wars']:.2f} wars a game; track end "
            f"{ending(policy, n, 'track_end')}, stall {ending(policy, n, 'stall')}; turns in centuries IV to VII "
            f"{', '.join(f'{t:.1f}' for t in turns)} (most in {longest}).")


display(Markdown(f"**Reading the numbers (N = {N:,}, seed {SEED}).**\n\n" + "\n\n".join(
    f"*{policy} self-play:*\n\n" + "\n".join(end_sentence(policy, n) for n in PLAYERS)
    for policy in ("greedy", "random"))))

# %% [markdown]
# Two things built into the policies help to read these lines: `greedy` avoids starting wars, so it spends
# more turns before each war; and random players spread their influence over the tribes, so their tracks
# seldom reach the end. Century VII holds four peace tiles, the most of any century. A game that ends by
# track end misses the scorings of the centuries it did not finish.

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

# %%
def war_map_sentence(policy):
    f = frequencies[policy]
    start, other = f[f["start"]], f[~f["start"]].sort_values("share", ascending=False)
    busiest = ", ".join(f"{r['name']} {pct(r['share'], digits=0)}" for _, r in other.head(6).iterrows())
    rarest = ", ".join(f"{r['name']} {int(r['wars'])}" for _, r in other.sort_values("share").head(4).iterrows())
    never = int((other["wars"] == 0).sum())
    return (f"- *{policy}* ({int(f['games'].iloc[0]):,} games): each start province sees a war in "
            f"{pct(start['share'].min(), digits=0)} to {pct(start['share'].max(), digits=0)} of the games (war "
            f"{start['mean_war'].min():.1f} to {start['mean_war'].max():.1f} of the game on average; each interval "
            f"about ±{100 * (start['ci_high'] - start['ci_low']).mean() / 2:.0f} points). The busiest other "
            f"provinces: {busiest}. The quietest (wars in {int(f['games'].iloc[0]):,} games): {rarest}; "
            + (f"every one of the {len(other)} other provinces saw a war." if never == 0 else
               f"{never} of the {len(other)} other provinces never saw a war."))


display(Markdown(f"**Reading the maps (seed {SEED}).**\n\n"
                 + "\n".join(war_map_sentence(policy) for policy in ("greedy", "random"))))

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

# %%
TILE_VALUES = tiles.set_index(["players", "tile", "quantity"])
USES = pd.DataFrame(use_rows).set_index(["players", "tile"])
GREEDY_TURNS = {n: greedy[n]["turns"].mean() for n in (2, 4)}


def tile_sentence(n, tile):
    win, vp = TILE_VALUES.loc[(n, tile, "win rate")], TILE_VALUES.loc[(n, tile, "VP")]
    use = USES.loc[(n, tile)]
    worth = ("raises seat 0's win rate" if win["ci_low"] > 0 else "lowers seat 0's win rate" if win["ci_high"] < 0
             else "changes seat 0's win rate by no measurable amount")
    vp_text = (f"{vp['value']:+.2f} VP ({vp['ci_low']:+.2f} to {vp['ci_high']:+.2f})")
    digits = 2 if abs(win["value"]) < 0.005 else 1
    return (f"  - *{tile}* {worth}: {100 * win['value']:+.{digits}f} points "
            f"({100 * win['ci_low']:+.{digits}f} to {100 * win['ci_high']:+.{digits}f}; {pct(win['with the tile'])} "
            "with it, "
            f"{pct(win['without'])} without), and {vp_text}. Greedy uses it in {pct(use['share of games used'])} "
            f"of the games (median turn {use['median turn of use']:.0f}, in games of {GREEDY_TURNS[n]:.0f} turns "
            f"on average); leaving it out changes seat 0's result in {pct(win['games that changed'])} of them.")


display(Markdown(f"**Reading the numbers (N = {N:,} paired games, seed {SEED}).** Six win-rate intervals (three "
                 "tiles, two player counts) are read at once, so one that just clears zero may be chance.\n\n"
                 + "\n".join(
                     f"- {n} players:\n" + "\n".join(tile_sentence(n, tile) for tile in TILES) for n in (2, 4))))

# %% [markdown]
# Greedy uses Exchange only when no card in its hand can be placed, so that tile can only be worth as much
# as those rare turns allow. These runs do not show why a tile is worth more with one player count than
# with another; better tile rules for `greedy` might be worth trying.

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

# %%
GAP = gap.set_index("label")


def gap_text(name, share=False):
    r = GAP.loc[name]
    if share:
        return (f"{pct(r['mean_a'])} with the rule against {pct(r['mean_b'])} without "
                f"({100 * r['difference']:+.1f} points, {100 * r['ci_low']:+.1f} to {100 * r['ci_high']:+.1f})")
    return (f"{r['mean_a']:.1f} against {r['mean_b']:.1f} "
            f"({r['difference']:+.1f}, {r['ci_low']:+.1f} to {r['ci_high']:+.1f})")


ratio = (GAP["se_unpaired"] / GAP["se"]).replace([np.inf], np.nan)
display(Markdown(
    f"**Reading the numbers (N = {N:,} paired games, seed {SEED}).** With the gap rule against without it:\n\n"
    + "\n".join(f"- {name}: {gap_text(name, share=name in ('first player wins', 'shared win', 'track end'))}"
                 for name in GAP.index)
    + f"\n\nTwo independent runs would give standard errors (`se_unpaired`) {ratio.min():.1f} to "
    f"{ratio.max():.1f} times the paired ones (`se`). Seven differences are read at once, so one interval that "
    "just clears zero may be chance."))

# %% [markdown]
# What the rule does by construction: it takes the second-place VP of a tribe from whoever trails the
# leader by more than two spaces on its track. Greedy scores positions under the rule in force, so with the
# gap rule it pays greedy to pull far ahead on a track, which can change how often a track reaches its end.

# %% [markdown]
# ## 7. How strong are the policies?
#
# Seat 0 plays each policy against three `greedy` players (4 players; the start player is random, so
# seat 0 moves first in a quarter of the games). The dashed line is the share a greedy player wins among
# greedy players when a shared win counts for every sharer: the mean number of winners per game of greedy
# self-play divided by 4, a little over 25%. The lookahead runs are short (`N_LOOK` games).

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
FAIR_4 = greedy[4]["n_winners"].mean() / 4  # a greedy player's expected share among greedy players
fig, ax = plt.subplots(figsize=(8, 3.4))
plots.interval_plot(policy_table.rename(columns={"seat 0 plays": "label"}), ax=ax, value="win_rate",
                    reference=FAIR_4, digits=3, xlabel="seat 0's win rate against three greedy players (95% CI; "
                    f"dashed: {FAIR_4:.3f}, the expected share)", ylabel="seat 0 plays",
                    title="policy strength, 4 players")
fig.tight_layout()
policy_table.round(3)

# %%
POLICY = policy_table.set_index("seat 0 plays")


def strength_sentence(policy):
    r = POLICY.loc[policy]
    wins = int(round(r["win_rate"] * r["games"]))
    rate = pct(r["win_rate"], r["ci_low"], r["ci_high"], digits=3 if r["win_rate"] < 0.01 else 1)
    place = ("above" if r["ci_low"] > FAIR_4 else "below" if r["ci_high"] < FAIR_4 else "not apart from")
    others = r["others' mean VP"]
    return (f"- *{policy}* wins {wins:,} of its {int(r['games']):,} games, {rate}: {place} the expected share "
            f"{pct(FAIR_4)}. It scores {r['seat 0 VP']:.1f} VP (± {r['± VP']:.1f}); its three greedy opponents "
            f"{others:.1f} on average.")


look = POLICY.loc[["lookahead:4", "lookahead"]]
look_overlap = look["ci_low"].max() <= look["ci_high"].min()
display(Markdown(
    f"**Reading the numbers (N = {N:,}, seed {SEED}).**\n\n"
    + "\n".join(strength_sentence(policy) for policy in POLICY.index)
    + "\n\nThe two lookahead sample counts (4 and 8) are "
    + ("not apart: their intervals overlap." if look_overlap else "apart: their intervals do not overlap.")))

# %% [markdown]
# Lookahead values a play by its own VP minus the best opponent's, so it can win more often than greedy
# while scoring fewer VP, by keeping its opponents lower.

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
# plots), reruns `N_PANEL` games (`N`, at most 20,000) of greedy self-play, and redraws the win rate by turn
# order, the game length and how the games ended. Rules reach the compiled kernel as values, so no change
# recompiles anything; greedy plays about 2,000–5,000 games a second on two cores, so a change takes a
# few seconds. A field whose default depends on the number of players follows `num_players` until it is
# changed by hand: setting `num_players` to 2 turns on the official 2-player rule
# (`two_player_second_place_gap` = 2), and going back to 3–5 players turns it off again (`none`). The
# dashed line is the expected share, the mean number of winners per game divided by n.

# %%
def run(rules, n_games):
    df = toolkit.simulate("attila", rules, n_games, seed=SEED, policies="greedy", progress=False)
    n = rules.num_players
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(15, 3.6))
    plots.means_bar(by_turn_order(df, n), ax=left, x="turn order", value="win_rate", xlabel="turn order",
                    ylabel="win rate", title=f"greedy self-play, {n} players, {len(df):,} games")
    left.axhline(df["n_winners"].mean() / n, color="grey", linestyle="--", linewidth=1)
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


# %% [markdown]
# ## 10. See a game, play a seat, and which decisions matter
#
# `viewer` opens one seeded game of these rules: the game `toolkit.simulate` plays as row `game_index` with the
# same seed, rules and players. Step through its decisions with the buttons or the slider: the picture, every
# option in words and the chosen one marked. "seen by" a seat shows its own hand and the others' hand sizes; "open" shows every hand and says so. "what `SEARCH` thinks" (mcts:1000 at the default `N`) adds the search's estimate of
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
viewer("attila", RULES[4], policies=("greedy",) * 4, seed=SEED, game_index=0, judge=SEARCH, swing_judge=JUDGE)

# %% [markdown]
# `play` gives you seat 0: your options as buttons under the picture as your seat sees it, the other three seats played by `greedy`
# between your decisions, under the same rules (tweaked ones too). The seed and game number are shown, so
# the game can be opened again in the viewer; what your seat cannot see stays hidden.

# %%
play("attila", RULES[4], policies=("greedy",) * 4, seed=SEED, seat=0)

# %% [markdown]
# **Which decisions matter?** For each decision kind of the spec's §5, over `N_DECISIONS` games of greedy
# self-play (`max(2, N // 200)`: 500 at the default `N`; a kind is judged only from 50 games with it): how often it is forced (a single option), how often it is trivial (every option within 0.02 of
# the best by a search's estimate), and its *impact*, the win probability of the option `JUDGE` (`mcts:200` at the default `N`) picks
# minus the mean over all options, which is what a random choice gets, a decision and summed over a game.
# Each comes with a 95% interval counted over games, and the sentence claims only what the intervals support
# (`toolkit decisions attila -n GAMES --seed SEED` does the same from the command line).

# %%
N_DECISIONS = max(2, N // 200)  # 50 games with a kind are the fewest the sentence judges it on
judged = decisions("attila", RULES[4], n_games=N_DECISIONS, seed=SEED, judge=JUDGE, policies=("greedy",) * 4, progress=False)
display(Markdown(answer(judged)))
shown(judged)
