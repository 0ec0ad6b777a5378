"""The positions of one seeded Halali game, for a replay (a board slider, a printed move list).

:func:`positions` plays one game (or a ``match_games = 2`` match) with the
readable reference (``reference.play_game``) and records a :class:`Snapshot`
of the board at the start and after every action.  The kernel and the
reference play identical games for the same ``(rules, seed, game_index,
policies)``, so the replay shows the very game that row ``game_index`` of
``toolkit.simulate("halali", rules, n, seed=seed, first_game=0, ...)`` counts.

Snapshots: one for the start of each game, then one after every action, an
automatic end-phase pass included (a pass is a turn but not a ply, §6), so a
game gives ``turns + 1`` snapshots; a match gives both games in order, each
starting with its own set-up.

Action text (``Snapshot.action``), with squares named a1..g7 and directions
N, E, S, W:

- ``"reveal c3: hunter (gun E)"``, ``"reveal c4: tree"``;
- ``"fox b2 N 3"`` (a plain move: origin, direction, distance);
- ``"hunter b2 N 3 captures fox"``;
- ``"bear d7 N 1 exits"`` (the distance leaves the board through the exit square);
- ``"pass"``; ``""`` for a start position.

Examples
--------
>>> import toolkit
>>> from toolkit.games.halali.replay import positions
>>> snaps = positions(toolkit.rules("halali"), seed=7)
>>> snaps[0].action, snaps[0].to_move, sum(t is not None for t in snaps[0].grid)
('', 0, 48)
>>> snaps[1].action.startswith("reveal")
True
"""

from __future__ import annotations

import dataclasses

from toolkit.games.halali import reference as ref
from toolkit.games.halali.rules import BLUE, DIRECTIONS, HUNTER, KINDS, square_name

__all__ = ["Snapshot", "Tally", "positions", "action_text", "grid_of"]


@dataclasses.dataclass(frozen=True)
class Tally:
    """What a replay's snapshot and a viewed position (``view.Position``) both count: the seats' colours, their
    points and tiles this game and over the match, and the kinds each captured and rescued (the fields of the
    same names below)."""

    colour: tuple
    scores: tuple
    tiles: tuple
    match_scores: tuple
    match_tiles: tuple
    captured: tuple
    rescued: tuple


