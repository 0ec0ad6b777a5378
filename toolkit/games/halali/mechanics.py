"""Halali's rules in Numba: the board's geometry, the legal actions (H-2, H-3), an action carried out,
a game's set-up and end, and the decision-point protocol (``start``, ``advance``, ``kind``, ``count`` /
``nth`` / ``options``, ``apply``, ``record``); the same rules, draws and option order as ``reference.py``
(whose docstring lists the draw order, the action codes and the spec choices).

Decision points: only §5 DP-1 (``kind`` is 1), one per turn with a legal
action; ``advance`` lists its options in the canonical order (reveals by
square, then moves by origin, direction N E S W, distance) into the state,
so ``count`` and ``nth`` only read them.  A turn without a legal action is an
automatic pass inside ``advance``, as are a game's end and, in a two-game
match, the next game's set-up (its chance draws from stream 0).  Option
codes are the action codes (:func:`decode`).

Design metrics (``decisions``, ``options``, ``lead_changes``,
``decisive_turn``): counted as ``reference.py``'s docstring says:
``decisions`` is the plies (every DP-1 is one action), ``options`` is summed
by ``advance`` at each DP-1.  The lead measure is :func:`lead_measure` (the
match points so far), reported to ``core.lead`` after every action
(:func:`apply`) and pass (:func:`advance`).

Over ``layout.py`` (layout <- mechanics <- heuristics, invariants <- kernel).
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.games.halali.layout import (
    ACTION_CAP, CENTRE, C_CAPTURES, C_COLOUR0, C_DECISIONS, C_DECISIVE_TURN, C_END, C_END_REASON, C_FIRST, C_FORCED,
    C_GAME_WINNER, C_LEAD_CHANGES, C_MAIN, C_OPTIONS, C_PLIES, C_RESCUES, C_RESULT, C_SEAT, C_TURNS, C_WIN,
    C_WINNER, DP_ACTION, GAME_SIZE, HUNTER, MAX_OPTIONS, NEUTRAL_CLASS, N_COLUMNS, P_CAPMASK, P_COUNT, P_EARLY_END,
    P_END_MOVES, P_EXITS_END_ONLY, P_EXIT_MASK, P_FIRST, P_FORCED_CAPTURE, P_HUNTER_FREE, P_HUNTER_RESTRICTED,
    P_LOCKED_CAPTURABLE, P_LOCK_MODE, P_MATCH_GAMES, P_NO_RETURN, P_NO_RETURN_NEUTRALS, P_POINTS, P_PROGRESS_LIMIT,
    P_RANGE, P_RESCUE_NEUTRALS, P_TIEBREAK_DRAW, SEAT_FIELDS, STATE_SIZE, S_ABORTED, S_CAPTURES, S_COLOUR, S_DECK,
    S_DECK_KINDS, S_DIR, S_DOWN_BITS, S_END_LEFT, S_END_REASON, S_END_TURNS, S_FACE_DOWN, S_FD_COUNT,
    S_FIRST_PLAYER, S_FORCED, S_GAME, S_GAME_WINNER, S_GUN_OF_ID, S_HOME_OF_ID, S_ID, S_KIND, S_LAST, S_LEAD,
    S_LEAD_VALUES, S_LOCK, S_MAIN_TURNS, S_MATCH_OVER, S_M_CAPTURES, S_M_COLOUR0, S_M_END_REASON, S_M_END_TURNS,
    S_M_FIRST, S_M_FORCED, S_M_MAIN_TURNS, S_M_PLIES, S_M_RESCUES, S_M_SEAT, S_M_TURNS, S_N_OPTIONS, S_OCC_BITS,
    S_OFFERED, S_ON_BOARD, S_OPTIONS, S_OVER, S_PASSES, S_PHASE, S_PLIES, S_RESCUES, S_REVEALS, S_SCORE, S_SINCE,
    S_TILES, S_TO_MOVE, S_TURNS, S_UP, S_UP_BITS,
)


# ------------------------------------------------------------------------ geometry


def _next_table():
    table = np.full(49 * 4, -1, np.int64)
    for sq in range(49):
        x, y = sq % 7, sq // 7
        for d, (dx, dy) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
            if 0 <= x + dx < 7 and 0 <= y + dy < 7:
                table[4 * sq + d] = 7 * (y + dy) + x + dx
    return table


# NEXT[4 * s + d]: the square one step from s in direction d, -1 off the board.  A constant of the
# board (not a rule), so Numba may freeze it; walking with it instead of step() was measured faster.
NEXT = _next_table()


@njit_inline
def step(s, d, n):
    x = s % 7
    y = s // 7
    if d == 0:
        y += n
    elif d == 1:
        x += n
    elif d == 2:
        y -= n
    else:
        x -= n
    if x < 0 or x > 6 or y < 0 or y > 6:
        return -1
    return 7 * y + x


@njit_inline
def owner_class(kind):
    """0 blue, 1 brown, 2 neutral, 3 tree (the S_UP_BITS index)."""
    if kind <= 1:
        return 0
    if kind <= 3:
        return 1
    if kind <= 5:
        return 2
    return 3


@njit_inline
def owner(kind):
    """The seat a piece belongs to (0 blue, 1 brown), -1 neutral, -2 a tree: :func:`owner_class`, its
    classes 2 and 3 numbered below the seats."""
    c = owner_class(kind)
    return c if c < 2 else 1 - c


# ------------------------------------------------------------------------ H-3 movement


@njit_inline
def no_return_bans(ip, st, seat, origin, target):
    if ip[P_NO_RETURN] == 0:
        return False
    last = S_LAST + 3 * seat
    if st[last] < 0 or st[S_ID + origin] != st[last] or target != st[last + 1]:
        return False
    if owner(st[S_KIND + origin]) == st[S_COLOUR + seat]:
        return True
    return ip[P_NO_RETURN_NEUTRALS] == 1 and origin == st[last + 2]


@njit_inline
def can_capture(ip, st, mover_kind, gun, d, target):
    if st[S_UP + target] == 0:
        return False
    if (ip[P_CAPMASK + mover_kind] >> st[S_KIND + target]) & 1 == 0:
        return False
    if mover_kind == HUNTER and ip[P_HUNTER_RESTRICTED] == 1 and d != gun:
        return False
    if st[S_ID + target] == st[S_LOCK] and ip[P_LOCKED_CAPTURABLE] == 0:
        return False
    return True


@njit_inline
def list_moves(ip, st, seat, opts, n, plain):
    """Append the moves of ``seat`` after ``opts[:n]`` (canonical order): all of them, or with
    ``plain = False`` only the captures.  Returns (options now listed, captures among them)."""
    captures = 0
    colour = st[S_COLOUR + seat]
    exits_open = st[S_PHASE] == 1 or ip[P_EXITS_END_ONLY] == 0
    occ = st[S_OCC_BITS]
    movers = st[S_UP_BITS + colour] | st[S_UP_BITS + NEUTRAL_CLASS]
    while movers != 0:
        o = lowest_bit_index(movers)
        movers &= movers - 1
        if st[S_ID + o] == st[S_LOCK]:
            continue
        kind = st[S_KIND + o]
        gun = st[S_DIR + o]
        reach = ip[P_RANGE + kind]
        may_exit = owner(kind) == colour or ip[P_RESCUE_NEUTRALS] == 1
        for d in range(4):
            plain_ok = kind != HUNTER or ip[P_HUNTER_FREE] == 1 or d == gun
            t = o
            for dist in range(1, reach + 1):
                edge = t
                t = NEXT[4 * t + d]
                if t < 0:
                    if plain and exits_open and may_exit and plain_ok and (ip[P_EXIT_MASK + d] >> edge) & 1 == 1:
                        opts[n] = 49 + 28 * o + 7 * d + dist - 1
                        n += 1
                    break
                if (occ >> t) & 1 == 0:
                    if plain and plain_ok and not no_return_bans(ip, st, seat, o, t):
                        opts[n] = 49 + 28 * o + 7 * d + dist - 1
                        n += 1
                    continue
                if can_capture(ip, st, kind, gun, d, t) and not no_return_bans(ip, st, seat, o, t):
                    opts[n] = 49 + 28 * o + 7 * d + dist - 1
                    n += 1
                    captures += 1
                break
    return n, captures


@njit_no_nrt
def legal_actions(ip, st, seat, opts):
    """DP-1 options as action codes, canonical order (§5); returns their number,
    or ``-n - 1`` when the turn is a forced reveal (H-2)."""
    n = 0
    if st[S_PHASE] == 0:
        bits = st[S_DOWN_BITS]
        while bits != 0:
            opts[n] = lowest_bit_index(bits)
            n += 1
            bits &= bits - 1
        limit = ip[P_PROGRESS_LIMIT]
        if limit > 0 and st[S_SINCE] >= limit:
            return -n - 1
    if ip[P_FORCED_CAPTURE] == 1:
        reveals = n
        n, captures = list_moves(ip, st, seat, opts, n, False)
        if captures > 0:  # only the captures count: move them to the front
            for i in range(captures):
                opts[i] = opts[reveals + i]
            return captures
        n = reveals
    return list_moves(ip, st, seat, opts, n, True)[0]


@njit_inline
def decode(code):
    """Action code -> (origin, direction, distance); a reveal has direction -1."""
    if code < 49:
        return code, -1, 0
    m = code - 49
    return m // 28, (m % 28) // 7, m % 7 + 1


# ------------------------------------------------------------------------ applying actions


@njit_inline
def own_tiles_left(st, colour):
    return st[S_ON_BOARD + colour] > 0


@njit_inline
def after_action(ip, st, seat, progress, revealed_last):
    st[S_TURNS] += 1
    if st[S_PHASE] == 0:
        st[S_MAIN_TURNS] += 1
    else:
        st[S_END_TURNS] += 1
        st[S_END_LEFT + seat] -= 1
    if progress:
        st[S_SINCE] = 0
    else:
        st[S_SINCE] += 1
    st[S_TO_MOVE] = 1 - seat
    if st[S_FACE_DOWN] == 0 and ip[P_EARLY_END] == 1 and not (own_tiles_left(st, 0) and own_tiles_left(st, 1)):
        st[S_OVER] = 1
        st[S_END_REASON] = 1
        return
    if revealed_last:
        st[S_PHASE] = 1
        st[S_END_LEFT] = ip[P_END_MOVES]
        st[S_END_LEFT + 1] = ip[P_END_MOVES]
        return
    if st[S_PHASE] == 1 and st[S_END_LEFT] == 0 and st[S_END_LEFT + 1] == 0:
        st[S_OVER] = 1
        st[S_END_REASON] = 0
        return
    if ip[P_PROGRESS_LIMIT] == 0 and st[S_TURNS] >= ACTION_CAP:
        st[S_OVER] = 1
        st[S_END_REASON] = 2


@njit_inline
def remove_tile(st, s):
    kind = st[S_KIND + s]
    own = owner(kind)
    if own >= 0:
        st[S_ON_BOARD + own] -= 1
    bit = np.int64(1) << s
    st[S_OCC_BITS] &= ~bit
    st[S_DOWN_BITS] &= ~bit
    st[S_UP_BITS + owner_class(kind)] &= ~bit
    st[S_KIND + s] = -1
    st[S_UP + s] = 0
    st[S_DIR + s] = -1
    st[S_ID + s] = -1


@njit_no_nrt
def apply_action(ip, st, seat, code):
    """Apply a DP-1 option (one ply).  Its own §7 checks (7.5, 7.7, 7.8) are :func:`move_violation`'s."""
    st[S_PLIES] += 1
    st[S_LOCK] = -1
    lock_mode = ip[P_LOCK_MODE]
    origin, d, dist = decode(code)
    last = S_LAST + 3 * seat
    if d < 0:  # reveal
        s = origin
        st[S_UP + s] = 1
        st[S_DOWN_BITS] &= ~(np.int64(1) << s)
        st[S_UP_BITS + owner_class(st[S_KIND + s])] |= np.int64(1) << s
        st[S_FACE_DOWN] -= 1
        st[S_FD_COUNT + st[S_KIND + s]] -= 1
        st[S_REVEALS + seat] += 1
        st[last] = -1
        if owner(st[S_KIND + s]) == -1 and lock_mode != 2:
            st[S_LOCK] = st[S_ID + s]
        after_action(ip, st, seat, True, st[S_FACE_DOWN] == 0)
        return
    kind = st[S_KIND + origin]
    own = owner(kind)
    tile_id = st[S_ID + origin]
    gun = st[S_DIR + origin]
    t = step(origin, d, dist)
    if t < 0:  # exit
        remove_tile(st, origin)
        st[S_RESCUES + 7 * seat + kind] += 1
        st[S_SCORE + seat] += ip[P_POINTS + kind]
        st[S_TILES + seat] += 1
        st[last] = tile_id
        st[last + 1] = origin
        st[last + 2] = -1
        after_action(ip, st, seat, True, False)
        return
    progress = False
    victim = st[S_KIND + t]
    if victim >= 0:
        remove_tile(st, t)
        st[S_CAPTURES + 7 * seat + victim] += 1
        st[S_SCORE + seat] += ip[P_POINTS + victim]
        st[S_TILES + seat] += 1
        progress = True
    remove_tile(st, origin)
    st[S_KIND + t] = kind
    st[S_UP + t] = 1
    st[S_DIR + t] = gun
    st[S_ID + t] = tile_id
    st[S_OCC_BITS] |= np.int64(1) << t
    st[S_UP_BITS + owner_class(kind)] |= np.int64(1) << t
    if own >= 0:
        st[S_ON_BOARD + own] += 1
    st[last] = tile_id
    st[last + 1] = origin
    st[last + 2] = t
    if own == -1 and lock_mode == 0:
        st[S_LOCK] = tile_id
    after_action(ip, st, seat, progress, False)


