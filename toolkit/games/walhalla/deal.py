"""Walhalla's set-up (W-2) and its action deck (W-5.6), in Numba: part of the state machine of ``mechanics.py``.

Everything chance lays out before the first turn -- the peninsulas' lengths, the tiles and their sides, the
tips, the Vikings, the action cards dealt, the dragons and the start player -- drawn from stream 0 in the
reference's order, and the draw of an action card, which rebuilds an empty deck from the discard pile.
The first rule module over ``layout.py`` (layout <- deal <- turn <- raid_end <- mechanics): it reads the
layouts (``STATE``, the rule vector ``P_*``) and imports nothing else of the game.
"""

from __future__ import annotations

from toolkit.core import rng
from toolkit.core.cards import deck_from_counts, draw_into
from toolkit.core.jit import njit_no_nrt
from toolkit.games.walhalla.layout import (
    MAX_FIELDS, N_CARDS, N_DRAGONS, N_TILES, P_DECK, P_DRAW18, P_FROM_MIDGARD, P_INITIAL_CARDS, P_LENGTHS, P_PLAYERS,
    P_START_MIDGARD, P_START_RANDOM, P_TILE_TYPE, P_TILE_VALUE, P_VIKINGS, S_ASGARD, S_DECK, S_DECK_HEAD, S_DECK_N,
    S_DISCARD, S_DRAGONS, S_DRAGON_HEAD, S_FIRST, S_FTYPE, S_FVALUE, S_HAND, S_INNER, S_LEN, S_MIDGARD, S_OCC, S_OUTER,
    S_START, S_TMP, S_WALHALLA)


@njit_no_nrt
def deal_deck(st, rs, counts_base):
    """The canonical deck from the counts at ``st[counts_base:]``, shuffled (setup and reshuffles)."""
    st[S_DECK_N] = deck_from_counts(st, S_DECK, counts_base, N_CARDS, rs)
    st[S_DECK_HEAD] = 0


@njit_no_nrt
def draw_card(st, rs, p):
    """W-5.6: an empty deck is rebuilt from the discard pile; with both empty nothing is drawn
    (``core.cards.draw_into``)."""
    draw_into(st, rs, S_DECK, S_DECK_HEAD, S_DECK_N, S_DISCARD, S_HAND + N_CARDS * p, N_CARDS)


@njit_no_nrt
def setup(ip, st, rs):
    """W-2, with the draws in the reference's order."""
    n = ip[P_PLAYERS]
    tmp = st[S_TMP:S_TMP + 32]
    if ip[P_DRAW18] == 1:
        combo = rng.below(rs, 0, 3)
        tmp[0], tmp[1], tmp[2] = (5, 5, 8) if combo == 0 else ((5, 6, 7) if combo == 1 else (6, 6, 6))
        for i in range(2, 0, -1):
            j = rng.below(rs, 0, i + 1)
            t = tmp[i]
            tmp[i] = tmp[j]
            tmp[j] = t
        for k in range(3):
            st[S_LEN + k] = tmp[k]
    else:
        for k in range(3):
            st[S_LEN + k] = ip[P_LENGTHS + k]
    for i in range(N_TILES):  # the tiles
        tmp[i] = i
    rng.shuffle(tmp, 0, N_TILES, rs, 0)
    used = 0
    for k in range(3):
        for i in range(st[S_LEN + k]):
            tile = tmp[used]
            used += 1
            a = 1 if rng.below(rs, 0, 2) == 1 else 0
            for side in range(2):
                f = S_FTYPE + MAX_FIELDS * k + 2 * i + side
                src = 2 * tile + (a if side == 0 else 1 - a)
                st[f] = ip[P_TILE_TYPE + src]
                st[f - S_FTYPE + S_FVALUE] = ip[P_TILE_VALUE + src]
        for j in range(MAX_FIELDS):
            st[S_OCC + MAX_FIELDS * k + j] = -1
    for base, first in ((S_INNER, 3), (S_OUTER, 6)):  # the tips
        for k in range(3):
            st[base + k] = first + k
        rng.shuffle(st, base, 3, rs, 0)
    asgard = ip[P_VIKINGS] - ip[P_START_MIDGARD] - 1
    midgard = ip[P_START_MIDGARD]
    if ip[P_FROM_MIDGARD] == 1:
        midgard -= 1
        asgard += 1
    for p in range(n):
        st[S_MIDGARD + p] = midgard
        st[S_ASGARD + p] = asgard
        st[S_WALHALLA + p] = 1
    for c in range(N_CARDS):  # the action cards
        st[S_DISCARD + c] = ip[P_DECK + c]
    deal_deck(st, rs, S_DISCARD)
    for c in range(N_CARDS):
        st[S_DISCARD + c] = 0
    for p in range(n):
        for _ in range(ip[P_INITIAL_CARDS]):
            draw_card(st, rs, p)
    for i in range(N_DRAGONS):  # the dragons
        st[S_DRAGONS + i] = i
    rng.shuffle(st, S_DRAGONS, N_DRAGONS, rs, 0)
    st[S_DRAGON_HEAD] = 0
    st[S_FIRST] = rng.below(rs, 0, n) if ip[P_START_RANDOM] == 1 else 0
    st[S_START] = st[S_FIRST]
