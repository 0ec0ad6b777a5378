"""Attila map pictures: a position on the 25 provinces, a game's position with the seats' hands, and how
often each province saw a war.

The drawing functions follow :mod:`toolkit.core.drawing`: they take ``ax=None``,
create a figure only when no ``Axes`` is given, never call ``plt.show()`` and
return the ``Axes``.

Provinces are round nodes at fixed positions, borders are lines between their
centres.  The default map (the packaged ``attila_map.json``, spec §2.1) has a
hand-made layout that follows the late-Roman geography roughly (Britannia in
the north-west, Spain and Mauretania in the south-west, Asia in the east, the
six start provinces along the Rhine and Danube at the top).  Any other map
gets a deterministic spring layout (:func:`spring_layout`, numpy only), turned
so that its start provinces are on top.  A :class:`~toolkit.games.attila.board.Board`
does not tell land borders from sea links; given the ``Rules`` instead (or
``sea_links=``), sea links are drawn dashed.

The wars come from the readable reference (``reference.play_game`` with an
observer): :func:`war_log` lists one game's wars in order, :func:`war_logs`
and :func:`war_frequencies` count them over a few hundred games, and
:func:`war_heatmap` shades the map by the share of games with a war in each
province.  ``python -m toolkit.games.attila.viz docs/attila_map.png`` draws the
README's picture (:func:`main`).

Every artist the picture is built from carries a ``gid``, so tests (and
curious readers) can find them:

================  ==============================================================
``gid``           artist
================  ==============================================================
``"provinces"``   the nodes: one ``PatchCollection`` of circles, its ``get_array()``
                  the shading value of each province (canonical order)
``"borders"``     land borders (and, from a bare Board, sea links): a ``LineCollection``
``"sea_links"``   sea links, dashed (only when they are known)
``"start"``       the red rings of the start provinces (``PatchCollection``)
``"figures"``     one small square per figure, coloured by tribe (``PatchCollection``)
``"pacified"``    one peace tile per pacified province (``PatchCollection``)
``"label"``       the province ids (texts)
``"war_number"``  the number of the war that pacified a province (texts, with ``wars=``)
``"value"``       the shading value written in a province (texts, ``annotate=True``)
================  ==============================================================

:func:`draw` pictures one position of a game (``view.position``): the map with
``value_gids=True`` (the figures as ``"figures-{x}-{t}"``, the peace tiles as
``"pacified-{x}"``), and under it the table and one row per seat, every value
with its own ``gid`` (listed in its docstring).

Examples
--------
>>> import toolkit
>>> from toolkit.games.attila.reference import play_game
>>> from toolkit.games.attila.viz import draw_map
>>> rules = toolkit.rules("attila", num_players=3)
>>> game = play_game(rules, 2024, 0, ("greedy",) * 3)
>>> ax = draw_map(rules, game.figures, game.pacified)
>>> [c.get_gid() for c in ax.collections][:2]
['borders', 'sea_links']
>>> len(ax.collections[2].get_paths())  # the provinces
25
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from toolkit.core import stats
from toolkit.games.attila.board import resolve_path
from toolkit.games.attila.rules import TRIBES
from toolkit.core import drawing

# spec §2: Franks blue, Goths yellow, Saxons green, Vandals grey, Teutons red, Huns black
TRIBE_COLOURS = {
    "franks": "#1f5fbf", "goths": "#f2c511", "saxons": "#2e8b3d",
    "vandals": "#9a9a9a", "teutons": "#d62728", "huns": "#111111",
}
START_COLOUR = "#c0162b"  # the red start line of the seed
SEA_COLOUR = "#4a7fb5"
LAND_COLOUR = "#6b6255"
PEACE_COLOUR = "#fffdf2"
BLANK_COLOUR = "#f3ecd9"
CENTURIES = ("IV", "V", "VI", "VII")

# Hand-made layout of the default map: about (longitude, latitude) in degrees, nudged so that no two
# provinces are closer than 2.7 (a node is 2.2 across).  Only the picture uses it.
POSITIONS = {
    "GIN": (6.5, 52.0), "GSU": (8.0, 48.8), "RAE": (11.0, 49.5), "NOR": (14.5, 49.0),
    "PAN": (18.5, 47.5), "DAC": (24.5, 47.0),
    "BRI": (-1.5, 53.0), "BEL": (3.5, 50.2), "LUG": (0.5, 47.3), "AQU": (-1.5, 44.2),
    "NAR": (4.5, 44.3), "TAR": (0.5, 41.0), "LUS": (-7.5, 40.0), "BAE": (-4.5, 37.2),
    "MAU": (-3.0, 33.8), "AFR": (9.5, 35.2), "ITN": (10.5, 45.3), "ITS": (14.5, 41.5),
    "DAL": (17.5, 44.0), "MOE": (23.0, 44.0), "THR": (27.0, 41.5), "MAC": (21.5, 40.5),
    "ACH": (21.5, 37.2), "CRE": (25.0, 34.8), "ASI": (30.0, 38.5),
}
NODE_RADIUS = 1.1
TARGET_EDGE = 4.0  # mean border length of a fallback layout, about that of POSITIONS
MIN_DISTANCE = 2.7  # no two fallback nodes closer than this


def _board_of(board_or_rules):
    """(Board, sea links as index pairs or None) from a Board or an Attila ``Rules``."""
    if hasattr(board_or_rules, "board") and hasattr(board_or_rules, "map"):
        board = board_or_rules.board
        return board, map_links(board_or_rules.map, board)[1]
    if hasattr(board_or_rules, "neighbours") and hasattr(board_or_rules, "ids"):
        return board_or_rules, None
    raise ValueError(f"board={board_or_rules!r} is not allowed: an Attila Board (rules.board) or Rules")


def map_links(map_value: str, board) -> tuple[list, list]:
    """Land borders and sea links of a map file as pairs of province indices ``(a, b)``, ``a < b``."""
    data = json.loads(resolve_path(map_value).read_text())
    index = {p: i for i, p in enumerate(board.ids)}

    def pairs(key):
        return sorted(tuple(sorted((index[str(a)], index[str(b)]))) for a, b in data.get(key, ()))

    return pairs("land_borders"), pairs("sea_links")


def edges(board) -> list:
    """Every adjacency of ``board`` once, as ``(a, b)`` with ``a < b``, in canonical order."""
    return [(a, b) for a in range(board.n) for b in board.neighbours[a] if a < b]


def spring_layout(neighbours, iterations: int = 300) -> np.ndarray:
    """A deterministic force-directed (Fruchterman-Reingold) layout of a graph, numpy only.

    Parameters
    ----------
    neighbours : sequence of sequences of int
        ``neighbours[x]``: the nodes adjacent to ``x`` (as ``Board.neighbours``).
    iterations : int
        Steps of the simulation; the step size shrinks linearly to zero.

    Returns
    -------
    ndarray, shape (n, 2)
        Positions in the unit square's scale, centred on 0.  The start is the
        nodes on a circle in index order, so the same graph always gets the
        same picture.

    Examples
    --------
    >>> spring_layout([[1], [0, 2], [1]]).shape
    (3, 2)
    """
    n = len(neighbours)
    if n == 0:
        return np.zeros((0, 2))
    if n == 1:
        return np.zeros((1, 2))
    angle = 2 * np.pi * np.arange(n) / n
    pos = 0.5 * np.column_stack([np.cos(angle), np.sin(angle)])
    adjacency = np.zeros((n, n))
    for a, row in enumerate(neighbours):
        for b in row:
            adjacency[a, b] = adjacency[b, a] = 1.0
    k = 1.0 / np.sqrt(n)  # the ideal distance in a unit area
    for step in range(iterations):
        temperature = 0.1 * (1 - step / iterations)
        delta = pos[:, None, :] - pos[None, :, :]  # delta[i, j] = pos[i] - pos[j]
        distance = np.maximum(np.linalg.norm(delta, axis=2), 1e-9)
        force = k * k / distance ** 2 - adjacency * distance / k  # along delta / distance, per unit length
        np.fill_diagonal(force, 0.0)
        move = (delta * force[:, :, None]).sum(axis=1)
        length = np.maximum(np.linalg.norm(move, axis=1), 1e-9)
        pos = pos + move / length[:, None] * np.minimum(length, temperature)[:, None]
    return pos - pos.mean(axis=0)


def layout(board, positions=None) -> np.ndarray:
    """Node positions ``(n, 2)`` of ``board`` in canonical order.

    ``positions`` (id -> (x, y)) wins if given and complete; else the
    hand-made :data:`POSITIONS` if they name every province of the board;
    else a :func:`spring_layout` scaled so a border is about 4 units long,
    no two nodes are closer than 2.7, and turned so the start provinces
    are on top (north).
    """
    table = positions if positions is not None else POSITIONS
    if all(p in table for p in board.ids):
        return np.array([table[p] for p in board.ids], dtype=float)
    if positions is not None:
        missing = [p for p in board.ids if p not in positions]
        raise ValueError(f"positions is not allowed: it lacks the province(s) {', '.join(missing)}")
    pos = spring_layout(board.neighbours)
    if board.n < 2:
        return pos
    pairs = edges(board)
    mean_edge = np.mean([np.linalg.norm(pos[a] - pos[b]) for a, b in pairs]) if pairs else 1.0
    pos = pos * (TARGET_EDGE / max(mean_edge, 1e-9))
    gaps = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=2)
    closest = gaps[~np.eye(board.n, dtype=bool)].min()
    if closest < MIN_DISTANCE:
        pos = pos * (MIN_DISTANCE / max(closest, 1e-9))
    north = pos[list(board.start)].mean(axis=0)
    if np.linalg.norm(north) > 1e-6:  # turn the start provinces' side to the top
        turn = np.pi / 2 - np.arctan2(north[1], north[0])
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        pos = pos @ rotation.T
    return pos


def _tribe_index(tribe) -> int:
    if isinstance(tribe, (int, np.integer)) and not isinstance(tribe, bool) and 0 <= tribe < len(TRIBES):
        return int(tribe)
    if isinstance(tribe, str) and tribe.lower() in TRIBES:
        return TRIBES.index(tribe.lower())
    raise ValueError(f"shade={tribe!r} is not allowed: 'total', 'pacified', 'none', a tribe "
                     f"({', '.join(TRIBES)} or 0..5), or one number per province")


def _tribe_cmap(t: int):
    from matplotlib.colors import LinearSegmentedColormap, to_rgb

    colour = np.array(to_rgb(TRIBE_COLOURS[TRIBES[t]]))
    light = np.array(to_rgb(BLANK_COLOUR))
    return LinearSegmentedColormap.from_list(f"attila_{TRIBES[t]}", [light, 0.45 * light + 0.55 * colour])


def _figures_array(figures, n: int) -> np.ndarray:
    if figures is None:
        return np.zeros((n, len(TRIBES)), dtype=int)
    array = np.asarray(figures, dtype=int)
    if array.shape != (n, len(TRIBES)):
        raise ValueError(f"figures is not allowed: it needs shape ({n}, {len(TRIBES)}) (province, tribe), "
                         f"it has {array.shape}")
    if (array < 0).any():
        raise ValueError("figures is not allowed: counts must be >= 0")
    return array


def _war_provinces(wars, board) -> list:
    out = []
    for w in wars:
        x = board.index(w) if isinstance(w, str) else int(w)
        if not 0 <= x < board.n:
            raise ValueError(f"wars is not allowed: {w!r} is not a province of this map")
        out.append(x)
    return out


def _shading(shade, board, figures, pacified):
    """(values or None, colormap, default label) of a ``shade`` choice."""
    if shade is None or (isinstance(shade, str) and shade == "none"):
        return None, None, None
    if isinstance(shade, str) and shade == "total":
        return figures.sum(axis=1).astype(float), _total_cmap(), "figures in the province"
    if isinstance(shade, str) and shade in ("pacified", "wars"):
        return pacified.astype(float), _total_cmap(), "pacified (1) or not (0)"
    if isinstance(shade, (str, int, np.integer)):
        t = _tribe_index(shade)
        return figures[:, t].astype(float), _tribe_cmap(t), f"{TRIBES[t]} figures"
    values = np.asarray(shade, dtype=float)
    if values.shape != (board.n,):
        raise ValueError(f"shade is not allowed: it needs one number per province ({board.n}), "
                         f"it has shape {values.shape}")
    return values, None, "value"


def _total_cmap():
    from matplotlib.colors import LinearSegmentedColormap

    return LinearSegmentedColormap.from_list("attila_total", [BLANK_COLOUR, "#e9b96e", "#b5651d"])


def _collection(ax, patches, gid: str, **style) -> None:
    """``patches`` added to ``ax`` as one collection named ``gid`` (outlined in black)."""
    from matplotlib.collections import PatchCollection

    collection = PatchCollection(patches, edgecolor="black", **style)
    collection.set_gid(gid)
    ax.add_collection(collection)


def draw_map(board, figures=None, pacified=None, wars=None, ax=None, *, shade="total", title=None,
             positions=None, sea_links=None, cmap=None, vmin: float | None = 0.0, vmax: float | None = None,
             value_label: str | None = None, annotate: bool = False, fmt: str = "{:.2g}",
             legend: bool = True, colorbar: bool = True, names: bool = False, value_gids: bool = False):
    """Draw an Attila map, optionally with a position on it.

    Parameters
    ----------
    board : Board or Rules
        ``rules.board`` (land borders and sea links drawn alike), or the
        Attila ``Rules`` (sea links read from the ``map`` file, dashed).
    figures : array-like (provinces, 6), optional
        ``figures[x][t]``, as ``Game.figures`` of the reference; drawn as one
        small square per figure in the tribe's colour (§2).
    pacified : sequence of bool, optional
        ``Game.pacified``: a peace tile is drawn on each pacified province.
        Default: the provinces in ``wars``.
    wars : sequence of province indices or ids, optional
        The provinces in the order their wars were resolved
        (:func:`war_log`); each peace tile then shows its war's number.
    ax : matplotlib Axes, optional
    shade : str, int or array-like
        What the node colour shows: ``"total"`` (default: all figures in the
        province), a tribe (name or id 0..5: its figures, in its colour),
        ``"pacified"``, ``"none"``, or one number per province (e.g. a war
        frequency).
    title : str, optional
    positions : mapping id -> (x, y), optional
        A layout of your own (default: :func:`layout`).
    sea_links : iterable of pairs of ids or indices, optional
        Adjacencies to draw dashed as sea links (default: from the Rules'
        map file, none from a bare Board).
    cmap, vmin, vmax
        Colour scale of the shading (``vmax`` default: the largest value, at
        least the war threshold 5 for figure counts).
    value_label : str, optional
        The colour bar's label.
    annotate : bool
        Write each province's shading value in it (``fmt``).
    legend, colorbar : bool
        Tribe colours and markers to the right; a colour bar for the shading.
    names : bool
        Label provinces by name instead of id.
    value_gids : bool
        Group the figures by province and tribe, one collection each with
        the gid ``"figures-{x}-{t}"`` (its paths: one per figure), and give
        each peace tile its own collection ``"pacified-{x}"``, so the values
        can be read back (:func:`draw` uses this).  Default: one collection
        each, ``"figures"`` and ``"pacified"``.

    Returns
    -------
    matplotlib Axes
    """
    from matplotlib.collections import LineCollection, PatchCollection
    from matplotlib.patches import Circle, Rectangle

    board, file_sea = _board_of(board)
    ax = drawing.axes(ax, size=(12.5, 6.8))
    n = board.n
    pos = layout(board, positions)
    figures = _figures_array(figures, n)
    war_order = _war_provinces(wars, board) if wars is not None else []
    if pacified is None:
        pacified_mask = np.zeros(n, dtype=bool)
        pacified_mask[war_order] = True
    else:
        pacified_mask = np.asarray(pacified, dtype=bool)
        if pacified_mask.shape != (n,):
            raise ValueError(f"pacified is not allowed: it needs one flag per province ({n})")

    # borders: land solid, sea dashed (when known)
    sea = set()
    if sea_links is not None:
        for a, b in sea_links:
            a = board.index(a) if isinstance(a, str) else int(a)
            b = board.index(b) if isinstance(b, str) else int(b)
            sea.add((min(a, b), max(a, b)))
    elif file_sea is not None:
        sea = set(file_sea)
    all_edges = edges(board)
    land = [e for e in all_edges if e not in sea]
    sea_edges = [e for e in all_edges if e in sea]
    borders = LineCollection([pos[[a, b]] for a, b in land], colors=LAND_COLOUR, linewidths=1.6, zorder=1)
    borders.set_gid("borders")
    ax.add_collection(borders)
    if sea_edges:
        links = LineCollection([pos[[a, b]] for a, b in sea_edges], colors=SEA_COLOUR, linewidths=1.4,
                               linestyles=(0, (4, 3)), zorder=1)
        links.set_gid("sea_links")
        ax.add_collection(links)

    # the provinces, shaded
    values, default_cmap, default_label = _shading(shade, board, figures, pacified_mask)
    nodes = PatchCollection([Circle(tuple(p), NODE_RADIUS) for p in pos], edgecolor="#3b3b3b", linewidth=1.0,
                            zorder=2)
    nodes.set_gid("provinces")
    if values is None:
        nodes.set_facecolor(BLANK_COLOUR)
    else:
        nodes.set_array(values)
        nodes.set_cmap(cmap or default_cmap or "YlOrRd")
        top = vmax
        if top is None:
            top = float(np.nanmax(values)) if np.isfinite(values).any() else 1.0
            if isinstance(shade, (str, int, np.integer)) and shade not in ("pacified", "wars"):
                top = max(top, 5.0)  # figure counts: the war threshold is the natural top
            top = max(top, (vmin or 0.0) + 1e-9)
        nodes.set_clim(vmin if vmin is not None else float(np.nanmin(values)), top)
    ax.add_collection(nodes)

    starts = PatchCollection([Circle(tuple(pos[x]), NODE_RADIUS + 0.22) for x in board.start], facecolor="none",
                             edgecolor=START_COLOUR, linewidth=2.2, zorder=2.5)
    starts.set_gid("start")
    ax.add_collection(starts)

    # figures: one small square per figure, in a row across the lower half of the node
    squares, colours, groups = [], [], []  # groups: (x, t, first square, last square + 1)
    for x in range(n):
        count = int(figures[x].sum())
        if count == 0:
            continue
        size = min(0.36, 1.9 / count)
        left = pos[x, 0] - count * size / 2
        k = 0
        for t in range(len(TRIBES)):
            first = len(squares)
            for _ in range(int(figures[x, t])):
                squares.append(Rectangle((left + k * size + 0.03, pos[x, 1] - 0.62), size - 0.06, size - 0.06))
                colours.append(TRIBE_COLOURS[TRIBES[t]])
                k += 1
            if len(squares) > first:
                groups.append((x, t, first, len(squares)))
    if squares and value_gids:
        for x, t, first, last in groups:
            _collection(ax, squares[first:last], f"figures-{x}-{t}", facecolor=colours[first], linewidth=0.4, zorder=4)
    elif squares:
        _collection(ax, squares, "figures", facecolor=colours, linewidth=0.4, zorder=4)

    # peace tiles on the pacified provinces, with the war's number when known
    number = {x: i + 1 for i, x in enumerate(war_order)}
    tiles = [Rectangle((pos[x, 0] + 0.55, pos[x, 1] + 0.45), 0.8, 0.8) for x in range(n) if pacified_mask[x]]
    if tiles and value_gids:
        for x, tile in zip(np.flatnonzero(pacified_mask), tiles):
            _collection(ax, [tile], f"pacified-{x}", facecolor=PEACE_COLOUR, linewidth=0.9, zorder=5)
    elif tiles:
        _collection(ax, tiles, "pacified", facecolor=PEACE_COLOUR, linewidth=0.9, zorder=5)
        for x in range(n):
            if pacified_mask[x] and x in number:
                text = ax.text(pos[x, 0] + 0.95, pos[x, 1] + 0.85, str(number[x]), ha="center", va="center",
                               fontsize=6.5, fontweight="bold", zorder=6)
                text.set_gid("war_number")

    # labels, and the values if asked
    # white labels on the darkest shades; the norm is applied once to all provinces (one call per province
    # cost about 2 ms each, a third of a draw)
    dark = np.zeros(n, dtype=bool)
    if values is not None:
        finite = np.isfinite(values)
        dark[finite] = np.asarray(nodes.norm(values[finite]), dtype=float) > 0.8
    for x in range(n):
        label = ax.text(pos[x, 0], pos[x, 1] + 0.3, board.names[x] if names else board.ids[x], ha="center",
                        va="center", fontsize=6 if names else 7.5, fontweight="bold", zorder=3,
                        color="white" if dark[x] else "black")
        label.set_gid("label")
        if annotate and values is not None and np.isfinite(values[x]):
            text = ax.text(pos[x, 0], pos[x, 1] - 0.4, fmt.format(values[x]), ha="center", va="center",
                           fontsize=6.5, zorder=3, color="white" if dark[x] else "black")
            text.set_gid("value")

    pad = 2.0
    ax.set_xlim(pos[:, 0].min() - pad, pos[:, 0].max() + pad)
    ax.set_ylim(pos[:, 1].min() - pad, pos[:, 1].max() + pad)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    if values is not None and colorbar:
        # below the map, so the legend keeps the right-hand side
        ax.figure.colorbar(nodes, ax=ax, label=value_label or default_label, location="bottom", shrink=0.45,
                           fraction=0.04, pad=0.02, aspect=30)
    if title:
        ax.set_title(title)
    if legend:
        _legend(ax, with_tribes=bool(squares), with_sea=bool(sea_edges), with_peace=bool(tiles))
    return ax


def _legend(ax, *, with_tribes: bool, with_sea: bool, with_peace: bool) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = []
    if with_tribes:
        handles += [Patch(facecolor=TRIBE_COLOURS[t], edgecolor="black", label=t.capitalize()) for t in TRIBES]
    handles.append(Line2D([], [], marker="o", linestyle="none", markersize=11, markerfacecolor="none",
                          markeredgecolor=START_COLOUR, markeredgewidth=2, label="start province"))
    handles.append(Line2D([], [], color=LAND_COLOUR, linewidth=1.6, label="border"))
    if with_sea:
        handles.append(Line2D([], [], color=SEA_COLOUR, linewidth=1.4, linestyle=(0, (4, 3)), label="sea link"))
    if with_peace:
        handles.append(Patch(facecolor=PEACE_COLOUR, edgecolor="black", label="pacified (war number)"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)


# ---------------------------------------------------------------------------- a position of a game (issue 38)

CARD_BACK = "#7a5230"
DECIDING_COLOUR = "#ffe08a"
WAR_COLOUR = "#e8590c"
ROW = 1.7  # height of a seat's row in the panel under the map, in map units


def draw(position, seat=None, ax=None):
    """Draw a position (:func:`toolkit.games.attila.view.position`): the map, and under it the table and the seats.

    Parameters
    ----------
    position : view.Position
    seat : int, optional
        Draw what that seat may see: its own hand face up, the other hands as card backs, the
        support cards of a war as a count.  None: every hand face up ("open cards", said in the title).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        As :func:`draw_map` with ``value_gids=True`` (``figures-{x}-{t}``, ``pacified-{x}``), plus: a
        ring ``war-{x}`` on the province of the war being resolved and ``pending-{x}`` on those whose war
        is still to come; under the map the texts ``century``, ``peace``, ``deck``, ``discard`` and
        ``laid``; per seat ``p`` the texts ``seat-{p}``, ``vp-{p}``, ``influence-{p}-{t}`` (one per tribe)
        and ``tiles-{p}``; the hand as collections with a path per card, ``card-{p}-{t}`` (a tribe's cards,
        face up) or ``back-{p}`` (the whole hand, face down).

    Examples
    --------
    >>> import toolkit
    >>> from toolkit.games.attila import reference, view
    >>> game = reference.play_game(toolkit.rules("attila", num_players=2), 3, 0)
    >>> ax = draw(view.position(game), seat=0)  # seat 1's hand face down: one path per card
    >>> [len(c.get_paths()) for c in ax.collections if c.get_gid() == "back-1"] == [sum(game.hands[1])]
    True
    >>> [c.get_gid() for c in ax.collections if c.get_gid().startswith("card-1")]
    []
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle, Rectangle

    from toolkit.games.attila.board import load_map
    from toolkit.games.attila.view import DECISIONS, TILE_NAMES, TRIBE_NAMES

    pos = position
    n_seats = pos.num_players
    if seat is not None and not (isinstance(seat, (int, np.integer)) and 0 <= seat < n_seats):
        raise ValueError(f"seat={seat!r} is not allowed: None or a seat 0..{n_seats - 1}")
    board = load_map(pos.map)
    ax = drawing.axes(ax, size=(12.5, 8.2 + 0.45 * n_seats))
    draw_map(board, pos.figures, pos.pacified, ax=ax, sea_links=map_links(pos.map, board)[1], colorbar=False,
             value_gids=True)
    where = layout(board)
    for gid, provinces, style in (("war", [pos.war] if pos.war >= 0 else [], "-"), ("pending", pos.pending, ":")):
        for x in provinces:
            ring = Circle(tuple(where[x]), NODE_RADIUS + 0.45, fill=False, edgecolor=WAR_COLOUR, linewidth=2.4,
                          linestyle=style, zorder=2.6)
            ring.set_gid(f"{gid}-{x}")
            ax.add_patch(ring)

    x0, x1 = ax.get_xlim()
    x1 = max(x1, x0 + 41.0)  # the panel's columns need about 41 units
    top = ax.get_ylim()[0]  # the panel hangs under the map

    def text(x, y, words, gid, **style):
        artist = ax.text(x, y, words, **{"ha": "left", "va": "center", "fontsize": 8.5, **style})
        artist.set_gid(gid)
        return artist

    # the table: century, peace stacks, deck, discard pile and the war's face-down cards
    y = top - 0.9
    text(x0, y, f"century {CENTURIES[pos.century]}, {pos.rate} influence a play", "century")
    text(x0 + 12, y, "peace tiles left: " + ", ".join(f"{CENTURIES[c]} {k}" for c, k in enumerate(pos.peace)),
         "peace")
    text(x0 + 29, y, f"deck: {len(pos.deck)} cards", "deck")
    y -= 1.2
    pile = ", ".join(f"{k} {TRIBE_NAMES[t]}" for t, k in enumerate(pos.discard) if k) or "empty"
    text(x0, y, f"discard pile: {pile}", "discard")
    if pos.war >= 0:
        laid = sum(pos.laid)
        # face down until the reveal: a seat sees only how many, the open picture sees which
        shown = f"{laid} card{'s' if laid != 1 else ''}"
        if seat is None and laid:
            shown += ": " + ", ".join(f"{k} {TRIBE_NAMES[t]}" for t, k in enumerate(pos.laid) if k)
        text(x0 + 24, y, f"war in {pos.ids[pos.war]}, laid face down: {shown}", "laid", color=WAR_COLOUR)

    # the seats: name, VP, hand, influence tracks, unused tiles
    y -= 1.5
    for x, heading in ((x0, "seat"), (x0 + 4.8, "VP"), (x0 + 8, "hand"), (x0 + 19, "influence"),
                       (x0 + 29, "action tiles")):
        text(x, y, heading, "heading", fontweight="bold")
    frames = []
    for p in range(n_seats):
        y -= ROW
        name = f"seat {p}" + (" (you)" if p == seat else "")
        marker = text(x0, y, name, f"seat-{p}", fontweight="bold" if p == pos.active else "normal")
        if p == pos.seat:
            marker.set_bbox({"facecolor": DECIDING_COLOUR, "edgecolor": "none", "pad": 2})
        text(x0 + 4.8, y, str(pos.vp[p]), f"vp-{p}")
        # one collection per tribe's cards (face up) or per hand of backs: a path per card, and far
        # faster than a patch per card
        face_up = seat is None or seat == p
        k = 0
        for t in range(len(TRIBES)):
            cards = [Rectangle((x0 + 8 + 0.95 * (k + i), y - 0.6), 0.8, 1.2) for i in range(pos.hands[p][t])]
            k += len(cards)
            if cards and face_up:
                hand = PatchCollection(cards, facecolor=TRIBE_COLOURS[TRIBES[t]], edgecolor="black", linewidth=0.8)
                hand.set_gid(f"card-{p}-{t}")
                ax.add_collection(hand, autolim=False)
        if k and not face_up:
            backs = PatchCollection([Rectangle((x0 + 8 + 0.95 * i, y - 0.6), 0.8, 1.2) for i in range(k)],
                                    facecolor=CARD_BACK, edgecolor="black", linewidth=0.8, hatch="xx")
            backs.set_gid(f"back-{p}")
            ax.add_collection(backs, autolim=False)
        for t in range(len(TRIBES)):
            frames.append(Rectangle((x0 + 19 + 1.6 * t, y - 0.6), 1.4, 1.2))
            text(x0 + 19.7 + 1.6 * t, y, str(pos.influence[p][t]), f"influence-{p}-{t}", fontsize=8, ha="center")
        owned = ", ".join(TILE_NAMES[tile] for tile in pos.tiles[p]) or "none"
        text(x0 + 29, y, owned, f"tiles-{p}", fontsize=8)
    # the influence boxes, framed in the tribe's colour (a pale fill would make the black Huns look like the
    # grey Vandals)
    frames = PatchCollection(frames, facecolor="white", linewidth=2.0,
                             edgecolor=[TRIBE_COLOURS[TRIBES[t]] for _ in range(n_seats) for t in range(len(TRIBES))])
    frames.set_gid("influence-frames")
    ax.add_collection(frames, autolim=False)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y - 1.2, ax.get_ylim()[1])

    if pos.game_over:
        won = ", ".join(f"seat {p}" for p in pos.winners) or "nobody"
        state = f"the end ({pos.end_reason}), won by {won}"
    elif pos.seat >= 0:
        state = f"seat {pos.seat} to decide: {DECISIONS[pos.kind]} ({pos.options} options)"
    else:
        state = f"seat {pos.active} to play"
    view = "open cards: every hand shown" if seat is None else f"as seat {seat} sees it: the other hands face down"
    ax.set_title(f"Attila, turn {pos.turn + 1 if not pos.game_over else pos.turn}, {state}\n{view}", fontsize=10)
    return ax


