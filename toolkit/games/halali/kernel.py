"""Halali, the Numba fast path.

Same rules, same random draws and same option order as ``reference.py``
(whose docstring lists the draw order, the action codes and the spec
choices); the tests check both produce identical games.  Rules arrive as
values (:func:`to_kernel`), so changing a rule never recompiles.

State of one game: one ``int64`` array ``st`` (layout below); the board is
four arrays of 49 squares (kind, face up, gun direction, tile id).  The
policies change a square in place to evaluate a hypothetical and restore it.

Design metrics (``decisions``, ``options``, ``lead_changes``,
``decisive_turn``): counted as ``reference.py``'s docstring says, in
:func:`play_game` where the policy is asked.  The lead measure is
:func:`lead_measure` (the match points so far), reported to ``core.lead``
after every action and pass; the tracker and the two seats' measures live in
the caller's work array (``W_LEAD``, ``W_LEAD_VALUES``), so ``play_game``
still allocates nothing.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index
from toolkit.core.driver import make_play_many
from toolkit.core.jit import njit_inline, njit_no_nrt, njit_parallel
from toolkit.core.layout import block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.games.halali.reference import END_REASONS, RESULT_CODES, SEAT_FIELDS, parse_square
from toolkit.games.halali.rules import DIRECTIONS, KINDS

# -- rule vector layout (to_kernel) --------------------------------------------------
P_COUNT, P_POINTS, P_RANGE, P_CAPMASK = 0, 7, 14, 21  # [7] each, by kind
P_HUNTER_RESTRICTED, P_HUNTER_FREE, P_FIRST, P_NO_RETURN, P_NO_RETURN_NEUTRALS = 28, 29, 30, 31, 32
P_LOCK_MODE, P_LOCKED_CAPTURABLE, P_FORCED_CAPTURE, P_END_MOVES, P_EXITS_END_ONLY = 33, 34, 35, 36, 37
P_RESCUE_NEUTRALS, P_EARLY_END, P_TIEBREAK_DRAW, P_MATCH_GAMES, P_PROGRESS_LIMIT = 38, 39, 40, 41, 42
P_EXIT_MASK = 44  # [4] by direction: bit s set iff square s is an exit with that outward direction
N_PARAMS = 48
FIRST = {"blue": 0, "brown": 1, "random": 2}
LOCK_MODE = {"reveal_or_move": 0, "reveal_only": 1, "off": 2}
POLICY_ID = {"random": 0, "greedy": 1, "lookahead": 2}
BEAR, FOX, LUMBERJACK, HUNTER, PHEASANT, DUCK, TREE = range(7)
OWNER = np.array([0, 0, 1, 1, -1, -1, -2], np.int64)  # COLOUR_OF_KIND
NEUTRAL_CLASS, TREE_CLASS = 2, 3
CENTRE = 24
ACTION_CAP = 10_000
MAX_OPTIONS = 49 + 49 * 28  # every reveal and every (origin, direction, distance)

# -- state layout ------------------------------------------------------------------------
S_KIND, S_UP, S_DIR, S_ID = 0, 49, 98, 147  # [49] each; kind -1 = empty square
S_COLOUR, S_TO_MOVE, S_LOCK, S_PHASE, S_END_LEFT = 196, 198, 199, 200, 201  # colour, end_left [2]
S_SINCE, S_FACE_DOWN, S_OVER, S_END_REASON, S_FIRST_PLAYER = 203, 204, 205, 206, 207
S_LAST = 208  # [2 * 3]: tile id (-1 none), from, to
S_TURNS, S_MAIN_TURNS, S_END_TURNS, S_PLIES, S_FORCED = 214, 215, 216, 217, 218
S_REVEALS, S_PASSES, S_SCORE, S_TILES, S_ON_BOARD = 219, 221, 223, 225, 227  # [2] each; on board by colour
S_CAPTURES, S_RESCUES = 229, 243  # [2 * 7] (seat, kind)
S_FD_COUNT = 257  # [7] face-down tiles per kind (public)
S_GUN_OF_ID, S_HOME_OF_ID = 264, 312  # [48] each, for the §7.4 check
# bit sets of squares (bit s = square s), kept in step with the board: face-down tiles, occupied
# squares, and face-up tiles by owner class (blue, brown, neutral, tree = CLASS_OF_KIND)
S_DOWN_BITS, S_OCC_BITS, S_UP_BITS = 360, 361, 362  # S_UP_BITS [4]
STATE_SIZE = 366

# -- result columns ----------------------------------------------------------------------
COLUMNS = (("winner", "win_0", "win_1", "result", "colour_0", "first_player", "turns", "main_turns", "end_turns",
            "plies", "decisions", "options", "lead_changes", "decisive_turn", "forced_reveal_turns", "end_reason")
           + tuple(f"{name}_{seat}" for name in SEAT_FIELDS for seat in (0, 1))
           + tuple(f"{table}_{kind}_{seat}" for table in ("captures", "rescues") for kind in KINDS for seat in (0, 1))
           + ("game1_winner", "game2_winner"))
# offsets from the names (toolkit.core.layout): a run written as offset + i is checked at import
(C_WINNER, C_RESULT, C_COLOUR0, C_FIRST, C_TURNS, C_MAIN, C_END, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES,
 C_DECISIVE_TURN, C_FORCED, C_END_REASON) = (
    offset(COLUMNS, c) for c in ("winner", "result", "colour_0", "first_player", "turns", "main_turns",
                                 "end_turns", "plies", "decisions", "options", "lead_changes", "decisive_turn",
                                 "forced_reveal_turns", "end_reason"))
C_WIN = seat_run(COLUMNS, "win", 2)
C_SEAT = block(COLUMNS, SEAT_FIELDS, 2)  # SEAT_FIELDS (score, tiles, reveals, passes), two columns each
C_CAPTURES = block(COLUMNS, [f"captures_{kind}" for kind in KINDS], 2)  # (kind, seat) pairs, then rescues
C_RESCUES = block(COLUMNS, [f"rescues_{kind}" for kind in KINDS], 2)
C_GAME_WINNER = offset(COLUMNS, "game1_winner", "game2_winner")
N_COLUMNS = len(COLUMNS)
CATEGORIES = {"result": RESULT_CODES, "end_reason": END_REASONS}

# invariant violation codes (check=True): the number of the §7 invariant
INV_TILES, INV_SQUARES, INV_FACE_DOWN, INV_FIXED, INV_CAPTURE_LIST, INV_SCORE, INV_COLOUR = 1, 2, 3, 4, 5, 6, 7
INV_FACE_DOWN_PASSED, INV_END_ACTIONS, INV_PROGRESS = 8, 9, 10

# -- work array layout ---------------------------------------------------------------------
W_ST = 0
W_OPTS = STATE_SIZE
W_VALUES = W_OPTS + MAX_OPTIONS
W_DECK = W_VALUES + MAX_OPTIONS
W_KINDS = W_DECK + 48
W_COUNTS = W_KINDS + 48
W_LEAD = W_COUNTS + 7  # the lead tracker's scratch (core.lead) [LEAD_FIELDS]
W_LEAD_VALUES = W_LEAD + LEAD_FIELDS  # the two seats' lead measures after a turn [2]
WORK_SIZE = W_LEAD_VALUES + 2


def to_kernel(rules):
    ip = np.zeros(N_PARAMS, np.int64)
    for k, kind in enumerate(KINDS):
        ip[P_COUNT + k] = rules.tile_counts[kind]
        ip[P_POINTS + k] = rules.points[kind]
        ip[P_RANGE + k] = rules.ranges[kind]
        ip[P_CAPMASK + k] = sum(1 << KINDS.index(v) for v in rules.capture_matrix[kind])
    ip[P_HUNTER_RESTRICTED] = rules.hunter_direction_restricted_capture
    ip[P_HUNTER_FREE] = rules.hunter_free_movement_direction
    ip[P_FIRST] = FIRST[rules.first_player]
    ip[P_NO_RETURN] = rules.no_return_rule
    ip[P_NO_RETURN_NEUTRALS] = rules.no_return_applies_to_neutrals
    ip[P_LOCK_MODE] = LOCK_MODE[rules.neutral_lock]
    ip[P_LOCKED_CAPTURABLE] = rules.locked_neutral_capturable
    ip[P_FORCED_CAPTURE] = rules.forced_capture
    ip[P_END_MOVES] = rules.end_phase_moves
    ip[P_EXITS_END_ONLY] = rules.exits_only_in_end_phase
    ip[P_RESCUE_NEUTRALS] = rules.rescue_neutrals
    ip[P_EARLY_END] = rules.early_end_no_own_tiles
    ip[P_TIEBREAK_DRAW] = rules.tiebreak == "draw"
    ip[P_MATCH_GAMES] = rules.match_games
    ip[P_PROGRESS_LIMIT] = rules.progress_limit
    for text in rules.exit_squares:
        name, _, d = text.partition(":")
        ip[P_EXIT_MASK + DIRECTIONS.index(d)] |= 1 << parse_square(name)
    return ip


def policy_ids(policies) -> np.ndarray:
    return np.array([POLICY_ID[p] for p in policies], np.int64)


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
    if kind <= 1:
        return 0
    if kind <= 3:
        return 1
    if kind <= 5:
        return -1
    return -2


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
def apply_action(ip, st, seat, code, heat):
    """Apply a DP-1 option (one ply); returns a §7 violation code of the move itself (0 = fine).

    ``heat`` (49 counts, or empty) tallies the squares where captures happen."""
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
        return violation
    progress = False
    victim = st[S_KIND + t]
    if victim >= 0:
        if st[S_UP + t] == 0:
            violation = INV_FACE_DOWN_PASSED
        if (ip[P_CAPMASK + kind] >> victim) & 1 == 0:
            violation = INV_CAPTURE_LIST
        remove_tile(st, t)
        if heat.shape[0] > 0:
            heat[t] += 1
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
    return violation


@njit_inline
def apply_pass(ip, st, seat):
    st[S_LOCK] = -1
    st[S_PASSES + seat] += 1
    st[S_LAST + 3 * seat] = -1
    after_action(ip, st, seat, False, False)


# ------------------------------------------------------------------------ policies (policies.py)


@njit_inline
def threat(ip, st, attacker):
    """The most points ``attacker`` (a colour) could take with one capture (face-up tiles only)."""
    best = 0
    pieces = st[S_UP_BITS + attacker] | st[S_UP_BITS + NEUTRAL_CLASS]
    while pieces != 0:
        s = lowest_bit_index(pieces)
        pieces &= pieces - 1
        kind = st[S_KIND + s]
        if kind < 0 or st[S_UP + s] == 0 or ip[P_CAPMASK + kind] == 0:
            continue
        own = owner(kind)
        if own != attacker and own != -1:
            continue
        reach = ip[P_RANGE + kind]
        gun = st[S_DIR + s]
        for d in range(4):
            if kind == HUNTER and ip[P_HUNTER_RESTRICTED] == 1 and d != gun:
                continue
            t = s
            for dist in range(1, reach + 1):
                t = NEXT[4 * t + d]
                if t < 0:
                    break
                victim = st[S_KIND + t]
                if victim < 0:
                    continue
                if st[S_UP + t] == 1 and (ip[P_CAPMASK + kind] >> victim) & 1 == 1 and ip[P_POINTS + victim] > best:
                    best = ip[P_POINTS + victim]
                break
    return best


@njit_inline
def move_value(ip, st, seat, code):
    """policies.greedy_value of a move: 10 * gain - 10 * threat after it, -1 for a main-phase plain move.

    The move is made on the board (squares and bit sets) for the threat and then undone."""
    origin, d, dist = decode(code)
    opponent = st[S_COLOUR + 1 - seat]
    kind, up, gun, tid = st[S_KIND + origin], st[S_UP + origin], st[S_DIR + origin], st[S_ID + origin]
    b0, b1, b2, b3 = st[S_UP_BITS], st[S_UP_BITS + 1], st[S_UP_BITS + 2], st[S_UP_BITS + 3]
    t = step(origin, d, dist)
    st[S_KIND + origin] = -1
    st[S_UP_BITS + owner_class(kind)] &= ~(np.int64(1) << origin)
    if t < 0:
        value = 10 * ip[P_POINTS + kind] - 10 * threat(ip, st, opponent)
    else:
        vk, vup, vgun, vid = st[S_KIND + t], st[S_UP + t], st[S_DIR + t], st[S_ID + t]
        if vk >= 0:
            st[S_UP_BITS + owner_class(vk)] &= ~(np.int64(1) << t)
        st[S_UP_BITS + owner_class(kind)] |= np.int64(1) << t
        st[S_KIND + t], st[S_UP + t], st[S_DIR + t], st[S_ID + t] = kind, up, gun, tid
        gain = ip[P_POINTS + vk] if vk >= 0 else 0
        value = 10 * gain - 10 * threat(ip, st, opponent)
        if vk < 0 and st[S_PHASE] == 0:
            value -= 1
        st[S_KIND + t], st[S_UP + t], st[S_DIR + t], st[S_ID + t] = vk, vup, vgun, vid
    st[S_KIND + origin] = kind
    st[S_UP_BITS], st[S_UP_BITS + 1], st[S_UP_BITS + 2], st[S_UP_BITS + 3] = b0, b1, b2, b3
    return value


@njit_no_nrt
def greedy_choice(ip, st, seat, opts, n):
    if n == 1:
        return opts[0]
    opponent = st[S_COLOUR + 1 - seat]
    best, best_value = opts[0], 0
    reveal_value = 0
    have_reveal = False
    for i in range(n):
        code = opts[i]
        if code < 49:
            if not have_reveal:
                reveal_value = -10 * threat(ip, st, opponent)
                have_reveal = True
            value = reveal_value
        else:
            value = move_value(ip, st, seat, code)
        if i == 0 or value > best_value:
            best, best_value = code, value
    return best


@njit_no_nrt
def lookahead_choice(ip, st, seat, opts, n):
    if n == 1:
        return opts[0]
    opponent = st[S_COLOUR + 1 - seat]
    face_down = 0
    for k in range(7):
        face_down += st[S_FD_COUNT + k]
    weight = 4 * max(face_down, 1)
    best, best_value = opts[0], 0
    for i in range(n):
        code = opts[i]
        if code < 49:
            s = code
            kind, up, gun = st[S_KIND + s], st[S_UP + s], st[S_DIR + s]
            value = 0
            for k in range(7):
                count = st[S_FD_COUNT + k]
                if count == 0:
                    continue
                st[S_KIND + s] = k
                st[S_UP + s] = 1
                cls = owner_class(k)
                saved = st[S_UP_BITS + cls]
                st[S_UP_BITS + cls] = saved | (np.int64(1) << s)
                if k == HUNTER:
                    for g in range(4):
                        st[S_DIR + s] = g
                        value -= count * 10 * threat(ip, st, opponent)
                else:
                    st[S_DIR + s] = -1
                    value -= count * 40 * threat(ip, st, opponent)
                st[S_UP_BITS + cls] = saved
            st[S_KIND + s], st[S_UP + s], st[S_DIR + s] = kind, up, gun
        else:
            value = weight * move_value(ip, st, seat, code)
        if i == 0 or value > best_value:
            best, best_value = code, value
    return best


# ------------------------------------------------------------------------ §7 checks


@njit_no_nrt
def check_state(ip, st, counts, face_down_before):
    for k in range(7):
        counts[k] = 0
    up_count = 0
    down = 0
    for s in range(49):
        k = st[S_KIND + s]
        if k >= 0:
            counts[k] += 1
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
        taken = st[S_CAPTURES + k] + st[S_CAPTURES + 7 + k] + st[S_RESCUES + k] + st[S_RESCUES + 7 + k]
        if counts[k] + taken != ip[P_COUNT + k]:
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


# ------------------------------------------------------------------------ the game


@njit_inline
def setup(ip, st, rs, colour0, deck, kinds):
    """H-1 (reference.setup): reset the game's state, shuffle, deal, give hunters directions."""
    for i in range(STATE_SIZE):
        st[i] = 0
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


