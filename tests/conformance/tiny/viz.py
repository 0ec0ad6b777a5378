"""Tiny as a picture: the track with the two pawns on it.  Nothing is hidden: the seat drawn for changes
nothing."""

from __future__ import annotations

import matplotlib.pyplot as plt

COLOURS = ("tab:blue", "tab:orange")


def draw(position, seat=None, ax=None):
    """Draw a :class:`~tiny.view.Position` on ``ax`` (a new figure when None); returns the Axes.  The pawns
    carry gids ``pawn-<seat>``."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6.0, 1.8))
    squares = range(position.track + 1)
    ax.scatter(list(squares), [0] * len(squares), marker="s", s=200, color="lightgrey")
    for s in (0, 1):
        pawn = ax.scatter([position.square[s]], [0.25 if s == 0 else -0.25], s=120, color=COLOURS[s],
                          label=f"seat {s}")
        pawn.set_gid(f"pawn-{s}")
    ax.set_xticks(list(squares), ["start", *map(str, range(1, position.track)), "home"])
    ax.set_yticks([])
    ax.set_ylim(-0.8, 0.8)
    ax.legend(loc="upper left", fontsize=8)
    if position.over:
        state = f"seat {position.winner} won" if position.winner >= 0 else "a draw"
    else:
        state = f"turn {position.turn}: seat {position.seat} to move" + (f", rolled {position.roll}"
                                                                           if position.roll else "")
    ax.set_title(f"Tiny: {state}")
    return ax
