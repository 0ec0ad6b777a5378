"""Valhalla's rules in Numba: the throw, the move generation (protection, the gate, the passage), a move
carried out, the lead measure and the decision-point protocol (``start``, ``advance``, ``kind``,
``options``, ``apply``, ``record``); the same rules, draws and option order as ``reference.py`` (whose
docstring lists the draw order and the spec choices).

Design metrics (``decisions``, ``options``, ``lead_changes``, ``decisive_turn``): counted as
``reference.py``'s docstring says, in the game loop only (never in the lookahead's imagined replies).  The
lead measure is :func:`lead_measure` (minus the pips still to travel), reported to ``core.lead`` after each
turn, taken once after the setup and then changed by each move.  Why the rules are shaped so (a bitboard,
branch-free move generation, a guide table for the throw, the lead kept incrementally, the protocol's
cost): the measurements are in ``benchmarks/notes/valhalla.md``.

Over ``layout.py`` (layout <- mechanics <- heuristics, invariants <- kernel).
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index, nth_set_bit, popcount
from toolkit.core.jit import njit, njit_inline, njit_no_nrt
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.games.valhalla.layout import (
    ATTACK, BACKWARD_FLAG, C_DECISIONS, C_DECISIVE_TURN, C_LEAD_CHANGES, C_OPTIONS, C_PLIES, C_RESULT, C_SCORE,
    C_START_SEAT, C_START_THROWS, C_TALLY, C_TURNS, C_WIN, C_WINNER, DECLINE, EV_ATTACK, EV_LANDING_SHIFT,
    EV_RELEASE, EV_ROCK, GUIDE_BITS, GUIDE_CERTAIN, HOME, HOME_BIT, HOME_N, N_COLUMNS, OFF, OFF_SQ, PH_EXTRA,
    PH_MOVE, PH_OVER, PH_THROW, P_BACKWARD, P_BACK_ATTACK, P_BLOCKED_FORFEIT, P_DOCK, P_DOCK_ANY_ONE, P_EXTRA,
    P_EXTRA_MASK, P_EXTRA_OPTIONAL, P_GATE, P_GUIDE, P_MAX_TURNS, P_PASSAGE, P_REP_PROTECTED, P_ROCK, P_RUN_MASK,
    P_RUN_TABLE, P_SAFE_MASK, P_SETUP, P_SHIPS, P_START, P_UNENTERED, P_VALUE_MASK, P_VENTRY, P_ZONE_LO,
    P_ZONE_MASK, P_ZONE_WIDTH, REP, ROW1_MASK, RUN_TABLE_WIDTH, SEAT_FIELDS, STATE_SIZE, S_ABORTED, S_BAD_THROW,
    S_DISTANCE, S_LEAD, S_LEAD_VALUES, S_MOVES, S_MOVES_MADE, S_NATURAL, S_OFFERED, S_PHASE, S_PLIES, S_SEAT,
    S_START, S_START_THROWS, S_TALLY, S_TURNS, S_TURN_THROWS, S_VALUE, S_WINNER, THROW_AGAIN, TRACK_MASK,
    T_BACKWARD, T_CAPTURES, T_EXTRA, T_FORFEITS, T_RELEASES, T_ROCK_HITS, T_THROWS, VALHALLA, VAL_N,
)

MAX_THROWS_PER_TURN = 1000  # V-8
INV53 = 1.0 / 9007199254740992.0  # 2**-53, as in core.rng.uniform


# ------------------------------------------------------------------------ throws


@njit_inline
def throw_index(ip, rs, cdf):
    """One throw from the chance stream: the first outcome k with u < cdf[k], as the reference.

    The top bits of the draw pick where the search starts (a guide table, the
    "indexed search" of Chen & Asau): no outcome before ``guide[j]`` can be the
    answer for any u >= j / 64, so the result equals the plain linear search.
    At the default stick probability every outcome has 1/16 and the start is
    already the answer for the whole bin: the entry says so (``GUIDE_CERTAIN``)
    and no float is compared at all.  The 16-comparison count it replaced
    was one long dependency chain: 38% of all kernel time (perf samples)."""
    x = rng.next_u64(rs, 0)
    g = ip[P_GUIDE + np.int64(x >> np.uint64(64 - GUIDE_BITS))]
    k = g & 15
    if g < GUIDE_CERTAIN:
        u = float(x >> np.uint64(11)) * INV53
        while k < 15 and u >= cdf[k]:
            k += 1
    return k


# ------------------------------------------------------------------------ protection, gate


@njit_inline
def gate_bit(ip, st, seat):
    """V-7: 1 if ``seat`` may bear off now, else 0 (branch-free: asked on most late throws)."""
    mode = ip[P_GATE]
    closed = ((st[seat] & ROW1_MASK) != 0) | ((ip[P_UNENTERED] != 0) & (st[HOME_N + seat] > 0))
    return np.int64((mode == 2) | ((mode == 1) & (st[OFF + seat] > 0)) | (not closed))


@njit_inline
def run_protected(ip, st, owner):
    """V-6.4c: squares of ``owner``'s ships in a protected blockade run, as bits.

    Zones up to ``RUN_TABLE_WIDTH`` squares read the answer from a table made by
    :func:`to_kernel`; wider zones walk the runs."""
    x = st[owner]
    if ip[P_ZONE_WIDTH] <= RUN_TABLE_WIDTH:
        low = ip[P_ZONE_LO]
        pattern = (x >> low) & ((np.int64(1) << ip[P_ZONE_WIDTH]) - 1)
        return ip[P_RUN_TABLE + pattern] << low
    mask = np.int64(0)
    runs = x & ip[P_ZONE_MASK]
    while runs:
        lo = lowest_bit_index(runs)
        length = lowest_bit_index(~(runs >> lo))
        block = ((np.int64(1) << length) - 1) << lo
        if (ip[P_RUN_MASK] >> length) & 1:
            mask |= block
        runs &= ~block
    return mask


@njit_inline
def protected_mask(ip, st, owner):
    """V-6.4: squares of ``owner``'s ships that cannot be attacked, as bits."""
    mask = (st[owner] & ip[P_SAFE_MASK]) | run_protected(ip, st, owner)
    if st[REP] == owner and ip[P_REP_PROTECTED]:
        mask |= np.int64(1) << ip[P_DOCK]
    return mask


