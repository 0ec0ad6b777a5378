"""Herrlof, the Numba fast path.

Same rules, same random draws and same option order as ``reference.py``
(whose docstring lists the draw order and the spec choices); the tests check
both produce identical games.  Rules arrive as values (:func:`to_kernel`), so
changing a rule never recompiles.  The round is the same state machine as in
the reference: :func:`next_decision` runs the automatic steps and lists the
options of the next decision point, :func:`apply_decision` applies one.

State of one game: one ``int64`` array ``st`` (layout below).  A hand is a
bit set of its suited faces (face ``f`` = bit ``f``; every suited face is
unique) plus counts of Valknut and Hagalaz cards; the distinct faces of a
hand, in canonical order, are its set bits in ascending order with the V bit
(``suited``) and the N bit (``suited + 1``) on top.  The ``lookahead``
policy copies the first ``COPY_SIZE`` entries (everything but the knowledge
and the discard tally) for each rollout.

Design metrics (the columns ``decisions``, ``options``, ``lead_changes`` and
``decisive_turn``; their choices are explained in ``reference.py``'s
docstring): :func:`play_game` counts each decision point it hands to a
policy and its ``n`` options (the lookahead's rollouts run
``next_decision`` / ``apply_decision`` on copies and are not counted), and
reports :func:`lead_measure` (each seat's score of the hands already scored;
the bids, hence the points of the hand in progress, are secret) to
``toolkit.core.lead`` after every trick: at once for a trick that is not
the hand's last, after the scoring for the last one.  The lead scratch and
the measure's values live in the work array (``W_LEAD``, ``W_VALUES``).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index, popcount
from toolkit.core.driver import make_play_many
from toolkit.core.jit import njit_inline, njit_no_nrt, njit_parallel
from toolkit.core.layout import block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.games.herrlof.policies import BID_WINDOW, parse_policy
from toolkit.games.herrlof.reference import ROUND_LOG_FIELDS, SEAT_FIELDS

# -- rule vector layout (to_kernel) --------------------------------------------------
P_SUITS, P_RANK, P_NV, P_NN, P_HAND, P_FIRST_DEALER, P_REDRAW, P_TRUMP_ANY, P_SPECIALS_PLAYABLE = range(9)
P_DH_SECOND, P_DV_CHANGE, P_DESTROYED_LEADER, P_V_OVERRIDES, P_E1, P_E3, P_THREE_WON, P_E6, P_E9 = range(9, 18)
P_PPT, P_EXACT, P_CONS, P_CONS_MASK, P_CONS_EXACT, P_TARGET, P_MAX_ROUNDS, P_TIEBREAK_DRAW = range(18, 26)
P_DECK, P_SUITED, P_POINTS_LO, P_POINTS_HI, P_SCORES_MONOTONE = range(26, 31)
P_SUIT_MASK = 32  # ip[P_SUIT_MASK + s]: the bits of suit s
P_RANK_MASK = 36  # ip[P_RANK_MASK + r]: the bits of rank r (r = 1..15)
N_PARAMS = 52
EFFECT = {"optional": 0, "mandatory": 1, "off": 2}
OPTIONAL, MANDATORY, OFF = 0, 1, 2
DESTROYED_LEADER = {"same_leader": 0, "valknut_player": 1, "other_player": 2}
FIRST_DEALER = {"random": 0, "seat0": 1, "seat1": 2}
POLICY_ID = {"random": 0, "greedy": 1, "lookahead": 2}

# -- decision points and phases (codes shared with reference.DP_*) -----------------------
DP_BID, DP_CARD, DP_TRADE, DP_TRADE_DISCARD, DP_STEAL, DP_SWAP, DP_GIVE = 1, 2, 3, 4, 5, 6, 7
YES, DECLINE = 1, 0  # option values of DP-3/5/6, listed YES first (§5)
PH_BID, PH_LEAD, PH_FOLLOW, PH_THREE, PH_THREE_DISCARD, PH_ONE, PH_ONE_DECIDE = 0, 1, 2, 3, 4, 5, 6
PH_SIX, PH_SIX_DECIDE, PH_GIVE, PH_NEXT_LEADER, PH_ROUND_END = 7, 8, 9, 10, 11
DESTROYED = -1

# -- state layout ------------------------------------------------------------------------
MAX_FACES = 64  # suited faces (<= 60) + V + N
MAX_DECK = 84  # 4 * 15 + 12 + 12
MAX_TRICKS = 42  # hand_size <= (84 - 1) // 2 = 41
S_HBITS, S_VC, S_NC, S_HN = 0, 2, 4, 6  # [2] each: suited bits, Valknuts, Hagalaz, cards in hand
S_STOCK_HEAD, S_STOCK_TAIL, S_IND, S_TRUMP = 8, 9, 10, 11  # stock = st[S_STOCK + head .. tail - 1], top first
S_WON_N = 12  # [2] tricks in each won pile
S_LEAD, S_FOLLOW, S_TRICK_N, S_DISC_N = 14, 15, 16, 17  # faces on the table, public discards
S_BURIED_N = 18  # [2] 3-discards per seat
S_BID, S_SCORE, S_EXACT = 20, 22, 24  # [2] each; bid -1 = not yet
S_DEALER, S_LEADER, S_ROUND, S_TRICKS_PLAYED = 26, 27, 28, 29
S_TRICK_LEADER, S_TRICK_WINNER, S_WIN_FACE = 30, 31, 32
S_THREE_Q, S_THREE_N, S_THREES_OWNER = 33, 35, 36  # queue of seats whose 3 trades (leader's first)
S_PHASE, S_BID_TURN, S_DKIND, S_DSEAT, S_TAKEN = 37, 38, 39, 40, 41
S_PLIES, S_TURNS, S_TRICKS_WON, S_DESTROYED, S_STEALS, S_TRADES, S_SWAPS = 42, 43, 44, 46, 47, 49, 51
S_TRUMP_CHANGES, S_NO_TRUMP_ROUNDS, S_FIRST_DEALER, S_ROUND_POINTS = 53, 54, 55, 56  # round points [2]
S_DESTROYED_AT_START, S_STOCK_LAST = 58, 59  # for the §7 checks
S_SEAT_PLIES = 60  # [2] decision points presented to each seat
S_STOCK = 64  # [2 * MAX_DECK]
S_WON = S_STOCK + 2 * MAX_DECK  # won[seat, k, 0/1] at S_WON + (seat * MAX_TRICKS + k) * 2 + j
COPY_SIZE = S_WON + 2 * MAX_TRICKS * 2  # what a rollout copies
S_VOID = COPY_SIZE  # [2] suits (bits) the seat knows the opponent lacks
S_SEEN = COPY_SIZE + 2  # [2 * MAX_FACES]
S_KNOWN = S_SEEN + 2 * MAX_FACES  # [2 * MAX_FACES]
S_DISC = S_KNOWN + 2 * MAX_FACES  # [MAX_FACES] every discarded face (public and buried), for §7.1
STATE_SIZE = S_DISC + MAX_FACES

# -- result columns (one row per game) -----------------------------------------------------
COLUMNS = (("winner", "win_0", "win_1", "result", "first_dealer", "rounds", "turns", "plies",
            "decisions", "options", "lead_changes", "decisive_turn",
            "destroyed_tricks", "trump_changes", "no_trump_rounds")
           + tuple(f"{name}_{seat}" for name in SEAT_FIELDS for seat in (0, 1)) + ("plies_0", "plies_1"))
# offsets from the names (toolkit.core.layout): a run written as offset + i is checked at import
(C_WINNER, C_RESULT, C_FIRST_DEALER, C_ROUNDS, C_TURNS, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES,
 C_DECISIVE_TURN, C_DESTROYED, C_TRUMP_CHANGES, C_NO_TRUMP) = (
    offset(COLUMNS, c) for c in ("winner", "result", "first_dealer", "rounds", "turns", "plies", "decisions",
                                 "options", "lead_changes", "decisive_turn", "destroyed_tricks", "trump_changes",
                                 "no_trump_rounds"))
C_WIN = seat_run(COLUMNS, "win", 2)
C_SEAT = block(COLUMNS, SEAT_FIELDS, 2)  # SEAT_FIELDS in order, two columns each
C_SEAT_PLIES = seat_run(COLUMNS, "plies", 2)
assert C_SEAT_PLIES == C_SEAT + 2 * len(SEAT_FIELDS)
N_COLUMNS = len(COLUMNS)
RESULT_CODES = ("win", "draw")
LOG_FIELDS = ROUND_LOG_FIELDS
N_LOG = len(LOG_FIELDS)
L_ROUND, L_SEAT, L_DEALER, L_BID, L_TRICKS, L_POINTS, L_STRENGTH, L_TRUMPS, L_SPECIALS = range(9)
L_ONES, L_THREES, L_SIXES, L_NINES, L_TRUMP, L_STEALS, L_TRADES, L_SWAPS = range(9, 17)

# invariant violation codes (check=True): the number of the §7 invariant; 10 = a bid or trick count out of bounds
INV_CARDS, INV_HAND_SIZES, INV_TRICKS, INV_ROUND_POINTS, INV_SCORES, INV_ROUNDS, INV_TRUMP = 1, 2, 3, 4, 5, 6, 7
INV_FOLLOW, INV_STOCK, INV_BOUNDS = 8, 9, 10

# -- work array layout (play_game's buffers) ---------------------------------------------------
W_ST = 0
W_BASE = STATE_SIZE  # the lookahead's determinized world
W_WORLD = 2 * STATE_SIZE  # one rollout's copy
W_OPTS = 3 * STATE_SIZE  # options of the real decision [MAX_FACES]
W_OPTS2 = W_OPTS + MAX_FACES  # options inside rollouts
W_CANDS = W_OPTS2 + MAX_FACES
W_TOTALS = W_CANDS + MAX_FACES
W_POOL = W_TOTALS + MAX_FACES  # [MAX_DECK] unseen cards
W_REST = W_POOL + MAX_DECK  # [MAX_DECK]
W_DECK = W_REST + MAX_DECK  # [MAX_DECK] the shuffled deck
W_COUNTS = W_DECK + MAX_DECK  # [MAX_FACES] §7.1 tally
W_LEAD = W_COUNTS + MAX_FACES  # [LEAD_FIELDS] toolkit.core.lead's scratch
W_VALUES = W_LEAD + LEAD_FIELDS  # [2] the seats' lead measures
WORK_SIZE = W_VALUES + 2


def to_kernel(rules):
    """Rules -> the int64 parameter vector."""
    ip = np.zeros(N_PARAMS, np.int64)
    r = rules.max_rank
    ip[P_SUITS], ip[P_RANK], ip[P_NV], ip[P_NN] = rules.suits, r, rules.valknut_count, rules.hagalaz_count
    ip[P_HAND] = rules.hand_size
    ip[P_FIRST_DEALER] = FIRST_DEALER[rules.first_dealer]
    ip[P_REDRAW] = rules.special_indicator_means == "redraw"
    ip[P_TRUMP_ANY] = rules.trump_anytime
    ip[P_SPECIALS_PLAYABLE] = rules.specials_always_playable
    ip[P_DH_SECOND] = rules.double_hagalaz_winner == "second_played"
    ip[P_DV_CHANGE] = rules.double_valknut_changes_trump
    ip[P_DESTROYED_LEADER] = DESTROYED_LEADER[rules.destroyed_trick_next_leader]
    ip[P_V_OVERRIDES] = rules.valknut_overrides_hagalaz_lead
    ip[P_E1], ip[P_E3], ip[P_E6] = EFFECT[rules.effect_1], EFFECT[rules.effect_3], EFFECT[rules.effect_6]
    ip[P_THREE_WON] = rules.three_trigger == "won"
    ip[P_E9] = rules.effect_9
    ip[P_PPT], ip[P_EXACT], ip[P_CONS] = rules.points_per_trick, rules.exact_bid_bonus, rules.consolation_bonus
    ip[P_CONS_MASK] = sum(1 << k for k in rules.consolation_range)
    ip[P_CONS_EXACT] = rules.consolation_requires_exact_bid
    ip[P_TARGET], ip[P_MAX_ROUNDS] = rules.target_score, rules.max_rounds
    ip[P_TIEBREAK_DRAW] = rules.tiebreak == "draw"
    ip[P_DECK], ip[P_SUITED] = rules.deck_size, rules.suited_cards
    from toolkit.games.herrlof.reference import round_points

    points = [round_points(rules, won, bid) for won in range(rules.hand_size + 1) for bid in range(rules.hand_size + 1)]
    ip[P_POINTS_LO], ip[P_POINTS_HI] = min(points), max(points)
    ip[P_SCORES_MONOTONE] = min(points) >= 0
    for s in range(rules.suits):
        ip[P_SUIT_MASK + s] = ((1 << r) - 1) << (s * r)
    for rank in range(1, r + 1):
        ip[P_RANK_MASK + rank] = sum(1 << (s * r + rank - 1) for s in range(rules.suits))
    return ip


def policy_ids(policies) -> np.ndarray:
    """Policy names -> kernel ids and sample counts: ``[id_0, id_1, samples_0, samples_1]``."""
    out = np.zeros(4, np.int64)
    for seat, name in enumerate(policies):
        base, samples = parse_policy(name)
        out[seat], out[2 + seat] = POLICY_ID[base], samples
    return out


# ------------------------------------------------------------------------ cards and hands


@njit_inline
def suit_of(ip, f):
    return f // ip[P_RANK] if f < ip[P_SUITED] else -1


@njit_inline
def rank_of(ip, f):
    return f % ip[P_RANK] + 1 if f < ip[P_SUITED] else 0


@njit_inline
def hand_mask(ip, st, seat):
    """The distinct faces of a hand as bits (V bit = suited, N bit = suited + 1)."""
    v = ip[P_SUITED]
    m = st[S_HBITS + seat]
    if st[S_VC + seat] > 0:
        m |= np.int64(1) << v
    if st[S_NC + seat] > 0:
        m |= np.int64(1) << (v + 1)
    return m


@njit_inline
def hand_count(ip, st, seat, f):
    v = ip[P_SUITED]
    if f < v:
        return (st[S_HBITS + seat] >> f) & 1
    return st[S_VC + seat] if f == v else st[S_NC + seat]


@njit_inline
def hand_add(ip, st, seat, f):
    v = ip[P_SUITED]
    if f < v:
        st[S_HBITS + seat] |= np.int64(1) << f
    elif f == v:
        st[S_VC + seat] += 1
    else:
        st[S_NC + seat] += 1
    st[S_HN + seat] += 1


@njit_inline
def hand_remove(ip, st, seat, f):
    v = ip[P_SUITED]
    if f < v:
        st[S_HBITS + seat] &= ~(np.int64(1) << f)
    elif f == v:
        st[S_VC + seat] -= 1
    else:
        st[S_NC + seat] -= 1
    st[S_HN + seat] -= 1


@njit_inline
def hand_card_at(ip, st, seat, i):
    """The i-th physical card of the sorted hand."""
    bits = st[S_HBITS + seat]
    ns = popcount(bits)
    if i < ns:
        for _ in range(i):
            bits &= bits - 1
        return lowest_bit_index(bits)
    if i - ns < st[S_VC + seat]:
        return ip[P_SUITED]
    return ip[P_SUITED] + 1


@njit_inline
def mask_to_options(mask, opts):
    n = 0
    while mask != 0:
        opts[n] = lowest_bit_index(mask)
        n += 1
        mask &= mask - 1
    return n


@njit_inline
def is_trump(ip, st, f):
    t = st[S_TRUMP]
    return t >= 0 and f < ip[P_SUITED] and f // ip[P_RANK] == t


# ------------------------------------------------------------------------ R-3 tricks


@njit_inline
def legal_mask(ip, st, seat):
    """R-3.1 / R-3.2: the faces ``seat`` may play, as bits."""
    m = hand_mask(ip, st, seat)
    if st[S_TRICK_N] == 0:
        return m
    led = suit_of(ip, st[S_LEAD])
    if led < 0:
        return m
    suited = st[S_HBITS + seat]
    sm = ip[P_SUIT_MASK + led]
    if suited & sm == 0:
        return m
    legal = suited & sm
    if ip[P_SPECIALS_PLAYABLE] == 1:
        legal |= m & (np.int64(3) << ip[P_SUITED])
    if ip[P_TRUMP_ANY] == 1 and st[S_TRUMP] >= 0:
        legal |= suited & ip[P_SUIT_MASK + st[S_TRUMP]]
    return legal


@njit_inline
def trick_winner(ip, st, lead, follow):
    """R-3.3: 0 leader wins, 1 follower wins, DESTROYED."""
    v = ip[P_SUITED]
    n = v + 1
    if lead == v or follow == v:
        return DESTROYED
    if lead == n and follow == n:
        return ip[P_DH_SECOND]
    if lead == n:
        return 1
    if follow == n:
        return 0
    r = ip[P_RANK]
    if lead // r == follow // r:
        return 0 if lead > follow else 1
    if st[S_TRUMP] >= 0 and follow // r == st[S_TRUMP]:
        return 1
    return 0


@njit_inline
def play_card(ip, st, seat, f):
    opp = 1 - seat
    if st[S_TRICK_N] > 0:  # a follower who does not follow when it would have to is void
        led = suit_of(ip, st[S_LEAD])
        exempt = (f >= ip[P_SUITED] and ip[P_SPECIALS_PLAYABLE] == 1) or (ip[P_TRUMP_ANY] == 1 and is_trump(ip, st, f))
        if led >= 0 and suit_of(ip, f) != led and not exempt:
            st[S_VOID + opp] |= np.int64(1) << led
        st[S_FOLLOW] = f
    else:
        st[S_LEAD] = f
    hand_remove(ip, st, seat, f)
    st[S_TRICK_N] += 1
    st[S_SEEN + f] += 1
    st[S_SEEN + MAX_FACES + f] += 1
    if st[S_KNOWN + opp * MAX_FACES + f] > 0:
        st[S_KNOWN + opp * MAX_FACES + f] -= 1


@njit_inline
def resolve_trick(ip, st):
    lead, follow = st[S_LEAD], st[S_FOLLOW]
    leader = st[S_LEADER]
    w = trick_winner(ip, st, lead, follow)
    st[S_TRICK_LEADER] = leader
    st[S_TURNS] += 1
    st[S_TRICKS_PLAYED] += 1
    v = ip[P_SUITED]
    if w == DESTROYED:
        st[S_TRICK_WINNER] = DESTROYED
        st[S_WIN_FACE] = -1
        st[S_DESTROYED] += 1
        st[S_DISC_N] += 2
        st[S_DISC + lead] += 1
        st[S_DISC + follow] += 1
        if lead == v and follow == v and ip[P_DV_CHANGE] == 1 and st[S_STOCK_TAIL] > st[S_STOCK_HEAD]:
            change_trump(ip, st)
    else:
        winner = leader if w == 0 else 1 - leader
        st[S_TRICK_WINNER] = winner
        st[S_WIN_FACE] = lead if w == 0 else follow
        k = st[S_WON_N + winner]
        st[S_WON + (winner * MAX_TRICKS + k) * 2] = lead
        st[S_WON + (winner * MAX_TRICKS + k) * 2 + 1] = follow
        st[S_WON_N + winner] = k + 1
    st[S_THREE_N] = 0
    if ip[P_E3] != OFF:
        if rank_of(ip, lead) == 3 and (ip[P_THREE_WON] == 0 or st[S_TRICK_WINNER] == leader):
            st[S_THREE_Q + st[S_THREE_N]] = leader
            st[S_THREE_N] += 1
        if rank_of(ip, follow) == 3 and (ip[P_THREE_WON] == 0 or st[S_TRICK_WINNER] == 1 - leader):
            st[S_THREE_Q + st[S_THREE_N]] = 1 - leader
            st[S_THREE_N] += 1
    st[S_PHASE] = PH_THREE


@njit_inline
def change_trump(ip, st):
    """R-3.3.1: the indicator goes to the discard, the top stock card replaces it."""
    st[S_DISC + st[S_IND]] += 1
    st[S_DISC_N] += 1
    f = st[S_STOCK + st[S_STOCK_HEAD]]
    st[S_STOCK_HEAD] += 1
    st[S_IND] = f
    st[S_TRUMP] = suit_of(ip, f)
    st[S_SEEN + f] += 1
    st[S_SEEN + MAX_FACES + f] += 1
    st[S_TRUMP_CHANGES] += 1


# ------------------------------------------------------------------------ R-4 effects


@njit_inline
def draw_for_trade(ip, st, seat):
    f = st[S_STOCK + st[S_STOCK_HEAD]]
    st[S_STOCK_HEAD] += 1
    hand_add(ip, st, seat, f)
    st[S_TRADES + seat] += 1
    opp = 1 - seat
    for g in range(ip[P_SUITED] + 2):
        st[S_KNOWN + opp * MAX_FACES + g] = 0
    st[S_VOID + opp] = 0
    st[S_PHASE] = PH_THREE_DISCARD
    st[S_THREES_OWNER] = seat


@njit_inline
def steal(st, winner):
    opp = 1 - winner
    k = st[S_WON_N + opp] - 1
    j = st[S_WON_N + winner]
    st[S_WON + (winner * MAX_TRICKS + j) * 2] = st[S_WON + (opp * MAX_TRICKS + k) * 2]
    st[S_WON + (winner * MAX_TRICKS + j) * 2 + 1] = st[S_WON + (opp * MAX_TRICKS + k) * 2 + 1]
    st[S_WON_N + opp] = k
    st[S_WON_N + winner] = j + 1
    st[S_STEALS + winner] += 1


@njit_inline
def take_for_swap(ip, st, winner, rs, ck):
    opp = 1 - winner
    i = rng.below(rs, ck, st[S_HN + opp])
    f = hand_card_at(ip, st, opp, i)
    hand_remove(ip, st, opp, f)
    hand_add(ip, st, winner, f)
    st[S_SWAPS + winner] += 1
    st[S_TAKEN] = f
    if st[S_KNOWN + winner * MAX_FACES + f] > 0:
        st[S_KNOWN + winner * MAX_FACES + f] -= 1
    st[S_KNOWN + opp * MAX_FACES + f] += 1
    if f < ip[P_SUITED]:
        st[S_VOID + opp] &= ~(np.int64(1) << suit_of(ip, f))
    st[S_PHASE] = PH_GIVE


@njit_inline
def give(ip, st, winner, f):
    opp = 1 - winner
    hand_remove(ip, st, winner, f)
    hand_add(ip, st, opp, f)
    st[S_KNOWN + winner * MAX_FACES + f] += 1
    if f < ip[P_SUITED]:
        st[S_VOID + winner] &= ~(np.int64(1) << suit_of(ip, f))
    if st[S_KNOWN + opp * MAX_FACES + f] > 0:
        st[S_KNOWN + opp * MAX_FACES + f] -= 1


@njit_inline
def next_leader(ip, st):
    """R-4.4."""
    leader = st[S_TRICK_LEADER]
    lead, follow = st[S_LEAD], st[S_FOLLOW]
    v = ip[P_SUITED]
    n = v + 1
    has_n = lead == n or follow == n
    if st[S_TRICK_WINNER] == DESTROYED:
        if ip[P_V_OVERRIDES] == 0 and has_n:
            return leader if lead == n else 1 - leader
        rule = ip[P_DESTROYED_LEADER]
        if rule == 0:
            return leader
        if rule == 1:
            return leader if lead == v else 1 - leader
        return 1 - leader
    w = st[S_TRICK_WINNER]
    if has_n:
        return 1 - w
    wf = st[S_WIN_FACE]
    if ip[P_E9] == 1 and wf < v and rank_of(ip, wf) == 9:
        return 1 - w
    return w


# ------------------------------------------------------------------------ R-5 scoring


@njit_inline
def round_points(ip, won, bid):
    in_range = (ip[P_CONS_MASK] >> won) & 1 == 1
    bonus = 0
    if won == bid:
        bonus = ip[P_CONS] if (ip[P_CONS_EXACT] == 1 and in_range) else ip[P_EXACT]
    if ip[P_CONS_EXACT] == 0 and in_range:
        bonus += ip[P_CONS]
    return ip[P_PPT] * won + bonus


@njit_inline
def lead_measure(st, values):
    """reference.lead_measure: each seat's score of the hands scored so far, into ``values[0:2]``."""
    values[0] = st[S_SCORE]
    values[1] = st[S_SCORE + 1]


