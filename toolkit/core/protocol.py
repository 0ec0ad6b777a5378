"""A game's kernel protocol stepped from Python, one decision point at a time.

The kernels play whole games inside Numba (``core.driver.make_play_game``).  To look at a game
between its decision points (the conformance tests compare a kernel with its reference there;
search players and adapters to other frameworks need the same), :class:`KernelGame` holds one
game's state and streams and calls the kernel module's protocol functions (``docs/architecture.md``,
"The game protocol") on them.

>>> import toolkit
>>> from toolkit.games.valhalla import kernel
>>> game = KernelGame(kernel, toolkit.rules("valhalla"), ("random", "random"), seed=1, game=0)
>>> seat = game.advance()
>>> seat in (0, 1), game.kind(), len(game.options()) >= 1
(True, 1, True)
>>> game.apply(game.options()[game.choose()])
"""

from __future__ import annotations

import numpy as np

from toolkit.core import mcts, rng
from toolkit.core.layout import seat_count

PROTOCOL = ("start", "advance", "kind", "count", "nth", "options", "apply", "choose", "evaluate", "determinize",
            "check_step", "check_end", "returns", "record", "STATE_SIZE", "MAX_OPTIONS", "SCRATCH_SIZE", "RS_SIZE")


def play_out(game):
    """A reference game (the protocol's Python side: ``start``, ``advance``, ``choose``, ``apply``) played to
    its end by its seats' players; returns the game."""
    game.start()
    while (decision := game.advance()) is not None:
        game.apply(decision, game.choose(decision))
    return game


def implements_protocol(kernel) -> bool:
    """Whether the kernel module defines every name of the protocol."""
    return all(hasattr(kernel, name) for name in PROTOCOL)


