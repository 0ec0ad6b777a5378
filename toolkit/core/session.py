"""One seeded game stepped decision by decision, in words and pictures, by policies or by a person (issue 38).

A :class:`Session` plays one game in both implementations at once, in lock step (as the conformance test
``tests/conformance/test_protocol.py`` does): the kernel (:class:`~toolkit.core.protocol.KernelGame`) makes
the policies' choices, exactly as ``simulate``'s driver makes them, and runs the tree search that rates the
options; the reference (the game's readable ``reference.py``) says each option in words and gives the position
a picture shows, through the game's ``view`` module (``describe``, ``position``, ``DECISIONS``) and its
``draw`` hook.  Both draw chance from the same stream in the same order, so they hold the same game; a session
checks it at every decision point and stops with an error if they ever part.

So the game a session plays with policies only is game ``game_index`` of ``simulate(game, rules, n, seed=seed,
policies=policies)``, decision for decision; a seat in ``humans`` waits for :meth:`Session.play` instead (a
person's click, or a script), and the other seats' choices and every throw and card are those of the same
seeded game as far as the person's choices leave them.

>>> import toolkit
>>> from toolkit.core.session import Session
>>> session = Session(toolkit.GAMES["pig"], toolkit.rules("pig"), ("greedy", "random"), seed=1, humans=(0,))
>>> step = session.step
>>> step.seat, step.kind_name, step.options
(0, 'roll or hold', ('roll again (6 at stake)', 'hold: bank 6 points'))
>>> session.play(0)  # seat 0 (the person) rolls again; seat 1's turns are played up to seat 0's next decision
>>> session.step.seat
0
"""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np

from toolkit.core import mcts
from toolkit.core.protocol import KernelGame

YOU = "you"  # who chose, in a step of a seat a person plays


@dataclasses.dataclass(frozen=True)
class Step:
    """One decision point of a session (or, with ``seat`` -1, the end of the game).

    ``index`` counts the decision points from 0; ``seat`` decides a decision of kind ``kind`` (the spec's DP
    number), named ``kind_name``; ``options`` are its options in words and ``codes`` the kernel's codes, both
    in the spec's canonical order; ``chosen`` is the index played (None until it is), ``by`` who chose it (a
    policy's name, or :data:`YOU`); ``position`` is what ``draw`` shows (the game's ``view.position``)."""

    index: int
    seat: int
    kind: int
    kind_name: str
    options: tuple
    codes: tuple
    position: object
    chosen: int | None = None
    by: str | None = None
    # the kernel's game at this decision point (a copy): what the search rates the options on
    kernel: object = dataclasses.field(default=None, compare=False, repr=False)

    def root_statistics(self, policy: str = "mcts:1000:0:flat"):
        """What the search ``policy`` thinks of each option of this step, for its deciding seat (the
        kernel's numbers, :meth:`toolkit.core.protocol.KernelGame.root_statistics`)."""
        if self.seat < 0:
            raise ValueError("the end of the game has no options to rate")
        return self.kernel.root_statistics(policy)

    @property
    def forced(self) -> bool:
        """Whether the decision had a single option."""
        return len(self.options) == 1