@njit_inline
def capture_square(st, code):
    """The square where the DP-1 option ``code`` captures, or -1 (not a capture)."""
    origin, d, dist = decode(code)
    if d < 0:
        return -1
    t = step(origin, d, dist)
    if t < 0 or st[S_KIND + t] < 0:
        return -1
    return t


@njit_inline
def apply_pass(ip, st, seat):
    st[S_LOCK] = -1
    st[S_PASSES + seat] += 1
    st[S_LAST + 3 * seat] = -1
    after_action(ip, st, seat, False, False)


# ------------------------------------------------------------------------ the game


@njit_inline
def setup(ip, st, rs, colour0):
    """H-1 (reference.setup): reset the game's state (``GAME_SIZE``: the match's tallies stay), shuffle,
    deal, give hunters directions.  Seat 0 plays ``colour0``."""
    for i in range(GAME_SIZE):
        st[i] = 0
    deck = st[S_DECK:S_DECK + 48]
    kinds = st[S_DECK_KINDS:S_DECK_KINDS + 48]
    first_colour = ip[P_FIRST]
    if first_colour == 2:
        first_colour = rng.below(rs, 0, 2)
    i = 0
    for k in range(7):
        for _ in range(ip[P_COUNT + k]):
            kinds[i] = k
            i += 1
        st[S_FD_COUNT + k] = ip[P_COUNT + k]
    for i in range(48):
        deck[i] = i
    rng.shuffle(deck, 0, 48, rs, 0)
    i = 0
    for s in range(49):
        st[S_DIR + s] = -1
        if s == CENTRE:
            st[S_KIND + s] = -1
            st[S_ID + s] = -1
            continue
        tid = deck[i]
        st[S_OCC_BITS] |= np.int64(1) << s
        st[S_DOWN_BITS] |= np.int64(1) << s
        st[S_KIND + s] = kinds[tid]
        st[S_ID + s] = tid
        st[S_HOME_OF_ID + tid] = s
        own = owner(kinds[tid])
        if own >= 0:
            st[S_ON_BOARD + own] += 1
        i += 1
    for s in range(49):
        if st[S_KIND + s] == HUNTER:
            st[S_DIR + s] = rng.below(rs, 0, 4)
            st[S_GUN_OF_ID + st[S_ID + s]] = st[S_DIR + s]
    st[S_COLOUR] = colour0
    st[S_COLOUR + 1] = 1 - colour0
    st[S_TO_MOVE] = 0 if colour0 == first_colour else 1
    st[S_FIRST_PLAYER] = st[S_TO_MOVE]
    st[S_LOCK] = -1
    st[S_LAST] = -1
    st[S_LAST + 3] = -1
    st[S_FACE_DOWN] = 48


