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
# # Halali: who wins the hunt, and where do the captures happen?
#
# **Halali** is a two-player game of face-down tiles on a 7×7 forest (spec: `docs/rules/halali.md`). The 48
# tiles fill every square except the centre d4. **Blue** plays the animals: 2 bears (move 1 square,
# capture hunters and lumberjacks) and 6 foxes (move any distance, capture ducks and pheasants). **Brown**
# plays the people: 2 lumberjacks (move 1, fell trees) and 8 hunters (move any distance, but shoot only
# in the direction their gun points, which is fixed by how the tile lies). The 8 pheasants and 7 ducks are
# neutral, and either player may move them; the 15 trees never move.
#
# A turn is one action: turn a face-down tile over, or move a face-up tile in a straight line over empty
# squares, capturing by landing on a tile it may take. A neutral tile that one player has just revealed or
# moved may not be moved by the other on his next turn, and nobody may move his own tile straight back.
# Once the last tile is face up, each player gets exactly **five more actions**, and only then may tiles
# leave the forest through the four exit squares (d7, g4, d1, a4) to be **rescued**. Captured and rescued
# tiles score their points (bear 10; fox, hunter and lumberjack 5; pheasant 3; duck and tree 2), and the
# higher total wins. Blue moves first. To stop endless shuffling, after 60 actions without a reveal,
# capture or exit the player to move must reveal a tile (`progress_limit`, our design).
#
# Everything below calls the `toolkit` package; no rule is written in this notebook. `N` sets the number
# of simulated games (100,000 by default; the test suite runs the notebook with a small `N`). Every other size follows `N`: the runs with
# slower players, the searches' budgets and samples, the games a panel change replays; at the test's `N`
# every cell runs its real code, but its numbers say nothing). Three
# policies play: `random` (uniform over the legal actions: the spec's reference player), `greedy` (takes
# the most points now, avoids leaving a tile where it can be taken, reveals when nothing better is on) and
# `lookahead` (also weighs every reveal by what it may show: about three times slower than `greedy`, and
# much slower still in self-play, whose games are long). **In a single game seat 0 is Blue.**

# %%
import os

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import toolkit
from toolkit.analysis import tournament
from toolkit.core import stats
from toolkit.games.halali import kernel, odds
from toolkit.games.halali.reference import FACE_DOWN
from toolkit.games.halali.replay import positions
from toolkit.games.halali.rules import KINDS
from toolkit.games.halali.viz import capture_heatmap, draw_board
from toolkit.viz import plots
from toolkit.viz.prose import caution, pct
from toolkit.viz.widgets import rules_panel

