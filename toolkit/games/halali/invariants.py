"""Halali's §7 invariants, checked in the kernel after every action when a run asks (``check=True``):
:func:`check_step` after each applied option, :func:`check_end` at the end; each returns a violation code
(``INV_*`` in ``layout.py``, 0 when every invariant holds).

Over ``layout.py`` and ``mechanics.py`` (the action codes, the board's geometry); ``kernel.py`` imports this
module.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.jit import njit, njit_no_nrt
from toolkit.games.halali.layout import (
    CENTRE, HUNTER, INV_CAPTURE_LIST, INV_COLOUR, INV_END_ACTIONS, INV_FACE_DOWN, INV_FACE_DOWN_PASSED, INV_FIXED,
    INV_PROGRESS, INV_SCORE, INV_SQUARES, INV_TILES, P_CAPMASK, P_COUNT, P_POINTS, P_PROGRESS_LIMIT, S_CAPTURES,
    S_COLOUR, S_DIR, S_END_LEFT, S_FACE_DOWN, S_GUN_OF_ID, S_HOME_OF_ID, S_ID, S_KIND, S_OVER, S_PHASE, S_RESCUES,
    S_SCORE, S_SINCE, S_TO_MOVE, S_TURNS, S_UP, TREE,
)
from toolkit.games.halali.mechanics import decode, owner, step


@njit_no_nrt
def move_violation(ip, st, seat, code):
    """§7.7, §7.8 and §7.5 of the DP-1 option ``code`` of ``seat`` in the position ``st`` before it
    (0 = fine; of several, the last in that order)."""
    origin, d, dist = decode(code)
    if d < 0:  # a reveal
        return 0
    violation = 0
    kind = st[S_KIND + origin]
    own = owner(kind)
    if own != st[S_COLOUR + seat] and own != -1:
        violation = INV_COLOUR
    for i in range(1, dist):  # §7.8: the path is empty
        p = step(origin, d, i)
        if p >= 0 and st[S_KIND + p] >= 0:
            violation = INV_FACE_DOWN_PASSED
    t = step(origin, d, dist)
    if t < 0:  # an exit
        return violation
    victim = st[S_KIND + t]
    if victim >= 0:
        if st[S_UP + t] == 0:
            violation = INV_FACE_DOWN_PASSED
        if (ip[P_CAPMASK + kind] >> victim) & 1 == 0:
            violation = INV_CAPTURE_LIST
    return violation


@njit_no_nrt
def check_state(ip, st, face_down_before):
    """§7.1-7.4, 7.6, 7.9, 7.10 of the position ``st`` (``face_down_before``: the face-down count before
    the last action); 0 = fine."""
    up_count = 0
    down = 0
    packed = 0  # the tiles on the board by kind, 8 bits each (at most 48 < 256)
    for s in range(49):
        k = st[S_KIND + s]
        if k >= 0:
            packed += np.int64(1) << (8 * k)
            if st[S_UP + s] == 0:
                down += 1
            if k == HUNTER and st[S_DIR + s] != st[S_GUN_OF_ID + st[S_ID + s]]:
                return INV_FIXED
            if k == TREE and st[S_HOME_OF_ID + st[S_ID + s]] != s:
                return INV_FIXED
            up_count += 1
    score0 = 0
    score1 = 0
    for k in range(7):
        on_board = (packed >> (8 * k)) & 255
        taken = st[S_CAPTURES + k] + st[S_CAPTURES + 7 + k] + st[S_RESCUES + k] + st[S_RESCUES + 7 + k]
        if on_board + taken != ip[P_COUNT + k]:
            return INV_TILES
        score0 += ip[P_POINTS + k] * (st[S_CAPTURES + k] + st[S_RESCUES + k])
        score1 += ip[P_POINTS + k] * (st[S_CAPTURES + 7 + k] + st[S_RESCUES + 7 + k])
    if st[S_KIND + CENTRE] >= 0 and st[S_TURNS] == 0:
        return INV_SQUARES
    if down != st[S_FACE_DOWN] or down > face_down_before or (st[S_PHASE] == 1 and down != 0):
        return INV_FACE_DOWN
    if st[S_PHASE] == 0 and down == 0 and st[S_OVER] == 0:
        return INV_FACE_DOWN
    if score0 != st[S_SCORE] or score1 != st[S_SCORE + 1]:
        return INV_SCORE
    if st[S_END_LEFT] < 0 or st[S_END_LEFT + 1] < 0:
        return INV_END_ACTIONS
    if st[S_PHASE] == 0 and ip[P_PROGRESS_LIMIT] > 0 and st[S_SINCE] > ip[P_PROGRESS_LIMIT]:
        return INV_PROGRESS
    return 0


@njit
def check_step(params, before, st, option):
    """§7 after an action (``before``: the state before it): the action's own checks, then the position's."""
    violation = move_violation(params, before, before[S_TO_MOVE], option)
    if violation != 0:
        return violation
    return check_state(params, st, before[S_FACE_DOWN])


@njit
def check_end(params, st):
    """§7 on the final position (after any automatic passes that ended the game)."""
    return check_state(params, st, st[S_FACE_DOWN])
