"""Valhalla, the Numba fast path.

Same rules, same random draws and same option order as ``reference.py``
(whose docstring lists the draw order and the spec choices); the tests check
both produce identical games.  Rules arrive as values (:func:`to_kernel`), so
changing any rule never recompiles.

State of one game: a bitboard, one ``int64`` array ``st`` of 9 entries
(copied whole by the lookahead).  Ships are interchangeable, so a ship is
its square; single occupancy of 1..35 (V-1.3) makes a set of squares enough.

- ``st[seat]``  bit ``q`` set iff ``seat`` has a ship on square ``q`` (1..35);
- ``st[HOME_N + seat]``, ``st[VAL_N + seat]``, ``st[OFF + seat]``  ships at
  home (0), in Valhalla (36) and borne off (37);
- ``st[REP]``  the seat whose ship on ``dock_square`` is repairing, or -1.

Design metrics (``decisions``, ``options``, ``lead_changes``, ``decisive_turn``): counted as
``reference.py``'s docstring says, in the game loop only (never in the lookahead's imagined replies).  The
lead measure is :func:`lead_measure` (minus the pips still to travel), reported to ``core.lead`` after each
turn, taken once after the setup and then changed by each move.

The policies (``greedy``, ``lookahead``, ``evaluate``, ``determinize``) are ``heuristics.py``, the §7
checks ``invariants.py``.  Why the kernel is shaped so (a bitboard, branch-free move generation, a guide
table for the throw, the lead kept incrementally, the protocol's cost): the measurements are in
``benchmarks/notes/valhalla.md``.
"""

from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index, nth_set_bit, popcount
from toolkit.core.jit import njit, njit_inline, njit_no_nrt
from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.core.wiring import finish_kernel
from toolkit.games.valhalla.policies import EXPOSED, OFF_PROGRESS, REPAIR_PENALTY, WIN_VALUE, throw_groups
from toolkit.games.valhalla.reference import SEAT_FIELDS

# -- rule vector layout (to_kernel) -------------------------------------------------
P_SHIPS, P_SETUP, P_START, P_ROCK, P_DOCK, P_DOCK_ANY_ONE, P_REP_PROTECTED = 0, 1, 2, 3, 4, 5, 6
P_ZONE_LO, P_ZONE_HI, P_PASSAGE, P_BACKWARD, P_BACK_ATTACK, P_BLOCKED_FORFEIT = 7, 8, 9, 10, 11, 12
P_VENTRY, P_GATE, P_UNENTERED, P_EXTRA, P_EXTRA_MASK, P_EXTRA_OPTIONAL = 13, 14, 15, 16, 17, 18
P_MAX_TURNS, P_SAFE_MASK, P_RUN_MASK, P_ZONE_MASK, P_ZONE_WIDTH = 19, 20, 21, 22, 23
P_VALUE_MASK = 24  # bit v + 1 set iff throw value v is in the range of the throw mode (§3, for §7.8)
P_HOME_MONOTONE = 25  # 1 if §7.6 applies: squares 1..5 safe and no throw above 5
P_GUIDE = 26  # ip[P_GUIDE + j]: bits 0-3 the first outcome k with cdf[k] > j / 64 (where a throw's search
# starts), bit 4 (GUIDE_CERTAIN) set when every draw of the bin ends there
GUIDE_BITS = 6
GUIDE_CERTAIN = 16  # flag in a guide entry: the bin lies inside one outcome
P_RUN_TABLE = P_GUIDE + (1 << GUIDE_BITS)  # ip[P_RUN_TABLE + pattern]: protected squares of a zone occupancy pattern
RUN_TABLE_WIDTH = 11  # zones up to 11 squares (the default 25..35) use the table
N_PARAMS = P_RUN_TABLE + (1 << RUN_TABLE_WIDTH)

SETUP = {"empty_board": 0, "alternating_blocks": 1}
START = {"first_natural_one": 0, "random": 1, "seat0": 2}
BACKWARD = {"full_throw": 0, "one_square": 1, "none": 2}
VENTRY = {"exact_or_over": 0, "exact": 1, "direct_off": 2}
GATE = {"every_bear_off": 0, "first_only": 1, "none": 2}
# throw class codes: the value itself, except 1 -> 1 (natural one) or 7 (unnatural one)
CLASS_CODE = {"natural_one": 1, "unnatural_one": 7, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}
POLICY_ID = {"random": 0, "greedy": 1, "lookahead": 2}

