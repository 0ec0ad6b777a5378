"""Walhalla board pictures: the three peninsulas, the four fjords with their dragons, the supplies.

:func:`draw_board` follows :mod:`toolkit.core.drawing`: it takes ``ax=None``,
creates a figure only when no ``Axes`` is given, never calls ``plt.show()``,
labels its axes and returns the ``Axes``.

The board is drawn as spec §3 describes it, the coast at the bottom:

- peninsulas P0, P1, P2 are columns of ``2 x tiles`` fields going up from the
  coast (field j at distance j), each field coloured by type (village,
  forest, cult place, wheat with its printed value), a thicker frame around
  each tile (two fields); beyond the last field the inner tip (3-5, second
  place) and then the outer tip (6-8, first place), with their VP;
- an occupied field carries a disc in the occupant's colour (seat s plays
  ``COLOURS[s]``: red, blue, green, yellow);
- the fjords F0 (left of P0), F1, F2 and F3 (right of P2) are water columns
  whose positions are level with the fields (position q touches field q);
  the s-th dragon moored in a fjord (s = 0, 1, ...) is a boat over positions
  3s+1 (bow, nearest the coast), 3s+2 and 3s+3 (stern), its coloured seat
  framed and tinted in its colour; small discs on the seats show the crew it
  brought (they have gone ashore, or back to Midgard, since);
- to the right, each player's VP, Midgard, Asgard, Walhalla and hand size
  (the start player of the raid marked ``>``).

The reference keeps only how many dragons each fjord holds (``Game.moored``).
Which dragon went where is seen by an observer at DP-3 (the fjord decision):
:class:`MooringLog` notes the fjord, the dragon and its crew, and
:func:`position_of` turns a reference ``Game`` and that log into a
:class:`Position`.  :func:`replay` plays one seeded game and keeps the position
at the start of each raid, after every turn and after each raid's scoring: the
slider of ``notebooks/walhalla.py``.  ``python -m toolkit.games.walhalla.viz
docs/walhalla_board.png`` draws README's picture (:func:`main`).

Every artist of the picture carries a ``gid`` of colon-separated fields, so
tests (and curious readers) can find them; :func:`parts` parses them:

=====================  ========================================================
``gid``                artist
=====================  ========================================================
``field:k:i``          field i + 1 of peninsula k (a rectangle)
``tile:k:t``           the frame of tile t + 1 of peninsula k (fields 2t+1, 2t+2)
``viking:k:i:c``       colour c's Viking on field i + 1 of peninsula k (a disc)
``tip:k:inner``        the inner tip of peninsula k (``tip:k:outer``: the outer)
``fjord:f``            the water of fjord f
``dragon:f:s``         the s-th dragon moored in fjord f (its hull)
``seat:f:s:j:c``       seat j (0 bow) of that dragon; c = the colour of a
                       coloured seat, -1 for a neutral one (-2: not known)
``crew:f:s:j:c``       colour c's Viking that sailed on seat j of that dragon
``last``               the outline of the dragon of the turn just taken
``changed:k:i``        the outline of a field whose occupant changed in that turn
``panel:p:KEY``        a value of seat p in the side panel (texts; KEY one of
                       ``vp``, ``midgard``, ``asgard``, ``walhalla``, ``cards``)
=====================  ========================================================

:func:`draw` draws a ``view.Position`` (issue 38) with :func:`draw_board` and
adds, beside the panel, each hand as the seat it is drawn for may see it, the
decks, the dragon drawn this turn and its crew:

=====================  ========================================================
``card:p:c``           how many cards of type c (``CARD_TYPES`` order) seat p
                       holds (a text), drawn only for a seat allowed to see them
``back:p``             seat p's hand face down: its size (a text)
``decks``              the action deck, discard pile and dragons left (sizes)
``drawn:d:c:j``        the dragon d drawn this turn, coloured seat j of colour c
``aboard:j:c``         its seat j (0 bow): colour c aboard, -1 for empty
``current``            the outline of that dragon once moored
=====================  ========================================================

Examples
--------
>>> import toolkit
>>> from toolkit.games.walhalla.viz import draw_board, parts, replay
>>> positions = replay(toolkit.rules("walhalla"), seed=2024)
>>> ax = draw_board(positions[5])
>>> len(parts(ax, "field"))  # 2 x 6 fields on each of the 3 peninsulas
36
>>> len(parts(ax, "dragon")) == positions[5].turn_in_raid
True
"""

from __future__ import annotations

import dataclasses

from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.data import COLOURS, FIELD_TYPES, WHEAT, load_dragons
from toolkit.core import drawing

__all__ = ["Mooring", "MooringLog", "Position", "draw", "draw_board", "main", "parts", "position_of", "replay"]

