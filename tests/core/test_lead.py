"""The lead tracker: hand-worked sequences, and the kernel functions equal the Python class."""

import numpy as np
import pytest

from toolkit.core.jit import njit
from toolkit.core.lead import LeadTracker, lead_reset, lead_result, lead_scratch, lead_update, leader


@njit
def _kernel_track(values, winner):
    lead = np.zeros(4, np.int64)
    lead_reset(lead)
    for t in range(values.shape[0]):
        lead_update(lead, values[t], values.shape[1], t + 1)
    return lead_result(lead, winner, values.shape[0])


def _python_track(values, winner):
    tracker = LeadTracker()
    for row in values:
        tracker.update(list(row))
    return tracker.result(winner)


def test_leader_is_the_strict_maximum():
    assert leader([3, 1, 2]) == 0
    assert leader([1, 3, 3]) == -1
    assert leader([1, 3, 2]) == 1
    assert leader([5]) == 0


@pytest.mark.parametrize("values, winner, expected", [
    ([[1, 0], [0, 1], [1, 0]], 0, (2, 3)),  # A, B, A: two changes, A leads for good from turn 3
    ([[1, 0], [1, 1], [1, 0]], 0, (0, 3)),  # A, tie, A: no change; the tie breaks the run
    ([[1, 0], [1, 1], [0, 1]], 1, (1, 3)),  # A, tie, B: one change
    ([[1, 0], [2, 0], [3, 0]], 0, (0, 1)),  # wire to wire
    ([[1, 0], [2, 0], [3, 0]], 1, (0, 3)),  # the winner never led (a tie-break win): the last turn
    ([[1, 0], [2, 0], [3, 0]], -1, (0, 0)),  # no sole winner
    ([[0, 0], [0, 0]], 0, (0, 2)),  # always tied
    ([[0, 0, 1], [0, 2, 1], [3, 2, 1], [3, 2, 4]], 2, (3, 4)),  # three seats
])
def test_hand_worked_sequences(values, winner, expected):
    values = np.array(values, np.int64)
    assert _python_track(values, winner) == expected
    assert tuple(int(x) for x in _kernel_track(values, winner)) == expected


def test_kernel_equals_python_on_random_sequences():
    rng = np.random.default_rng(5)
    for _ in range(300):
        seats = int(rng.integers(2, 6))
        turns = int(rng.integers(1, 30))
        values = rng.integers(0, 4, size=(turns, seats)).astype(np.int64)
        winner = int(rng.integers(-1, seats))
        assert _python_track(values, winner) == tuple(int(x) for x in _kernel_track(values, winner))


def test_scratch_starts_empty():
    lead = lead_scratch()
    assert lead.tolist() == [-1, 0, -1, 0]