# -- state layout ---------------------------------------------------------------------
HOME_N, VAL_N, OFF, REP = 2, 4, 6, 8  # the board's entries (STATE, below, lays out the rest)
TRACK_MASK = ((1 << 36) - 1) & ~1  # squares 1..35
ROW1_MASK = ((1 << 13) - 1) & ~1  # squares 1..12
HOME, VALHALLA, OFF_SQ = 0, 36, 37
HOME_BIT = 37  # in an option set, home is bit 37, after Valhalla (36): canonical order is ascending bits
ATTACK, BACKWARD_FLAG = 1, 2  # move flags (mo[2])
EV_ATTACK, EV_ROCK, EV_RELEASE = 1, 2, 4  # apply_move events
EV_LANDING_SHIFT = 3  # after a rock hit, the square the ship was moved to is in the event bits from here
MAX_THROWS_PER_TURN = 1000  # V-8
INV53 = 1.0 / 9007199254740992.0  # 2**-53, as in core.rng.uniform

# -- result columns (one row per game) --------------------------------------------------
COLUMNS = (("winner", "win_0", "win_1", "score_0", "score_1", "turns", "plies",
            "decisions", "options", "lead_changes", "decisive_turn", "result", "start_seat", "start_throws")
           + tuple(f"{name}_{seat}" for name in SEAT_FIELDS for seat in (0, 1)))
# offsets from the names (toolkit.core.layout): a run written as offset + seat is checked at import
(C_WINNER, C_TURNS, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES, C_DECISIVE_TURN, C_RESULT, C_START_SEAT,
 C_START_THROWS) = (offset(COLUMNS, c) for c in ("winner", "turns", "plies", "decisions", "options", "lead_changes",
                                                 "decisive_turn", "result", "start_seat", "start_throws"))
C_WIN, C_SCORE = seat_run(COLUMNS, "win", 2), seat_run(COLUMNS, "score", 2)
C_THROWS, C_CAPTURES, C_ROCK_HITS, C_RELEASES, C_EXTRA, C_BACKWARD, C_FORFEITS = (
    seat_run(COLUMNS, field, 2) for field in SEAT_FIELDS)
C_TALLY = block(COLUMNS, SEAT_FIELDS, 2)  # SEAT_FIELDS x seat, as STATE's tally
N_COLUMNS = len(COLUMNS)
RESULT_CODES = ("win", "aborted")

# invariant violation codes (check=True): the number of the §7 invariant
INV_OK, INV_SHIPS, INV_OCCUPANCY, INV_ROCK, INV_REPAIRING, INV_OFF_DECREASED = 0, 1, 2, 3, 4, 5
INV_HOME_INCREASED, INV_GATE, INV_THROWS = 6, 7, 8


