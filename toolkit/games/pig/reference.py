"""Pig, the readable pure-Python reference (spec ``docs/rules/pig.md``), written to be read beside the spec.

The Numba kernel (``kernel.py``) must play the same games: both draw from the same streams
(``toolkit.core.rng``) in the same order and list the options in §5's order (``ROLL``, ``HOLD``).
Draws: chance stream 0, the start player (``random``: one ``below(2)``) and every roll (one
``below(die_sides)`` + 1); seat ``s``'s stream ``1 + s``, its policy's draws (``random``: one
``below(2)`` per decision point).

Design metrics, as in every game: ``decisions`` are the DP-1s of the game (= ``plies``), ``options`` two
per decision; the lead measure is the banked score, reported after every turn (``core.lead``), the winning
one included.

Choices the spec leaves open, decided here:

- No cap on turns (the other games' ``max_turns``): a turn ends with a bust or a hold, and a game ends with
  probability 1 under any policy, since a hold banks at least 2 points and every roll busts with 1/sides.
- The start player is drawn (``random``) before the second seat's head start is given, which then goes to the
  seat that did not draw the first turn.
- The lookahead's imagined turns roll from the deciding seat's own stream (the game's chance stream is left
  as it was), so choosing never changes the dice of the real game.
- The game's end is a hold (P-5.1), so the winner's turn counts its hold in ``holds``; no game ends on a bust.
"""

from __future__ import annotations

import dataclasses

from toolkit.core.lead import LeadTracker
from toolkit.core.policy import players as core_players
from toolkit.core.protocol import play_out
from toolkit.core.rng import CHANCE, Stream
from toolkit.games.pig.layout import SEAT_FIELDS  # the §6 counts per seat, the kernel's columns

ROLL, HOLD = "roll", "hold"  # DP-1's options in canonical order (§5); their kernel codes are 0 and 1


@dataclasses.dataclass
class Decision:
    """DP-1 (§5): ``seat`` rolls again or holds ``turn_total``."""

    seat: int
    turn_total: int
    options: tuple = (ROLL, HOLD)
    kind: int = 1

    @property
    def info(self) -> str:
        """What the decision answers, in words (the golden traces show it)."""
        return f"turn total {self.turn_total}"


class Game:
    """One game of Pig as a state machine over its decision points: :meth:`start`, then :meth:`advance`
    (rolls up to the next :class:`Decision`, None at the end), :meth:`choose` and :meth:`apply`."""

    def __init__(self, rules, players, chance: Stream):
        self.rules, self.players, self.chance = rules, players, chance
        self.score = [0, 0]
        self.turn_total = 0
        self.seat = 0
        self.winner = -1
        self.start_seat = 0
        self.rolling = True  # a roll is due (P-3.1, or after DP-1's roll)
        self.counts = {field: [0, 0] for field in SEAT_FIELDS}
        self.turns = self.plies = 0
        self.lead = LeadTracker()

    def start(self) -> None:
        """P-1, P-2: the start player and the second seat's bonus; the first turn begins."""
        first = self.chance.below(2) if self.rules.start_player == "random" else 0
        self.start_seat = self.seat = first
        self.score[1 - first] = self.rules.second_player_bonus
        self.turns = 1

    def advance(self) -> Decision | None:
        """P-3: roll until a decision point (a roll that is not a bust); None when the game is over."""
        while self.winner < 0:
            if not self.rolling:
                return Decision(self.seat, self.turn_total)
            self.roll_once(self.chance)
        return None

    def roll_once(self, stream: Stream) -> None:
        """One roll (§3) from ``stream`` (the chance stream; a seat's own in a lookahead's imagined turn):
        a bust ends the turn (P-3.2), any other face makes a decision point (P-3.3)."""
        face = stream.below(self.rules.die_sides) + 1
        self.counts["rolls"][self.seat] += 1
        if face == 1:
            self.counts["busts"][self.seat] += 1
            self.end_turn()
        else:
            self.turn_total += face
            self.rolling = False
            self.plies += 1

    def apply(self, decision: Decision, option: str) -> None:
        """DP-1: roll again (the roll is :meth:`advance`'s) or hold (P-3.4, P-5.1)."""
        if option == ROLL:
            self.rolling = True
            return
        self.score[self.seat] += self.turn_total
        self.counts["holds"][self.seat] += 1
        if self.score[self.seat] >= self.rules.target:
            self.winner = self.seat
        self.end_turn()

    def end_turn(self) -> None:
        """The turn is over (P-3.2, P-3.4): the lead is reported, and the other seat's turn begins (P-4)."""
        self.lead.update(self.score)
        self.turn_total = 0
        self.rolling = True
        if self.winner < 0:
            self.seat = 1 - self.seat
            self.turns += 1

    def choose(self, decision: Decision) -> str:
        return self.players[decision.seat].choose(self, decision)

    def play(self) -> "Game":
        return play_out(self)

    def row(self) -> dict:
        return record_row(self)

    def imagined(self) -> "Game":
        """A copy of the position for a lookahead to play on (no players, fresh counts)."""
        world = Game(self.rules, None, self.chance)
        world.score, world.turn_total = list(self.score), self.turn_total
        world.seat, world.rolling = self.seat, self.rolling
        return world


def option_code(decision: Decision, option: str) -> int:
    """The kernel's code of ``option``: its index in §5's order."""
    return decision.options.index(option)


def new_game(rules, seed: int, game_index: int, policies=("random", "random")) -> Game:
    """Game ``game_index`` of a run seeded ``seed``, not yet started (the kernel's streams)."""
    return Game(rules, core_players("pig", policies, rules, seed, game_index), Stream(seed, game_index, CHANCE))


def play_game(rules, seed: int, game_index: int, policies=("random", "random")) -> Game:
    """Play game ``game_index`` of a run seeded ``seed`` to its end."""
    return new_game(rules, seed, game_index, policies).play()


def record_row(game: Game) -> dict:
    """The §6 record of a finished game as one row of the kernel's columns."""
    lead_changes, decisive_turn = game.lead.result(game.winner)
    row = {"winner": game.winner, "win_0": int(game.winner == 0), "win_1": int(game.winner == 1),
           "score_0": game.score[0], "score_1": game.score[1], "turns": game.turns, "plies": game.plies,
           "decisions": game.plies, "options": 2 * game.plies, "lead_changes": lead_changes,
           "decisive_turn": decisive_turn, "start_seat": game.start_seat}
    for field in SEAT_FIELDS:
        for seat in (0, 1):
            row[f"{field}_{seat}"] = game.counts[field][seat]
    return row


def kernel_state(game: Game) -> dict:
    """The position in the kernel's state layout (``layout.STATE``), each field as the kernel codes it: the lock
    step of the conformance suite compares it with the kernel's state at every decision point
    (``tests/conformance/lockstep.py``).  ``held`` is the banked score less the second seat's head start (what
    §7.3 checks); ``bad_roll`` is the kernel's own (§7.5, defensive)."""
    bonus = game.rules.second_player_bonus
    lead = game.lead
    return {"score": game.score, "turn_total": [game.turn_total], "seat": [game.seat],
            "rolling": [int(game.rolling)], "winner": [game.winner], "turns": [game.turns], "plies": [game.plies],
            "start": [game.start_seat], "tally": [game.counts[field][s] for field in SEAT_FIELDS for s in (0, 1)],
            "lead": [lead.last, lead.changes, lead.current, lead.run_start],
            "held": [game.score[s] - (bonus if s != game.start_seat else 0) for s in (0, 1)]}
