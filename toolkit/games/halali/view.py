"""Halali in words and pictures (issue 38): each decision in words and each position as plain data.

The spec ``docs/rules/halali.md`` has one decision point, DP-1 "action" (§5).
:func:`describe` names an option of it the way a player would say it.
:func:`position` copies the reference game into a frozen :class:`Position`,
and ``viz.draw`` draws that.  Squares are a1..g7 and directions are north,
east, south and west (§2.1).

Wording the spec leaves open, decided here:

- A reveal is ``"reveal c4"``.  It names only the square, because the face
  (and a hunter's gun) is hidden until the tile is turned over (H-2.1).
- A move is ``"fox b2 north 3"``: the tile, its square, the direction and
  the distance.  These are the spec's own coordinates of the option
  ``(origin, direction, distance)`` (§5).  The landing square is left out.
- A capture adds the prey: ``"hunter b2 north 3, capturing the fox"``.
  Only a face-up tile can be captured (H-3.4), so naming it reveals nothing.
- An exit adds ``", leaving by the exit"`` (H-3.7).  Its distance is the
  one that leaves the board (§5), so it is one more than the squares to the
  edge: a bear on d7 exits with ``"bear d7 north 1, leaving by the exit"``.
- Halali draws no chance during play; the set-up (H-1) is its only chance.
  So a :class:`Position` records the chance as ``first_player``, the seat
  that moved first (a coin with ``first_player = random``).  The hidden
  faces and gun directions are in ``grid``.

The first decision of seed 7 (``core.protocol.first_decision``: the reference's game at its first decision):

>>> from toolkit.core.protocol import first_decision
>>> game, decision = first_decision("halali", seed=7)
>>> DECISIONS[decision.kind], describe(game, decision, decision.options[0]), position(game, decision).face_down
('action', 'reveal a1', 48)
"""

from __future__ import annotations

import dataclasses

from toolkit.games.halali import reference as ref
from toolkit.games.halali.replay import Tally, grid_of
from toolkit.games.halali.rules import KINDS, square_name

__all__ = ["DECISIONS", "Position", "describe", "position"]

DECISIONS = {1: "action"}  # §5: DP-1 is the only decision point
DIRECTION_WORDS = ("north", "east", "south", "west")  # N, E, S, W = 0..3 (§2.1)


def describe(game, decision, option) -> str:
    """The words for ``option``, one of ``decision.options``, before it is applied.

    Parameters
    ----------
    game : reference.Match
        The game at this decision.  Only ``decision.state`` is read.
    decision : reference.Decision
        A DP-1 (§5).
    option : tuple
        ``(REVEAL, square, 0, 0)`` or ``(MOVE, origin, direction, distance)``.

    Returns
    -------
    str
        ``"reveal c4"``, ``"fox b2 north 3"``,
        ``"hunter b2 north 3, capturing the fox"`` or
        ``"bear d7 north 1, leaving by the exit"``.
    """
    state = decision.state
    action, origin, direction, distance = option
    if action == ref.REVEAL:
        return f"reveal {square_name(origin)}"  # never the face: it is still down (H-2.1)
    tile = state.grid[origin]
    text = f"{KINDS[tile.kind]} {square_name(origin)} {DIRECTION_WORDS[direction]} {distance}"
    target = ref.step(origin, direction, distance)
    if target < 0:
        return text + ", leaving by the exit"
    prey = state.grid[target]
    if prey is not None:  # a capture needs a face-up prey (H-3.4), so its kind is public
        return text + f", capturing the {KINDS[prey.kind]}"
    return text


@dataclasses.dataclass(frozen=True)
class Position(Tally):
    """What the picture of a Halali position shows, copied out of the reference game.

    Seats are 0 and 1, squares are 0..48 (a1 = 0, d4 = 24) and kinds are
    indices into ``rules.KINDS``.

    Attributes
    ----------
    grid : tuple
        49 squares, each ``None`` (empty) or ``(kind, face_up, dir)``.  ``dir``
        is a hunter's gun direction (N, E, S, W = 0..3), else -1.  Face-down
        tiles are given too; the drawing decides what to hide.
    colour : tuple
        ``colour[seat]``: 0 Blue, 1 Brown.
    scores, tiles : tuple
        Per seat, the points (H-6.1) and the captured plus rescued tiles in this game.
    match_scores, match_tiles : tuple
        The same summed over the match so far; equal to ``scores`` and ``tiles``
        when ``match_games = 1``.
    captured, rescued : tuple
        Per seat, the kinds taken in this game, in the order they were taken.
    game, match_games : int
        This game of the match (0 or 1) and the number of games (H-8).
    phase : str
        ``"main"`` or ``"end"``.
    end_left : tuple
        End-phase actions left per seat (H-4).
    face_down : int
        Face-down tiles on the board.
    lock : int
        The square of the neutral tile the player to move may not move (H-3.6), or -1.
    turn : int
        Actions taken so far in this game, passes included (§6).
    to_move : int
        The seat to move, or -1 once the game is over.
    over : bool
        True once the game is over.
    end_reason : str
        Why it ended (§6), or ``""`` while it goes on.
    first_player : int
        The seat that moved first: the chance of the set-up (module docstring);
        -1 for a hand-built ``State``.
    exit_squares : tuple
        The exits as ``"d7:N"`` strings (``rules.exit_squares``).
    seat : int
        The deciding seat, or -1 when no decision was given.
    kind : int
        The decision's DP number (1), or 0.
    options : int
        The number of options of the decision, or 0.
    """

    grid: tuple
    game: int
    match_games: int
    phase: str
    end_left: tuple
    face_down: int
    lock: int
    turn: int
    to_move: int
    over: bool
    end_reason: str
    first_player: int
    exit_squares: tuple
    seat: int = -1
    kind: int = 0
    options: int = 0


def position(game, decision=None) -> Position:
    """A frozen copy of ``game`` (a ``reference.Match``, or one ``reference.State``).

    ``decision`` (a ``reference.Decision``) adds the deciding seat, its DP
    number and the number of options.  Later moves of the game do not change
    the returned :class:`Position`.
    """
    games = getattr(game, "games", None) or [game]
    state = decision.state if decision is not None else games[-1]
    # the lock binds the player to move only, so a finished game has none (the reference leaves it set)
    locked = [s for s, t in enumerate(state.grid) if t is not None and t.id == state.lock]
    lock = locked[0] if locked and not state.over else -1
    scores = (state.score(0), state.score(1))
    tiles = (state.tiles(0), state.tiles(1))
    return Position(
        grid=grid_of(state),
        colour=tuple(state.colour), scores=scores, tiles=tiles,
        match_scores=tuple(sum(g.score(s) for g in games) for s in (0, 1)),
        match_tiles=tuple(sum(g.tiles(s) for g in games) for s in (0, 1)),
        captured=tuple(tuple(c) for c in state.captured), rescued=tuple(tuple(r) for r in state.rescued),
        game=next((i for i, g in enumerate(games) if g is state), 0), match_games=state.rules.match_games,
        phase=state.phase, end_left=tuple(state.end_left), face_down=state.face_down, lock=lock,
        turn=state.turns, to_move=-1 if state.over else state.to_move, over=state.over,
        end_reason=state.end_reason if state.over else "",
        first_player=getattr(state, "first_player", -1),  # set by Match; a hand-built state has none
        exit_squares=tuple(state.rules.exit_squares),
        seat=-1 if decision is None else decision.seat, kind=0 if decision is None else decision.kind,
        options=0 if decision is None else len(decision.options))