@dataclasses.dataclass(frozen=True)
class Snapshot(Tally):
    """One position of a replay.

    Attributes
    ----------
    index : int
        Position in the replay list (0 = the first start position).
    game : int
        Game of the match (0, or 1 for the return game of ``match_games = 2``).
    turn : int
        Actions taken so far in this game (0 at its start).
    ply : int
        Decision points so far in this game (passes are not plies).
    grid : tuple
        49 squares (square = 7 * y + x, a1 = 0): ``None`` for an empty square, else
        ``(kind, face_up, dir)``: ``kind`` an index into ``KINDS``, ``dir`` the gun
        direction of a hunter (N, E, S, W = 0..3; also known while face down) or -1.
    action : str
        The action that led here (module docstring), ``""`` at a start.
    move : tuple or None
        That action as the reference's tuple ``(REVEAL, s, 0, 0)`` / ``(MOVE, s, d, n)``;
        ``None`` for a start or a pass.
    seat : int
        The seat that took ``action`` (-1 at a start).
    from_square, to_square : int
        The squares the action touched (-1 when none: ``to_square`` of an exit is -1,
        a reveal has ``from_square == to_square``).
    to_move : int
        The seat to move now, -1 once the game is over.
    colour : tuple
        ``colour[seat]``: 0 Blue, 1 Brown.
    scores, tiles : tuple
        Points and tiles (captured + rescued) per seat in this game.
    match_scores, match_tiles : tuple
        The same summed over the match so far (equal to ``scores`` / ``tiles`` in a
        one-game match): the final snapshot's equal the record's ``score_*`` / ``tiles_*``.
    captured, rescued : tuple
        Per seat, the kinds (indices) taken so far in this game.
    phase : str
        ``"main"`` or ``"end"``.
    end_left : tuple
        End-phase actions left per seat.
    face_down : int
        Face-down tiles on the board.
    over : bool
        The game is over (the last snapshot of each game).
    end_reason : str
        ``end_phase_complete``, ``early_end`` or ``aborted`` once over, else ``""``.
    """

    index: int
    game: int
    turn: int
    ply: int
    grid: tuple
    action: str
    move: tuple | None
    seat: int
    from_square: int
    to_square: int
    to_move: int
    phase: str
    end_left: tuple
    face_down: int
    over: bool
    end_reason: str

    @property
    def on_board(self) -> int:
        """Tiles on the board."""
        return sum(t is not None for t in self.grid)

    @property
    def blue_seat(self) -> int:
        return self.colour.index(BLUE)

    def view(self, rules=None, seat: int | None = None) -> ref.View:
        """What ``seat`` (default: the seat to move) may know here, as a reference ``View``.

        For :mod:`toolkit.games.halali.odds` and the policies: face-up tiles as
        ``(kind, -1, dir)`` (tile ids are not recorded), face-down tiles as
        ``FACE_DOWN``, the face-down counts per kind.  The neutral lock and the
        no-return memory are not recorded either: ``lock = -1``, no last moves.
        """
        from toolkit.games.halali.rules import Rules

        rules = Rules() if rules is None else rules
        if seat is None:
            seat = self.to_move if self.to_move >= 0 else 0
        grid = [None if t is None else ((t[0], -1, t[2]) if t[1] else ref.FACE_DOWN) for t in self.grid]
        counts = [rules.tile_counts[k] for k in KINDS]
        for t in self.grid:
            if t is not None and t[1]:
                counts[t[0]] -= 1
        for taken in self.captured + self.rescued:
            for k in taken:
                counts[k] -= 1
        return ref.View(rules=rules, seat=seat, colour=list(self.colour), grid=grid, face_down_counts=counts,
                        last_move=[None, None], lock=-1, phase=self.phase, end_left=list(self.end_left),
                        since_progress=0, scores=list(self.scores))

    def caption(self) -> str:
        """A one-line description: game, turn, action, scores by colour."""
        blue, brown = self.blue_seat, 1 - self.blue_seat
        head = f"game {self.game + 1}, " if self.game else ""
        what = self.action or "start"
        who = "" if self.seat < 0 else f"{'Blue' if self.colour[self.seat] == BLUE else 'Brown'}: "
        return (f"{head}turn {self.turn} ({self.phase} phase), {who}{what}; "
                f"Blue {self.scores[blue]}, Brown {self.scores[brown]}")


def grid_of(state) -> tuple:
    """A reference ``State``'s board as 49 ``None`` / ``(kind, face_up, dir)`` tuples."""
    return tuple(None if t is None else (t.kind, bool(t.face_up), t.dir) for t in state.grid)


def _dir_name(d: int) -> str:
    return DIRECTIONS[d]


def action_text(state, action) -> str:
    """Describe ``action`` taken on ``state`` (the state BEFORE the action is applied)."""
    if action is None:
        return "pass"
    kind, s, d, n = action
    tile = state.grid[s]
    if kind == ref.REVEAL:
        text = f"reveal {square_name(s)}: {KINDS[tile.kind]}"
        if tile.kind == HUNTER:
            text += f" (gun {_dir_name(tile.dir)})"
        return text
    head = f"{KINDS[tile.kind]} {square_name(s)} {_dir_name(d)} {n}"
    target = ref.step(s, d, n)
    if target < 0:
        return head + " exits"
    victim = state.grid[target]
    if victim is not None:
        return head + f" captures {KINDS[victim.kind]}"
    return head


