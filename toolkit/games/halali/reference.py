"""Halali, the readable pure-Python reference (spec ``docs/rules/halali.md``).

This module is written to be read beside the spec.  It is the oracle for the
scenario tests and the baseline the Numba kernel (``kernel.py``) must match
game for game.  :func:`legal_actions` lists the options of DP-1 in the
canonical order of §5; :func:`apply_action` and :func:`apply_pass` change the
state; :class:`Match` is a game (or a two-game match, H-8) as a state machine
over its decision points (the protocol of ``docs/architecture.md``, "The
reference side": :func:`new_game`, :func:`option_code`), and :func:`play_game`
plays one through.

An action is a tuple: ``(REVEAL, square, 0, 0)`` or ``(MOVE, origin,
direction, distance)`` with directions N, E, S, W = 0..3; an exit is the move
whose distance leaves the board.  Its integer code (:func:`action_code`) is
``square`` for a reveal and ``49 + 28 * origin + 7 * direction + distance -
1`` for a move, so ascending codes are the canonical order.

Order of random draws (shared with the kernel):

- chance stream (0), for each game of the match: ``first_player = random``
  -> one ``below(2)`` (0: Blue moves first); then a Fisher-Yates shuffle of
  the 48 tile ids (``for i = 47 .. 1: j = below(i + 1)``), tile ``deck[i]``
  going to the i-th square other than d4 in ascending order; then one
  ``below(4)`` per hunter, in ascending square order, for its gun direction.
  Tile ids number the tiles in kind order (2 bears = ids 0, 1, then foxes...).
- decision stream of seat ``s`` (1 + s): ``random`` draws one ``below(n)`` per
  decision point with ``n >= 2`` options.  ``greedy`` and ``lookahead`` are
  deterministic.

Choices the spec leaves open, decided here:

- ``last_move`` keeps the square the tile went to, so the no-return ban on a
  neutral (``no_return_applies_to_neutrals``) applies only while the tile still
  stands there (H-3.5); an exit stores ``to = -1``.
- The early-end test (H-5) runs after every action, passes included.
- With ``progress_limit = 0`` a game that reaches 10,000 actions is aborted
  (H-7): ``result = aborted``, ``winner = -1``, scores as they stand.
- A match (``match_games = 2``) is one result row: per-seat columns are the
  sums over both games (seats keep their numbers; colours swap), ``turns``,
  ``plies`` and the other counts are summed, ``winner`` and ``result`` are
  the match's (summed points, then summed tiles, else a draw, as H-8 says
  whatever ``tiebreak`` is; ``aborted`` if either game was), ``end_reason`` is the first game's, and ``game1_winner``
  / ``game2_winner`` give each game (-2 when there is no second game).
- ``first_player`` in the record is the seat that moved first in game 1.
  With ``first_player = random`` each game of a match draws its own coin.
- The two hunter switches are independent: with
  ``hunter_free_movement_direction = false`` and
  ``hunter_direction_restricted_capture = false`` a hunter captures in any
  direction but makes plain moves (and exits) only along its gun.
- "Still where the player put it" (no-return for neutrals) compares squares:
  a neutral the opponent moved away and back counts as unmoved.
- ``forced_reveal_turns`` counts only with ``progress_limit > 0`` (with 0 the
  guard is off and no turn is forced); ``end_reason`` has a third value,
  ``aborted``, for the H-7 cap.

Design metrics (the columns ``decisions``, ``options``, ``lead_changes``,
``decisive_turn``; the same counts in the kernel):

- ``decisions``: the §5 DP-1s of the real game, counted in :class:`Match`
  where the policy is asked (a policy's own look at hypothetical positions
  never counts).  DP-1 is presented on every turn with at least one legal
  action, a turn with a single option included (a forced reveal with one
  face-down tile left, an end-phase turn with one move).  An automatic
  end-phase pass is not a DP (§5), so it adds nothing.  ``decisions``
  therefore equals ``plies``.
- ``options``: the number of DP-1 options offered, after the H-2 filters
  (forced reveal, ``forced_capture``), as §5 enumerates them.
- Lead measure (:func:`lead_measure`): the points a seat has scored so far,
  H-6.1's sum over its captured and rescued tiles.  Captures and exits are
  made in view, so the score is public at every moment (no face-down tile
  enters it).  The tile-count tie-break of H-6.3 is left out: a win on
  tiles at equal points therefore ends with no leader, and its
  ``decisive_turn`` is the last turn (``core.lead``).  A turn is one action
  (§6), passes included, so the measure is reported after every action and
  every automatic pass.  In a two-game match (H-8) the measure is the match
  score (the first game's points plus the current game's), the turns are
  numbered through both games, and the winner is the match's.
"""

