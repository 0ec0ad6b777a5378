"""Counter-based per-game random streams (docs/architecture.md, decision 2).

Game ``g`` of a run with seed ``s`` owns independent streams:

- stream 0, the **chance stream**: throws, shuffles, deals, the start player;
- stream ``1 + seat``, the **decision stream** of that seat's policy.

Each stream is a SplitMix64 generator (Steele, Lea & Flood 2014) whose 64-bit
state is derived from ``(s, g, stream)`` by chaining the SplitMix64 finaliser.
A stream's draws depend on nothing but those three numbers, so results are the
same for any thread count, chunking or Dask layout, running more games never
changes the first ones, and two policies compared on the same seed face the
same throws (common random numbers).

The functions come in two forms with identical arithmetic:

- ``njit`` functions on a ``uint64`` state array ``state[stream]`` for kernels;
- :class:`Stream`, a plain Python object for reference implementations.

Draw primitives (both forms):

``next_u64``   the next raw 64-bit output;
``uniform``    a float in [0, 1) with 53 random bits: ``(x >> 11) * 2**-53``;
``below(n)``   an int in [0, n): ``((x >> 32) * n) >> 32`` (multiply-shift;
               the bias is below n / 2**32, far under any statistical test).
"""

from __future__ import annotations

import numpy as np

from toolkit.core.jit import njit, njit_inline

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_SALT_SEED = 0x243F6A8885A308D3  # digits of pi: keep seed 0 away from state 0
_SALT_GAME = 0x13198A2E03707344
_SALT_STREAM = 0xA4093822299F31D0

CHANCE = 0  # stream index of the chance stream; seat k decides from stream 1 + k

_U_GOLDEN = np.uint64(GOLDEN)
_U_M1 = np.uint64(_M1)
_U_M2 = np.uint64(_M2)
_U_SALT_SEED = np.uint64(_SALT_SEED)
_U_SALT_GAME = np.uint64(_SALT_GAME)
_U_SALT_STREAM = np.uint64(_SALT_STREAM)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U11 = np.uint64(11)
_U32 = np.uint64(32)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


# ---------------------------------------------------------------- pure Python


def mix64(z: int) -> int:
    """SplitMix64 finaliser on a Python int (taken modulo 2**64)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def stream_state(seed: int, game: int, stream: int) -> int:
    """Initial state of ``stream`` of game ``game`` in a run seeded ``seed``."""
    h = mix64(seed + _SALT_SEED)
    h = mix64(h + game + _SALT_GAME)
    return mix64(h + stream + _SALT_STREAM)


class Stream:
    """One random stream for pure-Python code (same draws as the njit form).

    Examples
    --------
    >>> s = Stream(seed=1, game=0, stream=CHANCE)
    >>> 0 <= s.below(6) < 6
    True
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, game: int = 0, stream: int = CHANCE, *, state: int | None = None):
        self.state = stream_state(seed, game, stream) if state is None else state & MASK64

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def uniform(self) -> float:
        return (self.next_u64() >> 11) * _INV53

    def below(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def shuffle(self, items: list) -> list:
        """Shuffle ``items`` in place (and return it): Fisher-Yates, ``for i = n-1 .. 1: j = below(i + 1)``,
        swap ``i`` and ``j``; the same permutation as :func:`shuffle` on the same stream state.

        >>> Stream(3).shuffle(list(range(6)))
        [2, 1, 0, 4, 3, 5]
        """
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


# ---------------------------------------------------------------- njit


@njit_inline
def mix64_nb(z):
    z = (z ^ (z >> _U30)) * _U_M1
    z = (z ^ (z >> _U27)) * _U_M2
    return z ^ (z >> _U31)


@njit
def seed_streams(state, seed, game):
    """Fill ``state[k]`` with the initial state of stream ``k`` of ``game``."""
    h = mix64_nb(np.uint64(seed) + _U_SALT_SEED)
    h = mix64_nb(h + np.uint64(game) + _U_SALT_GAME)
    for k in range(state.shape[0]):
        state[k] = mix64_nb(h + np.uint64(k) + _U_SALT_STREAM)


@njit_inline
def next_u64(state, k):
    state[k] = state[k] + _U_GOLDEN
    return mix64_nb(state[k])


@njit_inline
def uniform(state, k):
    return float(next_u64(state, k) >> _U11) * _INV53


@njit_inline
def below(state, k, n):
    return np.int64(((next_u64(state, k) >> _U32) * np.uint64(n)) >> _U32)


@njit_inline
def best_of(state, k, value, top, ties, first):
    """One step of a search for the best option with ties broken uniformly (reservoir sampling).

    ``value`` is the option's value, ``top`` the best so far and ``ties`` how many options share it;
    ``first`` says this is the first option.  Returns (take this option, the new tie count).  A tie
    draws ``below(ties)`` from stream ``k`` and takes the option on 0, so each of the tied options is
    kept with the same chance, with one draw per tie and none otherwise; the references draw the same.
    The caller keeps ``top = value`` when it takes a better option."""
    if first or value > top:
        return True, 1
    if value == top:
        ties += 1
        return below(state, k, ties) == 0, ties
    return False, ties


@njit_inline
def shuffle(a, lo, n, state, k):
    """Shuffle ``a[lo:lo + n]`` in place with stream ``k``: the permutation of ``Stream.shuffle``."""
    for i in range(n - 1, 0, -1):
        j = below(state, k, i + 1)
        t = a[lo + i]
        a[lo + i] = a[lo + j]
        a[lo + j] = t


def streams_for(seed: int, game: int, n_streams: int) -> np.ndarray:
    """The initial states of a game's streams, as the kernels see them."""
    return np.array([stream_state(seed, game, k) for k in range(n_streams)], dtype=np.uint64)