PLAYER_COLOURS = {"red": "#d62728", "blue": "#1f5fbf", "green": "#2e8b3d", "yellow": "#f2c511"}
# pale field colours, so the saturated player discs stand out on every type
FIELD_COLOURS = {"village": "#d8c3a5", "forest": "#9dbf8e", "cult": "#c9b8e0", "wheat": "#f5e3a1"}
FIELD_LETTERS = {"village": "V", "forest": "F", "cult": "C", "wheat": "W"}
SEA_COLOUR = "#cfe3f3"
COAST_COLOUR = "#e8dcc0"
TIP_COLOURS = {"inner": "#b9a888", "outer": "#8f7d5c"}
HULL_COLOUR = "#8b5a2b"
SEAT_COLOUR = "#f4ead5"
LAST_COLOUR = "#e6007e"
PANEL_KEYS = ("vp", "midgard", "asgard", "walhalla", "cards")
PANEL_HEADERS = ("VP", "Midgard", "Asgard", "Walhalla", "cards")

# the geometry of the picture, in data units: one position (= one field) is H high
H = 0.62
FJORD_WIDTH = 1.0
PENINSULA_WIDTH = 1.5
# columns from left to right: F0, P0, F1, P1, F2, P2, F3
COLUMNS = ("F0", "P0", "F1", "P1", "F2", "P2", "F3")
_WIDTHS = [FJORD_WIDTH if c[0] == "F" else PENINSULA_WIDTH for c in COLUMNS]
_LEFT = [sum(_WIDTHS[:i]) for i in range(len(COLUMNS))]
BOARD_WIDTH = sum(_WIDTHS)
PANEL_WIDTH = 7.8


def _fjord_left(f: int) -> float:
    return _LEFT[2 * f]


def _peninsula_left(k: int) -> float:
    return _LEFT[2 * k + 1]


# ---------------------------------------------------------------------------- positions


@dataclasses.dataclass(frozen=True)
class Mooring:
    """A dragon moored in a fjord in the current raid (spec §3.4)."""

    fjord: int  # 0..3
    slot: int  # s: dragons already in the fjord when it came; it occupies positions 3s+1..3s+3
    dragon: int  # index into the dragon set (data order); -1 when not known
    colour: int  # the colour of its coloured seat (0..3); -1 when not known
    seat: int  # its coloured seat (0 bow, 1 middle, 2 stern); -1 when not known
    crew: tuple = (-1, -1, -1)  # crew[j]: the colour on seat j when it sailed in, -1 for empty

    @property
    def positions(self) -> tuple:
        """The fjord positions of its bow, middle and stern (1-based, from the coast)."""
        return tuple(3 * self.slot + 1 + j for j in range(3))

    @property
    def name(self) -> str:
        return load_dragons().ids[self.dragon] if self.dragon >= 0 else "a dragon"


class MooringLog:
    """An observer for ``reference.play_game`` that notes every DP-3: which fjord each dragon sailed to.

    Call it as the observer (or from one); ``then``, if given, is called after
    it with the same arguments.  ``entries`` lists ``(raid, fjord, dragon,
    crew)`` in the order the dragons sailed; at DP-3 the dragon is
    ``game.dragon`` and its crew ``game.aboard`` (the Vikings land after the
    decision).  :meth:`current` gives the dragons moored at a moment of the game.
    """

    def __init__(self, then=None):
        self.entries: list = []
        self.then = then

    def __call__(self, game, decision, choice) -> None:
        if decision.kind == ref.DP_FJORD:
            self.entries.append((game.raid, int(choice), int(game.dragon), tuple(int(c) for c in game.aboard)))
        if self.then is not None:
            self.then(game, decision, choice)

    def current(self, game) -> list:
        """The dragons moored now, as :class:`Mooring` in arrival order (none once a preparation
        has collected them: ``game.moored`` is all zero)."""
        if sum(game.moored) == 0:
            return []
        dragons = load_dragons()
        slots = [0, 0, 0, 0]
        out = []
        for raid, f, d, crew in self.entries:
            if raid != game.raid:
                continue
            out.append(Mooring(f, slots[f], d, int(dragons.colours[d]), int(dragons.seats[d]), crew))
            slots[f] += 1
        return out