# ---------------------------------------------------------------------------- wars of the reference


def _century_of_war(rules, k: int) -> int:
    """The century (0..3 = IV..VII) of the k-th war (1-based): it takes a tile from that stack."""
    return int(np.searchsorted(np.cumsum(rules.peace_tiles_per_century), k))


def war_log(rules, seed: int = 0, game_index: int = 0, policies=None):
    """Play one game with the reference and list its wars in the order they were resolved.

    Parameters
    ----------
    rules : Rules
    seed, game_index : int
        The game (the same as game ``game_index`` of ``toolkit.simulate`` with that seed).
    policies : sequence of str, optional
        One per seat; default ``greedy`` in every seat.

    Returns
    -------
    (Game, DataFrame)
        The finished reference game, and one row per war: ``war`` (1-based),
        ``province`` (index), ``id``, ``name``, ``turn`` (1-based) and
        ``century`` (IV..VII).

    Notes
    -----
    The order comes from the observer: a war's support decisions (DP-7, whose
    ``info`` is the war province) happen before its province is pacified, and
    a province that turns pacified between two decisions had its war in
    between.  Only wars with no support decision at all (nobody held a card)
    and no decision between them are ordered by province index.
    """
    from toolkit.games.attila.reference import DP_SUPPORT, play_game

    policies = tuple(policies) if policies is not None else ("greedy",) * rules.num_players
    seen: list = []  # (province, turn)
    known: set = set()

    def note_pacified(game, turn):
        for x in range(game.board.n):
            if game.pacified[x] and x not in known:
                known.add(x)
                seen.append((x, turn))

    def observer(game, decision, choice):
        # wars come after a turn's plays: a province pacified before a play-phase decision fell in the
        # previous turn (game.turns of them are over); before a support decision, in the current one
        in_war = decision.kind == DP_SUPPORT
        note_pacified(game, game.turns + 1 if in_war else game.turns)
        if in_war and decision.info not in known:
            known.add(decision.info)
            seen.append((decision.info, game.turns + 1))

    game = play_game(rules, seed, game_index, policies, observer=observer)
    note_pacified(game, game.turns)
    board = game.board
    rows = [{"war": k + 1, "province": x, "id": board.ids[x], "name": board.names[x], "turn": turn,
             "century": CENTURIES[_century_of_war(rules, k + 1)]} for k, (x, turn) in enumerate(seen)]
    return game, pd.DataFrame(rows, columns=["war", "province", "id", "name", "turn", "century"])