@njit_no_nrt
def play_game(ip, policies, seed, game, row, check, rs, work, heat):
    """Play one game or match; fill ``row`` (COLUMNS); return a §7 violation code when ``check``.

    ``heat``: 49 capture counts by square (added to), or an empty array."""
    rng.seed_streams(rs, seed, game)
    st = work[W_ST:W_ST + STATE_SIZE]
    opts = work[W_OPTS:W_OPTS + MAX_OPTIONS]
    deck = work[W_DECK:W_DECK + 48]
    kinds = work[W_KINDS:W_KINDS + 48]
    counts = work[W_COUNTS:W_COUNTS + 7]
    lead = work[W_LEAD:W_LEAD + LEAD_FIELDS]
    lead_values = work[W_LEAD_VALUES:W_LEAD_VALUES + 2]
    lead_reset(lead)
    for i in range(row.shape[0]):
        row[i] = 0
    violation = 0
    aborted = False
    for g in range(ip[P_MATCH_GAMES]):
        setup(ip, st, rs, g, deck, kinds)
        if g == 0:
            row[C_COLOUR0] = st[S_COLOUR]
            row[C_FIRST] = st[S_FIRST_PLAYER]
        while st[S_OVER] == 0:
            seat = st[S_TO_MOVE]
            n = legal_actions(ip, st, seat, opts)
            if n < 0:  # a forced reveal (H-2)
                n = -n - 1
                st[S_FORCED] += 1
            if n == 0:
                apply_pass(ip, st, seat)
            else:
                row[C_DECISIONS] += 1  # DP-1
                row[C_OPTIONS] += n
                pid = policies[seat]
                if pid == 0:
                    code = opts[0] if n == 1 else opts[rng.below(rs, 1 + seat, n)]
                elif pid == 1:
                    code = greedy_choice(ip, st, seat, opts, n)
                else:
                    code = lookahead_choice(ip, st, seat, opts, n)
                before = st[S_FACE_DOWN]
                v = apply_action(ip, st, seat, code, heat)
                if check and violation == 0:
                    violation = v if v != 0 else check_state(ip, st, counts, before)
            # a turn is one action, a pass included (§6): report the lead measures
            lead_values[0] = lead_measure(st, 0, row[C_SEAT])
            lead_values[1] = lead_measure(st, 1, row[C_SEAT + 1])
            lead_update(lead, lead_values, 2, row[C_TURNS] + st[S_TURNS])
        row[C_TURNS] += st[S_TURNS]
        row[C_MAIN] += st[S_MAIN_TURNS]
        row[C_END] += st[S_END_TURNS]
        row[C_PLIES] += st[S_PLIES]
        row[C_FORCED] += st[S_FORCED]
        if g == 0:
            row[C_END_REASON] = st[S_END_REASON]
        if st[S_END_REASON] == 2:
            aborted = True
        for seat in range(2):
            row[C_SEAT + seat] += st[S_SCORE + seat]
            row[C_SEAT + 2 + seat] += st[S_TILES + seat]
            row[C_SEAT + 4 + seat] += st[S_REVEALS + seat]
            row[C_SEAT + 6 + seat] += st[S_PASSES + seat]
            for k in range(7):
                row[C_CAPTURES + 2 * k + seat] += st[S_CAPTURES + 7 * seat + k]
                row[C_RESCUES + 2 * k + seat] += st[S_RESCUES + 7 * seat + k]
        row[C_GAME_WINNER + g] = game_winner(ip, st)
    if ip[P_MATCH_GAMES] == 1:
        row[C_GAME_WINNER + 1] = -2
    # H-6 / H-8 on the (summed) record
    s0, s1 = row[C_SEAT], row[C_SEAT + 1]
    t0, t1 = row[C_SEAT + 2], row[C_SEAT + 3]
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
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(lead, w, row[C_TURNS])
    return violation


play_many = make_play_many(play_game, 3, WORK_SIZE, extra_shape=(0,))  # no capture heat map


def capture_heat(ip, policies, seed, first_game, n_games):
    """Captures per square (a 7x7 array, row 0 = rank 1) over games ``first_game ..``, and their rows."""
    out = np.zeros((n_games, N_COLUMNS), np.int32)
    heat = np.zeros((256, 49), np.int64)
    _play_heat(ip, policies, seed, first_game, out, heat)
    return heat.sum(axis=0).reshape(7, 7), out


@njit_parallel
def _play_heat(ip, policies, seed, first_game, out, heat):
    n = out.shape[0]
    blocks = min(n, 256)
    for b in prange(blocks):
        rs = np.empty(3, np.uint64)
        work = np.zeros(WORK_SIZE, np.int64)
        for i in range(b * n // blocks, (b + 1) * n // blocks):
            play_game(ip, policies, seed, first_game + i, out[i], False, rs, work, heat[b])