@dataclasses.dataclass(frozen=True)
class Position:
    """One moment of a Walhalla game, everything :func:`draw_board` needs.

    Fields are indexed from 0: ``occupant[k][i]`` is field ``i + 1`` of
    peninsula k (at distance ``i + 1`` from the coast), as in the reference.
    """

    num_players: int
    lengths: tuple  # tiles of P0, P1, P2 (a peninsula has 2 x tiles fields)
    field_type: tuple  # field_type[k][i]: index into FIELD_TYPES (0 village, 1 forest, 2 cult, 3 wheat)
    field_value: tuple  # field_value[k][i]: the printed wheat value, 0 for other types
    occupant: tuple  # occupant[k][i]: the colour (= seat) on the field, -1 for none
    inner_tip: tuple  # VP of the inner tip (second place) of P0, P1, P2
    outer_tip: tuple  # VP of the outer tip (first place)
    moorings: tuple  # Mooring, in arrival order
    vp: tuple  # per seat
    midgard: tuple
    asgard: tuple
    walhalla: tuple
    hand_sizes: tuple
    raid: int = 0  # 0-based
    raids: int = 3
    start: int = 0  # the start player of the raid
    turn: int = 0  # dragons drawn so far in the game
    turn_in_raid: int = 0  # dragons drawn so far in this raid
    event: str = ""  # "start" (of a raid), "turn", "raid end" (after its scoring), "end" (of the game), or ""
    active: int = -1  # event "turn": the seat whose turn it was
    changed: tuple = ()  # fields (k, i) whose occupant changed since the previous position of a replay
    laid: tuple = ()  # events "raid end"/"end": each seat's DP-8 vector (h0, h1, h2, w, pl), () if none laid
    winners: tuple = ()  # event "end"
    index: int = 0  # place in a replay

    @property
    def fields(self) -> tuple:
        """Fields per peninsula (2 x tiles)."""
        return tuple(2 * t for t in self.lengths)

    def caption(self) -> str:
        r = f"raid {self.raid + 1} of {self.raids}"
        if self.event == "start":
            return f"{r}: the start ({self.start_text()} starts)"
        if self.event == "turn":
            last = self.moorings[-1] if self.moorings else None
            sailed = f", {last.name} to F{last.fjord}" if last is not None else ""
            return f"{r}, turn {self.turn_in_raid}: {self.seat_text(self.active)} played{sailed}"
        if self.event == "raid end":
            return f"{r} scored (card phase and peninsula scoring), VP {list(self.vp)}"
        if self.event == "end":
            won = " and ".join(self.seat_text(p) for p in self.winners)
            verb = "wins" if len(self.winners) == 1 else "share the win"
            return f"the end after the final scoring: VP {list(self.vp)}, {won} {verb}"
        return f"{r}, after {self.turn_in_raid} dragons"

    @staticmethod
    def seat_text(p: int) -> str:
        return f"seat {p} ({COLOURS[p]})"

    def start_text(self) -> str:
        return self.seat_text(self.start)


def _moorings(game, moored_dragons) -> tuple:
    """The moorings of ``game`` from a log (checked against ``game.moored``), or anonymous ones."""
    if moored_dragons is None:
        return tuple(Mooring(f, s, -1, -1, -1) for f in range(4) for s in range(game.moored[f]))
    dragons = load_dragons()
    slots = [0, 0, 0, 0]
    out = []
    for m in moored_dragons:
        if not isinstance(m, Mooring):  # (fjord, dragon, crew)
            f, d, crew = m
            m = Mooring(int(f), -1, int(d), int(dragons.colours[d]), int(dragons.seats[d]), tuple(crew))
        out.append(dataclasses.replace(m, slot=slots[m.fjord]))
        slots[m.fjord] += 1
    if slots != list(game.moored):
        raise ValueError(f"moored_dragons is not allowed: it puts {slots} dragons in the fjords, the game has "
                         f"{list(game.moored)}")
    return tuple(out)


def position_of(game, moored_dragons=None, **extra) -> Position:
    """The :class:`Position` of a reference ``Game`` now.

    Parameters
    ----------
    game : toolkit.games.walhalla.reference.Game
        At any moment (from an observer, or finished).
    moored_dragons : sequence, optional
        The dragons moored now, in arrival order: :class:`Mooring` objects
        (``MooringLog.current(game)``) or ``(fjord, dragon, crew)`` triples.
        Their number per fjord must match ``game.moored``.  Default: one
        anonymous dragon per mooring (hull and seats only: the reference does
        not keep which dragon is where).
    **extra
        Other :class:`Position` fields (``event``, ``active``, ``changed``,
        ``laid``, ``winners``, ``index``).

    Examples
    --------
    >>> import toolkit
    >>> from toolkit.games.walhalla.reference import play_game
    >>> log = MooringLog()
    >>> game = play_game(toolkit.rules("walhalla", num_players=3), 7, 0, ("greedy",) * 3, observer=log)
    >>> p = position_of(game, log.current(game))
    >>> p.num_players, len(p.moorings) == game.turns_per_raid[-1]
    (3, True)
    """
    n = game.n
    return Position(
        num_players=n, lengths=tuple(game.lengths),
        field_type=tuple(tuple(int(t) for t in row) for row in game.field_type),
        field_value=tuple(tuple(int(v) for v in row) for row in game.field_value),
        occupant=tuple(tuple(int(o) for o in row) for row in game.occupant),
        inner_tip=tuple(game.inner_tip), outer_tip=tuple(game.outer_tip),
        moorings=_moorings(game, moored_dragons),
        vp=tuple(game.vp), midgard=tuple(game.midgard), asgard=tuple(game.asgard), walhalla=tuple(game.walhalla),
        hand_sizes=tuple(sum(h) for h in game.hands), raid=game.raid, raids=game.rules.raids, start=game.start,
        turn=game.turns, turn_in_raid=game.turns_per_raid[game.raid], **extra)