@njit_inline
def lead_measure(st, seat, earlier):
    """Design metrics: the points ``seat`` has scored so far (``reference.lead_measure``),
    plus ``earlier``, its points in the match's earlier game."""
    return earlier + st[S_SCORE + seat]


@njit_inline
def game_winner(ip, st):
    if st[S_END_REASON] == 2:
        return -1
    s0, s1 = st[S_SCORE], st[S_SCORE + 1]
    if s0 != s1:
        return 0 if s0 > s1 else 1
    if ip[P_TIEBREAK_DRAW] == 0 and st[S_TILES] != st[S_TILES + 1]:
        return 0 if st[S_TILES] > st[S_TILES + 1] else 1
    return -1


# ------------------------------------------------------------------------ the protocol (one game)
#
# The decision-point protocol of docs/architecture.md: start, advance (the automatic passes, the end of a
# game and the next game's set-up, up to the next DP-1), options, apply and record (choose is heuristics.py's,
# check_step / check_end invariants.py's).  A match's games run one after the other in the same state: the
# record sums their tallies (``m_*``) as each ends.


@njit_inline
def _report_lead(st):
    """A turn is one action, a pass included (§6): report the seats' lead measures."""
    st[S_LEAD_VALUES] = lead_measure(st, 0, st[S_M_SEAT])
    st[S_LEAD_VALUES + 1] = lead_measure(st, 1, st[S_M_SEAT + 1])
    lead_update(st[S_LEAD:S_LEAD + LEAD_FIELDS], st[S_LEAD_VALUES:S_LEAD_VALUES + 2], 2,
                st[S_M_TURNS] + st[S_TURNS])