# ------------------------------------------------------------------------ the state machine (§5)


@njit_no_nrt
def next_decision(ip, st, opts, rs, ck):
    """Run the automatic steps up to the next decision point; list its options in ``opts``.

    Returns the number of options (0 at the round's end); the decision's kind and
    seat are left in ``st[S_DKIND]``, ``st[S_DSEAT]``.  ``ck`` is the stream of the
    6-effect take."""
    v = ip[P_SUITED]
    while True:
        phase = st[S_PHASE]
        if phase == PH_BID:
            if st[S_BID_TURN] < 2:
                seat = 1 - st[S_DEALER] if st[S_BID_TURN] == 0 else st[S_DEALER]
                st[S_DKIND], st[S_DSEAT] = DP_BID, seat
                for b in range(ip[P_HAND] + 1):
                    opts[b] = b
                return ip[P_HAND] + 1
            st[S_PHASE] = PH_LEAD
        elif phase == PH_LEAD or phase == PH_FOLLOW:
            seat = st[S_LEADER] if phase == PH_LEAD else 1 - st[S_LEADER]
            st[S_DKIND], st[S_DSEAT] = DP_CARD, seat
            return mask_to_options(legal_mask(ip, st, seat), opts)
        elif phase == PH_THREE:
            if st[S_THREE_N] == 0:
                st[S_PHASE] = PH_ONE
                continue
            seat = st[S_THREE_Q]
            if st[S_STOCK_TAIL] == st[S_STOCK_HEAD]:
                pop_three(st)
                continue
            if ip[P_E3] == OPTIONAL:
                st[S_DKIND], st[S_DSEAT] = DP_TRADE, seat
                opts[0], opts[1] = YES, DECLINE
                return 2
            pop_three(st)
            draw_for_trade(ip, st, seat)
        elif phase == PH_THREE_DISCARD:
            seat = st[S_THREES_OWNER]
            st[S_DKIND], st[S_DSEAT] = DP_TRADE_DISCARD, seat
            return mask_to_options(hand_mask(ip, st, seat), opts)
        elif phase == PH_ONE:
            w = st[S_TRICK_WINNER]
            wf = st[S_WIN_FACE]
            st[S_PHASE] = PH_SIX
            if w != DESTROYED and ip[P_E1] != OFF and wf < v and rank_of(ip, wf) == 1 and st[S_WON_N + 1 - w] > 0:
                if ip[P_E1] == OPTIONAL:
                    st[S_PHASE] = PH_ONE_DECIDE
                else:
                    steal(st, w)
        elif phase == PH_ONE_DECIDE:
            st[S_DKIND], st[S_DSEAT] = DP_STEAL, st[S_TRICK_WINNER]
            opts[0], opts[1] = YES, DECLINE
            return 2
        elif phase == PH_SIX:
            w = st[S_TRICK_WINNER]
            wf = st[S_WIN_FACE]
            st[S_PHASE] = PH_NEXT_LEADER
            if w != DESTROYED and ip[P_E6] != OFF and wf < v and rank_of(ip, wf) == 6 and st[S_HN + 1 - w] > 0:
                if ip[P_E6] == OPTIONAL:
                    st[S_PHASE] = PH_SIX_DECIDE
                else:
                    take_for_swap(ip, st, w, rs, ck)
        elif phase == PH_SIX_DECIDE:
            st[S_DKIND], st[S_DSEAT] = DP_SWAP, st[S_TRICK_WINNER]
            opts[0], opts[1] = YES, DECLINE
            return 2
        elif phase == PH_GIVE:
            w = st[S_TRICK_WINNER]
            st[S_DKIND], st[S_DSEAT] = DP_GIVE, w
            return mask_to_options(hand_mask(ip, st, w), opts)
        elif phase == PH_NEXT_LEADER:
            st[S_LEADER] = next_leader(ip, st)
            st[S_TRICK_N] = 0
            st[S_PHASE] = PH_LEAD if st[S_TRICKS_PLAYED] < ip[P_HAND] else PH_ROUND_END
        else:
            return 0


