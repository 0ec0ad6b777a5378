"""Valhalla, the readable pure-Python reference (spec ``docs/rules/valhalla.md``).

This module is written to be read beside the spec, section by section.  It is
the oracle for the scenario tests and the baseline the Numba kernel
(``kernel.py``) must match game for game: both draw from the same streams
(``toolkit.core.rng``) in the same order and list options in the canonical
order of §5.

Order of random draws (shared with the kernel):

- chance stream (0): ``random`` start player -> one ``below(2)``; every throw
  (start throws included) -> one ``uniform()`` looked up in the cumulative
  table of the 16 stick outcomes, outcome ``k`` having stick ``i`` rune-up
  iff bit ``i`` of ``k`` is set (S, T, G, H = bits 0..3);
- decision stream of seat ``s`` (1 + s): the ``random`` policy draws one
  ``below(n)`` per decision point with ``n >= 2`` options.  A decision point
  with a single option is still a ply but draws nothing.

Choices the spec leaves open, decided here:

- With ``hagalaz_alone_value = -1`` the throw moves one square backward
  (V-4.2) whatever ``backward_rule`` says; the landing check, the
  ``backward_attacks_allowed`` switch and the passage rule still apply.
- The rock's "lowest-numbered empty square" fallback searches 1..35 and
  skips the rock square itself.
- A ship swapped onto the rock square cannot happen (no attacker starts on
  it); a ship swapped onto the dock is not repairing (V-6.2).
- The ``max_turns`` cap is checked after each completed turn; a turn that
  reaches 1,000 throws aborts the game at once (V-8).
- ``forfeits`` counts throws of value 0, throws with no legal move and
  throws voided by ``blocked_entry_forfeits_turn``.
- The 1,000-throw cap of V-8: when a turn has made 1,000 throws and another
  (extra) throw is due, the game is aborted instead of throwing again.  DP-2
  is still offered (and counted as a ply) before that; with the default
  extra-throw classes a turn never gets near the cap.
- ``dock_releases`` counts repairing ships that left the dock by their own
  release move (V-5.3).  A repairing ship swapped off the dock by an attack
  (possible only with ``repairing_ship_protected = false``) is not counted.
- An aborted game has ``winner = -1`` (docs/architecture.md: no winner), ``result =
  aborted``, and scores the ships borne off so far.
- A decision point with a single option is a ply (§5) but consumes no draw
  from the decision stream.

Design metrics (the columns ``decisions``, ``options``, ``lead_changes``,
``decisive_turn``; the same counts in the kernel):

- ``decisions``: the §5 decision points of the real game, counted in
  :meth:`Game.play_turn` where a policy would be asked (the lookahead's
  imagined replies never count).  Every DP-1 counts, a single-option DP-1
  included (§5: "it counts as one ply even if it has only one option"), and
  every DP-2 (optional extra throw).  Not counted, as §5 lists them: the
  start-player throws, the automatic opening move, rock relocations, forced
  extra throws; nor a throw with no legal move (no DP-1 is presented).  So
  ``decisions`` equals ``plies`` in this game.
- ``options``: per DP-1 the number of legal moves (one per origin, §5), per
  DP-2 two (``throw_again``, ``decline``).
- Lead measure (:func:`lead_measure`): minus the pips a seat still has to
  travel, i.e. minus the sum over its ships of ``37 - pos`` (a ship at home
  has 37 to go, a ship in Valhalla 1, a ship borne off 0).  It is the race
  count of a race game: every square the ships have travelled is progress,
  an attack that swaps a ship back or a rock hit shows at once as lost
  ground, and the seat that first brings all its pips to 0 wins.  It is
  public (every ship stands in view).  It is reported after each §6 turn:
  after the opening turn 1 (when there is one) and after every later turn,
  including the turn that wins and a turn aborted by the throw cap; the
  ``max_turns`` cap ends the game between turns and adds none.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from toolkit.core.lead import LeadTracker
from toolkit.core.policy import players as core_players
from toolkit.core.rng import CHANCE, Stream
from toolkit.games.valhalla.layout import SEAT_FIELDS  # the §6 counts per seat, the kernel's columns

# §2.5 positions off the track
HOME = 0
VALHALLA = 36
OFF = 37
FIRST_ROW = range(1, 13)
TRACK = range(1, 36)  # single-occupancy squares (V-1.3)
MAX_THROWS_PER_TURN = 1000


# ---------------------------------------------------------------------- §3 throws


@dataclasses.dataclass(frozen=True)
class Throw:
    """One evaluated throw (§3, V-2)."""

    value: int
    natural_one: bool
    sticks: tuple = ()

    @property
    def klass(self) -> str:
        if self.value == 1:
            return "natural_one" if self.natural_one else "unnatural_one"
        return str(self.value)


def evaluate_sticks(rules, sticks) -> Throw:
    """§3.2 (runes) and §3.3 (simplified): the value of four sticks S, T, G, H."""
    s, t, g, h = sticks
    runes_up = s + t + g + h
    natural_one = runes_up == 1 and not h
    if runes_up == 0:
        return Throw(rules.zero_runes_value, False, tuple(sticks))
    if rules.throw_mode == "simplified":
        return Throw(runes_up, natural_one, tuple(sticks))
    value = s + t + g
    if h:
        value += 1 if g else -1  # Gebo turns Hagalaz's penalty into a bonus
    if value < 0:  # only Hagalaz alone
        value = rules.hagalaz_alone_value
    return Throw(value, natural_one, tuple(sticks))


class Sticks:
    """The four fate sticks, thrown from a game's chance stream (§3.1)."""

    def __init__(self, rules, stream: Stream):
        self.rules = rules
        self.stream = stream
        p = rules.stick_rune_up_probability
        self.outcomes = []  # (cumulative probability, Throw), outcome k in order
        cumulative = 0.0
        for k in range(16):
            sticks = tuple((k >> i) & 1 for i in range(4))
            prob = 1.0
            for up in sticks:
                prob *= p if up else 1.0 - p
            cumulative += prob
            self.outcomes.append((cumulative, evaluate_sticks(rules, sticks)))

    def throw(self) -> Throw:
        u = self.stream.uniform()
        for cumulative, outcome in self.outcomes:
            if u < cumulative:
                return outcome
        return self.outcomes[-1][1]  # u beyond a rounded-down total