class _ReplayGame(ref.Game):
    """The reference game, with a position kept at the start of each raid, after each turn and
    after each raid's scoring.

    The observer sees decision points only; a turn can end with no decision after it before the
    raid's cleanup (when nobody holds a card to lay), so the turn and raid boundaries are taken
    here, around ``Game.turn`` and ``Game.score_raid``; the rules are the reference's, untouched.
    """

    def __init__(self, rules, seed, game_index, policies):
        self.log = MooringLog(then=self._note_cards)
        self.laid = {}
        self.positions = []
        super().__init__(rules, seed, game_index, policies, observer=self.log)

    def _note_cards(self, game, decision, choice):
        if decision.kind == ref.DP_RAID_CARDS:
            self.laid[decision.seat] = tuple(choice)

    def _keep(self, event, **extra):
        position = position_of(self, self.log.current(self), event=event, index=len(self.positions), **extra)
        if self.positions:
            before = self.positions[-1].occupant
            changed = tuple((k, i) for k in range(3) for i, o in enumerate(position.occupant[k])
                            if o != before[k][i])
            position = dataclasses.replace(position, changed=changed)
        self.positions.append(position)

    def turn(self, active):
        if self.turns_per_raid[self.raid] == 0:
            self._keep("start")
        super().turn(active)
        self._keep("turn", active=active)

    def score_raid(self):
        self.laid = {}
        walhalla_cards = super().score_raid()
        last = self.raid == self.rules.raids - 1
        laid = tuple(self.laid.get(p, ()) for p in range(self.n))
        self._keep("end" if last else "raid end", laid=laid,
                   winners=tuple(self.winners()) if last else ())
        return walhalla_cards


def replay(rules, seed: int = 0, game_index: int = 0, policies=None) -> list:
    """Play one game with the reference and keep its positions.

    Parameters
    ----------
    rules : walhalla Rules
    seed, game_index : int
        The game: the same as row ``game_index`` of ``toolkit.simulate("walhalla", rules, n, seed=seed)``
        (the kernel and the reference play identical games).
    policies : sequence of str, optional
        One per seat; default ``greedy`` in every seat.

    Returns
    -------
    list of Position
        In order: the start of each raid (``event="start"``; raid 2 and 3
        after the cleanup, reinforcement and heroes leaving), the position
        after every turn (``"turn"``, the turn's dragon last in ``moorings``),
        and after each raid's card phase and scoring (``"raid end"``; the
        last one, after the final scoring, ``"end"``).  A raid with no turn
        has no start position.
    """
    policies = tuple(policies) if policies is not None else ("greedy",) * rules.num_players
    if len(policies) != rules.num_players:
        raise ValueError(f"policies={policies!r} is not allowed: one per seat ({rules.num_players})")
    return _ReplayGame(rules, seed, game_index, policies).play_out().positions


# ---------------------------------------------------------------------------- drawing


def parts(ax, kind: str) -> list:
    """The artists of ``ax`` whose gid starts with ``kind``, as ``(fields, artist)``.

    ``fields`` are the gid's integer fields after the kind (``(k, i, c)`` for
    ``viking:k:i:c``; ``()`` for ``last``; the last field of ``tip`` is text).
    """
    out = []
    for artist in list(ax.patches) + list(ax.texts):
        gid = artist.get_gid()
        if not gid:
            continue
        head, *rest = gid.split(":")
        if head == kind:
            out.append((tuple(int(x) if x.lstrip("-").isdigit() else x for x in rest), artist))
    return out


