"""Replaying a run's deals, for the simulated odds shown beside the exact ones (``GameSpec.simulated_odds``).

The exact odds of most games are about the deal or set-up (a hand, the tiles
laid out), which a run's records do not hold.  But game ``g`` of a run seeded
``s`` draws its set-up from the chance stream ``Stream(s, g, CHANCE)`` alone,
and each game's pure-Python reference set-up draws from it exactly as the
kernel does (the equality tests check it game for game).  So running the
reference set-up on that stream gives the very deal the run's game ``g`` was
played from, without the kernel and without playing the game on.

Each game's ``odds.samples(frame, rules, policies)`` collects, per row of its
``summary``, one value per replayed deal that shows the quantity (an
indicator for a probability, the measured number for a mean), and
``odds.simulated`` is :func:`sample_means` of them.

A game's ``odds.deals`` replays them one at a time through the reference
(its states, for the tests to compare with ``play_game``).  Its
``odds.samples`` replays all of them at once: :class:`Streams` draws every
game's chance stream as a column of NumPy arrays, with the reference's
arithmetic and in the reference set-up's order, so the same cards come out
(each ``samples`` docstring checks it against ``deals``).  A dashboard
redraw replays the deals of a rule setting it has not seen (issue 52): the
reference took 0.2-0.4 s of the 1 s budget for a run's 4,000-10,000 deals,
the arrays take 5-20 ms (``benchmarks/redraw.py``).
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng

SAMPLE_DEALS = 10_000  # deals replayed per run (a game whose set-up is slower replays fewer, see its odds.py)


def replayed_games(frame, rules, policies=None, limit: int = SAMPLE_DEALS) -> tuple[int, np.ndarray]:
    """``(seed, game indices)`` of the first ``min(len(frame), limit)`` rows of a run's frame.

    The deals are the run's only if they are replayed under the run's rules
    (another deck deals other cards) and, where a policy's choice is replayed,
    its policies, so a frame that records them (``attrs["rules"]``,
    ``attrs["policies"]``) must agree with ``rules`` and ``policies``.

    Raises
    ------
    ValueError
        If the frame's recorded rules or policies are not ``rules`` and ``policies``.

    Examples
    --------
    >>> import pandas as pd
    >>> from toolkit.games.attila.rules import Rules
    >>> frame = pd.DataFrame({"game_index": [7, 8, 9]})
    >>> frame.attrs["seed"] = 5
    >>> replayed_games(frame, Rules(), limit=2)
    (5, array([7, 8]))
    """
    recorded = frame.attrs.get("rules")
    if recorded is not None and type(rules).from_json(recorded) != rules:
        raise ValueError("rules is not allowed: the frame's games were played under other rules "
                         f"({recorded}), so replaying these would not give the run's deals")
    recorded = frame.attrs.get("policies")
    if recorded is not None and policies is not None and list(policies) != list(recorded):
        raise ValueError(f"policies={','.join(policies)!r} is not allowed: the frame's games were played by "
                         f"{','.join(recorded)}")
    return int(frame.attrs["seed"]), frame["game_index"].to_numpy()[:limit]


def sample_means(samples: dict, quantities) -> dict[str, float]:
    """The mean of each non-empty sample whose name is one of ``quantities`` (a ``summary``'s rows).

    Rows a game's ``summary`` leaves out for these rules (a zero probability,
    a peninsula label that does not apply) are dropped here, so the keys are
    exactly the summary's strings.

    Examples
    --------
    >>> sample_means({"P(a)": [1, 0, 0, 1], "P(b)": [], "mean c": [2, 4]}, ["P(a)", "P(b)"])
    {'P(a)': 0.5}
    """
    wanted = set(quantities)
    return {q: float(np.mean(v)) for q, v in samples.items() if q in wanted and len(v) > 0}


def games_frame(games: int, seed: int):
    """A run's frame as far as a replay reads it: ``game_index`` 0..games-1 and its ``seed`` (a doctest's
    stand-in for a run, ``samples`` against ``deals``)."""
    import pandas as pd

    frame = pd.DataFrame({"game_index": range(games)})
    frame.attrs["seed"] = seed
    return frame


class Streams:
    """One random stream of each of many games, drawn together: the draws of :class:`toolkit.core.rng.Stream`,
    game for game, as ``int64`` or ``uint64`` arrays with one entry per game.

    The arithmetic is :mod:`toolkit.core.rng`'s SplitMix64 on ``uint64`` arrays (NumPy wraps their sums
    and products modulo 2**64, as the Python form masks them).  Every call draws once from every game's
    stream (or, with ``where``, from the games it selects), so code that draws in the reference's order
    replays the reference's deals without a Python loop over the games.

    Examples
    --------
    >>> from toolkit.core.rng import CHANCE, Stream
    >>> chance = Streams(seed=3, games=[0, 5, 9])
    >>> chance.below(6).tolist() == [Stream(3, g, CHANCE).below(6) for g in (0, 5, 9)]
    True
    >>> decks = Streams(seed=3, games=[0, 5, 9]).shuffle(np.tile(np.arange(6), (3, 1)))
    >>> decks.tolist() == [Stream(3, g, CHANCE).shuffle(list(range(6))) for g in (0, 5, 9)]
    True
    """

    def __init__(self, seed: int, games, stream: int = rng.CHANCE):
        games = np.asarray(games, dtype=np.int64)
        if games.size and games.min() < 0:
            raise ValueError("games is not allowed: game indices are >= 0")
        # rng.stream_state, the first link per run, the other two per game
        run = np.uint64(rng.mix64(seed + rng._SALT_SEED))
        game = _mix64(run + games.astype(np.uint64) + rng._U_SALT_GAME)
        self.state = _mix64(game + np.uint64(stream) + rng._U_SALT_STREAM)

    def __len__(self) -> int:
        return self.state.size

    def next_u64(self, where=None) -> np.ndarray:
        """The next raw 64-bit output of every stream (of those ``where`` is true for; the others do not
        move and their entries are meaningless)."""
        if where is None:
            self.state += rng._U_GOLDEN
        else:
            self.state += np.where(where, rng._U_GOLDEN, np.uint64(0))
        return _mix64(self.state)

    def below(self, n, where=None) -> np.ndarray:
        """An int in [0, n) from every stream: ``((x >> 32) * n) >> 32``, as :meth:`Stream.below`."""
        draw = (self.next_u64(where) >> np.uint64(32)) * np.asarray(n, dtype=np.uint64)
        return (draw >> np.uint64(32)).astype(np.int64)

    def shuffle(self, items: np.ndarray) -> np.ndarray:
        """Shuffle each row of ``items`` (one row per stream) in place, and return it: the permutation
        :meth:`Stream.shuffle` makes of that row (``for i = n-1 .. 1: j = below(i + 1)``, swap)."""
        rows = np.arange(items.shape[0])
        for i in range(items.shape[1] - 1, 0, -1):
            j = self.below(i + 1)
            held = items[rows, j]
            items[rows, j] = items[:, i]
            items[:, i] = held
        return items


def _mix64(z: np.ndarray) -> np.ndarray:
    """:func:`toolkit.core.rng.mix64` on a ``uint64`` array."""
    z = (z ^ (z >> np.uint64(30))) * rng._U_M1
    z = (z ^ (z >> np.uint64(27))) * rng._U_M2
    return z ^ (z >> np.uint64(31))