@njit_inline
def pop_three(st):
    st[S_THREE_Q] = st[S_THREE_Q + 1]
    st[S_THREE_N] -= 1


@njit_no_nrt
def apply_decision(ip, st, option, rs, ck):
    """Apply ``option`` to the pending decision (``st[S_DKIND]``, ``st[S_DSEAT]``); count the ply."""
    st[S_PLIES] += 1
    kind, seat = st[S_DKIND], st[S_DSEAT]
    st[S_SEAT_PLIES + seat] += 1
    if kind == DP_BID:
        st[S_BID + seat] = option
        st[S_BID_TURN] += 1
    elif kind == DP_CARD:
        play_card(ip, st, seat, option)
        if st[S_PHASE] == PH_LEAD:
            st[S_PHASE] = PH_FOLLOW
        else:
            resolve_trick(ip, st)
    elif kind == DP_TRADE:
        pop_three(st)
        if option == YES:
            draw_for_trade(ip, st, seat)
    elif kind == DP_TRADE_DISCARD:
        hand_remove(ip, st, seat, option)
        st[S_BURIED_N + seat] += 1
        st[S_DISC + option] += 1
        st[S_SEEN + seat * MAX_FACES + option] += 1
        st[S_PHASE] = PH_THREE
    elif kind == DP_STEAL:
        st[S_PHASE] = PH_SIX
        if option == YES:
            steal(st, seat)
    elif kind == DP_SWAP:
        st[S_PHASE] = PH_NEXT_LEADER
        if option == YES:
            take_for_swap(ip, st, seat, rs, ck)
    else:  # DP_GIVE
        give(ip, st, seat, option)
        st[S_PHASE] = PH_NEXT_LEADER