@njit
def passage_blocked(ip, st, seat, low, high):
    """V-5.8: an opponent's protected run strictly between ``low`` and ``high``."""
    top = high if high < VALHALLA else VALHALLA
    between = ((np.int64(1) << top) - 1) & ~((np.int64(2) << low) - 1)
    return (run_protected(ip, st, 1 - seat) & between) != 0


@njit_inline
def _targets_ok(ip, st, seat, targets, backward):
    """V-5.7: the subset of ``targets`` (bits in 1..35) where a move may land."""
    opponent = st[1 - seat]
    ok = targets & ~(st[seat] | opponent)
    if backward and not ip[P_BACK_ATTACK]:
        return ok
    return ok | (targets & opponent & ~protected_mask(ip, st, 1 - seat))


# ------------------------------------------------------------------------ move generation


@njit_inline
def _forward_target(ip, st, seat, p, value):
    """Target of the forward move from track square ``p`` (V-5.2, V-5.3)."""
    if p == ip[P_DOCK] and st[REP] == seat:
        return ip[P_DOCK] + 1
    t = p + value
    overshoot = VALHALLA + (ip[P_VENTRY] != 0)  # exact_or_over -> 36, direct_off -> 37
    return t if t <= VALHALLA else overshoot


@njit_inline
def option_set(ip, st, seat, value, natural_one):
    """The DP-1 options of a throw (V-4.2), as one set of bits.

    Returns ``(options, distance)``: ``options`` has bit ``q`` set for each
    track square 1..35 whose ship has a legal move, bit 36 for Valhalla (its
    move is 36 -> 37) and bit ``HOME_BIT`` (37) for entering from home, so
    ascending bits are exactly the canonical order of §5; ``distance`` > 0
    when the moves are backward.  Track origins are found all at once: shift
    the ship set by the throw and mask the legal landings.
    """
    if value == 0:
        return 0, 0
    home = st[HOME_N + seat]
    if ip[P_BLOCKED_FORFEIT] and home > 0 and 1 <= value <= 5 and ((st[0] | st[1]) >> value) & 1:
        return 0, 0
    dock = ip[P_DOCK]
    repairing = st[REP] == seat
    movers = st[seat] & ~(np.int64(1) << dock) if repairing else st[seat]
    if value > 0:
        v = value
        below36 = (np.int64(1) << (36 - v)) - 1  # origins with p + v <= 35
        landable = _targets_ok(ip, st, seat, TRACK_MASK, False)
        origins = (((movers & below36) << v) & landable) >> v
        high = movers & ~below36  # origins with p + v >= 36
        gate = gate_bit(ip, st, seat)
        mode = ip[P_VENTRY]
        if mode == 0:
            origins |= high
        else:
            exact = np.int64(1) << (36 - v)
            origins |= high & exact
            if mode == 2:
                origins |= (high & ~exact) * gate
        if repairing:
            release = value == 1 if ip[P_DOCK_ANY_ONE] else natural_one
            release_target = np.int64(1) << (dock + 1)
            if release and _targets_ok(ip, st, seat, release_target, False):
                origins |= np.int64(1) << dock
        origins |= (gate * (st[VAL_N + seat] > 0)) << VALHALLA
        origins |= (((landable >> v) & 1) * (home > 0)) << HOME_BIT
        if ip[P_PASSAGE]:
            x = origins & TRACK_MASK
            while x:
                p = lowest_bit_index(x)
                x &= x - 1
                if passage_blocked(ip, st, seat, p, _forward_target(ip, st, seat, p, v)):
                    origins &= ~(np.int64(1) << p)
            if (origins >> HOME_BIT) & 1 and passage_blocked(ip, st, seat, 0, v):
                origins &= ~(np.int64(1) << HOME_BIT)
        if origins or ip[P_BACKWARD] == 2:
            return origins, 0
        distance = v if ip[P_BACKWARD] == 0 else 1
    else:
        distance = 1  # hagalaz_alone_value = -1: one square back
    back = movers & ~((np.int64(2) << distance) - 1)  # p - distance >= 1
    origins = _targets_ok(ip, st, seat, back >> distance, True) << distance
    if ip[P_PASSAGE]:
        x = origins
        while x:
            p = lowest_bit_index(x)
            x &= x - 1
            if passage_blocked(ip, st, seat, p - distance, p):
                origins &= ~(np.int64(1) << p)
    return origins, distance