@njit_no_nrt
def start(params, st, rs):
    """The match's tallies and lead tracker, and game 1's set-up (H-1; chance from stream 0)."""
    for q in range(GAME_SIZE, STATE_SIZE):
        st[q] = 0
    lead_reset(st[S_LEAD:S_LEAD + LEAD_FIELDS])
    setup(params, st, rs, 0)
    st[S_M_COLOUR0] = st[S_COLOUR]
    st[S_M_FIRST] = st[S_FIRST_PLAYER]


@njit_inline
def _end_game(ip, st):
    """The game just ended: add its tallies to the match's."""
    g = st[S_GAME]
    st[S_M_TURNS] += st[S_TURNS]
    st[S_M_MAIN_TURNS] += st[S_MAIN_TURNS]
    st[S_M_END_TURNS] += st[S_END_TURNS]
    st[S_M_PLIES] += st[S_PLIES]
    st[S_M_FORCED] += st[S_FORCED]
    if g == 0:
        st[S_M_END_REASON] = st[S_END_REASON]
    if st[S_END_REASON] == 2:
        st[S_ABORTED] = 1
    for seat in range(2):
        st[S_M_SEAT + seat] += st[S_SCORE + seat]
        st[S_M_SEAT + 2 + seat] += st[S_TILES + seat]
        st[S_M_SEAT + 4 + seat] += st[S_REVEALS + seat]
        st[S_M_SEAT + 6 + seat] += st[S_PASSES + seat]
        for k in range(7):
            st[S_M_CAPTURES + 2 * k + seat] += st[S_CAPTURES + 7 * seat + k]
            st[S_M_RESCUES + 2 * k + seat] += st[S_RESCUES + 7 * seat + k]
    st[S_GAME_WINNER + g] = game_winner(ip, st)