from __future__ import annotations

import dataclasses

from toolkit.core.lead import LeadTracker, leader as top_seat  # the seat with the strictly highest value, or -1
from toolkit.core.policy import players as core_players
from toolkit.core.rng import CHANCE, Stream
from toolkit.games.halali.layout import END_REASONS, RESULT_CODES, SEAT_FIELDS  # the result's codes and columns
from toolkit.games.halali.rules import (
    BEAR, BLUE, BROWN, COLOUR_OF_KIND, DIRECTIONS, DUCK, FOX, HUNTER, KINDS, LUMBERJACK, PHEASANT, TREE,
)

REVEAL, MOVE = 0, 1
CENTRE = 24
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N, E, S, W as (dx, dy)
ACTION_CAP = 10_000  # H-7, only with progress_limit = 0

__all__ = ["BEAR", "FOX", "LUMBERJACK", "HUNTER", "PHEASANT", "DUCK", "TREE", "BLUE", "BROWN"]


def square(x: int, y: int) -> int:
    return 7 * y + x


def parse_square(name: str) -> int:
    """``"d4"`` -> 24."""
    return square("abcdefg".index(name[0]), int(name[1:]) - 1)


def step(s: int, d: int, n: int) -> int:
    """The square ``n`` steps from ``s`` in direction ``d``, or -1 off the board."""
    x, y = s % 7 + STEP[d][0] * n, s // 7 + STEP[d][1] * n
    return square(x, y) if 0 <= x < 7 and 0 <= y < 7 else -1


def action_code(action) -> int:
    kind, s, d, n = action
    return s if kind == REVEAL else 49 + 28 * s + 7 * d + n - 1


def exit_table(rules) -> dict:
    """(square, outward direction) -> True for each exit square (§2.2)."""
    out = {}
    for text in rules.exit_squares:
        name, _, d = text.partition(":")
        out[(parse_square(name), DIRECTIONS.index(d))] = True
    return out


# ---------------------------------------------------------------------- §3 state


@dataclasses.dataclass
class Tile:
    kind: int
    id: int
    face_up: bool = False
    dir: int = -1  # gun direction of a hunter (N, E, S, W = 0..3), else -1