def _top(position) -> int:
    """The highest position drawn: the farthest mooring a fjord allows, or the outer tips."""
    reach = []
    for f in range(4):
        fields = max(position.fields[k] for k in (f - 1, f) if 0 <= k <= 2)
        reach.append(3 * -(-fields // 3))  # capacity ceil(fields / 3) dragons of 3 positions
    return max(max(reach), max(position.fields) + 2)


def _draw_peninsula(ax, position, k, highlight):
    from matplotlib.patches import Circle, Polygon, Rectangle

    left = _peninsula_left(k)
    n_fields = position.fields[k]
    for i in range(n_fields):
        kind = FIELD_TYPES[position.field_type[k][i]]
        field = Rectangle((left + 0.04, i * H), PENINSULA_WIDTH - 0.08, H, facecolor=FIELD_COLOURS[kind],
                          edgecolor="#7a6a50", linewidth=0.5, zorder=1)
        field.set_gid(f"field:{k}:{i}")
        ax.add_patch(field)
        label = FIELD_LETTERS[kind] + (str(position.field_value[k][i]) if position.field_type[k][i] == WHEAT else "")
        ax.text(left + 0.14, (i + 0.5) * H, label, ha="left", va="center", fontsize=7.5,
                fontweight="bold" if kind == "wheat" else "normal", color="#3b3020", zorder=2)
        owner = position.occupant[k][i]
        if owner >= 0:
            disc = Circle((left + 0.62 * PENINSULA_WIDTH, (i + 0.5) * H), 0.22,
                          facecolor=PLAYER_COLOURS[COLOURS[owner]], edgecolor="black", linewidth=0.9, zorder=3)
            disc.set_gid(f"viking:{k}:{i}:{owner}")
            ax.add_patch(disc)
        if highlight and (k, i) in position.changed:
            frame = Rectangle((left + 0.06, i * H + 0.03), PENINSULA_WIDTH - 0.12, H - 0.06, fill=False,
                              edgecolor=LAST_COLOUR, linewidth=1.8, zorder=4)
            frame.set_gid(f"changed:{k}:{i}")
            ax.add_patch(frame)
    for t in range(position.lengths[k]):
        frame = Rectangle((left + 0.04, 2 * t * H), PENINSULA_WIDTH - 0.08, 2 * H, fill=False, edgecolor="#4d4030",
                          linewidth=1.4, zorder=2)
        frame.set_gid(f"tile:{k}:{t}")
        ax.add_patch(frame)
    # the tips beyond the last field: inner (second place), then outer (first place), not fields
    y0, x0, x1 = n_fields * H, left + 0.04, left + PENINSULA_WIDTH - 0.04
    inner = Polygon([(x0, y0), (x1, y0), (x1 - 0.2, y0 + H), (x0 + 0.2, y0 + H)], closed=True,
                    facecolor=TIP_COLOURS["inner"], edgecolor="#4d4030", linewidth=1.0, zorder=1)
    inner.set_gid(f"tip:{k}:inner")
    outer = Polygon([(x0 + 0.2, y0 + H), (x1 - 0.2, y0 + H), ((x0 + x1) / 2, y0 + 2.3 * H)], closed=True,
                    facecolor=TIP_COLOURS["outer"], edgecolor="#4d4030", linewidth=1.0, zorder=1)
    outer.set_gid(f"tip:{k}:outer")
    ax.add_patch(inner)
    ax.add_patch(outer)
    for text, y, colour, gid in ((position.inner_tip[k], y0 + 0.5 * H, "black", f"tip:{k}:inner"),
                                 (position.outer_tip[k], y0 + 1.45 * H, "white", f"tip:{k}:outer")):
        label = ax.text((x0 + x1) / 2, y, str(text), ha="center", va="center", fontsize=9, fontweight="bold",
                        color=colour, zorder=2)
        label.set_gid(gid)
    ax.text(left + PENINSULA_WIDTH / 2, -0.45, f"P{k}: {position.lengths[k]} tiles", ha="center", va="center",
            fontsize=8.5, zorder=2)


def _draw_dragon(ax, m: Mooring, last: bool):
    from matplotlib.patches import Circle, Polygon, Rectangle

    centre = _fjord_left(m.fjord) + FJORD_WIDTH / 2
    half = 0.34 * FJORD_WIDTH
    bottom, top = 3 * m.slot * H, (3 * m.slot + 3) * H
    known = m.dragon >= 0
    # the bow (seat 0) points to the coast: the dragon sailed in until it met the coast or a dragon
    hull = Polygon([(centre, bottom + 0.03), (centre + half, bottom + 0.45 * H), (centre + half, top - 0.08),
                    (centre - half, top - 0.08), (centre - half, bottom + 0.45 * H)], closed=True,
                   facecolor=HULL_COLOUR if known else "#a0a0a0", edgecolor="black", linewidth=0.9,
                   linestyle="-" if known else "--", zorder=2)
    hull.set_gid(f"dragon:{m.fjord}:{m.slot}")
    ax.add_patch(hull)
    for j in range(3):
        y = (3 * m.slot + j) * H
        coloured = known and j == m.seat
        tint = PLAYER_COLOURS[COLOURS[m.colour]] if coloured else "#6b4a2a"
        bow = 0.12 if j == 0 else 0.0  # the bow seat sits higher, clear of the pointed bow
        seat = Rectangle((centre - 0.24, y + 0.1 + bow), 0.48, H - 0.2 - bow,
                         facecolor=(*_rgb(tint), 0.45) if coloured else SEAT_COLOUR, edgecolor=tint,
                         linewidth=2.4 if coloured else 0.6, zorder=3)
        seat.set_gid(f"seat:{m.fjord}:{m.slot}:{j}:{m.colour if coloured else (-1 if known else -2)}")
        ax.add_patch(seat)
        sailor = m.crew[j]
        if sailor >= 0:
            disc = Circle((centre, (3 * m.slot + j + 0.5) * H + (0.05 if j == 0 else 0)), 0.1,
                          facecolor=PLAYER_COLOURS[COLOURS[sailor]], edgecolor="black", linewidth=0.7, zorder=4)
            disc.set_gid(f"crew:{m.fjord}:{m.slot}:{j}:{sailor}")
            ax.add_patch(disc)
    if last:
        frame = Polygon(hull.get_xy(), closed=True, fill=False, edgecolor=LAST_COLOUR, linewidth=2.4, zorder=5)
        frame.set_gid("last")
        ax.add_patch(frame)


def _rgb(colour):
    from matplotlib.colors import to_rgb

    return to_rgb(colour)


def _draw_panel(ax, position, x0, y_top):
    from matplotlib.patches import Rectangle

    offsets = (2.55, 3.95, 5.1, 6.45, 7.4)
    ax.text(x0, y_top, "seat", ha="left", va="center", fontsize=9, fontweight="bold")
    for dx, header in zip(offsets, PANEL_HEADERS):
        ax.text(x0 + dx, y_top, header, ha="right", va="center", fontsize=9, fontweight="bold")
    for p in range(position.num_players):
        y = y_top - (p + 1) * 0.62
        swatch = Rectangle((x0 + 0.18, y - 0.2), 0.4, 0.4, facecolor=PLAYER_COLOURS[COLOURS[p]], edgecolor="black",
                           linewidth=0.8)
        swatch.set_gid(f"swatch:{p}")
        ax.add_patch(swatch)
        ax.text(x0 - 0.05, y, ">" if p == position.start else "", ha="right", va="center", fontsize=9,
                fontweight="bold")
        ax.text(x0 + 0.7, y, f"{p} {COLOURS[p]}", ha="left", va="center", fontsize=8.5)
        values = (position.vp[p], position.midgard[p], position.asgard[p], position.walhalla[p],
                  position.hand_sizes[p])
        for dx, key, value in zip(offsets, PANEL_KEYS, values):
            text = ax.text(x0 + dx, y, str(value), ha="right", va="center", fontsize=9,
                           fontweight="bold" if key == "vp" else "normal")
            text.set_gid(f"panel:{p}:{key}")
    note = ax.text(x0, y_top - (position.num_players + 1) * 0.62,
                   f"> start player of raid {position.raid + 1}; cards = hand size", ha="left", va="center",
                   fontsize=7.5, color="#555555")
    note.set_gid("panel_note")


def _legend(ax, anchor):
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=FIELD_COLOURS[k], edgecolor="#7a6a50", label=f"{FIELD_LETTERS[k]} {k}"
                     + (" (printed value)" if k == "wheat" else "")) for k in FIELD_TYPES]
    handles += [Patch(facecolor=TIP_COLOURS["inner"], edgecolor="#4d4030", label="inner tip: 2nd place VP"),
                Patch(facecolor=TIP_COLOURS["outer"], edgecolor="#4d4030", label="outer tip: 1st place VP"),
                Line2D([], [], marker="o", linestyle="", markerfacecolor="#bbbbbb", markeredgecolor="black",
                       markersize=9, label="Viking on a field (its colour)"),
                Patch(facecolor=HULL_COLOUR, edgecolor="black", label="dragon, bow to the coast"),
                Patch(facecolor=SEAT_COLOUR, edgecolor="#bbbbbb", linewidth=2.4, label="coloured seat (framed)"),
                Line2D([], [], marker="o", linestyle="", markerfacecolor="#bbbbbb", markeredgecolor="black",
                       markersize=5, label="crew it brought (now ashore)"),
                Line2D([], [], color=LAST_COLOUR, linewidth=2, label="this turn's dragon, changed fields")]
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=anchor, fontsize=7.5, frameon=False, ncol=1)