def war_logs(rules, n_games: int = 200, seed: int = 0, policies=None) -> list:
    """:func:`war_log` of games ``0 .. n_games - 1``: a list of ``(Game, DataFrame)``.

    The pure-Python reference plays about 10 greedy 4-player games a second
    (200 random ones), so keep ``n_games`` to a few hundred.
    """
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"n_games={n_games!r} is not allowed: an integer >= 1")
    return [war_log(rules, seed, g, policies) for g in range(n_games)]


def war_frequencies(rules, n_games: int = 200, seed: int = 0, policies=None, *, logs=None) -> pd.DataFrame:
    """How often each province saw a war, over ``n_games`` reference games (a province has at most one).

    Parameters
    ----------
    rules : Rules
    n_games, seed, policies
        The games to play (:func:`war_logs`), unless ``logs`` is given.
    logs : list of (Game, DataFrame), optional
        :func:`war_logs` output, to count without replaying.

    Returns
    -------
    DataFrame
        One row per province (canonical order, index = id): ``name``,
        ``start`` (a start province), ``games``, ``wars``, ``share`` (of the
        games) with its 95% Wilson interval ``ci_low``/``ci_high``,
        ``mean_war`` (its mean war number when it had one: 1 = the game's first
        war) and the count of its wars in each century ``IV`` .. ``VII``.
    """
    if logs is None:
        logs = war_logs(rules, n_games, seed, policies)
    n_games = len(logs)
    board = rules.board
    wars = np.zeros(board.n, dtype=int)
    number_sum = np.zeros(board.n)
    by_century = np.zeros((board.n, 4), dtype=int)
    for _, log in logs:
        for row in log.itertuples():
            wars[row.province] += 1
            number_sum[row.province] += row.war
            by_century[row.province, CENTURIES.index(row.century)] += 1
    share, low, high = stats.wilson(wars, n_games)
    mean_war = np.where(wars > 0, number_sum / np.maximum(wars, 1), np.nan)
    table = pd.DataFrame({"name": board.names, "start": [x in board.start for x in range(board.n)],
                          "games": n_games, "wars": wars, "share": share, "ci_low": low, "ci_high": high,
                          "mean_war": mean_war}, index=pd.Index(board.ids, name="province"))
    for c, label in enumerate(CENTURIES):
        table[label] = by_century[:, c]
    return table


