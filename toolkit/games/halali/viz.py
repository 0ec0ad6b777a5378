"""Board pictures: a Halali position, and a heat map over the 49 squares.

Both functions follow :mod:`toolkit.core.drawing`: they take ``ax=None``, create
a figure only when no ``Axes`` is given, never call ``plt.show()``, label
their axes and return the ``Axes``.

The board is drawn as a player sees it: a1 at the bottom left, rank 7 at the
top, files a..g from left to right.  Every artist the picture is built from
carries a ``gid``, so tests (and curious readers) can find them:

=============  ==============================================================
``gid``        artist
=============  ==============================================================
``"tile"``     a face-up tile (rounded square coloured by kind)
``"back"``     a face-down tile (grey back)
``"gun"``      the gun direction of a face-up hunter (an arrow)
``"hidden"``   the kind letter of a face-down tile (``show_hidden=True`` only)
``"exit"``     an exit square's outward arrow, outside the board
``"centre"``   the mark of the centre square d4 (empty at the start)
``"last"``     the outline of the squares the last action touched
=============  ==============================================================

:func:`draw` pictures a ``view.Position`` (issue 38) with :func:`draw_board`,
whose tile gids then carry their values (``"tile-fox-b2"``, its docstring).

Examples
--------
>>> import toolkit
>>> from toolkit.games.halali.replay import positions
>>> from toolkit.games.halali.viz import draw_board
>>> ax = draw_board(positions(toolkit.rules("halali"), seed=1)[0])
>>> ax.get_xlabel(), len([p for p in ax.patches if p.get_gid() == "exit"])
('file', 4)
"""

from __future__ import annotations

import numpy as np

from toolkit.games.halali.rules import DIRECTIONS, HUNTER, KINDS
from toolkit.core import drawing

# colours by kind: blue-ish (Blue's bear, fox), browns (Brown's lumberjack, hunter), greens (neutral, tree)
KIND_COLOURS = {
    "bear": "#1f4e9c", "fox": "#6fa8dc",
    "lumberjack": "#6b3f17", "hunter": "#c48a4a",
    "pheasant": "#a8d98a", "duck": "#5fb35f", "tree": "#1e6b2e",
}
KIND_LETTERS = {"bear": "B", "fox": "F", "lumberjack": "L", "hunter": "H", "pheasant": "P", "duck": "D", "tree": "T"}
_DARK_KINDS = {"bear", "lumberjack", "tree", "duck"}  # white letters on these
BACK_COLOUR = "#9e9e9e"
BOARD_COLOUR = "#f3ecd9"
EXIT_COLOUR = "#f28c28"  # the seed's orange exit squares
LAST_COLOUR = "#e6007e"
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N, E, S, W as (dx, dy)
FILES = "abcdefg"
CENTRE = 24


def _square_of(name: str) -> int:
    return FILES.index(name[0]) + 7 * (int(name[1:]) - 1)


def _cells(position) -> list:
    """49 entries ``None`` or ``(kind, face_up, dir)`` from a snapshot, a reference State or a sequence."""
    grid = getattr(position, "grid", position)
    cells = []
    for t in grid:
        if t is None:
            cells.append(None)
        elif hasattr(t, "kind"):  # reference Tile
            cells.append((int(t.kind), bool(t.face_up), int(t.dir)))
        else:
            kind, face_up, gun = t
            cells.append((int(kind), bool(face_up), int(gun)))
    if len(cells) != 49:
        raise ValueError(f"position is not allowed: a Halali board has 49 squares, this one has {len(cells)}")
    return cells


def _exits(rules) -> list:
    """(square, direction index) of each exit of ``rules`` (default: the standard d7:N, g4:E, d1:S, a4:W)."""
    if rules is None:
        from toolkit.games.halali.rules import Rules

        rules = Rules()
    out = []
    for text in rules.exit_squares:
        name, _, d = text.partition(":")
        out.append((_square_of(name), DIRECTIONS.index(d)))
    return out


def _arrow(ax, start, end, gid, colour, width=2.0, head=14, style="-|>", zorder=4, linestyle="-"):
    from matplotlib.patches import FancyArrowPatch

    arrow = FancyArrowPatch(start, end, arrowstyle=style, mutation_scale=head, color=colour, linewidth=width,
                            linestyle=linestyle, zorder=zorder, shrinkA=0, shrinkB=0)
    arrow.set_gid(gid)
    ax.add_patch(arrow)
    return arrow