@njit_inline
def option_at(ip, st, seat, value, options, distance, i):
    """``(origin, target, flags)`` of option ``i`` (the i-th lowest bit of ``options``)."""
    b = nth_set_bit(options, i)
    if distance > 0:
        t = b - distance
        return b, t, BACKWARD_FLAG | ((st[1 - seat] >> t) & 1)
    forward = _forward_target(ip, st, seat, b, value)
    t = value if b == HOME_BIT else (OFF_SQ if b == VALHALLA else forward)
    return (HOME if b == HOME_BIT else b), t, (st[1 - seat] >> t) & 1


@njit
def legal_moves(ip, st, seat, value, natural_one, mo):
    """All DP-1 options into ``mo[0..2, :n]`` = origin, target, flags; returns n."""
    options, distance = option_set(ip, st, seat, value, natural_one)
    n = popcount(options)
    for i in range(n):
        mo[0, i], mo[1, i], mo[2, i] = option_at(ip, st, seat, value, options, distance, i)
    return n


# ------------------------------------------------------------------------ applying a move


@njit_inline
def apply_move(ip, st, seat, origin, target, flags):
    """Carry out a legal move: swap on attack (V-5.7), rock (V-6.3). Returns event bits
    (after a rock hit, the square the ship went to, shifted by ``EV_LANDING_SHIFT``)."""
    events = 0
    opponent = 1 - seat
    if origin == HOME:
        st[HOME_N + seat] -= 1
    elif origin == VALHALLA:
        st[VAL_N + seat] -= 1
    else:
        st[seat] ^= np.int64(1) << origin
        if origin == ip[P_DOCK] and st[REP] == seat:
            events |= EV_RELEASE
            st[REP] = -1
    attack = flags & ATTACK  # 0 or 1; branch-free: attacks are too random to predict
    events |= attack
    st[opponent] ^= (np.int64(1) << target) * attack
    if target == ip[P_DOCK] and st[REP] == opponent and attack:  # rare test first: attacks are random
        st[REP] = -1
    on_track = origin != HOME
    st[HOME_N + opponent] += attack * (1 - on_track)
    st[opponent] |= (np.int64(1) << origin) * (attack * on_track)
    if target == OFF_SQ:
        st[OFF + seat] += 1
    elif target == VALHALLA:
        st[VAL_N + seat] += 1
    elif target == ip[P_ROCK]:
        events |= EV_ROCK
        occupied = st[0] | st[1]
        dock = ip[P_DOCK]
        if (occupied >> dock) & 1 == 0:
            landing = dock
            st[REP] = seat
        elif occupied & 2 == 0:
            landing = 1
        else:
            free = ~occupied & TRACK_MASK & ~(np.int64(1) << target)
            landing = lowest_bit_index(free)
        st[seat] |= np.int64(1) << landing
        events |= landing << EV_LANDING_SHIFT
    else:
        st[seat] |= np.int64(1) << target
    return events