def to_kernel(rules):
    """Rules -> (int64 parameter vector, throw table arrays, lookahead groups).

    The throw table lists the 16 stick outcomes in order k (stick i rune-up iff
    bit i of k), with cumulative float probabilities summed in that order,
    exactly as ``reference.Sticks`` does.
    """
    from toolkit.games.valhalla import odds

    ip = np.zeros(N_PARAMS, np.int64)
    ip[P_SHIPS] = rules.ships_per_player
    ip[P_SETUP] = SETUP[rules.setup]
    ip[P_START] = START[rules.start_player_rule]
    ip[P_ROCK] = rules.rock_square
    ip[P_DOCK] = rules.dock_square
    ip[P_DOCK_ANY_ONE] = rules.dock_release == "any_one"
    ip[P_REP_PROTECTED] = rules.repairing_ship_protected
    ip[P_ZONE_LO], ip[P_ZONE_HI] = rules.blockade_zone[0], min(rules.blockade_zone[1], 35)
    ip[P_PASSAGE] = rules.blockade_blocks_passage
    ip[P_BACKWARD] = BACKWARD[rules.backward_rule]
    ip[P_BACK_ATTACK] = rules.backward_attacks_allowed
    ip[P_BLOCKED_FORFEIT] = rules.blocked_entry_forfeits_turn
    ip[P_VENTRY] = VENTRY[rules.valhalla_entry]
    ip[P_GATE] = GATE[rules.bear_off_gate]
    ip[P_UNENTERED] = rules.unentered_count_as_row1
    ip[P_EXTRA] = rules.extra_throw_enabled
    ip[P_EXTRA_MASK] = sum(1 << CLASS_CODE[c] for c in rules.extra_throw_values)
    ip[P_EXTRA_OPTIONAL] = rules.extra_throw_optional
    ip[P_MAX_TURNS] = rules.max_turns
    ip[P_SAFE_MASK] = sum(1 << s for s in rules.safe_squares)
    ip[P_RUN_MASK] = sum(1 << n for n in rules.protected_run_lengths if n < 63)
    # §3: runes values are S + T + G +/- H (0..4, Hagalaz alone -> hagalaz_alone_value), simplified 1..4
    values = {1, 2, 3, 4, rules.zero_runes_value}
    if rules.throw_mode == "runes":
        values |= {0, rules.hagalaz_alone_value}
    ip[P_VALUE_MASK] = sum(1 << (v + 1) for v in values)
    ip[P_HOME_MONOTONE] = {1, 2, 3, 4, 5} <= rules.safe_squares and rules.zero_runes_value <= 5
    ip[P_ZONE_MASK] = sum(1 << q for q in range(rules.blockade_zone[0], min(rules.blockade_zone[1], 35) + 1))
    width = min(rules.blockade_zone[1], 35) - rules.blockade_zone[0] + 1
    ip[P_ZONE_WIDTH] = width
    if width <= RUN_TABLE_WIDTH:
        for pattern in range(1 << width):
            protected, q = 0, 0
            while q < width:
                if pattern >> q & 1:
                    length = 0
                    while q + length < width and pattern >> (q + length) & 1:
                        length += 1
                    if length in rules.protected_run_lengths:
                        protected |= ((1 << length) - 1) << q
                    q += length
                else:
                    q += 1
            ip[P_RUN_TABLE + pattern] = protected

    cdf = np.zeros(16)
    tvalue = np.zeros(16, np.int64)
    tnat = np.zeros(16, np.int64)
    cumulative = 0.0
    for k, (prob, _, value, natural_one) in enumerate(odds.float_outcomes(rules)):
        cumulative += prob
        cdf[k], tvalue[k], tnat[k] = cumulative, value, natural_one
    for j in range(1 << GUIDE_BITS):
        start = 0
        while start < 15 and cdf[start] <= j / (1 << GUIDE_BITS):
            start += 1
        # every u of the bin stops the search at ``start``: no comparison needed.  A draw is
        # u = m * 2**-53 (m < 2**53), so the bin's largest u is (j+1)/64 - 2**-53 (an exact double)
        certain = start == 15 or cdf[start] > (j + 1) / (1 << GUIDE_BITS) - 2.0 ** -53
        ip[P_GUIDE + j] = start | (GUIDE_CERTAIN if certain else 0)
    # the lookahead's throw distribution is a policy parameter: the same list as the reference policy's
    groups = throw_groups(rules)
    gprob = np.array([prob for prob, _ in groups])
    gvalue = np.array([throw.value for _, throw in groups], np.int64)
    gnat = np.array([int(throw.natural_one) for _, throw in groups], np.int64)
    return ip, cdf, tvalue, tnat, gprob, gvalue, gnat


def policy_ids(policies) -> np.ndarray:
    """Policy names (checked by ``GameSpec.check_policies``) -> kernel ids."""
    return np.array([POLICY_ID[p] for p in policies], np.int64)


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
# the next decision point), options, apply, choose (greedy and lookahead; random is the driver's),
# check_step / check_end (§7) and record.  ``st`` is the board above followed by where the game stands.

STATE = Layout(("ships", 2), ("home", 2), ("valhalla", 2), ("off", 2), ("repairing", 1),  # the board: BOARD
               ("seat", 1),  # the seat whose turn it is
               ("phase", 1),  # PH_THROW: a throw is due; PH_MOVE: DP-1; PH_EXTRA: DP-2; PH_OVER
               ("value", 1), ("natural", 1), ("distance", 1), ("moves", 1),  # the last throw and its option set
               ("turns", 1), ("turn_throws", 1), ("plies", 1), ("offered", 1), ("winner", 1), ("aborted", 1),
               ("start", 1), ("start_throws", 1), ("bad_throw", 1),  # bad_throw: §7.8, a value outside the mode
               ("tally", len(SEAT_FIELDS) * 2),  # SEAT_FIELDS x seat, as the result columns
               ("moves_made", 2), ("lead", LEAD_FIELDS), ("lead_values", 2))