class ScriptedSticks:
    """Sticks that return a given sequence of throws (for scenario tests)."""

    def __init__(self, throws):
        self.throws = list(throws)

    def throw(self) -> Throw:
        return self.throws.pop(0)


# ---------------------------------------------------------------------- V-1 state


@dataclasses.dataclass
class State:
    """V-1: ``pos[seat][ship]`` in 0..37 and ``repairing[seat][ship]``."""

    pos: list
    repairing: list

    @classmethod
    def empty(cls, ships: int) -> "State":
        return cls([[HOME] * ships for _ in range(2)], [[False] * ships for _ in range(2)])

    @classmethod
    def from_positions(cls, seat0, seat1, repairing=None) -> "State":
        """Hand-built position: ``repairing`` is ``(seat, square)`` of the repairing ship."""
        state = cls([list(seat0), list(seat1)], [[False] * len(seat0), [False] * len(seat1)])
        if repairing is not None:
            seat, square = repairing
            state.repairing[seat][state.pos[seat].index(square)] = True
        return state

    def copy(self) -> "State":
        return State([list(p) for p in self.pos], [list(r) for r in self.repairing])

    def owner(self, square: int):
        """The seat whose ship stands on ``square`` (1..35), or ``None``."""
        for seat in (0, 1):
            if square in self.pos[seat]:
                return seat
        return None

    def ship_at(self, seat: int, square: int) -> int:
        return self.pos[seat].index(square)

    def borne_off(self, seat: int) -> int:
        return self.pos[seat].count(OFF)