# ------------------------------------------------------------------------ greedy (policies.py)


@njit_inline
def hand_strength(ip, bits, trump):
    """policies.hand_strength on the suited bits of a hand (specials add nothing)."""
    r = ip[P_RANK]
    quarters = 0
    while bits != 0:
        f = lowest_bit_index(bits)
        bits &= bits - 1
        rank = f % r + 1
        if f // r == trump:
            quarters += 4 if rank >= r - 2 else (2 if rank >= r - 5 else 1)
        else:
            quarters += 3 if rank == r else (2 if rank == r - 1 else (1 if rank == r - 2 else 0))
    return quarters


@njit_inline
def greedy_bid(ip, st, seat):
    q = hand_strength(ip, st[S_HBITS + seat], st[S_TRUMP]) + 4 * st[S_HN + seat] // 5
    return min(ip[P_HAND], (q + 2) // 4)


@njit_inline
def power(ip, st, f):
    v = ip[P_SUITED]
    if f == v:
        return 0
    if f == v + 1:
        return -1
    return f % ip[P_RANK] + 1 + (ip[P_RANK] if is_trump(ip, st, f) else 0)


@njit_inline
def shed_key(ip, st, f):
    v = ip[P_SUITED]
    if f == v + 1:
        return -100
    if f == v:
        return 100
    return power(ip, st, f)


@njit_inline
def lead_low_key(ip, st, f):
    return 99 if f == ip[P_SUITED] else shed_key(ip, st, f)


@njit_inline
def lose_key(ip, st, f):
    v = ip[P_SUITED]
    if f == v:
        return -1
    if f == v + 1:
        return 0
    return power(ip, st, f)


@njit_inline
def first_best(ip, st, opts, n, key_id, sign, lead, want):
    """The first option (canonical order) with the smallest ``sign * key``; with ``want`` >= 0
    only options whose trick_winner(lead, f) == want (want = 2: != 1); -1 if none."""
    best, best_key = -1, 0
    for i in range(n):
        f = opts[i]
        if want == 1 and trick_winner(ip, st, lead, f) != 1:
            continue
        if want == 2 and trick_winner(ip, st, lead, f) == 1:
            continue
        if key_id == 0:
            k = power(ip, st, f)
        elif key_id == 1:
            k = shed_key(ip, st, f)
        elif key_id == 2:
            k = lead_low_key(ip, st, f)
        else:
            k = lose_key(ip, st, f)
        k = sign * k
        if best < 0 or k < best_key:
            best, best_key = f, k
    return best


KEY_POWER, KEY_SHED, KEY_LEAD_LOW, KEY_LOSE = 0, 1, 2, 3


@njit_no_nrt
def greedy_choice(ip, st, opts, n):
    if n == 1:
        return opts[0]
    kind, seat = st[S_DKIND], st[S_DSEAT]
    if kind == DP_BID:
        return greedy_bid(ip, st, seat)
    if kind == DP_TRADE or kind == DP_SWAP:
        return YES
    need = st[S_BID + seat] - st[S_WON_N + seat]
    if kind == DP_STEAL:
        return YES if need > 0 else DECLINE
    if kind == DP_TRADE_DISCARD or kind == DP_GIVE:
        if need > 0:
            return first_best(ip, st, opts, n, KEY_SHED, 1, 0, -1)
        return first_best(ip, st, opts, n, KEY_POWER, -1, 0, -1)
    if st[S_TRICK_N] == 0:  # leading
        if need > 0:
            return first_best(ip, st, opts, n, KEY_POWER, -1, 0, -1)
        return first_best(ip, st, opts, n, KEY_LEAD_LOW, 1, 0, -1)
    lead = st[S_LEAD]
    if need > 0:
        f = first_best(ip, st, opts, n, KEY_POWER, 1, lead, 1)
        if f >= 0:
            return f
        return first_best(ip, st, opts, n, KEY_SHED, 1, 0, -1)
    f = first_best(ip, st, opts, n, KEY_LOSE, -1, lead, 2)
    if f >= 0:
        return f
    return first_best(ip, st, opts, n, KEY_POWER, 1, 0, -1)


# ------------------------------------------------------------------------ lookahead (PIMC)


@njit_no_nrt
def determinize(ip, st, me, base, pool, rest, rs, k):
    """policies.determinize: fill ``base`` with a world consistent with what ``me`` knows."""
    opp = 1 - me
    for i in range(COPY_SIZE):
        base[i] = st[i]
    # the pool of unseen faces, canonical order
    v = ip[P_SUITED]
    m = 0
    known_n = 0
    for f in range(v + 2):
        if f < v:
            total = 1
        elif f == v:
            total = ip[P_NV]
        else:
            total = ip[P_NN]
        known = st[S_KNOWN + me * MAX_FACES + f]
        known_n += known
        c = total - hand_count(ip, st, me, f) - st[S_SEEN + me * MAX_FACES + f] - known
        for _ in range(c):
            pool[m] = f
            m += 1
    want = st[S_HN + opp] - known_n
    void = st[S_VOID + me]
    # eligible cards first (into rest[0..e-1]), the void-suit ones after them
    e = 0
    for i in range(m):
        s = suit_of(ip, pool[i])
        if s < 0 or (void >> s) & 1 == 0:
            rest[e] = pool[i]
            e += 1
    if e < want:
        for i in range(m):
            rest[i] = pool[i]
        e = m
    else:
        t = e
        for i in range(m):
            s = suit_of(ip, pool[i])
            if s >= 0 and (void >> s) & 1 == 1:
                rest[t] = pool[i]
                t += 1
    for i in range(want):  # partial Fisher-Yates over the eligible cards
        j = i + rng.below(rs, k, e - i)
        tmp = rest[i]
        rest[i] = rest[j]
        rest[j] = tmp
    # the opponent's hand: the known cards and the sample
    base[S_HBITS + opp] = 0
    base[S_VC + opp] = 0
    base[S_NC + opp] = 0
    base[S_HN + opp] = 0
    for f in range(v + 2):
        for _ in range(st[S_KNOWN + me * MAX_FACES + f]):
            hand_add(ip, base, opp, f)
    for i in range(want):
        hand_add(ip, base, opp, rest[i])
    # the rest, shuffled: the stock (top first), then the opponent's 3-discards
    r = m - want
    rng.shuffle(rest, want, r, rs, k)
    size = st[S_STOCK_TAIL] - st[S_STOCK_HEAD]
    for i in range(size):
        base[S_STOCK + i] = rest[want + i]
    base[S_STOCK_HEAD] = 0
    base[S_STOCK_TAIL] = size
    base[S_THREES_OWNER] = me
    base[S_BID + opp] = -1
    bid_turn = st[S_BID_TURN]
    if bid_turn == 2 or (bid_turn == 1 and opp == 1 - st[S_DEALER]):
        base[S_BID + opp] = min(ip[P_HAND], base[S_WON_N + opp] + greedy_bid(ip, base, opp))


@njit_no_nrt
def rollout_value(ip, world, me, opts, rs, k):
    while True:
        n = next_decision(ip, world, opts, rs, k)
        if n == 0:
            break
        apply_decision(ip, world, greedy_choice(ip, world, opts, n), rs, k)
    return (round_points(ip, world[S_WON_N + me], world[S_BID + me])
            - round_points(ip, world[S_WON_N + 1 - me], world[S_BID + 1 - me]))


@njit_no_nrt
def lookahead_choice(ip, st, opts, n, samples, rs, work):
    if n == 1:
        return opts[0]
    me, kind = st[S_DSEAT], st[S_DKIND]
    k = 1 + me
    base = work[W_BASE:W_BASE + STATE_SIZE]
    world = work[W_WORLD:W_WORLD + STATE_SIZE]
    opts2 = work[W_OPTS2:W_OPTS2 + MAX_FACES]
    cands = work[W_CANDS:W_CANDS + MAX_FACES]
    totals = work[W_TOTALS:W_TOTALS + MAX_FACES]
    pool = work[W_POOL:W_POOL + MAX_DECK]
    rest = work[W_REST:W_REST + MAX_DECK]
    nc = 0
    if kind == DP_BID:
        g = greedy_bid(ip, st, me)
        for i in range(n):
            if abs(opts[i] - g) <= BID_WINDOW:
                cands[nc] = opts[i]
                nc += 1
    else:
        for i in range(n):
            cands[i] = opts[i]
        nc = n
    for i in range(nc):
        totals[i] = 0
    for _ in range(samples):
        determinize(ip, st, me, base, pool, rest, rs, k)
        for i in range(nc):
            for j in range(COPY_SIZE):
                world[j] = base[j]
            apply_decision(ip, world, cands[i], rs, k)
            totals[i] += rollout_value(ip, world, me, opts2, rs, k)
    best = 0
    for i in range(1, nc):
        if totals[i] > totals[best]:
            best = i
    return cands[best]


# ------------------------------------------------------------------------ §7 checks


@njit_inline
def check_cards(ip, st, counts):
    """§7.1: hands + stock + indicator + trick + discard + won tricks hold the deck exactly."""
    v = ip[P_SUITED]
    for f in range(v + 2):
        counts[f] = st[S_DISC + f] + hand_count(ip, st, 0, f) + hand_count(ip, st, 1, f)
    counts[st[S_IND]] += 1
    for i in range(st[S_STOCK_HEAD], st[S_STOCK_TAIL]):
        counts[st[S_STOCK + i]] += 1
    if st[S_PHASE] == PH_FOLLOW:
        counts[st[S_LEAD]] += 1
    for seat in range(2):
        for j in range(st[S_WON_N + seat]):
            counts[st[S_WON + (seat * MAX_TRICKS + j) * 2]] += 1
            counts[st[S_WON + (seat * MAX_TRICKS + j) * 2 + 1]] += 1
    total = 0
    for f in range(v + 2):
        want = 1 if f < v else (ip[P_NV] if f == v else ip[P_NN])
        if counts[f] != want:
            return False
        total += counts[f]
    return total == ip[P_DECK]


@njit_no_nrt
def check_step(ip, st, counts, follow_ok):
    if not check_cards(ip, st, counts):
        return INV_CARDS
    if not follow_ok:
        return INV_FOLLOW
    phase = st[S_PHASE]
    if phase == PH_LEAD or phase == PH_ROUND_END:  # after the k-th trick and its effects
        left = ip[P_HAND] - st[S_TRICKS_PLAYED]
        if st[S_HN] != left or st[S_HN + 1] != left:
            return INV_HAND_SIZES
    if (st[S_TRUMP] < 0) != (st[S_IND] >= ip[P_SUITED]):
        return INV_TRUMP
    size = st[S_STOCK_TAIL] - st[S_STOCK_HEAD]
    if size > st[S_STOCK_LAST]:
        return INV_STOCK
    st[S_STOCK_LAST] = size
    return 0


# ------------------------------------------------------------------------ the game


@njit_inline
def deal_round(ip, st, deck, dealer, rs):
    """R-2: reset the round, shuffle (Fisher-Yates, canonical deck) and deal."""
    v = ip[P_SUITED]
    d = ip[P_DECK]
    i = 0
    for f in range(v):
        deck[i] = f
        i += 1
    for _ in range(ip[P_NV]):
        deck[i] = v
        i += 1
    for _ in range(ip[P_NN]):
        deck[i] = v + 1
        i += 1
    rng.shuffle(deck, 0, d, rs, 0)
    for seat in range(2):
        st[S_HBITS + seat] = 0
        st[S_VC + seat] = 0
        st[S_NC + seat] = 0
        st[S_HN + seat] = 0
        st[S_WON_N + seat] = 0
        st[S_BURIED_N + seat] = 0
        st[S_BID + seat] = -1
        st[S_VOID + seat] = 0
    for i in range(2 * MAX_FACES):
        st[S_SEEN + i] = 0
        st[S_KNOWN + i] = 0
    for i in range(MAX_FACES):
        st[S_DISC + i] = 0
    h = ip[P_HAND]
    for i in range(h):
        hand_add(ip, st, 1 - dealer, deck[i])
        hand_add(ip, st, dealer, deck[h + i])
    head = 0
    tail = 0
    for i in range(2 * h, d):
        st[S_STOCK + tail] = deck[i]
        tail += 1
    ind = st[S_STOCK + head]
    head += 1
    if ip[P_REDRAW] == 1:
        while ind >= v:
            st[S_STOCK + tail] = ind
            tail += 1
            ind = st[S_STOCK + head]
            head += 1
    st[S_STOCK_HEAD], st[S_STOCK_TAIL] = head, tail
    st[S_STOCK_LAST] = tail - head
    st[S_IND] = ind
    st[S_TRUMP] = suit_of(ip, ind)
    st[S_SEEN + ind] += 1
    st[S_SEEN + MAX_FACES + ind] += 1
    if st[S_TRUMP] < 0:
        st[S_NO_TRUMP_ROUNDS] += 1
    st[S_DEALER] = dealer
    st[S_LEADER] = 1 - dealer
    st[S_TRICK_N] = 0
    st[S_DISC_N] = 0
    st[S_TRICKS_PLAYED] = 0
    st[S_THREE_N] = 0
    st[S_PHASE] = PH_BID
    st[S_BID_TURN] = 0
    st[S_TAKEN] = -1
    st[S_DESTROYED_AT_START] = st[S_DESTROYED]


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


@njit_no_nrt
def play_game(ip, policies, seed, game, row, check, rs, work, log):
    """Play one game; fill ``row`` (COLUMNS) and, if it has rows, the round ``log``.

    Returns a §7 violation code when ``check`` (0 = none).  ``rs`` (3 uint64) and
    ``work`` (``WORK_SIZE`` int64) belong to the caller: nothing is allocated here."""
    rng.seed_streams(rs, seed, game)
    st = work[W_ST:W_ST + STATE_SIZE]
    opts = work[W_OPTS:W_OPTS + MAX_FACES]
    deck = work[W_DECK:W_DECK + MAX_DECK]
    counts = work[W_COUNTS:W_COUNTS + MAX_FACES]
    lead = work[W_LEAD:W_LEAD + LEAD_FIELDS]
    values = work[W_VALUES:W_VALUES + 2]
    lead_reset(lead)
    decisions = 0
    n_options = 0
    for i in range(STATE_SIZE):
        st[i] = 0
    for i in range(row.shape[0]):
        row[i] = 0
    violation = 0
    logging = log.shape[0] > 0
    if ip[P_FIRST_DEALER] == 0:
        dealer = rng.below(rs, 0, 2)
    else:
        dealer = ip[P_FIRST_DEALER] - 1
    st[S_FIRST_DEALER] = dealer
    h = ip[P_HAND]
    while True:
        st[S_ROUND] += 1
        deal_round(ip, st, deck, dealer, rs)
        row0 = 2 * (st[S_ROUND] - 1)
        if logging and row0 + 1 < log.shape[0]:
            log_deal(ip, st, log, row0, dealer)
        follow_ok = True
        while True:
            n = next_decision(ip, st, opts, rs, 0)
            if check and violation == 0:  # between actions, after the automatic steps
                violation = check_step(ip, st, counts, follow_ok)
            if n == 0:
                break
            decisions += 1
            n_options += n
            seat = st[S_DSEAT]
            pid = policies[seat]
            if pid == 0:
                option = opts[0] if n == 1 else opts[rng.below(rs, 1 + seat, n)]
            elif pid == 1:
                option = greedy_choice(ip, st, opts, n)
            else:
                option = lookahead_choice(ip, st, opts, n, policies[2 + seat], rs, work)
            if check and st[S_DKIND] == DP_CARD:
                follow_ok = (legal_mask(ip, st, seat) >> option) & 1 == 1
            turns = st[S_TURNS]
            apply_decision(ip, st, option, rs, 0)
            if st[S_TURNS] != turns and st[S_TRICKS_PLAYED] < h:  # a trick ended, not the hand's last
                lead_measure(st, values)
                lead_update(lead, values, 2, st[S_TURNS])
        # R-5 scoring
        destroyed = st[S_DESTROYED] - st[S_DESTROYED_AT_START]
        for seat in range(2):
            won = st[S_WON_N + seat]
            bid = st[S_BID + seat]
            pts = round_points(ip, won, bid)
            if check and violation == 0:
                if not (ip[P_POINTS_LO] <= pts <= ip[P_POINTS_HI]):
                    violation = INV_ROUND_POINTS
                elif pts < 0 and ip[P_SCORES_MONOTONE] == 1:
                    violation = INV_SCORES
                elif bid < 0 or bid > h or won > h:
                    violation = INV_BOUNDS
            st[S_ROUND_POINTS + seat] = pts
            st[S_SCORE + seat] += pts
            if won == bid:
                st[S_EXACT + seat] += 1
            st[S_TRICKS_WON + seat] += won
            if logging and row0 + 1 < log.shape[0]:
                lr = row0 + seat
                log[lr, L_BID] = bid
                log[lr, L_TRICKS] = won
                log[lr, L_POINTS] = pts
                log[lr, L_STEALS] += st[S_STEALS + seat]
                log[lr, L_TRADES] += st[S_TRADES + seat]
                log[lr, L_SWAPS] += st[S_SWAPS + seat]
        lead_measure(st, values)  # the hand's last trick, with the hand scored
        lead_update(lead, values, 2, st[S_TURNS])
        if check and violation == 0:
            if st[S_WON_N] + st[S_WON_N + 1] + destroyed != h:
                violation = INV_TRICKS
            elif st[S_ROUND] > ip[P_MAX_ROUNDS]:
                violation = INV_ROUNDS
        if max(st[S_SCORE], st[S_SCORE + 1]) >= ip[P_TARGET] or st[S_ROUND] >= ip[P_MAX_ROUNDS]:
            break
        dealer = 1 - dealer
    #
    s0, s1 = st[S_SCORE], st[S_SCORE + 1]
    if s0 != s1:
        w = 0 if s0 > s1 else 1
    elif ip[P_TIEBREAK_DRAW] == 0 and st[S_EXACT] != st[S_EXACT + 1]:
        w = 0 if st[S_EXACT] > st[S_EXACT + 1] else 1
    else:
        w = -1
    row[C_WINNER] = w
    if w >= 0:
        row[C_WIN + w] = 1
    row[C_RESULT] = 0 if w >= 0 else 1
    row[C_FIRST_DEALER] = st[S_FIRST_DEALER]
    row[C_ROUNDS] = st[S_ROUND]
    row[C_TURNS] = st[S_TURNS]
    row[C_PLIES] = st[S_PLIES]
    row[C_DECISIONS] = decisions
    row[C_OPTIONS] = n_options
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(lead, w, st[S_TURNS])
    row[C_DESTROYED] = st[S_DESTROYED]
    row[C_TRUMP_CHANGES] = st[S_TRUMP_CHANGES]
    row[C_NO_TRUMP] = st[S_NO_TRUMP_ROUNDS]
    for seat in range(2):  # SEAT_FIELDS: score, exact_bids, tricks_won, steals, trades, swaps
        row[C_SEAT + seat] = st[S_SCORE + seat]
        row[C_SEAT + 2 + seat] = st[S_EXACT + seat]
        row[C_SEAT + 4 + seat] = st[S_TRICKS_WON + seat]
        row[C_SEAT + 6 + seat] = st[S_STEALS + seat]
        row[C_SEAT + 8 + seat] = st[S_TRADES + seat]
        row[C_SEAT + 10 + seat] = st[S_SWAPS + seat]
        row[C_SEAT_PLIES + seat] = st[S_SEAT_PLIES + seat]
    return violation


play_many = make_play_many(play_game, 3, WORK_SIZE, extra_shape=(0, N_LOG))  # no round log


def play_logged(ip, policies, seed, first_game, n_games, max_rounds):
    """Games with their per-round log: (rows, log of shape (n_games, 2 * max_rounds, N_LOG))."""
    out = np.zeros((n_games, N_COLUMNS), np.int32)
    log = np.zeros((n_games, 2 * max_rounds, N_LOG), np.int64)
    _play_logged(ip, policies, seed, first_game, out, log)
    return out, log


@njit_parallel
def _play_logged(ip, policies, seed, first_game, out, log):
    n = out.shape[0]
    blocks = min(n, 256)
    for b in prange(blocks):
        rs = np.empty(3, np.uint64)
        work = np.zeros(WORK_SIZE, np.int64)
        for i in range(b * n // blocks, (b + 1) * n // blocks):
            play_game(ip, policies, seed, first_game + i, out[i], False, rs, work, log[i])
