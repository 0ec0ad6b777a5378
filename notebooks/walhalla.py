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
# # Walhalla: does the turn order decide, where do the points come from, and who wins the fights?
#
# **Walhalla** is a Viking raid game for 3–4 players with majority scoring (spec: `docs/rules/walhalla.md`).
# Three **peninsulas** P0, P1, P2 stick out from the coast; each is a row of fields (two per land tile,
# 6 tiles by default): villages, forests, cult places and wheat fields (printed value 1, 2 or 3). Beyond
# the last field lie an **inner tip** (3, 4 or 5 VP) and an **outer tip** (6, 7 or 8 VP). Four **fjords**
# run along the peninsulas: F0 left of P0, F1 between P0 and P1, F2 between P1 and P2, F3 right of P2.
#
# A game has three **raids**. A raid is a round of turns: the player to move draws one of the 12
# **dragons** (longships with 3 seats, one seat bound to a colour), puts up to 2 of his Vikings from his
# supply (**Midgard**) on it (3 if the coloured seat is his), the owner of the coloured seat may add one,
# and the mover sends the dragon into a fjord, where it moors behind the dragons already there. Each
# Viking then lands on a field level with his seat, on either side of the fjord: a forest gives 2 VP at
# once, a cult place an action card. A field held by another colour means a **fight**: the attacker may
# play an Axe (the defender may cancel it with a Shield), and otherwise the **defender chooses** who wins.
# The loser goes to **Walhalla**; the winner sends one of his Vikings in Walhalla back to the reserve
# (**Asgard**). When the dragons run out (or nobody has a Viking in Midgard), each player may lay Battle
# Horns (+2 strength on a peninsula), Plunder cards (+2 VP) and Walhalla cards, and every peninsula is
# **scored**: the strongest player (1 per Viking, +1 per village) gets the outer tip, the second the
# inner tip, ties share; each occupied wheat field pays its value. Between raids everything but the wheat
# fields is cleared, Vikings come back from Asgard by a ranking of Walhalla counts, and heroes leave
# Walhalla. The final scoring adds 1 VP per occupied field and 6 and 4 VP for the most and second most
# Vikings in Walhalla.
#
# Everything below calls the `toolkit` package; no rule is written in this notebook. `N` sets the number
# of simulated games per run (100,000 by default; the test suite runs the notebook with a small `N`). Every other size follows `N`: the runs with
# slower players, the searches' budgets and samples, the games a panel change replays; at the test's `N`
# every cell runs its real code, but its numbers say nothing).
# Three policies play:
#
# - `random` picks uniformly among the options of every decision (the spec's reference player, §5);
# - `greedy` values a position by what a scoring now would give it (majorities with villages, wheat,
#   and the final field points in the last raid): it boards and sails where its Vikings gain most,
#   lands on the best field, attacks an occupied field only with an Axe, defends (Shield, or choosing to
#   win) when the field is worth at least 2 VP to it, lays every Plunder and Walhalla card and its Horns
#   where they help most, and sells only Walhalla cards before the last raid; ties are broken uniformly
#   at random from the seat's own decision stream;
# - `lookahead` (`lookahead:S`) is `greedy` except for the fjord: it plays the rest of the raid out with
#   greedy players in S guesses of the hidden cards and dragon order (8 by default) and picks the fjord
#   with the best VP margin over the best opponent. It is about 30 times slower, so it plays few games.
#
# **Which rules are ours.** The seed and the public sources leave parts of Walhalla open, and the spec fills
# them with stand-ins of our own design (tagged [design] in `docs/rules/walhalla.md`, W-2 to W-11): the
# contents of the 32-card action deck (how many of each card, printed below) and what each card does,
# above all the **Axe** and the **Shield** in a fight (the fight cards); the land tiles (which field types
# share a tile, the wheat values); where each dragon's coloured seat sits; the reinforcement places below
# the first; the village bonus; where a fight's winner sends his hero; and how a tie for the most Vikings
# in Walhalla is split. Whatever this notebook finds about fights, cards and fields is a finding about
# these stand-ins, not about the published game.

# %%
import os

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import toolkit
from toolkit.core import stats
from toolkit.core.stats import bonferroni_z
from toolkit.games.walhalla import odds
from toolkit.games.walhalla.data import COLOURS, VILLAGE, WHEAT
from toolkit.games.walhalla.reference import VP_SOURCES
from toolkit.games.walhalla.viz import draw_board, replay
from toolkit.viz import plots
from toolkit.viz.prose import pct
from toolkit.viz.widgets import rules_panel