def draw_board(position, ax=None, title: str | None = None, *, highlight: bool = True, legend: bool = True):
    """Draw a Walhalla position: peninsulas, fjords with their dragons, and the players' supplies.

    Parameters
    ----------
    position : Position or reference Game
        A :class:`Position` (:func:`replay`, :func:`position_of`), or a
        reference ``Game`` (drawn with anonymous dragons, see :func:`position_of`).
    ax : matplotlib Axes, optional
    title : str, optional
        Default: the position's caption.
    highlight : bool
        Outline the dragon of the turn just taken and the fields whose
        occupant it changed (a ``"turn"`` position of a replay).
    legend : bool
        A legend of the field types, tips and dragon marks under the panel.

    Returns
    -------
    matplotlib Axes
        The module docstring lists what is drawn and the ``gid`` of each artist.
    """
    from matplotlib.patches import Rectangle

    if not isinstance(position, Position):
        position = position_of(position)
    ax = drawing.axes(ax, size=(13.0, 8.2))
    top = _top(position)
    height = (top + 0.5) * H

    sea = Rectangle((0, 0), BOARD_WIDTH, height, facecolor=SEA_COLOUR, edgecolor="none", zorder=0)
    sea.set_gid("sea")
    ax.add_patch(sea)
    coast = Rectangle((0, -0.9), BOARD_WIDTH, 0.9, facecolor=COAST_COLOUR, edgecolor="#7a6a50", linewidth=1.0,
                      zorder=0.5)
    coast.set_gid("coast")
    ax.add_patch(coast)
    for f in range(4):
        water = Rectangle((_fjord_left(f), 0), FJORD_WIDTH, height, facecolor=SEA_COLOUR, edgecolor="#9cbfdc",
                          linewidth=0.6, zorder=0.2)
        water.set_gid(f"fjord:{f}")
        ax.add_patch(water)
        ax.text(_fjord_left(f) + FJORD_WIDTH / 2, height + 0.1, f"F{f}", ha="center", va="bottom", fontsize=9,
                color="#2b5d8a", fontweight="bold")
        for q in range(1, top + 1):  # faint position marks along the fjord
            ax.plot([_fjord_left(f) + 0.04, _fjord_left(f) + 0.12], [q * H, q * H], color="#9cbfdc", linewidth=0.6,
                    zorder=0.3)

    for k in range(3):
        _draw_peninsula(ax, position, k, highlight)
    last_turn = highlight and position.event == "turn" and bool(position.moorings)
    for i, m in enumerate(position.moorings):
        _draw_dragon(ax, m, last_turn and i == len(position.moorings) - 1)

    panel_x = BOARD_WIDTH + 0.8
    _draw_panel(ax, position, panel_x, height - 0.2)
    right = BOARD_WIDTH + PANEL_WIDTH + 0.4
    ax.set_xlim(-0.2, right)
    ax.set_ylim(-1.0, height + 0.6)
    if legend:
        _legend(ax, ((panel_x + 0.1 + 0.2) / (right + 0.2), 0.0))
    ax.set_aspect("equal")
    ax.set_xticks([_LEFT[i] + _WIDTHS[i] / 2 for i in range(len(COLUMNS))])
    ax.set_xticklabels(COLUMNS)
    ax.set_yticks([(q - 0.5) * H for q in range(1, top + 1)])
    ax.set_yticklabels([str(q) for q in range(1, top + 1)], fontsize=7)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel("fjords F0..F3 and peninsulas P0..P2 (coast at the bottom)")
    ax.set_ylabel("field / fjord position from the coast")
    if title is None:
        title = position.caption()
    if title:
        ax.set_title(title, fontsize=10)
    return ax


