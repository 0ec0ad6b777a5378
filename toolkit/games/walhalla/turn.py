"""Walhalla's turn (W-4 .. W-6), in Numba: part of the state machine of ``mechanics.py``.

The rules of a turn that ``mechanics.advance`` and ``mechanics.apply`` step through: which seat sets the
active player may board (DP-1), the legal fjords (DP-3, W-4.4), a Viking taking a field with its
immediate effect (W-5.4), a combat's outcome (W-6.3-6.5) and the next Viking's turn to disembark
(W-4.5).  The check of §7.2 at a landing stays beside it and records through ``layout.violation``.  Over
``layout.py`` and ``deal.py`` (layout <- deal <- turn <- raid_end <- mechanics).
"""

from __future__ import annotations

from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.games.walhalla.layout import (
    AXE, CULT, FOREST, INV_FIELDS, MAX_FIELDS, MAX_SEATS, PH_LAND, P_CULT_CARDS, P_FOREST_VP, P_LOSES_HERO, SHIELD,
    S_ABOARD, S_ASGARD, S_ATT_WINS, S_AXES_PLAYED, S_CHECK, S_COMBATS, S_COMBATS_RAID, S_DISCARD, S_FIELD, S_FTYPE,
    S_HEROES, S_J, S_LANDINGS, S_MOORED, S_OCC, S_PHASE, S_RAID, S_SHIELDS_PLAYED, S_TO_WALHALLA, S_VP, S_VP_FROM,
    S_WALHALLA, field_count, violation)
from toolkit.games.walhalla.deal import draw_card


@njit_inline
def boardable(mask, cseat, colour, active, midgard):
    """DP-1: may the active player fill the seats of ``mask``?"""
    if (mask >> cseat) & 1 == 1 and colour != active:
        return False
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) <= midgard


@njit_inline
def legal_mask(st):
    legal = 0
    for f in range(4):
        reach = 0
        for k in (f - 1, f):
            if 0 <= k <= 2:
                reach = max(reach, field_count(st, k))
        if 3 * st[S_MOORED + f] + 1 <= reach:
            legal |= 1 << f
    return legal


@njit_inline
def nth_fjord(legal, i):
    """The i-th (from 0) fjord whose bit is set in ``legal``."""
    for f in range(4):
        if (legal >> f) & 1 == 1:
            if i == 0:
                return f
            i -= 1
    return -1


@njit_inline
def landed(st):
    """The Viking at dragon seat ``S_J`` has disembarked: the next one's turn (W-4.5)."""
    st[S_ABOARD + st[S_J]] = -1
    st[S_J] += 1
    st[S_PHASE] = PH_LAND


@njit_no_nrt
def occupy(ip, st, rs, p, k, j):
    """W-5.4: the Viking takes the field and applies its immediate effect."""
    if st[S_CHECK] == 1 and (st[S_OCC + MAX_FIELDS * k + j] != -1 or j >= field_count(st, k)):
        violation(st, INV_FIELDS)  # §7.2: one Viking per field (and its own colour never attacked)
    st[S_OCC + MAX_FIELDS * k + j] = p
    st[S_LANDINGS + p] += 1
    kind = st[S_FTYPE + MAX_FIELDS * k + j]
    if kind == FOREST:
        st[S_VP + p] += ip[P_FOREST_VP]
        st[S_VP_FROM + 2 * MAX_SEATS + p] += ip[P_FOREST_VP]
    elif kind == CULT:
        for _ in range(ip[P_CULT_CARDS]):
            draw_card(st, rs, p)


@njit_no_nrt
def resolve_combat(ip, st, rs, attacker_won):
    """W-6.3-6.5: the fight on ``S_FIELD`` is decided; then the next Viking disembarks."""
    k, j = st[S_FIELD], st[S_FIELD + 1]
    attacker = st[S_ABOARD + st[S_J]]
    defender = st[S_OCC + MAX_FIELDS * k + j]
    winner = attacker if attacker_won else defender
    loser = defender if attacker_won else attacker
    st[S_WALHALLA + loser] += 1
    st[S_TO_WALHALLA + loser] += 1
    if ip[P_LOSES_HERO] == 1 and st[S_WALHALLA + winner] >= 1:
        st[S_WALHALLA + winner] -= 1
        st[S_ASGARD + winner] += 1
        st[S_HEROES + winner] += 1
    st[S_COMBATS] += 1
    st[S_COMBATS_RAID + st[S_RAID]] += 1
    if attacker_won:
        st[S_ATT_WINS] += 1
        st[S_OCC + MAX_FIELDS * k + j] = -1
        occupy(ip, st, rs, attacker, k, j)
    st[S_DISCARD + AXE] += st[S_AXES_PLAYED]
    st[S_DISCARD + SHIELD] += st[S_SHIELDS_PLAYED]
    landed(st)