def draw_board(position, rules=None, ax=None, *, show_hidden: bool = False, highlight: bool = True,
               legend: bool = True, title: str | None = None, value_gids: bool = False):
    """Draw a 7x7 Halali position.

    Parameters
    ----------
    position : Snapshot, reference State, or sequence of 49
        A :class:`toolkit.games.halali.replay.Snapshot`, a ``reference.State``, or
        49 squares (square = 7 * y + x, a1 = 0), each ``None`` or ``(kind, face_up,
        dir)`` with ``kind`` an index into ``KINDS`` and ``dir`` a hunter's gun
        direction (N, E, S, W = 0..3) or -1.
    rules : halali Rules, optional
        Where the exits are (``exit_squares``); default: the standard preset.
    ax : matplotlib Axes, optional
    show_hidden : bool
        Also write the kind letter on face-down tiles, faintly (an omniscient
        replay); their gun directions stay hidden.  Default: backs only, as the
        players see them.
    highlight : bool
        Outline the squares the snapshot's last action touched (if it has them).
    legend : bool
        A legend of the kinds to the right of the board.
    title : str, optional
        Default: the snapshot's caption, if it has one.
    value_gids : bool
        Give the tile artists gids that carry their values (the table in
        :func:`draw`) instead of the bare ``"tile"``, ``"back"``, ``"gun"`` and
        ``"hidden"``.

    Returns
    -------
    matplotlib Axes
        Tiles are rounded squares coloured by kind with a letter (B bear, F fox,
        L lumberjack, H hunter, P pheasant, D duck, T tree); a face-up hunter's gun
        is an arrow; face-down tiles are grey backs; exit squares have an orange
        outward arrow; d4 carries a dashed ring (the centre, empty at the start).
    """
    from matplotlib.patches import Circle, FancyBboxPatch, Patch, Rectangle

    ax = drawing.axes(ax, size=(6.2, 6.2))
    cells = _cells(position)
    exits = _exits(rules)
    exit_squares = {s for s, _ in exits}

    # the board and its squares
    ax.add_patch(Rectangle((-0.5, -0.5), 7, 7, facecolor=BOARD_COLOUR, edgecolor="black", linewidth=1.5,
                           zorder=0))
    for s in range(49):
        x, y = s % 7, s // 7
        face = "#fbd3a8" if s in exit_squares else BOARD_COLOUR
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=face, edgecolor="#b8ab8a", linewidth=0.6,
                               zorder=0.5))
    ring = Circle((3, 3), 0.3, fill=False, edgecolor="#8a7d5a", linestyle="--", linewidth=1.2, zorder=0.8)
    ring.set_gid("centre")
    ax.add_patch(ring)

    # exits: an orange arrow pointing out of the board from the exit square's outer edge
    for s, d in exits:
        x, y = s % 7, s // 7
        dx, dy = STEP[d]
        _arrow(ax, (x + 0.52 * dx, y + 0.52 * dy), (x + 0.98 * dx, y + 0.98 * dy), "exit", EXIT_COLOUR,
               width=2.5, head=16)

    # tiles
    for s, cell in enumerate(cells):
        if cell is None:
            continue
        kind, face_up, gun = cell
        name = KINDS[kind]
        x, y = s % 7, s // 7
        box = FancyBboxPatch((x - 0.40, y - 0.40), 0.80, 0.80, boxstyle="round,pad=0.02,rounding_size=0.12",
                             facecolor=KIND_COLOURS[name] if face_up else BACK_COLOUR,
                             edgecolor="black", linewidth=0.8, zorder=2)
        where = FILES[x] + str(y + 1)
        if value_gids:
            box.set_gid(f"tile-{name}-{where}" if face_up else f"back-{where}")
        else:
            box.set_gid("tile" if face_up else "back")
        ax.add_patch(box)
        if face_up:
            colour = "white" if name in _DARK_KINDS else "black"
            dx, dy = STEP[gun] if kind == HUNTER and 0 <= gun < 4 else (0, 0)
            ax.text(x - 0.13 * dx, y - 0.13 * dy, KIND_LETTERS[name], ha="center", va="center", fontsize=13,
                    fontweight="bold", color=colour, zorder=3)
            if (dx, dy) != (0, 0):  # the gun: an arrow from the letter to the tile's edge and beyond
                _arrow(ax, (x + 0.06 * dx, y + 0.06 * dy), (x + 0.47 * dx, y + 0.47 * dy),
                       f"gun-{where}-{DIRECTIONS[gun]}" if value_gids else "gun", "#b00020", width=2.2, head=12,
                       zorder=4)
        elif show_hidden:
            hidden = ax.text(x, y, KIND_LETTERS[name], ha="center", va="center", fontsize=11, color="#e8e8e8",
                             alpha=0.9, zorder=3)
            hidden.set_gid(f"hidden-{name}-{where}" if value_gids else "hidden")

    # the last action's squares
    if highlight:
        for s in {getattr(position, "from_square", -1), getattr(position, "to_square", -1)}:
            if s is not None and 0 <= s < 49:
                frame = Rectangle((s % 7 - 0.48, s // 7 - 0.48), 0.96, 0.96, fill=False, edgecolor=LAST_COLOUR,
                                  linewidth=2.4, zorder=5)
                frame.set_gid("last")
                ax.add_patch(frame)

    ax.set_xlim(-1.05, 7.05)
    ax.set_ylim(-1.05, 7.05)
    ax.set_aspect("equal")
    ax.set_xticks(range(7))
    ax.set_xticklabels(list(FILES))
    ax.set_yticks(range(7))
    ax.set_yticklabels([str(r) for r in range(1, 8)])
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel("file")
    ax.set_ylabel("rank")
    if title is None and hasattr(position, "caption"):
        title = position.caption()
    if title:
        ax.set_title(title, fontsize=10)
    if legend:
        handles = [Patch(facecolor=KIND_COLOURS[k], edgecolor="black", label=f"{KIND_LETTERS[k]} {k}")
                   for k in KINDS]
        handles.append(Patch(facecolor=BACK_COLOUR, edgecolor="black", label="face down"))
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], color="#b00020", marker=">", linewidth=2, label="hunter's gun"))
        handles.append(Line2D([], [], color=EXIT_COLOUR, marker=">", linewidth=2, label="exit"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return ax


def capture_heatmap(counts7x7, ax=None, *, per: float | None = None, title: str | None = None,
                    value_label: str | None = None, annotate: bool = True, cmap: str = "YlOrRd",
                    vmin: float | None = 0.0, vmax: float | None = None, fmt: str | None = None):
    """Heat map of a number per square of the 7x7 board (captures, by default), rank 7 on top.

    Parameters
    ----------
    counts7x7 : array-like, shape (7, 7) or (49,)
        ``counts[y][x]`` with row ``y = 0`` for rank 1, as ``kernel.capture_heat``
        returns it (or indexed by square number 7 * y + x).
    ax : matplotlib Axes, optional
    per : float, optional
        Divide by this (the number of games: "captures per game").
    title : str, optional
    value_label : str, optional
        The colour bar's label; default "captures" or "captures per game".
    annotate : bool
        Write each square's value in it.
    vmin : float or None
        Bottom of the colour scale: 0 (default, so colours compare absolute values)
        or ``None`` for the smallest value (to bring out small differences).
    vmax : float, optional
        Top of the colour scale (default: the largest value).  NaN squares stay blank.
    fmt : str, optional
        Format of the written values (``"{:.2f}"``); default whole numbers for
        counts, three significant digits with ``per``.

    Returns
    -------
    matplotlib Axes
        One image (``ax.images[0]``, its array indexed ``[y, x]`` with ``origin="lower"``).
    """
    values = np.asarray(counts7x7, dtype=float)
    if values.size != 49:
        raise ValueError(f"counts7x7 is not allowed: it needs 49 values (7 x 7), it has {values.size}")
    values = values.reshape(7, 7)
    if per is not None:
        if per <= 0:
            raise ValueError(f"per={per!r} is not allowed: it must be positive")
        values = values / per
    ax = drawing.axes(ax, size=(5.6, 4.8))
    image = ax.imshow(np.ma.masked_invalid(values), origin="lower", cmap=cmap, vmin=vmin, vmax=vmax)
    if value_label is None:
        value_label = "captures per game" if per is not None else "captures"
    ax.figure.colorbar(image, ax=ax, label=value_label, fraction=0.046, pad=0.04)
    if annotate:
        norm = image.norm
        for y in range(7):
            for x in range(7):
                v = values[y, x]
                if not np.isfinite(v):
                    continue
                text = fmt.format(v) if fmt else (f"{v:.3g}" if per is not None else f"{v:,.0f}")
                shade = float(norm(v))
                ax.text(x, y, text, ha="center", va="center", fontsize=7,
                        color="white" if shade > 0.65 else "black")
    ax.set_xticks(range(7))
    ax.set_xticklabels(list(FILES))
    ax.set_yticks(range(7))
    ax.set_yticklabels([str(r) for r in range(1, 8)])
    ax.set_xlabel("file")
    ax.set_ylabel("rank")
    if title:
        ax.set_title(title)
    return ax


COLOUR_NAMES = ("Blue", "Brown")  # colour[seat]: 0 Blue, 1 Brown


def _seat_name(position, seat: int) -> str:
    return f"{COLOUR_NAMES[position.colour[seat]]} (seat {seat})"


def _title(position, seat) -> str:
    """Three lines: who acts (or the end), the phase, and whose sight the picture is."""
    from toolkit.games.halali.view import DECISIONS

    p = position
    if p.over:
        head = f"game over ({p.end_reason.replace('_', ' ')})"
    elif p.seat >= 0:
        head = f"{_seat_name(p, p.seat)} to act: {DECISIONS[p.kind]}, {p.options} options"
    else:
        head = f"{_seat_name(p, p.to_move)} to move"
    game = f"game {p.game + 1} of {p.match_games}, " if p.match_games > 1 else ""
    if p.phase == "main":
        phase = f"{game}turn {p.turn}, main phase, {p.face_down} face down"
    else:
        left = ", ".join(f"{COLOUR_NAMES[p.colour[s]]} {p.end_left[s]}" for s in (0, 1))
        phase = f"{game}turn {p.turn}, end phase, actions left: {left}"
    if seat is None:
        sight = "open tiles: every face-down tile shown"
    else:
        sight = f"as {_seat_name(p, seat)} sees it: face-down tiles as backs"
    return "\n".join((head, phase, sight))


def draw(position, seat=None, ax=None):
    """Draw a :class:`toolkit.games.halali.view.Position` and return the Axes.

    Parameters
    ----------
    position : view.Position
        From ``view.position(game, decision)``.
    seat : int, optional
        Draw only what ``seat`` sees: face-down tiles are grey backs.  Both
        seats see the same tiles, so only the title changes with the seat.
        None (default): the open picture.  The face-down tiles get their
        kind letter and a hunter's hidden gun gets a dashed arrow; the title
        says "open tiles".
    ax : matplotlib Axes, optional
        Default: a new figure, wide enough for the legend and the scores.

    Returns
    -------
    matplotlib Axes
        The board of :func:`draw_board`, whose artists carry their values in
        their gids:

        ========================  ==============================================
        ``gid``                   artist
        ========================  ==============================================
        ``"tile-fox-b2"``         a face-up tile: its kind and square
        ``"gun-b2-N"``            a face-up hunter's gun
        ``"back-c4"``             a face-down tile
        ``"hidden-fox-c4"``       its kind letter (``seat=None`` only)
        ``"hidden-gun-c4-E"``     a face-down hunter's gun (``seat=None`` only)
        ``"lock-e5"``             outline of the locked duck or pheasant (H-3.6)
        ``"score-0-15"``          seat 0's points, in a text that also gives its
                                  tiles and the kinds it captured and rescued
        ========================  ==============================================

    Examples
    --------
    >>> from toolkit.core.protocol import first_decision
    >>> from toolkit.games.halali import view
    >>> ax = draw(view.position(*first_decision("halali", seed=7)), seat=0)
    >>> sum(p.get_gid().startswith("back-") for p in ax.patches if p.get_gid())
    48
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    from types import SimpleNamespace

    from matplotlib.patches import Rectangle

    if ax is None:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(8.4, 6.2))
        fig.subplots_adjust(left=0.07, right=0.66)  # room on the right for the legend and the scores
    exits = SimpleNamespace(exit_squares=position.exit_squares)  # draw_board reads only the exits of the rules
    draw_board(position.grid, exits, ax, show_hidden=seat is None, highlight=False, title=_title(position, seat),
               value_gids=True)
    for s, cell in enumerate(position.grid):
        x, y = s % 7, s // 7
        where = FILES[x] + str(y + 1)
        if seat is None and cell is not None and not cell[1] and cell[0] == HUNTER and 0 <= cell[2] < 4:
            dx, dy = STEP[cell[2]]
            _arrow(ax, (x + 0.12 * dx, y + 0.12 * dy), (x + 0.47 * dx, y + 0.47 * dy),
                   f"hidden-gun-{where}-{DIRECTIONS[cell[2]]}", "#e8e8e8", width=1.6, head=10, linestyle="--")
        if s == position.lock:
            frame = Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, fill=False, edgecolor="#1565c0", linewidth=2.0,
                              linestyle=":", zorder=5)
            frame.set_gid(f"lock-{where}")
            ax.add_patch(frame)
    for s in (0, 1):
        taken = ", ".join(KINDS[k] for k in position.captured[s]) or "nothing"
        rescued = ", ".join(KINDS[k] for k in position.rescued[s]) or "nothing"
        text = (f"{_seat_name(position, s)}: {position.scores[s]} points, {position.tiles[s]} tiles\n"
                f"  captured {taken}\n  rescued {rescued}")
        if position.match_games > 1:
            text += f"\n  match: {position.match_scores[s]} points, {position.match_tiles[s]} tiles"
        ax.text(1.03, 0.36 - 0.2 * s, text, transform=ax.transAxes, fontsize=8, va="top", wrap=True,
                gid=f"score-{s}-{position.scores[s]}")
    return ax