class _Recorder:
    """The observer of ``reference.play_game``: a snapshot before and after every action."""

    def __init__(self):
        self.snapshots: list[Snapshot] = []
        self.game = -1
        self.state = None
        self.pending = None  # (seat, text, move, from, to) of the action about to be applied
        self.done_scores = [0, 0]  # scores and tiles of the finished games of the match
        self.done_tiles = [0, 0]

    def snapshot(self, st, seat, text, move, frm, to) -> None:
        scores = (st.score(0), st.score(1))
        tiles = (st.tiles(0), st.tiles(1))
        self.snapshots.append(Snapshot(
            index=len(self.snapshots), game=self.game, turn=st.turns, ply=st.plies, grid=grid_of(st),
            action=text, move=move, seat=seat, from_square=frm, to_square=to,
            to_move=-1 if st.over else st.to_move, colour=tuple(st.colour), scores=scores, tiles=tiles,
            match_scores=(self.done_scores[0] + scores[0], self.done_scores[1] + scores[1]),
            match_tiles=(self.done_tiles[0] + tiles[0], self.done_tiles[1] + tiles[1]),
            captured=tuple(tuple(c) for c in st.captured), rescued=tuple(tuple(r) for r in st.rescued),
            phase=st.phase, end_left=tuple(st.end_left), face_down=st.face_down, over=st.over,
            end_reason=st.end_reason if st.over else ""))

    def flush(self, passer: int = -1) -> None:
        """Record the position after the pending action (the state has changed in place).

        ``passer``: the reference has since applied an automatic pass of that seat (it
        calls the observer after a pass), so the pass's effects on the recorded fields
        are taken back: a pass changes no tile, only the turn count, the passer's
        end-phase actions, the seat to move and possibly the end of the game."""
        if self.pending is None:
            return
        seat, text, move, frm, to = self.pending
        self.pending = None
        self.snapshot(self.state, seat, text, move, frm, to)
        if passer >= 0:
            snap = self.snapshots[-1]
            end_left = list(snap.end_left)
            end_left[passer] += 1
            self.snapshots[-1] = dataclasses.replace(snap, turn=snap.turn - 1, to_move=passer,
                                                     end_left=tuple(end_left), over=False, end_reason="")

    def __call__(self, st, seat, options, action) -> None:
        if st is not self.state:  # a new game of the match: its first decision, nothing applied yet
            self.flush()
            if self.state is not None:
                self.done_scores = [self.done_scores[i] + self.state.score(i) for i in (0, 1)]
                self.done_tiles = [self.done_tiles[i] + self.state.tiles(i) for i in (0, 1)]
            self.state, self.game = st, self.game + 1
            if options is None:  # cannot happen at a start (passes are end-phase only); kept honest
                raise AssertionError("a game started with a pass")
            self.snapshot(st, -1, "", None, -1, -1)
        elif options is None:  # a pass, already applied by the reference
            self.flush(passer=seat)
        else:
            self.flush()
        if options is None:
            self.snapshot(st, seat, "pass", None, -1, -1)
            return
        kind, s, d, n = action
        to = s if kind == ref.REVEAL else ref.step(s, d, n)
        self.pending = (seat, action_text(st, action), tuple(action), s, to)


def positions(rules=None, seed: int = 0, game_index: int = 0, policies=("greedy", "random")) -> list[Snapshot]:
    """Every position of game ``game_index`` of a seeded run (see the module docstring).

    Parameters
    ----------
    rules : halali Rules, optional
        Default: the standard preset.
    seed, game_index : int
        As in ``toolkit.simulate(..., seed=seed, first_game=game_index)``: the same game.
    policies : pair of str, optional
        Seat 0's and seat 1's policy (``random``, ``greedy``, ``lookahead``); a
        comma-separated string is accepted too.  None: ``greedy`` against ``random``.

    Returns
    -------
    list of Snapshot
        The start position, then one snapshot after each action; the last one is
        the final position (``over`` is true and its ``match_scores`` are the record's).
    """
    from toolkit.games.halali.policies import POLICIES
    from toolkit.games.halali.rules import Rules

    rules = Rules() if rules is None else rules
    if policies is None:
        policies = ("greedy", "random")
    if isinstance(policies, str):
        policies = tuple(p.strip() for p in policies.split(","))
    policies = tuple(policies)
    if len(policies) == 1:
        policies = policies * 2
    if len(policies) != 2 or any(p not in POLICIES for p in policies):
        raise ValueError(f"policies={policies!r} is not allowed: two of {', '.join(POLICIES)}")
    recorder = _Recorder()
    ref.play_game(rules, seed, game_index, policies, observer=recorder)
    recorder.flush()
    return recorder.snapshots
