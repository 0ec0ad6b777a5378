"""Herrlof's round log in Numba: the games of ``play_game`` played once more, one row per round and seat
written between the protocol's steps (``herrlof.round_log`` makes the DataFrame).

:func:`play_logged` plays them on ``play_logged_loop``, the loop over ``play_logged_game``: a template that
``core.driver.logged_variants`` compiles in a plain copy and one that can search (and the whole one, with
the lookahead), over the protocol's functions.  This module sits above the kernel: it imports the layouts
(``layout.py``), the rule functions (``mechanics.py``), the hand strength (``heuristics.py``) and the kernel's
wired ``play_game``, so the kernel cannot import it: the package does (``herrlof/__init__.py``).
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import popcount
from toolkit.core.driver import logged_variants
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.games.herrlof.heuristics import hand_strength
from toolkit.games.herrlof.kernel import WORK_SIZE, play_game  # the wired game
from toolkit.games.herrlof.layout import (
    MAX_OPTIONS, N_COLUMNS, PH_ROUND_END, P_RANK_MASK, P_SUIT_MASK, RS_SIZE, SCRATCH_SIZE, STATE_SIZE, S_BID, S_DEALER,
    S_HBITS, S_NC, S_PHASE, S_ROUND, S_STEALS, S_SWAPS, S_TRADES, S_TRUMP, S_VC, S_WON_N,
)
from toolkit.games.herrlof.mechanics import advance, apply, record, round_points, start
from toolkit.games.herrlof.reference import ROUND_LOG_FIELDS

# the log's columns (reference.round_log_row)
LOG_FIELDS = ROUND_LOG_FIELDS
N_LOG = len(LOG_FIELDS)
L_ROUND, L_SEAT, L_DEALER, L_BID, L_TRICKS, L_POINTS, L_STRENGTH, L_TRUMPS, L_SPECIALS = range(9)
L_ONES, L_THREES, L_SIXES, L_NINES, L_TRUMP, L_STEALS, L_TRADES, L_SWAPS = range(9, 17)


@njit_inline
def log_deal(ip, st, log, row0, dealer):
    """The per-round log's deal columns (reference.round_log_row)."""
    trump = st[S_TRUMP]
    for seat in range(2):
        lr = row0 + seat
        bits = st[S_HBITS + seat]
        log[lr, L_ROUND] = st[S_ROUND]
        log[lr, L_SEAT] = seat
        log[lr, L_DEALER] = 1 if seat == dealer else 0
        log[lr, L_STRENGTH] = hand_strength(ip, bits, trump)
        log[lr, L_TRUMPS] = popcount(bits & ip[P_SUIT_MASK + trump]) if trump >= 0 else 0
        log[lr, L_SPECIALS] = st[S_VC + seat] + st[S_NC + seat]
        log[lr, L_ONES] = popcount(bits & ip[P_RANK_MASK + 1])
        log[lr, L_THREES] = popcount(bits & ip[P_RANK_MASK + 3])
        log[lr, L_SIXES] = popcount(bits & ip[P_RANK_MASK + 6])
        log[lr, L_NINES] = popcount(bits & ip[P_RANK_MASK + 9])
        log[lr, L_TRUMP] = trump
        log[lr, L_STEALS] = -st[S_STEALS + seat]
        log[lr, L_TRADES] = -st[S_TRADES + seat]
        log[lr, L_SWAPS] = -st[S_SWAPS + seat]


# the game below is a template: core.driver.logged_variants gives it the plain or the searching loop's
decide = work_entries = None


@njit_inline
def log_scores(ip, st, log):
    """The per-round log's scoring columns (reference.round_log_row), at the round's end before scoring."""
    row0 = 2 * (st[S_ROUND] - 1)
    if row0 + 1 < log.shape[0]:
        for seat in range(2):
            lr = row0 + seat
            won = st[S_WON_N + seat]
            bid = st[S_BID + seat]
            log[lr, L_BID] = bid
            log[lr, L_TRICKS] = won
            log[lr, L_POINTS] = round_points(ip, won, bid)
            log[lr, L_STEALS] += st[S_STEALS + seat]
            log[lr, L_TRADES] += st[S_TRADES + seat]
            log[lr, L_SWAPS] += st[S_SWAPS + seat]


def _play_logged_game(ip, policies, seed, game, row, rs, work, log):
    """One game as :data:`play_game` plays it (no checks), its round log written between the protocol's
    steps: the deal columns after each deal, the scoring columns before each round is scored."""
    rng.seed_streams(rs, seed, game)
    st = work[:STATE_SIZE]
    opts = work[STATE_SIZE:STATE_SIZE + MAX_OPTIONS]
    scratch = work[STATE_SIZE + MAX_OPTIONS:STATE_SIZE + MAX_OPTIONS + SCRATCH_SIZE]
    start(ip, st, rs)
    if 1 < log.shape[0]:
        log_deal(ip, st, log, 0, st[S_DEALER])
    while True:
        if st[S_PHASE] == PH_ROUND_END:
            log_scores(ip, st, log)
        rounds = st[S_ROUND]
        seat = advance(ip, st, rs)
        if seat < 0:
            break
        if st[S_ROUND] != rounds:
            row0 = 2 * (st[S_ROUND] - 1)
            if row0 + 1 < log.shape[0]:
                log_deal(ip, st, log, row0, st[S_DEALER])
        apply(ip, st, rs, decide(ip, policies, st, rs, seat, opts, scratch, work[WORK_SIZE:]))
    record(ip, st, row)


def play_logged(ip, policies, seed, first_game, n_games, max_rounds):
    """Games with their per-round log: (rows, log of shape (n_games, 2 * max_rounds, N_LOG))."""
    out = np.zeros((n_games, N_COLUMNS), np.int32)
    log = np.zeros((n_games, 2 * max_rounds, N_LOG), np.int64)
    play_logged_loop(ip, policies, seed, first_game, out, log)
    return out, log


# the round log's loops, in a plain copy and one that can search (core.driver.logged_variants)
play_logged_game, play_logged_loop = logged_variants(_play_logged_game, globals(), play_game)

