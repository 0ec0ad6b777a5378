"""The Valhalla board picture: the track, both fleets, the sticks of the last throw.

:func:`draw` takes a :class:`toolkit.games.valhalla.view.Position` and follows
:mod:`toolkit.core.drawing`: it takes ``ax=None``, creates a figure only when no
``Axes`` is given, never calls ``plt.show()`` and returns the ``Axes``.

The track of squares 1..36 is drawn as the spec's three rows of twelve in snake
order (§2.1): row 1 (1-12, the home harbour) at the top from left to right,
row 2 (13-24, the open ocean) from right to left, row 3 (25-36, the last leg)
from left to right, ending in Valhalla (36) at the bottom right.  The ships at
home wait above the board, the ships borne off lie below it, beside the four
sticks of the throw that led to the decision.

Every artist that carries a game value has a ``gid``, so that a test reads the
picture back:

=========================  =====================================================
``gid``                    artist
=========================  =====================================================
``"square-<n>"``           square ``n`` (1..36) of the track
``"safe-<n>"``             the label of a safe square (V-6.1)
``"dock-<n>"``             the label of the dock (V-6.2)
``"rock-<n>"``             the label of the rocky coast (V-6.3)
``"valhalla-36"``          the label of Valhalla
``"blockade-zone"``        the dashed outline of the blockade zone (V-6.4c), one per row it touches
``"protected-<n>"``        the frame of a ship protected by a blockade run now
``"ship-<seat>-<square>"`` one ship; square 0 at home, 37 borne off
``"repairing-<seat>-<n>"`` the ring round a ship under repair on the dock
``"stick-<rune>-<up>"``    one stick, rune S, T, G or H, ``up`` 1 rune up, 0 blank
``"throw-<value>"``        the value of the throw
``"to-play-<seat>"``       the title, whose turn it is; ``"winner-<seat>"`` / ``"aborted"`` at the end
=========================  =====================================================

Valhalla hides nothing, so ``seat`` changes nothing in the picture.

Examples
--------
>>> import toolkit
>>> from toolkit.games.valhalla import reference, view
>>> from toolkit.games.valhalla.viz import draw
>>> game = reference.new_game(toolkit.rules("valhalla", "alternative"), seed=1, game_index=0)
>>> game.start()
>>> ax = draw(view.position(game, game.advance()))
>>> sorted(int(p.get_gid().split("-")[2]) for p in ax.patches if (p.get_gid() or "").startswith("ship-1-"))
[1, 2, 3, 4, 5, 6]
>>> ax.get_title()
'Valhalla, turn 2: white (seat 1) to play: move'
>>> import matplotlib.pyplot as plt
>>> plt.close(ax.figure)
"""

from __future__ import annotations

from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Rectangle

from toolkit.core import drawing

SHIP_FACE = {"black": "#1b1b1b", "white": "#fbfbf5"}
TEXT_ON = {"black": "white", "white": "black"}
SQUARE_COLOUR = "#f1e6cc"  # parchment
SAFE_COLOUR = "#bcd9ee"  # the safe harbours and the entry squares
DOCK_COLOUR = "#d9c2a0"
ROCK_COLOUR = "#9a9a9a"
VALHALLA_COLOUR = "#f4d35e"
REPAIR_COLOUR = "#e07b00"
PROTECTED_COLOUR = "#2e8b57"
RUNES = "STGH"  # Sowulo, Tiewaz, Gebo, Hagalaz (§2.4)
ROWS = 3
ROW_LENGTH = 12


def cell(square: int) -> tuple:
    """The lower-left corner of square 1..36 in snake order: row 1 at the top, left to right."""
    row, k = divmod(square - 1, ROW_LENGTH)
    x = k if row % 2 == 0 else ROW_LENGTH - 1 - k
    return x, ROWS - 1 - row


# Patches are added with ``ax.add_artist``, not ``add_patch``: the limits are set once in ``draw``, and
# add_patch's update of the data limits took two thirds of a drawing (measured 0.09 s -> 0.03 s a call).


def _ship(ax, colour, seat, square, x, y, radius):
    ax.add_artist(Circle((x, y), radius, facecolor=SHIP_FACE[colour], edgecolor="black", lw=0.8, zorder=4,
                         gid=f"ship-{seat}-{square}"))