@dataclasses.dataclass
class State:
    rules: object
    grid: list  # grid[s]: a Tile or None
    colour: list  # colour[seat]: BLUE or BROWN
    to_move: int
    captured: list = dataclasses.field(default_factory=lambda: [[], []])  # kinds
    rescued: list = dataclasses.field(default_factory=lambda: [[], []])
    last_move: list = dataclasses.field(default_factory=lambda: [None, None])  # (tile id, from, to) or None
    lock: int = -1  # tile id the player to move may not move, or -1
    phase: str = "main"
    end_left: list = dataclasses.field(default_factory=lambda: [0, 0])
    since_progress: int = 0
    face_down: int = 48
    over: bool = False
    end_reason: str = ""
    # §6 tallies
    turns: int = 0
    main_turns: int = 0
    end_turns: int = 0
    plies: int = 0
    decisions: int = 0  # §5 DP-1s presented (= plies)
    options: int = 0  # DP-1 options offered at them
    reveals: list = dataclasses.field(default_factory=lambda: [0, 0])
    passes: list = dataclasses.field(default_factory=lambda: [0, 0])
    forced_reveal_turns: int = 0
    captures: list = dataclasses.field(default_factory=lambda: [[0] * 7, [0] * 7])
    rescues: list = dataclasses.field(default_factory=lambda: [[0] * 7, [0] * 7])

    def copy(self) -> "State":
        out = dataclasses.replace(self)
        out.grid = [None if t is None else dataclasses.replace(t) for t in self.grid]
        for name in ("colour", "last_move", "end_left", "reveals", "passes"):
            setattr(out, name, list(getattr(self, name)))
        for name in ("captured", "rescued", "captures", "rescues"):
            setattr(out, name, [list(x) for x in getattr(self, name)])
        return out

    def seat_of_colour(self, colour: int) -> int:
        return 0 if self.colour[0] == colour else 1

    def score(self, seat: int) -> int:
        """H-6.1."""
        pts = self.rules.points
        return sum(pts[KINDS[k]] for k in self.captured[seat] + self.rescued[seat])

    def tiles(self, seat: int) -> int:
        return len(self.captured[seat]) + len(self.rescued[seat])


def lead_measure(st: State, seat: int, earlier: int = 0) -> int:
    """Design metrics: the points ``seat`` has scored so far (H-6.1), plus ``earlier``
    (its points in the match's earlier game)."""
    return earlier + st.score(seat)


def setup(rules, chance: Stream, colour0: int = BLUE) -> State:
    """H-1: shuffle the 48 tiles onto the squares around d4; hunters get random directions."""
    first_colour = BLUE if rules.first_player == "blue" else BROWN
    if rules.first_player == "random":
        first_colour = BLUE if chance.below(2) == 0 else BROWN
    kinds = [k for k in range(7) for _ in range(rules.tile_counts[KINDS[k]])]
    deck = list(range(48))
    chance.shuffle(deck)
    grid = [None] * 49
    squares = [s for s in range(49) if s != CENTRE]
    for i, s in enumerate(squares):
        grid[s] = Tile(kind=kinds[deck[i]], id=deck[i])
    for s in range(49):
        if grid[s] is not None and grid[s].kind == HUNTER:
            grid[s].dir = chance.below(4)
    colour = [colour0, 1 - colour0]
    return State(rules=rules, grid=grid, colour=colour, to_move=colour.index(first_colour))


# ---------------------------------------------------------------------- H-3 movement


def may_move(st: State, seat: int, tile: Tile) -> bool:
    """H-3.1: own colour or neutral, face up, not the locked tile; trees never."""
    if not tile.face_up or tile.id == st.lock:
        return False
    owner = COLOUR_OF_KIND[tile.kind]
    return owner == st.colour[seat] or owner == -1


def _no_return_bans(st: State, seat: int, origin: int, tile: Tile, target: int) -> bool:
    """H-3.5: is the move of ``tile`` from ``origin`` onto ``target`` banned?"""
    rules = st.rules
    last = st.last_move[seat]
    if not rules.no_return_rule or last is None:
        return False
    tile_id, came_from, went_to = last
    if tile.id != tile_id or target != came_from:
        return False
    if COLOUR_OF_KIND[tile.kind] == st.colour[seat]:
        return True
    return rules.no_return_applies_to_neutrals and origin == went_to


def _can_capture(rules, mover: Tile, d: int, victim: Tile, lock: int) -> bool:
    """H-3.4 (and H-3.6: a locked neutral may still be captured if the rules say so)."""
    if not victim.face_up:
        return False
    if KINDS[victim.kind] not in rules.capture_matrix[KINDS[mover.kind]]:
        return False
    if mover.kind == HUNTER and rules.hunter_direction_restricted_capture and d != mover.dir:
        return False
    if victim.id == lock and not rules.locked_neutral_capturable:
        return False
    return True


