"""Tests for ``toolkit.core.rng`` and the reproducibility guarantees of docs/architecture.md decision 2.

The golden values below were computed once with the current code and are
hard-coded: a change to the stream derivation changes every simulated game,
so it must show up here (and bump ``rules_version``).  The pure-Python
``Stream`` and the njit functions are checked against the same numbers.
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.core import rng
from toolkit.core.rng import CHANCE, Stream

# (seed, game, stream) -> first three next_u64 outputs
GOLDEN_U64 = {
    (1, 0, 0): (0x6707AF6836824834, 0xDEB98916E2771EF9, 0xD164E8F97C18D11C),
    (1, 0, 1): (0x6FEA8BA2E2EB832D, 0xCE8BA0F1E386A27C, 0xDE7E092D7DEF689A),
    (1, 1, 0): (0x52BC820719262CBA, 0xECA720692EC84E4F, 0x77200EDC5D2F29CA),
    (0, 0, 0): (0x86EB30EED9EB846E, 0x1BED6B412F9B6634, 0x270EB93C42348C90),
    (12345, 999, 2): (0x05C278E8AE02B0B1, 0x0CDC93AFDF2AFDB5, 0x9AB0BA1249547744),
    (2**63 - 1, 10**9, 2): (0xF799FEE0E1477B67, 0xC037D8AF42287640, 0x40C663C0E4335CB1),
}
# Stream(1, 0, 0): five below(6), then three below(1000), on one stream
GOLDEN_BELOW_6 = (2, 5, 4, 5, 1)
GOLDEN_BELOW_1000 = (884, 816, 400)
# Stream(1, 0, 0): first three uniform()
GOLDEN_UNIFORM = (0.4024610166002357, 0.8700185471411398, 0.8179460152715337)
# Stream(7, 3, 1): eight below(2)
GOLDEN_COINS = (1, 1, 0, 0, 0, 0, 1, 0)
# Published SplitMix64 test vector (Vigna's splitmix64.c seeded with 1234567)
SPLITMIX64_1234567 = (6457827717110365317, 3203168211198807973, 9817491932198370423,
                      4593380528125082431, 16408922859458223821)


# ---------------------------------------------------------------- njit wrappers


@numba.njit
def _nb_u64(seed, game, stream, n):
    state = np.empty(stream + 1, np.uint64)
    rng.seed_streams(state, seed, game)
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = rng.next_u64(state, stream)
    return out


@numba.njit
def _nb_below(seed, game, stream, sizes):
    state = np.empty(stream + 1, np.uint64)
    rng.seed_streams(state, seed, game)
    out = np.empty(sizes.shape[0], np.int64)
    for i in range(sizes.shape[0]):
        out[i] = rng.below(state, stream, sizes[i])
    return out


@numba.njit
def _nb_uniform(seed, game, stream, n):
    state = np.empty(stream + 1, np.uint64)
    rng.seed_streams(state, seed, game)
    out = np.empty(n)
    for i in range(n):
        out[i] = rng.uniform(state, stream)
    return out


@numba.njit
def _nb_u64_from_state(state0, n):
    state = np.empty(1, np.uint64)
    state[0] = state0
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = rng.next_u64(state, 0)
    return out


# ---------------------------------------------------------------- golden values


@pytest.mark.parametrize("key", sorted(GOLDEN_U64))
def test_python_stream_golden_u64(key):
    s = Stream(*key)
    assert tuple(s.next_u64() for _ in range(3)) == GOLDEN_U64[key]


@pytest.mark.parametrize("key", sorted(GOLDEN_U64))
def test_njit_stream_golden_u64(key):
    seed, game, stream = key
    out = _nb_u64(seed, game, stream, 3)
    assert tuple(int(x) for x in out) == GOLDEN_U64[key]


@pytest.mark.parametrize("key", sorted(GOLDEN_U64))
def test_streams_for_matches_stream_state(key):
    seed, game, stream = key
    states = rng.streams_for(seed, game, stream + 1)
    assert states.dtype == np.uint64
    assert int(states[stream]) == rng.stream_state(seed, game, stream) == Stream(seed, game, stream).state


def test_splitmix64_published_vector():
    """The generator is SplitMix64: its published outputs for state 1234567."""
    s = Stream(state=1234567)
    assert tuple(s.next_u64() for _ in range(5)) == SPLITMIX64_1234567
    assert tuple(int(x) for x in _nb_u64_from_state(np.uint64(1234567), 5)) == SPLITMIX64_1234567


def test_python_below_golden():
    s = Stream(1, 0, CHANCE)
    assert tuple(s.below(6) for _ in range(5)) == GOLDEN_BELOW_6
    assert tuple(s.below(1000) for _ in range(3)) == GOLDEN_BELOW_1000
    s = Stream(7, 3, 1)
    assert tuple(s.below(2) for _ in range(8)) == GOLDEN_COINS


def test_njit_below_golden():
    sizes = np.array([6] * 5 + [1000] * 3, np.int64)
    assert tuple(int(x) for x in _nb_below(1, 0, 0, sizes)) == GOLDEN_BELOW_6 + GOLDEN_BELOW_1000
    assert tuple(int(x) for x in _nb_below(7, 3, 1, np.full(8, 2, np.int64))) == GOLDEN_COINS


def test_python_uniform_golden():
    s = Stream(1, 0, CHANCE)
    assert tuple(s.uniform() for _ in range(3)) == GOLDEN_UNIFORM


def test_njit_uniform_golden():
    assert tuple(float(x) for x in _nb_uniform(1, 0, 0, 3)) == GOLDEN_UNIFORM


def test_draw_primitives_from_raw_output():
    """``uniform`` and ``below`` are the documented functions of ``next_u64``."""
    raw, s_u, s_b = Stream(5, 6, 0), Stream(5, 6, 0), Stream(5, 6, 0)
    for n in (1, 2, 3, 7, 1000, 2**31):
        x = raw.next_u64()
        assert s_u.uniform() == (x >> 11) * 2.0**-53
        assert s_b.below(n) == ((x >> 32) * n) >> 32


def test_python_and_njit_agree_on_many_draws():
    for seed, game, stream in [(3, 17, 0), (3, 17, 1), (3, 17, 2), (2**40 + 3, 123456789, 1)]:
        s = Stream(seed, game, stream)
        assert [s.next_u64() for _ in range(200)] == [int(x) for x in _nb_u64(seed, game, stream, 200)]
        sizes = np.arange(1, 201, dtype=np.int64)
        s = Stream(seed, game, stream)
        assert [s.below(int(n)) for n in sizes] == [int(x) for x in _nb_below(seed, game, stream, sizes)]
        s = Stream(seed, game, stream)
        assert [s.uniform() for _ in range(200)] == [float(x) for x in _nb_uniform(seed, game, stream, 200)]


def test_ranges():
    s = Stream(9, 9, 0)
    for n in (1, 2, 5, 16):
        draws = [s.below(n) for _ in range(500)]
        assert min(draws) >= 0 and max(draws) < n
        assert set(draws) == set(range(n))
    u = [s.uniform() for _ in range(2000)]
    assert 0.0 <= min(u) and max(u) < 1.0


# ---------------------------------------------------------------- distinct streams


def test_streams_of_different_game_or_stream_differ():
    firsts = {}
    for seed in (0, 1, 2):
        for game in range(50):
            for stream in range(3):
                firsts[(seed, game, stream)] = tuple(Stream(seed, game, stream).next_u64() for _ in range(2))
    values = list(firsts.values())
    assert len(set(values)) == len(values), "two (seed, game, stream) triples share a stream"
    # and initial states differ too (no two streams are shifted copies at offset 0)
    states = {rng.stream_state(*k) for k in firsts}
    assert len(states) == len(firsts)


def test_chance_stream_is_stream_zero():
    assert CHANCE == 0


# ---------------------------------------------------------------- run-level reproducibility


def _same(a: pd.DataFrame, b: pd.DataFrame):
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True), check_exact=True)


@pytest.fixture(scope="module")
def full_run():
    return toolkit.simulate("valhalla", n_games=10_000, seed=11, progress=False)


def test_prefix_stability(full_run):
    """Running more games never changes the first ones."""
    short = toolkit.simulate("valhalla", n_games=1_000, seed=11, progress=False)
    _same(full_run.iloc[:1_000], short)


def test_seed_changes_games(full_run):
    other = toolkit.simulate("valhalla", n_games=1_000, seed=12, progress=False)
    assert not full_run.iloc[:1_000].drop(columns="game_index").reset_index(drop=True).equals(
        other.drop(columns="game_index"))


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 Numba threads")
@pytest.mark.parametrize("preset,policies", [("standard", "random"), ("alternative", "random,greedy")])
def test_thread_count_independence(preset, policies):
    one = toolkit.simulate("valhalla", n_games=5_000, seed=3, preset=preset, policies=policies,
                           threads=1, progress=False)
    two = toolkit.simulate("valhalla", n_games=5_000, seed=3, preset=preset, policies=policies,
                           threads=2, progress=False)
    _same(one, two)


def test_threads_restored_after_run():
    before = numba.get_num_threads()
    toolkit.simulate("valhalla", n_games=10, threads=1, progress=False)
    assert numba.get_num_threads() == before


def test_chunk_size_independence(full_run):
    chunked = toolkit.simulate("valhalla", n_games=2_000, seed=11, chunk_size=7, progress=False)
    _same(full_run.iloc[:2_000], chunked)


def test_first_game_offset(full_run):
    part = toolkit.simulate("valhalla", n_games=500, seed=11, first_game=500, progress=False)
    assert part["game_index"].tolist() == list(range(500, 1000))
    _same(full_run.iloc[500:1000], part)


def test_summary_independent_of_chunking():
    a = toolkit.simulate("valhalla", n_games=3_000, seed=5, keep="summary", threads=2, progress=False)
    b = toolkit.simulate("valhalla", n_games=3_000, seed=5, keep="summary", chunk_size=1_000, threads=1,
                         progress=False)
    np.testing.assert_array_equal(a.sums, b.sums)
    for c in a.hist_columns:
        np.testing.assert_array_equal(a.histograms[c], b.histograms[c])


@numba.njit
def _kernel_shuffle(values, lo, n, seed, game, k):
    state = np.empty(k + 1, np.uint64)
    rng.seed_streams(state, seed, game)
    rng.shuffle(values, lo, n, state, k)
    return state[k]


@pytest.mark.parametrize("n", [0, 1, 2, 7, 48, 180])
def test_kernel_and_python_shuffle_give_the_same_permutation(n):
    """rng.shuffle (njit, on a slice of a flat array) and Stream.shuffle (a list) draw the same numbers
    and give the same permutation: the kernels and the references shuffle decks this one way."""
    moved = 0
    for game in range(20):
        items = list(range(100, 100 + n))
        stream = Stream(seed=9, game=game, stream=2)
        stream.shuffle(items)
        flat = np.concatenate([np.full(3, -1), np.arange(100, 100 + n), np.full(4, -1)]).astype(np.int64)
        after = _kernel_shuffle(flat, 3, n, 9, game, 2)
        assert flat[3:3 + n].tolist() == items
        assert flat[:3].tolist() == [-1] * 3 and flat[3 + n:].tolist() == [-1] * 4  # nothing outside the slice
        assert int(after) == stream.state  # the same number of draws
        moved += items != sorted(items)
    assert moved == 0 if n < 2 else moved >= 8  # it does shuffle (a no-op would leave every list sorted)


def test_shuffle_is_uniform_over_the_permutations_of_three():
    """All 6 orders of three items, each about 1/6 of 60,000 shuffles (4 standard errors)."""
    counts = {}
    for game in range(60_000):
        order = tuple(Stream(seed=4, game=game).shuffle([0, 1, 2]))
        counts[order] = counts.get(order, 0) + 1
    assert len(counts) == 6
    se = (60_000 * (1 / 6) * (5 / 6)) ** 0.5
    assert all(abs(c - 10_000) < 4 * se for c in counts.values()), counts


# ---------------------------------------------------------------- best_of: the kernels' tie-break


@numba.njit
def _nb_best(seed, game, stream, values):
    """The index core.rng.best_of keeps over ``values`` (the kernels' loop)."""
    state = np.empty(stream + 1, np.uint64)
    rng.seed_streams(state, seed, game)
    best, top, ties = 0, values[0], 1
    for i in range(values.shape[0]):
        take, ties = rng.best_of(state, stream, values[i], top, ties, i == 0)
        if take:
            best, top = i, values[i]
    return best, rng.next_u64(state, stream)  # and where the stream was left


def test_best_of_takes_the_unique_best_without_a_draw():
    index, after = _nb_best(4, 5, 1, np.array([3, 1, 9, 2, 9 - 1], np.int64))
    assert index == 2
    assert int(after) == Stream(4, 5, 1).next_u64()  # no tie, so nothing was drawn


def test_best_of_draws_as_policy_best_does():
    """The kernels' tie-break and the references' ``policy.best`` keep the same option, draw for draw."""
    from toolkit.core.policy import best

    values_rng = np.random.default_rng(11)
    for case in range(300):
        values = values_rng.integers(0, 3, size=int(values_rng.integers(1, 9))).astype(np.int64)
        stream = Stream(21, case, 2)
        expected = best(list(range(len(values))), values.tolist(), stream)
        index, after = _nb_best(21, case, 2, values)
        assert index == expected, (values, index, expected)
        assert int(after) == stream.next_u64()  # the same number of draws


def test_best_of_breaks_a_tie_uniformly():
    """Four options tied at the top: each kept about a quarter of the time (a first-option or
    last-option rule would keep one of them always)."""
    kept = np.bincount([_nb_best(3, game, 1, np.array([5, 7, 7, 2, 7, 7], np.int64))[0] for game in range(4000)],
                       minlength=6)
    assert kept[0] == kept[3] == 0
    for i in (1, 2, 4, 5):
        assert 900 < kept[i] < 1100, kept


def test_merged_task_states_are_the_whole_run():
    """``Summary.merged`` (the sweep's and the tuning's tasks) adds task states into the one-run summary."""
    from toolkit.analysis.sweep import run_task
    from toolkit.core.runner import Summary

    rules = toolkit.rules("valhalla").to_json()
    whole = toolkit.simulate("valhalla", n_games=3_000, seed=5, keep="summary", progress=False)
    parts = [run_task("valhalla", rules, ("random", "random"), 5, first, k, 1)
             for first, k in ((0, 1_000), (1_000, 1_500), (2_500, 500))]
    merged = Summary.merged(iter(parts))
    assert merged.n_games == 3_000
    np.testing.assert_array_equal(merged.sums, whole.sums)
    for c in whole.hist_columns:
        np.testing.assert_array_equal(merged.histograms[c], whole.histograms[c])
    # negative control: leaving a part out is seen
    assert not np.array_equal(Summary.merged(parts[:2]).sums, whole.sums)
    with pytest.raises(ValueError, match="no task states"):
        Summary.merged([])