BOARD = STATE.seat  # the board's entries (all the lookahead copies)
assert (STATE.home, STATE.valhalla, STATE.off, STATE.repairing) == (HOME_N, VAL_N, OFF, REP)
STATE_SIZE = STATE.size
S_SEAT, S_PHASE, S_VALUE, S_NATURAL, S_DISTANCE, S_MOVES = (STATE.seat, STATE.phase, STATE.value, STATE.natural,
                                                             STATE.distance, STATE.moves)
S_TURNS, S_TURN_THROWS, S_PLIES, S_OFFERED, S_WINNER, S_ABORTED = (STATE.turns, STATE.turn_throws, STATE.plies,
                                                                   STATE.offered, STATE.winner, STATE.aborted)
S_START, S_START_THROWS, S_BAD_THROW, S_TALLY, S_MOVES_MADE = (STATE.start, STATE.start_throws, STATE.bad_throw,
                                                               STATE.tally, STATE.moves_made)
S_LEAD, S_LEAD_VALUES = STATE.lead, STATE.lead_values
T_THROWS, T_CAPTURES, T_ROCK_HITS, T_RELEASES, T_EXTRA, T_BACKWARD, T_FORFEITS = (
    S_TALLY + 2 * k for k in range(len(SEAT_FIELDS)))
PH_THROW, PH_MOVE, PH_EXTRA, PH_OVER = 0, 1, 2, 3  # PH_MOVE and PH_EXTRA are the §5 numbers DP-1, DP-2
THROW_AGAIN, DECLINE = 0, 1  # DP-2's options, in the spec's order
MAX_OPTIONS = 8  # one per origin: at most 6 ships, Valhalla, home
SCRATCH_SIZE = 2 * 24 + 2 * BOARD  # the policies': two move lists (3 x 8) and two boards


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


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (policy 1) or ``lookahead`` (2): the index of the chosen option (``random`` is the driver's)."""
    ip, gprob, gvalue, gnat = params[0], params[4], params[5], params[6]
    mo = scratch[:24].reshape((3, 8))
    mo2 = scratch[24:48].reshape((3, 8))
    after = scratch[48:48 + BOARD]
    other = scratch[48 + BOARD:48 + 2 * BOARD]
    if st[S_PHASE] == PH_EXTRA:  # DP-2: greedy always throws again
        if policy == 1 or lookahead_extra(ip, st, seat, gprob, gvalue, gnat, mo2, other):
            return 0
        return 1
    for i in range(n):
        mo[0, i], mo[1, i], mo[2, i] = move_of(ip, st, seat, opts[i])
    if policy == 1:
        return greedy_choice(ip, st, seat, mo, n, after)
    return lookahead_choice(ip, st, seat, mo, n, gprob, gvalue, gnat, mo2, after, other)


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


# the policies and the §7 checks, in modules of their own over the names above
from toolkit.games.valhalla.heuristics import (determinize, evaluate, greedy_choice,  # noqa: E402
                                               lookahead_choice, lookahead_extra)
from toolkit.games.valhalla.invariants import check_end, check_state, check_step  # noqa: E402

RS_SIZE = 3  # the streams: chance, then one per seat
# The mcts policy's default search (core.mcts.game_defaults): greedy rollouts cut off after 48 plies, then at
# the searching seat's next turn, a graded reward against zero, the root swept over shared throws; how each
# setting was chosen, with the games it won: benchmarks/notes/valhalla.md
MCTS_ROLLOUT, MCTS_CUTOFF, MCTS_AGAINST_ROOT = "greedy", 48, False
MCTS_CUTOFF_AT_TURN, MCTS_REWARD_SCALE = True, 30.0
MCTS_ROOT_SWEEP, MCTS_EXPAND_AFTER = True, 1000
# the rollouts inline advance and apply (core.mcts.make_mcts): 81,000 random-rollout iterations/s against
# 40,000 with them called (benchmarks/mcts.py), for about 20 s more of the search's compile
MCTS_INLINE_ROLLOUT = True
# the plain copy inlines advance and apply (core.driver.make_play_game): called, it measured 30% slower
# with random seats (21,089 games/s against 30,378 inlined, one thread) and 11% with greedy ones
INLINE_STEPS = True
# returns, advance_called, apply_called, mcts, play_game, WORK_SIZE and play_many (core.wiring)
# every option code is below this (the OpenSpiel bridge's number of actions): DP-1 an origin's bit 1..37,
# DP-2 THROW_AGAIN / DECLINE
ACTION_BOUND = 38
finish_kernel(globals())