def tile_moves(st: State, seat: int, origin: int, exits: dict) -> list:
    """Moves of the tile on ``origin`` (H-3.2 .. H-3.7), canonical order, as (action, kind)
    with kind 'plain', 'capture' or 'exit'."""
    rules = st.rules
    tile = st.grid[origin]
    out = []
    reach = rules.ranges[KINDS[tile.kind]]
    plain_dir_ok = [True] * 4
    if tile.kind == HUNTER and not rules.hunter_free_movement_direction:
        plain_dir_ok = [d == tile.dir for d in range(4)]
    exits_open = st.phase == "end" or not rules.exits_only_in_end_phase
    owner = COLOUR_OF_KIND[tile.kind]
    may_exit = owner == st.colour[seat] or (owner == -1 and rules.rescue_neutrals)
    for d in range(4):
        for n in range(1, reach + 1):
            target = step(origin, d, n)
            if target < 0:  # H-3.7: leaving the board through the last square passed
                edge = step(origin, d, n - 1)
                if exits_open and may_exit and plain_dir_ok[d] and exits.get((edge, d)):
                    out.append(((MOVE, origin, d, n), "exit"))
                break
            victim = st.grid[target]
            if victim is None:
                if plain_dir_ok[d] and not _no_return_bans(st, seat, origin, tile, target):
                    out.append(((MOVE, origin, d, n), "plain"))
                continue
            if _can_capture(rules, tile, d, victim, st.lock) and not _no_return_bans(st, seat, origin, tile, target):
                out.append(((MOVE, origin, d, n), "capture"))
            break  # nothing passes an occupied square, face down or up (H-3.2)
    return out


def forced_reveal(st: State) -> bool:
    """H-2: too long without progress -> only reveals."""
    limit = st.rules.progress_limit
    return st.phase == "main" and limit > 0 and st.since_progress >= limit


def legal_actions(st: State, seat: int) -> list:
    """DP-1 options in canonical order (§5), after the H-2 filters."""
    reveals = []
    if st.phase == "main":
        reveals = [(REVEAL, s, 0, 0) for s in range(49) if st.grid[s] is not None and not st.grid[s].face_up]
        if forced_reveal(st):
            return reveals
    exits = exit_table(st.rules)
    moves, captures = [], []
    for s in range(49):
        tile = st.grid[s]
        if tile is not None and may_move(st, seat, tile):
            for action, kind in tile_moves(st, seat, s, exits):
                moves.append(action)
                if kind == "capture":
                    captures.append(action)
    if st.rules.forced_capture and captures:
        return captures
    return reveals + moves


# ---------------------------------------------------------------------- applying actions


def _own_tiles_left(st: State, seat: int) -> bool:
    colour = st.colour[seat]
    return any(t is not None and COLOUR_OF_KIND[t.kind] == colour for t in st.grid)


def _after_action(st: State, seat: int, progress: bool, revealed_last: bool) -> None:
    """Counters, phase change, early end and game end after an action or a pass (H-2, H-4, H-5, H-7)."""
    rules = st.rules
    st.turns += 1
    if st.phase == "main":
        st.main_turns += 1
    else:
        st.end_turns += 1
        st.end_left[seat] -= 1
    st.since_progress = 0 if progress else st.since_progress + 1
    st.to_move = 1 - seat
    if st.face_down == 0 and rules.early_end_no_own_tiles and not (_own_tiles_left(st, 0) and _own_tiles_left(st, 1)):
        st.over, st.end_reason = True, "early_end"
        return
    if revealed_last:  # H-4.1: the end phase starts; the opponent of the revealer acts first
        st.phase = "end"
        st.end_left = [rules.end_phase_moves, rules.end_phase_moves]
        return
    if st.phase == "end" and st.end_left[0] == 0 and st.end_left[1] == 0:
        st.over, st.end_reason = True, "end_phase_complete"
        return
    if rules.progress_limit == 0 and st.turns >= ACTION_CAP:
        st.over, st.end_reason = True, "aborted"