@njit_inline
def advance(params, st, rs):
    """Up to the next DP-1: automatic passes (a turn without a legal action), and at a game's end its
    tallies and the match's next game (its set-up draws from stream 0).  Lists the DP's options (and
    counts a forced reveal, H-2); returns the seat to decide, or -1 when the match is over."""
    ip = params
    while True:
        if st[S_OVER] != 0:
            if st[S_MATCH_OVER] != 0:
                return -1
            _end_game(ip, st)
            g = st[S_GAME] + 1
            if g >= ip[P_MATCH_GAMES]:
                st[S_MATCH_OVER] = 1
                return -1
            st[S_GAME] = g
            setup(ip, st, rs, g)
            continue
        seat = st[S_TO_MOVE]
        n = legal_actions(ip, st, seat, st[S_OPTIONS:S_OPTIONS + MAX_OPTIONS])
        if n < 0:  # a forced reveal (H-2)
            n = -n - 1
            st[S_FORCED] += 1
        if n == 0:  # no legal action: an automatic pass, not a DP
            apply_pass(ip, st, seat)
            _report_lead(st)
            continue
        st[S_N_OPTIONS] = n
        st[S_OFFERED] += n
        return seat


@njit_inline
def kind(params, st):
    """The §5 decision kind of the current decision point: always DP-1 (an action)."""
    return DP_ACTION