class Session:
    """Game ``game_index`` of a run seeded ``seed`` of the game ``spec`` (a ``GameSpec``) under ``rules``,
    its seats played by ``policies`` (one name a seat, or one for all) except those in ``humans``, which
    wait for :meth:`play`.  Policy seats play on at once and after each :meth:`play`, up to the next decision
    of a seat in ``humans`` or the end: :attr:`step` is always a person's decision or the end.

    :attr:`history` holds every decision point played (each with its choice), :attr:`step` the current one.
    """

    def __init__(self, spec, rules, policies=None, seed: int = 0, game_index: int = 0, humans=()):
        self.spec, self.rules, self.seed, self.game_index = spec, rules, int(seed), int(game_index)
        seats = spec.seats(rules)
        self.humans = frozenset(int(s) for s in humans)
        if not self.humans <= set(range(seats)):
            raise ValueError(f"humans={sorted(self.humans)} is not allowed: seats 0..{seats - 1} of {spec.name}")
        if policies is None:
            policies = spec.default_policies(rules)
        self.policies = spec.check_policies(policies, rules)
        self.view = spec.view_module()
        self.reference = importlib.import_module(spec.reference)
        # the kernel makes every policy's choice; the reference's own players are never asked
        self._kernel = KernelGame(spec.kernel, rules, self.policies, self.seed, self.game_index)
        self._game = self.reference.new_game(rules, self.seed, self.game_index, ("random",) * seats)
        self._game.start()
        self.history: list[Step] = []
        self._decision = None
        self._next()
        self.play_policies()

    # ------------------------------------------------------------------ the current decision

    @property
    def over(self) -> bool:
        return self._decision is None

    @property
    def seat(self) -> int:
        """The seat to decide (-1 at the end)."""
        return -1 if self._decision is None else self._decision.seat

    @property
    def step(self) -> Step:
        """The current decision point (``seat`` -1 at the end of the game)."""
        return self._step

    def policy_choice(self) -> int:
        """The index the deciding seat's policy picks here, as ``simulate``'s driver picks it (it draws from
        the seat's decision stream, as the driver does)."""
        self._check_open()
        return self._kernel.choose()

    def root_statistics(self, policy: str = "mcts:1000:0:flat"):
        """What the tree search ``policy`` thinks of each option here, for the deciding seat
        (:meth:`toolkit.core.protocol.KernelGame.root_statistics`; the game's streams are left alone)."""
        self._check_open()
        return self._kernel.root_statistics(policy)

    # ------------------------------------------------------------------ playing

    def play(self, index: int, by: str = YOU) -> None:
        """Play option ``index`` (of :attr:`step`'s options) for the deciding seat, then the policy seats up
        to the next decision of a seat in ``humans`` (or the end)."""
        self._apply(index, by)
        self.play_policies()

    def play_policies(self) -> None:
        """Play the policy seats' decisions up to the next decision of a seat in ``humans``, or the end."""
        while not self.over and self.seat not in self.humans:
            self._apply(self._kernel.choose(), self.policies[self.seat])

    def row(self) -> dict:
        """The §6 record of the finished game (the reference's row, in the kernel's columns)."""
        if not self.over:
            raise ValueError("row() needs a finished game: play on to its end first")
        row = self._game.row()
        return {c: int(row[c]) for c in self.spec.columns}

    # ------------------------------------------------------------------ lock step

    def _check_open(self) -> None:
        if self.over:
            raise ValueError("the game is over: no decision to make")

    def _apply(self, index: int, by: str) -> None:
        self._check_open()
        step = self._step
        if not 0 <= int(index) < len(step.codes):
            raise ValueError(f"option={index!r} is not allowed: an index in 0..{len(step.codes) - 1} of "
                             f"{list(step.options)}")
        index = int(index)
        self.history.append(dataclasses.replace(step, chosen=index, by=by))
        self._game.apply(self._decision, self._decision.options[index])
        self._kernel.apply(step.codes[index])
        self._next()

    def _next(self) -> None:
        """Advance both games to the next decision point and make it :attr:`step`."""
        decision, seat = self._game.advance(), self._kernel.advance()
        if self._game.chance.state != int(self._kernel.rs[0]) or (decision is None) != (seat < 0):
            raise RuntimeError(f"{self.spec.name}: the reference and the kernel parted at decision "
                               f"{len(self.history)} (seed {self.seed}, game {self.game_index}): a bug, please "
                               "report it with these numbers")
        self._decision = decision
        index = len(self.history)
        if decision is None:
            self._step = Step(index, -1, 0, "end of the game", (), (), self.view.position(self._game, None))
            return
        codes = tuple(self.reference.option_code(decision, option) for option in decision.options)
        if list(codes) != self._kernel.options() or seat != decision.seat:
            raise RuntimeError(f"{self.spec.name}: the reference and the kernel offer other options at decision "
                               f"{index} (seed {self.seed}, game {self.game_index}): a bug, please report it")
        words = tuple(self.view.describe(self._game, decision, option) for option in decision.options)
        self._step = Step(index, decision.seat, decision.kind, self.view.DECISIONS[decision.kind], words, codes,
                          self.view.position(self._game, decision), kernel=self._kernel.copy())


@dataclasses.dataclass(frozen=True)
class Playthrough:
    """One seeded game played by ``policies``, recorded: ``steps``, every decision point with its choice and
    last the end (what a viewer steps through), and ``row``, its §6 record, which is row ``game_index`` of
    ``simulate(game, rules, n, seed=seed, policies=policies)``."""

    spec: object
    rules: object
    policies: tuple
    seed: int
    game_index: int
    steps: tuple
    row: dict

    def swings(self, judge: str = "mcts:200:0:flat", top: int = 5) -> list[tuple[int, float, float]]:
        """The decisions where the eventual winner's estimated win probability moved most: ``(step index,
        estimate before, estimate after)`` for the ``top`` largest moves, largest first; empty for a game
        without a single winner.

        At each decision with more than one option the search ``judge`` rates the options; the winner's
        estimate after it is its estimated win probability after the option chosen (the search keeps every
        seat's rewards), before it the estimate after the previous such decision (before the first, the
        fair share, 1 / seats).  A ``judge`` cut off after D > 0 plies moves in the game's heuristic score,
        not in win probability: the fair share before the first decision is then not its unit, so it is
        refused."""
        if mcts.depth_of(self.spec.kernel, judge) != 0:
            raise ValueError(f"judge={judge!r} is not allowed here: its rollouts are cut off, so its values are "
                             f"scores, not win probabilities; play them to the end ({judge.split(':')[0]}:N:0)")
        winner = int(self.row["winner"])
        if winner < 0:
            return []
        moves, before = [], 1.0 / self.spec.seats(self.rules)
        for step in self.steps[:-1]:
            if len(step.codes) > 1:
                after = step.root_statistics(judge).estimate_for(winner, step.chosen)
                if not np.isnan(after):
                    moves.append((step.index, before, after))
                    before = after
        return sorted(moves, key=lambda m: -abs(m[2] - m[1]))[:top]


def playthrough(spec, rules, policies=None, seed: int = 0, game_index: int = 0) -> Playthrough:
    """Game ``game_index`` of a run seeded ``seed`` played by ``policies`` (default: the game's), recorded
    (:class:`Playthrough`)."""
    session = Session(spec, rules, policies, seed, game_index)
    return Playthrough(spec, rules, session.policies, session.seed, session.game_index,
                       (*session.history, session.step), session.row())