def lead_measure(state: State, seat: int) -> int:
    """Design metrics: minus the pips ``seat`` still has to travel (a borne-off ship counts 0)."""
    return -sum(OFF - p for p in state.pos[seat])


@dataclasses.dataclass(frozen=True)
class Move:
    """One DP-1 option: the ship on ``origin`` goes to ``target`` (V-5)."""

    origin: int
    target: int
    backward: bool = False
    attack: bool = False


# ---------------------------------------------------------------------- V-6 protection, V-7 gate


def in_blockade_run(rules, state: State, square: int) -> bool:
    """V-6.4c: the ship on ``square`` belongs to a protected blockade run."""
    first, last = rules.blockade_zone
    if not first <= square <= last or square >= VALHALLA:
        return False
    owner = state.owner(square)
    if owner is None:
        return False
    low = square
    while low - 1 >= first and state.owner(low - 1) == owner:
        low -= 1
    high = square
    while high + 1 <= last and high + 1 < VALHALLA and state.owner(high + 1) == owner:
        high += 1
    return (high - low + 1) in rules.protected_run_lengths


def is_protected(rules, state: State, square: int) -> bool:
    """V-6.4: the ship on ``square`` (1..35) cannot be attacked."""
    if square in rules.safe_squares:
        return True
    owner = state.owner(square)
    if (square == rules.dock_square and rules.repairing_ship_protected
            and state.repairing[owner][state.ship_at(owner, square)]):
        return True
    return in_blockade_run(rules, state, square)


def gate_open(rules, state: State, seat: int) -> bool:
    """V-7: may ``seat`` bear a ship off now?"""
    if rules.bear_off_gate == "none":
        return True
    if rules.bear_off_gate == "first_only" and state.borne_off(seat) > 0:
        return True
    pos = state.pos[seat]
    if any(p in FIRST_ROW for p in pos):
        return False
    return not (rules.unentered_count_as_row1 and HOME in pos)


# ---------------------------------------------------------------------- V-5 moves


def _passage_blocked(rules, state, seat, low, high) -> bool:
    """V-5.8: an opponent's protected run strictly between ``low`` and ``high``."""
    if not rules.blockade_blocks_passage:
        return False
    opponent = 1 - seat
    for square in range(low + 1, min(high, VALHALLA)):
        if state.owner(square) == opponent and in_blockade_run(rules, state, square):
            return True
    return False


def _landing(rules, state, seat, origin, target, backward):
    """V-5.7 landing check; returns the Move or ``None`` if illegal."""
    if target == OFF:
        return Move(origin, OFF) if gate_open(rules, state, seat) else None
    if target == VALHALLA:
        return Move(origin, VALHALLA, backward)
    owner = state.owner(target)
    if owner is None:
        return Move(origin, target, backward)
    if owner == seat:
        return None
    if is_protected(rules, state, target) or (backward and not rules.backward_attacks_allowed):
        return None
    return Move(origin, target, backward, attack=True)


def forward_move(rules, state, seat, origin, ship, throw: Throw):
    """V-5.1 to V-5.4: the forward move of the ship on ``origin``, or ``None``."""
    v = throw.value
    if origin == OFF:
        return None
    if origin == VALHALLA:  # V-5.4 leaving Valhalla
        return _landing(rules, state, seat, origin, OFF, False)
    if state.repairing[seat][ship]:  # V-5.3
        release = throw.natural_one if rules.dock_release == "natural_one" else v == 1
        if not release:
            return None
        target = rules.dock_square + 1
    else:  # V-5.1 entering (origin 0) and V-5.2
        target = origin + v
        if target > VALHALLA:
            if rules.valhalla_entry == "exact_or_over":
                target = VALHALLA
            elif rules.valhalla_entry == "exact":
                return None
            else:  # direct_off
                target = OFF
    if _passage_blocked(rules, state, seat, origin, target):
        return None
    return _landing(rules, state, seat, origin, target, False)


