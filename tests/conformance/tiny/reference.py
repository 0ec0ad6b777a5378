"""Tiny, the readable pure-Python reference (spec ``RULES.md`` beside this file), written to be read beside
the spec.

The Numba kernel (``kernel.py``) must play the same games: both draw from the same streams
(``toolkit.core.rng``) in the same order and list the options in §5's order (0, 1, 2, ... squares).
Draws: chance stream 0, the start player (``random``: one ``below(2)``) and each turn's roll (one
``below(die_sides)`` + 1); seat ``s``'s stream ``1 + s``, its policy's draws (``random``: one ``below(n)``
per decision point of ``n > 1`` options; ``lookahead``: the rolls of its imagined games).

Design metrics, as in every game: ``decisions`` are the DP-1s of the game (= ``plies`` = ``turns``: every
turn is one decision), ``options`` their options summed; the lead measure is the squares, reported after
every turn (``core.lead``).

Choices the spec leaves open, decided here:

- A roll is made when the turn begins, so the game's last turn rolls before its decision (T-2.1).
- The lookahead's imagined games roll from the deciding seat's own stream (the game's chance stream is left
  as it was), so choosing never changes the dice of the real game.
"""

from __future__ import annotations

import dataclasses

from toolkit.core.lead import LeadTracker
from toolkit.core.policy import players as core_players
from toolkit.core.protocol import play_out
from toolkit.core.rng import CHANCE, Stream

DP_MOVE = 1  # the only decision point (§5)


@dataclasses.dataclass
class Decision:
    """DP-1 (§5): ``seat`` rolled ``roll`` and moves its pawn from ``square`` by one of ``options`` squares."""

    seat: int
    roll: int
    square: int
    options: tuple
    kind: int = DP_MOVE

    @property
    def info(self) -> str:
        """What the decision answers, in words (the golden traces show it)."""
        return f"rolled {self.roll} on square {self.square}"


class Game:
    """One game of Tiny as a state machine over its decision points: :meth:`start`, then :meth:`advance`
    (the roll up to the next :class:`Decision`, None at the end), :meth:`choose` and :meth:`apply`."""

    def __init__(self, rules, players, chance: Stream):
        self.rules, self.players, self.chance = rules, players, chance
        self.square = [0, 0]
        self.seat = self.start_seat = 0
        self.roll = 0  # the turn's roll, 0 before the turn has rolled
        self.over = False
        self.winner = -1
        self.turns = self.plies = self.offered = 0
        self.captures = [0, 0]
        self.lead = LeadTracker()

    def start(self) -> None:
        """T-1: both pawns on the start; the first player."""
        self.start_seat = self.seat = self.chance.below(2) if self.rules.start_player == "random" else 0

    def moves(self) -> tuple:
        """DP-1's options (T-2.2): 0 (wait; not on the start) .. min(roll, squares left) squares."""
        here = self.square[self.seat]
        return tuple(range(0 if here > 0 else 1, min(self.roll, self.rules.track - here) + 1))

    def roll_die(self, stream: Stream) -> None:
        """T-2.1: the turn begins with a roll from ``stream`` (the chance stream; a seat's own in a lookahead's
        imagined game)."""
        self.turns += 1
        self.roll = stream.below(self.rules.die_sides) + 1
        self.offered += len(self.moves())

    def advance(self) -> Decision | None:
        """T-2: the roll that makes the turn's decision point; None when the game is over."""
        if self.over:
            return None
        if self.roll == 0:
            self.roll_die(self.chance)
        return Decision(self.seat, self.roll, self.square[self.seat], self.moves())

    def apply(self, decision: Decision, option: int) -> None:
        """DP-1: move ``option`` squares, 0 to wait (T-2.2), overtaking (T-3); then the end (T-4) or the other's
        turn."""
        seat, other = self.seat, 1 - self.seat
        here, there, them = self.square[seat], self.square[seat] + option, self.square[other]
        if 0 < them < self.rules.track and here < them <= there:
            self.square[other] = 0
            self.captures[seat] += 1
        self.square[seat] = there
        self.plies += 1
        self.roll = 0
        self.lead.update(self.square)
        if there >= self.rules.track:
            self.winner, self.over = seat, True
        elif self.turns >= 2 * self.rules.rounds:
            lead = self.square[0] - self.square[1]
            self.winner = 0 if lead > self.rules.draw_margin else 1 if -lead > self.rules.draw_margin else -1
            self.over = True
        else:
            self.seat = other

    def choose(self, decision: Decision) -> int:
        return self.players[decision.seat].choose(self, decision)

    def play(self) -> "Game":
        return play_out(self)

    def row(self) -> dict:
        return record_row(self)

    def imagined(self) -> "Game":
        """A copy of the position for a lookahead to play on (no players; the tallies copied too)."""
        world = Game(self.rules, None, self.chance)
        world.square, world.captures = list(self.square), list(self.captures)
        world.seat, world.roll, world.over, world.winner = self.seat, self.roll, self.over, self.winner
        world.turns, world.plies, world.offered = self.turns, self.plies, self.offered
        return world


def option_code(decision: Decision, option: int) -> int:
    """The kernel's code of ``option``: its squares."""
    return option


def new_game(rules, seed: int, game_index: int, policies=("random", "random")) -> Game:
    """Game ``game_index`` of a run seeded ``seed``, not yet started (the kernel's streams)."""
    return Game(rules, core_players("tiny", policies, rules, seed, game_index), Stream(seed, game_index, CHANCE))


def play_game(rules, seed: int, game_index: int, policies=("random", "random")) -> Game:
    """Play game ``game_index`` of a run seeded ``seed`` to its end."""
    return new_game(rules, seed, game_index, policies).play()


def record_row(game: Game) -> dict:
    """The §6 record as one row of the kernel's columns (a game not over: its result so far, as a draw)."""
    lead_changes, decisive_turn = game.lead.result(game.winner)
    return {"winner": game.winner, "win_0": int(game.winner == 0), "win_1": int(game.winner == 1),
            "score_0": game.square[0], "score_1": game.square[1], "turns": game.turns, "plies": game.plies,
            "decisions": game.plies, "options": game.offered, "lead_changes": lead_changes,
            "decisive_turn": decisive_turn, "start_seat": game.start_seat, "result": 0 if game.winner >= 0 else 1,
            "captures_0": game.captures[0], "captures_1": game.captures[1]}


def kernel_state(game: Game) -> dict:
    """The position in the kernel's state layout (``layout.STATE``): each field the rules and the record read,
    as the kernel codes it (the lock step of ``tests/conformance`` compares it with the kernel's state at every
    decision point; the kernel's defensive ``bad_roll`` is its own)."""
    lead = game.lead
    return {"square": game.square, "seat": [game.seat], "roll": [game.roll], "over": [int(game.over)],
            "winner": [game.winner], "turns": [game.turns], "plies": [game.plies], "offered": [game.offered],
            "start": [game.start_seat], "captures": game.captures,
            "lead": [lead.last, lead.changes, lead.current, lead.run_start]}