def war_heatmap(rules=None, n_games: int = 200, seed: int = 0, policies=None, ax=None, *, frequencies=None,
                title: str | None = None, cmap: str = "Reds"):
    """The map shaded by the share of games in which each province saw a war.

    Parameters
    ----------
    rules : Rules, optional
        Default: the standard rules (4 players).
    n_games, seed, policies
        Passed to :func:`war_frequencies` (unless ``frequencies`` is given).
    ax : matplotlib Axes, optional
    frequencies : DataFrame, optional
        A :func:`war_frequencies` table, to draw without replaying.
    title : str, optional
        Default: the number of games and players.

    Returns
    -------
    matplotlib Axes
        As :func:`draw_map`, each province's share written in it.
    """
    if rules is None:
        from toolkit.games.attila.rules import Rules

        rules = Rules()
    if frequencies is None:
        frequencies = war_frequencies(rules, n_games, seed, policies)
    board = rules.board
    share = frequencies["share"].reindex(list(board.ids)).to_numpy(float)
    games = int(frequencies["games"].iloc[0])
    if title is None:
        title = f"share of games with a war in the province ({games:,} games, {rules.num_players} players)"
    return draw_map(rules, shade=share, ax=ax, title=title, cmap=cmap, vmin=0.0, vmax=1.0,
                    value_label="share of games with a war here", annotate=True, fmt="{:.0%}")


def main(argv=None) -> int:
    """``python -m toolkit.games.attila.viz [PATH]``: draw README's map picture (default ``docs/attila_map.png``).

    The final position of game 0 of seed 2024, four greedy players, standard
    rules, with the number of each war on its peace tile.
    """
    import sys

    import matplotlib

    matplotlib.use("Agg")
    from toolkit.games.attila.rules import Rules

    args = sys.argv[1:] if argv is None else list(argv)
    path = args[0] if args else "docs/attila_map.png"
    rules = Rules()
    game, log = war_log(rules, seed=2024, game_index=0)
    winners = ", ".join(f"seat {p}" for p in game.winners())
    ax = draw_map(rules, game.figures, game.pacified, wars=log["province"],
                  title=f"Attila, the end of game 0 of seed 2024: four greedy players, {game.turns} turns, "
                        f"{game.wars} wars, VP {game.vp}, won by {winners}")
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