HAND_HEADERS = ("Axe", "Shield", "Horn", "Walh.", "Plunder")  # CARD_TYPES order, short for the columns
HAND_OFFSETS = (8.7, 9.8, 10.9, 12.1, 13.5)  # right edges of the hand columns, after the panel's 7.4
HAND_WIDTH = 6.3  # what the hand columns add to the picture's width


def draw(position, seat=None, ax=None):
    """Draw a ``view.Position``: the board of :func:`draw_board`, the hands, the decks, the dragon drawn.

    Parameters
    ----------
    position : toolkit.games.walhalla.view.Position
        From ``view.position(game, decision)``.
    seat : int, optional
        Draw only what this seat may see: its own hand by card, every other
        hand face down as its size (hand sizes are public, W-1).  None draws
        every hand open and says so in the title.  The order of the action
        deck and of the dragon deck is never drawn, only their sizes.
    ax : matplotlib Axes, optional
        A new figure when None.

    Returns
    -------
    matplotlib Axes
        The gids of the module docstring, the new ones included.

    Examples
    --------
    >>> from toolkit.core.protocol import first_decision
    >>> from toolkit.games.walhalla import view
    >>> ax = draw(view.position(*first_decision("walhalla", seed=7)), seat=0)
    >>> sorted(p for (p,), _ in parts(ax, "back"))
    [1, 2, 3]
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    from matplotlib.patches import Circle, Polygon, Rectangle

    ax = drawing.axes(ax, size=(15.5, 8.2))
    shown = "open cards: every hand shown" if seat is None else (
        f"seen by {position.seat_text(seat)}: the other hands face down")
    draw_board(position, ax, title=f"{position.caption()}\n{shown}", highlight=False)
    x0, y_top = BOARD_WIDTH + 0.8, (_top(position) + 0.5) * H - 0.2
    # the hand columns continue the panel's rows to the right
    for dx, header in zip(HAND_OFFSETS, HAND_HEADERS):
        ax.text(x0 + dx, y_top, header, ha="right", va="center", fontsize=9, fontweight="bold")
    for p in range(position.num_players):
        y = y_top - (p + 1) * 0.62
        if seat is None or seat == p:
            for c, dx in enumerate(HAND_OFFSETS):
                count = ax.text(x0 + dx, y, str(position.hands[p][c]), ha="right", va="center", fontsize=9)
                count.set_gid(f"card:{p}:{c}")
        else:
            size, left, right = position.hand_sizes[p], x0 + HAND_OFFSETS[0] - 0.9, x0 + HAND_OFFSETS[-1] + 0.1
            ax.add_patch(Rectangle((left, y - 0.22), right - left, 0.44, facecolor="#8a8a8a", edgecolor="black",
                                   linewidth=0.6, hatch="///", alpha=0.5))
            back = ax.text((left + right) / 2, y, f"{size} card{'s' * (size != 1)} face down", ha="center",
                           va="center", fontsize=8.5)
            back.set_gid(f"back:{p}")
    y = y_top - (position.num_players + 2) * 0.62
    ax.text(x0, y, f"action deck {len(position.deck)}, discard {sum(position.discard)}, "
            f"dragons left {len(position.dragons_left)}", ha="left", va="center", fontsize=8.5).set_gid("decks")
    if position.dragon >= 0:  # the turn's chance: the dragon drawn, and who sits in it
        dragons = load_dragons()
        colour, coloured = dragons.colours[position.dragon], dragons.seats[position.dragon]
        y -= 0.75
        drawn = ax.text(x0, y, f"drawn: {dragons.ids[position.dragon]} ({COLOURS[colour]} "
                        f"{('bow', 'middle', 'stern')[coloured]}), aboard:", ha="left", va="center", fontsize=8.5)
        drawn.set_gid(f"drawn:{position.dragon}:{colour}:{coloured}")
        for j, sailor in enumerate(position.aboard):
            left = x0 + 6.2 + 0.62 * j  # bow first, as the seats go
            tint = PLAYER_COLOURS[COLOURS[colour]] if j == coloured else "#6b4a2a"
            box = Rectangle((left, y - 0.25), 0.5, 0.5, facecolor=SEAT_COLOUR, edgecolor=tint,
                            linewidth=2.4 if j == coloured else 0.8)
            box.set_gid(f"aboard:{j}:{sailor}")
            ax.add_patch(box)
            if sailor >= 0:
                ax.add_patch(Circle((left + 0.25, y), 0.17, facecolor=PLAYER_COLOURS[COLOURS[sailor]],
                                    edgecolor="black", linewidth=0.7))
        if position.fjord >= 0:
            slot = sum(m.fjord == position.fjord for m in position.moorings) - 1  # it moored last in its fjord
            hull = dict(parts(ax, "dragon"))[(position.fjord, slot)]
            frame = Polygon(hull.get_xy(), closed=True, fill=False, edgecolor=LAST_COLOUR, linewidth=2.4, zorder=5)
            frame.set_gid("current")
            ax.add_patch(frame)
    right = BOARD_WIDTH + PANEL_WIDTH + 0.4
    ax.set_xlim(-0.2, right + HAND_WIDTH)
    legend = ax.get_legend()
    if legend is not None:  # draw_board anchored it under the panel, in axes fractions of the narrower picture
        legend.set_bbox_to_anchor(((x0 + 0.3) / (right + HAND_WIDTH + 0.2), 0.0), transform=ax.transAxes)
    return ax


def main(argv=None) -> int:
    """``python -m toolkit.games.walhalla.viz [PATH]``: draw README's picture (default ``docs/walhalla_board.png``).

    Game 0 of seed 2024, four greedy players, standard rules: the position after
    the last turn of raid 1, before its card phase and scoring.
    """
    import sys

    import matplotlib

    matplotlib.use("Agg")
    from toolkit.games.walhalla.rules import Rules

    args = sys.argv[1:] if argv is None else list(argv)
    path = args[0] if args else "docs/walhalla_board.png"
    positions = replay(Rules(), seed=2024, game_index=0)
    position = [p for p in positions if p.event == "turn" and p.raid == 0][-1]
    ax = draw_board(position, title=f"Walhalla, game 0 of seed 2024, four greedy players: {position.caption()}")
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
