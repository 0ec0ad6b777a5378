"""The runner: validate, split into chunks, run the parallel kernel, collect.

:func:`simulate` is the one entry point the API, the CLI, the notebooks and
the benchmarks share.  Game indices ``0 .. n_games - 1`` are cut into chunks;
each chunk runs the game's ``play_many`` driver (``numba.prange`` over the
chunk's games, on ``threads`` threads).  Because every game draws from its own
streams (``core/rng.py``), the result does not depend on the chunk size or
the thread count, and the first games of a longer run equal a shorter run.

``keep="games"`` returns one row per game.  ``keep="summary"`` folds each
chunk into a :class:`Summary` (counts, sums, histograms) and reuses the chunk
buffer, so memory stays flat however many games run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping

import numba
import numpy as np
import pandas as pd

from toolkit.core import results, stats
from toolkit.core.jit import njit

DEFAULT_CHUNK = 65_536  # big enough that the per-chunk fold and thread start-up stay under 2%
PROGRESS_DELAY_S = 2.0  # a bar appears only for runs longer than this


def _games():
    from toolkit.games import GAMES

    return GAMES


def get_spec(game):
    """A :class:`~toolkit.core.game.GameSpec` from its name (or itself)."""
    if not isinstance(game, str):
        return game
    games = _games()
    if game not in games:
        raise ValueError(f"game={game!r} is not allowed: one of {', '.join(games)}")
    return games[game]


def resolve_rules(spec, rules=None, preset=None, **overrides):
    """Rules from an instance, a preset name, a dict of overrides, or keyword overrides."""
    if isinstance(rules, Mapping):  # {"max_turns": 500}: overrides of the preset
        return spec.Rules.preset(preset or "standard", **dict(rules), **overrides)
    if rules is not None and (preset is not None or overrides):
        if overrides:
            return rules.replace(**overrides)
        raise ValueError("pass either rules= or preset=, not both")
    if rules is None:
        return spec.Rules.preset(preset or "standard", **overrides)
    if not isinstance(rules, spec.Rules):
        raise ValueError(f"rules={rules!r} is not allowed: a {spec.name} Rules instance "
                         f"(toolkit.rules({spec.name!r}, ...)) or a dict of parameter values")
    return rules


@contextlib.contextmanager
def numba_threads(threads: int | None):
    """Run with ``threads`` Numba threads (1..NUMBA_NUM_THREADS), then restore."""
    if threads is None:
        yield numba.get_num_threads()
        return
    top = numba.config.NUMBA_NUM_THREADS
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= top:
        raise ValueError(f"threads={threads!r} is not allowed: an integer in 1..{top}")
    before = numba.get_num_threads()
    numba.set_num_threads(int(threads))
    try:
        yield int(threads)
    finally:
        numba.set_num_threads(before)


@njit
def _fold_moments(chunk, sums, sums_sq):
    """Add the column sums and sums of squares of a chunk of records (one pass, no copies).

    The serial fold runs between parallel chunks, so it is kept small: the
    NumPy version (``astype``, square, two sums) cost 0.4 us a game, 7% of a
    two-thread Valhalla run."""
    for i in range(chunk.shape[0]):
        for j in range(chunk.shape[1]):
            x = float(chunk[i, j])
            sums[j] += x
            sums_sq[j] += x * x


# column pairs whose sum of products a Summary keeps (ratio estimates with intervals)
PRODUCTS = (("options", "decisions"),)


def _add_counts(total: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``total + counts`` for histograms of different lengths."""
    if counts.size > total.size:
        grown = np.zeros(counts.size, np.int64)
        grown[: total.size] = total
        total = grown
    total[: counts.size] += counts
    return total