class KernelGame:
    """Game ``game`` of a run seeded ``seed`` in ``kernel`` (a game's kernel module), stepped by hand.

    ``advance()`` runs to the next decision point and returns the seat to decide (-1 at the end);
    ``kind()``, ``options()`` describe it; ``choose()`` is the index the seat's policy picks (random:
    one ``below(n)`` from the seat's decision stream, as the driver); ``apply(code)`` plays an option.
    ``st`` (the state) and ``rs`` (the streams: 0 chance, ``1 + seat`` decisions) are open to look at.

    ``advance`` and ``apply`` go through the kernel's compiled calls of them (``advance_called``,
    ``apply_called``: ``core.driver.make_calls``), which the driver's copies compile anyway; the
    kernel's own are inlined functions, which Numba would compile once more, standalone, when called
    from Python (up to a minute of a cold start per game).
    """

    def __init__(self, kernel, rules, policies, seed: int, game: int):
        if not implements_protocol(kernel):
            missing = [name for name in PROTOCOL if not hasattr(kernel, name)]
            raise ValueError(f"kernel {kernel.__name__} does not implement the protocol: no {', '.join(missing)}")
        self.kernel = kernel
        self.params = kernel.to_kernel(rules)
        self.seats = len(tuple(policies))  # the game's seats under these rules
        self.policies = mcts.policy_codes(kernel, policies)
        self.rs = np.zeros(kernel.RS_SIZE, np.uint64)
        rng.seed_streams(self.rs, seed, game)
        self.st = np.zeros(kernel.STATE_SIZE, np.int64)
        self.scratch = np.zeros(max(kernel.SCRATCH_SIZE, 1), np.int64)
        self._out = np.zeros(kernel.MAX_OPTIONS, np.int64)
        self.seat = -1
        kernel.start(self.params, self.st, self.rs)

    def advance(self) -> int:
        self.seat = int(self.kernel.advance_called(self.params, self.st, self.rs))
        return self.seat

    def kind(self) -> int:
        return int(self.kernel.kind(self.params, self.st))

    def options(self) -> list:
        n = self.kernel.options(self.params, self.st, self._out)
        return [int(code) for code in self._out[:n]]

    def choose(self) -> int:
        """The index of the option the deciding seat's policy picks (the driver's rule)."""
        opts = self._out
        n = self.kernel.options(self.params, self.st, opts)
        if n == 1:
            return 0
        policy = self.policies[self.seat]
        if policy == 0:
            return int(rng.below(self.rs, 1 + self.seat, n))
        if policy < 0:  # a search (core.mcts.code)
            c, depth_shift, rollout_shift = -int(policy), self.kernel.mcts.depth_shift, self.kernel.mcts.rollout_shift
            return self.search(c & ((1 << depth_shift) - 1), depth=(c >> depth_shift) & ((1 << depth_shift) - 1),
                               rollout=c >> rollout_shift)
        return int(self.kernel.choose(self.params, policy, self.st, self.rs, self.seat, opts, n, self.scratch))

    def search(self, iterations: int, exploration: float | None = None, depth: int = 0, rollout: int = 0,
               uct: bool = False, mode: int = 0) -> int:
        """The index of the option the tree search (``core.mcts``) of ``iterations`` iterations (rollouts cut
        off after ``depth`` plies, 0: none; played by the game's policy of code ``rollout``, 0: random;
        ``uct``: plain UCT, ``mcts:...:uct``; ``mode``: the bit of a name's mode, :func:`toolkit.core.mcts.parse`)
        picks for the deciding seat, drawing from its decision stream as the driver's ``mcts:N:D`` does."""
        kernel = self.kernel
        tree = np.zeros(mcts.entries(kernel, iterations), np.int64)
        c = kernel.mcts.exploration if exploration is None else exploration
        rollout |= (mcts.UCT if uct else 0) | mode
        return int(kernel.mcts(self.params, self.st, self.rs, self.seat, iterations, c, depth, rollout, tree))

    def root_statistics(self, policy: str = f"{mcts.NAME}:1000:0", twin: bool = False) -> mcts.RootStatistics:
        """What the search ``policy`` (``mcts[:N[:D]][:greedy|:random][:uct|:flat]``, the game's defaults where the
        name does not say) thinks of each option here, for the deciding seat (:class:`toolkit.core.mcts.
        RootStatistics`): the search the seat would run if it played ``policy``, from its decision stream as it
        stands.  It runs on a copy, so the game's streams are left as they were.  ``twin`` runs the Python
        twin of the search (``core.mcts_python``) instead of the kernel's: the same numbers, a thousand times
        slower (the check that they are the kernel's)."""
        if self.seat < 0:
            raise ValueError("root_statistics needs a decision point: advance() returned the end of the game")
        parsed = mcts.parse(policy, **mcts.game_defaults(self.kernel))
        if parsed is None:
            raise ValueError(f"policy={policy!r} is not allowed: a tree search, {mcts.ALLOWED}")
        iterations, depth, rollout, mode = parsed
        code = int(mcts.policy_codes(self.kernel, (policy,) * self.seats)[0])
        rollout_code = -code >> self.kernel.mcts.rollout_shift  # the game's rollout policy, with the UCT bit
        game = self.copy()
        if twin:
            from toolkit.core import mcts_python

            codes, visits, wins, choice, every = mcts_python.root_statistics(game, iterations, cutoff=depth,
                                                                             rollout=rollout_code)
        else:
            kernel = self.kernel
            tree = np.zeros(mcts.entries(kernel, iterations), np.int64)
            choice = int(kernel.mcts(game.params, game.st, game.rs, game.seat, iterations, kernel.mcts.exploration,
                                     depth, rollout_code, tree))
            codes, visits, wins, every = mcts.root_statistics(kernel, tree, iterations, game.params, game.st,
                                                              game.seat)
        return mcts.RootStatistics(policy, self.seat, tuple(codes), tuple(visits), tuple(wins), choice, tuple(every),
                                   depth)

    def apply(self, code: int) -> None:
        self.kernel.apply_called(self.params, self.st, self.rs, code)

    def evaluate(self, seat: int):
        """The game's heuristic value of this position for ``seat`` (higher is better for it)."""
        return self.kernel.evaluate(self.params, self.st, seat)

    def determinize(self, seat: int) -> np.ndarray:
        """A full state consistent with what ``seat`` knows here, drawn from its decision stream (which
        this advances, as a policy's determinization does); the game's own state is left as it was."""
        world = np.zeros(self.kernel.STATE_SIZE, np.int64)
        self.kernel.determinize(self.params, self.st, self.rs, seat, world, self.scratch)
        return world

    def copy(self) -> "KernelGame":
        """An independent copy: state, streams and scratch (what a search or a test branches from)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        for name in ("st", "rs", "scratch", "_out"):
            setattr(twin, name, getattr(self, name).copy())
        return twin

    def returns(self) -> list:
        """Each seat's result at the end: 1 among the winners (a shared win for each tied seat), else 0."""
        out = np.zeros(len(self.kernel.COLUMNS), np.float64)
        self.kernel.returns(self.params, self.st, out, np.zeros(len(self.kernel.COLUMNS), np.int32))
        seats = seat_count(self.kernel.COLUMNS)
        return out[:seats].tolist()

    def record(self) -> np.ndarray:
        row = np.zeros(len(self.kernel.COLUMNS), np.int32)
        self.kernel.record(self.params, self.st, row)
        return row


def first_decision(game: str, rules=None, seed: int = 7, game_index: int = 0, policies=None):
    """``(game, decision)``: the pure-Python reference's game ``game_index`` of ``seed`` under ``rules``
    (default: the standard ones), started and advanced to its first decision point.  The set-up of the
    examples of a game's ``view`` and ``viz`` (``view.position(*first_decision("halali"))``).

    >>> game, decision = first_decision("pig", seed=1)
    >>> decision.seat, len(decision.options)
    (0, 2)
    """
    import importlib

    from toolkit.core.registry import GAMES

    spec = GAMES[game]
    rules = spec.Rules() if rules is None else rules
    reference = importlib.import_module(spec.reference)
    played = reference.new_game(rules, seed, game_index, *(() if policies is None else (policies,)))
    played.start()
    return played, played.advance()