@njit_inline
def lead_measure(ip, st, seat):
    """Design metrics: minus the pips ``seat`` still has to travel (``reference.lead_measure``).

    A ship on square q has 37 - q to go, one at home 37, in Valhalla 1, borne off 0.
    :func:`play_game` takes it after the setup and the opening, then adds each move's change."""
    x = st[seat]
    travelled = VALHALLA * st[VAL_N + seat] + OFF_SQ * st[OFF + seat]
    while x:
        travelled += lowest_bit_index(x)
        x &= x - 1
    return travelled - OFF_SQ * ip[P_SHIPS]


# ------------------------------------------------------------------------ the protocol (one game)
#
# The decision-point protocol of docs/architecture.md: start, advance (throws and automatic steps up to
# the next decision point), options, apply and record (choose is heuristics.py's, check_step / check_end
# invariants.py's).  ``st`` is laid out by layout.STATE: the board, then where the game stands.


@njit_no_nrt
def start(params, st, rs):
    """V-2, V-3: the board, the start player (throws from the chance stream) and turn 1's automatic
    opening move; then a throw is due for the other seat."""
    ip, cdf, tnat = params[0], params[1], params[3]
    for q in range(STATE_SIZE):
        st[q] = 0
    lead_reset(st[S_LEAD:S_LEAD + LEAD_FIELDS])
    lead_values = st[S_LEAD_VALUES:S_LEAD_VALUES + 2]
    st[HOME_N] = st[HOME_N + 1] = ip[P_SHIPS]
    st[REP] = -1
    st[S_WINNER] = -1
    start_rule = ip[P_START]
    if start_rule == 0:  # V-3: the first natural one starts
        seat = 0
        while tnat[throw_index(ip, rs, cdf)] != 1:
            st[S_START_THROWS] += 1
            seat = 1 - seat
        first = seat
    elif start_rule == 1:
        first = rng.below(rs, 0, 2)
    else:
        first = 0
    st[S_START] = first
    if ip[P_SETUP] == 1:  # the start player is black, on 7..12
        st[HOME_N] = 0
        st[HOME_N + 1] = 0
        st[first] = 0b1111110000000
        st[1 - first] = 0b1111110
    if start_rule == 0 or ip[P_SETUP] == 1:  # turn 1: the automatic opening move
        st[S_TURNS] = 1
        if start_rule == 0:
            st[T_THROWS + first] += 1
            st[S_MOVES_MADE + first] += 1
        if ip[P_SETUP] == 0:
            apply_move(ip, st, first, HOME, 1, 0)
        else:
            apply_move(ip, st, first, 12, 13, 0)
        lead_values[0] = lead_measure(ip, st, 0)
        lead_values[1] = lead_measure(ip, st, 1)
        lead_update(st[S_LEAD:S_LEAD + LEAD_FIELDS], lead_values, 2, 1)
        first = 1 - first
    st[S_SEAT] = first
    # the lead measures, from here on kept up to date move by move (module docstring)
    lead_values[0] = lead_measure(ip, st, 0)
    lead_values[1] = lead_measure(ip, st, 1)
    st[S_PHASE] = PH_THROW