class Summary:
    """Streaming totals of a run (``keep="summary"``): flat memory in the number of games.

    Holds, per result column, the count of games, the sum and the sum of
    squares (means with standard errors), and a histogram of every column in
    ``spec.histogram_columns``, every ``score_*`` column, ``winner`` and
    ``result``.  For the design metrics (``toolkit/analysis/metrics.py``) it
    also keeps:

    - ``position_wins``: wins by place in the turn order (0 = the seat that
      moved first, from ``spec.first_mover``; seats follow in seat order), so
      the first-player advantage is known without one row per game;
    - ``products``: the sum of ``a * b`` for each pair in :data:`PRODUCTS`
      (a ratio such as options per decision gets a delta-method interval);
    - ``decided``: over the games with a sole winner, their count and the sums
      (and sums of squares) of ``decisive_turn`` and ``decisive_turn / turns``.

    Two summaries of the same run settings merge (:meth:`merge`), and a
    summary travels between processes as plain arrays (:meth:`to_state`,
    :meth:`from_state`): the sweep's Dask backend uses both.  Every total is
    a sum of integers (exact in float64 below 2**53) except the
    ``decisive_turn / turns`` sums, which are merged in a fixed order.
    """

    def __init__(self, spec, attrs: dict, shown=None):
        self.spec = spec
        self.attrs = dict(attrs)
        self.columns = list(spec.columns)
        self.shown = list(spec.columns if shown is None else shown)  # the columns a frame would have
        self.n_games = 0
        self.sums = np.zeros(len(self.columns))
        self.sums_sq = np.zeros(len(self.columns))
        self.hist_columns = [c for c in self.columns
                             if c in spec.histogram_columns or c.startswith("score_") or c in ("winner", "result")]
        self.histograms = {c: np.zeros(0, np.int64) for c in self.hist_columns}
        self.seats = sum(1 for c in self.shown if c.startswith("win_") and c[4:].isdigit())
        self.position_wins = np.zeros(self.seats, np.int64)
        self.products = np.zeros(len(PRODUCTS))
        self.decided = np.zeros(5)  # games, sum and sum of squares of decisive_turn, of decisive_turn / turns
        self.violations = 0

    def _col(self, chunk, name):
        return chunk[:, self.columns.index(name)]

    def add(self, chunk: np.ndarray) -> None:
        self.n_games += chunk.shape[0]
        _fold_moments(chunk, self.sums, self.sums_sq)
        for c in self.hist_columns:
            col = chunk[:, self.columns.index(c)]
            if c == "winner":
                col = col + 1  # -1 (no winner) -> bin 0
            self.histograms[c] = _add_counts(self.histograms[c], np.bincount(col))
        if self.spec.first_mover is not None and self.seats:
            first = np.asarray(self.spec.first_mover(lambda name: self._col(chunk, name)), np.int64)
            for s in range(self.seats):
                won = self._col(chunk, f"win_{s}") == 1
                place = (s - first[won]) % self.seats
                self.position_wins += np.bincount(place, minlength=self.seats)
        for k, (a, b) in enumerate(PRODUCTS):
            if a in self.columns and b in self.columns:
                self.products[k] += float(np.dot(self._col(chunk, a).astype(np.float64),
                                                 self._col(chunk, b).astype(np.float64)))
        if "decisive_turn" in self.columns:
            sole = self._col(chunk, "winner") >= 0
            turn = self._col(chunk, "decisive_turn")[sole].astype(np.float64)
            share = turn / np.maximum(self._col(chunk, "turns")[sole], 1)
            self.decided += (float(sole.sum()), turn.sum(), (turn * turn).sum(), share.sum(), (share * share).sum())

    # -- merging and transport -------------------------------------------------

    def to_state(self) -> dict:
        """The totals as plain numbers and arrays (picklable without the game's compiled code)."""
        return {"game": self.spec.name, "attrs": self.attrs, "shown": self.shown, "n_games": self.n_games,
                "sums": self.sums, "sums_sq": self.sums_sq, "histograms": self.histograms,
                "position_wins": self.position_wins, "products": self.products, "decided": self.decided}

    @classmethod
    def from_state(cls, state: dict, spec=None) -> "Summary":
        spec = get_spec(state["game"]) if spec is None else spec
        out = cls(spec, state["attrs"], state["shown"])
        out.n_games = int(state["n_games"])
        for name in ("sums", "sums_sq", "position_wins", "products", "decided"):
            setattr(out, name, np.array(state[name], copy=True))
        out.histograms = {c: np.array(v, copy=True) for c, v in state["histograms"].items()}
        return out

    def merge(self, other: "Summary") -> "Summary":
        """Add the totals of ``other`` (more games of the same game, rules and policies); returns self."""
        if other.spec.name != self.spec.name or other.shown != self.shown:
            raise ValueError(f"cannot merge a {other.spec.name} summary into a {self.spec.name} one "
                             f"with other columns")
        self.n_games += other.n_games
        for name in ("sums", "sums_sq", "position_wins", "products", "decided"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for c in self.hist_columns:
            self.histograms[c] = _add_counts(self.histograms[c], other.histograms[c])
        return self

    def histogram(self, column: str) -> pd.Series:
        """Counts per value of ``column``."""
        counts = self.histograms[column]
        index = np.arange(counts.size) - (1 if column == "winner" else 0)
        return pd.Series(counts, index=pd.Index(index, name=column), name="games")

    def means(self) -> pd.DataFrame:
        """Mean and standard error of every result column."""
        rows = []
        for i, c in enumerate(self.columns):
            if c not in self.shown:
                continue
            mean, se = stats.mean_se_from_moments(self.n_games, self.sums[i], self.sums_sq[i])
            rows.append({"column": c, "mean": mean, "se": se})
        return pd.DataFrame(rows).set_index("column")

    def win_rates(self) -> pd.DataFrame:
        rows = []
        for s in range(self.seats):
            wins = int(round(self.sums[self.columns.index(f"win_{s}")]))
            rate, lo, hi = stats.wilson(wins, self.n_games)
            rows.append({"seat": s, "games": self.n_games, "wins": wins, "win_rate": rate,
                         "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)

    def length(self, column: str = "turns") -> dict:
        """Mean, standard error and quantiles of a histogrammed column."""
        mean, se = stats.mean_se_from_moments(
            self.n_games, self.sums[self.columns.index(column)], self.sums_sq[self.columns.index(column)])
        return {"mean": mean, "se": se, **stats.quantiles_from_histogram(self.histograms[column])}

    def __repr__(self):
        return f"<Summary {self.spec.name}: {self.n_games} games, policies {self.attrs.get('policies')}>"


def simulate(game, rules=None, n_games: int = 10_000, *, seed: int = 0, policies=None, preset=None,
             threads: int | None = None, keep: str = "games", chunk_size: int | None = None,
             progress: bool | None = None, check: bool = False, first_game: int = 0):
    """Simulate ``n_games`` games and return their outcomes.

    Parameters
    ----------
    game : str or GameSpec
        ``"valhalla"``, … (see ``toolkit.GAMES``).
    rules : Rules, optional
        Rule values; default: ``preset`` (``"standard"``).
    n_games : int
        Number of games, >= 1.
    seed : int
        Run seed, 0 .. 2**63 - 1.  Game ``g`` depends only on ``(seed, g)``.
    policies : str or sequence of str
        One policy per seat (``"random,greedy"``); one name fills every seat.
    threads : int, optional
        Numba threads (default: all).  Results do not depend on it.
    keep : {"games", "summary"}
        A DataFrame with one row per game, or a streaming :class:`Summary`.
    progress : bool, optional
        Show a tqdm bar; by default it appears only if the run takes more
        than two seconds.
    check : bool
        Check the game's §7 invariants after every move; a violation raises
        ``AssertionError``.
    first_game : int
        Index of the first game (chunks of one run on several machines).

    Examples
    --------
    >>> df = simulate("valhalla", n_games=1000, seed=1, progress=False)
    >>> df[["win_0", "win_1"]].sum().sum()
    1000
    """
    spec = get_spec(game)
    rules = resolve_rules(spec, rules, preset)
    policies = spec.check_policies(policies, rules)
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"n_games={n_games!r} is not allowed: an integer >= 1")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise ValueError(f"seed={seed!r} is not allowed: an integer in 0..2**63-1")
    if keep not in ("games", "summary"):
        raise ValueError(f"keep={keep!r} is not allowed: one of games, summary")
    chunk = DEFAULT_CHUNK if chunk_size is None else chunk_size
    if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise ValueError(f"chunk_size={chunk_size!r} is not allowed: an integer >= 1")
    attrs = results.provenance(spec, rules, policies, seed, n_games)
    kernel_args = spec.prepare(rules, policies)
    ncols = len(spec.columns)

    with numba_threads(threads):
        bar = None
        if progress is not False:
            from tqdm.auto import tqdm

            bar = tqdm(total=n_games, unit="game", desc=spec.name, delay=0 if progress else PROGRESS_DELAY_S,
                       leave=False)
        try:
            if keep == "games":
                out = np.zeros((n_games, ncols), np.int32)
                summary = None
            else:
                out = np.zeros((min(chunk, n_games), ncols), np.int32)
                summary = Summary(spec, attrs, spec.result_columns(rules))
            violations = np.zeros(min(chunk, n_games), np.int32)
            done = 0
            while done < n_games:
                size = min(chunk, n_games - done)
                block = out[done:done + size] if keep == "games" else out[:size]
                spec.play_many(*kernel_args, seed, first_game + done, block, violations[:size], check)
                if check and violations[:size].any():
                    bad = int(np.flatnonzero(violations[:size])[0])
                    raise AssertionError(
                        f"{spec.name}: invariant §7.{violations[bad]} violated in game {first_game + done + bad} "
                        f"(seed {seed}, policies {','.join(policies)})")
                if summary is not None:
                    summary.add(block)
                done += size
                if bar is not None:
                    bar.update(size)
        finally:
            if bar is not None:
                bar.close()
    if summary is not None:
        return summary
    return results.to_frame(spec, out, first_game, attrs, spec.result_columns(rules))