def backward_move(rules, state, seat, origin, ship, distance):
    """V-5.5: the backward move of ``distance`` squares, or ``None``."""
    if origin in (HOME, VALHALLA, OFF) or state.repairing[seat][ship]:
        return None
    target = origin - distance
    if target < 1:
        return None
    if _passage_blocked(rules, state, seat, target, origin):
        return None
    return _landing(rules, state, seat, origin, target, True)


def _origins(state, seat):
    """Origin squares in canonical order (§5): 1..36 ascending, home last; one ship per origin."""
    seen = []
    for square in sorted(set(state.pos[seat])):
        if square not in (HOME, OFF):
            seen.append(square)
    if HOME in state.pos[seat]:
        seen.append(HOME)
    return seen


def entry_blocked_forfeit(rules, state, seat, throw: Throw) -> bool:
    """V-5.6 (when on): a ship at home, 1 <= v <= 5 and square v occupied."""
    v = throw.value
    return (rules.blocked_entry_forfeits_turn and HOME in state.pos[seat]
            and 1 <= v <= 5 and state.owner(v) is not None)


def legal_moves(rules, state: State, seat: int, throw: Throw) -> list:
    """The DP-1 options for ``throw`` (V-4.2), in the canonical order of §5."""
    v = throw.value
    if v == 0 or entry_blocked_forfeit(rules, state, seat, throw):
        return []
    origins = _origins(state, seat)
    if v == -1:
        moves = [backward_move(rules, state, seat, o, state.ship_at(seat, o), 1) for o in origins]
        return [m for m in moves if m is not None]
    forward = [forward_move(rules, state, seat, o, state.ship_at(seat, o), throw) for o in origins]
    forward = [m for m in forward if m is not None]
    if forward or rules.backward_rule == "none":
        return forward
    distance = v if rules.backward_rule == "full_throw" else 1
    moves = [backward_move(rules, state, seat, o, state.ship_at(seat, o), distance) for o in origins]
    return [m for m in moves if m is not None]


@dataclasses.dataclass
class MoveEvents:
    attack: bool = False
    rock_hit: bool = False
    dock_release: bool = False


def apply_move(rules, state: State, seat: int, move: Move) -> MoveEvents:
    """Carry out a legal move: swap on attack (V-5.7), then the rock (V-6.3)."""
    events = MoveEvents(attack=move.attack)
    ship = state.ship_at(seat, move.origin)
    if state.repairing[seat][ship]:
        events.dock_release = True
        state.repairing[seat][ship] = False
    if move.attack:
        opponent = 1 - seat
        victim = state.ship_at(opponent, move.target)
        state.pos[opponent][victim] = move.origin  # the attacked ship takes the origin (home if 0)
        state.repairing[opponent][victim] = False
    state.pos[seat][ship] = move.target
    if move.target == rules.rock_square:
        events.rock_hit = True
        _rock(rules, state, seat, ship)
    return events


def _rock(rules, state, seat, ship):
    """V-6.3: relocate a ship that ended on the rock."""
    state.pos[seat][ship] = -1  # lift it off the rock while looking for a square
    if state.owner(rules.dock_square) is None:
        state.pos[seat][ship] = rules.dock_square
        state.repairing[seat][ship] = True
    elif state.owner(1) is None:
        state.pos[seat][ship] = 1
    else:
        state.pos[seat][ship] = next(sq for sq in TRACK if sq != rules.rock_square and state.owner(sq) is None)


# ---------------------------------------------------------------------- the game (V-3, V-4, V-8)