N = int(os.environ.get("TOOLKIT_NOTEBOOK_N", "100000"))
N_LOOK = max(2, N // 100)  # games with a lookahead player (about 70 a second against greedy)
N_PANEL = min(N, 20_000)  # games per change of the rules panel
SEED = 2024
REPLAY_GAME = 0  # the game of the pictures: game 0 of every 4-player greedy run below
PLAYERS = (3, 4)
RULES = {n: toolkit.rules("walhalla", num_players=n) for n in PLAYERS}
VARIABLE = {n: toolkit.rules("walhalla", "variable", num_players=n) for n in PLAYERS}
print(f"N = {N:,} games per run, {N_LOOK:,} with a lookahead player, {N_PANEL:,} per panel change, seed {SEED}")
print("action deck of the standard rules ([design]):", ", ".join(f"{count} {card}"
                                                                for card, count in RULES[4].action_deck.items()))


# %% [markdown]
# ## 1. One game on the board
#
# `replay` plays one seeded game with the readable reference implementation and keeps the position at
# the start of each raid, after every turn and after each raid's scoring. The kernel plays the very same
# game (the two are tested to agree game by game): it is game 0 of every 4-player greedy run below.
#
# The coast is at the bottom. Each peninsula is a column of fields going up from the coast (V village,
# F forest, C cult place, W wheat with its printed value), a thick frame around each tile; above the last
# field are the inner tip (second place) and the outer tip (first place) with their VP. A disc on a
# field is a Viking in its player's colour (seat 0 red, 1 blue, 2 green, 3 yellow). The fjords are the
# blue columns: the s-th dragon in a fjord (from s = 0) lies at positions 3s+1 (bow) to 3s+3, level with
# the fields it can reach; its coloured seat is framed in its colour, and the small discs show the crew
# it brought (they are ashore now, or back in Midgard if no field was free). On the left: the last turn
# of raid 1, its dragon and the field it changed outlined in magenta. On the right: the end of the game.

# %%
game = replay(RULES[4], SEED, REPLAY_GAME)
record = toolkit.simulate("walhalla", RULES[4], 1, seed=SEED, first_game=REPLAY_GAME, policies="greedy",
                          progress=False).iloc[0]
raid1_last = [p for p in game if p.event == "turn" and p.raid == 0][-1]
final = game[-1]
fig, (left, right) = plt.subplots(1, 2, figsize=(24, 8.6))
draw_board(raid1_last, ax=left, legend=False)
draw_board(final, ax=right)
fig.tight_layout()
kernel_vp = [int(record[f"score_{s}"]) for s in range(4)]
same = kernel_vp == list(final.vp) and final.turn == record["turns"]
display(Markdown(
    f"Seat {game[0].start} ({COLOURS[game[0].start]}) starts raid 1. The game lasts {final.turn} turns "
    f"({', '.join(str(record[f'turns_raid_{r}']) for r in range(3))} per raid) with "
    f"{record['combats']} fights and ends with VP {list(final.vp)}: "
    + " and ".join(f"seat {p} ({COLOURS[p]})" for p in final.winners) + " wins. The kernel's record of game "
    f"{REPLAY_GAME}: VP {kernel_vp} in {record['turns']} turns, "
    + ("the same game." if same else "**a different game!**")))

# %% [markdown]
# ### A scoring, worked out
#
# How raid 1 was scored: `odds.peninsula_strengths` and `odds.peninsula_scoring_table` compute each
# peninsula's majority from the board (1 strength per Viking, +1 per village, +2 per Battle Horn laid
# there in the card phase, which the replay notes), with the place, the tie size and the exact share
# before rounding. The second table adds the wheat fields and the Plunder cards and checks the sum
# against the VP the game added.

# %%
scored = game[raid1_last.index + 1]
rules4 = RULES[4]
laid = [v if v else (0, 0, 0, 0, 0) for v in scored.laid]
vikings = [[sum(o == p for o in scored.occupant[k]) for p in range(4)] for k in range(3)]
villages = [[sum(o == p and t == VILLAGE for o, t in zip(scored.occupant[k], scored.field_type[k]))
             for p in range(4)] for k in range(3)]
horns = [[rules4.horn_strength * laid[p][k] for p in range(4)] for k in range(3)]
strengths = odds.peninsula_strengths(rules4, vikings, villages, horns)
majorities = odds.peninsula_scoring_table(rules4, strengths, vikings, scored.inner_tip, scored.outer_tip)
wheat = [sum(v for o, t, v in zip(scored.occupant[k], scored.field_type[k], scored.field_value[k])
             if o == p and t == WHEAT) for k in range(3) for p in range(4)]
check = pd.DataFrame({
    "player": [f"{p} {COLOURS[p]}" for p in range(4)],
    "Horns laid (P0, P1, P2)": [laid[p][:3] for p in range(4)],
    "majorities": majorities.groupby("player")["vp"].sum().to_numpy(),
    "wheat": [sum(wheat[k * 4 + p] for k in range(3)) for p in range(4)],
    "plunder": [rules4.plunder_vp * laid[p][4] for p in range(4)],
    "VP added by the game": [scored.vp[p] - raid1_last.vp[p] for p in range(4)],
}).set_index("player")
check["sum agrees"] = check[["majorities", "wheat", "plunder"]].sum(axis=1) == check["VP added by the game"]
display(majorities.assign(share=majorities["share"].astype(str)).set_index(["peninsula", "player"]))
check

# %% [markdown]
# And the Walhalla majority of the final scoring (`odds.walhalla_majority_table`; the most Vikings in
# Walhalla score 6, the second most 4, ties share rounding up, nobody with an empty Walhalla scores),
# beside the kernel's record of the VP each seat got from it:

# %%
walhalla_table = odds.walhalla_majority_table(rules4, final.walhalla)
walhalla_table["kernel's vp_walhalla"] = [int(record[f"vp_walhalla_{s}"]) for s in range(4)]
walhalla_table.assign(share=walhalla_table["share"].astype(str))

# %% [markdown]
# ### The whole game, turn by turn
#
# The slider replays the game position by position (the play button steps through it): the start of each
# raid, every turn, and each raid's scoring. It needs a live kernel; the pictures above show two of the
# positions without one.

# %%
def board_figure(index):
    fig, ax = plt.subplots(figsize=(13, 8.2))
    draw_board(game[index], ax=ax)
    fig.tight_layout()
    return fig


slider = widgets.IntSlider(value=raid1_last.index, min=0, max=len(game) - 1, description="position",
                           continuous_update=False, layout=widgets.Layout(width="60%"))
play = widgets.Play(value=raid1_last.index, min=0, max=len(game) - 1, interval=900, description="play")
widgets.jslink((play, "value"), (slider, "value"))
board = widgets.Output()


def redraw(change=None):
    with board:
        board.clear_output(wait=True)
        figure = board_figure(slider.value)
        display(figure)
        plt.close(figure)


slider.observe(redraw, names="value")
redraw()
widgets.VBox([widgets.HBox([play, slider]), board])

# %% [markdown]
# ## 2. Does the turn order decide?
#
# Each run plays `N` games of greedy self-play (and of random self-play) with 3 and with 4 players, all on
# one seed. The start player of raid 1 is drawn at random (`start_player = random`, the default), and the
# start passes to the left each raid, so the seat numbers themselves should not matter: the first table
# checks that they do not. What may matter is the **turn order**: the player who starts raid 1, the one
# after him, and so on (position = (seat − start player) mod n; `start_player = seat0` would fix it to the
# seat). A shared win counts for each tied player, so a row can add up to a little more than 1, and the
# share every position would get if the turn order did not matter is not 1/n but the mean number of
# winners per game divided by n (1/n plus 1/n of the share of games with two winners, and so on), computed
# from each run: the row `expected` and the dashed lines. The bars start at zero.
#
# Many intervals are read at once here (one per seat or position, 14 in each table), and one 95% interval
# in twenty misses the truth by chance. So the sentences below call a seat or a position off its expected
# share only when a **Bonferroni-widened** interval (each at 1 − 0.05/14, so that all 14 hold together with
# 95%) excludes it.

# %%
greedy = {n: toolkit.simulate("walhalla", RULES[n], N, seed=SEED, policies="greedy", progress=False)
          for n in PLAYERS}
random_runs = {n: toolkit.simulate("walhalla", RULES[n], N, seed=SEED, policies="random", progress=False)
               for n in PLAYERS}


def interval_text(rate, low, high):
    return f"{rate:.3f} [{low:.3f}, {high:.3f}]"


seat_table = pd.concat({
    name: pd.DataFrame({f"{n} players": {f"seat {row.seat}": interval_text(row.win_rate, row.ci_low, row.ci_high)
                                         for row in toolkit.win_rates(runs[n]).itertuples()} for n in PLAYERS})
    for name, runs in (("greedy", greedy), ("random", random_runs))}, axis=1).fillna("")
display(Markdown("**Win rate by seat number** (95% Wilson intervals):"))
seat_table


# %%
ORDINALS = ("1st", "2nd", "3rd", "4th")


def by_turn_order(df, n):
    """Win rate of the player who starts raid 1, the next one, ... (seat = start_player + k, clockwise).

    ``expected`` is the share every position would get if the turn order did not matter: the mean
    number of winners per game over n (a shared win counts for each tied player)."""
    wins = df[[f"win_{s}" for s in range(n)]].to_numpy()
    order = (df["start_player"].to_numpy()[:, None] + np.arange(n)) % n
    by_position = np.take_along_axis(wins, order, axis=1).sum(axis=0)
    expected = df["n_winners"].mean() / n
    rows = []
    for k in range(n):
        rate, low, high = toolkit.wilson(int(by_position[k]), len(df))
        rows.append({"players": f"{n} players", "n": n, "turn order": ORDINALS[k], "games": len(df),
                     "win_rate": rate, "ci_low": low, "ci_high": high, "expected": expected})
    return pd.DataFrame(rows)


def turn_order_text(table):
    table = table.assign(text=[interval_text(*r) for r in table[["win_rate", "ci_low", "ci_high"]].values])
    out = table.pivot(index="turn order", columns="players", values="text").fillna("")
    expected = table.groupby("players")["expected"].first()
    out.loc["expected"] = [f"{expected[c]:.3f}" for c in out.columns]
    return out


runs_by_name = {"greedy": greedy, "random": random_runs}
order_tables = {name: pd.concat([by_turn_order(runs[n], n) for n in PLAYERS], ignore_index=True)
                for name, runs in runs_by_name.items()}
fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
for ax, (name, table) in zip(axes, order_tables.items()):
    plots.means_bar(table, ax=ax, x="players", hue="turn order", value="win_rate", xlabel="", ylabel="win rate",
                    title=f"{name} self-play: win rate by turn order, 95% Wilson intervals")
    for i, n in enumerate(PLAYERS):  # dashed: the expected share, mean winners per game / n
        ax.hlines(table[table["n"] == n]["expected"].iloc[0], i - 0.42, i + 0.42, color="grey", linestyle="--",
                  linewidth=1.2, zorder=3)
    ax.set_ylim(0, 1.25 * table["ci_high"].max())
fig.tight_layout()
turn_order_table = pd.concat({name: turn_order_text(table) for name, table in order_tables.items()}, axis=1)
turn_order_table


# %%
FAMILY = 2 * sum(PLAYERS)  # intervals in each table: the seats (or positions) of both policies and player counts
Z_FAMILY = bonferroni_z(FAMILY)


def off_expected(counts, games, expected, labels):
    """The labels whose Bonferroni-widened interval lies above / below the expected share."""
    low, high = toolkit.wilson(np.asarray(counts), games, z=Z_FAMILY)[1:]
    return ([lab for lab, lo in zip(labels, low) if lo > expected],
            [lab for lab, hi in zip(labels, high) if hi < expected])


def seat_sentence(name, n):
    df = runs_by_name[name][n]
    wins = df[[f"win_{s}" for s in range(n)]].sum().to_numpy()
    expected = df["n_winners"].mean() / n
    above, below = off_expected(wins, len(df), expected, [f"seat {s}" for s in range(n)])
    verdict = ("every widened interval holds it" if not above + below else
               f"**off it**: {', '.join(above)} above, {', '.join(below) or 'none'} below")
    return (f"- *{name}, {n} players*: the seats win {pct(wins.min() / len(df))} to {pct(wins.max() / len(df))} "
            f"(expected {pct(expected)}); {verdict}.")


def order_sentence(name, n):
    table = order_tables[name][order_tables[name]["n"] == n].reset_index(drop=True)
    best, worst = table.loc[table["win_rate"].idxmax()], table.loc[table["win_rate"].idxmin()]
    expected = table["expected"].iloc[0]
    rates = ", ".join(f"{r.win_rate:.1%}" for r in table.itertuples())
    shared = (runs_by_name[name][n]["n_winners"] > 1).mean()
    wins = np.round(table["win_rate"] * table["games"]).astype(int)
    above, below = off_expected(wins, int(table["games"].iloc[0]), expected, list(table["turn order"]))
    verdict = ("no position is off the expected share once the comparisons are allowed for" if not above + below
               else "**off the expected share**: " + "; ".join(
                   part for part in (f"the {', '.join(above)} above" if above else "",
                                     f"the {', '.join(below)} below" if below else "") if part))
    return (f"- *{name}, {n} players*: {rates} in turn order (expected {pct(expected)}, with {pct(shared)} "
            f"shared wins); the {best['turn order']} player wins most, "
            f"{pct(best['win_rate'], best['ci_low'], best['ci_high'])}, the {worst['turn order']} least, "
            f"{pct(worst['win_rate'], worst['ci_low'], worst['ci_high'])}: "
            f"{100 * (best['win_rate'] - worst['win_rate']):.1f} percentage points apart; {verdict}.")


display(Markdown(f"**Reading the numbers (N = {N:,}, seed {SEED}).** The seat numbers, which should not matter "
                 f"with a random start player (Bonferroni over the {FAMILY} seats):\n\n"
                 + "\n".join(seat_sentence(name, n) for name in ("greedy", "random") for n in PLAYERS)
                 + f"\n\nThe turn order (Bonferroni over the {FAMILY} positions):\n\n"
                 + "\n".join(order_sentence(name, n) for name in ("greedy", "random") for n in PLAYERS)))

# %% [markdown]
# The start passes to the left after each raid, so the first player starts raid 1, the second raid 2 and the
# third raid 3, and with four players the fourth never starts a raid. These runs measure the effect of the
# turn order; they do not show its cause.

# %% [markdown]
# ## 3. Where do the points come from?
#
# Every VP a player scores has one source: the **peninsula** majorities (outer and inner tips, in every
# raid), the **wheat** fields (their printed value in every raid's scoring), the **forests** (2 VP on
# landing), the final **field** points (1 per occupied field at the end), the final **Walhalla** majority
# (6 and 4) and the **Plunder** cards (2 each). The record keeps each seat's VP by source; they add up to
# its score (checked below). The table gives the mean VP per player and game with a 95% interval, and
# the same for the winner (games with a single winner), whose points show what wins.

# %%
def sources(df, n, policy):
    scores = df[[f"score_{s}" for s in range(n)]].to_numpy()
    by_source = {source: df[[f"vp_{source}_{s}" for s in range(n)]].to_numpy() for source in VP_SOURCES}
    assert (sum(by_source.values()) == scores).all(), "the sources add up to the score"
    single = df["n_winners"].to_numpy() == 1
    winner = df["winner"].to_numpy()[single]
    rows = []
    for source, values in [*by_source.items(), ("total", scores)]:
        for who, per_game in (("per player", values.mean(axis=1)),
                              ("winner", values[single, winner])):
            mean, se = stats.mean_se(per_game)
            rows.append({"policy": policy, "players": n, "group": f"{policy}, {n} players", "who": who,
                         "source": source, "mean": mean, "ci_low": mean - stats.Z95 * se,
                         "ci_high": mean + stats.Z95 * se})
    return rows


points = pd.DataFrame([row for name, runs in runs_by_name.items() for n in PLAYERS
                       for row in sources(runs[n], n, name)])
fig, axes = plt.subplots(1, 2, figsize=(15, 4.4), sharey=True)
for ax, who in zip(axes, ("per player", "winner")):
    shown = points[(points["who"] == who) & (points["source"] != "total")]
    plots.means_bar(shown, ax=ax, x="source", hue="group", xlabel="", ylabel="VP per game",
                    title=f"VP by source, {who} (95% CI)")
fig.tight_layout()
points_table = points.pivot_table(index="source", columns=["who", "group"], values="mean", sort=False).round(2)
points_table.columns.names = [None, None]
points_table.index.name = "VP per game from"
points_table

# %%
shares = points[(points["who"] == "per player")].pivot_table(index="source", columns="group", values="mean",
                                                             sort=False)
display(Markdown("**Share of a player's VP by source** (per-player means):"))
(shares.drop(index="total") / shares.loc["total"]).round(3)

# %%
TIPS = sum(game[0].inner_tip) + sum(game[0].outer_tip)  # the six tips, whatever their order on the board
SOURCE_NAMES = {"peninsula": "the majorities", "wheat": "wheat", "forest": "forests", "fields": "the final fields",
                "walhalla": "the Walhalla majority", "plunder": "Plunder"}


def vp(group, source, who="per player"):
    return points.set_index(["who", "group", "source"]).loc[(who, group, source), "mean"]


def source_comparison(n):
    g, r = f"greedy, {n} players", f"random, {n} players"
    return ", ".join(f"{SOURCE_NAMES[source]} {vp(g, source):.1f} against {vp(r, source):.1f}"
                     for source in ("wheat", "forest", "fields"))


def share_range(policy, source):
    values = [shares.loc[source, f"{policy}, {n} players"] / shares.loc["total", f"{policy}, {n} players"]
              for n in PLAYERS]
    low, high = min(values), max(values)
    return f"{low:.0%}" if f"{low:.0%}" == f"{high:.0%}" else f"{low:.0%} to {high:.0%}"


def winner_margins(n):
    group = f"greedy, {n} players"
    margins = {source: vp(group, source, "winner") - vp(group, source) for source in VP_SOURCES}
    return ", ".join(f"{SOURCE_NAMES[source]} {'±0.0' if round(v, 1) == 0 else f'{v:+.1f}'}"
                     for source, v in margins.items())


held = {name: [vp(f"{name}, {n} players", "fields") * n / RULES[n].final_vp_per_occupied_field for n in PLAYERS]
        for name in runs_by_name}
raids = RULES[4].raids
display(Markdown(
    f"**Reading the numbers (N = {N:,}, seed {SEED}).** The peninsula majorities are almost a fixed pot: each "
    f"raid the three peninsulas pay their six tips, {TIPS} VP when every peninsula has a first and a second place "
    f"(a shared place rounds up, so a little more), which makes {raids * TIPS} VP a game, "
    + " and ".join(f"{raids * TIPS / n:.0f} per player with {n} players" for n in PLAYERS)
    + ". Measured: " + " and ".join(f"{vp(f'greedy, {n} players', 'peninsula'):.2f}" for n in PLAYERS)
    + " per greedy player, " + " and ".join(f"{vp(f'random, {n} players', 'peninsula'):.2f}" for n in PLAYERS)
    + " per random one (3 and 4 players).\n\n"
    f"- Greedy against random, VP per player: " + "; ".join(f"{n} players: {source_comparison(n)}" for n in PLAYERS)
    + ". At the end greedy players hold " + " and ".join(f"{v:.1f}" for v in held["greedy"]) + " fields in all, "
    "random ones " + " and ".join(f"{v:.1f}" for v in held["random"]) + " (3 and 4 players).\n"
    "- Share of a player's VP, greedy (random): " + ", ".join(
        f"{SOURCE_NAMES[source]} {share_range('greedy', source)} ({share_range('random', source)})"
        for source in VP_SOURCES) + ".\n"
    "- The winner (games with one winner) against the average greedy player, VP per game by source: "
    + "; ".join(f"{n} players: {winner_margins(n)}" for n in PLAYERS) + "."))

# %% [markdown]
# Wheat pays in every raid's scoring and a Viking on a wheat field stays there between raids, so an early
# wheat field pays once per raid, up to three times.

# %% [markdown]
# ## 4. Fights: how many, and who decides them
#
# A fight starts when a Viking lands on a field held by another colour. The attacker may play an Axe
# (DP-5) and the defender may cancel it with a Shield (DP-6); an uncancelled Axe wins, otherwise the
# defender chooses the winner (DP-7). `defender_choices` counts the DP-7 decisions, `defender_chose_win`
# those in which the defender kept his field. The share of DP-7 decisions the defender wins is the ratio
# of the two totals; its 95% interval treats games, not single decisions, as the independent units
# (the delta method for a ratio of means).

# %%
def ratio_interval(numerator, denominator):
    """sum(numerator) / sum(denominator) over games, with a 95% interval from the per-game pairs."""
    a, b = np.asarray(numerator, float), np.asarray(denominator, float)
    r = a.sum() / b.sum()
    se = np.sqrt(((a - r * b) ** 2).sum()) / b.sum()
    return r, r - stats.Z95 * se, r + stats.Z95 * se


fight_rows, raid_rows = [], []
for name, runs in runs_by_name.items():
    for n in PLAYERS:
        df = runs[n]
        combats, combats_se = stats.mean_se(df["combats"])
        axes_played = df[[f"axes_{s}" for s in range(n)]].sum(axis=1)
        shields = df[[f"shields_{s}" for s in range(n)]].sum(axis=1)
        fight_rows.append({
            "policy": name, "players": n, "combats per game": combats, "± combats": stats.Z95 * combats_se,
            "Axes per game": axes_played.mean(), "Shields per game": shields.mean(),
            "attacker wins": ratio_interval(df["attacker_wins"], df["combats"])[0],
            "DP-7 share of fights": ratio_interval(df["defender_choices"], df["combats"])[0],
            "defender chooses to win": ratio_interval(df["defender_chose_win"], df["defender_choices"])[0],
            "(95% CI)": "[{1:.3f}, {2:.3f}]".format(*ratio_interval(df["defender_chose_win"],
                                                                    df["defender_choices"])),
            "games without a fight": (df["combats"] == 0).mean(),
            **{f"raid {r + 1}": df[f"combats_raid_{r}"].mean() for r in range(3)}})
        for r in range(3):
            mean, se = stats.mean_se(df[f"combats_raid_{r}"])
            raid_rows.append({"group": f"{name}, {n} players", "raid": f"raid {r + 1}", "mean": mean,
                              "ci_low": mean - stats.Z95 * se, "ci_high": mean + stats.Z95 * se})
fights = pd.DataFrame(fight_rows).set_index(["policy", "players"])
fig, ax = plt.subplots(figsize=(9, 4))
plots.means_bar(pd.DataFrame(raid_rows), ax=ax, x="raid", hue="group", xlabel="", ylabel="fights per game",
                title="fights per raid (95% CI)")
fig.tight_layout()
fights.round(3)

# %%
RAID_FIGHTS = pd.DataFrame(raid_rows).set_index(["group", "raid"])["mean"]


def per_raid(name, n):
    return [RAID_FIGHTS[(f"{name}, {n} players", f"raid {k + 1}")] for k in range(RULES[n].raids)]


def fight_lines(name):
    rows = fights.loc[name]
    lines = [f"- *{name}*: " + "; ".join(
        f"{n} players: {r['combats per game']:.2f} ± {r['± combats']:.2f} fights a game "
        f"({', '.join(f'{v:.2f}' for v in per_raid(name, n))} in raids 1 to 3), "
        f"{int(round(r['games without a fight'] * N)):,} of {N:,} games without a fight"
        for n, r in rows.iterrows()) + "."]
    for n, r in rows.iterrows():
        low, high = (float(v) for v in r["(95% CI)"].strip("[]").split(", "))
        by_axe = 1 - r["DP-7 share of fights"]
        lines.append(
            f"  - {n} players: {r['Axes per game']:.1f} Axes and {r['Shields per game']:.2f} Shields played per game; "
            f"an uncancelled Axe decides {pct(by_axe)} of the fights, the defender chooses in the other "
            f"{pct(r['DP-7 share of fights'])} and keeps his field in {pct(r['defender chooses to win'], low, high)} "
            f"of those choices; the attacker wins {pct(r['attacker wins'])} of the fights, "
            f"{pct(by_axe / r['attacker wins'], digits=0)} of those wins by an Axe.")
    return lines


def uniform_check(n):
    r = fights.loc[("random", n)]
    low, high = (float(v) for v in r["(95% CI)"].strip("[]").split(", "))
    holds = low <= 0.5 <= high
    return (f"{n} players: {pct(r['defender chooses to win'], low, high)}, "
            + ("0.5 inside the interval" if holds else "**0.5 outside the interval**"))


display(Markdown(
    f"**Reading the numbers (N = {N:,}, seed {SEED}).**\n\n" + "\n".join(fight_lines("greedy") + fight_lines("random"))
    + "\n\nA random defender should choose to win half of the time: " + "; ".join(uniform_check(n) for n in PLAYERS)
    + ". (Two intervals are read here; with 95% each, one of them misses the truth in about one run of ten.)"))

# %% [markdown]
# Two things built into the rules and the policies help to read these lines. A greedy defender defends
# whenever the field is worth at least 2 VP to it, and winning costs it one of its Vikings in Walhalla
# (moved to Asgard). And the wheat fields kept from the earlier raids are occupied from the first turn of
# raids 2 and 3, so a later raid can start with fields to fight over.

# %% [markdown]
# ## 5. Variable peninsula lengths
#
# The `variable` preset (the advanced game) draws the peninsula lengths: one of the 18-tile combinations
# {5,5,8}, {5,6,7} and {6,6,6}, each with probability 1/3, in a random order over P0..P2 (W-2.1). The
# runs below play `N` greedy games with it, on the same seed as the standard runs. The games cannot be
# paired with the standard ones: the length draw comes first on the chance stream, so everything after
# it (tiles, tips, cards, dragons) differs even for the same game number. The comparison is side by
# side, each number with its own interval; the variable games are also split by their combination (the
# {6,6,6} third is the standard game, a check).

# %%
variable = {n: toolkit.simulate("walhalla", VARIABLE[n], N, seed=SEED, policies="greedy", progress=False)
            for n in PLAYERS}


def layout_of(df):
    lengths = np.sort(df[["length_0", "length_1", "length_2"]].to_numpy(), axis=1)
    return pd.Series([",".join(map(str, row)) for row in lengths], index=df.index)


def length_rows(df, n, label):
    first = np.take_along_axis(df[[f"win_{s}" for s in range(n)]].to_numpy(), df["start_player"].to_numpy()[:, None],
                               axis=1)[:, 0]
    scores = df[[f"score_{s}" for s in range(n)]].to_numpy()
    quantities = {"first player wins": first, "shared win": (df["n_winners"] > 1).to_numpy(float),
                  "winner's VP": scores.max(axis=1), "VP margin (1st - 2nd)": np.diff(np.sort(scores, axis=1)[:, -2:],
                                                                                        axis=1)[:, 0],
                  "fights": df["combats"].to_numpy(),
                  "peninsula VP per player": df[[f"vp_peninsula_{s}" for s in range(n)]].to_numpy().mean(axis=1),
                  "wheat VP per player": df[[f"vp_wheat_{s}" for s in range(n)]].to_numpy().mean(axis=1)}
    rows = []
    for quantity, values in quantities.items():
        mean, se = stats.mean_se(values)
        rows.append({"players": n, "rules": label, "games": len(values), "quantity": quantity, "mean": mean,
                     "ci_low": mean - stats.Z95 * se, "ci_high": mean + stats.Z95 * se})
    return rows


length_table = []
for n in PLAYERS:
    length_table += length_rows(greedy[n], n, "standard 6,6,6")
    length_table += length_rows(variable[n], n, "variable (all)")
    layouts = layout_of(variable[n])
    for layout in ("5,5,8", "5,6,7", "6,6,6"):
        length_table += length_rows(variable[n][layouts == layout], n, f"variable {layout}")
length_table = pd.DataFrame(length_table)
length_table["text"] = [f"{m:.3f} [{lo:.3f}, {hi:.3f}]" if abs(m) < 1 else f"{m:.2f} [{lo:.2f}, {hi:.2f}]"
                        for m, lo, hi in length_table[["mean", "ci_low", "ci_high"]].values]
fig, axes = plt.subplots(1, 2, figsize=(15, 4.2))
for ax, quantity in zip(axes, ("first player wins", "fights")):
    shown = length_table[length_table["quantity"] == quantity].assign(players=lambda t: t["players"].astype(str)
                                                                      + " players")
    plots.means_bar(shown, ax=ax, x="players", hue="rules", xlabel="", ylabel=quantity,
                    title=f"greedy self-play: {quantity} (95% CI)")
axes[0].set_ylim(0, 0.55)
fig.tight_layout()
length_table.pivot_table(index=["players", "quantity"], columns="rules", values="text", aggfunc="first",
                         sort=False)[["standard 6,6,6", "variable (all)", "variable 5,5,8", "variable 5,6,7",
                                      "variable 6,6,6"]]

# %%
variable_order = pd.concat([by_turn_order(variable[n], n) for n in PLAYERS], ignore_index=True)
display(Markdown("**Win rate by turn order, variable lengths, greedy self-play** (95% Wilson intervals):"))
turn_order_text(variable_order)

# %%
LENGTHS = length_table.set_index(["players", "rules", "quantity"])


def compared(n, quantity, a, b, digits=2):
    """``a`` against ``b`` for one quantity, and whether their 95% intervals overlap."""
    x, y = LENGTHS.loc[(n, a, quantity)], LENGTHS.loc[(n, b, quantity)]
    overlap = x["ci_low"] <= y["ci_high"] and y["ci_low"] <= x["ci_high"]
    fmt = (lambda v: f"{v:.1%}") if quantity in ("first player wins", "shared win") else (lambda v: f"{v:.{digits}f}")
    return f"{fmt(x['mean'])} against {fmt(y['mean'])}", overlap


def apart(quantities, n, a, b):
    """The quantities whose intervals do not overlap."""
    return [q for q in quantities if not compared(n, q, a, b)[1]]


QUANTITIES = list(dict.fromkeys(length_table["quantity"]))
lines = []
for n in PLAYERS:
    differ = apart(QUANTITIES, n, "variable (all)", "standard 6,6,6")
    lines.append(f"- *{n} players, variable against standard*: " + "; ".join(
        f"{q} {compared(n, q, 'variable (all)', 'standard 6,6,6')[0]}" for q in QUANTITIES) + ". "
        + ("Every pair of intervals overlaps." if not differ else
           f"The intervals do not overlap for {', '.join(differ)}."))
    order = variable_order[variable_order["n"] == n]
    lines.append(f"  - turn order, variable lengths: {', '.join(f'{r:.1%}' for r in order['win_rate'])} "
                 f"(expected {pct(order['expected'].iloc[0])}).")
    lines.append(f"  - wheat VP per player on the {{5,5,8}} boards against the {{6,6,6}} third: "
                 f"{compared(n, 'wheat VP per player', 'variable 5,5,8', 'variable 6,6,6')[0]}"
                 + ("" if compared(n, 'wheat VP per player', 'variable 5,5,8', 'variable 6,6,6')[1]
                    else " (the intervals do not overlap)") + ".")
    check = apart(QUANTITIES, n, "variable 6,6,6", "standard 6,6,6")
    lines.append(f"  - the {{6,6,6}} third of the variable games against the standard run (they must agree): "
                 + ("every pair of intervals overlaps." if not check else
                    f"**the intervals do not overlap for {', '.join(check)}** (of {len(QUANTITIES)} compared)."))
display(Markdown(f"**Reading the numbers (N = {N:,}, seed {SEED}).** Each line compares {len(QUANTITIES)} "
                 "quantities, so one pair of 95% intervals that fails to overlap may be chance.\n\n"
                 + "\n".join(lines)))

# %% [markdown]
# One reason the longer peninsulas could change the wheat and the fights: the far fields of an 8-tile
# peninsula (positions 13 to 16) are reached only by the fifth and sixth dragons of a fjord (a dragon moored
# behind s others lies at positions 3s+1 to 3s+3).

# %% [markdown]
# ## 6. How strong are the policies?
#
# Seat 0 plays each policy against three `greedy` players (4 players; the start player is random, so
# seat 0 starts raid 1 in a quarter of the games). The dashed line is the share a greedy player wins among
# greedy players when a shared win counts for every sharer: the mean number of winners per game of greedy
# self-play divided by 4, a little over 25%. The lookahead runs are short (`N_LOOK` games).

# %%
policy_rows = []
for policy, n_games in (("random", N), ("greedy", N), ("lookahead:4", N_LOOK), ("lookahead", N_LOOK)):
    df = (greedy[4] if policy == "greedy" else
          toolkit.simulate("walhalla", RULES[4], n_games, seed=SEED, policies=f"{policy},greedy,greedy,greedy",
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
    f"**Reading the numbers (N = {N:,}, seed {SEED}).**\n\n" + "\n".join(strength_sentence(p) for p in POLICY.index)
    + "\n\nThe two lookahead sample counts (4 and 8) are "
    + ("not apart: their intervals overlap." if look_overlap else "apart: their intervals do not overlap.")
    + " Lookahead's win rate minus greedy's own: " + " and ".join(
        f"{100 * (look.loc[p, 'win_rate'] - POLICY.loc['greedy', 'win_rate']):+.1f}" for p in look.index)
    + " percentage points (4 and 8 samples)."))

# %% [markdown]
# Only the fjord choice differs between `lookahead` and `greedy`, so what lookahead gains is the worth of
# choosing the fjord by playing the raid out; better boarding, landing and card rules might be worth more.

# %% [markdown]
# ## 7. The setup and the fjords: exact odds
#
# `odds.summary` computes, as exact fractions (no simulation), the law of the peninsula lengths, what a
# peninsula holds (villages, wheat), the tips, how likely a fjord is still open after k dragons when
# every fjord is chosen at random (the `random` policy), and three majority examples. First the
# standard rules, then the variable preset.

# %%
odds.summary(RULES[4])

# %%
odds.summary(VARIABLE[4])

# %% [markdown]
# ## 8. Try other rules
#
# The panel below is generated from the `Rules` declaration: one control per parameter, a preset menu and
# a game count. Every change rebuilds the rules (a value that is not allowed shows the reason instead of
# plots), reruns `N_PANEL` games (`N`, at most 20,000) of greedy self-play, and redraws the win rate by turn
# order, the VP per player by source and the number of fights per game. Rules reach the compiled kernel
# as values, so no change recompiles anything; greedy plays about 2,000 games a second on two cores, so a
# change takes a few seconds. The fields whose default depends on the number of players (`start_midgard`,
# `reinforcement_table`) follow `num_players` until they are changed by hand.

# %%
def run(rules, n_games):
    df = toolkit.simulate("walhalla", rules, n_games, seed=SEED, policies="greedy", progress=False)
    n = rules.num_players
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(16, 3.8))
    order = by_turn_order(df, n)
    plots.means_bar(order, ax=left, x="turn order", value="win_rate", xlabel="turn order",
                    ylabel="win rate", title=f"greedy self-play, {n} players, {len(df):,} games")
    left.axhline(order["expected"].iloc[0], color="grey", linestyle="--", linewidth=1)
    shown = pd.DataFrame([row for row in sources(df, n, "greedy")
                          if row["who"] == "per player" and row["source"] != "total"])
    plots.means_bar(shown, ax=middle, x="source", xlabel="", ylabel="VP per player and game",
                    title="VP by source (95% CI)")
    plots.length_histogram(df, "combats", ax=right)
    right.set_xlabel("fights per game")
    fig.tight_layout()
    return fig