def apply_action(st: State, seat: int, action) -> None:
    """Apply a DP-1 option of ``seat`` (one ply)."""
    rules = st.rules
    st.plies += 1
    lock_mode = rules.neutral_lock
    st.lock = -1  # the opponent's lock lasted for this one action
    kind, s, d, n = action
    if kind == REVEAL:
        tile = st.grid[s]
        tile.face_up = True
        st.face_down -= 1
        st.reveals[seat] += 1
        st.last_move[seat] = None
        if COLOUR_OF_KIND[tile.kind] == -1 and lock_mode != "off":
            st.lock = tile.id
        _after_action(st, seat, progress=True, revealed_last=st.face_down == 0)
        return
    tile = st.grid[s]
    target = step(s, d, n)
    st.grid[s] = None
    if target < 0:  # exit (H-3.7)
        st.rescued[seat].append(tile.kind)
        st.rescues[seat][tile.kind] += 1
        st.last_move[seat] = (tile.id, s, -1)
        _after_action(st, seat, progress=True, revealed_last=False)
        return
    victim = st.grid[target]
    if victim is not None:  # capture (H-3.4)
        st.captured[seat].append(victim.kind)
        st.captures[seat][victim.kind] += 1
    st.grid[target] = tile
    st.last_move[seat] = (tile.id, s, target)
    if COLOUR_OF_KIND[tile.kind] == -1 and lock_mode == "reveal_or_move":
        st.lock = tile.id
    _after_action(st, seat, progress=victim is not None, revealed_last=False)


def apply_pass(st: State, seat: int) -> None:
    """H-4.4: a player without a legal end-phase action passes; the pass uses an action."""
    st.lock = -1
    st.passes[seat] += 1
    st.last_move[seat] = None
    _after_action(st, seat, progress=False, revealed_last=False)


# ---------------------------------------------------------------------- what a seat may see


@dataclasses.dataclass
class View:
    """What a player may know (the issue's hidden-information rule): face-up tiles,
    which squares hold face-down tiles, and the counts of each kind still face down."""

    rules: object
    seat: int
    colour: list
    grid: list  # face-up tiles as (kind, id, dir); a face-down tile as FACE_DOWN; None = empty
    face_down_counts: list  # per kind
    last_move: list
    lock: int
    phase: str
    end_left: list
    since_progress: int
    scores: list


FACE_DOWN = "?"


def face_down_counts(st: State) -> list:
    counts = [st.rules.tile_counts[k] for k in KINDS]
    for seat in (0, 1):
        for k in st.captured[seat] + st.rescued[seat]:
            counts[k] -= 1
    for t in st.grid:
        if t is not None and t.face_up:
            counts[t.kind] -= 1
    return counts


def observe(st: State, seat: int) -> View:
    grid = [None if t is None else ((t.kind, t.id, t.dir) if t.face_up else FACE_DOWN) for t in st.grid]
    return View(rules=st.rules, seat=seat, colour=list(st.colour), grid=grid, face_down_counts=face_down_counts(st),
                last_move=list(st.last_move), lock=st.lock, phase=st.phase, end_left=list(st.end_left),
                since_progress=st.since_progress, scores=[st.score(0), st.score(1)])


# ---------------------------------------------------------------------- the game


def winner(rules, scores, tiles) -> int:
    """H-6.2 / H-6.3 (also the match rule of H-8): a seat, or -1 for a draw."""
    if scores[0] == scores[1] and rules.tiebreak == "most_tiles_then_draw":
        return top_seat(tiles)
    return top_seat(scores)


@dataclasses.dataclass
class Decision:
    """A decision point (§5): always DP-1 (``kind`` 1), the ``seat`` to act and its ``options``
    (actions) in canonical order, after the H-2 filters; ``state`` is the game being played."""

    kind: int
    seat: int
    options: list
    state: State = dataclasses.field(repr=False, compare=False)