@njit_inline
def _seat(st):
    """The seat to move, ``st[S_SEAT]``, read as ``& 1`` so that LLVM knows it is 0 or 1.

    The seat indexes the board and the tallies (``st[seat]``, ``st[T_THROWS + seat]`` ...).  Read
    plainly, each such index is compiled with Numba's negative-index wraparound, and LLVM must
    assume that a store through it may change any other entry of ``st``, the protocol's fields
    included, so it loads them again after every such store.  The mask removes both: 20% of the
    protocol kernel's instructions (module docstring, "On the protocol")."""
    return st[S_SEAT] & 1


@njit_inline
def _end_turn(st, game_over):
    """The turn is over (§6): the lead is reported; then the game ends (``game_over``: won, or aborted
    by V-8) or the other seat throws.  The caller knows which, so the turn's end reads neither field."""
    lead_update(st[S_LEAD:S_LEAD + LEAD_FIELDS], st[S_LEAD_VALUES:S_LEAD_VALUES + 2], 2, st[S_TURNS])
    if game_over:
        st[S_PHASE] = PH_OVER
    else:
        st[S_SEAT] = 1 - _seat(st)
        st[S_TURN_THROWS] = 0
        st[S_PHASE] = PH_THROW


@njit_inline
def _extra_throw(st):
    """Another throw in this turn (V-4.3), unless the turn has thrown 1,000 times (V-8: aborted)."""
    if st[S_TURN_THROWS] >= MAX_THROWS_PER_TURN:
        st[S_ABORTED] = 1
        _end_turn(st, True)
    else:
        st[T_EXTRA + _seat(st)] += 1
        st[S_PHASE] = PH_THROW


@njit_inline
def _earns_extra(ip, st):
    """V-4.3: the throw just made earns another (its class code is in ``extra_throw_values``)."""
    value = st[S_VALUE]
    code = 7 if value == 1 and st[S_NATURAL] == 0 else value
    return code >= 1 and (ip[P_EXTRA_MASK] >> code) & 1 == 1


@njit_inline
def _after_throw(ip, st):
    """After a throw's move or forfeit: an extra throw (V-4.3; DP-2 when optional) or the turn's end."""
    if ip[P_EXTRA] != 1 or not _earns_extra(ip, st):  # the rule first: off, no throw's class is looked at
        _end_turn(st, False)
    elif ip[P_EXTRA_OPTIONAL] == 1:  # DP-2
        st[S_PLIES] += 1
        st[S_OFFERED] += 2
        st[S_PHASE] = PH_EXTRA
    else:
        _extra_throw(st)


@njit_inline
def advance(params, st, rs):
    """Throws (V-4) until a decision point: returns the seat to decide, or -1 when the game is over."""
    ip, cdf, tvalue, tnat = params[0], params[1], params[2], params[3]
    while True:
        phase = st[S_PHASE]
        if phase != PH_THROW:
            return -1 if phase == PH_OVER else _seat(st)
        seat = _seat(st)
        if st[S_TURN_THROWS] == 0:  # a new turn (V-8: max_turns ends the game between turns)
            if st[S_TURNS] >= ip[P_MAX_TURNS]:
                st[S_ABORTED] = 1
                st[S_PHASE] = PH_OVER
                return -1
            st[S_TURNS] += 1
        k = throw_index(ip, rs, cdf)
        value = tvalue[k]
        natural_one = tnat[k] == 1
        st[S_TURN_THROWS] += 1
        st[T_THROWS + seat] += 1
        st[S_BAD_THROW] |= ((ip[P_VALUE_MASK] >> (value + 1)) & 1) ^ 1
        st[S_VALUE] = value
        st[S_NATURAL] = natural_one
        moves, distance = option_set(ip, st, seat, value, natural_one)
        if moves:
            st[S_MOVES] = moves
            st[S_DISTANCE] = distance
            st[S_PLIES] += 1
            st[S_OFFERED] += popcount(moves)
            st[S_PHASE] = PH_MOVE
            return seat
        st[T_FORFEITS + seat] += 1
        _after_throw(ip, st)