@dataclasses.dataclass
class Record:
    """The §6 outcome record."""

    result: str = "win"
    winner: int = -1
    start_seat: int = 0
    score: list = dataclasses.field(default_factory=lambda: [0, 0])
    turns: int = 0
    plies: int = 0
    decisions: int = 0  # §5 decision points of the real game (= plies here)
    options: int = 0  # options offered at them
    lead_changes: int = 0
    decisive_turn: int = 0
    start_throws: int = 0
    throws: list = dataclasses.field(default_factory=lambda: [0, 0])
    captures: list = dataclasses.field(default_factory=lambda: [0, 0])
    rock_hits: list = dataclasses.field(default_factory=lambda: [0, 0])
    dock_releases: list = dataclasses.field(default_factory=lambda: [0, 0])
    extra_throws: list = dataclasses.field(default_factory=lambda: [0, 0])
    backward_moves: list = dataclasses.field(default_factory=lambda: [0, 0])
    forfeits: list = dataclasses.field(default_factory=lambda: [0, 0])


@dataclasses.dataclass
class Decision:
    """A decision point (§5): ``kind`` 1 (DP-1, a move: ``options`` are Moves in canonical order,
    one per origin) or 2 (DP-2, an optional extra throw: ``THROW_AGAIN``, ``DECLINE``), the
    ``seat`` that decides and the ``throw`` it answers."""

    kind: int
    seat: int
    options: list
    throw: Throw


THROW_AGAIN, DECLINE = "throw_again", "decline"


