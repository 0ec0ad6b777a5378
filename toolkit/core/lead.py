"""Who leads, turn by turn: lead changes and the decisive turn of a game.

Every game defines a *lead measure*, one number per seat computed from
public information only, higher is better (Valhalla: minus the pips still
to travel; the other games: the score so far).  After each of its §6 turns a
game reports the measure of every seat.  The *leader* is the seat with the
strictly highest measure; when the top is shared there is no leader.

- ``lead_changes`` (Ludii's *drama*): how many times the leader became a
  seat other than the last leader.  The first leader is not a change, and a
  tied turn neither counts nor forgets the last leader, so A, tie, A is no
  change and A, tie, B is one.
- ``decisive_turn`` (Ludii's *decisiveness*): for a game with a sole winner
  ``w``, the first turn ``t`` such that ``w`` leads after every turn
  ``t .. T`` (``T`` = turns played); when ``w`` does not lead after the last
  turn (it won on a tie-break or by a rule the measure does not see), it is
  ``T``.  A game without a sole winner (draw, shared win, aborted) records 0.

The kernels call the ``njit`` functions :func:`lead_reset`,
:func:`lead_update` and :func:`lead_result` with a 4-int scratch array; the
references use :class:`LeadTracker`, which is the same definition in plain
Python.  ``tests/core/test_lead.py`` checks the two agree.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.jit import njit_inline

# fields of the kernel's scratch array
L_LAST = 0  # the last strict leader, -1 before the first
L_CHANGES = 1  # lead changes so far
L_CURRENT = 2  # the leader after the last turn, -1 for a tie
L_RUN_START = 3  # the turn since which L_CURRENT has led (or been tied) without a break
LEAD_FIELDS = 4


def leader(values) -> int:
    """The seat with the strictly highest value, or -1 when the top is shared."""
    best, who = None, -1
    for seat, v in enumerate(values):
        if best is None or v > best:
            best, who = v, seat
        elif v == best:
            who = -1
    return who


class LeadTracker:
    """Plain-Python lead tracking for the references (same definition as the kernels').

    Examples
    --------
    >>> t = LeadTracker()
    >>> for values in ([1, 0], [1, 1], [1, 2], [3, 2]):
    ...     t.update(values)
    >>> t.result(winner=0)
    (2, 4)
    """

    def __init__(self):
        self.turn = 0
        self.last = -1
        self.changes = 0
        self.current = -1
        self.run_start = 0

    def update(self, values) -> None:
        """The lead measure of every seat after one more turn."""
        self.turn += 1
        now = leader(values)
        if now != -1:
            if self.last != -1 and now != self.last:
                self.changes += 1
            self.last = now
        if now != self.current or self.turn == 1:
            self.current = now
            self.run_start = self.turn

    def result(self, winner: int) -> tuple[int, int]:
        """``(lead_changes, decisive_turn)`` of a game won by ``winner`` (-1: no sole winner)."""
        if winner < 0:
            return self.changes, 0
        if self.turn == 0:
            return self.changes, 0
        return self.changes, self.run_start if self.current == winner else self.turn


def lead_scratch() -> np.ndarray:
    """A fresh scratch array for the kernel functions."""
    out = np.zeros(LEAD_FIELDS, np.int64)
    out[L_LAST] = -1
    out[L_CURRENT] = -1
    return out


@njit_inline
def lead_reset(lead):
    """Start a new game with the scratch array ``lead`` (int64[4])."""
    lead[L_LAST] = -1
    lead[L_CHANGES] = 0
    lead[L_CURRENT] = -1
    lead[L_RUN_START] = 0


@njit_inline
def lead_update(lead, values, n_seats, turn):
    """Turn ``turn`` (1, 2, …) has ended with ``values[0:n_seats]`` the seats' lead measures."""
    who = 0
    tied = False
    for s in range(1, n_seats):
        if values[s] > values[who]:
            who = s
            tied = False
        elif values[s] == values[who]:
            tied = True
    if tied:
        who = -1
    if who != -1:
        if lead[L_LAST] != -1 and who != lead[L_LAST]:
            lead[L_CHANGES] += 1
        lead[L_LAST] = who
    if who != lead[L_CURRENT] or turn == 1:
        lead[L_CURRENT] = who
        lead[L_RUN_START] = turn


@njit_inline
def lead_result(lead, winner, turns):
    """``(lead_changes, decisive_turn)`` at the end of a game of ``turns`` turns won by ``winner``."""
    if winner < 0 or turns == 0:
        return lead[L_CHANGES], 0
    if lead[L_CURRENT] == winner:
        return lead[L_CHANGES], lead[L_RUN_START]
    return lead[L_CHANGES], turns