@njit_inline
def kind(params, st):
    """The §5 decision kind of the current decision point: 1 (a move) or 2 (an optional extra throw)."""
    return st[S_PHASE]


@njit_inline
def options(params, st, out):
    """The options in canonical order (§5) into ``out``; returns their number.  DP-1: one per origin,
    as its bit (1..35 the track square, 36 Valhalla, 37 home; ascending); DP-2: THROW_AGAIN, DECLINE."""
    if st[S_PHASE] == PH_EXTRA:
        out[0] = THROW_AGAIN
        out[1] = DECLINE
        return 2
    moves = st[S_MOVES]
    n = 0
    while moves:
        out[n] = lowest_bit_index(moves)
        moves &= moves - 1
        n += 1
    return n


@njit_inline
def move_of(ip, st, seat, origin_bit):
    """``(origin, target, flags)`` of the DP-1 option ``origin_bit`` of the current throw."""
    distance = st[S_DISTANCE]
    if distance > 0:
        t = origin_bit - distance
        return origin_bit, t, BACKWARD_FLAG | ((st[1 - seat] >> t) & 1)
    value = st[S_VALUE]
    if origin_bit == HOME_BIT:
        return HOME, value, (st[1 - seat] >> value) & 1
    t = OFF_SQ if origin_bit == VALHALLA else _forward_target(ip, st, seat, origin_bit, value)
    return origin_bit, t, (st[1 - seat] >> t) & 1


@njit_inline
def apply(params, st, rs, option):
    """Carry out ``option`` of the current decision point."""
    ip = params[0]
    seat = _seat(st)
    if st[S_PHASE] == PH_EXTRA:
        if option == THROW_AGAIN:
            _extra_throw(st)
        else:
            _end_turn(st, False)
        return
    origin, target, flags = move_of(ip, st, seat, option)
    st[S_MOVES_MADE + seat] += 1
    events = apply_move(ip, st, seat, origin, target, flags)
    # the lead measures (a ship's measure is its square - 37, home 0): the mover goes from origin to
    # target (or, after a rock hit, where the rock sent it), an attacked ship from target to origin
    landing = events >> EV_LANDING_SHIFT if events & EV_ROCK else target
    st[S_LEAD_VALUES + seat] += landing - origin
    st[S_LEAD_VALUES + 1 - seat] += (origin - target) * (flags & ATTACK)
    st[T_CAPTURES + seat] += events & EV_ATTACK
    st[T_ROCK_HITS + seat] += (events & EV_ROCK) >> 1
    st[T_RELEASES + seat] += (events & EV_RELEASE) >> 2
    st[T_BACKWARD + seat] += (flags & BACKWARD_FLAG) >> 1
    if st[OFF + seat] == ip[P_SHIPS]:
        st[S_WINNER] = seat
        _end_turn(st, True)
    else:
        _after_throw(ip, st)


@njit_no_nrt
def record(params, st, row):
    """The §6 record of a finished game into ``row`` (COLUMNS)."""
    for c in range(N_COLUMNS):
        row[c] = 0
    winner = st[S_WINNER]
    turns = st[S_TURNS]
    row[C_WINNER] = winner
    if winner >= 0:
        row[C_WIN + winner] = 1
    row[C_SCORE] = st[OFF]
    row[C_SCORE + 1] = st[OFF + 1]
    row[C_TURNS] = turns
    row[C_PLIES] = st[S_PLIES]
    row[C_DECISIONS] = st[S_PLIES]  # every §5 decision point is a ply (reference docstring)
    row[C_OPTIONS] = st[S_OFFERED]
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(st[S_LEAD:S_LEAD + LEAD_FIELDS], winner, turns)
    row[C_RESULT] = st[S_ABORTED]
    row[C_START_SEAT] = st[S_START]
    row[C_START_THROWS] = st[S_START_THROWS]
    for k in range(2 * len(SEAT_FIELDS)):
        row[C_TALLY + k] = st[S_TALLY + k]


@njit_inline
def count(params, st):
    return 2 if st[S_PHASE] == PH_EXTRA else popcount(st[S_MOVES])


@njit_inline
def nth(params, st, i):
    return i if st[S_PHASE] == PH_EXTRA else nth_set_bit(st[S_MOVES], i)
