"""Helpers shared by the Pig tests (spec ``docs/rules/pig.md``): scripted dice for the reference and for the
kernel, scripted players, and :class:`Twin`, one hand-built position played in both in lockstep.

Scripted dice in the kernel: its chance stream is a SplitMix64 state (``toolkit.core.rng``), so
:func:`chance_state` searches (deterministically) for a state whose next draws are the scripted ones, checked
with the plain-Python :class:`~toolkit.core.rng.Stream`, which has the same arithmetic.  §5 fixes the draws: the
start player is one ``below(2)``, every roll one ``below(die_sides)`` + 1.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.protocol import KernelGame
from toolkit.core.rng import Stream, mix64
from toolkit.games.pig import kernel as K
from toolkit.games.pig.reference import Game, option_code, record_row


class ScriptedChance:
    """A stub chance stream for the reference: ``below(n)`` hands out the scripted draws ``(n, value)`` in
    order and fails the test on a draw of another ``n`` or past the script."""

    def __init__(self, draws=()):
        self.draws = list(draws)
        self.asked = []  # the n of every draw made

    def start(self, seat: int) -> None:
        self.draws.append((2, seat))

    def roll(self, sides: int, *faces) -> None:
        for face in faces:
            assert 1 <= face <= sides, face
            self.draws.append((sides, face - 1))

    def below(self, n: int) -> int:
        self.asked.append(n)
        assert self.draws, f"below({n}) drawn past the script: the game rolled more than scripted"
        want, value = self.draws.pop(0)
        assert n == want, f"below({n}) drawn where the script has below({want})"
        return value


class Scripted:
    """A player that answers DP-1 from a list of options and logs every decision it is shown."""

    def __init__(self, *answers, log=None):
        self.answers = list(answers)
        self.log = [] if log is None else log

    def choose(self, game, decision):
        self.log.append((decision.seat, decision.turn_total, tuple(decision.options)))
        assert self.answers, f"a decision presented past the script: {decision}"
        return self.answers.pop(0)


def chance_state(draws) -> int:
    """A chance-stream state whose next draws are ``draws`` (a list of ``(n, value)``), the first one found
    among ``mix64(0), mix64(1), ...`` (deterministic).  Keep scripts short: about ``prod(n)`` tries."""
    ns = [n for n, _ in draws]
    want = [v for _, v in draws]
    assert np.prod(ns, dtype=float) <= 200_000, f"script {draws} too long to find: roll fewer dice at a time"
    for i in range(4_000_000):
        state = mix64(i + 0x5EED)
        stream = Stream(state=state)
        if all(stream.below(n) == v for n, v in zip(ns, want)):
            return state
    raise AssertionError(f"no chance state found for {draws}")  # pragma: no cover


# ---------------------------------------------------------------- the two games' states, side by side


def reference_view(game: Game) -> dict:
    """The spec-visible state of a reference game (§2, §6)."""
    return {"score": tuple(game.score), "turn_total": game.turn_total, "seat": game.seat, "winner": game.winner,
            "turns": game.turns, "plies": game.plies, "start_seat": game.start_seat,
            **{field: tuple(game.counts[field]) for field in ("rolls", "busts", "holds")}}


def kernel_view(st) -> dict:
    """The same from a kernel state array (``kernel.STATE``)."""
    pair = lambda at: (int(st[at]), int(st[at + 1]))  # noqa: E731
    return {"score": pair(K.S_SCORE), "turn_total": int(st[K.S_TOTAL]), "seat": int(st[K.S_SEAT]),
            "winner": int(st[K.S_WINNER]), "turns": int(st[K.S_TURNS]), "plies": int(st[K.S_PLIES]),
            "start_seat": int(st[K.S_START]), "rolls": pair(K.T_ROLLS), "busts": pair(K.T_BUSTS),
            "holds": pair(K.T_HOLDS)}


def set_kernel_turn_start(st, score, seat: int) -> None:
    """A hand-built kernel position: the first roll of ``seat``'s turn is due, banked ``score``, nothing
    counted yet (turns 1: this turn)."""
    st[K.S_SCORE], st[K.S_SCORE + 1] = score
    st[K.S_TOTAL], st[K.S_SEAT], st[K.S_ROLLING], st[K.S_WINNER] = 0, seat, 1, -1
    st[K.S_TURNS], st[K.S_PLIES], st[K.S_START], st[K.S_BAD_ROLL] = 1, 0, seat, 0
    for k in range(2 * 3):
        st[K.S_TALLY + k] = 0
    # the points each seat's holds banked: all of its score (no head start in a hand-built position), as
    # check_step's §7.3 reads them
    st[K.S_HELD], st[K.S_HELD + 1] = score


def kernel_game(rules, policies=("random", "random"), seed: int = 0, game: int = 0) -> KernelGame:
    return KernelGame(K, rules, policies, seed, game)


class Twin:
    """One position in the reference (on :class:`ScriptedChance`) and in the kernel (on a chance state found
    by :func:`chance_state`), stepped together: every step compares the two states, and the tests assert the
    spec's values on :meth:`view`.

    ``Twin(rules, score, seat)``: the start of ``seat``'s turn with banked ``score`` (hand-built);
    ``Twin.new_game(rules, start=s)``: the set-up P-1/P-2 played, ``start`` the start draw if random."""

    def __init__(self, rules, score=(0, 0), seat=0, *, _setup=False, start=None):
        self.rules = rules
        self.chance = ScriptedChance()
        self.ref = Game(rules, None, self.chance)
        self.kg = kernel_game(rules)
        self.decision = None
        if _setup:
            if start is not None:
                self.chance.start(start)
            self._sync_dice()
            self.ref.start()
            K.start(self.kg.params, self.kg.st, self.kg.rs)
        else:
            self.ref.score, self.ref.seat, self.ref.start_seat, self.ref.turns = list(score), seat, seat, 1
            set_kernel_turn_start(self.kg.st, score, seat)
        self.view()

    @classmethod
    def new_game(cls, rules, start=None) -> "Twin":
        return cls(rules, _setup=True, start=start)

    def _sync_dice(self) -> None:
        self.kg.rs[0] = np.uint64(chance_state(self.chance.draws))

    def dice(self, *faces) -> "Twin":
        """Script the next rolls (appended to those not rolled yet)."""
        self.chance.roll(self.rules.die_sides, *faces)
        self._sync_dice()
        return self

    def advance(self) -> int:
        """Roll up to the next DP-1 in both: the seat to decide, -1 at the end."""
        self.decision = self.ref.advance()
        seat = self.kg.advance()
        assert seat == (-1 if self.decision is None else self.decision.seat)
        self.view()
        return seat

    def apply(self, option: str) -> dict:
        """``option`` ("roll" / "hold") at the current DP-1 in both; the state after it."""
        self.ref.apply(self.decision, option)
        self.kg.apply(option_code(self.decision, option))
        return self.view()

    def view(self) -> dict:
        """The reference's state, after checking the kernel's is the same."""
        ref, ker = reference_view(self.ref), kernel_view(self.kg.st)
        assert ref == ker, f"reference {ref} != kernel {ker}"
        assert self.kg.st[K.S_BAD_ROLL] == 0
        return ref

    def row(self) -> dict:
        """The §6 record, after checking the kernel's is the same."""
        ref = record_row(self.ref)
        ker = dict(zip(K.COLUMNS, (int(v) for v in self.kg.record())))
        assert ref == ker, f"reference {ref} != kernel {ker}"
        return ref

    @property
    def unrolled(self) -> int:
        """Scripted draws not made yet."""
        return len(self.chance.draws)