N = int(os.environ.get("TOOLKIT_NOTEBOOK_N", "100000"))
N_LOOK = max(2, N // 20)  # lookahead self-play (a few hundred games a second: its games are long)
N_POLICY = max(2, N // 20)  # games per ordered pair of policies in section 9
N_NO_GUARD = max(2, N // 2000)  # lookahead self-play without the loop guard (most games hit the action cap)
N_PANEL = N  # games per change of the rules panel
SEED = 2024
REPLAY_GAME = 0  # the game of the replay: game 0 of every run below

STANDARD = toolkit.rules("halali", "standard")
print(f"N = {N:,} games per run, {N_LOOK:,} lookahead self-play games, {N_POLICY:,} per policy pair, "
      f"seed {SEED}")


# %% [markdown]
# ## 1. One game, move by move
#
# `positions` replays one seeded game with the readable reference implementation and keeps the board after
# every action. The kernel plays the very same game (the two are tested to agree game by game), so this is
# game 0 of every `greedy` (Blue) against `random` (Brown) run below. On the left the start: 48 grey backs
# around the empty centre (dashed ring), the exit squares with their orange arrows. On the right the
# middle of the game: tiles coloured by kind (blues for Blue's bears and foxes, browns for Brown's
# lumberjacks and hunters, greens for the neutral pheasants and ducks and for the trees), a red arrow for
# each face-up hunter's gun, and a magenta frame around the squares of the action just taken.

# %%
game = positions(STANDARD, SEED, REPLAY_GAME, ("greedy", "random"))
record = toolkit.simulate("halali", STANDARD, 1, seed=SEED, first_game=REPLAY_GAME, policies="greedy,random",
                          progress=False).iloc[0]
middle = game[len(game) // 2]
fig, (left, right) = plt.subplots(1, 2, figsize=(15, 6.6))
draw_board(game[0], STANDARD, ax=left, legend=False)
draw_board(middle, STANDARD, ax=right)
fig.tight_layout()
final = game[-1]
same = final.match_scores == (record["score_0"], record["score_1"]) and final.turn == record["turns"]
display(Markdown(
    f"The game lasts **{final.turn} turns** ({final.face_down} tiles face down at the end, "
    f"end: `{final.end_reason}`). Final score: Blue (greedy) **{final.scores[0]}**, Brown (random) "
    f"**{final.scores[1]}**. The kernel's record of game {REPLAY_GAME}: {record['score_0']} to "
    f"{record['score_1']} in {record['turns']} turns, " + ("the same game." if same else "**a different game!**")))

# %% [markdown]
# Every capture and rescue of the game, with the running score:

# %%
events = pd.DataFrame([
    {"turn": s.turn, "phase": s.phase, "player": "Blue" if s.colour[s.seat] == 0 else "Brown", "action": s.action,
     "Blue": s.scores[s.blue_seat], "Brown": s.scores[1 - s.blue_seat]}
    for s in game if " captures " in s.action or s.action.endswith(" exits")])
events

# %% [markdown]
# The slider replays the game position by position (the play button steps through it). It needs a live
# kernel; the static pictures above show the same boards without one.

# %%
def board_figure(index):
    fig, ax = plt.subplots(figsize=(8.5, 6.6))
    draw_board(game[index], STANDARD, ax=ax)
    fig.tight_layout()
    return fig


slider = widgets.IntSlider(value=middle.index, min=0, max=len(game) - 1, description="position",
                           continuous_update=False, layout=widgets.Layout(width="60%"))
play = widgets.Play(value=middle.index, min=0, max=len(game) - 1, interval=800, description="play")
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
# ### Is the next reveal safe?
#
# Face-down tiles never move, so every face-down square hides one of the kinds still unseen, each tile
# equally likely (`toolkit.games.halali.odds`, exact fractions). A reveal can turn up an enemy that can
# capture at once: a hunter whose gun points at a fox down an open line, a bear beside a hunter. The map
# below gives, for each face-down square of the middle position, the exact probability that revealing it lets the opponent
# capture one of the mover's tiles on the next move that he could not capture before (the lock and
# no-return rules ignored). Empty and face-up squares are blank. The table beside it lists what a reveal
# shows, at the start and here.

# %%
view = middle.view(STANDARD)
mover = "Blue" if view.colour[view.seat] == 0 else "Brown"
exposure = np.full(49, np.nan)
for square in range(49):
    if view.grid[square] == FACE_DOWN:
        exposure[square] = float(odds.exposure_probability(view, square, view.seat))
fig, (left, right) = plt.subplots(1, 2, figsize=(14, 5.6), gridspec_kw={"width_ratios": [1.25, 1]})
draw_board(middle, STANDARD, ax=left)
capture_heatmap(exposure, ax=right, cmap="Reds", fmt="{:.2f}",
                value_label=f"P(reveal exposes a {mover} tile)",
                title=f"{mover} to move: the risk of each reveal")
fig.tight_layout()
pd.DataFrame({"P(kind), first reveal": {k: float(p) for k, p in odds.reveal_distribution(STANDARD).items()},
              "P(kind), reveal here": {k: float(p) for k, p in
                                       odds.reveal_distribution(view.face_down_counts).items()},
              "face down here": dict(zip(KINDS, view.face_down_counts))}).round(4)

# %% [markdown]
# ## 2. Simulated games
#
# Each run plays `N` games on one seed, so game *g* of every run starts from the same shuffle and gun
# directions (common random numbers). The names read "Blue's policy vs Brown's policy". `lookahead`
# self-play is slow (its games are long, see section 7), so it plays `N_LOOK` games. The last two runs
# let **Brown move first** (`first_player = brown`): they separate the advantage of moving first from
# the advantage of the colour.

# %%
BROWN_FIRST = toolkit.rules("halali", first_player="brown")
lineups = {  # name -> (rules, Blue's policy, Brown's policy, games)
    "random vs random": (STANDARD, "random", "random", N),
    "greedy vs greedy": (STANDARD, "greedy", "greedy", N),
    "greedy vs random": (STANDARD, "greedy", "random", N),
    "random vs greedy": (STANDARD, "random", "greedy", N),
    "lookahead vs lookahead": (STANDARD, "lookahead", "lookahead", N_LOOK),
    "random vs random, Brown first": (BROWN_FIRST, "random", "random", N),
    "greedy vs greedy, Brown first": (BROWN_FIRST, "greedy", "greedy", N),
}
runs = {name: toolkit.simulate("halali", rules, n, seed=SEED, policies=f"{blue},{brown}", progress=False)
        for name, (rules, blue, brown, n) in lineups.items()}
pd.DataFrame({
    name: {
        "games": len(df),
        "P(Blue wins)": df["win_0"].mean(),
        "P(Brown wins)": df["win_1"].mean(),
        "P(draw)": (df["result"] == "draw").mean(),
        "mean score Blue": df["score_0"].mean(),
        "mean score Brown": df["score_1"].mean(),
        "mean turns": df["turns"].mean(),
        "share ended early": (df["end_reason"] == "early_end").mean(),
        "forced reveals per game": df["forced_reveal_turns"].mean(),
    }
    for name, df in runs.items()
}).round(3)

# %% [markdown]
# ## 3. Where are tiles captured?
#
# `kernel.capture_heat` plays games like `toolkit.simulate` and counts every capture on the square where
# it happens (the square the captured tile stood on). Shown per game, rank 7 on top as on the board above;
# the three line-ups play the same shuffles.

# %%
heat_runs = [("random", "random", N), ("greedy", "greedy", N), ("lookahead", "lookahead", N_LOOK)]
heats = {}
fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
for ax, (blue, brown, n) in zip(axes, heat_runs):
    heat, _ = kernel.capture_heat(kernel.to_kernel(STANDARD), kernel.policy_ids((blue, brown)), SEED, 0, n)
    heats[f"{blue} vs {brown}"] = heat / n
    capture_heatmap(heat, ax=ax, per=n, fmt="{:.2f}", title=f"{blue} vs {brown}: captures per game ({n:,} games)")
fig.tight_layout()

# %% [markdown]
# The sentences below are computed from the maps: corners against the other edge squares and the inner
# squares, the centre against its four neighbours, and the bottom three ranks (1–3) against the top three
# (5–7). `greedy` breaks ties by the canonical option order, which lists
# reveals from a1 upwards, so its early reveals, and the fights they start, sit in the lower ranks.

# %%
def heat_sentence(name, h):
    corners = h[[0, 0, 6, 6], [0, 6, 0, 6]].mean()
    edge = np.zeros((7, 7), bool)
    edge[[0, 6], :] = edge[:, [0, 6]] = True
    edge[[0, 0, 6, 6], [0, 6, 0, 6]] = False
    inner = np.ones((7, 7), bool)
    inner[[0, 6], :] = inner[:, [0, 6]] = False
    centre, around = h[3, 3], h[[2, 4, 3, 3], [3, 3, 2, 4]].mean()
    low, high = h[:3].sum(), h[4:].sum()
    return (f"- *{name}*: {h.sum():.2f} captures per game; a corner sees {corners:.3f}, another edge square "
            f"{h[edge].mean():.3f}, an inner square {h[inner].mean():.3f}; the centre d4 {centre:.3f} against "
            f"{around:.3f} on its neighbours; ranks 1–3 hold {low / h.sum():.1%} of the captures, ranks 5–7 "
            f"{high / h.sum():.1%}.")


display(Markdown("\n".join(heat_sentence(name, h) for name, h in heats.items())))

# %%
def heat_ratios(h):
    """(corner / inner square, d4 / its four neighbours, share of ranks 1-3, share of ranks 5-7)."""
    inner = np.ones((7, 7), bool)
    inner[[0, 6], :] = inner[:, [0, 6]] = False
    corner = h[[0, 0, 6, 6], [0, 6, 0, 6]].mean()
    around = h[[2, 4, 3, 3], [3, 3, 2, 4]].mean()
    return corner / h[inner].mean(), h[3, 3] / around, h[:3].sum() / h.sum(), h[4:].sum() / h.sum()


ratios = {name: heat_ratios(h) for name, h in heats.items()}
display(Markdown(f"**Reading the maps (N = {N:,}, seed {SEED}).**\n\n" + "\n".join(
    f"- *{name}*: a corner sees {corner:.2f} times the captures of an inner square; the centre d4 "
    f"{centre:.2f} times those of its neighbours; ranks 1–3 hold {pct(low)} of the captures, ranks 5–7 "
    f"{pct(high)}." for name, (corner, centre, low, high) in ratios.items())))

# %% [markdown]
# What the rules and the policies suggest about these ratios (they explain, the numbers above decide): fewer
# lines reach a corner than an inner square. The centre d4 starts empty and a tile gets there only by a
# plain move; `greedy` makes plain moves only when nothing pays (it prefers to reveal), so under greedy
# play there is seldom anything on d4 to capture, while random players move there as often as anywhere.
# And greedy's tie-break order lists reveals from a1 upwards, which may tilt its fights towards the lower
# ranks.

# %% [markdown]
# ## 4. Blue or Brown: who wins?
#
# The bars are the win rates of Blue (seat 0) and Brown (seat 1) in each line-up, with 95% Wilson
# intervals; a draw (equal points and equal tiles) counts for neither, so an even game gives each colour
# half of the games that had a winner, (1 − share of draws) / 2: the dashed line over each line-up. In
# self-play only the colour (and who moves first) differs between the two players, so the two bars of a
# self-play line-up measure the balance of the game.

# %%
colour_rows = []
for name, df in runs.items():
    for colour, column in (("Blue", "win_0"), ("Brown", "win_1")):
        rate, low, high = toolkit.wilson(int(df[column].sum()), len(df))
        colour_rows.append({"line-up": name, "colour": colour, "games": len(df), "win_rate": rate, "ci_low": low,
                            "ci_high": high})
colours = pd.DataFrame(colour_rows)
fig, ax = plt.subplots(figsize=(14, 4.4))
plots.means_bar(colours, ax=ax, x="line-up", hue="colour", value="win_rate", xlabel="line-up (Blue vs Brown)",
                ylabel="win rate", title="win rate by colour, 95% Wilson intervals")
for i, df in enumerate(runs.values()):  # dashed: an even share of the games that had a winner, (1 - draws) / 2
    ax.hlines((1 - (df["result"] == "draw").mean()) / 2, i - 0.42, i + 0.42, color="grey", linestyle="--",
              linewidth=1)
ax.set_ylim(0, 1)
plt.setp(ax.get_xticklabels(), rotation=15, ha="right")
fig.tight_layout()


def balance_sentence(name):
    row = colours[(colours["line-up"] == name) & (colours["colour"] == "Blue")].iloc[0]
    brown = colours[(colours["line-up"] == name) & (colours["colour"] == "Brown")].iloc[0]
    verdict = ("Blue is favoured" if row["ci_low"] > brown["ci_high"] else
               "Brown is favoured" if brown["ci_low"] > row["ci_high"] else "no colour is favoured")
    return (f"- *{name}* ({row['games']:,} games): Blue wins {row['win_rate']:.1%} "
            f"({row['ci_low']:.1%} to {row['ci_high']:.1%}), Brown {brown['win_rate']:.1%} "
            f"({brown['ci_low']:.1%} to {brown['ci_high']:.1%}): **{verdict}**.")


self_play = [name for name, (_, blue, brown, _) in lineups.items() if blue == brown]
blue_rate = colours[colours["colour"] == "Blue"].set_index("line-up")


def first_mover_sentence(policy):
    """Blue's win rate when Blue moves first against when Brown does, same policy for both."""
    a, b = blue_rate.loc[f"{policy} vs {policy}"], blue_rate.loc[f"{policy} vs {policy}, Brown first"]
    apart = a["ci_low"] > b["ci_high"] or b["ci_low"] > a["ci_high"]
    return (f"- *{policy}*: Blue wins {pct(a['win_rate'], a['ci_low'], a['ci_high'])} when Blue moves first and "
            f"{pct(b['win_rate'], b['ci_low'], b['ci_high'])} when Brown does: "
            + ("the intervals do not overlap, so who moves first matters." if apart else
               "the intervals overlap, so moving first is not what gives Blue its rate."))


brown_rate = colours[colours["colour"] == "Brown"].set_index("line-up")
standard_self_play = [name for name in self_play if lineups[name][0] is STANDARD]
display(Markdown("\n".join(balance_sentence(name) for name in self_play)
                 + "\n\nBlue's lead over Brown in win rate, Blue moving first: " + ", ".join(
                     f"{name} {100 * (blue_rate.loc[name, 'win_rate'] - brown_rate.loc[name, 'win_rate']):+.1f} "
                     "points" for name in standard_self_play)
                 + ".\n\nMoving first against the colour:\n\n"
                 + "\n".join(first_mover_sentence(policy) for policy in ("random", "greedy"))
                 + f"\n\n{caution(len(self_play) + 2)}"))

# %% [markdown]
# Section 6 shows where a colour's points come from.

# %% [markdown]
# ## 5. The return match
#
# The seed says to play two games with swapped roles and add the points (`match_games = 2`): in game 2
# seat 0 plays Brown, and Blue (now seat 1) moves first again. A match row sums both games; `winner` is
# the match's, `game1_winner` and `game2_winner` are each game's. The table gives, per line-up (seat 0's
# policy first), the share of matches each seat wins, how often Blue won each game, and how often the
# **colour won both games**, so that each player won once, with his Blue game; the match then goes to
# whoever won his Blue game by more points.

# %%
MATCH = toolkit.rules("halali", match_games=2)
match_lineups = {"random vs random": ("random,random", N), "greedy vs greedy": ("greedy,greedy", N),
                 "greedy vs random": ("greedy,random", N), "lookahead vs lookahead": ("lookahead", N_LOOK // 2)}
match_rows = []
for name, (policies, n) in match_lineups.items():
    df = toolkit.simulate("halali", MATCH, n, seed=SEED, policies=policies, progress=False)
    for quantity, hits in [("seat 0 wins the match", df["win_0"]), ("seat 1 wins the match", df["win_1"]),
                           ("the match is drawn", df["result"] == "draw"),
                           ("Blue wins game 1 (seat 0)", df["game1_winner"] == 0),
                           ("Blue wins game 2 (seat 1)", df["game2_winner"] == 1),
                           ("Blue wins both games", (df["game1_winner"] == 0) & (df["game2_winner"] == 1)),
                           ("one seat wins both games", (df["game1_winner"] == df["game2_winner"])
                            & (df["game1_winner"] >= 0))]:
        rate, low, high = toolkit.wilson(int(hits.sum()), len(df))
        match_rows.append({"line-up": name, "quantity": quantity, "matches": len(df), "rate": rate, "ci_low": low,
                           "ci_high": high})
matches = pd.DataFrame(match_rows)
fig, ax = plt.subplots(figsize=(14, 4.4))
plots.means_bar(matches, ax=ax, x="quantity", hue="line-up", value="rate", xlabel="", ylabel="share of matches",
                title="two-game matches with swapped colours, 95% Wilson intervals")
ax.set_ylim(0, 1)
plt.setp(ax.get_xticklabels(), rotation=15, ha="right")
fig.tight_layout()
matches.pivot(index="quantity", columns="line-up", values="rate").round(3)

# %%
MATCHES = matches.set_index(["line-up", "quantity"])


def match_rate(name, quantity, interval=True):
    r = MATCHES.loc[(name, quantity)]
    return pct(r["rate"], r["ci_low"], r["ci_high"]) if interval else pct(r["rate"])


single = {name: blue_rate.loc[name, "win_rate"] for name in blue_rate.index}
lines = [f"- *{name}* ({int(MATCHES.loc[(name, 'the match is drawn'), 'matches']):,} matches): seat 0 wins "
         f"{match_rate(name, 'seat 0 wins the match')} of the matches, "
         f"{match_rate(name, 'the match is drawn', False)} are drawn; Blue wins game 1 in "
         f"{match_rate(name, 'Blue wins game 1 (seat 0)', False)} and game 2 in "
         f"{match_rate(name, 'Blue wins game 2 (seat 1)', False)} of them, both games in "
         f"{match_rate(name, 'Blue wins both games')}."
         for name in ("random vs random", "greedy vs greedy", "lookahead vs lookahead")]
lines.append(f"- *greedy vs random*: greedy wins {match_rate('greedy vs random', 'seat 0 wins the match')} of the "
             f"matches, against {pct(single['greedy vs random'])} of the single games it plays as Blue.")
display(Markdown(f"**Reading the numbers (seed {SEED}).** Blue won a single game of self-play in "
                 + ", ".join(f"{pct(single[name])} ({name})" for name in standard_self_play)
                 + " of the games (section 4).\n\n" + "\n".join(lines)))

# %% [markdown]
# When Blue wins both games of a match, each player won only his Blue game, and the difference in points
# settles the match: that is how the return match turns a colour advantage into a fair contest between
# the players.

# %% [markdown]
# ## 6. Where the points come from
#
# Each bar is the mean number of points per game a colour takes from one kind, by capturing it or by
# rescuing it through an exit, with a 95% interval (± 1.96 standard errors). Kinds a colour can never
# take under these rules are left out.

# %%
source_rows = []
for name in ("random vs random", "greedy vs greedy", "lookahead vs lookahead"):
    df = runs[name]
    for seat, colour in ((0, "Blue"), (1, "Brown")):
        for table, verb in (("captures", "captures"), ("rescues", "rescues")):
            for kind in KINDS:
                points = df[f"{table}_{kind}_{seat}"] * STANDARD.points[kind]
                mean, se = stats.mean_se(points)
                source_rows.append({"line-up": name, "colour": colour, "source": f"{verb} {kind}", "mean": mean,
                                    "ci_low": mean - stats.Z95 * se, "ci_high": mean + stats.Z95 * se})
sources = pd.DataFrame(source_rows)
sources = sources[sources.groupby(["colour", "source"])["mean"].transform("max") > 0]
fig, axes = plt.subplots(1, 2, figsize=(16, 4.6))
for ax, colour in zip(axes, ("Blue", "Brown")):
    plots.means_bar(sources[sources["colour"] == colour], ax=ax, x="source", hue="line-up", xlabel="",
                    ylabel="points per game", title=f"{colour}'s points by source (self-play)")
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
fig.tight_layout()
sources.pivot_table(index=["colour", "source"], columns="line-up", values="mean").round(2)

# %%
SOURCES = sources.set_index(["line-up", "colour", "source"])["mean"]


def points_from(name, colour, *names):
    return sum(SOURCES.get((name, colour, source), 0.0) for source in names)


def source_sentence(name):
    birds = {c: points_from(name, c, "captures pheasant", "captures duck") for c in ("Blue", "Brown")}
    rescued = {c: sum(v for (n, col, source), v in SOURCES.items() if n == name and col == c
                      and source.startswith("rescues")) for c in ("Blue", "Brown")}
    return (f"- *{name}*: birds (pheasants and ducks) Blue {birds['Blue']:.1f} and Brown {birds['Brown']:.1f} "
            f"points per game; Brown's trees {points_from(name, 'Brown', 'captures tree'):.1f} points; rescues "
            f"Blue {rescued['Blue']:.1f} (foxes {points_from(name, 'Blue', 'rescues fox'):.1f}, bears "
            f"{points_from(name, 'Blue', 'rescues bear'):.1f}) and Brown {rescued['Brown']:.1f} (hunters "
            f"{points_from(name, 'Brown', 'rescues hunter'):.1f}).")


display(Markdown(f"**Reading the numbers (seed {SEED}).**\n\n"
                 + "\n".join(source_sentence(name) for name in ("random vs random", "greedy vs greedy",
                                                                 "lookahead vs lookahead"))))

# %% [markdown]
# What the rules say about these sources: only foxes and hunters take pheasants and ducks, a fox from any
# side and a hunter only along its gun, so the birds lean towards Blue; Brown's lumberjacks fell trees; and
# a tile can be rescued only in the end phase, by an own tile in line with an exit square, a move a random
# player seldom picks.

# %% [markdown]
# ## 7. How long is a game?
#
# A turn is one action (an automatic end-phase pass included). The main phase lasts until the 48th
# reveal; the end phase adds at most 10 turns, fewer if a player runs out of own tiles (an early end,
# H-5). The curves give the share of games of each length, with the mean (shaded: its 95% interval) and
# the median. Lookahead self-play gets its own panel: its games are far longer.

# %%
fig, axes = plt.subplots(1, 2, figsize=(15, 4.2))
for name in ("random vs random", "greedy vs greedy", "greedy vs random"):
    plots.length_histogram(runs[name], "turns", ax=axes[0], label=name, title="game length")
plots.length_histogram(runs["lookahead vs lookahead"], "turns", ax=axes[1], label="lookahead vs lookahead",
                       title="game length, lookahead self-play")
for ax in axes:
    ax.set_xlabel("turns (actions)")
fig.tight_layout()
lengths = []
for name, df in runs.items():
    row = {"line-up": name}
    for column in ("turns", "main_turns", "end_turns", "plies"):
        mean, se = stats.mean_se(df[column])
        row[f"mean {column}"] = mean
        row[f"± {column}"] = stats.Z95 * se
    row["longest game"] = df["turns"].max()
    row["share ended early"] = (df["end_reason"] == "early_end").mean()
    lengths.append(row)
pd.DataFrame(lengths).set_index("line-up").round(2)

# %% [markdown]
# ## 8. The loop guard
#
# Nothing in the printed rules forces a player to reveal, and two careful players can shuffle face-up
# tiles back and forth forever. Our rules add `progress_limit` (default 60): after that many actions in a
# row without a reveal, a capture or an exit, the player to move must reveal. `forced_reveal_turns` counts
# how often it fires. First, per line-up: the share of games in which it fired at least once (Wilson
# interval) and the mean per game.

# %%
guard_rows = []
for name, df in runs.items():
    rate, low, high = toolkit.wilson(int((df["forced_reveal_turns"] > 0).sum()), len(df))
    guard_rows.append({"line-up": name, "games": len(df), "share with a forced reveal": rate, "ci_low": low,
                       "ci_high": high, "forced reveals per game": df["forced_reveal_turns"].mean()})
guard = pd.DataFrame(guard_rows)
guard.round(4)

# %% [markdown]
# Lookahead self-play is where the guard should matter: each player sees that a reveal may expose a tile
# and that a move costs nothing, so both may keep moving. The sweep below replays `N_LOOK` lookahead
# self-play games with other limits (0 switches the guard off: a game is then stopped after 10,000 actions
# and counted as `aborted`; it plays only `N_NO_GUARD` games, because such games may run to that cap, which
# is slow). The left panel shows how the limit sets the length of the games, the right one whether it also
# changes who wins (among the games that finished: an aborted game has no winner).

# %%
sweep_rows = []
for limit in (0, 5, 20, 60, 120):
    n = N_NO_GUARD if limit == 0 else N_LOOK
    df = toolkit.simulate("halali", toolkit.rules("halali", progress_limit=limit), n, seed=SEED,
                          policies="lookahead", progress=False)
    mean, se = stats.mean_se(df["turns"])
    aborted = int((df["result"] == "aborted").sum())
    finished = n - aborted
    blue, blue_low, blue_high = (toolkit.wilson(int(df["win_0"].sum()), finished) if finished
                                 else (np.nan, np.nan, np.nan))
    sweep_rows.append({"progress_limit": limit, "games": n, "aborted": aborted / n, "finished games": finished,
                       "share with a forced reveal": (df["forced_reveal_turns"] > 0).mean(),
                       "forced reveals per game": df["forced_reveal_turns"].mean(), "mean turns": mean,
                       "turns_low": mean - stats.Z95 * se, "turns_high": mean + stats.Z95 * se,
                       "P(Blue wins | finished)": blue, "blue_low": blue_low, "blue_high": blue_high})
sweep = pd.DataFrame(sweep_rows)
fig, (left, right) = plt.subplots(1, 2, figsize=(14, 3.8))
labels = [f"limit {v}" + (" (off)" if v == 0 else "") for v in sweep["progress_limit"]]
plots.interval_plot(sweep.assign(label=labels), ax=left, value="mean turns", low="turns_low", high="turns_high",
                    reference=None, digits=0, xlabel="mean turns per game (95% CI, log scale)",
                    ylabel="progress_limit", title="lookahead self-play: game length")
left.set_xscale("log")
plots.interval_plot(sweep.assign(label=labels), ax=right, value="P(Blue wins | finished)", low="blue_low",
                    high="blue_high", reference=0.5, digits=3, xlabel="P(Blue wins), finished games (95% Wilson)",
                    ylabel="progress_limit", title="lookahead self-play: Blue's win rate")
fig.tight_layout()
sweep[["progress_limit", "games", "aborted", "finished games", "share with a forced reveal",
       "forced reveals per game", "mean turns", "P(Blue wins | finished)"]].round(3)

# %%
GUARD = guard.set_index("line-up")
SWEEP = sweep.set_index("progress_limit")
default = STANDARD.progress_limit


def fired(name):
    r = GUARD.loc[name]
    count = int(round(r["share with a forced reveal"] * r["games"]))
    share = (f"{count:,} of {int(r['games']):,} games" if count < 100 else
             pct(r["share with a forced reveal"], r["ci_low"], r["ci_high"]))
    return f"{name}, {share}, {r['forced reveals per game']:.2f} per game"


off = SWEEP.loc[0]
finished = SWEEP.drop(index=0)
blue = finished["P(Blue wins | finished)"]
overlap = finished["blue_low"].max() <= finished["blue_high"].min()
display(Markdown(
    f"**Reading the numbers (seed {SEED}).** The guard fires in: " + "; ".join(fired(name) for name in GUARD.index)
    + f". Without the guard, {int(round(off['aborted'] * off['games']))} of {int(off['games'])} lookahead games "
    f"({pct(off['aborted'])}) ran to the 10,000-action cap. Lookahead self-play lasts "
    + ", ".join(f"{r['mean turns']:.0f} turns at limit {limit}" for limit, r in finished.iterrows())
    + f" (default {default}). Blue's win rate among finished games is {pct(blue.min())} to {pct(blue.max())} over "
    f"the limits {', '.join(str(v) for v in finished.index)}, "
    + ("and all their intervals overlap." if overlap else "and **not all their intervals overlap**.")))

# %% [markdown]
# ## 9. Which policy is stronger?
#
# `toolkit.compare` plays every ordered pair of policies, `N_POLICY` games each, on one seed. The matrix
# pools both seatings, so each policy plays Blue and Brown equally often: the cell in row *A*, column *B*
# is A's win rate against B, with its 95% Wilson interval. Draws count as not won, so the diagonal can
# sit a little below 0.5.

# %%
POLICIES = ["random", "greedy", "lookahead"]
comparison = tournament.compare("halali", POLICIES, N_POLICY, seed=SEED, rules=STANDARD, progress=False)
grid = tournament.matrix(comparison)
fig, ax = plt.subplots(figsize=(6.5, 5))
plots.comparison_matrix(grid, ax=ax, title=f"standard rules, {2 * N_POLICY:,} games per pair of policies")
fig.tight_layout()
comparison[["seat0_policy", "seat1_policy", "games", "win_rate_0", "ci_low_0", "ci_high_0", "win_rate_1",
            "no_winner", "mean_turns"]].round(3)

# %%
rate, low, high = grid["win_rate"], grid["ci_low"], grid["ci_high"]
as_brown = comparison[(comparison["seat0_policy"] == "random") & (comparison["seat1_policy"] == "greedy")].iloc[0]
brown_wins = int(round(as_brown["win_rate_1"] * as_brown["games"]))
brown_low, brown_high = toolkit.wilson(brown_wins, int(as_brown["games"]))[1:]
display(Markdown("\n".join(
    f"- *{a}* beats *{b}* in **{rate.loc[a, b]:.1%}** of {int(grid['games'].loc[a, b]):,} games "
    f"(95% interval {low.loc[a, b]:.1%} to {high.loc[a, b]:.1%})."
    for a, b in [("greedy", "random"), ("lookahead", "random"), ("lookahead", "greedy")])
    + f"\n\nAs Brown, the colour that moves second, greedy still wins "
    f"{pct(as_brown['win_rate_1'], brown_low, brown_high)} of its {int(as_brown['games']):,} games against random."))

# %% [markdown]
# ## 10. Try other rules
#
# The panel below is generated from the `Rules` declaration: one control per parameter, a preset menu and a
# game count. Every change rebuilds the rules (a value that is not allowed, such as tile counts that do not
# sum to 48, shows the reason instead of plots), reruns `N_PANEL` games (`N`) of greedy
# self-play in summary mode, and redraws the win rate of each seat (seat 0 is Blue; in a two-game match it
# is Blue in game 1 only) and the game length. Greedy self-play plays about 12,000 games a second per core,
# and rules reach the compiled kernel as values, so no change recompiles anything.

# %%
def run(rules, n_games):
    summary = toolkit.simulate("halali", rules, n_games, seed=SEED, policies="greedy", keep="summary",
                               progress=False)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6))
    plots.win_rates_bar(summary.win_rates(), ax=left, labels=["seat 0 (Blue)", "seat 1 (Brown)"],
                        title=f"greedy self-play, {summary.n_games:,} games")
    plots.length_histogram(summary, "turns", ax=right)
    right.set_xlabel("turns (actions)")
    fig.tight_layout()
    return fig


panel = rules_panel("halali", run, preset="standard", n_games=N_PANEL)
panel


# %% [markdown]
# ## 11. See a game, play a seat, and which decisions matter
#
# `viewer` opens one seeded game of these rules: the game `toolkit.simulate` plays as row `game_index` with the
# same seed, rules and players. Step through its decisions with the buttons or the slider: the picture, every
# option in words and the chosen one marked. "seen by" a seat shows the face-down tiles as backs; "open" turns every tile face up and says so. "what `SEARCH` thinks" (mcts:1000 at the default `N`) adds the search's estimate of
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
viewer("halali", STANDARD, policies=("greedy", "greedy"), seed=SEED, game_index=0, judge=SEARCH, swing_judge=JUDGE)

# %% [markdown]
# `play` gives you seat 0: your options as buttons under the picture as your seat sees it, the other seat played by `greedy`
# between your decisions, under the same rules (tweaked ones too). The seed and game number are shown, so
# the game can be opened again in the viewer; what your seat cannot see stays hidden.

# %%
play("halali", STANDARD, policies=("greedy", "greedy"), seed=SEED, seat=0)

# %% [markdown]
# **Which decisions matter?** For each decision kind of the spec's §5, over `N_DECISIONS` games of greedy
# self-play (`max(2, N // 200)`: 500 at the default `N`; a kind is judged only from 50 games with it): how often it is forced (a single option), how often it is trivial (every option within 0.02 of
# the best by a search's estimate), and its *impact*, the win probability of the option `JUDGE` (`mcts:200` at the default `N`) picks
# minus the mean over all options, which is what a random choice gets, a decision and summed over a game.
# Each comes with a 95% interval counted over games, and the sentence claims only what the intervals support
# (`toolkit decisions halali -n GAMES --seed SEED` does the same from the command line).

# %%
N_DECISIONS = max(2, N // 200)  # 50 games with a kind are the fewest the sentence judges it on
judged = decisions("halali", STANDARD, n_games=N_DECISIONS, seed=SEED, judge=JUDGE, policies=("greedy", "greedy"), progress=False)
display(Markdown(answer(judged)))
shown(judged)