class Game:
    """One game of Valhalla, as a state machine over its decision points (§5, §6).

    :meth:`start` sets up (V-3); :meth:`advance` throws and runs the automatic steps up to the
    next :class:`Decision` (None once the game is over); :meth:`apply` carries out one of its
    options; :meth:`result` is the §6 record.  :meth:`play` runs a whole game with
    ``players[seat]`` (the ``policies`` given), objects with ``choose_move(game, seat, throw, moves)`` and
    ``choose_extra_throw(game, seat)`` (see ``policies.py``); ``decided(game, decision, option)``,
    if given, sees every decision before it is applied.  ``observer(game, event)``, if given, is
    called after every move resolution (used by the invariant checks).
    """

    def __init__(self, rules, policies, sticks, chance: Stream | None = None,
                 observer: Callable | None = None, state: State | None = None, decided: Callable | None = None):
        self.rules = rules
        self.players = policies  # one policy object per seat
        self.sticks = sticks
        self.chance = chance
        self.observer = observer
        self.decided = decided
        self.state = state if state is not None else State.empty(rules.ships_per_player)
        self.record = Record()
        self.finished = False
        self.lead = LeadTracker()
        self.seat = None  # the seat whose turn it is (None until the set-up is over)
        self.phase = "setup"  # setup, turn (a turn is due), throw, decide, over
        self.pending: Decision | None = None
        self.throws_this_turn = 0
        self.one_turn = False  # play_turn: advance stops at the turn's end

    def _turn_ended(self) -> None:
        """Design metrics: report every seat's lead measure after a §6 turn."""
        self.lead.update([lead_measure(self.state, seat) for seat in (0, 1)])

    # V-3 setup and start player
    def setup(self) -> int:
        """Place the ships, find the start player, play turn 1. Returns the next seat."""
        rules, state, record = self.rules, self.state, self.record
        if rules.start_player_rule == "first_natural_one":
            seat = 0
            while True:
                throw = self.sticks.throw()
                if throw.natural_one:
                    break
                record.start_throws += 1
                seat = 1 - seat
            start = seat
        elif rules.start_player_rule == "random":
            start = self.chance.below(2)
        else:
            start = 0
        record.start_seat = start
        if rules.setup == "alternating_blocks":  # the start player plays black on 7..12
            state.pos[start] = [7, 8, 9, 10, 11, 12]
            state.pos[1 - start] = [1, 2, 3, 4, 5, 6]
        if rules.start_player_rule == "first_natural_one":
            record.turns = 1
            record.throws[start] += 1
            opening = Move(HOME, 1) if rules.setup == "empty_board" else Move(12, 13)
            apply_move(rules, state, start, opening)
            self._observe("opening")
            self._turn_ended()
            return 1 - start
        if rules.setup == "alternating_blocks":  # turn 1 is the throwless 12 -> 13
            record.turns = 1
            apply_move(rules, state, start, Move(12, 13))
            self._observe("opening")
            self._turn_ended()
            return 1 - start
        return start

    def _observe(self, event):
        if self.observer is not None:
            self.observer(self, event)

    # the protocol
    def start(self) -> None:
        self.seat = self.setup()
        self.phase = "turn"

    def advance(self) -> Decision | None:
        """V-4: throw until a decision point; None when the game is over."""
        rules, state, record = self.rules, self.state, self.record
        while True:
            if self.phase == "decide":
                return self.pending
            if self.phase == "over":
                return None
            seat = self.seat
            if self.phase == "turn":  # V-8: max_turns ends the game between turns
                if self.one_turn:
                    return None
                if record.turns >= rules.max_turns:
                    record.result = "aborted"
                    self.finished = True
                    self.phase = "over"
                    return None
                self._begin_turn()
            throw = self.sticks.throw()
            self.throws_this_turn += 1
            record.throws[seat] += 1
            moves = legal_moves(rules, state, seat, throw)
            if moves:
                record.plies += 1
                record.decisions += 1
                record.options += len(moves)
                return self._decide(Decision(1, seat, moves, throw))
            record.forfeits[seat] += 1
            self._after_throw(throw)

    def _begin_turn(self) -> None:
        self.record.turns += 1
        self.throws_this_turn = 0
        self.phase = "throw"

    def play_turn(self, seat: int) -> None:
        """One whole turn of ``seat`` with its policy (V-4), whatever the game's state says: the
        scenario tests' step.  The cap on turns is not looked at."""
        self.seat, self.one_turn = seat, True
        self._begin_turn()
        try:
            while (decision := self.advance()) is not None:
                self.apply(decision, self.choose(decision))
        finally:
            self.one_turn = False

    def _decide(self, decision: Decision) -> Decision:
        self.pending, self.phase = decision, "decide"
        return decision

    def _after_throw(self, throw: Throw) -> None:
        """After a throw's move or forfeit: an extra throw (V-4.3; DP-2 when optional) or the turn's end."""
        rules, record = self.rules, self.record
        if not (rules.extra_throw_enabled and throw.klass in rules.extra_throw_values):
            self._end_turn()
        elif rules.extra_throw_optional:  # DP-2: throw_again, decline
            record.plies += 1
            record.decisions += 1
            record.options += 2
            self._decide(Decision(2, self.seat, [THROW_AGAIN, DECLINE], throw))
        else:
            self._extra_throw()

    def _extra_throw(self) -> None:
        if self.throws_this_turn >= MAX_THROWS_PER_TURN:  # V-8 safety cap
            self.record.result = "aborted"
            self.finished = True
            self._end_turn()
        else:
            self.record.extra_throws[self.seat] += 1
            self.phase = "throw"

    def _end_turn(self) -> None:
        self._turn_ended()
        if self.finished:
            self.phase = "over"
        else:
            self.seat = 1 - self.seat
            self.phase = "turn"

    def apply(self, decision: Decision, option) -> None:
        """Carry out ``option``, one of ``decision.options``."""
        rules, state, record = self.rules, self.state, self.record
        seat = decision.seat
        self.pending, self.phase = None, "throw"
        if decision.kind == 2:
            if option == THROW_AGAIN:
                self._extra_throw()
            else:
                self._end_turn()
            return
        events = apply_move(rules, state, seat, option)
        record.captures[seat] += events.attack
        record.rock_hits[seat] += events.rock_hit
        record.dock_releases[seat] += events.dock_release
        record.backward_moves[seat] += option.backward
        self._observe("move")
        if state.borne_off(seat) == rules.ships_per_player:  # V-4.4
            record.winner = seat
            self.finished = True
            self._end_turn()
        else:
            self._after_throw(decision.throw)

    def choose(self, decision: Decision):
        """The option ``policies[decision.seat]`` picks (a single option without asking)."""
        policy = self.players[decision.seat]
        if decision.kind == 2:
            return THROW_AGAIN if policy.choose_extra_throw(self, decision.seat) else DECLINE
        if len(decision.options) == 1:
            return decision.options[0]
        return policy.choose_move(self, decision.seat, decision.throw, decision.options)

    def result(self) -> Record:
        record = self.record
        record.score = [self.state.borne_off(0), self.state.borne_off(1)]
        if record.result == "aborted":
            record.winner = -1
        record.lead_changes, record.decisive_turn = self.lead.result(record.winner)
        return record

    def row(self) -> dict:
        """The §6 record of the finished game as one row of result columns."""
        return record_row(self.result())

    def play(self) -> Record:
        self.start()
        while (decision := self.advance()) is not None:
            option = self.choose(decision)
            if self.decided is not None:
                self.decided(self, decision, option)
            self.apply(decision, option)
        return self.result()