def _board(ax, position):
    safe, first, last = set(position.safe_squares), *position.blockade_zone
    for square in range(1, 37):
        x, y = cell(square)
        label, face = None, SQUARE_COLOUR
        if square == 36:
            label, face = "valhalla", VALHALLA_COLOUR
        elif square == position.rock_square:
            label, face = "rock", ROCK_COLOUR
        elif square == position.dock_square:
            label, face = "dock", DOCK_COLOUR
        elif square in safe:
            label, face = "safe", SAFE_COLOUR
        ax.add_artist(Rectangle((x, y), 1, 1, facecolor=face, edgecolor="#7a6a4f", lw=0.8, zorder=1,
                                gid=f"square-{square}"))
        ax.text(x + 0.06, y + 0.94, str(square), fontsize=6, ha="left", va="top", color="#4d4d4d", zorder=2)
        if label is not None:
            ax.text(x + 0.5, y + 0.05, label, fontsize=5.5, ha="center", va="bottom", color="#333333", zorder=2,
                    gid=f"{label}-{square}")
    # the blockade zone, one dashed outline per row it touches (it may start or end mid-row)
    zone = range(first, min(last, 35) + 1)
    for row in range(ROWS):
        squares = [s for s in zone if (s - 1) // ROW_LENGTH == row]
        if squares:
            xs = [cell(s)[0] for s in squares]
            ax.add_artist(Rectangle((min(xs) + 0.03, ROWS - 1 - row + 0.03), max(xs) - min(xs) + 0.94, 0.94,
                                    fill=False, edgecolor=PROTECTED_COLOUR, lw=1.0, ls="--", zorder=2,
                                    gid="blockade-zone"))
    centres = [cell(s) for s in range(1, 37)]
    ax.add_line(Line2D([x + 0.5 for x, _ in centres], [y + 0.5 for _, y in centres], color="#b7a57f", lw=1.0,
                       zorder=1.5, gid="track"))


def _fleets(ax, position):
    for seat, (squares, repairing) in enumerate(zip(position.ships, position.repairing)):
        colour = position.colours[seat]
        at_home = squares.count(0)
        borne_off = squares.count(37)
        in_valhalla = 0
        for square, under_repair in sorted(zip(squares, repairing)):
            if square in (0, 37):
                continue
            x, y = cell(square)
            if square == 36:  # any number of ships of both colours: a small token each, seat 0 left
                column, level = divmod(in_valhalla, 3)
                _ship(ax, colour, seat, square, x + 0.17 + 0.22 * (2 * seat + column), y + 0.33 + 0.2 * level, 0.08)
                in_valhalla += 1
                continue
            _ship(ax, colour, seat, square, x + 0.5, y + 0.56, 0.24)  # above the square's label
            if under_repair:
                ax.add_artist(Circle((x + 0.5, y + 0.56), 0.33, fill=False, edgecolor=REPAIR_COLOUR, lw=2.2,
                                     zorder=5, gid=f"repairing-{seat}-{square}"))
            if square in position.protected_runs:
                ax.add_artist(Rectangle((x + 0.08, y + 0.08), 0.84, 0.84, fill=False, edgecolor=PROTECTED_COLOUR,
                                        lw=2.0, zorder=3, gid=f"protected-{square}"))
        # home above the board (left), borne off below it (right)
        for count, square, x0, y0, word in ((at_home, 0, 3.1 * seat, 3.15, "home"),
                                            (borne_off, 37, 6.0 + 3.1 * seat, -1.05, "borne off")):
            ax.add_artist(Rectangle((x0, y0), 2.9, 0.9, facecolor="#eef3f7", edgecolor="#7a6a4f", lw=0.8, zorder=1))
            ax.text(x0 + 0.08, y0 + 0.84, f"{colour} (seat {seat}) {word}: {count}", fontsize=7, ha="left", va="top")
            for i in range(count):
                _ship(ax, colour, seat, square, x0 + 0.3 + 0.45 * i, y0 + 0.3, 0.17)


def _throw(ax, position):
    if not position.sticks:
        return
    for i, (rune, up) in enumerate(zip(RUNES, position.sticks)):
        x = 0.1 + 0.55 * i
        ax.add_artist(Rectangle((x, -1.05), 0.4, 0.9, facecolor="#5b3a1a" if up else "#e8d5b0",
                                edgecolor="#3b2a14", lw=0.8, zorder=2, gid=f"stick-{rune}-{int(up)}"))
        ax.text(x + 0.2, -0.6, rune, fontsize=10, weight="bold", ha="center", va="center",
                color="white" if up else "#c2ab82", zorder=3)  # a blank side in faint letters: which stick
    words = f"throw {position.throw_value}" + (" (natural one)" if position.natural_one else "")
    ax.text(2.4, -0.6, words, fontsize=9, ha="left", va="center", gid=f"throw-{position.throw_value}")


def draw(position, seat=None, ax=None):
    """Draw ``position`` (from :func:`toolkit.games.valhalla.view.position`) on ``ax`` and return the Axes.

    Parameters
    ----------
    position : view.Position
        The snapshot to draw.
    seat : int or None
        The seat whose view is drawn.  Valhalla hides nothing, so every seat sees the same picture.
    ax : matplotlib.axes.Axes, optional
        A new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = drawing.axes(ax, size=(9.0, 4.2))
    _board(ax, position)
    _fleets(ax, position)
    _throw(ax, position)
    if position.over:
        who = (f"{position.colours[position.winner]} (seat {position.winner}) wins" if position.winner is not None
               else "game aborted")
        gid = f"winner-{position.winner}" if position.winner is not None else "aborted"
    else:
        who = f"{position.colours[position.to_play]} (seat {position.to_play}) to play"
        gid = f"to-play-{position.to_play}"
        if position.kind is not None:
            who += {1: ": move", 2: ": extra throw?"}[position.kind]
    ax.set_title(f"Valhalla, turn {position.turn}: {who}", fontsize=10, gid=gid)
    ax.set_xlim(-0.15, 12.15)
    ax.set_ylim(-1.15, 4.15)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([2.5, 1.5, 0.5], ["row 1\n1-12", "row 2\n13-24", "row 3\n25-36"], fontsize=7)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return ax