@njit_inline
def count(params, st):
    return st[S_N_OPTIONS]


@njit_inline
def nth(params, st, i):
    return st[S_OPTIONS + i]


@njit_inline
def options(params, st, out):
    """The DP-1 options in canonical order (§5, as ``advance`` listed them) into ``out``; returns their
    number.  Option codes are the action codes (``decode``): a reveal is its square 0..48, a move
    ``49 + 28 * origin + 7 * direction + distance - 1``."""
    n = st[S_N_OPTIONS]
    for i in range(n):
        out[i] = st[S_OPTIONS + i]
    return n


@njit_inline
def apply(params, st, rs, option):
    """Carry out the DP-1 option ``option`` of the seat to move (one action, one turn)."""
    apply_action(params, st, st[S_TO_MOVE], option)
    _report_lead(st)


@njit_no_nrt
def record(params, st, row):
    """The §6 record of the finished match into ``row`` (COLUMNS): its games' tallies summed."""
    ip = params
    for c in range(N_COLUMNS):
        row[c] = 0
    row[C_COLOUR0] = st[S_M_COLOUR0]
    row[C_FIRST] = st[S_M_FIRST]
    row[C_TURNS] = st[S_M_TURNS]
    row[C_MAIN] = st[S_M_MAIN_TURNS]
    row[C_END] = st[S_M_END_TURNS]
    row[C_PLIES] = st[S_M_PLIES]
    row[C_DECISIONS] = st[S_M_PLIES]  # every DP-1 is one action, one ply (passes are neither)
    row[C_OPTIONS] = st[S_OFFERED]
    row[C_FORCED] = st[S_M_FORCED]
    row[C_END_REASON] = st[S_M_END_REASON]
    for q in range(2 * len(SEAT_FIELDS)):
        row[C_SEAT + q] = st[S_M_SEAT + q]
    for q in range(2 * 7):
        row[C_CAPTURES + q] = st[S_M_CAPTURES + q]
        row[C_RESCUES + q] = st[S_M_RESCUES + q]
    for g in range(ip[P_MATCH_GAMES]):
        row[C_GAME_WINNER + g] = st[S_GAME_WINNER + g]
    if ip[P_MATCH_GAMES] == 1:
        row[C_GAME_WINNER + 1] = -2
    # H-6 / H-8 on the (summed) record
    aborted = st[S_ABORTED] != 0
    s0, s1 = st[S_M_SEAT], st[S_M_SEAT + 1]
    t0, t1 = st[S_M_SEAT + 2], st[S_M_SEAT + 3]
    if aborted:
        w = -1
    elif s0 != s1:
        w = 0 if s0 > s1 else 1
    elif (ip[P_TIEBREAK_DRAW] == 0 or ip[P_MATCH_GAMES] == 2) and t0 != t1:  # H-8: a match always uses tiles
        w = 0 if t0 > t1 else 1
    else:
        w = -1
    row[C_WINNER] = w
    if w >= 0:
        row[C_WIN + w] = 1
    row[C_RESULT] = 2 if aborted else (0 if w >= 0 else 1)
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(st[S_LEAD:S_LEAD + LEAD_FIELDS], w, st[S_M_TURNS])
