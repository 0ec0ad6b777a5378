"""Valhalla's §7 invariants, checked in the kernel after every move when a run asks (``check=True``):
:func:`check_step` after each applied option, :func:`check_end` at the end; each returns a violation code
(``INV_*`` in ``layout.py``, 0 when every invariant holds).

Over ``layout.py`` and ``mechanics.py`` (the move an option makes, the gate); ``kernel.py`` imports this
module.
"""

from __future__ import annotations

from toolkit.core.bits import popcount
from toolkit.core.jit import njit
from toolkit.games.valhalla.layout import (
    HOME_N, INV_GATE, INV_HOME_INCREASED, INV_OCCUPANCY, INV_OFF_DECREASED, INV_OK, INV_REPAIRING, INV_ROCK,
    INV_SHIPS, INV_THROWS, OFF, OFF_SQ, PH_MOVE, P_DOCK, P_HOME_MONOTONE, P_ROCK, P_SHIPS, REP, S_BAD_THROW,
    S_MOVES_MADE, S_PHASE, S_SEAT, TRACK_MASK, T_FORFEITS, T_THROWS, VAL_N,
)
from toolkit.games.valhalla.mechanics import gate_bit, move_of


@njit
def check_state(ip, st, off_before, home_before, home_monotone):
    """§7.1-6 after a move resolution; returns a violation code (0 = fine).

    ``off_before`` and ``home_before`` are ``(seat 0, seat 1)`` counts before the move."""
    for s in range(2):
        ships = popcount(st[s] & TRACK_MASK) + st[HOME_N + s] + st[VAL_N + s] + st[OFF + s]
        if ships != ip[P_SHIPS] or st[s] & ~TRACK_MASK or min(st[HOME_N + s], st[VAL_N + s], st[OFF + s]) < 0:
            return INV_SHIPS
    if st[0] & st[1]:
        return INV_OCCUPANCY
    if ((st[0] | st[1]) >> ip[P_ROCK]) & 1:
        return INV_ROCK
    if st[REP] >= 0 and (st[st[REP]] >> ip[P_DOCK]) & 1 == 0:
        return INV_REPAIRING
    if st[OFF] < off_before[0] or st[OFF + 1] < off_before[1]:
        return INV_OFF_DECREASED
    if home_monotone and (st[HOME_N] > home_before[0] or st[HOME_N + 1] > home_before[1]):
        return INV_HOME_INCREASED
    return INV_OK


@njit
def check_step(params, before, st, option):
    """§7.1-7.7 after a move (``before``: the state before it); §7.8's value range for every throw so far."""
    ip = params[0]
    if st[S_BAD_THROW]:
        return INV_THROWS
    if before[S_PHASE] != PH_MOVE:
        return INV_OK
    seat = before[S_SEAT]
    if move_of(ip, before, seat, option)[1] == OFF_SQ and gate_bit(ip, before, seat) == 0:
        return INV_GATE
    return check_state(ip, st, before[OFF:OFF + 2], before[HOME_N:HOME_N + 2], ip[P_HOME_MONOTONE] == 1)


@njit
def check_end(params, st):
    """§7.8: every throw was moved or forfeited, and no value lay outside the throw mode's range."""
    if st[S_BAD_THROW]:
        return INV_THROWS
    for s in range(2):
        if st[T_THROWS + s] != st[S_MOVES_MADE + s] + st[T_FORFEITS + s]:
            return INV_THROWS
    return INV_OK
