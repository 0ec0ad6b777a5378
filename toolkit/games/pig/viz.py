"""Pig as a picture: the two banked scores as bars toward the target, the turn total at stake stacked on
the deciding seat's bar (issue 38).  Pig has no hidden information: the seat drawn for changes nothing."""

from __future__ import annotations

import matplotlib.pyplot as plt

COLOURS = ("tab:blue", "tab:orange")


def draw(position, seat=None, ax=None):
    """Draw a :class:`~toolkit.games.pig.view.Position` on ``ax`` (a new figure when None); returns the Axes.
    The bars carry gids ``score-<seat>`` and ``stake-<seat>`` (their widths are the points)."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6.0, 2.2))
    for s in (0, 1):
        bar = ax.barh(s, position.score[s], color=COLOURS[s], height=0.6)[0]
        bar.set_gid(f"score-{s}")
        ax.text(position.score[s], s, f" {position.score[s]}", va="center", ha="left", fontsize=9)
    if position.winner < 0 and position.turn_total:
        stake = ax.barh(position.seat, position.turn_total, left=position.score[position.seat], height=0.6,
                        color=COLOURS[position.seat], alpha=0.35, hatch="//", edgecolor="black")[0]
        stake.set_gid(f"stake-{position.seat}")
    ax.axvline(position.target, color="black", linestyle="--", linewidth=1)
    ax.set_yticks([0, 1], ["seat 0", "seat 1"])
    ax.set_xlim(0, position.target * 1.15)
    ax.set_xlabel("points banked (hatched: the turn total at stake; dashed: the target)")
    state = (f"seat {position.winner} won" if position.winner >= 0
             else f"turn {position.turn}: seat {position.seat} to play, {position.turn_total} at stake")
    ax.set_title(f"Pig: {state}")
    return ax