panel = rules_panel("walhalla", run, preset="standard", n_games=N_PANEL)
panel


# %% [markdown]
# ## 9. See a game, play a seat, and which decisions matter
#
# `viewer` opens one seeded game of these rules: the game `toolkit.simulate` plays as row `game_index` with the
# same seed, rules and players. Step through its decisions with the buttons or the slider: the picture, every
# option in words and the chosen one marked. "seen by" a seat shows its own cards and the others' card counts; "open" shows every hand and says so. "what `SEARCH` thinks" (mcts:1000 at the default `N`) adds the search's estimate of
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
viewer("walhalla", RULES[4], policies=("greedy",) * 4, seed=SEED, game_index=0, judge=SEARCH, swing_judge=JUDGE)

# %% [markdown]
# `play` gives you seat 0: your options as buttons under the picture as your seat sees it, the other three seats played by `greedy`
# between your decisions, under the same rules (tweaked ones too). The seed and game number are shown, so
# the game can be opened again in the viewer; what your seat cannot see stays hidden.

# %%
play("walhalla", RULES[4], policies=("greedy",) * 4, seed=SEED, seat=0)

# %% [markdown]
# **Which decisions matter?** For each decision kind of the spec's §5, over `N_DECISIONS` games of greedy
# self-play (`max(2, N // 200)`: 500 at the default `N`; a kind is judged only from 50 games with it): how often it is forced (a single option), how often it is trivial (every option within 0.02 of
# the best by a search's estimate), and its *impact*, the win probability of the option `JUDGE` (`mcts:200` at the default `N`) picks
# minus the mean over all options, which is what a random choice gets, a decision and summed over a game.
# Each comes with a 95% interval counted over games, and the sentence claims only what the intervals support
# (`toolkit decisions walhalla -n GAMES --seed SEED` does the same from the command line).

# %%
N_DECISIONS = max(2, N // 200)  # 50 games with a kind are the fewest the sentence judges it on
judged = decisions("walhalla", RULES[4], n_games=N_DECISIONS, seed=SEED, judge=JUDGE, policies=("greedy",) * 4, progress=False)
display(Markdown(answer(judged)))
shown(judged)