class Match:
    """One game of Halali, or a ``match_games = 2`` match (H-8), as a state machine over its
    decision points (the protocol of ``docs/architecture.md``, "The reference side").

    :meth:`start` sets game 1 up (H-1); :meth:`advance` runs the automatic steps (an end-phase
    pass, H-4.4; in a match, the second game's set-up once the first is over) up to the next
    :class:`Decision`, None once the match is over; :meth:`choose` is the option the seat's player
    picks; :meth:`apply` carries it out (one action).  ``games`` holds each game's :class:`State`;
    :meth:`row` is the §6 row.  ``observer(state, seat, options, action)``, if given, sees every
    decision before it is applied and every automatic pass (``options = action = None``) after it.

    The match is the generator :meth:`_play` (the game loop, written as one), which yields a
    :class:`Decision` where a player is asked and receives the action; it then yields None once the
    action is applied, so that :meth:`apply` stops there and :meth:`advance` goes on from there.
    """

    def __init__(self, rules, chance: Stream, players, observer=None):
        self.rules = rules
        self.chance = chance
        self.players = players  # one per seat; RandomPolicy keeps its decision stream in .stream
        self.observer = observer
        self.games: list = []
        self.lead = LeadTracker()  # one tracker through the whole match (design metrics)
        self._steps = None
        self._pending: Decision | None = None
        self.over = False

    def _play(self):
        rules, lead, observer = self.rules, self.lead, self.observer
        earlier = (0, 0)  # each seat's points in the match's earlier game
        for g in range(rules.match_games):
            if g == 1:  # H-8: a fresh shuffle, colours swapped
                earlier = (self.games[0].score(0), self.games[0].score(1))
            st = setup(rules, self.chance, BLUE if g == 0 else BROWN)
            st.first_player = st.to_move
            st.lead = lead
            self.games.append(st)
            if g == 0:
                yield None  # start() stops here
            while not st.over:
                seat = st.to_move
                options = legal_actions(st, seat)
                if not options:  # only possible in the end phase
                    apply_pass(st, seat)
                    if observer is not None:
                        observer(st, seat, None, None)
                else:
                    if forced_reveal(st):
                        st.forced_reveal_turns += 1
                    st.decisions += 1  # DP-1
                    st.options += len(options)
                    action = yield Decision(1, seat, options, st)
                    if observer is not None:
                        observer(st, seat, options, action)
                    apply_action(st, seat, action)
                # a turn is one action, a pass included (§6)
                lead.update([lead_measure(st, s, earlier[s]) for s in (0, 1)])
                if options:
                    yield None  # apply() stops here

    # the protocol
    def start(self) -> None:
        self._steps = self._play()
        next(self._steps)

    def advance(self) -> Decision | None:
        """The next decision point (the pending one if it is not applied yet); None once the match is over."""
        if self._pending is None and not self.over:
            try:
                self._pending = next(self._steps)
            except StopIteration:
                self.over = True
        return self._pending

    def choose(self, decision: Decision):
        """The action ``players[decision.seat]`` picks from what the seat may see."""
        return self.players[decision.seat].choose(observe(decision.state, decision.seat), decision.options)

    def apply(self, decision: Decision, option) -> None:
        """Carry out ``option``, one of ``decision.options`` (the pending decision's)."""
        if decision is not self._pending:
            raise ValueError("apply: the decision is not the pending one")
        self._pending = None
        if self._steps.send(option) is not None:
            raise RuntimeError("apply: the game did not stop after the action")

    def play(self) -> list:
        self.start()
        while (decision := self.advance()) is not None:
            self.apply(decision, self.choose(decision))
        return self.games

    def row(self) -> dict:
        """The §6 row of the finished match (:func:`record_row`)."""
        return record_row(self.rules, self.games)


def option_code(decision: Decision, option) -> int:
    """The kernel's code of ``option``: its action code (:func:`action_code`)."""
    return action_code(option)


def new_game(rules, seed: int, game_index: int, policies=("random", "random"), observer=None) -> Match:
    """Game (or match) ``game_index`` of a run seeded ``seed``, not yet started (same streams as the kernel)."""
    chance = Stream(seed, game_index, CHANCE)
    players = core_players("halali", policies, rules, seed, game_index)
    return Match(rules, chance, players, observer)