def option_code(decision: Decision, option) -> int:
    """The kernel's code of ``option``: DP-1 the origin's bit (a track square, 36 Valhalla, 37 home),
    DP-2 its index (0 throw again, 1 decline)."""
    if decision.kind == 2:
        return decision.options.index(option)
    return 37 if option.origin == HOME else option.origin


def new_game(rules, seed: int, game_index: int, policies=("random", "random"), observer=None, decided=None) -> Game:
    """Game ``game_index`` of a run seeded ``seed``, not yet started (same streams as the kernel)."""
    chance = Stream(seed, game_index, CHANCE)
    players = core_players("valhalla", policies, rules, seed, game_index)
    return Game(rules, players, Sticks(rules, chance), chance=chance, observer=observer, decided=decided)


def play_game(rules, seed: int, game_index: int, policies=("random", "random"), observer=None, decided=None) -> Record:
    """Play game ``game_index`` of a run seeded ``seed`` (same streams as the kernel)."""
    return new_game(rules, seed, game_index, policies, observer, decided).play()


def record_row(record: Record) -> dict:
    """The record flattened to result columns (docs/architecture.md decision 5)."""
    row = {"winner": record.winner,
           "win_0": int(record.winner == 0), "win_1": int(record.winner == 1),
           "score_0": record.score[0], "score_1": record.score[1],
           "turns": record.turns, "plies": record.plies,
           "decisions": record.decisions, "options": record.options,
           "lead_changes": record.lead_changes, "decisive_turn": record.decisive_turn,
           "result": int(record.result == "aborted"),  # code of the result column: 0 win, 1 aborted
           "start_seat": record.start_seat, "start_throws": record.start_throws}
    for name in SEAT_FIELDS:
        values = getattr(record, name)
        row[f"{name}_0"] = values[0]
        row[f"{name}_1"] = values[1]
    return row


def kernel_state(game: Game) -> dict:
    """The position in the kernel's state layout (``layout.STATE``), as the kernel codes it: the board (a
    bitboard of squares 1..35 per seat, the ships at home, in Valhalla and borne off, the seat repairing) and the
    seat whose turn it is; the lock step of the conformance suite compares it with the kernel's state at every
    decision point (``tests/conformance/lockstep.py``)."""
    pos, repairing = game.state.pos, game.state.repairing
    return {"ships": [sum(1 << q for q in pos[s] if HOME < q < VALHALLA) for s in (0, 1)],
            "home": [pos[s].count(HOME) for s in (0, 1)], "valhalla": [pos[s].count(VALHALLA) for s in (0, 1)],
            "off": [pos[s].count(OFF) for s in (0, 1)],
            "repairing": [next((s for s in (0, 1) if any(repairing[s])), -1)], "seat": [game.seat]}