def play_game(rules, seed: int, game_index: int, policies=("random", "random"), observer=None) -> list:
    """Play one game (or a ``match_games = 2`` match); returns the final state of each game.

    ``observer(state, seat, options, action)`` sees every decision before it is
    applied, and every automatic pass (``options = action = None``) after it."""
    return new_game(rules, seed, game_index, policies, observer).play()


def record_row(rules, games: list) -> dict:
    """The outcome record (§6) as one flat row; a match sums its games (module docstring)."""
    first = games[0]
    aborted = any(g.end_reason == "aborted" for g in games)
    scores = [sum(g.score(s) for g in games) for s in (0, 1)]
    tiles = [sum(g.tiles(s) for g in games) for s in (0, 1)]
    if aborted:
        w = -1
    elif len(games) == 2:  # H-8: summed points, then summed tiles (whatever ``tiebreak`` says), else a draw
        w = winner(rules.replace(tiebreak="most_tiles_then_draw"), scores, tiles)
    else:
        w = winner(rules, scores, tiles)
    row = {"winner": w, "win_0": int(w == 0), "win_1": int(w == 1),
           "result": 2 if aborted else (0 if w >= 0 else 1),
           "colour_0": first.colour[0], "first_player": first.first_player,
           "turns": sum(g.turns for g in games), "main_turns": sum(g.main_turns for g in games),
           "end_turns": sum(g.end_turns for g in games), "plies": sum(g.plies for g in games),
           "decisions": sum(g.decisions for g in games), "options": sum(g.options for g in games),
           "forced_reveal_turns": sum(g.forced_reveal_turns for g in games),
           "end_reason": END_REASONS.index(first.end_reason)}
    for seat in (0, 1):
        row[f"score_{seat}"] = scores[seat]
        row[f"tiles_{seat}"] = tiles[seat]
        row[f"reveals_{seat}"] = sum(g.reveals[seat] for g in games)
        row[f"passes_{seat}"] = sum(g.passes[seat] for g in games)
    for table in ("captures", "rescues"):
        for k, kind in enumerate(KINDS):
            for seat in (0, 1):
                row[f"{table}_{kind}_{seat}"] = sum(getattr(g, table)[seat][k] for g in games)
    lead = getattr(first, "lead", None)  # set by play_game; a hand-built game has none
    row["lead_changes"], row["decisive_turn"] = lead.result(w) if lead is not None else (0, 0)
    for i in (0, 1):
        if i < len(games):
            g = games[i]
            gw = -1 if g.end_reason == "aborted" else winner(rules, [g.score(0), g.score(1)], [g.tiles(0), g.tiles(1)])
        else:
            gw = -2
        row[f"game{i + 1}_winner"] = gw
    return row


def play_reference(rules, seed: int, game_index: int, policies=("random", "random")) -> dict:
    """One match played and recorded (:func:`play_game`, :func:`record_row`): the row the kernel writes for
    it (``GameSpec.play_reference``; a match's record needs its rules besides its games)."""
    return record_row(rules, play_game(rules, seed, game_index, policies))


def kernel_state(match: Match) -> dict:
    """The position of the game being played in the kernel's state layout (``layout.STATE``), as the kernel codes
    it: each square's tile (kind, face up, gun direction, id; kind -1 and id -1 on an empty square), the seats'
    colours, the seat to move and the locked tile; the lock step of the conformance suite compares it with the
    kernel's state at every decision point (``tests/conformance/lockstep.py``)."""
    st = match.games[-1]
    tiles = st.grid
    return {"kind": [t.kind if t else -1 for t in tiles], "up": [int(t.face_up) if t else 0 for t in tiles],
            "dir": [t.dir if t else -1 for t in tiles], "id": [t.id if t else -1 for t in tiles],
            "colour": st.colour, "to_move": [st.to_move], "lock": [st.lock]}
